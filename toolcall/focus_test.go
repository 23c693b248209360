package toolcall_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/agentjudge/judge/toolcall"
)

// candidates is a search result of 200 documents with long snippets; the
// one with id doc-150 has a long body, the text the call is about.
func candidates() (any, string) {
	body := strings.Repeat("The payments outage was resolved at 11:30 after the failover. ", 24)
	var items []any
	for i := range 200 {
		it := map[string]any{"id": fmt.Sprintf("doc-%d", i), "title": fmt.Sprintf("Document %d", i), "snippet": strings.Repeat("lorem ipsum ", 50)}
		if i == 150 {
			it["snippet"] = body
		}
		items = append(items, it)
	}
	return map[string]any{"results": items, "total": json.Number("200")}, body
}

func TestCompactKeepsTheEntityAskedAbout(t *testing.T) {
	t.Parallel()
	v, body := candidates()
	c := toolcall.CompactFor(v, 6000, map[string]any{"id": "doc-150"})
	if c.Chars > 6000 || c.OverBudget {
		t.Fatalf("compacted to %d characters, over the budget", c.Chars)
	}
	b, _ := json.Marshal(c.Value)
	if !strings.Contains(string(b), body) || len(c.Focus) != 1 || c.Focus[0] != "results[150]" {
		t.Errorf("focus %v; the asked document's text kept: %v", c.Focus, strings.Contains(string(b), body))
	}
	if strings.Count(string(b), `"id":"doc-`) > 20 {
		t.Errorf("the broad list was not cut first: %d items kept", strings.Count(string(b), `"id":"doc-`))
	}
	// Without the call's arguments the same budget loses the document.
	plain := toolcall.Compact(v, 6000)
	if pb, _ := json.Marshal(plain.Value); strings.Contains(string(pb), `"doc-150"`) {
		t.Errorf("plain compaction kept doc-150; the test does not show the difference")
	}
	// By query: the document whose title holds the query.
	q := toolcall.CompactFor(v, 6000, map[string]any{"q": "Document 150"})
	if qb, _ := json.Marshal(q.Value); !strings.Contains(string(qb), body) {
		t.Errorf("a query's document was not kept: focus %v", q.Focus)
	}
	// The outcome compacts for the call's arguments.
	ts := outcomeToolset(t, toolcall.WithCompactBudget(6000))
	raw, _ := json.Marshal(v)
	o, err := ts.Outcome(context.Background(), toolcall.OutcomeRequest{Call: toolcall.Call{Tool: "run_script", Arguments: json.RawMessage(`{"id": "doc-150"}`)}, Result: raw})
	if err != nil {
		t.Fatal(err)
	}
	if o.Compacted == nil || len(o.Compacted.Focus) != 1 {
		t.Errorf("outcome compaction %+v, want the focus on doc-150", o.Compacted)
	}
}

// TestCompactBroadQuery: a search whose query every candidate holds (the
// search's own term) is cut to the budget like a list without focus; a
// query holding one candidate still keeps it.
func TestCompactBroadQuery(t *testing.T) {
	t.Parallel()
	var items []any
	for i := range 400 {
		items = append(items, map[string]any{"id": json.Number(fmt.Sprint(1000 + i)), "title": fmt.Sprintf("Crash when opening file %d", i),
			"body": strings.Repeat("Steps to reproduce and logs. ", 8)})
	}
	v := map[string]any{"total_count": json.Number("400"), "items": items}
	for _, tc := range []struct {
		query string
		focus string // "" for none
	}{
		{"crash", ""},
		{"opening file 377", "items[377]"},
	} {
		c := toolcall.CompactFor(v, 8000, map[string]any{"query": tc.query})
		if c.OverBudget || c.Chars > 8000 || c.Chars >= c.OriginalChars {
			t.Errorf("query %q: %d of %d characters, over budget %v", tc.query, c.Chars, c.OriginalChars, c.OverBudget)
		}
		if got := strings.Join(c.Focus, ","); got != tc.focus {
			t.Errorf("query %q: focus %q, want %q", tc.query, got, tc.focus)
		}
	}
}

// TestCompactFocusTauBench measures focused compaction on the recorded
// airline results: each get_reservation_details answer, cut to 400
// characters, keeps its own texts (origin, destination, cabin, …) whole
// with the call's reservation_id as focus, and how many without.
func TestCompactFocusTauBench(t *testing.T) {
	t.Parallel()
	_, calls := tauCalls(t)
	n, withFocus, without := 0, 0, 0
	for _, c := range calls {
		if c.tool != "get_reservation_details" || !strings.HasPrefix(strings.TrimSpace(c.response), "{") {
			continue
		}
		var res, args map[string]any
		if json.Unmarshal([]byte(c.response), &res) != nil || json.Unmarshal([]byte(c.args), &args) != nil {
			continue
		}
		n++
		keeps := func(cv toolcall.Compacted) bool {
			m, _ := cv.Value.(map[string]any)
			for k, v := range res {
				if s, ok := v.(string); ok && m[k] != s {
					return false
				}
			}
			return true
		}
		if keeps(toolcall.CompactFor(res, 400, args)) {
			withFocus++
		}
		if keeps(toolcall.Compact(res, 400)) {
			without++
		}
	}
	t.Logf("%d reservation results cut to 400 characters: their own texts whole in %d with the call's focus, %d without", n, withFocus, without)
	if n < 100 || withFocus <= without {
		t.Errorf("%d results, %d kept with focus, %d without", n, withFocus, without)
	}
}
