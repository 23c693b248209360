package criteria

import (
	"cmp"
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// vagueTerm is a subjective word that makes a plain-language criterion
// ambiguous, with a measurable example for the suggestion.
type vagueTerm struct {
	word    string         // as named in the message
	re      *regexp.Regexp // its forms, as whole words, ignoring case
	example string         // a measurable criterion in its place
}

func vague(word, forms, example string) vagueTerm {
	return vagueTerm{word, regexp.MustCompile(`(?i)\b(?:` + forms + `)\b`), example}
}

// anchor is what makes a criterion measurable despite a subjective word.
type anchor struct {
	name string
	re   *regexp.Regexp
}

func anchorOf(name, pattern string) anchor {
	return anchor{name, regexp.MustCompile(pattern)}
}

// The table of ambiguity: a plain-language criterion is ambiguous when it
// uses a vague term and has no anchor. Tests exercise every
// row both ways.
var (
	vagueTerms = []vagueTerm{
		vague("good", `good`, "all functions have docstrings"),
		vague("nice", `nice(?:ly)?`, "every section starts with a one-sentence summary"),
		vague("clean", `clean(?:ly|er)?`, "no unused imports and no commented-out code"),
		vague("better", `better`, "fewer warnings from the linter than the previous version"),
		vague("proper", `proper(?:ly)?`, "every error is returned to the caller, none is ignored"),
		vague("appropriate", `(?:in)?appropriate(?:ly)?`, "the tone is formal: no slang and no exclamation marks"),
		vague("reasonable", `reasonabl[ey]`, "the answer is under 200 words"),
		vague("high quality", `high[- ]quality`, "the linter reports no errors"),
		vague("well written", `well[- ]written`, "no sentence is longer than 25 words"),
		vague("user-friendly", `user[- ]?friendly`, "every error message says how to fix it"),
		vague("robust", `robust(?:ly|ness)?`, "empty input and null fields are handled without an exception"),
		vague("efficient", `efficien(?:t|tly|cy)`, "the algorithm runs in O(n log n) time"),
		vague("fast", `fast(?:er|est)?`, "the response arrives in under 200 ms"),
		vague("readable", `readab(?:le|ility)`, "no function is longer than 40 lines"),
		vague("easy", `eas(?:y|ier|ily)`, "setup takes at most 3 commands"),
	}
	anchors = []anchor{
		anchorOf("number", `\d|(?i:\b(?:zero|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|hundred|thousand|twice)\b)`),
		anchorOf("quoted text", quoted),
		anchorOf("field name", `\b[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+\b|\b[A-Za-z_]\w+(?:\.[A-Za-z_]\w+)+\b|\b[a-z]+[A-Z][A-Za-z0-9]*\b`),
		anchorOf("code or notation", `(?:^|\s)--?[A-Za-z][\w-]*|\bO\([^)]+\)|\b\w+\(\)`),
		anchorOf("comparison", `[<>=≤≥]|(?i:\b(?:at least|at most|more than|less than|fewer than|greater than|no more than|no less than|exactly|equal to|maximum|minimum)\b)`),
		anchorOf("named standard", `(?i:\b(?:pep ?\d+|rfc ?\d+|iso ?\d+|wcag|owasp|posix|semver|ecmascript|gofmt|go vet|black|prettier|eslint|pylint|flake8|ruff|rubocop|psr-?\d+|misra|cwe|json schema|openapi|google style|airbnb style)\b)`),
	}
)

// quoted matches quoted text: a field name, a literal the output must hold,
// or a word mentioned rather than used. Straight single quotes count only
// around one word, as they also serve as apostrophes.
const quoted = `'[^'\s]+'|"[^"]+"|` + "`[^`]+`" + `|‘[^’]+’|“[^”]+”`

// vagueWords returns the vague terms used in text, in the order they first
// appear, or nil when there are none or an anchor makes text measurable.
func vagueWords(text string) []vagueTerm {
	if anchorIn(text) != "" {
		return nil
	}
	type found struct {
		term vagueTerm
		at   int
	}
	var fs []found
	for _, v := range vagueTerms {
		if loc := v.re.FindStringIndex(text); loc != nil {
			fs = append(fs, found{v, loc[0]})
		}
	}
	slices.SortStableFunc(fs, func(a, b found) int { return cmp.Compare(a.at, b.at) })
	var out []vagueTerm
	for _, f := range fs {
		out = append(out, f.term)
	}
	return out
}

// anchorIn returns the name of the first anchor found in text, or "".
func anchorIn(text string) string {
	for _, a := range anchors {
		if a.re.MatchString(text) {
			return a.name
		}
	}
	return ""
}

// ambiguity returns the message and suggestion of the criteria_ambiguous
// warning for a criterion named name that uses the vague terms.
func ambiguity(name string, terms []vagueTerm) (message, suggestion string) {
	words := make([]string, len(terms))
	for i, t := range terms {
		words[i] = "'" + t.word + "'"
	}
	verb := "has"
	if len(words) > 1 {
		verb = "have"
	}
	list := words[0]
	if n := len(words); n > 1 {
		list = strings.Join(words[:n-1], ", ") + " and " + words[n-1]
	}
	message = fmt.Sprintf("Criterion '%s' is subjective: %s %s no measurable meaning", name, list, verb)
	suggestion = fmt.Sprintf("State what makes it %s, e.g. '%s', or add a rule", terms[0].word, terms[0].example)
	return message, suggestion
}
