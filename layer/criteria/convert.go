package criteria

import (
	"encoding/json"
	"errors"
	"math"
	"strconv"
)

// maxExactInt is the largest integer a float64 holds exactly, 2^53.
const maxExactInt = 1 << 53

// celValue converts a decoded JSON value into what CEL rules compare most
// naturally: a json.Number written as an integer that fits in int64 becomes
// an int64, any other number a float64 (±Inf beyond its range); objects and
// arrays are converted recursively into fresh map[string]any and []any, so
// the input is never modified. A float64 (from a decoder without UseNumber)
// holding an integer of at most 2^53 becomes an int64, and Go integers
// become int64 (a uint64 above MaxInt64 a float64). Strings, bools, nil and
// other values are returned as they are.
func celValue(v any) any {
	switch x := v.(type) {
	case json.Number:
		return number(string(x))
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[k] = celValue(e)
		}
		return m
	case []any:
		l := make([]any, len(x))
		for i, e := range x {
			l[i] = celValue(e)
		}
		return l
	case float64:
		if x == math.Trunc(x) && math.Abs(x) <= maxExactInt {
			return int64(x)
		}
		return x
	case float32:
		return celValue(float64(x))
	case int:
		return int64(x)
	case int8:
		return int64(x)
	case int16:
		return int64(x)
	case int32:
		return int64(x)
	case uint:
		return celValue(uint64(x))
	case uint8:
		return int64(x)
	case uint16:
		return int64(x)
	case uint32:
		return int64(x)
	case uint64:
		if x > math.MaxInt64 {
			return float64(x)
		}
		return int64(x)
	default:
		return v
	}
}

// number converts the text of a JSON number: integer syntax that fits in
// int64 gives an int64, anything else (a fraction, an exponent, a larger
// integer) a float64. Text that is no number at all stays a string.
func number(s string) any {
	if i, err := strconv.ParseInt(s, 10, 64); err == nil {
		return i
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return s
	}
	return f
}
