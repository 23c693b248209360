package toolcall_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/agentjudge/judge/toolcall"
)

func decode(t testing.TB, s string) any {
	t.Helper()
	var v any
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

func TestCompact(t *testing.T) {
	t.Parallel()
	var items []string
	for i := range 200 {
		items = append(items, fmt.Sprintf(`{"id": %d, "title": "Issue %d", "body": %q}`, i, i, strings.Repeat("text ", 100)))
	}
	big := `{"total_count": 200, "items": [` + strings.Join(items, ",") + `]}`
	v := decode(t, big)

	c := toolcall.Compact(v, 4000)
	if c.Chars > 4000 || c.OverBudget || c.Cut == 0 || c.OriginalChars <= 4000 {
		t.Fatalf("compacted to %d chars (cut %d, over %v) from %d", c.Chars, c.Cut, c.OverBudget, c.OriginalChars)
	}
	out, _ := json.Marshal(c.Value)
	s := string(out)
	for _, w := range []string{`"total_count":200`, `"id":0`, `"title":"Issue 0"`, `more items cut (200 in all)`} {
		if !strings.Contains(s, w) {
			t.Errorf("compacted value lacks %s: %s", w, s)
		}
	}
	if !strings.Contains(s, "more characters cut") {
		t.Errorf("long bodies were not cut with a count: %s", s)
	}

	// A value within the budget is left as it is.
	small := decode(t, `{"id": 1, "body": "short"}`)
	if c := toolcall.Compact(small, 4000); c.Cut != 0 || c.Chars != c.OriginalChars {
		t.Errorf("small value compacted: %+v", c)
	}

	// Validation and error payloads keep their fields verbatim.
	longErr := strings.Repeat("the argument 'owner' is required; ", 200)
	payload := fmt.Sprintf(`{"valid": false, "error": %q, "suggestions": [%s], "data": %q}`,
		longErr, strings.Repeat(`"Add owner",`, 99)+`"Add owner"`, strings.Repeat("x", 5000))
	c = toolcall.Compact(decode(t, payload), 1000)
	m := c.Value.(map[string]any)
	if !c.Protected || m["valid"] != false || m["error"] != longErr || len(m["suggestions"].([]any)) != 100 {
		t.Errorf("validation payload was compacted: protected %v, valid %v, %d suggestions", c.Protected, m["valid"], len(m["suggestions"].([]any)))
	}
	if d := m["data"].(string); len(d) >= 5000 {
		t.Error("the other fields of a validation payload were not compacted")
	}
	if !c.OverBudget {
		t.Error("a payload whose protected fields exceed the budget is not marked over budget")
	}
}
