package judge_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentjudge/judge"
	"github.com/agentjudge/judge/layer"
	"github.com/agentjudge/judge/result"
)

// testLayer returns a layer that records one decided check and reports one
// warning, after an optional action.
func testLayer(name string, do func(ctx context.Context, p *layer.Pass) error) *layer.Layer {
	return &layer.Layer{
		Name: name, Doc: name + ": a layer for tests",
		Run: func(ctx context.Context, p *layer.Pass) error {
			if do != nil {
				if err := do(ctx, p); err != nil {
					return err
				}
			}
			p.Decided(1)
			p.Reportf(result.Warning, result.StyleIssue, "root", "warning from the %s layer", name)
			return nil
		},
	}
}

func mustEngine(t testing.TB, opts ...judge.Option) *judge.Engine {
	t.Helper()
	e, err := judge.New(opts...)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func validate(t testing.TB, e *judge.Engine, req *judge.Request) *result.ValidationResult {
	t.Helper()
	r, err := e.Validate(context.Background(), req)
	if err != nil {
		t.Fatalf("Validate: %v", err)
	}
	if err := result.Check(r); err != nil {
		t.Fatal(err)
	}
	return r
}

func hasIssue(r *result.ValidationResult, typ result.Type, substr string) bool {
	for _, is := range r.Issues {
		if is.Type == typ && strings.Contains(is.Message, substr) {
			return true
		}
	}
	return false
}

func TestLayersRunConcurrently(t *testing.T) {
	t.Parallel()
	// Each layer waits until all have started: sequential running would
	// hit the deadline instead.
	var started sync.WaitGroup
	started.Add(3)
	wait := func(ctx context.Context, p *layer.Pass) error {
		started.Done()
		started.Wait()
		return nil
	}
	e := mustEngine(t, judge.WithLayers(testLayer("a", wait), testLayer("b", wait), testLayer("c", wait)), judge.WithLayerTimeout(5*time.Second))
	r := validate(t, e, &judge.Request{Output: json.RawMessage(`{}`)})
	if got := strings.Join(r.Metadata.ValidationTypesRun, ","); got != "a,b,c" {
		t.Fatalf("ran %q, want a,b,c in layer order", got)
	}
	if r.Confidence != 1 || r.Metadata.WarningCount != 3 {
		t.Fatalf("confidence %v, warnings %d", r.Confidence, r.Metadata.WarningCount)
	}
}

func TestLayerFailuresAreIssues(t *testing.T) {
	t.Parallel()
	slow := testLayer("slow", func(ctx context.Context, p *layer.Pass) error {
		p.Reportf(result.Error, result.SchemaViolation, "root", "partial finding before the deadline")
		p.UsedTokens(120, 7) // a model answered before the deadline
		<-ctx.Done()
		return ctx.Err()
	})
	unstick := make(chan struct{})
	t.Cleanup(func() { close(unstick) })
	stuck := testLayer("stuck", func(ctx context.Context, p *layer.Pass) error {
		<-unstick // ignores ctx until the test ends: the engine must not wait
		return nil
	})
	broken := testLayer("broken", func(ctx context.Context, p *layer.Pass) error { return errors.New("disk on fire") })
	panicky := testLayer("panicky", func(ctx context.Context, p *layer.Pass) error { panic("boom") })
	fine := testLayer("fine", nil)
	e := mustEngine(t, judge.WithLayers(slow, stuck, broken, panicky, fine), judge.WithLayerTimeout(50*time.Millisecond))

	start := time.Now()
	r := validate(t, e, &judge.Request{Output: json.RawMessage(`"text"`)})
	if d := time.Since(start); d > time.Second {
		t.Errorf("Validate waited %v for a layer that ignores its deadline", d)
	}
	for _, want := range []string{"slow layer did not finish within 50ms", "stuck layer did not finish", "broken layer failed, so its checks did not run: disk on fire", "panicky layer failed, so its checks did not run: internal error: boom"} {
		if !hasIssue(r, result.LayerFailed, want) {
			t.Errorf("no layer_failed issue %q in %+v", want, r.Issues)
		}
	}
	if hasIssue(r, result.SchemaViolation, "partial finding") {
		t.Error("a failed layer's partial findings were kept")
	}
	if !r.Valid {
		t.Error("a failed layer made the output invalid; it must only lower confidence")
	}
	if tu := r.Metadata.TokenUsage; tu == nil || tu.PromptTokens != 120 || tu.CompletionTokens != 7 || tu.TotalTokens != 127 {
		t.Errorf("token usage %+v, want the 120+7 tokens the failed layer spent", tu)
	}
	if r.Confidence != 0.2 {
		t.Errorf("confidence %v, want 0.2 (one of five layers decided)", r.Confidence)
	}
}

func TestRequestCancelled(t *testing.T) {
	t.Parallel()
	started := make(chan struct{})
	e := mustEngine(t, judge.WithLayers(testLayer("wait", func(ctx context.Context, p *layer.Pass) error {
		close(started)
		<-ctx.Done()
		return ctx.Err()
	})))
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-started; cancel() }() // cancelled while the layer runs
	if _, err := e.Validate(ctx, &judge.Request{Output: json.RawMessage(`1`)}); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}

func TestInputErrorRejectsRequest(t *testing.T) {
	t.Parallel()
	bad := testLayer("bad", func(ctx context.Context, p *layer.Pass) error {
		return &layer.InputError{Layer: "bad", Location: "expected_schema/type", Msg: "not a type"}
	})
	e := mustEngine(t, judge.WithLayers(bad))
	_, err := e.Validate(context.Background(), &judge.Request{Output: json.RawMessage(`1`)})
	var re *judge.RequestError
	var ie *layer.InputError
	if !errors.As(err, &re) || !errors.As(err, &ie) || re.Field != "expected_schema/type" {
		t.Fatalf("err = %#v, want a RequestError wrapping the InputError", err)
	}
}

func TestNewRejectsBadLayers(t *testing.T) {
	t.Parallel()
	for name, ls := range map[string][]*layer.Layer{
		"bad name":  {{Name: "Bad Name", Doc: "d", Run: testLayer("x", nil).Run}},
		"no doc":    {{Name: "x", Run: testLayer("x", nil).Run}},
		"no run":    {{Name: "x", Doc: "d"}},
		"duplicate": {testLayer("x", nil), testLayer("x", nil)},
	} {
		if _, err := judge.New(judge.WithLayers(ls...)); err == nil {
			t.Errorf("%s: New accepted the layer set", name)
		}
	}
}

func TestValidationTypes(t *testing.T) {
	t.Parallel()
	e := mustEngine(t)
	t.Run("nothing applies", func(t *testing.T) {
		t.Parallel()
		r := validate(t, e, &judge.Request{Output: json.RawMessage(`{"a":1}`)})
		if r.Confidence != 0 || !hasIssue(r, result.NotChecked, "No validation type applied") {
			t.Fatalf("confidence %v, issues %+v", r.Confidence, r.Issues)
		}
	})
	t.Run("quality without code or text", func(t *testing.T) {
		t.Parallel()
		r := validate(t, e, &judge.Request{Output: json.RawMessage(`{"a":1}`), ExpectedSchema: json.RawMessage(`{"type":"object"}`),
			ValidationTypes: []string{"schema", "quality"}})
		if !hasIssue(r, result.NotChecked, `"quality" was requested but the request gives it nothing to check`) || r.Confidence != 0.5 {
			t.Fatalf("confidence %v, issues %+v", r.Confidence, r.Issues)
		}
		if got := strings.Join(r.Metadata.ValidationTypesRun, ","); got != "schema" {
			t.Fatalf("ran %q", got)
		}
	})
	t.Run("quality with prose in a JSON field", func(t *testing.T) {
		t.Parallel()
		r := validate(t, e, &judge.Request{Output: json.RawMessage(`{"a": 1, "summary": "The job ran. It stopped in the"}`), ValidationTypes: []string{"quality"}})
		if len(r.Issues) != 1 || r.Issues[0].Rule != "prose.unfinished" || r.Issues[0].Location != "summary" || r.Confidence != 1 {
			t.Fatalf("confidence %v, issues %+v", r.Confidence, r.Issues)
		}
		if got := strings.Join(r.Metadata.ValidationTypesRun, ","); got != "quality" || r.Metadata.QualityDimensions[result.Completeness] != 0.9 {
			t.Fatalf("ran %q, dimensions %v", got, r.Metadata.QualityDimensions)
		}
	})
	t.Run("requested without input", func(t *testing.T) {
		t.Parallel()
		r := validate(t, e, &judge.Request{Output: json.RawMessage(`{"a":1}`), ValidationTypes: []string{"schema"}})
		if !hasIssue(r, result.NotChecked, "gives it nothing to check") || r.Confidence != 0 {
			t.Fatalf("confidence %v, issues %+v", r.Confidence, r.Issues)
		}
	})
	t.Run("unknown type", func(t *testing.T) {
		t.Parallel()
		_, err := e.Validate(context.Background(), &judge.Request{Output: json.RawMessage(`1`), ValidationTypes: []string{"vibes"}})
		var re *judge.RequestError
		if !errors.As(err, &re) || !strings.Contains(re.Msg, `unknown validation type "vibes"`) {
			t.Fatalf("err = %v", err)
		}
	})
}

func TestOutputModes(t *testing.T) {
	t.Parallel()
	e := mustEngine(t)
	schema := json.RawMessage(`{"type":"object","required":["name"],"properties":{"name":{"type":"string"}}}`)
	tests := []struct {
		name, output, mode string
		wantValid          bool
		wantNote           string // message fragment of an output_parsed note, "" for none
	}{
		{"JSON string parsed", `"{\"name\": \"Ada\"}"`, "", true, "string holding a JSON object"},
		{"json fence parsed", "\"Here it is:\\n```json\\n{\\\"name\\\": \\\"Ada\\\"}\\n```\\nThanks\"", "auto", true, "fenced block at line 2"},
		{"bare fence parsed", "\"```\\n{\\\"name\\\": 1}\\n```\"", "auto", false, "fenced block at line 1"},
		{"python fence ignored", "\"```python\\n{\\\"name\\\": \\\"Ada\\\"}\\n```\"", "auto", false, ""},
		{"broken JSON kept as string", `"{\"name\": \"Ada\",}"`, "", false, "looks like JSON but does not parse"},
		{"value mode keeps the string", `"{\"name\": \"Ada\"}"`, "value", false, ""},
		{"plain value", `{"name": "Ada"}`, "", true, ""},
		{"fenced scalar stays text", "\"```json\\n42\\n```\"", "auto", false, ""},
		{"unclosed fence noted", "\"Sure:\\n```json\\n{\\\"name\\\": \\\"Ada\"", "auto", false, "never closed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := validate(t, e, &judge.Request{Output: json.RawMessage(tt.output), ExpectedSchema: schema, Options: judge.Options{OutputMode: tt.mode}})
			if r.Valid != tt.wantValid {
				t.Errorf("valid = %v, want %v: %+v", r.Valid, tt.wantValid, r.Issues)
			}
			gotNote := ""
			for _, is := range r.Issues {
				if is.Type == result.OutputParsed {
					gotNote = is.Message
				}
			}
			if (tt.wantNote == "") != (gotNote == "") || !strings.Contains(gotNote, tt.wantNote) {
				t.Errorf("note %q, want one containing %q", gotNote, tt.wantNote)
			}
		})
	}
	_, err := e.Validate(context.Background(), &judge.Request{Output: json.RawMessage(`1`), Options: judge.Options{OutputMode: "guess"}})
	if re := (*judge.RequestError)(nil); !errors.As(err, &re) || re.Field != "options.output_mode" {
		t.Errorf("bad output_mode: err = %v", err)
	}
}

func TestDecodeRequest(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, body, wantErr string
	}{
		{"minimal", `{"output": {"a": 1}}`, ""},
		{"criteria as strings and objects", `{"output": "x", "acceptance_criteria": ["Tests are included", {"id": "r1", "rule": "size(output) > 0"}]}`, ""},
		{"no output", `{"validation_types": ["schema"]}`, `no "output"`},
		{"unknown field", `{"output": 1, "validationTypes": ["schema"]}`, `unknown field "validationTypes"`},
		{"syntax error", "{\n\"output\": 1,\n}", "line 3, column 1"},
		{"wrong type", `{"output": 1, "validation_types": "schema"}`, "validation_types must be []string"},
		{"too deep", `{"output": ` + strings.Repeat("[", 300) + strings.Repeat("]", 300) + `}`, "nested more than 256"},
		{"bad criterion", `{"output": 1, "acceptance_criteria": [{"rul": "x"}]}`, "a criterion is a string or an object"},
		{"trailing", `{"output": 1} {}`, "unexpected data"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			req, err := judge.DecodeRequest([]byte(tt.body), 0)
			if tt.wantErr == "" {
				if err != nil || req == nil {
					t.Fatalf("err = %v", err)
				}
				return
			}
			var re *judge.RequestError
			if !errors.As(err, &re) || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("err = %v, want a RequestError containing %q", err, tt.wantErr)
			}
		})
	}
}

// One Engine validates from many goroutines at once.
func TestEngineConcurrentUse(t *testing.T) {
	t.Parallel()
	e := mustEngine(t)
	schema := json.RawMessage(`{"type":"object","required":["n"],"properties":{"n":{"type":"integer","maximum":10}}}`)
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for i := range 64 {
		wg.Go(func() {
			out := json.RawMessage(`{"n": ` + strings.Repeat("1", 1+i%3) + `}`)
			r, err := e.Validate(context.Background(), &judge.Request{Output: out, ExpectedSchema: schema,
				AcceptanceCriteria: []layer.Criterion{{ID: "small", Rule: "output.n < 100"}}})
			if err != nil {
				errs <- err
				return
			}
			if want := i%3 == 0; r.Valid != want {
				errs <- errors.New("wrong verdict under concurrency")
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func TestRequestLimits(t *testing.T) {
	t.Parallel()
	e := mustEngine(t, judge.WithLayerTimeout(time.Second))
	schema := json.RawMessage(`{"type": "object"}`)
	for name, tt := range map[string]struct {
		req       judge.Request
		wantField string
	}{
		"negative timeout":          {judge.Request{Output: json.RawMessage(`{}`), ExpectedSchema: schema, Options: judge.Options{TimeoutMS: -1}}, "options.timeout_ms"},
		"too deep JSON in a string": {judge.Request{Output: json.RawMessage(`"` + strings.Repeat("[", 300) + strings.Repeat("]", 300) + `"`)}, "output"},
	} {
		_, err := e.Validate(context.Background(), &tt.req)
		var re *judge.RequestError
		if !errors.As(err, &re) || re.Field != tt.wantField {
			t.Errorf("%s: err = %v, want a RequestError at %s", name, err, tt.wantField)
		}
	}
	// A huge timeout_ms neither overflows nor lengthens the engine's deadline.
	r := validate(t, e, &judge.Request{Output: json.RawMessage(`{}`), ExpectedSchema: schema, Options: judge.Options{TimeoutMS: 1 << 62}})
	if !r.Valid || r.Confidence != 1 || hasIssue(r, result.LayerFailed, "") {
		t.Fatalf("huge timeout_ms: %+v", r)
	}
}

// Sources given to an engine without a facts layer are reported as not
// checked, never ignored.
func TestSourcesNotIgnored(t *testing.T) {
	t.Parallel()
	e := mustEngine(t, judge.WithLayers(withoutGrounding()...))
	r := validate(t, e, &judge.Request{Output: json.RawMessage(`"The CVSS score is 9.8"`),
		Sources: []layer.Source{{ID: "nvd", Content: "CVSS 7.5"}}})
	if !hasIssue(r, result.NotChecked, "fact checking") || r.Confidence != 0 {
		t.Fatalf("confidence %v, issues %+v", r.Confidence, r.Issues)
	}
}

// Layers abandoned at their deadline keep their slot until they return, so
// a flood of slow checks cannot pile up work without bound.
func TestConcurrentRunsBounded(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	stuck := testLayer("stuck", func(ctx context.Context, p *layer.Pass) error {
		<-release // ignores ctx, as a layer inside a library call would
		return nil
	})
	e := mustEngine(t, judge.WithLayers(stuck), judge.WithLayerTimeout(30*time.Millisecond), judge.WithMaxConcurrentRuns(1))
	first := validate(t, e, &judge.Request{Output: json.RawMessage(`1`)})
	if !hasIssue(first, result.LayerFailed, "did not finish within") {
		t.Fatalf("first request: %+v", first.Issues)
	}
	// A check that could not start is not a verdict: Validate fails with
	// ErrBusy instead of answering valid with zero confidence.
	second, err := e.Validate(context.Background(), &judge.Request{Output: json.RawMessage(`1`)})
	if !errors.Is(err, judge.ErrBusy) || second != nil || !strings.Contains(err.Error(), "stuck layer could not start") {
		t.Fatalf("second request got a slot the abandoned run still holds: %+v, %v", second, err)
	}
	var be *judge.BusyError
	if !errors.As(err, &be) || be.Layer != "stuck" || be.Wait != 30*time.Millisecond {
		t.Errorf("the busy error does not name the layer and its wait: %#v", err)
	}
	close(release)
	// Close returns once every worker has ended, the abandoned run's after
	// its layer returned and gave its slot back; Validate still runs after.
	if err := e.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	third := validate(t, e, &judge.Request{Output: json.RawMessage(`1`)})
	if third.Confidence != 1 {
		t.Fatalf("the slot was not given back: %+v", third.Issues)
	}
}
