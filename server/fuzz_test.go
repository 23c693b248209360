package server

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/agentjudge/judge"
	"github.com/agentjudge/judge/result"
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
