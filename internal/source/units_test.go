package source_test

import (
	"testing"

	"github.com/agentjudge/judge/internal/claim"
	"github.com/agentjudge/judge/internal/source"
)

// numberWritten picks a sentence's number claim written as text.
func numberWritten(text string) func([]claim.Claim) *claim.Claim {
	return func(cs []claim.Claim) *claim.Claim {
		for i := range cs {
			if cs[i].Kind == claim.Number && cs[i].Text == text {
				return &cs[i]
			}
		}
		return nil
	}
}

// TestOtherMeasure checks that a length of time is not stated by the same
// number counting something else in a passage about the same thing (a
// title such as "3 Sparrows"), nor a count of things by a length of time,
// while the same number of the same unit, and two counts of things, still
// state each other. The sentences are written for this test.
func TestOtherMeasure(t *testing.T) {
	t.Parallel()
	ix := mustIndex(t, source.Doc{ID: "interview.txt", Content: "Ada Lenk, who returns to the stage after five years and a hit play like 3 Sparrows, talks about her work.\n" +
		"The Tolby clinic reported 870 infections in the spring.\n" +
		"Her rival Ona Vey spent 4 years writing the play."})
	tests := []struct {
		text, number string
		status       source.Status // or flagged
	}{
		{"It took five years to write the play and three years to stage it.", "five", source.Supported},
		{"It took five years to write the play and three years to stage it.", "three", flagged},
		{"Ona Vey has written 4 plays.", "4", flagged},
		{"Ona Vey spent four years writing the play.", "four", source.Supported},
		{"Ona Vey spent four months writing the play.", "four", flagged},
		{"The Tolby clinic saw 870 people infected in the spring.", "870", source.Supported},
	}
	for _, tt := range tests {
		checkVerdicts(t, ix, []verdictCase{{tt.text, tt.status}}, numberWritten(tt.number), nil)
	}
}

// nameWritten picks a sentence's name claim written as text.
func nameWritten(text string) func([]claim.Claim) *claim.Claim {
	return func(cs []claim.Claim) *claim.Claim {
		for i := range cs {
			if cs[i].Kind == claim.Name && cs[i].Text == text {
				return &cs[i]
			}
		}
		return nil
	}
}

// TestHyphenatedName checks that a name the extractor cuts from a
// hyphenated word ("Zeta" of "a Zeta-ray disc", "Tolby" of "a
// Tolby-based band") is stated by a passage writing the same hyphenated
// word, and by nothing else: another word after the hyphen, the name
// before another hyphen, or no such word leave it flagged. The sentences
// are written for this test.
func TestHyphenatedName(t *testing.T) {
	t.Parallel()
	ix := mustIndex(t, source.Doc{ID: "shop.txt", Content: "Marrow Films' new Zeta-ray disc presents the film restored.\n" +
		"The Tolby-based band Grey Ferns toured in May.\n" +
		"A Corla-led group of growers met in June."})
	tests := []struct {
		text, name string
		status     source.Status // or flagged
	}{
		{"Marrow Films released a Zeta-ray edition of the film.", "Zeta", source.Supported},
		{"Marrow Films released a Zeta-disc edition of the film.", "Zeta", flagged},
		{"Grey Ferns are a Tolby-based band.", "Tolby", source.Supported},
		{"Grey Ferns are a Tolby-led band.", "Tolby", flagged},
		{"The growers met in a Corla-based hall.", "Corla", flagged},
		{"Grey Ferns are a Vanna-based band.", "Vanna", flagged},
	}
	for _, tt := range tests {
		checkVerdicts(t, ix, []verdictCase{{tt.text, tt.status}}, nameWritten(tt.name), nil)
	}
}
