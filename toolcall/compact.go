package toolcall

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode/utf8"
)

// DefaultCompactBudget is the default character budget of a compacted
// result.
const DefaultCompactBudget = 8000

// isProtected reports whether k is a field of validation and error
// payloads: never compacted, so that a model sees exactly what to repair.
func isProtected(k string) bool {
	switch k {
	case "valid", "error", "errors", "issues", "suggestions", "suggestion", "repair", "isError", "message":
		return true
	}
	return false
}

// isAnswerKey reports whether k is a field that identifies an entity or
// answers a question: its value is kept whole when a compaction cuts
// others.
func isAnswerKey(k string) bool {
	switch k {
	case "id", "name", "title", "number", "url", "html_url", "uri", "path", "sha", "key", "status", "state",
		"type", "email", "login", "slug", "uuid", "count", "total", "total_count":
		return true
	}
	return false
}

// Compacted is a result compacted to a budget.
type Compacted struct {
	// Value is the compacted value: the same shape, long lists and texts
	// cut, each cut saying how much it left out.
	Value any `json:"value"`
	// Chars is the length of Value's JSON, OriginalChars that of the
	// original.
	Chars         int `json:"chars"`
	OriginalChars int `json:"original_chars"`
	// Cut counts the lists and texts that were shortened.
	Cut int `json:"cut"`
	// Protected is true when the value is a validation or error payload
	// whose fields (valid, error, issues, suggestions, repair, …) were
	// kept verbatim.
	Protected bool `json:"protected,omitempty"`
	// OverBudget is true when even the tightest compaction that keeps the
	// protected and identifying fields exceeds the budget.
	OverBudget bool `json:"over_budget,omitempty"`
}

// Compact shortens v (a decoded JSON value) so that its JSON fits in
// budget characters (DefaultCompactBudget when budget <= 0), keeping its
// shape: lists keep their first items and end with a note of how many were
// cut, long texts keep their start and say how much was cut, fields that
// identify and answer (id, name, title, status, …) keep their values
// whole, and the fields of validation and error payloads (valid, error,
// issues, suggestions, repair) are never touched. A value within the
// budget is returned as it is.
func Compact(v any, budget int) Compacted {
	if budget <= 0 {
		budget = DefaultCompactBudget
	}
	orig := jsonLen(v)
	c := Compacted{Value: v, Chars: orig, OriginalChars: orig, Protected: hasProtected(v)}
	if orig <= budget {
		return c
	}
	// How many list items and text characters are kept, from gentle to
	// tight.
	steps := [...]struct{ items, chars int }{
		{50, 2000}, {20, 1000}, {10, 500}, {5, 200}, {3, 100}, {2, 60}, {1, 40}, {1, 20},
	}
	// The steps give ever smaller values: find the gentlest that fits by
	// bisection, encoding a few of them rather than all.
	try := func(i int) Compacted {
		cut := 0
		out := compactValue(v, steps[i].items, steps[i].chars, "", &cut)
		return Compacted{Value: out, Chars: jsonLen(out), OriginalChars: orig, Cut: cut, Protected: c.Protected}
	}
	lo, hi := 0, len(steps)-1
	best := try(hi)
	if best.Chars > budget {
		best.OverBudget = true
		return best
	}
	for lo < hi {
		mid := (lo + hi) / 2
		if t := try(mid); t.Chars <= budget {
			best, hi = t, mid
		} else {
			lo = mid + 1
		}
	}
	return best
}

// hasProtected reports whether v is an object holding a protected field at
// its top level.
func hasProtected(v any) bool {
	m, ok := v.(map[string]any)
	if !ok {
		return false
	}
	for k := range m {
		if isProtected(k) {
			return true
		}
	}
	return false
}

func compactValue(v any, items, chars int, key string, cut *int) any {
	switch x := v.(type) {
	case string:
		if isAnswerKey(key) || utf8.RuneCountInString(x) <= chars {
			return x
		}
		*cut++
		r := []rune(x)
		return fmt.Sprintf("%s… [%d more characters cut]", string(r[:chars]), len(r)-chars)
	case []any:
		n := min(len(x), items)
		out := make([]any, 0, n+1)
		for _, e := range x[:n] {
			out = append(out, compactValue(e, items, chars, "", cut))
		}
		if len(x) > n {
			*cut++
			out = append(out, fmt.Sprintf("… %d more items cut (%d in all)", len(x)-n, len(x)))
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for _, k := range slices.Sorted(maps.Keys(x)) {
			if isProtected(k) {
				out[k] = x[k]
				continue
			}
			out[k] = compactValue(x[k], items, chars, k, cut)
		}
		return out
	}
	return v
}

// jsonLen is the length in characters of v's JSON.
func jsonLen(v any) int {
	var sb strings.Builder
	enc := json.NewEncoder(&sb)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return 0
	}
	return utf8.RuneCountInString(sb.String()) - 1
}
