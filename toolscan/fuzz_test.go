package toolscan_test

import (
	"strings"
	"testing"

	"github.com/agentjudge/judge/result"
	"github.com/agentjudge/judge/toolscan"
)

// FuzzScan decodes and scans arbitrary documents: never a panic, every
// finding located and turned into a result that meets the spec.
func FuzzScan(f *testing.F) {
	f.Add([]byte(`{"tools":[` + neighbour + `]}`))
	for _, tc := range poisonedCases {
		f.Add([]byte(`[` + neighbour + `,` + tc.def + `]`))
	}
	f.Add([]byte(`{"result":{"tools":[{"name":"a\u202e","description":"<IMPORTANT>x</IMPORTANT>"}]}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		defs, err := toolscan.Decode(data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "toolscan: ") {
				t.Fatalf("error without the package prefix: %v", err)
			}
			return
		}
		for i, issues := range toolscan.Scan(defs) {
			for _, is := range issues {
				if !strings.HasPrefix(is.Location, "tools[") {
					t.Fatalf("tool %d: finding %s without a location in the list: %q", i, is.Rule, is.Location)
				}
			}
			if err := result.Check(result.NewBuilder().Add(issues...).Build()); err != nil {
				t.Fatalf("tool %d: %v", i, err)
			}
		}
	})
}
