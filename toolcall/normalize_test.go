package toolcall_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/agentjudge/judge/internal/sharedtest"
	"github.com/agentjudge/judge/toolcall"
)

// A default that its own parameter rejects is not filled: a call that
// leaves the parameter out stays valid. A default the parameter accepts
// still is.
func TestDefaultNotFilledWhenInvalid(t *testing.T) {
	t.Parallel()
	ts := newToolset(t, []byte(`{"name": "search", "inputSchema": {"type": "object", "properties": {
		"query": {"type": "string"},
		"cursor": {"type": "string", "default": null},
		"limit": {"type": "integer", "default": "ten"},
		"sort": {"type": "string", "enum": ["asc", "desc"], "default": "newest"},
		"page": {"type": "integer", "minimum": 1, "default": 1}
	}, "required": ["query"]}}`), "defs.json")
	res, err := ts.Check(context.Background(), toolcall.Call{Tool: "search", Arguments: json.RawMessage(`{"query": "x"}`)})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Result.Valid {
		t.Fatalf("a valid call became invalid: %+v", res.Result.Errors())
	}
	want := map[string]any{"query": "x", "page": json.Number("1")}
	got, _ := json.Marshal(res.Arguments())
	wantJSON, _ := json.Marshal(want)
	if !bytes.Equal(got, wantJSON) {
		t.Errorf("normalized = %s, want %s", got, wantJSON)
	}
	ct, _ := ts.Contract("search")
	for _, p := range ct.Params {
		if p.Default != nil && p.Name != "page" {
			t.Errorf("repair feedback shows %s's rejected default %v", p.Name, p.Default)
		}
	}
}

// Normalization never makes a valid call invalid, over every real tool
// definition of the shared test data (github-mcp-server, the captured MCP
// servers, the tau-bench airline and retail tools) with generated valid
// arguments, and over the bench corpus's valid documents: wherever the
// original arguments are valid against the tool's schema, so are the
// normalized ones, and the call is valid.
func TestNormalizeKeepsValidCallsValid(t *testing.T) {
	t.Parallel()
	dir := sharedtest.Dir(t, "mcp-tools")
	traces := sharedtest.Dir(t, "agent-traces")
	var files []string
	snaps, _ := filepath.Glob(filepath.Join(dir, "github-mcp-server", "*.snap"))
	lists, _ := filepath.Glob(filepath.Join(dir, "mcp-snapshots", "*.json"))
	tau, _ := filepath.Glob(filepath.Join(traces, "*-tools.json"))
	files = append(append(append(files, snaps...), lists...), tau...)
	if len(snaps) < 100 || len(tau) < 2 {
		t.Fatalf("found %d .snap and %d tau-bench tool files", len(snaps), len(tau))
	}
	type call struct {
		def  toolcall.Definition
		args []byte
		what string
	}
	var calls []call
	for _, f := range files {
		if strings.HasSuffix(f, "-examples.json") {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasPrefix(string(data), "Error:") {
			continue // a failed capture, not a definition
		}
		defs, err := toolcall.ParseDefinitions(data, filepath.Base(f))
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range defs {
			for _, all := range []bool{false, true} {
				args, _ := json.Marshal(generate(asObj(d.InputSchema), all, 0))
				calls = append(calls, call{d, args, fmt.Sprintf("%s %s (all=%v)", filepath.Base(f), d.Name, all)})
			}
		}
	}
	for _, c := range sharedtest.LoadBenchCorpus(t).Cases {
		var s any
		dec := json.NewDecoder(bytes.NewReader(c.Schema))
		dec.UseNumber()
		if err := dec.Decode(&s); err != nil {
			t.Fatal(err)
		}
		d := toolcall.Definition{Name: c.Name, Kind: toolcall.KindMCP, InputSchema: s}
		calls = append(calls, call{d, []byte(c.Valid), "bench-corpus " + c.Name})
	}
	checker, err := toolcall.New()
	if err != nil {
		t.Fatal(err)
	}
	var valid, normalized int
	for _, c := range calls {
		sch := compileLib(t, c.def.InputSchema)
		if libValidate(sch, c.args) != nil {
			continue // the generator could not satisfy this schema
		}
		valid++
		ts, err := checker.NewToolset(c.def)
		if err != nil {
			t.Fatalf("%s: %v", c.what, err)
		}
		res, err := ts.Check(context.Background(), toolcall.Call{Tool: c.def.Name, Arguments: c.args})
		if err != nil {
			t.Fatalf("%s: %v", c.what, err)
		}
		norm, err := json.Marshal(res.Arguments())
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(norm, compact(c.args)) {
			normalized++
		}
		if err := libValidate(sch, norm); err != nil {
			t.Errorf("%s: %s is valid, normalized to %s it is not: %v", c.what, c.args, norm, err)
		}
		if !res.Result.Valid {
			t.Errorf("%s: %s is valid, judge rejects it: %+v", c.what, c.args, res.Result.Errors())
		}
	}
	if valid < 400 {
		t.Errorf("only %d of %d calls were valid to start with; the generator lost its way", valid, len(calls))
	}
	t.Logf("%d valid calls (of %d generated or read), %d changed by normalization, none made invalid", valid, len(calls), normalized)
}

func compact(b []byte) []byte {
	var v any
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return b
	}
	out, _ := json.Marshal(v)
	return out
}

// compileLib compiles s with the JSON Schema library itself, the judge of
// "valid" here, independent of judge's normalization.
func compileLib(t *testing.T, s any) *jsonschema.Schema {
	t.Helper()
	if s == nil {
		s = map[string]any{"type": "object"}
	}
	raw, _ := json.Marshal(s)
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat() // as judge does
	if err := c.AddResource("mem:///s.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("mem:///s.json")
	if err != nil {
		t.Fatal(err)
	}
	return sch
}

func libValidate(s *jsonschema.Schema, doc []byte) error {
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		return err
	}
	return s.Validate(v)
}

func asObj(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}

// generate makes a value that s likely accepts: the const, the first enum
// value, the type's smallest value within the bounds, an object with its
// required properties (and, with all, every declared property).
func generate(s map[string]any, all bool, depth int) any {
	if c, ok := s["const"]; ok {
		return c
	}
	if e, ok := s["enum"].([]any); ok && len(e) > 0 {
		return e[0]
	}
	for _, kw := range []string{"anyOf", "oneOf", "allOf"} {
		if alts, ok := s[kw].([]any); ok && len(alts) > 0 && s["type"] == nil {
			return generate(asObj(alts[0]), all, depth+1)
		}
	}
	typ := "object"
	switch t := s["type"].(type) {
	case string:
		typ = t
	case []any:
		for _, x := range t {
			if x != "null" {
				typ, _ = x.(string)
				break
			}
		}
	}
	num := func(kw string) (json.Number, bool) {
		n, ok := s[kw].(json.Number)
		return n, ok
	}
	switch typ {
	case "string":
		if ex, ok := map[string]string{"uri": "https://example.com/x", "email": "a@example.com",
			"date-time": "2024-01-02T03:04:05Z", "date": "2024-01-02"}[fmt.Sprint(s["format"])]; ok {
			return ex
		}
		n := 7
		if m, ok := num("minLength"); ok {
			if i, err := m.Int64(); err == nil && i > 7 {
				n = int(i)
			}
		}
		return strings.Repeat("e", n)
	case "integer", "number":
		if m, ok := num("minimum"); ok {
			return m
		}
		return json.Number("1")
	case "boolean":
		return true
	case "null":
		return nil
	case "array":
		var out []any
		if m, ok := num("minItems"); ok && depth < 6 {
			i, _ := m.Int64()
			for range min(i, 5) {
				out = append(out, generate(asObj(s["items"]), all, depth+1))
			}
		}
		if out == nil {
			out = []any{}
		}
		return out
	}
	obj := map[string]any{}
	props := asObj(s["properties"])
	req, _ := s["required"].([]any)
	for k, ps := range props {
		if (all && depth == 0) || slices.Contains(req, any(k)) {
			if depth < 6 {
				obj[k] = generate(asObj(ps), all, depth+1)
			}
		}
	}
	return obj
}
