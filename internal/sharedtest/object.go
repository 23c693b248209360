package sharedtest

import (
	"encoding/json"
	"fmt"
)

// ObjectSchema returns the schema of an object of n required properties
// (field_0 … field_<n-1>) of five kinds — a string with a length range, a
// non-negative integer, an enum, a boolean and an array of at most 10
// strings — without additional properties, and a valid document of it.
// The growth rows (bench/run -row grow) and BenchmarkSchemaGrow measure
// how validation grows from 20 to 200 properties with it.
func ObjectSchema(n int) (schema, doc json.RawMessage) {
	props := map[string]any{}
	vals := map[string]any{}
	var req []string
	for i := range n {
		name := fmt.Sprintf("field_%d", i)
		req = append(req, name)
		switch i % 5 {
		case 0:
			props[name] = map[string]any{"type": "string", "minLength": 1, "maxLength": 64}
			vals[name] = fmt.Sprintf("value %d", i)
		case 1:
			props[name] = map[string]any{"type": "integer", "minimum": 0}
			vals[name] = i
		case 2:
			props[name] = map[string]any{"enum": []string{"open", "closed", "draft"}}
			vals[name] = "open"
		case 3:
			props[name] = map[string]any{"type": "boolean"}
			vals[name] = i%2 == 0
		default:
			props[name] = map[string]any{"type": "array", "items": map[string]any{"type": "string"}, "maxItems": 10}
			vals[name] = []string{"a", "b"}
		}
	}
	s, _ := json.Marshal(map[string]any{"type": "object", "properties": props, "required": req, "additionalProperties": false})
	d, _ := json.Marshal(vals)
	return s, d
}
