package executor

import (
	"encoding/json"
	"testing"
)

// FuzzDecodeToolsList feeds DecodeToolsList any bytes as a tools/list
// result: it never panics, and every tool it returns is a JSON object.
func FuzzDecodeToolsList(f *testing.F) {
	for _, s := range []string{
		`{"tools":[{"name":"a","inputSchema":{"type":"object"},"execution":{"taskSupport":"optional"}}],"nextCursor":"2"}`,
		`{"tools":[]}`, `{"tools":[1]}`, `{"tools":null,"nextCursor":null}`, `{}`, `[]`, `{"tools":[{"name":"b"}],"x":{}}`, `{"tools":[ {"a":1} ]}`, `{"prompts":[{"name":"p","arguments":[{"name":"a","required":false}]}],"nextCursor":"x"}`, `{"nextCursor":1}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, res []byte) {
		if items, _, err := DecodeList(res, "prompts"); err == nil {
			for i, raw := range items {
				if len(raw) == 0 || raw[0] != '{' || !json.Valid(raw) {
					t.Fatalf("prompt %d is not a JSON object: %q", i, raw)
				}
			}
		}
		tools, _, err := DecodeToolsList(res)
		if err != nil {
			return
		}
		for i, raw := range tools {
			var m map[string]any
			if err := json.Unmarshal(raw, &m); err != nil || len(raw) == 0 || raw[0] != '{' {
				t.Fatalf("tool %d is not a JSON object: %q", i, raw)
			}
		}
	})
}
