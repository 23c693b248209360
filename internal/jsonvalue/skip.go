package jsonvalue

import (
	"unicode/utf8"
)

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
	if len(data)-i < len(lit) || string(data[i:i+len(lit)]) != lit {
		return -1
	}
	return i + len(lit)
}

// skipNumber returns the offset after the number at data[i] in JSON's
// grammar: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?, or -1.
func skipNumber(data []byte, i int) int {
	if data[i] == '-' {
		i++
	}
	switch {
	case i >= len(data):
		return -1
	case data[i] == '0':
		i++
	case '1' <= data[i] && data[i] <= '9':
		i = skipDigits(data, i+1)
	default:
		return -1
	}
	if i < len(data) && data[i] == '.' {
		j := skipDigits(data, i+1)
		if j == i+1 {
			return -1
		}
		i = j
	}
	if i < len(data) && (data[i] == 'e' || data[i] == 'E') {
		i++
		if i < len(data) && (data[i] == '+' || data[i] == '-') {
			i++
		}
		j := skipDigits(data, i)
		if j == i {
			return -1
		}
		i = j
	}
	return i
}

func skipDigits(data []byte, i int) int {
	for i < len(data) && isDigit(data[i]) {
		i++
	}
	return i
}

// skipString returns the offset after the string at data[i] (its opening
// quote), or -1 when it is unterminated, has a control character, an
// escape JSON does not have, or bytes that are not UTF-8.
func skipString(data []byte, i int) int {
	i++
	for i < len(data) {
		if i = plainRun(data, i); i == len(data) {
			break
		}
		c := data[i]
		switch {
		case !strSpecial[c]:
			i++
		case c == '"':
			return i + 1
		case c == '\\':
			if i+1 >= len(data) {
				return -1
			}
			switch data[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if len(data)-i < 6 {
					return -1
				}
				for _, h := range data[i+2 : i+6] {
					if unhex(h) < 0 {
						return -1
					}
				}
				i += 6
			default:
				return -1
			}
		case c < 0x20:
			return -1
		default:
			r, size := utf8.DecodeRune(data[i:])
			if r == utf8.RuneError && size == 1 {
				return -1
			}
			i += size
		}
	}
	return -1
}

// SkipSpace returns the offset of the first byte from data[i] on that is
// not JSON white space (space, tab, CR, LF), or len(data).
func SkipSpace(data []byte, i int) int { return skipSpace(data, i) }
