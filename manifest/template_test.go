package manifest

import (
	"slices"
	"testing"
)

func TestTemplateVars(t *testing.T) {
	t.Parallel()
	tests := []struct {
		tmpl string
		want []string
	}{
		{"https://a.example/{x}/{y}", []string{"x", "y"}},
		{"https://a.example/{x}{y}?k=${KEY}&z={ z }", []string{"x", "y", "z"}},
		{"${A}${B}", nil},
		{"https://a.example/", nil},
	}
	for _, tt := range tests {
		if got := templateVars(tt.tmpl); !slices.Equal(got, tt.want) {
			t.Errorf("templateVars(%q) = %q, want %q", tt.tmpl, got, tt.want)
		}
	}
}

func TestFillTemplate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		tmpl, want string
		bad        bool
	}{
		{"https://a.example/{x}?k=${KEY}", "https://a.example/x?k=x", false},
		{"https://a.example/{x", "", true},
		{"https://a.example/x}", "", true},
		{"https://a.example/{{x}}", "", true},
	}
	for _, tt := range tests {
		got, err := fillTemplate(tt.tmpl)
		if (err != nil) != tt.bad || got != tt.want {
			t.Errorf("fillTemplate(%q) = %q, %v; want %q, error %v", tt.tmpl, got, err, tt.want, tt.bad)
		}
	}
}
