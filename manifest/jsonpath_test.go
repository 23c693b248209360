package manifest_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/agentjudge/judge/manifest"
)

func TestParseJSONPath(t *testing.T) {
	t.Parallel()
	tests := []struct {
		path   string
		offset int // -1: valid
	}{
		{"$", -1},
		{"$.forecast.daily[0:7]", -1},
		{"$.store.book[*].author", -1},
		{"$..author", -1},
		{"$..[0]", -1},
		{"$.a['b c', \"d\"]", -1},
		{"$[-1]", -1},
		{"$[::2]", -1},
		{"$[1:]", -1},
		{"$.items[?@.price < 10 && @.tags]", -1},
		{"$.items[?(@.price >= 1.5e2 || !(@.sold == true))]", -1},
		{"$.items[?length(@.name) > 3]", -1},
		{"$.naïve", -1},
		{"", 0},
		{"data.items", 0},
		{"$.", 2},
		{"$.items[0:", 10},
		{"$.items[", 8},
		{"$.a[01]", 4},
		{"$.a['x]", 7},
		{"$.a[?@.b ==]", 11},
		{"$.a[?(@.b]", 9},
		{"$ .a", 1},
		{"$.a[1 2]", 6},
		{"$[-]", 3},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			t.Parallel()
			p, err := manifest.ParseJSONPath(tt.path)
			if tt.offset < 0 {
				if err != nil {
					t.Fatalf("ParseJSONPath(%q) = %v, want valid", tt.path, err)
				}
				if p.String() != tt.path {
					t.Errorf("String() = %q", p.String())
				}
				return
			}
			var pe *manifest.JSONPathError
			if !errors.As(err, &pe) {
				t.Fatalf("ParseJSONPath(%q) = %v, want *JSONPathError", tt.path, err)
			}
			if pe.Offset != tt.offset {
				t.Errorf("offset = %d, want %d (%v)", pe.Offset, tt.offset, err)
			}
		})
	}
}

func TestParseJSONPathLimits(t *testing.T) {
	t.Parallel()
	deep := "$[?" + strings.Repeat("(", 100) + "@.a" + strings.Repeat(")", 100) + "]"
	if _, err := manifest.ParseJSONPath(deep); err == nil || !strings.Contains(err.Error(), "nests deeper") {
		t.Errorf("deep filter: err = %v, want a depth error", err)
	}
	long := "$" + strings.Repeat(".a", manifest.MaxJSONPathLen)
	if _, err := manifest.ParseJSONPath(long); err == nil {
		t.Error("an over-long path parsed")
	}
	if _, err := manifest.ParseJSONPath("$.a\xff"); err == nil {
		t.Error("invalid UTF-8 parsed")
	}
}

func FuzzParseJSONPath(f *testing.F) {
	for _, s := range []string{"$", "$.a.b[0:7]", "$..x", "$[?@.a < 1 && (@.b || !@.c)]", "$['a','b']", "$[::-1]",
		"$[?match(@.name, 'a.*')]", "$.a[", "$[?(", "$[01]", "$.'x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := manifest.ParseJSONPath(s)
		if err == nil {
			if p.String() != s || !strings.HasPrefix(s, "$") {
				t.Fatalf("accepted %q", s)
			}
			return
		}
		var pe *manifest.JSONPathError
		if !errors.As(err, &pe) || pe.Offset < 0 || pe.Offset > len(s) && pe.Offset != manifest.MaxJSONPathLen {
			t.Fatalf("ParseJSONPath(%q): error %v has no offset within the input", s, err)
		}
	})
}
