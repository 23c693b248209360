package claim

import (
	"encoding/json"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/agentjudge/judge/internal/location"
)

// maxWalkDepth bounds how deeply FromOutput descends into a value; the
// engine already limits nesting, this guards direct callers.
const maxWalkDepth = 512

// FromOutput returns the claims of an output: a string is read as text
// (claims located by line); in a decoded JSON value (json.Number numbers,
// map[string]any objects, []any arrays) every string is read with its field
// path as location, and every number under a key is a claim whose
// attribute is the key ("cvss_score": 9.8). A short string under a key
// lends the key to claims that name no attribute themselves
// ("discoverer": "Alice Smith").
func FromOutput(v any) Set {
	if s, ok := v.(string); ok {
		return Extract(s, "")
	}
	w := &walker{}
	w.walk(v, nil, nil, 0)
	return w.set
}

type walker struct {
	set   Set
	total int
}

func (w *walker) walk(v any, tokens []string, arrays []bool, depth int) {
	if depth > maxWalkDepth || len(w.set.Claims) >= MaxClaims {
		w.set.Truncated = true
		return
	}
	switch v := v.(type) {
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(v)) {
			w.walk(v[k], append(tokens, k), append(arrays, false), depth+1)
		}
	case []any:
		for i, e := range v {
			w.walk(e, append(tokens, strconv.Itoa(i)), append(arrays, true), depth+1)
		}
	case string:
		if w.total += len(v); w.total > MaxTextBytes {
			w.set.Truncated = true
			return
		}
		path := location.Path(tokens, func(i int) bool { return arrays[i] })
		got := Extract(v, path)
		w.set.Truncated = w.set.Truncated || got.Truncated
		key := lastKey(tokens, arrays)
		short := len(strings.Fields(v)) <= 6
		for _, c := range got.Claims {
			if c.Attribute == "" && short && key != "" && c.Kind != Negation && c.Kind != Citation {
				c.Attribute = key
				c.Path = location.Path(tokens[:len(tokens)-1], func(i int) bool { return arrays[i] })
				c.Field = path
			}
			w.set.Claims = append(w.set.Claims, c)
		}
	case json.Number, float64:
		key := lastKey(tokens, arrays)
		if key == "" {
			return
		}
		var f float64
		var text string
		switch n := v.(type) {
		case json.Number:
			text = n.String()
			var err error
			if f, err = n.Float64(); err != nil {
				return
			}
		case float64:
			f, text = n, strconv.FormatFloat(n, 'g', -1, 64)
		}
		path := location.Path(tokens[:len(tokens)-1], func(i int) bool { return arrays[i] })
		w.set.Claims = append(w.set.Claims, Claim{Kind: Number, Text: text, Value: fmtNum(f), Num: f,
			Attribute: key, Path: path, Field: location.Path(tokens, func(i int) bool { return arrays[i] }), Line: 1, Col: 1, Sentence: key + ": " + text})
	}
}

// lastKey is the last object key of a path, humanized ("cvss_score" ->
// "cvss score"), or "" when the path ends in an array index or is empty.
func lastKey(tokens []string, arrays []bool) string {
	if len(tokens) == 0 || arrays[len(tokens)-1] {
		return ""
	}
	k := tokens[len(tokens)-1]
	k = strings.NewReplacer("_", " ", "-", " ").Replace(k)
	return strings.TrimSpace(splitCamel(k))
}

// splitCamel turns "cvssScore" into "cvss score".
func splitCamel(s string) string {
	var b strings.Builder
	for i, r := range s {
		if r >= 'A' && r <= 'Z' && i > 0 && s[i-1] >= 'a' && s[i-1] <= 'z' {
			b.WriteByte(' ')
			b.WriteRune(r - 'A' + 'a')
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// Text is one string of an output with its field path ("" for a text
// output).
type Text struct {
	Path string
	Text string
}

// Texts returns the strings of an output, each with its field path in the
// specification's notation, in the order FromOutput reads them, up to
// MaxTextBytes in all.
func Texts(v any) []Text {
	if s, ok := v.(string); ok {
		return []Text{{Text: s}}
	}
	var out []Text
	total := 0
	var walk func(v any, tokens []string, arrays []bool, depth int)
	walk = func(v any, tokens []string, arrays []bool, depth int) {
		if depth > maxWalkDepth {
			return
		}
		switch v := v.(type) {
		case map[string]any:
			for _, k := range slices.Sorted(maps.Keys(v)) {
				walk(v[k], append(tokens, k), append(arrays, false), depth+1)
			}
		case []any:
			for i, e := range v {
				walk(e, append(tokens, strconv.Itoa(i)), append(arrays, true), depth+1)
			}
		case string:
			if total += len(v); total <= MaxTextBytes {
				out = append(out, Text{Path: location.Path(tokens, func(i int) bool { return arrays[i] }), Text: v})
			}
		}
	}
	walk(v, nil, nil, 0)
	return out
}
