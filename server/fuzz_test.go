package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentjudge/judge"
	"github.com/agentjudge/judge/internal/location"
	"github.com/agentjudge/judge/manifest"
	"github.com/agentjudge/judge/result"
	"github.com/agentjudge/judge/server/api"
	"github.com/agentjudge/judge/toolcall"
)

// FuzzValidateHandler feeds arbitrary bodies to POST /validate: the
// handler never panics and never answers 5xx, every 200 is a conforming
// ValidationResult, and every other answer is a problem document.
func FuzzValidateHandler(f *testing.F) {
	for _, seed := range []string{
		`{"output": {"name": "Ada"}, "expected_schema": ` + personSchema + `}`,
		`{"output": {"name": 1}, "expected_schema": ` + personSchema + `}`,
		`{"output": "{\"a\": [1, 2]}", "expected_schema": {"type": "object", "properties": {"a": {"type": "array", "maxItems": 1}}}}`,
		"{\"output\": \"text\\n```json\\n{\\\"a\\\": 1}\\n```\"}",
		`{"output": [1, 2, 3], "acceptance_criteria": [{"rule": "size(output) == 3"}, "Is short", {"id": "x", "rule": "output[0] > 1", "messageExpression": "'first is ' + string(output[0])"}]}`,
		`{"output": {"a": {"b": [true, null, 1.5e300]}}, "context": {"k": "v"}, "acceptance_criteria": [{"rule": "context.k == 'v'"}]}`,
		`{"output": 1, "validation_types": ["schema", "facts"], "expected_schema": {"$ref": "https://x.test/s"}, "schemas": {"https://x.test/s": {"type": "integer"}}}`,
		`{"output": "x", "expected_schema": {"type": "string", "format": "email"}, "options": {"assert_format": true, "output_mode": "value", "timeout_ms": 50}}`,
		`{"output": 1, "expected_schema": {"type": 12}}`,
		`{"output": 1, "acceptance_criteria": [{"rule": "output +"}]}`,
		`{"output": 1, "sources": [{"id": "s", "content": "c"}], "trusted_sources": ["https://x.test"]}`,
		`{"output": ` + strings.Repeat("[", 300) + strings.Repeat("]", 300) + `}`,
		`{"output": 1,}`,
		`{"output": "\ud800"}`,
		`{"output": {"a": 1, "a": 2}, "output": 3}`, "\xef\xbb\xbf{\"output\": {\"n\": 1e400}}", "{\"output\": \"\xc3(\"}",
		``,
		`null`,
		`[]`,
	} {
		f.Add([]byte(seed))
	}
	e, err := judge.New(judge.WithLayerTimeout(2 * time.Second))
	if err != nil {
		f.Fatal(err)
	}
	h := New(e, Options{MaxBodyBytes: 1 << 20}).Handler()
	f.Fuzz(func(t *testing.T, body []byte) {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest(http.MethodPost, "/validate", bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		h.ServeHTTP(rec, req)
		switch {
		case rec.Code >= 500:
			t.Fatalf("status %d for body %q:\n%s", rec.Code, body, rec.Body)
		case rec.Code == http.StatusOK:
			if err := result.CheckJSON(rec.Body.Bytes()); err != nil {
				t.Fatalf("body %q: %v\n%s", body, err, rec.Body)
			}
		default:
			if err := checkProblem(rec.Header(), rec.Body.Bytes(), rec.Code); err != nil {
				t.Fatalf("body %q: %v", body, err)
			}
		}
	})
}

// fuzzRoute posts body to path on h and checks what every route of the
// API promises: never a 5xx, a 200 that decodes into answer and passes
// check, and otherwise a problem document; a 400 names the field it is
// about, and a body that is not JSON is located by line and column.
func fuzzRoute(t *testing.T, h http.Handler, path string, body []byte, answer func() any, check func(v any) error) {
	t.Helper()
	rec := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodPost, path, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	h.ServeHTTP(rec, req)
	switch {
	case rec.Code >= 500:
		t.Fatalf("%s: status %d for body %q:\n%s", path, rec.Code, body, rec.Body)
	case rec.Code == http.StatusOK:
		v := answer()
		dec := json.NewDecoder(rec.Body)
		dec.DisallowUnknownFields()
		dec.UseNumber()
		if err := dec.Decode(v); err != nil {
			t.Fatalf("%s: body %q: the answer does not decode: %v", path, body, err)
		}
		if err := check(v); err != nil {
			t.Fatalf("%s: body %q: %v", path, body, err)
		}
	default:
		if err := checkProblem(rec.Header(), rec.Body.Bytes(), rec.Code); err != nil {
			t.Fatalf("%s: body %q: %v", path, body, err)
		}
		var p api.Problem
		_ = json.Unmarshal(rec.Body.Bytes(), &p)
		if rec.Code != http.StatusBadRequest {
			return
		}
		if len(p.Errors) != 1 || p.Errors[0].Field == "" {
			t.Fatalf("%s: body %q: a 400 without the field it is about: %s", path, body, rec.Body)
		}
		if !json.Valid(body) && p.Errors[0].Field == "body" && !lineCol.MatchString(p.Detail) {
			t.Fatalf("%s: body %q is not JSON, and the problem does not say where: %q", path, body, p.Detail)
		}
	}
}

// lineCol matches the position of an error in a request body.
var lineCol = regexp.MustCompile(`line \d+, column \d+|:\d+:\d+`)

// fuzzCallsHandler is a server whose own tools are the specification's
// examples, for requests without "tools".
func fuzzCallsHandler(f *testing.F) http.Handler {
	f.Helper()
	c, err := toolcall.New()
	if err != nil {
		f.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join("..", "examples", "call-tools.json"))
	if err != nil {
		f.Fatal(err)
	}
	defs, err := toolcall.ParseDefinitions(data, "tools.json")
	if err != nil {
		f.Fatal(err)
	}
	tools, err := c.NewToolset(defs...)
	if err != nil {
		f.Fatal(err)
	}
	e, err := judge.New(judge.WithLayerTimeout(2 * time.Second))
	if err != nil {
		f.Fatal(err)
	}
	return New(e, Options{MaxBodyBytes: 1 << 20, Tools: tools, Calls: c}).Handler()
}

// callSeeds are bodies of the two call routes: with the server's tools,
// with the request's own (MCP, OpenAI, a tools/list answer), and broken.
var callSeeds = []string{
	`{"tool": "home_assistant", "arguments": {"action": "call_tool"}}`,
	`{"tool": "get_events", "arguments": {"action": "by_ids", "ids": ["e1"], "limit": 3}, "session_id": "s1"}`,
	`{"tool": "f", "arguments": {"n": "7"}, "tools": [{"type": "function", "function": {"name": "f", "parameters": {"type": "object", "properties": {"n": {"type": "integer"}}}}}]}`,
	`{"tool": "t", "arguments": {"a": 1e400}, "tools": {"tools": [{"name": "t", "inputSchema": {"type": "object", "properties": {"a": {"type": "integer"}}}}]}}`,
	`{"tool": "t", "arguments": [1], "tools": [{"name": "t", "inputSchema": {"type": "object", "properties": {"a": {"pattern": "("}}}}]}`,
	`{"tool": "nope", "arguments": {}, "session_id": "` + strings.Repeat("x", 300) + `"}`,
	`{"tool": "lookup_contact", "arguments": "{\"name\": \"Ada\"}", "unknown": 1}`,
	`{"tool": "", "arguments": {}}`,
	`{"tool": "t", "tools": [{"name": "t"}, {"name": "t"}]}`,
	`{"tool": 1}`, `{"tool": "x"} {}`, `{`, ``, `null`, `[]`,
}

// FuzzCallCheckHandler feeds arbitrary bodies to POST /v1/calls/check:
// never a 5xx or a panic, every 200 is a {result, normalized_arguments,
// repair} whose result conforms and whose repair is there exactly when
// the call is invalid, and every other answer is a located problem.
func FuzzCallCheckHandler(f *testing.F) {
	for _, s := range callSeeds {
		f.Add([]byte(s))
	}
	h := fuzzCallsHandler(f)
	f.Fuzz(func(t *testing.T, body []byte) {
		fuzzRoute(t, h, "/v1/calls/check", body, func() any { return new(api.CallCheckResponse) }, func(v any) error {
			res := v.(*api.CallCheckResponse)
			if err := result.Check(res.Result); err != nil {
				return err
			}
			if (res.Repair == nil) != res.Result.Valid {
				return fmt.Errorf("valid %v with repair %v", res.Result.Valid, res.Repair)
			}
			return nil
		})
	})
}

// FuzzCallOutcomeHandler feeds arbitrary bodies to POST
// /v1/calls/outcome: never a 5xx or a panic, every 200 an outcome with a
// known status, a reason and a conforming result, and every other answer
// a located problem.
func FuzzCallOutcomeHandler(f *testing.F) {
	for _, s := range callSeeds {
		f.Add([]byte(s))
	}
	for _, s := range []string{
		`{"tool": "lookup_contact", "arguments": {"name": "Ada"}, "result": {"content": [{"type": "text", "text": "{\"id\": \"c1\", \"name\": \"Ada\"}"}]}, "session_id": "s", "goal": "call Ada"}`,
		`{"tool": "lookup_contact", "arguments": {"name": "Ada"}, "result": {"isError": true, "content": [{"type": "text", "text": "Error: rate limit"}]}}`,
		`{"tool": "get_events", "arguments": {"action": "list"}, "result": []}`,
		`{"tool": "get_events", "result": {"structuredContent": {"events": [{"id": "e1"}]}, "content": []}}`,
		`{"tool": "get_events", "result": "Traceback (most recent call last):\nValueError"}`,
		`{"tool": "get_events", "result": null}`,
	} {
		f.Add([]byte(s))
	}
	h := fuzzCallsHandler(f)
	statuses := []toolcall.Status{toolcall.Satisfied, toolcall.NeedsMoreTools, toolcall.NeedUserInput, toolcall.Failed}
	f.Fuzz(func(t *testing.T, body []byte) {
		fuzzRoute(t, h, "/v1/calls/outcome", body, func() any { return new(api.CallOutcomeResponse) }, func(v any) error {
			o := v.(*api.CallOutcomeResponse)
			if !slices.Contains(statuses, o.Status) || o.Reason == "" {
				return fmt.Errorf("status %q, reason %q", o.Status, o.Reason)
			}
			return result.Check(o.Result)
		})
	})
}

// FuzzToolsLintHandler feeds POST /v1/tools/lint a manifest at any path
// with any content, beside a script tool whose entrypoint is any string:
// never a 5xx or a panic; a path that is not local (absolute, with "..",
// empty elements) is refused with its field; and every finding of a 200
// is located in one of the files given, never outside them: an entrypoint
// leading out of its tool's directory is reported as an escape and never
// read.
func FuzzToolsLintHandler(f *testing.F) {
	for _, s := range []struct{ path, content, entrypoint string }{
		{"tools/a/manifest.yaml", "tool_id: a\ntool_type: api\nversion: 1.0.0\nexecutor: http_client\ndescription: Gets a thing.\nconfig:\n  method: GET\n  url_template: https://x.test/{id}\n", "main.py"},
		{"tools/b.yaml", "tool_id: b\n", "../../etc/passwd"},
		{"../outside.yaml", "tool_id: o\n", "/etc/passwd"},
		{"/abs.yaml", "a: b\n", `..\..\secret.py`},
		{"a//b.yaml", "a: &x [*x]\n", "C:/x.py"},
		{"tools/s/main.py", "def f(:\n", "sub/../../s/main.py"},
		{"tools/s/requirements.txt", "requests==2.0\n-r other.txt\nnot a req !!\n", "./main.py"},
		{"tools/s/package.json", `{"dependencies": {"a": "1"}`, "main.py/"},
		{"./tools/c.json", `{"tool_id": "c", "tool_type": "script", "config": {"entrypoint": "x.sh", "requires": ["ok", "bad req"]}}`, "link/x.py"},
	} {
		f.Add(s.path, s.content, s.entrypoint)
	}
	e, err := judge.New()
	if err != nil {
		f.Fatal(err)
	}
	h := New(e, Options{MaxBodyBytes: 1 << 20}).Handler()
	const script = "tools/s/tool.yaml"
	f.Fuzz(func(t *testing.T, p, content, entrypoint string) {
		// The path as the server reads it: JSON carries invalid UTF-8 as
		// U+FFFD.
		if b, err := json.Marshal(p); err == nil {
			_ = json.Unmarshal(b, &p)
		}
		man := "tool_id: s\ntool_type: script\nversion: 1.0.0\ndescription: Runs a script.\nconfig:\n  entrypoint: " + location.Quote(entrypoint) + "\n"
		files := []manifest.File{{Path: script, Content: man}, {Path: "tools/s/main.py", Content: "print('hi')\n"}, {Path: p, Content: content}}
		body, err := json.Marshal(api.ToolsLintRequest{Manifests: files})
		if err != nil {
			return
		}
		given := map[string]bool{}
		for _, fl := range files {
			given[strings.TrimPrefix(fl.Path, "./")] = true
		}
		rec := httptest.NewRecorder()
		req := httptest.NewRequest(http.MethodPost, "/v1/tools/lint", bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		h.ServeHTTP(rec, req)
		local := fs.ValidPath(strings.TrimPrefix(p, "./")) && strings.TrimPrefix(p, "./") != "."
		switch {
		case rec.Code >= 500:
			t.Fatalf("status %d for %q:\n%s", rec.Code, body, rec.Body)
		case rec.Code != http.StatusOK:
			if err := checkProblem(rec.Header(), rec.Body.Bytes(), rec.Code); err != nil {
				t.Fatal(err)
			}
			if !local {
				var pr api.Problem
				_ = json.Unmarshal(rec.Body.Bytes(), &pr)
				if len(pr.Errors) != 1 || pr.Errors[0].Field != "manifests[2].path" {
					t.Fatalf("path %q refused without naming manifests[2].path: %s", p, rec.Body)
				}
			}
			return
		}
		if !local {
			t.Fatalf("path %q is not local, yet the lint answered 200", p)
		}
		var rep manifest.Report
		if err := json.Unmarshal(rec.Body.Bytes(), &rep); err != nil {
			t.Fatal(err)
		}
		escapes := escapingEntrypoint(entrypoint)
		linted, escapeFound := false, false
		for key, r := range rep.Results {
			if err := result.Check(r); err != nil {
				t.Fatalf("%s: %v", key, err)
			}
			for _, is := range r.Issues {
				file, _, _, ok := manifest.SplitLocation(is.Location)
				if !ok {
					t.Fatalf("%s: location %q is not file:line:column", key, is.Location)
				}
				if !given[file] {
					t.Fatalf("%s: issue %q is located in %q, which is none of the files given", key, is.Message, file)
				}
				if file != script || !strings.HasPrefix(is.Rule, "manifest.script.entrypoint") && is.Rule != "manifest.script.syntax" {
					continue
				}
				linted = true
				switch is.Rule {
				case "manifest.script.entrypoint_escape":
					escapeFound = true
				case "manifest.script.entrypoint_missing", "manifest.script.syntax":
					if escapes {
						t.Fatalf("entrypoint %q leads out of the tool's directory, yet it was looked up: %s", entrypoint, is.Message)
					}
				}
			}
		}
		if escapes && linted && !escapeFound {
			t.Fatalf("entrypoint %q leads out of the tool's directory, and no finding says so", entrypoint)
		}
	})
}

// escapingEntrypoint reports whether ep names a file outside its tool's
// directory: absolute (also in Windows' forms) or through "..".
func escapingEntrypoint(ep string) bool {
	if path.IsAbs(ep) || strings.HasPrefix(ep, `\`) || (len(ep) > 1 && ep[1] == ':') {
		return true
	}
	clean := path.Clean(strings.ReplaceAll(ep, `\`, "/"))
	return clean == ".." || strings.HasPrefix(clean, "../")
}

// TestBodyErrorsLocated holds findings of FuzzCallCheckHandler: data
// after the request object, and an unknown field, were refused without
// saying where they are.
func TestBodyErrorsLocated(t *testing.T) {
	t.Parallel()
	_, ts := newTestServer(t, Options{})
	for path, body := range map[string]string{
		"/validate": `{"output": 1}`, "/v1/calls/check": `{"tool": "x"}`,
		"/v1/calls/outcome": `{"tool": "x"}`, "/v1/tools/lint": `{"manifests": []}`,
	} {
		r := do(t, ts, http.MethodPost, path, body+"\n  {}", nil)
		p := mustProblem(t, r, http.StatusBadRequest, path)
		if want := "body: line 2, column 3: unexpected data after the request object"; p.Detail != want {
			t.Errorf("%s: detail %q, want %q", path, p.Detail, want)
		}
		r = do(t, ts, http.MethodPost, path, body[:len(body)-1]+",\n \"x\": 1}", nil)
		p = mustProblem(t, r, http.StatusBadRequest, path)
		if want := `body: line 2, column 9: unknown field "x" (known: `; !strings.HasPrefix(p.Detail, want) {
			t.Errorf("%s: detail %q, want it to start with %q", path, p.Detail, want)
		}
	}
}
