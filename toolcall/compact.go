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
	// Focus are the paths of the entities the call asked about, whose
	// texts were kept before the rest was cut (see [CompactFor]).
	Focus []string `json:"focus,omitempty"`
}

// focusChars is how many characters of its texts the entity a call asks
// about keeps, whatever the cut of the rest.
const focusChars = 2000

// focus is what a call asks about: the values of its identifying
// arguments, and its query texts.
type focus struct {
	ids     []string // lower case
	queries []string // lower case, 3 characters or more
}

func (f *focus) empty() bool { return f == nil || len(f.ids)+len(f.queries) == 0 }

// focusOf reads the entity a call asks about from its arguments: the
// values of identifying parameters (id, *_id, number, key, …) and of query
// parameters (q, query, search, name, title).
func focusOf(args any) *focus {
	m, _ := args.(map[string]any)
	f := &focus{}
	for _, k := range slices.Sorted(maps.Keys(m)) {
		var s string
		switch v := m[k].(type) {
		case string:
			s = v
		case json.Number:
			s = v.String()
		default:
			continue
		}
		s = strings.ToLower(strings.TrimSpace(s))
		switch l := strings.ToLower(k); {
		case s == "":
		case l == "q" || l == "query" || l == "search" || l == "keyword" || l == "keywords" || l == "name" || l == "title":
			if len(s) >= 3 {
				f.queries = append(f.queries, s)
			}
		case isIDParam(k):
			f.ids = append(f.ids, s)
		}
	}
	return f
}

// maxQueryFocus is how many items of one list a query may keep in focus:
// a query matching more of them names no one entity (it is the search's
// own term, found in every candidate), and keeping them all would defeat
// the budget.
const maxQueryFocus = 3

// matches reports whether an object is the entity in focus: one of its
// own identifying fields equals an identifying value, or (when queryOK)
// one of its fields holds a query text.
func (f *focus) matches(m map[string]any, queryOK bool) bool {
	return f.matchesID(m) || queryOK && f.matchesQuery(m)
}

// matchesID reports whether one of m's identifying fields equals an
// identifying value of the call.
func (f *focus) matchesID(m map[string]any) bool {
	if f == nil || len(f.ids) == 0 {
		return false
	}
	for k, v := range m {
		var s string
		switch x := v.(type) {
		case string:
			s = x
		case json.Number:
			s = x.String()
		default:
			continue
		}
		if !isIdentifierKey(k) {
			continue
		}
		for _, id := range f.ids {
			if strings.EqualFold(s, id) {
				return true
			}
		}
	}
	return false
}

// matchesQuery reports whether one of m's fields holds a query text of
// the call.
func (f *focus) matchesQuery(m map[string]any) bool {
	if f == nil || len(f.queries) == 0 {
		return false
	}
	for _, v := range m {
		var s string
		switch x := v.(type) {
		case string:
			s = strings.ToLower(x)
		case json.Number:
			s = x.String()
		default:
			continue
		}
		for _, q := range f.queries {
			if strings.Contains(s, q) {
				return true
			}
		}
	}
	return false
}

// broadQuery reports whether a query matches more than maxQueryFocus
// objects of list.
func (f *focus) broadQuery(list []any) bool {
	if f == nil || len(f.queries) == 0 {
		return false
	}
	n := 0
	for _, e := range list {
		if m, ok := e.(map[string]any); ok && f.matchesQuery(m) {
			if n++; n > maxQueryFocus {
				return true
			}
		}
	}
	return false
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
	return compactFocus(v, budget, nil)
}

// CompactFor is [Compact] for the result of a call with the arguments
// args: the entity the call asks about — an object holding the value of
// one of its identifying arguments (id, *_id, number, …) in an
// identifying field, or the text of its query (q, query, name, …) —
// keeps its texts up to 2000 characters and stays in its list however
// far down, while the other items and texts are cut first. A query that
// matches more than three objects of a list is the search's own term, not
// one entity: those items are cut like any other. Compacted.Focus lists
// the paths kept so.
func CompactFor(v any, budget int, args any) Compacted {
	return compactFocus(v, budget, focusOf(args))
}

func compactFocus(v any, budget int, f *focus) Compacted {
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
	// The entity in focus keeps focusChars of its texts; only when even
	// the tightest cut of the rest does not fit is it cut too.
	focusSteps := []int{focusChars, 1000, 500, 200}
	if f.empty() {
		focusSteps = []int{0}
	}
	var best Compacted
	for _, fc := range focusSteps {
		try := func(i int) Compacted {
			cs := &compaction{items: steps[i].items, chars: steps[i].chars, focus: f, focusChars: fc}
			out := cs.value(v, "", nil, nil)
			return Compacted{Value: out, Chars: jsonLen(out), OriginalChars: orig, Cut: cs.cut, Protected: c.Protected, Focus: cs.kept}
		}
		lo, hi := 0, len(steps)-1
		best = try(hi)
		if best.Chars > budget {
			best.OverBudget = true
			continue
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
	return best
}

// compaction is one cut of a value: how many items and characters the
// rest keeps, the focus, and what it cut and kept.
type compaction struct {
	items, chars int
	focus        *focus
	focusChars   int
	cut          int
	kept         []string // paths of the entities in focus
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

// value compacts v, at key in its parent, at path; inFocus says v is a
// text of the entity in focus.
func (cs *compaction) value(v any, key string, path []string, arrays []bool) any {
	return cs.walk(v, key, path, arrays, false, true)
}

// walk compacts v; inFocus says v is a text of the entity in focus, and
// queryOK that an object v may be in focus by the call's query (not when
// it is an item of a list the query matches broadly).
func (cs *compaction) walk(v any, key string, path []string, arrays []bool, inFocus, queryOK bool) any {
	switch x := v.(type) {
	case string:
		limit := cs.chars
		if inFocus {
			limit = max(cs.focusChars, cs.chars)
		}
		if isAnswerKey(key) || utf8.RuneCountInString(x) <= limit {
			return x
		}
		cs.cut++
		r := []rune(x)
		return fmt.Sprintf("%s… [%d more characters cut]", string(r[:limit]), len(r)-limit)
	case []any:
		n := min(len(x), cs.items)
		out := make([]any, 0, n+1)
		kept := 0
		itemQueryOK := !cs.focus.broadQuery(x)
		for i, e := range x {
			m, isObj := e.(map[string]any)
			if i >= n && !(isObj && cs.focus.matches(m, itemQueryOK)) {
				continue
			}
			out = append(out, cs.walk(e, "", append(slices.Clip(path), fmt.Sprint(i)), append(slices.Clip(arrays), true), false, itemQueryOK))
			kept++
		}
		if len(x) > kept {
			cs.cut++
			out = append(out, fmt.Sprintf("… %d more items cut (%d in all)", len(x)-kept, len(x)))
		}
		return out
	case map[string]any:
		focused := cs.focus.matches(x, queryOK)
		if focused {
			cs.kept = append(cs.kept, renderPath(path, arrays))
		}
		out := make(map[string]any, len(x))
		for _, k := range slices.Sorted(maps.Keys(x)) {
			if isProtected(k) {
				out[k] = x[k]
				continue
			}
			// The entity's own texts stay; its lists and objects are
			// cut as any other.
			_, isText := x[k].(string)
			out[k] = cs.walk(x[k], k, append(slices.Clip(path), k), append(slices.Clip(arrays), false), focused && isText, true)
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

// HasOutputSchema reports whether the contract's tool declares an output
// schema: a structured result must then conform to it, so a compaction,
// whose cut lists end with a note, must leave that result whole.
func (ct *Contract) HasOutputSchema() bool { return ct.output != nil }

// WithoutCompaction leaves Outcome.Compacted nil, for a caller that never
// reads it (judge gateway without a budget): the outcome then does not
// measure and cut every large payload, most of the time an outcome of a
// 100 KB result takes. A goal put to the model still sees the result
// compacted to the budget.
func WithoutCompaction() Option { return func(c *Checker) { c.noCompact = true } }

// surelyFits reports whether the payload of a result whose JSON is rawLen
// bytes long surely fits in budget characters, so that the outcome need
// not encode it to measure it. The payload's JSON, written compactly, has
// at most twice as many characters as the result has bytes: whitespace,
// wrappers and duplicate keys only shrink, escapes (\u00e9, \" inside a
// text) and multi-byte characters are at least as long in the result, and
// the one expansion is U+2028 and U+2029, three bytes that encoding/json
// writes as six characters (\u2028). FuzzPayloadBound checks the bound.
func surelyFits(rawLen, budget int) bool { return 2*rawLen <= budget }
