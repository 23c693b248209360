package schema

import "unsafe"

// Per-node costs of a compiled schema, measured by TestSizeEstimate on the
// 117 github-mcp-server input schemas and the benchmark corpus's large one:
// a *jsonschema.Schema with its maps and slices, and a fast-path node.
const (
	schemaNodeBytes = 800
	fastNodeBytes   = int64(unsafe.Sizeof(node{})) + 64
)

// Size estimates the bytes a compiled schema holds: its compiled schemas,
// its fast-path nodes and the documents the compiler keeps. The schema
// layer's cache charges it against its byte budget.
func (c *compiled) Size() int64 {
	n := int64(unsafe.Sizeof(*c)) + c.docBytes
	n += int64(c.schemas) * (schemaNodeBytes + 64)
	n += int64(c.nodes) * fastNodeBytes
	for k, v := range c.names {
		n += int64(len(k)+len(v)) + 64
	}
	return n
}

// valueBytes estimates the heap a decoded JSON value takes: its strings
// and keys, its maps' slots, its slices' elements, and the interfaces
// holding them.
func valueBytes(v any) int64 {
	const iface = int64(unsafe.Sizeof(any(nil)))
	switch v := v.(type) {
	case map[string]any:
		n := int64(48)
		for k, e := range v {
			n += 2*(16+iface) + int64(len(k)) + valueBytes(e)
		}
		return n
	case []any:
		n := int64(24) + int64(cap(v))*iface
		for _, e := range v {
			n += valueBytes(e)
		}
		return n
	case string:
		return 16 + int64(len(v))
	case nil, bool:
		return 0
	}
	return 16 // a number, boxed
}

// Size estimates the bytes the compiled schema holds (see the cache's
// budget); a Validator shares it with the schema layer's cache.
func (v *Validator) Size() int64 { return v.c.Size() }
