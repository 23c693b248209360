package manifest

import (
	"reflect"
	"strings"
	"testing"
)

func TestLocationPath(t *testing.T) {
	t.Parallel()
	tests := []struct {
		loc  string
		want []pathElem
	}{
		{"description", []pathElem{"description"}},
		{"parameters[1].description", []pathElem{"parameters", 1, "description"}},
		{`input_schema.properties["a b"].enum[0]`, []pathElem{"input_schema", "properties", "a b", "enum", 0}},
		{"root", nil},
		{"", nil},
		{"parameters[x].description", []pathElem{"parameters"}},
		{`a["unterminated`, []pathElem{"a"}},
	}
	for _, tt := range tests {
		if got := locationPath(tt.loc); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("locationPath(%q) = %#v, want %#v", tt.loc, got, tt.want)
		}
	}
}

// FuzzLocationPath reads any location: it never panics, and a path of
// plain names joined by dots comes back as those names.
func FuzzLocationPath(f *testing.F) {
	for _, s := range []string{"description", "parameters[1].description", `a["b\"c"][2]`, "[", `["`, "a..b", "[99999999999999999999]"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, loc string) {
		path := locationPath(loc)
		if len(path) > len(loc) {
			t.Fatalf("%q: %d steps from %d bytes", loc, len(path), len(loc))
		}
		names := strings.Split(loc, ".")
		for _, n := range names {
			if n == "" || strings.ContainsAny(n, "[]\"") || n == "root" {
				return
			}
		}
		if len(path) != len(names) {
			t.Fatalf("%q: path %#v, want the names %q", loc, path, names)
		}
		for i, n := range names {
			if path[i] != n {
				t.Fatalf("%q: step %d is %#v, want %q", loc, i, path[i], n)
			}
		}
	})
}
