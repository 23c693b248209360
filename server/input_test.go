package server

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/agentjudge/judge/result"
)

// inputTools is a tool definition for the tool-call routes.
const inputTools = `"tools": [{"name": "pay", "description": "Pay an amount to a payee", "inputSchema": {"type": "object",
	"properties": {"amount": {"type": "integer"}, "payee": {"type": "string", "maxLength": 2}}}}]`

// TestSilentInputChanges sends, through every JSON route, what
// encoding/json would change without a word: a number beyond the float64
// range and invalid UTF-8 are refused with their location, a field of the
// request given twice is refused, and a leading byte-order mark is skipped.
func TestSilentInputChanges(t *testing.T) {
	t.Parallel()
	_, ts := newTestServer(t, Options{})
	schema := `"expected_schema": {"type": "object", "properties": {"n": {"type": "integer"}, "s": {"type": "string", "maxLength": 2}}}`
	tests := []struct {
		name, path, body string
		status           int
		field            string   // errors[0].field
		detail           []string // substrings of the detail
	}{
		{name: "1e400 output", path: "/validate", body: `{"output": {"n": 1e400}, ` + schema + `}`, status: 400, field: "output",
			detail: []string{"line 1, column 7", "number 1e400 at n is outside the range of a 64-bit float"}},
		{name: "1e400 in a JSON string output", path: "/validate", body: `{"output": "{\"n\": -1e400}", ` + schema + `}`, status: 400, field: "output",
			detail: []string{"number -1e400 at n is outside the range"}},
		{name: "huge integer output", path: "/validate", body: `{"output": {"n": ` + strings.Repeat("7", 320) + `}, ` + schema + `}`, status: 400, field: "output",
			detail: []string{"7777777777… (320 digits) at n is outside the range"}},
		{name: "invalid UTF-8 output", path: "/validate", body: "{\"output\": {\"s\": \"a\xffb\"}, " + schema + "}", status: 400, field: "body",
			detail: []string{"invalid UTF-8 (byte 0xff) at byte offset 19 at output.s", "line 1, column 20"}},
		{name: "duplicate request field", path: "/validate", body: `{"output": 1, "expected_schema": {"type": "string"}, "Output": 2}`, status: 400, field: "body",
			detail: []string{`field "Output" is given twice (first at line 1, column 2)`, "line 1, column 54"}},
		{name: "1e400 arguments", path: "/v1/calls/check", body: `{"tool": "pay", "arguments": {"amount": 1e400}, ` + inputTools + `}`, status: 400, field: "arguments:1:12",
			detail: []string{"number 1e400 at amount is outside the range of a 64-bit float"}},
		{name: "invalid UTF-8 arguments", path: "/v1/calls/check", body: "{\"tool\": \"pay\", \"arguments\": {\"payee\": \"\xc3(\"}, " + inputTools + "}", status: 400, field: "body",
			detail: []string{"invalid UTF-8 (byte 0xc3) at byte offset 40 at arguments.payee"}},
		{name: "duplicate tool", path: "/v1/calls/check", body: `{"tool": "pay", "arguments": {}, "tool": "refund", ` + inputTools + `}`, status: 400, field: "body",
			detail: []string{`field "tool" is given twice`}},
		{name: "1e400 result", path: "/v1/calls/outcome", body: `{"tool": "pay", "arguments": {}, "result": {"paid": 1e999}, ` + inputTools + `}`, status: 400, field: "result:1:10",
			detail: []string{"number 1e999 at paid is outside the range"}},
		{name: "duplicate manifests", path: "/v1/tools/lint", body: `{"manifests": [], "manifests": [{"path": "a.yaml", "content": "x"}]}`, status: 400, field: "body",
			detail: []string{`field "manifests" is given twice`}},
		{name: "duplicate conversations", path: "/v1/traces/check", body: `{"messages": [], "tools": [], "messages": []}`, status: 400, field: "body",
			detail: []string{`field "messages" is given twice`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := do(t, ts, http.MethodPost, tt.path, tt.body, nil)
			p := mustProblem(t, r, tt.status, tt.path)
			for _, want := range tt.detail {
				if !strings.Contains(p.Detail, want) {
					t.Errorf("detail %q does not contain %q", p.Detail, want)
				}
			}
			if len(p.Errors) == 0 || p.Errors[0].Field != tt.field {
				t.Errorf("errors = %+v, want field %q first", p.Errors, tt.field)
			}
		})
	}
}

// TestDuplicateKeysAreWarnings: a key repeated in the output, the
// arguments or a tool's result is a duplicate_key warning at its location;
// the last value is the one checked.
func TestDuplicateKeysAreWarnings(t *testing.T) {
	t.Parallel()
	_, ts := newTestServer(t, Options{})
	check := func(t *testing.T, res *result.ValidationResult, valid bool, want ...string) {
		t.Helper()
		if err := result.Check(res); err != nil {
			t.Fatal(err)
		}
		if res.Valid != valid {
			t.Errorf("valid = %v, want %v: %+v", res.Valid, valid, res.Issues)
		}
		var got []string
		for _, is := range res.Issues {
			if is.Type == result.DuplicateKey {
				if is.Severity != result.Warning {
					t.Errorf("%+v: want a warning", is)
				}
				got = append(got, is.Location+" "+is.Message)
			}
		}
		if len(got) != len(want) {
			t.Fatalf("duplicate_key issues %q, want %d", got, len(want))
		}
		for i, w := range want {
			if !strings.Contains(got[i], w) {
				t.Errorf("issue %q does not contain %q", got[i], w)
			}
		}
	}

	t.Run("validate", func(t *testing.T) {
		t.Parallel()
		body := `{"output": {"items": [{"id": 1, "id": "x"}], "n": 5, "n": 6}, "expected_schema": {"type": "object",
			"properties": {"items": {"type": "array", "items": {"properties": {"id": {"type": "string"}}}}, "n": {"maximum": 5}}}}`
		r := do(t, ts, http.MethodPost, "/validate", body, nil)
		var res result.ValidationResult
		if r.status != 200 || json.Unmarshal(r.body, &res) != nil {
			t.Fatalf("status %d: %s", r.status, r.body)
		}
		// The last values are checked: id "x" passes, n 6 is over the maximum.
		check(t, &res, false, "items[0].id Key 'id' appears more than once in its object (again at line 1, column 22 of the output)", "n Key 'n'")
	})
	t.Run("validate, schema that reads no key", func(t *testing.T) {
		t.Parallel()
		r := do(t, ts, http.MethodPost, "/validate", `{"output": {"role": "user", "role": "admin"}, "expected_schema": {"type": "object"}}`, nil)
		var res result.ValidationResult
		if r.status != 200 || json.Unmarshal(r.body, &res) != nil {
			t.Fatalf("status %d: %s", r.status, r.body)
		}
		check(t, &res, true, "role Key 'role' appears more than once in its object (again at line 1, column 18 of the output)")
	})
	t.Run("validate string output", func(t *testing.T) {
		t.Parallel()
		r := do(t, ts, http.MethodPost, "/validate", `{"output": "{\"a\": 1, \"a\": 2}", "expected_schema": {"type": "object"}}`, nil)
		var res result.ValidationResult
		if r.status != 200 || json.Unmarshal(r.body, &res) != nil {
			t.Fatalf("status %d: %s", r.status, r.body)
		}
		check(t, &res, true, "a Key 'a' appears more than once in its object (again at line 1, column 10 of the JSON string)")
	})
	t.Run("calls check", func(t *testing.T) {
		t.Parallel()
		body := `{"tool": "pay", "arguments": {"amount": 5, "payee": "ab", "amount": 500000}, ` + inputTools + `}`
		r := do(t, ts, http.MethodPost, "/v1/calls/check", body, nil)
		var out struct {
			Result     result.ValidationResult `json:"result"`
			Normalized map[string]any          `json:"normalized_arguments"`
		}
		if r.status != 200 || json.Unmarshal(r.body, &out) != nil {
			t.Fatalf("status %d: %s", r.status, r.body)
		}
		check(t, &out.Result, true, "amount Key 'amount' appears more than once in its object (again at line 1, column 30 of the arguments)")
		if out.Normalized["amount"] != float64(500000) {
			t.Errorf("normalized amount %v, want the last value 500000", out.Normalized["amount"])
		}
	})
	t.Run("calls outcome", func(t *testing.T) {
		t.Parallel()
		body := `{"tool": "pay", "arguments": {"payee": "a", "payee": "b"}, "result": {"paid": true, "id": 1, "paid": false}, ` + inputTools + `}`
		r := do(t, ts, http.MethodPost, "/v1/calls/outcome", body, nil)
		var out struct {
			Result result.ValidationResult `json:"result"`
		}
		if r.status != 200 || json.Unmarshal(r.body, &out) != nil {
			t.Fatalf("status %d: %s", r.status, r.body)
		}
		check(t, &out.Result, true, "arguments.payee Key 'payee'", "paid Key 'paid' appears more than once in its object (again at line 1, column 25 of the result)")
	})
}

// TestByteOrderMark: a body that starts with a UTF-8 byte-order mark is
// read as if it had none.
func TestByteOrderMark(t *testing.T) {
	t.Parallel()
	_, ts := newTestServer(t, Options{})
	for _, c := range []struct{ path, body string }{
		{"/validate", `{"output": {"a": 1}, "expected_schema": {"type": "object"}}`},
		{"/v1/calls/check", `{"tool": "pay", "arguments": {"amount": 1}, ` + inputTools + `}`},
	} {
		r := do(t, ts, http.MethodPost, c.path, "\xef\xbb\xbf"+c.body, nil)
		if r.status != 200 || !strings.Contains(string(r.body), `"valid": true`) {
			t.Errorf("%s with a BOM: status %d: %s", c.path, r.status, r.body)
		}
	}
}

// lintTool is a manifest whose description line the lint cases replace.
const lintTool = "tool_id: t\ntool_type: mcp_tool\nversion: \"1.0.0\"\nexecutor: '@mcp'\ndescription: Create an issue in a repository\nconfig:\n  mcp_tool_name: t\ninput_schema:\n  type: object\n"

// TestMisleadingMessages: each message says what really happened.
func TestMisleadingMessages(t *testing.T) {
	t.Parallel()
	_, ts := newTestServer(t, Options{})

	lint := []struct {
		name, content string
		want          string // a substring of one issue's message
		not           string // in no issue's message
	}{
		{name: "100,000 values without aliases", content: lintTool + "tags: [" + strings.Repeat("1,", 100000) + "]\n",
			want: "the document has more than 100000 values (scalars, lists and mappings, counted one by one)", not: "alias"},
		{name: "65 brackets in a quoted string", content: strings.Replace(lintTool, "Create an issue in a repository", "'"+strings.Repeat("[", 65)+"'", 1),
			want: "counted everywhere before parsing, also inside quoted strings"},
		{name: "BOM", content: "\xef\xbb\xbf" + lintTool, not: "tool_id"},
		{name: "remote $schema", content: lintTool + "  $schema: https://example.com/remote-schema\n",
			want: `$schema "https://example.com/remote-schema" is not a draft judge knows, and judge never fetches schemas`, not: "URLLoader"},
	}
	for _, tt := range lint {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			body, _ := json.Marshal(map[string]any{"manifests": []map[string]string{{"path": "t.yaml", "content": tt.content}}})
			results, _ := lintAnswer(t, do(t, ts, http.MethodPost, "/v1/tools/lint", string(body), nil))
			found := tt.want == ""
			for _, r := range results {
				for _, is := range r.Issues {
					found = found || strings.Contains(is.Message, tt.want)
					if tt.not != "" && strings.Contains(is.Message, tt.not) {
						t.Errorf("issue %q mentions %q", is.Message, tt.not)
					}
				}
			}
			if !found {
				t.Errorf("no issue says %q: %+v", tt.want, results)
			}
		})
	}

	t.Run("flat alternation", func(t *testing.T) {
		t.Parallel()
		alts := make([]string, 600)
		for i := range alts {
			alts[i] = strings.Repeat("a", i+1)
		}
		pattern, _ := json.Marshal("^(" + strings.Join(alts, "|") + ")$")
		r := do(t, ts, http.MethodPost, "/validate", `{"output": "a", "expected_schema": {"type": "string", "pattern": `+string(pattern)+`}}`, nil)
		p := mustProblem(t, r, 400, "/validate")
		if !strings.Contains(p.Detail, "factors the common prefixes of the 600 alternatives into nested groups") || strings.Contains(p.Detail, "expression nests too deeply") {
			t.Errorf("detail %q", p.Detail)
		}
	})
	t.Run("huge number", func(t *testing.T) {
		t.Parallel()
		r := do(t, ts, http.MethodPost, "/validate", `{"output": [`+strings.Repeat("9", 1500)+`], "expected_schema": {}}`, nil)
		p := mustProblem(t, r, 400, "/validate")
		if !strings.Contains(p.Detail, "number 9999999999999999999999999999999999999999… (1500 digits) at [0] is beyond what judge accepts") {
			t.Errorf("detail %q", p.Detail)
		}
	})
	t.Run("cap in index order", func(t *testing.T) {
		t.Parallel()
		r := do(t, ts, http.MethodPost, "/validate", `{"output": [`+strings.Repeat(`"x",`, 1199)+`"x"], "expected_schema": {"items": {"type": "integer"}}}`, nil)
		var res result.ValidationResult
		if r.status != 200 || json.Unmarshal(r.body, &res) != nil || len(res.Issues) != result.DefaultMaxIssues {
			t.Fatalf("status %d, %d issues", r.status, len(res.Issues))
		}
		for i, is := range res.Issues[:len(res.Issues)-1] {
			if want := "[" + strconv.Itoa(i) + "]"; is.Location != want {
				t.Fatalf("issue %d at %s, want %s", i, is.Location, want)
			}
		}
	})
}
