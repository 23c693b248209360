package judge

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"runtime"
	"runtime/debug"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"github.com/agentjudge/judge/internal/jsonvalue"
	"github.com/agentjudge/judge/internal/otelattr"
	"github.com/agentjudge/judge/layer"
	"github.com/agentjudge/judge/layer/criteria"
	"github.com/agentjudge/judge/layer/facts"
	"github.com/agentjudge/judge/layer/hallucination"
	"github.com/agentjudge/judge/layer/quality"
	"github.com/agentjudge/judge/layer/schema"
	"github.com/agentjudge/judge/result"
)

// maxCachedSchemaBytes is the largest schema document the engine keeps
// decoded between requests; larger ones are decoded each time, so that the
// cache's memory stays bounded (1024 entries of at most this size).
const maxCachedSchemaBytes = 256 << 10

// DefaultLayerTimeout is each layer's deadline unless set otherwise.
const DefaultLayerTimeout = 10 * time.Second

// DefaultLayers returns the layers a new Engine runs, cheap deterministic
// ones first.
func DefaultLayers() []*layer.Layer {
	return []*layer.Layer{schema.Layer, criteria.Layer, quality.Layer, facts.Layer, hallucination.Layer}
}

// Engine runs validation layers over requests. It is safe for concurrent
// use; make one and reuse it, since it caches compiled schemas and rules
// and reuses the goroutines that ran its layers (each exits after 10s
// without work).
type Engine struct {
	layers []*layer.Layer
	// caches are the layers' caches by layer name, all within budget;
	// layers of one declared cache group share one (see cacheName).
	caches       map[string]*layer.Cache
	budget       *layer.Budget
	cacheBytes   int64
	layerTimeout time.Duration
	schemas      map[string]any
	maxDepth     int
	// schemasKey digests schemas once, for every request's SchemaKey.
	schemasKey string
	// docs numbers schema documents by their bytes and holds them decoded,
	// so a schema sent with every request is decoded once.
	docs *schemaDocs
	// fast is the layer whose fast path (layer.Layer.Prepare) a request
	// giving only an output and schemas may take, or nil; see fastLayer
	// and validateFast.
	fast *layer.Layer
	// sourcesUnchecked is, when no layer of the engine declares that it
	// checks sources, the name of the default layer that does, for the
	// note on a request that gives sources; else "".
	sourcesUnchecked string
	// slots bounds the layer runs under way at once, abandoned ones
	// included.
	slots   chan struct{}
	maxRuns int
	// idle hands a layer run to a worker goroutine waiting for one; see
	// dispatch. workers counts the worker goroutines alive.
	idle    chan *layerRun
	workers atomic.Int64
	// parked is nil but in tests, which set it with an option of their
	// own (worker_test.go): a worker about to wait for its next run sends
	// on it, without blocking, just before its idle select, so that a test
	// receiving knows the worker is idle. With it, parkedN counts such
	// workers, and dispatch hands a run to one of them with a blocking
	// send, since a worker that signalled may not be in its select yet (a
	// non-blocking send would miss it).
	parked  chan struct{}
	parkedN atomic.Int64
	// stop is closed by Close: idle workers exit, busy ones after their
	// run. running counts the worker goroutines for Close to wait on;
	// closeMu orders every running.Add before Close's Wait (closed is set
	// under it), as sync.WaitGroup requires, so that a Validate racing
	// Close, or one after it, never adds to a group being waited on.
	stop    chan struct{}
	closeMu sync.Mutex
	closed  bool
	running sync.WaitGroup
	// model decides what rules cannot; nil without WithLLM or WithModel.
	model layer.Model
	// sourceDocs are the documents of WithSourceDir, against which
	// trusted_sources resolve.
	sourceDocs []layer.Source
	// selfCheck checks every result the engine builds (see
	// WithSelfCheck); selfCheckSet is true when an option chose it.
	selfCheck    *result.SelfCheck
	selfCheckSet bool
	// tracer starts the spans of validations and layers; nil without
	// WithTracerProvider, and then no span is started at all.
	tracer trace.Tracer
	// layerSpans are each layer's span name and start options, made once
	// in New so that a layer's span costs no string or option per run.
	layerSpans map[string]layerSpanStart
	// attrs lends the slices span attributes are set from.
	attrs otelattr.Setter
	// epoch is when New made the engine; see now.
	epoch time.Time
}

// layerSpanStart is how a layer's span starts: its name ("judge.layer
// schema") and its judge.layer attribute.
type layerSpanStart struct {
	name  string
	layer attribute.KeyValue // judge.layer, set at the span's end
}

// TracerScope is the instrumentation scope of the engine's spans.
const TracerScope = "github.com/agentjudge/judge"

// WithTracerProvider makes the engine start a span per validation
// ("judge.validate", with the verdict as attributes: judge.valid,
// judge.confidence, judge.quality_score, the issue counts and types) and a
// child span per layer run ("judge.layer <name>"), from tp, under the span
// of the context Validate is given. Without it (or with nil) no span is
// started and tracing costs nothing; the engine never uses OpenTelemetry's
// global provider. See docs/observability.md.
func WithTracerProvider(tp trace.TracerProvider) Option {
	return func(e *Engine) error {
		e.tracer = nil
		if tp != nil {
			e.tracer = tp.Tracer(TracerScope)
		}
		return nil
	}
}

// WithSelfCheck sets how the engine checks each result it builds against
// the specification's JSON Schema (see result.SelfCheck): nil for no
// check. By default, result.ProcessSelfCheck: what the environment asked
// for as the program started (JUDGE_SELFCHECK, which the test script sets).
func WithSelfCheck(sc *result.SelfCheck) Option {
	return func(e *Engine) error {
		e.selfCheck, e.selfCheckSet = sc, true
		return nil
	}
}

// ErrBusy is wrapped by the error Validate returns when a layer the request
// needs found no free slot before its deadline (see
// WithMaxConcurrentRuns): the engine was busy with other checks, so the
// output was not checked and the request may be retried. A check that
// never ran is not a verdict, so no result is returned with it.
var ErrBusy = errors.New("the engine was running its maximum number of layers")

// BusyError is the error Validate returns when the layer named Layer found
// no free slot within Wait (see [ErrBusy], which it wraps): the output was
// not checked. A front end words its answer from the fields.
type BusyError struct {
	Layer string        // the layer that could not start
	Wait  time.Duration // how long it waited for a slot: the layer deadline
}

func (e *BusyError) Error() string {
	return fmt.Sprintf("judge: %s", e.Reason())
}

// Reason says what happened without the package's prefix: "the schema
// layer could not start within 5s: the engine was running its maximum
// number of layers".
func (e *BusyError) Reason() string {
	return fmt.Sprintf("the %s layer could not start within %v: %v", e.Layer, e.Wait, ErrBusy)
}

// Unwrap returns ErrBusy.
func (e *BusyError) Unwrap() error { return ErrBusy }

// errBusy is ErrBusy, by its former name inside the package.
var errBusy = ErrBusy

// DefaultMaxConcurrentRuns returns the default bound on layer runs under way
// at once in one Engine: four per processor.
func DefaultMaxConcurrentRuns() int { return 4 * runtime.GOMAXPROCS(0) }

// WithMaxConcurrentRuns bounds how many layer runs one Engine has under way
// at once (DefaultMaxConcurrentRuns by default). A run holds its slot until
// its layer returns, even when the request stopped waiting for it at its
// deadline; when a layer finds no slot before its deadline, Validate fails
// with an error wrapping ErrBusy.
func WithMaxConcurrentRuns(n int) Option {
	return func(e *Engine) error {
		if n <= 0 {
			return fmt.Errorf("judge: max concurrent runs %d is not positive", n)
		}
		e.maxRuns = n
		return nil
	}
}

// Runs returns how many layer runs hold a slot now and how many slots
// there are (WithMaxConcurrentRuns): when running reaches limit, a new
// layer waits for a slot, and Validate fails with ErrBusy if none frees
// before its deadline.
func (e *Engine) Runs() (running, limit int) { return len(e.slots), cap(e.slots) }

// Option configures an Engine.
type Option func(*Engine) error

// WithCacheBytes sets the byte budget of the engine's caches together
// (layer.DefaultCacheBytes, 256 MiB, by default): compiled schemas and
// rules and source indexes, each charged an estimate of the memory it
// holds, least recently used evicted first. An entry larger than the whole
// budget is built for its request and not kept. The layers' caches share
// three quarters of n; the schema documents the engine keeps decoded by
// their bytes (with the compiled schemas the fast path pins to them) take
// the last quarter.
func WithCacheBytes(n int64) Option {
	return func(e *Engine) error {
		if n <= 0 {
			return fmt.Errorf("judge: cache bytes %d is not positive", n)
		}
		e.cacheBytes = n
		return nil
	}
}

// CacheStats returns the statistics of the engine's caches, by name, and
// their byte budget together (WithCacheBytes): the layers' caches share
// three quarters of it; "schema_docs", the schema documents the engine
// holds by their bytes (with their decoded values and the compiled schemas
// it pins to them), takes the last quarter.
func (e *Engine) CacheStats() (caches []layer.CacheStats, budget int64) {
	caches, _ = e.budget.Stats()
	caches = append(caches, e.docs.stats())
	return caches, e.cacheBytes
}

// cacheName is the cache layer l uses: its declared cache group (the facts
// and hallucination layers both index the request's sources, and share one
// cache of those indexes), else its own.
func cacheName(l *layer.Layer) string {
	return cmp.Or(l.CacheGroup, l.Name)
}

// WithLayers replaces the engine's layers (DefaultLayers by default).
func WithLayers(layers ...*layer.Layer) Option {
	return func(e *Engine) error {
		e.layers = layers
		return nil
	}
}

// WithLayerTimeout sets each layer's deadline (DefaultLayerTimeout by
// default). A request may shorten it with options.timeout_ms.
func WithLayerTimeout(d time.Duration) Option {
	return func(e *Engine) error {
		if d <= 0 {
			return fmt.Errorf("judge: layer timeout %v is not positive", d)
		}
		e.layerTimeout = d
		return nil
	}
}

// WithSchemas adds schema documents, by URI, that every request's $ref may
// name (see [LoadSchemaDir]). A request's own schemas take precedence.
func WithSchemas(schemas map[string]any) Option {
	return func(e *Engine) error {
		maps.Copy(e.schemas, schemas)
		return nil
	}
}

// WithMaxDepth sets how deeply the output, schemas and context may nest
// (jsonvalue.DefaultMaxDepth by default).
func WithMaxDepth(n int) Option {
	return func(e *Engine) error {
		if n <= 0 {
			return fmt.Errorf("judge: max depth %d is not positive", n)
		}
		e.maxDepth = n
		return nil
	}
}

// New returns an Engine. It checks the layer set once: every layer well
// formed, names unique.
func New(opts ...Option) (*Engine, error) {
	e := &Engine{
		epoch:        time.Now(),
		layers:       DefaultLayers(),
		layerTimeout: DefaultLayerTimeout,
		schemas:      map[string]any{},
		maxDepth:     jsonvalue.DefaultMaxDepth,
		maxRuns:      DefaultMaxConcurrentRuns(),
	}
	for _, opt := range opts {
		if err := opt(e); err != nil {
			return nil, err
		}
	}
	e.applyModel()
	if !e.selfCheckSet {
		e.selfCheck = result.ProcessSelfCheck()
	}
	for _, l := range e.layers {
		if err := l.Validate(); err != nil {
			return nil, fmt.Errorf("judge: %w", err)
		}
	}
	if e.cacheBytes <= 0 {
		e.cacheBytes = layer.DefaultCacheBytes
	}
	// Three quarters for the layers' caches, one for the schema documents.
	e.budget = layer.NewBudget(e.cacheBytes - e.cacheBytes/4)
	e.slots = make(chan struct{}, e.maxRuns)
	e.idle = make(chan *layerRun)
	e.stop = make(chan struct{})
	key, err := digestValue(e.schemas)
	if err != nil {
		return nil, fmt.Errorf("judge: schemas: %w", err)
	}
	e.schemasKey, e.docs = key, newSchemaDocs(e.cacheBytes/4)
	e.fast = e.fastLayer()
	if !slices.ContainsFunc(e.layers, checksSources) {
		// The note names the default layer that checks them.
		defaults := DefaultLayers()
		if i := slices.IndexFunc(defaults, checksSources); i >= 0 {
			e.sourcesUnchecked = defaults[i].Name
		}
	}
	e.caches = make(map[string]*layer.Cache, len(e.layers))
	byName := map[string]*layer.Cache{}
	for _, l := range e.layers {
		if _, dup := e.caches[l.Name]; dup {
			return nil, fmt.Errorf("judge: two layers are named %q", l.Name)
		}
		name := cacheName(l)
		if byName[name] == nil {
			byName[name] = e.budget.NewCache(name, 0)
		}
		e.caches[l.Name] = byName[name]
	}
	if e.tracer != nil {
		e.layerSpans = make(map[string]layerSpanStart, len(e.layers))
		for _, l := range e.layers {
			e.layerSpans[l.Name] = layerSpanStart{name: "judge.layer " + l.Name, layer: otelattr.Layer.String(l.Name)}
		}
	}
	if err := e.warmSources(); err != nil {
		return nil, err
	}
	return e, nil
}

// Layers returns the engine's layers in the order they are reported.
func (e *Engine) Layers() []*layer.Layer { return slices.Clone(e.layers) }

// Types returns every validation type a request may name: the engine's
// layers.
func (e *Engine) Types() []string {
	var names []string
	for _, l := range e.layers {
		names = append(names, l.Name)
	}
	return names
}

// Validate checks req and returns its result. It returns a *RequestError
// when req is malformed, a *BusyError (wrapping ErrBusy) when a layer could not
// start for want of a free slot, and ctx.Err() when ctx ends first;
// findings about the output are never errors.
func (e *Engine) Validate(ctx context.Context, req *Request) (*result.ValidationResult, error) {
	if e.tracer == nil {
		// validate's steps, the fast path's first, without a call between.
		at := e.clock()
		if r := e.validateFastDoc(ctx, req, at, nil); r != nil {
			return r, nil
		}
		return e.validateUsual(ctx, req, at)
	}
	ctx, span := e.tracer.Start(ctx, "judge.validate")
	defer span.End()
	res, fast, err := e.validate(ctx, req)
	if span.IsRecording() {
		if fast {
			e.attrs.Verdict(span, res, otelattr.FastPath.Bool(true))
		} else {
			e.attrs.Verdict(span, res)
		}
		if err != nil {
			span.RecordError(err)
			span.SetStatus(codes.Error, firstLine(err.Error()))
		}
	}
	return res, err
}

// clock is how long ago New made the engine, by the monotonic clock: a
// validation's start and end are read with it, one clock reading each
// (time.Now takes two, the wall clock's and the monotonic one's), and the
// duration is their difference, exact. start gives the time.Time of a
// reading for the usual path, whose wall clock part may drift from
// time.Now's (only durations are taken of it).
func (e *Engine) clock() time.Duration { return time.Since(e.epoch) }

// start is the time of the clock reading at.
func (e *Engine) start(at time.Duration) time.Time { return e.epoch.Add(at) }

// validate is Validate without its span; fast reports that the fast
// path answered (judge.fast_path, set with the verdict in one call).
func (e *Engine) validate(ctx context.Context, req *Request) (res *result.ValidationResult, fast bool, err error) {
	at := e.clock()
	if r := e.validateFast(ctx, req, at); r != nil {
		return r, true, nil
	}
	res, err = e.validateUsual(ctx, req, at)
	return res, false, err
}

// validateUsual is validate's usual path, for a request the fast path did
// not answer; at is the clock reading as the validation started.
func (e *Engine) validateUsual(ctx context.Context, req *Request, at time.Duration) (*result.ValidationResult, error) {
	in, notes, err := e.input(req)
	if err != nil {
		return nil, err
	}
	return e.check(ctx, req, in, notes, e.start(at))
}

// check runs the layers req needs over in, the layers' input, and builds
// the result with notes (how the output was read) before the layers'
// findings. Validate and Prepared.Validate share it.
func (e *Engine) check(ctx context.Context, req *Request, in *layer.Input, notes []result.Issue, start time.Time) (*result.ValidationResult, error) {
	b := result.NewBuilder().SelfCheck(e.selfCheck).Add(notes...)

	run, outcomes, err := e.plan(req, in)
	if err != nil {
		return nil, err
	}
	timeout := e.layerTimeout
	switch ms := req.Options.TimeoutMS; {
	case ms < 0:
		return nil, &RequestError{Field: "options.timeout_ms", Msg: fmt.Sprintf("timeout_ms %d is negative", ms)}
	case ms > 0 && int64(ms) < e.layerTimeout.Milliseconds():
		timeout = time.Duration(ms) * time.Millisecond
	}
	ran := e.runLayers(ctx, run, in, timeout)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	observe(ctx, ran)
	for _, o := range ran {
		if o.busy {
			return nil, &BusyError{Layer: o.Name, Wait: timeout}
		}
	}
	for _, o := range ran {
		if o.inputErr != nil {
			return nil, &RequestError{Field: o.inputErr.Location, Msg: o.inputErr.Msg, Err: o.inputErr}
		}
	}
	outcomes = append(outcomes, ran...)
	return finish(b, outcomes, start), nil
}

// finish builds the result of the layers' outcomes, in layer order.
func finish(b *result.Builder, outcomes []LayerOutcome, start time.Time) *result.ValidationResult {
	slices.SortStableFunc(outcomes, func(a, b LayerOutcome) int { return cmp.Compare(a.order, b.order) })

	for _, o := range outcomes {
		if o.Ran {
			b.Ran(o.Name)
		}
		b.Add(o.Findings.Issues...)
		for _, c := range o.Findings.Passed {
			b.Pass(c)
		}
		for _, c := range o.Findings.Failed {
			b.Fail(c)
		}
		for _, m := range o.Findings.Models {
			b.Model(m)
		}
		b.Tokens(o.Findings.PromptTokens, o.Findings.CompletionTokens)
	}
	if len(outcomes) == 0 {
		b.Add(result.Issue{
			Severity:   result.Info,
			Type:       result.NotChecked,
			Location:   "root",
			Message:    "No validation type applied: the request has no expected_schema or acceptance_criteria, so nothing was checked",
			Suggestion: "Give an expected_schema or acceptance_criteria, or name validation_types, so that the output can be checked",
			Rule:       "engine.nothing_to_check",
		})
	}
	b.Confidence(Confidence(outcomes))
	b.Duration(time.Since(start))
	return b.Build()
}

// input turns the raw request into the layers' input, with the notes the
// reading produced (how a string output was parsed).
func (e *Engine) input(req *Request) (*layer.Input, []result.Issue, error) {
	if len(req.Output) == 0 {
		return nil, nil, &RequestError{Field: "output", Msg: "the request has no output", Err: ErrNoOutput}
	}
	in := &layer.Input{}
	notes, err := e.readOutput(req, in)
	if err != nil {
		return nil, nil, err
	}
	if err := e.sharedInput(req, in); err != nil {
		return nil, nil, err
	}
	return in, notes, nil
}

// sharedInput sets what of in does not depend on the output: criteria,
// sources, options, context and schemas. Engine.Prepare makes it once for
// many outputs.
func (e *Engine) sharedInput(req *Request, in *layer.Input) error {
	in.Criteria = req.AcceptanceCriteria
	in.TrustedSources = req.TrustedSources
	in.Sources = e.resolveSources(req)
	in.Options = layer.Options{AssertFormat: req.Options.AssertFormat, Quality: req.Options.Quality}
	if len(req.Context) > 0 {
		var err error
		if in.Context, err = decodeField("context", req.Context, e.maxDepth); err != nil {
			return err
		}
	}
	return e.schemaInput(req, in)
}

// readOutput decodes req.Output into in.Output (and in.Text for a string),
// reading JSON inside a string as the output mode says, and returns the
// notes the reading produced.
func (e *Engine) readOutput(req *Request, in *layer.Input) ([]result.Issue, error) {
	out, dups, err := jsonvalue.DecodeDuplicates(req.Output, e.maxDepth)
	if err != nil {
		return nil, &RequestError{Field: "output", Msg: err.Error(), Err: err}
	}
	if s, ok := out.(string); ok {
		in.Text = s
	}
	notes := duplicateKeys(dups, "output.duplicate_key", "of the output", 0)
	switch req.Options.OutputMode {
	case "", OutputAuto:
		if s, ok := out.(string); ok {
			var note *result.Issue
			var inner []result.Issue
			if out, note, inner, err = parseOutputString(s, e.maxDepth); err != nil {
				return nil, &RequestError{Field: "output", Msg: "the JSON in the output string: " + err.Error(), Err: err}
			}
			if note != nil {
				notes = append(notes, *note)
			}
			notes = append(notes, inner...)
		}
	case OutputValue:
	default:
		return nil, &RequestError{Field: "options.output_mode", Msg: fmt.Sprintf("output_mode %q is not %q or %q", req.Options.OutputMode, OutputAuto, OutputValue)}
	}
	in.Output = out
	return notes, nil
}

// schemaInput decodes the request's schemas, each once per distinct
// content across requests, and sets the key that identifies them all: the
// engine's own schemas' digest and the number each schema's bytes got in
// e.docs, so that no request hashes its schemas with a cryptographic hash.
func (e *Engine) schemaInput(req *Request, in *layer.Input) error {
	key := make([]byte, 0, 96)
	key = append(append(append(key, "engine:"...), e.schemasKey...), '\n')
	decode := func(field string, raw json.RawMessage) (any, error) {
		d := e.docs.get(raw)
		key = append(strconv.AppendUint(append(append(key, field...), ':'), d.id, 10), '\n')
		return d.value(field, e.maxDepth)
	}
	var err error
	if len(req.ExpectedSchema) > 0 {
		if in.ExpectedSchema, err = decode("expected_schema", req.ExpectedSchema); err != nil {
			return err
		}
	}
	in.Schemas = maps.Clone(e.schemas)
	for _, uri := range slices.Sorted(maps.Keys(req.Schemas)) {
		if in.Schemas[uri], err = decode("schemas["+strconv.Quote(uri)+"]", req.Schemas[uri]); err != nil {
			return err
		}
	}
	in.SchemaKey = string(key)
	return nil
}

// digestValue is the hex SHA-256 of v's JSON encoding, in which
// encoding/json sorts object keys. The engine digests its own schemas
// once, when it is made.
func digestValue(v any) (string, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:]), nil
}

// plan picks the layers to run. Types named but not runnable become
// outcomes with zero confidence and a note saying why.
func (e *Engine) plan(req *Request, in *layer.Input) ([]*layer.Layer, []LayerOutcome, error) {
	if len(req.ValidationTypes) == 0 {
		var run []*layer.Layer
		for _, l := range e.layers {
			if l.Applies == nil || l.Applies(in) {
				run = append(run, l)
			}
		}
		// Sources ask for fact checking: say it did not happen rather
		// than ignore them.
		var skipped []LayerOutcome
		if name := e.sourcesUnchecked; name != "" && (len(in.Sources) > 0 || len(in.TrustedSources) > 0) {
			skipped = append(skipped, notRun(name, len(e.layers),
				fmt.Sprintf("The request gives sources, but fact checking (validation type %q) is not among this engine's layers, so no claim was checked against them", name),
				fmt.Sprintf("Check the claims by hand, or use an engine that includes the %s layer (judge.DefaultLayers)", name)))
		}
		return run, skipped, nil
	}
	var run []*layer.Layer
	var skipped []LayerOutcome
	seen := map[string]bool{}
	for _, name := range req.ValidationTypes {
		if seen[name] {
			continue
		}
		seen[name] = true
		i := slices.IndexFunc(e.layers, func(l *layer.Layer) bool { return l.Name == name })
		switch {
		case i >= 0 && appliesOnRequest(e.layers[i], in):
			run = append(run, e.layers[i])
		case i >= 0:
			skipped = append(skipped, notRun(name, i, fmt.Sprintf("Validation type %q was requested but the request gives it nothing to check", name),
				fmt.Sprintf("Give the input the %s layer needs (see docs/api.md) or drop %q from validation_types", name, name)))
		default:
			known := e.Types()
			sort.Strings(known)
			return nil, nil, &RequestError{Field: "validation_types", Msg: fmt.Sprintf("unknown validation type %q (known: %s)", name, strings.Join(known, ", "))}
		}
	}
	return run, skipped, nil
}

// checksSources reports whether l declares that it checks the output's
// claims against the request's sources.
func checksSources(l *layer.Layer) bool { return l.ChecksSources }

// appliesOnRequest reports whether l, named in validation_types, has
// anything to check in in.
func appliesOnRequest(l *layer.Layer, in *layer.Input) bool {
	switch {
	case l.AppliesOnRequest != nil:
		return l.AppliesOnRequest(in)
	case l.Applies != nil:
		return l.Applies(in)
	}
	return true
}

func notRun(name string, order int, msg, suggestion string) LayerOutcome {
	return LayerOutcome{Name: name, order: order, Findings: layer.Findings{
		Confidence: 0,
		Issues: []result.Issue{{Severity: result.Info, Type: result.NotChecked, Location: "root",
			Message: msg, Suggestion: suggestion, Rule: "engine.not_run"}},
	}}
}

// LayerOutcome is how one layer's run ended, as the scorer sees it.
type LayerOutcome struct {
	Name string
	// Ran is true when the layer was started (even if it then failed).
	Ran bool
	// Failed is true when the layer returned an error, panicked or missed
	// its deadline; its checks count as undecided.
	Failed   bool
	Findings layer.Findings

	order    int
	took     time.Duration
	inputErr *layer.InputError
	// busy is set when the layer found no free slot before its deadline.
	busy bool
}

// layerRun is one layer's run within one request: what a worker needs to
// run it and where it sends how it ended.
type layerRun struct {
	l      *layer.Layer
	pass   *layer.Pass
	ctx    context.Context
	cancel context.CancelFunc
	// errc receives Run's error (or the panic, or errBusy) exactly once,
	// unless the layer never returns; it is buffered so that a worker
	// never blocks on a request that stopped waiting.
	errc chan error
	// started is set once the run holds a slot.
	started atomic.Bool
	// begun is when the run took its slot, as the engine's clock reads it
	// (set before started).
	begun atomic.Int64
	// took is the run's time, from taking a slot to Run's return; set
	// before errc receives.
	took time.Duration
}

// workerIdle is how long a worker goroutine waits for another layer run
// before it exits.
const workerIdle = 10 * time.Second

// dispatch starts r on an idle worker goroutine, or on a new one when none
// is idle. Reusing workers spares each run a fresh goroutine whose stack
// must grow again through the recursive validators.
func (e *Engine) dispatch(r *layerRun) {
	if e.parked != nil && e.parkedN.Load() > 0 {
		e.idle <- r
		return
	}
	select {
	case e.idle <- r:
		return
	default:
	}
	e.closeMu.Lock()
	defer e.closeMu.Unlock()
	if e.closed {
		// After Close: a goroutine of its own that ends with the run.
		go e.exec(r)
		return
	}
	e.workers.Add(1)
	e.running.Go(func() { e.work(r) })
}

// Close stops the engine's worker goroutines: idle ones at once, busy ones
// when their run ends. It waits for them until ctx ends. The bound: a
// layer run ends at its deadline (WithLayerTimeout) unless the layer
// ignores its context; Go cannot stop such a layer, so its worker (and its
// slot, of which there are WithMaxConcurrentRuns) stays until the layer
// returns, and Close returns ctx's error naming how many workers remain.
// Validate still works after Close, each run on a goroutine of its own
// that exits when the run ends. Close may be called more than once.
func (e *Engine) Close(ctx context.Context) error {
	e.closeMu.Lock()
	if !e.closed {
		e.closed = true
		close(e.stop)
	}
	e.closeMu.Unlock()
	done := make(chan struct{})
	go func() {
		e.running.Wait()
		close(done)
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("judge: close: %d workers still run a layer that ignores its context: %w", e.workers.Load(), ctx.Err())
	}
}

// work runs r and then, for as long as runs keep coming within workerIdle
// of each other, the runs that dispatch hands it. A worker whose layer
// ignores its deadline stays with that run until the layer returns, so it
// takes no new run meanwhile.
func (e *Engine) work(r *layerRun) {
	defer e.workers.Add(-1)
	idle := time.NewTimer(workerIdle)
	defer idle.Stop()
	for {
		e.exec(r)
		r = nil // the finished run's input may be large: let it go
		idle.Reset(workerIdle)
		if r = e.park(idle); r == nil {
			return
		}
	}
}

// park waits for the next run dispatch hands the worker, and returns nil
// when the worker should exit instead: idle for workerIdle, or Close.
func (e *Engine) park(idle *time.Timer) *layerRun {
	if e.parked != nil {
		// Not a case of the select below: a send there would wake the
		// worker out of it. dispatch waits for the worker counted here.
		e.parkedN.Add(1)
		defer e.parkedN.Add(-1)
		select {
		case e.parked <- struct{}{}:
		default:
		}
	}
	select {
	case r := <-e.idle:
		return r
	case <-idle.C:
		return nil
	case <-e.stop:
		return nil
	}
}

// exec runs one layer under r's deadline, once it holds a slot, and sends
// how it ended on r.errc.
func (e *Engine) exec(r *layerRun) {
	// A slot is held until Run returns, even after the engine stopped
	// waiting, so abandoned layers count against the limit and cannot pile
	// up.
	// A free slot is taken even when the deadline has passed (the worker
	// may have been scheduled late): the layer then ends at once with its
	// deadline, and only a run that found every slot taken is busy.
	select {
	case e.slots <- struct{}{}:
	default:
		select {
		case e.slots <- struct{}{}:
		case <-r.ctx.Done():
			r.errc <- fmt.Errorf("%w: %w", errBusy, r.ctx.Err())
			return
		}
	}
	begun := time.Now()
	r.begun.Store(int64(begun.Sub(e.epoch)))
	r.started.Store(true)
	defer func() { <-e.slots }()
	ctx, span := r.ctx, trace.Span(nil)
	if e.tracer != nil {
		ls := e.layerSpans[r.l.Name]
		ctx, span = e.tracer.Start(r.ctx, ls.name)
	}
	defer func() {
		if v := recover(); v != nil {
			err := fmt.Errorf("internal error: %v\n%s", v, debug.Stack())
			e.endLayerSpan(span, r, err)
			r.errc <- err
		}
	}()
	err := r.l.Run(ctx, r.pass)
	r.took = time.Since(begun)
	e.endLayerSpan(span, r, err)
	r.errc <- err
}

// endLayerSpan ends a layer run's span, if there is one, with its
// attributes (the layer, and how many issues it reported or that it
// failed) set in one call, and the error it ended with as an event. The
// layer is not given at the start: the span's name holds it for a
// sampler, and attributes given at the start cost the SDK two copies and
// a second slice when more are set at the end.
func (e *Engine) endLayerSpan(span trace.Span, r *layerRun, err error) {
	if span == nil {
		return
	}
	if span.IsRecording() {
		layer := e.layerSpans[r.l.Name].layer
		if err != nil {
			span.RecordError(err)
			span.SetStatus(codes.Error, firstLine(err.Error()))
			e.attrs.Set(span, layer, otelattr.Failed.Bool(true))
		} else {
			f := r.pass.Findings()
			e.attrs.Set(span, layer, otelattr.IssueCount.Int(len(f.Issues)), attribute.Float64("judge.layer.confidence", f.Confidence))
		}
	}
	span.End()
}

// runLayers runs every layer concurrently, each on a worker goroutine under
// its own deadline, and returns their outcomes in layer order. A layer that
// ignores its deadline is abandoned: its worker finishes it on its own and
// nothing it reports afterwards is read.
func (e *Engine) runLayers(ctx context.Context, run []*layer.Layer, in *layer.Input, timeout time.Duration) []LayerOutcome {
	rs := make([]*layerRun, len(run))
	for i, l := range run {
		r := &layerRun{l: l, pass: layer.NewPass(l, in, e.caches[l.Name]), errc: make(chan error, 1)}
		if l.UsesModel && e.model != nil {
			r.pass.Model = e.model
		}
		r.ctx, r.cancel = context.WithTimeout(ctx, timeout)
		rs[i] = r
		e.dispatch(r)
	}
	outs := make([]LayerOutcome, len(run))
	for i, l := range run {
		r := rs[i]
		var err error
		took := time.Duration(-1) // r.took, once errc has received
		select {
		case err = <-r.errc:
		case <-r.ctx.Done():
			// A layer that finished before its deadline counts as
			// finished, even if the deadline passed while an earlier
			// layer was awaited.
			select {
			case err = <-r.errc:
			default:
				// From the slot's taking, as took is defined: a run
				// that never took one ran for no time.
				took = 0
				if r.started.Load() {
					took = e.clock() - time.Duration(r.begun.Load())
				}
				err = r.ctx.Err()
				if running, limit := e.Runs(); !r.started.Load() && running >= limit {
					err = fmt.Errorf("%w: %w", errBusy, err)
				}
			}
		}
		r.cancel()
		if took < 0 {
			took = r.took
		}
		outs[i] = outcome(l, slices.Index(e.layers, l), r.pass, err, timeout)
		outs[i].took = took
	}
	return outs
}

// outcome is how layer l, the order-th of the engine, ended after
// reporting through pass and returning err.
func outcome(l *layer.Layer, order int, pass *layer.Pass, err error, timeout time.Duration) LayerOutcome {
	o := LayerOutcome{Name: l.Name, Ran: true, order: order}
	if err == nil {
		o.Findings = pass.Findings()
		return o
	}
	if ie := (*layer.InputError)(nil); errors.As(err, &ie) {
		o.inputErr = ie
		return o
	}
	// A failed layer's partial findings are dropped: only the failure is
	// reported, and it counts as undecided. The tokens its model calls
	// cost were spent all the same, so they stay in metadata.token_usage.
	o.Failed = true
	o.busy = errors.Is(err, errBusy)
	spent := pass.Findings()
	msg := fmt.Sprintf("The %s layer failed, so its checks did not run: %s", l.Name, firstLine(err.Error()))
	switch {
	case errors.Is(err, errBusy):
		msg = fmt.Sprintf("The %s layer could not start within %v because the engine was busy with other checks, so its checks did not run", l.Name, timeout)
	case errors.Is(err, context.DeadlineExceeded):
		msg = fmt.Sprintf("The %s layer did not finish within %v, so its checks did not run", l.Name, timeout)
	}
	o.Findings = layer.Findings{Confidence: 0, Issues: []result.Issue{{
		Severity: result.Info, Type: result.LayerFailed, Location: "root", Message: msg,
		Suggestion: "Retry the request; if it persists, simplify the input, or raise the layer deadline",
		Rule:       "engine.layer_failed",
	}}, PromptTokens: spent.PromptTokens, CompletionTokens: spent.CompletionTokens}
	return o
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}
