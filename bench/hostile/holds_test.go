//go:build hostile

package hostile

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// TestHostileInputs sends the inputs that judge serve already withstands
// (docs/performance.md, "Hostile inputs"), each with its expected status
// and message.
func TestHostileInputs(t *testing.T) {
	var fetched atomic.Int64
	remote := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		fetched.Add(1)
		fmt.Fprint(w, `{"type": "string"}`)
	}))
	defer remote.Close()

	var sources strings.Builder
	sources.WriteString(`{"output": "The score is 7.5.", "validation_types": ["facts"], "sources": [`)
	for i := range 10000 {
		if i > 0 {
			sources.WriteString(",")
		}
		fmt.Fprintf(&sources, `{"id": "s%d", "content": "Document %d says the score is %d."}`, i, i, i)
	}
	sources.WriteString(`]}`)

	var laughs strings.Builder
	laughs.WriteString("a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n")
	for i, prev := 'b', 'a'; i <= 'i'; i, prev = i+1, i {
		fmt.Fprintf(&laughs, "%c: &%c [*%c,*%c,*%c,*%c,*%c,*%c,*%c,*%c,*%c]\n", i, i, prev, prev, prev, prev, prev, prev, prev, prev, prev)
	}
	entities := `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;"><!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;"><!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;"><!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">]><directive name="x"><metadata>&lol4;</metadata></directive>`

	runCases(t, []hostileCase{
		{name: "100 MB body", path: "/validate", body: func() io.Reader {
			return io.MultiReader(strings.NewReader(`{"output": "`), io.LimitReader(zeros{}, 100<<20), strings.NewReader(`"}`))
		}, status: 413, want: []string{"larger than the limit of"}},
		{name: "100,000-deep nesting", path: "/validate", body: str(`{"output": ` + repeat("[", 100000) + repeat("]", 100000) + `}`),
			status: 400, want: []string{"line 1, column 267: JSON nested more than 256 levels deep"}},
		{name: "$ref cycle", path: "/validate", body: str(`{"output": 1, "expected_schema": {"$ref": "#/$defs/a", "$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}}}}`),
			status: 400, want: []string{"$ref cycle: expected_schema/$defs/a"}},
		{name: "remote $ref never fetched", path: "/validate", body: str(`{"output": 1, "expected_schema": {"$ref": "` + remote.URL + `/s.json"}}`),
			status: 400, want: []string{remote.URL + `/s.json\" is not among the local`}, check: func(t *testing.T, _ answer) {
				if n := fetched.Load(); n != 0 {
					t.Errorf("the remote $ref was fetched %d times", n)
				}
			}},
		{name: "catastrophic pattern", path: "/validate", body: str(`{"output": {"s": ` + quote(repeat("a", 100000)+"!") + `}, "expected_schema": {"type": "object", "properties": {"s": {"type": "string", "pattern": "^(a+)+$"}}}}`),
			status: 200, want: []string{`"valid": false`, `"type": "constraint_violation"`, `"location": "s"`}},
		{name: "CEL cost bomb", path: "/validate", body: str(`{"output": ` + "[" + strings.TrimSuffix(repeat("1,", 1000), ",") + "]" + `, "acceptance_criteria": [{"id": "bomb", "rule": "output.all(a, output.all(b, output.all(c, a + b + c > 0)))"}]}`),
			// Uncertainty, never a pass: the rule is reported as not
			// checked and the result's confidence drops.
			status: 200, want: []string{`"type": "not_checked"`, "cost limit of 1000000 exceeded", `"confidence": 0`}},
		{name: "1 MB rule", path: "/validate", body: str(`{"output": 1, "acceptance_criteria": [{"id": "big", "rule": "` + strings.TrimSuffix(repeat("output == 1 || ", 70000), " || ") + `"}]}`),
			status: 400, want: []string{"acceptance_criteria[0].rule:1:1: expression code point size exceeds limit"}},
		{name: "YAML alias bomb", path: "/v1/tools/lint", body: str(`{"manifests": [{"path": "bomb.yaml", "content": ` + quote(laughs.String()) + `}]}`),
			status: 200, want: []string{"expands to more than 100000 values", "of them through aliases", `"location": "bomb.yaml:`}},
		{name: "XML entity bomb", path: "/v1/tools/lint", body: str(`{"manifests": [{"path": "bomb.xml", "content": ` + quote(entities) + `}]}`),
			status: 200, want: []string{"invalid character entity &lol4;", `"location": "bomb.xml:1:`}},
		{name: "10,000 sources", path: "/validate", body: str(sources.String()), status: 200, want: []string{`"valid": false`, `"type": "unsupported_claim"`, "Score 7.5 not found in sources"}},
	})
}

// zeros reads as an endless run of '0'.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = '0'
	}
	return len(p), nil
}
