package judge

import (
	"bytes"
	"context"
	"hash/maphash"
	"slices"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/agentjudge/judge/internal/jsonvalue"
	"github.com/agentjudge/judge/layer"
	"github.com/agentjudge/judge/result"
)

// schemaDocs numbers schema documents by their bytes: a fast hash finds the
// candidates and a byte comparison picks the document, so equal bytes get
// the same number (and the same compiled schema) and different bytes never
// do. It holds at most maxSchemaDocs documents and maxBytes bytes (a
// quarter of the engine's cache budget), counting for each document its
// bytes, its decoded value (decodedFactor times its bytes) and the
// compiled schemas the fast path pins to it, then starts over; numbers are
// never reused.
type schemaDocs struct {
	seed     maphash.Seed
	mu       sync.Mutex
	m        map[uint64][]*schemaDoc
	n        int
	bytes    int64
	maxBytes int64
	next     uint64
	dropped  int64
	// recent finds a document by the address of the caller's bytes,
	// before any hash or lock: a caller that sends the same schema slice
	// with every request (a Go program keeping its tools' schemas) pays one
	// byte comparison. The bytes are always compared, so a slice changed
	// in place, or other bytes at a reused address, are never mistaken for
	// the document; the address only picks the slots. It is two-way: an
	// address has two slots, the one found last first, so that two schemas
	// whose addresses share a slot (a few in a hundred tools) do not take
	// turns missing. A document may sit in the slots of several addresses
	// (tools whose schemas are the same bytes in slices of their own).
	recent [2 * recentSets]atomic.Pointer[schemaDoc]
}

const (
	// recentSets is the number of slot pairs of schemaDocs.recent, 1 <<
	// recentBits.
	recentBits    = 10
	recentSets    = 1 << recentBits
	maxSchemaDocs = layer.DefaultCacheSize
	// decodedFactor bounds the heap a decoded schema takes per byte of its
	// JSON: about 2 for the github-mcp-server schemas, without spaces.
	decodedFactor = 3
)

// schemaDoc is one schema document: its bytes, its number and, once
// decoded, its value (kept only for documents of at most
// maxCachedSchemaBytes).
type schemaDoc struct {
	raw  []byte
	id   uint64
	once sync.Once
	val  any
	err  error
	// fast holds what the engine's fast layer prepared (its compiled
	// schema) of this document as the expected schema of a request without
	// schemas of its own, without and with assert_format.
	fast [2]atomic.Pointer[prepared]
}

// prepared is what a layer's Prepare returned, held by pointer, with the
// interfaces of it the fast path asks for found once: issues, when it
// gives them, and dups, when it also answers for repeated keys (else nil).
type prepared struct {
	layer.Prepared
	issues layer.PreparedIssues
	dups   duplicateIssuer
}

func newPrepared(v layer.Prepared) *prepared {
	p := &prepared{Prepared: v}
	p.issues, _ = v.(layer.PreparedIssues)
	if p.issues != nil {
		p.dups, _ = v.(duplicateIssuer)
	}
	return p
}

func newSchemaDocs(maxBytes int64) *schemaDocs {
	return &schemaDocs{seed: maphash.MakeSeed(), m: map[uint64][]*schemaDoc{}, maxBytes: maxBytes}
}

// docBytes is what a document of n bytes is charged: its bytes, and its
// decoded value when it is kept.
func docBytes(n int) int64 {
	if n > maxCachedSchemaBytes {
		return int64(n)
	}
	return int64(n) * (1 + decodedFactor)
}

// charge adds n bytes pinned to a document held (a compiled schema).
func (t *schemaDocs) charge(n int64) {
	t.mu.Lock()
	t.bytes += n
	t.mu.Unlock()
}

// stats describes the documents held as a cache.
func (t *schemaDocs) stats() layer.CacheStats {
	t.mu.Lock()
	defer t.mu.Unlock()
	return layer.CacheStats{Name: "schema_docs", Entries: t.n, Bytes: t.bytes, Evictions: t.dropped}
}

// get returns the document of raw's bytes, adding it when new.
func (t *schemaDocs) get(raw []byte) *schemaDoc {
	at := uintptr(unsafe.Pointer(unsafe.SliceData(raw)))
	set := t.recent[2*((uint64(at)*0x9e3779b97f4a7c15)>>(64-recentBits)):][:2]
	for k := range set {
		// No test of the address beside the bytes': a document is found
		// from every slice that holds its bytes.
		if d := set[k].Load(); d != nil && bytes.Equal(d.raw, raw) {
			return d
		}
	}
	d := t.find(raw)
	if old := set[0].Load(); old != d {
		set[1].Store(old)
	}
	set[0].Store(d)
	return d
}

// find returns the document of raw's bytes by their hash, adding it when
// new.
func (t *schemaDocs) find(raw []byte) *schemaDoc {
	h := maphash.Bytes(t.seed, raw)
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, d := range t.m[h] {
		if bytes.Equal(d.raw, raw) {
			return d
		}
	}
	if t.n >= maxSchemaDocs || t.bytes+docBytes(len(raw)) > t.maxBytes {
		t.startOver()
	}
	d := &schemaDoc{raw: bytes.Clone(raw), id: t.next}
	t.next++
	t.m[h] = append(t.m[h], d)
	t.n++
	t.bytes += docBytes(len(raw))
	return d
}

// startOver drops every document held; t.mu must be held.
func (t *schemaDocs) startOver() {
	clear(t.m)
	t.dropped += int64(t.n)
	t.n, t.bytes = 0, 0
	// The address table would otherwise keep dropped documents (and the
	// schemas compiled for them) alive past the budget.
	for i := range t.recent {
		t.recent[i].Store(nil)
	}
}

// value returns the decoded document.
func (d *schemaDoc) value(field string, maxDepth int) (any, error) {
	if len(d.raw) > maxCachedSchemaBytes {
		return decodeField(field, d.raw, maxDepth)
	}
	d.once.Do(func() { d.val, d.err = decodeField(field, d.raw, maxDepth) })
	return d.val, d.err
}

// fastLayer returns the engine's layer whose fast path a request giving
// only an output and schemas may take: the first that declares Prepare,
// provided that every other layer declares (layer.Layer.AppliesOn) that
// such a request does not make it apply. Else nil: no fast path.
func (e *Engine) fastLayer() *layer.Layer {
	i := slices.IndexFunc(e.layers, func(l *layer.Layer) bool { return l.Prepare != nil })
	if i < 0 {
		return nil
	}
	for j, l := range e.layers {
		if j != i && (l.AppliesOn == 0 || l.AppliesOn&layer.PartSchema != 0) {
			return nil
		}
	}
	return e.layers[i]
}

// validateFast returns the result of req when the schema layer alone
// applies to it and its fast path is sure of the output, valid or invalid
// with its issues; else nil, and Validate takes its usual path, which
// gives the same result. The fast path reads the output's bytes once,
// without decoding them, and finds the compiled schema by the schemas'
// bytes. at is the engine's clock reading (Engine.clock) as the
// validation started.
func (e *Engine) validateFast(ctx context.Context, req *Request, at time.Duration) *result.ValidationResult {
	return e.validateFastDoc(ctx, req, at, nil)
}

// validateFastDoc is validateFast with, when doc is not nil, the document
// of req's expected schema already found (a Prepared's, whose bytes are
// doc's own), so that it is not looked up by its bytes again.
func (e *Engine) validateFastDoc(ctx context.Context, req *Request, at time.Duration, doc *schemaDoc) *result.ValidationResult {
	if !e.fastEligible(ctx, req) {
		return nil
	}
	// fastSchemaDoc's usual answer, found here: a schema prepared already.
	var p *prepared
	if len(req.Schemas) == 0 {
		if doc == nil {
			doc = e.docs.get(req.ExpectedSchema)
		}
		p = doc.fast[assertFormat(req)].Load()
	}
	if p == nil {
		if p = e.fastSchemaDoc(req, doc); p == nil {
			return nil
		}
	}
	var issues []result.Issue
	var room result.Room
	var sure bool
	switch {
	case p.dups != nil:
		var repeated []jsonvalue.Duplicate
		issues, room, repeated, sure = p.dups.IssuesDuplicatesRoom(req.Output, e.maxDepth)
		if sure && len(repeated) > 0 {
			// The warnings readOutput gives of the decoder's duplicates.
			issues = appendDuplicateKeys(issues, repeated, "output.duplicate_key", "of the output", 0)
		}
	case p.issues != nil:
		issues, sure = p.issues.Issues(req.Output, e.maxDepth)
	default:
		if valid, sure := p.Check(req.Output, e.maxDepth); !valid || !sure {
			return nil
		}
		sure = true
	}
	if !sure {
		return nil
	}
	took := e.clock() - at
	if fn := observerOf(ctx); fn != nil {
		e.observeFast(fn, took, issues)
	}
	if len(issues) == 0 {
		// What finish builds of the fast layer's outcome alone, with
		// confidence 1 and no issue, in one allocation.
		return result.Passed(e.fast.Name, 1, took, e.selfCheck)
	}
	// An invalid output: what finish builds of the outcome the layer's Run
	// would have given (one deterministic check, confidence 1, and its
	// issues), without decoding the output; the issues are the result's,
	// and the result is the room allocated with them, when they are the
	// room's (a repeated key's warning appended makes them another array).
	return result.FoundIn(room, e.fast.Name, 1, took, e.selfCheck, issues)
}

// observeFast tells fn, the observer of a validation's context, of the
// fast layer's run, as observe does of its outcome (no issues: nil).
func (e *Engine) observeFast(fn LayerObserver, took time.Duration, issues []result.Issue) {
	if len(issues) == 0 {
		issues = nil
	}
	fn(LayerRun{Layer: e.fast.Name, Duration: took, Issues: issues})
}

// duplicateIssuer is a prepared schema that also answers for an output
// with repeated keys (schema.Validator): the issues of the value the
// decoder gives, and the repeated keys as the decoder describes them,
// which the engine reports as readOutput does; the issues it writes
// itself come in a result.Room, a result allocated with them, which
// result.FoundIn fills (one allocation for an invalid output).
type duplicateIssuer interface {
	IssuesDuplicatesRoom(output []byte, maxDepth int) (issues []result.Issue, room result.Room, repeated []jsonvalue.Duplicate, sure bool)
}

// fastEligible reports whether req may take the fast path: the fast layer
// alone applies to it, and its output is not a string that may hold JSON.
func (e *Engine) fastEligible(ctx context.Context, req *Request) bool {
	if e.fast == nil || ctx.Err() != nil || len(req.ExpectedSchema) == 0 || len(req.Output) == 0 ||
		len(req.AcceptanceCriteria) > 0 || len(req.TrustedSources) > 0 || len(req.Sources) > 0 ||
		len(req.Context) > 0 || req.Options.TimeoutMS < 0 {
		return false
	}
	for _, t := range req.ValidationTypes {
		if t != e.fast.Name {
			return false
		}
	}
	switch req.Options.OutputMode {
	case "", OutputAuto:
		// A string output may hold JSON to parse: the usual path reads it,
		// unless it plainly holds none.
		if i := skipSpace(req.Output); i < len(req.Output) && req.Output[i] == '"' && !plainString(req.Output[i:]) {
			return false
		}
	case OutputValue:
	default:
		return false
	}
	return true
}

// fastSchema returns what the fast layer prepared of req's schemas, or nil
// when it cannot be had without the usual path (a schema that is not JSON
// or not valid: the usual path reports it).
func (e *Engine) fastSchema(req *Request) *prepared {
	return e.fastSchemaDoc(req, nil)
}

// fastSchemaDoc is fastSchema with the document of req's expected schema,
// when doc is not nil, taken as found (see validateFastDoc).
func (e *Engine) fastSchemaDoc(req *Request, doc *schemaDoc) *prepared {
	var slot *atomic.Pointer[prepared]
	if len(req.Schemas) == 0 {
		if doc == nil {
			doc = e.docs.get(req.ExpectedSchema)
		}
		slot = &doc.fast[assertFormat(req)]
		if p := slot.Load(); p != nil {
			return p
		}
	}
	in := &layer.Input{Options: layer.Options{AssertFormat: req.Options.AssertFormat}}
	if err := e.schemaInput(req, in); err != nil {
		return nil
	}
	v, err := e.fast.Prepare(e.caches[e.fast.Name], in)
	if err != nil || v == nil {
		return nil
	}
	p := newPrepared(v)
	if slot != nil && slot.CompareAndSwap(nil, p) {
		if s, ok := v.(layer.Sizer); ok {
			e.docs.charge(s.Size())
		}
	}
	return p
}

// assertFormat is the index in schemaDoc.fast of req's assert_format.
func assertFormat(req *Request) int {
	if req.Options.AssertFormat {
		return 1
	}
	return 0
}

// plainString reports whether the JSON text b, which starts with a
// string, is a string that jsonvalue.FindInString finds no JSON in (an
// unescaped text without '{', '[' or '`': nothing that trimmed starts an
// object or array, and no fence), so that in auto mode the usual path
// validates it as it is, as in value mode, with no note. Whatever follows
// the string is the fast path's to refuse.
func plainString(b []byte) bool {
	return !bytes.ContainsAny(b[1:], "{[`\\")
}

func skipSpace(b []byte) int {
	i := 0
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}
