package result

import "testing"

// FuzzCheckLocation: any string is accepted or refused, never a panic.
func FuzzCheckLocation(f *testing.F) {
	for _, s := range []string{"a.b[1]", "line:3:column:4", `["x"]:k`, "function:f:line:2", "file:a:line:1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		_ = CheckLocation(s)
	})
}
