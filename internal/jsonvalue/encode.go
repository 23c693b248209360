package jsonvalue

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"unicode/utf8"
)

// Append appends the JSON of v to b. For the values Decode returns (nil,
// bool, json.Number, string, []any, map[string]any) and float64, it writes
// what an encoding/json Encoder without HTML escaping writes (object keys
// sorted, <, > and & as they are), without reflection. Any other type is
// encoded by encoding/json. A NaN or infinite number, or a json.Number that is not a
// number, is an error.
func Append(b []byte, v any) ([]byte, error) {
	switch v := v.(type) {
	case nil:
		return append(b, "null"...), nil
	case bool:
		return strconv.AppendBool(b, v), nil
	case string:
		return AppendString(b, v), nil
	case json.Number:
		if !isNumber(string(v)) {
			return nil, fmt.Errorf("jsonvalue: invalid number literal %q", string(v))
		}
		return append(b, v...), nil
	case float64:
		return appendFloat(b, v)
	case map[string]any:
		var small [16]string // the keys of most objects, without allocating
		b = append(b, '{')
		for i, k := range SortedKeys(small[:0], v) {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(AppendString(b, k), ':')
			var err error
			if b, err = Append(b, v[k]); err != nil {
				return nil, err
			}
		}
		return append(b, '}'), nil
	case []any:
		b = append(b, '[')
		for i, e := range v {
			if i > 0 {
				b = append(b, ',')
			}
			var err error
			if b, err = Append(b, e); err != nil {
				return nil, err
			}
		}
		return append(b, ']'), nil
	}
	j, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return append(b, j...), nil
}

// SortedKeys appends m's keys to buf and sorts them. Given an array of
// the caller's as buf (small[:0]), the keys of a small object take no
// allocation.
func SortedKeys[V any](buf []string, m map[string]V) []string {
	for k := range m {
		buf = append(buf, k)
	}
	slices.Sort(buf)
	return buf
}

// AppendFloat appends f as encoding/json writes a float64: the shortest
// text that reads back as f, in exponent form below 1e-6 and from 1e21 on.
// NaN and the infinities, which JSON cannot hold, are an error.
func AppendFloat(b []byte, f float64) ([]byte, error) { return appendFloat(b, f) }

// appendFloat writes f as encoding/json does: the shortest text that reads
// back as f, in exponent form below 1e-6 and from 1e21 on.
func appendFloat(b []byte, f float64) ([]byte, error) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return nil, fmt.Errorf("jsonvalue: unsupported value: %v", f)
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if n := len(b); format == 'e' && n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
		b[n-2] = b[n-1] // e-09 is written e-9
		b = b[:n-1]
	}
	return b, nil
}

const hexDigits = "0123456789abcdef"

// AppendString appends s as a JSON string as encoding/json does without
// HTML escaping: quotes, backslashes, control characters, U+2028 and
// U+2029 escaped, invalid UTF-8 as U+FFFD.
func AppendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(append(b, s[start:i]...), `\ufffd`...)
		case r == '\u2028' || r == '\u2029': // as encoding/json: safe in JavaScript too
			b = append(append(b, s[start:i]...), '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	return append(append(b, s[start:]...), '"')
}

// isNumber reports whether s is a JSON number.
func isNumber(s string) bool {
	return s != "" && json.Valid([]byte(s)) && (s[0] == '-' || s[0] >= '0' && s[0] <= '9')
}
