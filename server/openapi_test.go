package server

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/agentjudge/judge/result"
)

// operations lists "METHOD /path" of every operation in an OpenAPI
// document.
func operations(t *testing.T, doc map[string]any) []string {
	t.Helper()
	var ops []string
	for path, item := range doc["paths"].(map[string]any) {
		for method := range item.(map[string]any) {
			switch method {
			case "get", "put", "post", "delete", "options", "head", "patch", "trace":
				ops = append(ops, strings.ToUpper(method)+" "+path)
			}
		}
	}
	slices.Sort(ops)
	return ops
}

func getOpenAPI(t *testing.T, opts Options) (*Server, map[string]any, []byte) {
	t.Helper()
	s, ts := newTestServer(t, opts)
	h := map[string]string{}
	if opts.Token != "" {
		h["Authorization"] = "Bearer " + opts.Token
	}
	r := do(t, ts, http.MethodGet, "/openapi.json", "", h)
	if r.status != 200 || r.header.Get("Content-Type") != "application/json" {
		t.Fatalf("GET /openapi.json: %d %s", r.status, r.header.Get("Content-Type"))
	}
	var doc map[string]any
	if err := json.Unmarshal(r.body, &doc); err != nil {
		t.Fatalf("the document does not parse: %v", err)
	}
	return s, doc, r.body
}

func TestOpenAPIRoutes(t *testing.T) {
	t.Parallel()
	s, doc, _ := getOpenAPI(t, Options{Version: "v9.9.9"})
	if doc["openapi"] != "3.1.0" {
		t.Errorf("openapi = %v", doc["openapi"])
	}
	if v := doc["info"].(map[string]any)["version"]; v != "v9.9.9" {
		t.Errorf("info.version = %v", v)
	}
	if _, ok := doc["security"]; ok {
		t.Error("a server without a token declares a security requirement")
	}
	var served []string
	for _, rt := range s.routes() {
		served = append(served, rt.method+" "+rt.path)
	}
	slices.Sort(served)
	if got := operations(t, doc); !slices.Equal(got, served) {
		t.Errorf("the document lists\n%q\nbut the server serves\n%q", got, served)
	}
	// Every documented operation is routed (neither 404 nor 405).
	ts := s.Handler()
	for _, op := range operations(t, doc) {
		method, path, _ := strings.Cut(op, " ")
		rec := httptest.NewRecorder()
		ts.ServeHTTP(rec, httptest.NewRequest(method, path, strings.NewReader(`{"output": 1}`)))
		if rec.Code == http.StatusNotFound || rec.Code == http.StatusMethodNotAllowed {
			t.Errorf("%s answers %d", op, rec.Code)
		}
	}
	// Every operation has an id, a summary and a 200 answer.
	for path, item := range doc["paths"].(map[string]any) {
		for method, op := range item.(map[string]any) {
			o := op.(map[string]any)
			if o["operationId"] == nil || o["summary"] == nil {
				t.Errorf("%s %s lacks operationId or summary", method, path)
			}
			if o["responses"].(map[string]any)["200"] == nil {
				t.Errorf("%s %s has no 200 answer", method, path)
			}
		}
	}
}

func TestOpenAPISecurity(t *testing.T) {
	t.Parallel()
	_, doc, _ := getOpenAPI(t, Options{Token: "tok"})
	sec, ok := doc["security"].([]any)
	if !ok || len(sec) != 1 {
		t.Fatalf("security = %v, want the bearer requirement", doc["security"])
	}
	for _, p := range []string{"/healthz", "/readyz"} {
		op := doc["paths"].(map[string]any)[p].(map[string]any)["get"].(map[string]any)
		if s, ok := op["security"].([]any); !ok || len(s) != 0 {
			t.Errorf("%s security = %v, want []", p, op["security"])
		}
	}
}

// TestOpenAPIResultSchema checks that the ValidationResult schema is the
// specification's, and that the document's schemas accept what the server
// really sends and receives.
func TestOpenAPIResultSchema(t *testing.T) {
	t.Parallel()
	_, doc, raw := getOpenAPI(t, Options{})
	// Moved back into one draft-07 schema, the served schemas are the
	// specification's exactly.
	schemas := doc["components"].(map[string]any)["schemas"].(map[string]any)
	served, err := json.Marshal(schemas["ValidationResult"])
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(served, []byte("#/definitions/")) {
		t.Errorf("the served ValidationResult still refers to #/definitions/: %s", served)
	}
	var got map[string]any
	if err := json.Unmarshal(bytes.ReplaceAll(served, []byte(`"#/components/schemas/`), []byte(`"#/definitions/`)), &got); err != nil {
		t.Fatal(err)
	}
	var spec map[string]any
	if err := json.Unmarshal(result.SchemaJSON(), &spec); err != nil {
		t.Fatal(err)
	}
	got["$schema"] = spec["$schema"]
	defs := map[string]any{}
	for name := range spec["definitions"].(map[string]any) {
		defs[name] = schemas[name]
	}
	got["definitions"] = defs
	if !reflect.DeepEqual(got, spec) {
		t.Errorf("the ValidationResult schema differs from the specification's")
	}

	c := jsonschema.NewCompiler()
	whole, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	const base = "https://agentjudge.dev/openapi.json"
	if err := c.AddResource(base, whole); err != nil {
		t.Fatal(err)
	}
	compile := func(name string) *jsonschema.Schema {
		sch, err := c.Compile(base + "#/components/schemas/" + name)
		if err != nil {
			t.Fatalf("compiling %s: %v", name, err)
		}
		return sch
	}
	check := func(sch *jsonschema.Schema, what, body string, wantOK bool) {
		t.Helper()
		v, err := jsonschema.UnmarshalJSON(strings.NewReader(body))
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if err := sch.Validate(v); (err == nil) != wantOK {
			t.Errorf("%s: validation error %v, want ok=%v:\n%s", what, err, wantOK, body)
		}
	}

	_, ts := newTestServer(t, Options{})
	req, res, prob := compile("ValidateRequest"), compile("ValidationResult"), compile("Problem")
	for _, body := range []string{
		`{"output": {"name": "Ada"}, "expected_schema": ` + personSchema + `}`,
		`{"output": "text", "acceptance_criteria": ["Is polite", {"id": "a", "rule": "true"}], "options": {"output_mode": "value", "timeout_ms": 100, "assert_format": true}}`,
		`{"output": null, "validation_types": ["schema"], "expected_schema": true, "schemas": {"https://x.test/s": {"type": "string"}}, "context": [1], "trusted_sources": ["https://x.test"], "sources": [{"id": "s", "content": "c"}]}`,
	} {
		check(req, "request", body, true)
		r := do(t, ts, http.MethodPost, "/validate", body, nil)
		mustResult(t, r)
		check(res, "result", string(r.body), true)
	}
	for _, body := range []string{`{}`, `{"output": 1, "extra": 2}`, `{"output": 1, "options": {"output_mode": "raw"}}`, `{"output": 1, "acceptance_criteria": [{"note": "x"}]}`} {
		check(req, "bad request", body, false)
	}
	for _, body := range []string{`{"output": 1, "extra": 2}`, `{`} {
		r := do(t, ts, http.MethodPost, "/validate", body, nil)
		check(prob, "problem", string(r.body), true)
	}
}

// TestOpenAPIValidator checks the served document, with and without a
// token, with a real OpenAPI validator: swagger-parser, from npm, which
// validates it against the OpenAPI 3.1 schema and resolves every $ref.
// scripts/test installs it in testdata/openapi.
func TestOpenAPIValidator(t *testing.T) {
	t.Parallel()
	dir, err := filepath.Abs(filepath.Join("testdata", "openapi"))
	if err != nil {
		t.Fatal(err)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed; scripts/test installs the OpenAPI validator when npm is there")
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@apidevtools", "swagger-parser")); err != nil {
		t.Skip("swagger-parser is not installed: run (cd server/testdata/openapi && npm ci), as scripts/test does")
	}
	for _, opts := range []Options{{Version: "v1.2.3"}, {Version: "dev", Token: "tok"}} {
		_, _, raw := getOpenAPI(t, opts)
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		cmd := exec.CommandContext(ctx, node, "validate.mjs")
		cmd.Dir = dir
		cmd.Stdin = bytes.NewReader(raw)
		out, err := cmd.CombinedOutput()
		cancel()
		if err != nil {
			t.Errorf("swagger-parser rejects the document (token %q): %v\n%s", opts.Token, err, out)
		} else if !strings.HasPrefix(string(out), "ok 3.1.0 ") {
			t.Errorf("swagger-parser says %q", out)
		}
	}
}
