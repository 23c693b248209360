package jsonvalue

import "github.com/agentjudge/judge/internal/jsontoken/lex"

// SkipValue returns the offset just after the JSON value that starts at
// data[i] (white space is not skipped before it), or -1 when the value is
// not one that encoding/json's Decoder reads without error, nests its
// arrays and objects more than maxDepth levels deep counting depth levels
// already open around it (and encoding/json's own 10,000 levels), or holds
// bytes that are not UTF-8. It decodes nothing and allocates nothing: it
// is the check of a value a caller keeps as raw bytes (a
// json.RawMessage). What follows the value is the caller's to check.
func SkipValue(data []byte, i, depth, maxDepth int) int {
	return skipValue(data, i, depth, min(maxDepth, maxNestingDepth))
}

func skipValue(data []byte, i, depth, limit int) int {
	if i >= len(data) {
		return -1
	}
	switch c := data[i]; {
	case c == '"':
		return skipString(data, i)
	case c == '{':
		if depth++; depth > limit {
			return -1
		}
		i = skipSpace(data, i+1)
		if i < len(data) && data[i] == '}' {
			return i + 1
		}
		for {
			if i >= len(data) || data[i] != '"' {
				return -1
			}
			if i = skipString(data, i); i < 0 {
				return -1
			}
			i = skipSpace(data, i)
			if i >= len(data) || data[i] != ':' {
				return -1
			}
			if i = skipValue(data, skipSpace(data, i+1), depth, limit); i < 0 {
				return -1
			}
			i = skipSpace(data, i)
			if i >= len(data) {
				return -1
			}
			switch data[i] {
			case ',':
				i = skipSpace(data, i+1)
			case '}':
				return i + 1
			default:
				return -1
			}
		}
	case c == '[':
		if depth++; depth > limit {
			return -1
		}
		i = skipSpace(data, i+1)
		if i < len(data) && data[i] == ']' {
			return i + 1
		}
		for {
			if i = skipValue(data, i, depth, limit); i < 0 {
				return -1
			}
			i = skipSpace(data, i)
			if i >= len(data) {
				return -1
			}
			switch data[i] {
			case ',':
				i = skipSpace(data, i+1)
			case ']':
				return i + 1
			default:
				return -1
			}
		}
	case c == '-' || '0' <= c && c <= '9':
		return skipNumber(data, i)
	case c == 't':
		return skipLiteral(data, i, "true")
	case c == 'f':
		return skipLiteral(data, i, "false")
	case c == 'n':
		return skipLiteral(data, i, "null")
	}
	return -1
}

// skipLiteral returns the offset after lit at data[i], or -1. A letter
// right after it is the caller's to reject, as after any value.
func skipLiteral(data []byte, i int, lit string) int {
	j, code := lex.ScanLiteral(data, i, lit)
	if code != lex.OK {
		return -1
	}
	return j
}

// skipNumber returns the offset after the number at data[i], or -1.
func skipNumber(data []byte, i int) int {
	j, _, code := lex.ScanNumber(data, i)
	if code != lex.OK {
		return -1
	}
	return j
}

// skipString returns the offset after the string at data[i] (its opening
// quote), or -1 when it is unterminated, has a control character, an
// escape JSON does not have, or bytes that are not UTF-8.
func skipString(data []byte, i int) int {
	j, f, code := lex.SkipString(data, i)
	if code != lex.OK || f&lex.BadUTF8 != 0 {
		return -1
	}
	return j
}

// SkipSpace returns the offset of the first byte from data[i] on that is
// not JSON white space (space, tab, CR, LF), or len(data).
func SkipSpace(data []byte, i int) int { return skipSpace(data, i) }
