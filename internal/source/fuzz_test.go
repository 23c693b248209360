package source_test

import (
	"testing"

	"github.com/agentjudge/judge/internal/claim"
	"github.com/agentjudge/judge/internal/lexicon"
	"github.com/agentjudge/judge/internal/source"
)

// FuzzBuild checks that any document indexes without panicking, in every
// format, and that checking a claim against it never panics.
func FuzzBuild(f *testing.F) {
	for _, s := range []string{
		"CVSS v3.1 base score: 7.5. Affected versions: prior to 1.24.1.",
		"# Title\n\n| a | b |\n|---|---|\n| score | 7 |\n[link](https://x.test)",
		`{"a": {"bScore": 7.5, "list": [1, "two", null]}}`,
		"", "\n\n\n", `{"a":`, "....", "x\x00y",
		"Chinese officials met in LA on 17 August last year; the Sims-based show saw decreased market availability.",
		"A-B C-d E- -F L.A. U.S.-backed un non dis",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, fm := range []source.Format{source.Text, source.Markdown, source.JSON} {
			x, err := source.Build(source.Doc{ID: "f", Content: s, Format: fm})
			if err != nil {
				continue
			}
			ix := source.NewIndex(x)
			for _, c := range claim.Extract("The score was 9.8 on March 3, 2024, by Alice Smith, not 1.2.3.", "").Claims {
				ix.Check(c)
			}
			// The document's own claims and sentences, checked against it
			// and against a fixed one: names, initials, partial dates and
			// antonyms beside the same word.
			fixed, _ := source.Build(source.Doc{ID: "g", Content: "Officials in China met in Los Angeles on 17 August last year. Increased market availability."})
			for _, other := range []*source.Index{ix, source.NewIndex(x, fixed)} {
				for _, c := range claim.Extract(s, "").Claims {
					other.Check(c)
				}
				other.AntonymSwaps(s, lexicon.Antonyms)
			}
		}
	})
}
