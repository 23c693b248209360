package judge_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sync"
	"testing"

	"github.com/agentjudge/judge"
	"github.com/agentjudge/judge/internal/sharedtest"
	"github.com/agentjudge/judge/layer"
	"github.com/agentjudge/judge/result"
)

// sameResult reports how a and b differ, ignoring the wall time.
func sameResult(a, b *result.ValidationResult) string {
	ca, cb := *a, *b
	ca.Metadata.DurationMS, cb.Metadata.DurationMS = 0, 0
	if reflect.DeepEqual(ca, cb) {
		return ""
	}
	ja, _ := json.Marshal(ca)
	jb, _ := json.Marshal(cb)
	return fmt.Sprintf("%s\nwant\n%s", ja, jb)
}

// A prepared request answers every output as Engine.Validate answers the
// whole request: valid and invalid outputs, a string holding JSON in a
// fence, criteria over the context, and the errors of a bad output.
func TestPreparedValidateAsEngine(t *testing.T) {
	t.Parallel()
	e := mustEngine(t)
	req := &judge.Request{
		ExpectedSchema: json.RawMessage(`{"type": "object", "required": ["title", "priority"],
			"properties": {"title": {"type": "string"}, "priority": {"type": "integer", "maximum": 5}}}`),
		AcceptanceCriteria: []layer.Criterion{{ID: "short", Description: "Title is short", Rule: "size(output.title) <= context.max"}},
		Context:            json.RawMessage(`{"max": 20}`),
	}
	p, err := e.Prepare(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	for _, out := range []string{
		`{"title": "Fix login", "priority": 3}`,
		`{"title": "Fix the login page that fails on Safari", "priority": 7}`,
		`{"priority": "high"}`,
		`"Here it is:\n\n` + "```json\\n{\\\"title\\\": \\\"A\\\", \\\"priority\\\": 1}\\n```" + `"`,
		`[1, 2]`,
		`{"title": "x", "title": "y", "priority": 1}`,
	} {
		full := *req
		full.Output = json.RawMessage(out)
		want, err := e.Validate(context.Background(), &full)
		if err != nil {
			t.Fatalf("Engine.Validate(%s): %v", out, err)
		}
		got, err := p.Validate(context.Background(), json.RawMessage(out))
		if err != nil {
			t.Fatalf("Prepared.Validate(%s): %v", out, err)
		}
		if d := sameResult(got, want); d != "" {
			t.Errorf("output %s: prepared\n%s", out, d)
		}
	}
	for _, out := range []string{``, `{"title": `} {
		_, err := p.Validate(context.Background(), json.RawMessage(out))
		var re *judge.RequestError
		if !errors.As(err, &re) || re.Field != "output" {
			t.Errorf("output %q: err %v, want a request error at output", out, err)
		}
	}
}

// Prepare reports what is wrong with the request before any output: a
// schema that does not compile, a context that is not JSON, an unknown
// output mode, a negative timeout.
func TestPrepareErrors(t *testing.T) {
	t.Parallel()
	e := mustEngine(t)
	tests := []struct {
		name  string
		req   judge.Request
		field string
	}{
		{"schema does not compile", judge.Request{ExpectedSchema: json.RawMessage(`{"type": "integr"}`)}, "expected_schema/type"},
		{"schema not JSON", judge.Request{ExpectedSchema: json.RawMessage(`{"type": }`)}, "expected_schema"},
		{"context not JSON", judge.Request{Context: json.RawMessage(`[1,`)}, "context"},
		{"output mode", judge.Request{Options: judge.Options{OutputMode: "yaml"}}, "options.output_mode"},
		{"timeout", judge.Request{Options: judge.Options{TimeoutMS: -1}}, "options.timeout_ms"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := e.Prepare(context.Background(), &tt.req)
			var re *judge.RequestError
			if !errors.As(err, &re) || re.Field != tt.field {
				t.Errorf("err %v, want a request error at %s", err, tt.field)
			}
		})
	}
}

// A Prepared checks against the schemas it was prepared with, even when
// the caller then changes the bytes of its request's schemas in place: the
// fast path, which finds the compiled schema by its bytes at every output,
// reads the Prepared's own copy. The engine, given the changed bytes,
// answers otherwise, so the change is one that would show.
func TestPreparedOwnsItsSchemas(t *testing.T) {
	t.Parallel()
	e := mustEngine(t)
	tests := []struct {
		name string
		req  func(sch []byte) *judge.Request
	}{
		{"expected schema", func(sch []byte) *judge.Request {
			return &judge.Request{ExpectedSchema: sch}
		}},
		{"schema by $ref", func(sch []byte) *judge.Request {
			return &judge.Request{ExpectedSchema: json.RawMessage(`{"$ref": "urn:judge:prepared-owns"}`),
				Schemas: map[string]json.RawMessage{"urn:judge:prepared-owns": sch}}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			sch := []byte(`{"type": "object"}`)
			req := tt.req(sch)
			p, err := e.Prepare(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			// Both paths: {} takes the fast path, a string holding JSON
			// the usual one.
			outs := []json.RawMessage{json.RawMessage(`{}`), json.RawMessage(`"{\"a\": 1}"`), json.RawMessage(`2`)}
			want := validateAll(t, e, req, outs)
			copy(sch, `{"type": "number"}`) // the same length, in place
			checkUnchanged(t, e, p, req, outs, want, "schema")
		})
	}
}

// validateAll is e's answer to req with each of outs as its output.
func validateAll(t *testing.T, e *judge.Engine, req *judge.Request, outs []json.RawMessage) []*result.ValidationResult {
	t.Helper()
	var rs []*result.ValidationResult
	for _, out := range outs {
		full := *req
		full.Output = out
		r, err := e.Validate(context.Background(), &full)
		if err != nil {
			t.Fatal(err)
		}
		rs = append(rs, r)
	}
	return rs
}

// checkUnchanged checks that p, prepared from req before the caller
// changed req's what in place, still answers each of outs as want, and
// that e, given the changed req, gives each another verdict (else the
// test shows nothing).
func checkUnchanged(t *testing.T, e *judge.Engine, p *judge.Prepared, req *judge.Request, outs []json.RawMessage, want []*result.ValidationResult, what string) {
	t.Helper()
	changed := validateAll(t, e, req, outs)
	for i, out := range outs {
		got, err := p.Validate(context.Background(), out)
		if err != nil {
			t.Fatal(err)
		}
		if d := sameResult(got, want[i]); d != "" {
			t.Errorf("output %s after the caller changed its %s: prepared\n%s", out, what, d)
		}
		if changed[i].Valid == want[i].Valid {
			t.Errorf("output %s: the engine gives the changed %s's verdict %v too, so the test shows nothing", out, what, changed[i].Valid)
		}
	}
}

// One Prepared checks outputs from many goroutines at once (run with
// -race), each getting the answer of its own output.
func TestPreparedConcurrent(t *testing.T) {
	t.Parallel()
	e := mustEngine(t)
	p, err := e.Prepare(context.Background(), &judge.Request{
		ExpectedSchema:     json.RawMessage(`{"type": "object", "properties": {"n": {"type": "integer", "maximum": 50}}}`),
		AcceptanceCriteria: []layer.Criterion{{ID: "even", Description: "n is even", Rule: "output.n % 2 == 0"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for i := range 64 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r, err := p.Validate(context.Background(), json.RawMessage(fmt.Sprintf(`{"n": %d}`, i)))
			if err != nil {
				t.Error(err)
				return
			}
			if want := i%2 == 0 && i <= 50; r.Valid != want {
				t.Errorf("n=%d: valid %v, want %v (%+v)", i, r.Valid, want, r.Issues)
			}
		}()
	}
	wg.Wait()
}

// WithSchemaDir reads a directory as WithSchemas(LoadSchemaDir(dir)) does,
// and a directory that cannot be read fails New.
func TestWithSchemaDir(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"defs/address.json": `{"type": "object", "required": ["city"]}`})
	e := mustEngine(t, judge.WithSchemaDir(dir))
	r := validate(t, e, &judge.Request{Output: json.RawMessage(`{"home": {}}`),
		ExpectedSchema: json.RawMessage(`{"properties": {"home": {"$ref": "defs/address.json"}}}`)})
	if r.Valid || len(r.Issues) != 1 || r.Issues[0].Type != result.MissingField || r.Issues[0].Location != "home" {
		t.Errorf("issues %+v, want one missing field in home", r.Issues)
	}
	if _, err := judge.New(judge.WithSchemaDir(filepath.Join(dir, "missing"))); err == nil {
		t.Error("a missing schema directory was accepted")
	}
	bad := t.TempDir()
	if err := os.WriteFile(filepath.Join(bad, "a.json"), []byte(`{"type": }`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := judge.New(judge.WithSchemaDir(bad)); err == nil {
		t.Error("a schema directory with a file that is not JSON was accepted")
	}
}

// BenchmarkPrepared checks the 234 argument documents of the
// github-mcp-server tools (valid and invalid), each against its tool's
// input schema, through Engine.Validate and through a request prepared
// once per tool.
func BenchmarkPrepared(b *testing.B) {
	c := sharedtest.LoadBenchCorpus(b)
	e := mustEngine(b)
	type item struct {
		req *judge.Request
		p   *judge.Prepared
	}
	var items []item
	for _, tc := range c.Cases {
		p, err := e.Prepare(context.Background(), &judge.Request{ExpectedSchema: tc.Schema})
		if err != nil {
			b.Fatal(err)
		}
		for _, out := range []string{tc.Valid, tc.Invalid} {
			items = append(items, item{&judge.Request{Output: json.RawMessage(out), ExpectedSchema: tc.Schema}, p})
		}
	}
	b.Run("engine", func(b *testing.B) {
		b.ReportAllocs()
		cpu := cpuTime(b)
		for b.Loop() {
			for _, it := range items {
				if _, err := e.Validate(context.Background(), it.req); err != nil {
					b.Fatal(err)
				}
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(items)), "ns/doc")
		reportCPU(b, cpu, len(items))
	})
	b.Run("prepared", func(b *testing.B) {
		b.ReportAllocs()
		cpu := cpuTime(b)
		for b.Loop() {
			for _, it := range items {
				if _, err := it.p.Validate(context.Background(), it.req.Output); err != nil {
					b.Fatal(err)
				}
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(items)), "ns/doc")
		reportCPU(b, cpu, len(items))
	})
}

// TestPreparedOwnsItsRequest: a caller that changes, in place, the
// slices of the request it prepared (its layers, criteria, sources and
// context) after Prepare changes nothing a Prepared checks.
func TestPreparedOwnsItsRequest(t *testing.T) {
	t.Parallel()
	e := mustEngine(t)
	ctxJSON := []byte(`{"k": 1}`)
	req := &judge.Request{
		ValidationTypes:    []string{"criteria", "schema"},
		ExpectedSchema:     json.RawMessage(`{"type": "object"}`),
		AcceptanceCriteria: []layer.Criterion{{ID: "same-k", Rule: "output.x == context.k"}},
		Context:            ctxJSON,
	}
	p, err := e.Prepare(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	outs := []json.RawMessage{json.RawMessage(`{"x": 1}`), json.RawMessage(`{"x": 2}`)}
	want := validateAll(t, e, req, outs)
	if !want[0].Valid || want[1].Valid {
		t.Fatalf("before any change: valid %v and %v, want true and false", want[0].Valid, want[1].Valid)
	}
	req.ValidationTypes[1] = "quality"
	req.AcceptanceCriteria[0].ID = "changed-k"
	copy(ctxJSON, `{"k": 2}`)
	checkUnchanged(t, e, p, req, outs, want, "request")
}
