package criteria

import (
	"slices"
	"testing"
)

func TestVagueWords(t *testing.T) {
	t.Parallel()
	tests := []struct {
		text string
		want []string // vague words reported, in order; nil when precise enough
	}{
		// Every vague term, used vaguely and made measurable.
		{"code is good", []string{"good"}},
		{"code is good: at least 80% of functions have docstrings", nil},
		{"The README looks nice", []string{"nice"}},
		{"The README looks nice and has a 'Usage' section", nil},
		{"Code is clean", []string{"clean"}},
		{"Code is clean: flake8 reports nothing", nil},
		{"The new version is better", []string{"better"}},
		{"The new version is better: fewer than 3 lint warnings", nil},
		{"Errors are handled properly", []string{"proper"}},
		{"Errors are handled properly: every call to open_file checks its error", nil},
		{"The tone is appropriate", []string{"appropriate"}},
		{"The tone is appropriate for RFC 2119 keywords", nil},
		{"Response time is reasonable", []string{"reasonable"}},
		{"Response time is reasonable, under 200 ms", nil},
		{"The summary is high quality", []string{"high quality"}},
		{"The summary is high-quality and cites exactly two sources", nil},
		{"The essay is well-written", []string{"well written"}},
		{"The essay is well written, with no sentence > 30 words", nil},
		{"The CLI is user friendly", []string{"user-friendly"}},
		{"The CLI is user-friendly: --help lists every flag", nil},
		{"Parsing is robust", []string{"robust"}},
		{"Parsing is robust to a missing \"version\" field", nil},
		{"The algorithm is efficient", []string{"efficient"}},
		{"The algorithm is efficient: O(n) in the input size", nil},
		{"The endpoint is fast", []string{"fast"}},
		{"The endpoint is fast: p99 latency is at most twenty ms", nil},
		{"Variable names are readable", []string{"readable"}},
		{"Variable names are readable and follow PEP 8", nil},
		{"The setup is easy", []string{"easy"}},
		{"The setup is easy: `make install` is enough", nil},

		// Forms, several words, order of appearance, case.
		{"Code is Clean, READABLE and faster than before", []string{"clean", "readable", "fast"}},
		{"The function runs efficiently and the code is nicely formatted", []string{"efficient", "nice"}},
		{"It's a good summary of the user's question", []string{"good"}},

		// No vague word, or only inside other words.
		{"Tests are included", nil},
		{"Mentions breakfast and the goodwill of readers", nil},
		{"", nil},

		// Anchors: a field name, a dotted path, a comparison, a standard.
		{"The user_id field is proper", nil},
		{"user.email is appropriate", nil},
		{"The score is good (>= B)", nil},
		{"The code is clean per gofmt", nil},
		{"Accessible pages are good, meeting WCAG", nil},
		{"Errors are handled properly in parse()", nil},
		{"Help is easy to find with -h", nil},
	}
	for _, tt := range tests {
		var got []string
		for _, v := range vagueWords(tt.text) {
			got = append(got, v.word)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("vagueWords(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
}

// TestVagueTermsAreWholeWords checks every row of the table: the word is
// found alone, not inside another word, and its example is precise.
func TestVagueTermsAreWholeWords(t *testing.T) {
	t.Parallel()
	for _, v := range vagueTerms {
		if got := vagueWords("It is " + v.word + " indeed"); len(got) != 1 || got[0].word != v.word {
			t.Errorf("%q is not found in a plain sentence: %v", v.word, got)
		}
		if got := vagueWords("It is x" + v.word + "x indeed"); len(got) != 0 {
			t.Errorf("%q is found inside another word", v.word)
		}
		if vagueWords(v.example) != nil {
			t.Errorf("the example for %q, %q, is itself vague", v.word, v.example)
		}
	}
}

func TestAmbiguityText(t *testing.T) {
	t.Parallel()
	msg, sug := ambiguity("code is good", vagueWords("code is good"))
	if msg != "Criterion 'code is good' is subjective: 'good' has no measurable meaning" ||
		sug != "State what makes it good, e.g. 'all functions have docstrings', or add a rule" {
		t.Errorf("got %q | %q", msg, sug)
	}
	msg, _ = ambiguity("x", []vagueTerm{vagueTerms[0], vagueTerms[1]})
	if msg != "Criterion 'x' is subjective: 'good' and 'nice' have no measurable meaning" {
		t.Errorf("got %q", msg)
	}
}

// TestAnchors checks every anchor of the table on an example that would be
// vague without it.
func TestAnchors(t *testing.T) {
	t.Parallel()
	examples := map[string]string{
		"number":           "Code is good and has 3 tests",
		"quoted text":      "Code is good and defines 'main'",
		"field name":       "Code is good and sets the retry_count",
		"code or notation": "Code is good and sorts in O(n log n)",
		"comparison":       "Code is good and has at least a test",
		"named standard":   "Code is good according to pylint",
	}
	if len(examples) != len(anchors) {
		t.Fatalf("%d examples for %d anchors", len(examples), len(anchors))
	}
	for _, a := range anchors {
		ex, ok := examples[a.name]
		if !ok {
			t.Errorf("anchor %q has no example", a.name)
			continue
		}
		if got := anchorIn(ex); got != a.name {
			t.Errorf("anchorIn(%q) = %q, want %q", ex, got, a.name)
		}
		if vagueWords(ex) != nil {
			t.Errorf("%q is reported vague despite its %s", ex, a.name)
		}
	}
}
