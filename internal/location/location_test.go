package location

import (
	"encoding/json"
	"testing"
)

// TestPath pins the one notation every path of a message or a location
// goes through (toolcall's parameter locations and result facts, toolscan's
// places in a definition, the layers' findings).
func TestPath(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		base   string
		tokens []string
		index  []bool
		want   string
	}{
		{name: "root", want: "root"},
		{name: "keys and an index", tokens: []string{"tasks", "2", "status"}, index: []bool{false, true, false}, want: "tasks[2].status"},
		{name: "a numeric key", tokens: []string{"years", "2024"}, want: `years["2024"]`},
		{name: "a letter beyond ASCII is an identifier", tokens: []string{"café", "prix"}, want: "café.prix"},
		{name: "a dash or a dollar is not", tokens: []string{"x-api", "$schema"}, want: `["x-api"]["$schema"]`},
		{name: "the empty key", tokens: []string{""}, want: `[""]`},
		{name: "HTML is not escaped", tokens: []string{"<a>"}, want: `["<a>"]`},
		{name: "an invisible character is shown escaped", tokens: []string{"q\u200d"}, want: `["q\u200d"]`},
		{name: "a character beyond the BMP that does not print", tokens: []string{"a\U000e0001"}, want: `["a\udb40\udc01"]`},
		{name: "below a base", base: "tools[3]", tokens: []string{"inputSchema", "x-api"}, want: `tools[3].inputSchema["x-api"]`},
		{name: "an index below a base", base: "tools", tokens: []string{"3"}, index: []bool{true}, want: "tools[3]"},
		{name: "a key below an empty base", base: "", tokens: []string{"description"}, want: "description"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			isIndex := func(i int) bool { return tt.index != nil && tt.index[i] }
			var got string
			if tt.base == "" && tt.name != "a key below an empty base" {
				got = Path(tt.tokens, isIndex)
			} else {
				got = Append(tt.base, tt.tokens, isIndex)
			}
			if got != tt.want {
				t.Errorf("got %s, want %s", got, tt.want)
			}
		})
	}
}

// TestQuoteDecodes checks that a quoted key, escapes and all, is the JSON
// string of the key.
func TestQuoteDecodes(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"q\u200d", "a\U000e0001b", "\u202eabc", "tab\there", `"quoted"`, "<&>", "\u00a0", "plain"} {
		var back string
		if err := json.Unmarshal([]byte(Quote(s)), &back); err != nil || back != s {
			t.Errorf("Quote(%q) = %s, which decodes to %q, %v", s, Quote(s), back, err)
		}
	}
}
