package judge

import (
	"encoding/json"

	"github.com/agentjudge/judge/internal/jsonvalue"
)

// decodeRequestFast decodes the common request body, an object of
// "output", "expected_schema" and "context" only (each at most once,
// keys written plainly), in one pass over its bytes, to the Request
// DecodeStrict would give. It returns false for any other body, valid or
// not, which DecodeStrict then decodes or locates the error of: the fast
// path only ever answers where the strict path would succeed with the same
// request. data has no byte-order mark; maxDepth is the limit in force.
func decodeRequestFast(data []byte, maxDepth int) (*Request, bool) {
	const (
		output = 1 << iota
		schema
		context
	)
	var spans [3][2]int
	seen := 0
	i := jsonvalue.SkipSpace(data, 0)
	if i >= len(data) || data[i] != '{' || maxDepth < 1 {
		return nil, false
	}
	i = jsonvalue.SkipSpace(data, i+1)
	if i < len(data) && data[i] == '}' {
		return nil, false // no output: the strict path says so
	}
	for {
		if i >= len(data) || data[i] != '"' {
			return nil, false
		}
		j := i + 1
		for j < len(data) && data[j] != '"' && data[j] != '\\' && data[j] >= 0x20 && data[j] < 0x80 {
			j++
		}
		if j >= len(data) || data[j] != '"' {
			return nil, false
		}
		var field int
		switch string(data[i+1 : j]) {
		case "output":
			field = output
		case "expected_schema":
			field = schema
		case "context":
			field = context
		default:
			return nil, false
		}
		if seen&field != 0 {
			return nil, false
		}
		seen |= field
		i = jsonvalue.SkipSpace(data, j+1)
		if i >= len(data) || data[i] != ':' {
			return nil, false
		}
		i = jsonvalue.SkipSpace(data, i+1)
		end := jsonvalue.SkipValue(data, i, 1, maxDepth)
		if end < 0 {
			return nil, false
		}
		k := 0
		for field > 1 {
			field >>= 1
			k++
		}
		spans[k] = [2]int{i, end}
		i = jsonvalue.SkipSpace(data, end)
		if i >= len(data) {
			return nil, false
		}
		if data[i] == '}' {
			break
		}
		if data[i] != ',' {
			return nil, false
		}
		i = jsonvalue.SkipSpace(data, i+1)
	}
	if jsonvalue.SkipSpace(data, i+1) != len(data) || seen&output == 0 {
		return nil, false
	}
	// One copy of the kept values, as encoding/json copies each: the
	// request does not hold on to the caller's buffer.
	n := 0
	for _, s := range spans {
		n += s[1] - s[0]
	}
	buf := make([]byte, 0, n)
	raw := func(s [2]int) json.RawMessage {
		if s[1] == 0 {
			return nil
		}
		start := len(buf)
		buf = append(buf, data[s[0]:s[1]]...)
		return json.RawMessage(buf[start:len(buf):len(buf)])
	}
	return &Request{Output: raw(spans[0]), ExpectedSchema: raw(spans[1]), Context: raw(spans[2])}, true
}
