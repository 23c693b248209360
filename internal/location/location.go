// Package location writes paths into a JSON value as the ValidationResult
// specification writes issue locations: "root", "user.profile.email",
// "tasks[2].status", a["b.c"]. It sits below every layer that locates
// findings in a value (the schema layer, the quality layer, the claims of
// the grounding layers), so that none of them imports another.
package location

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"
)

// Path renders a path into a JSON value, given as the tokens of a JSON
// Pointer (unescaped), in the notation of the ValidationResult
// specification: "root" for the value itself, "user.profile.email" for
// object keys and "tasks[2].status" for array indices. A key that is not an
// identifier is written as a quoted JSON string in brackets: a["b.c"],
// ["2024"], [""].
//
// isIndex reports whether tokens[i] indexes an array; it is only asked about
// tokens that are non-negative decimal integers. A nil isIndex treats every
// token as an object key. Use [Instance] to decide it from the value
// the tokens point into.
func Path(tokens []string, isIndex func(i int) bool) string {
	if len(tokens) == 0 {
		return "root"
	}
	return Append("", tokens, isIndex)
}

// Append renders tokens as [Path] does, below base, a location already in
// this notation ("" for none): Append("tools[3]", ["inputSchema",
// "x-api"], nil) is tools[3].inputSchema["x-api"]. With no tokens it is
// base itself.
func Append(base string, tokens []string, isIndex func(i int) bool) string {
	if base == "" && len(tokens) == 1 && isIdentifier(tokens[0]) {
		return tokens[0] // the common location of one field, without a copy
	}
	var sb strings.Builder
	sb.WriteString(base)
	for i, tok := range tokens {
		switch {
		case isIndex != nil && IsIndex(tok) && isIndex(i):
			sb.WriteByte('[')
			sb.WriteString(tok)
			sb.WriteByte(']')
		case isIdentifier(tok):
			if sb.Len() > 0 {
				sb.WriteByte('.')
			}
			sb.WriteString(tok)
		default:
			sb.WriteByte('[')
			sb.WriteString(Quote(tok))
			sb.WriteByte(']')
		}
	}
	return sb.String()
}

// Instance is [Path] with array indices resolved against doc, a
// decoded JSON value: a numeric token is an index exactly when the value it
// applies to is an array. Tokens that lead out of doc are treated as keys.
func Instance(doc any, tokens []string) string {
	arrays := make([]bool, len(tokens))
	cur := doc
	for i, tok := range tokens {
		switch v := cur.(type) {
		case []any:
			arrays[i] = true
			n, err := strconv.Atoi(tok)
			if err != nil || n < 0 || n >= len(v) {
				cur = nil
				continue
			}
			cur = v[n]
		case map[string]any:
			cur = v[tok]
		default:
			cur = nil
		}
	}
	return Path(tokens, func(i int) bool { return arrays[i] })
}

// IsIndex reports whether tok is a JSON Pointer array index: "0" or a
// decimal integer without a leading zero.
func IsIndex(tok string) bool {
	if tok == "" || len(tok) > 18 || (len(tok) > 1 && tok[0] == '0') {
		return false
	}
	for _, c := range tok {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// AppendKey appends to b the object key key as [Append] writes it after
// what b holds of a location (first is true when b holds none of it yet):
// ".key", "key" first, or ["a b"] when key is not an identifier.
func AppendKey(b, key []byte, first bool) []byte {
	if !isIdentifier(string(key)) {
		b = append(b, '[')
		b = append(b, Quote(string(key))...)
		return append(b, ']')
	}
	if !first {
		b = append(b, '.')
	}
	return append(b, key...)
}

// isIdentifier reports whether key can be written after a dot: a letter or
// underscore, then letters, digits and underscores.
func isIdentifier(key string) bool {
	if key == "" {
		return false
	}
	for i, c := range key {
		switch {
		case c == '_' || unicode.IsLetter(c):
		case i > 0 && unicode.IsDigit(c):
		default:
			return false
		}
	}
	return true
}

// Quote returns s as a JSON string literal, without HTML escaping, and
// with every character that does not print (a zero-width joiner, a
// bidirectional control, a no-break space) escaped as \uXXXX, so that a
// reader sees it: the literal decodes to s all the same.
func Quote(s string) string {
	var sb strings.Builder
	enc := json.NewEncoder(&sb)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		return strconv.Quote(s)
	}
	q := strings.TrimSuffix(sb.String(), "\n")
	if !strings.ContainsFunc(q, notPrint) {
		return q
	}
	var out strings.Builder
	for _, r := range q {
		if !notPrint(r) {
			out.WriteRune(r)
			continue
		}
		if r1, r2 := utf16.EncodeRune(r); r1 != unicode.ReplacementChar {
			fmt.Fprintf(&out, `\u%04x\u%04x`, r1, r2)
		} else {
			fmt.Fprintf(&out, `\u%04x`, r)
		}
	}
	return out.String()
}

// notPrint reports whether r does not print (encoding/json has already
// escaped the control characters below U+0020).
func notPrint(r rune) bool { return !unicode.IsPrint(r) }
