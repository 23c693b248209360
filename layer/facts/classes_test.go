package facts_test

import (
	"strings"
	"testing"

	"github.com/agentjudge/judge/layer"
	"github.com/agentjudge/judge/result"
)

// TestFalseFlagClasses holds the classes of false flags found on WiCE's
// supported claims (docs/grounding.md): each output states only what its
// source states, in other words, and must pass; its counterpart changes
// the specific and must still be flagged.
func TestFalseFlagClasses(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, source, output, wrong string
	}{
		{"decade", "The company was founded in 1994 in Ohio.", "The company was founded in the 1990s.", "The company was founded in the 1970s."},
		{"decade with apostrophe", "Sales peaked in 2004 in Ohio.", "Sales peaked in the 2000's.", "Sales peaked in the 1980's."},
		{"century", "The church was built in 1856 by the town.", "The church was built in the 19th century.", "The church was built in the 17th century."},
		{"year inside a full date", "Published March 5, 2003.\nInez rejoined the band on tour.", "Inez joined the band again for their tour in 2003.", "Inez joined the band again for their tour in 2009."},
		{"year before a noun", "Posted: 14 Apr 2019.\nFiloni revealed that Park reprised his role.", "In the 2019 panel, Filoni revealed that Park reprised his role.", "In the 2015 panel, Filoni revealed that Park reprised his role."},
		{"year in an ISO date-time", "PUBLISHED DATETIME: 2018-06-30T07:00:00Z\nThe man has never been identified.", "The man has never been identified (June 2018).", "The man has never been identified (June 2016)."},
		{"name without its space", "TechCrunch reported the deal first.", "Tech Crunch reported the deal first.", "Tech Daily reported the deal first."},
		{"name with a hyphen", "The Chronicle of African Americans in the Horse Industry.", "A website about African-Americans in the horse industry.", "A website about Native-Americans in the horse industry."},
		{"name with dots", "AC Milan won the derby.", "A.C. Milan won the derby.", "Inter Milan won the derby."},
		{"money with a no-break space", "A total of €76.25 million in fees is earmarked.", "A total of €76.25\u00a0million in fees is earmarked.", "A total of €96.25\u00a0million in fees is earmarked."},
		{"score with an en dash", "United beat Arsenal 5-4 at Highbury.", "United beat Arsenal 5–4 at Highbury.", "United beat Arsenal 6–4 at Highbury."},
		{"grade", "The school opened in August 2016 with 400 students.", "The school opened in 2016 with 400 9th-grade students.", "The school opened in 2016 with 700 9th-grade students."},
		{"time after a date", "BFI London Film Festival: Thursday 18 October 15:30, 2018 season.", "It was shown on 18 October 2018 at the BFI London Film Festival.", "It was shown on 19 October 2018 at the BFI London Film Festival."},
		{"year dated relative to the page", "The national team manager cancelled today's training.\nBoth the men's and women's team took the Volleyball England National Student Cup this year, building on their achievements in 2018.",
			"Both the men's and women's volleyball team also won the national student cup in 2019.", "Upon his return in January 2009, he again became the keeper of the national team."},
		{"month without a year in a dated page", "Posted July 19, 2019\nThe Orla Critics' Week lineup is out.\nThe fest runs from Aug. 28 to Sept. 7.", "The film premieres at the Orla festival in August 2019.", "The film premieres at the Orla festival in October 2019."},
		{"weekday in a dated page", "July 18, 2014\nThe Tamsin Rowing Conference of marine biologists will start Sunday in Perth.",
			"They flew to Perth for the Tamsin Rowing Conference of marine biologists, starting on 20 July.", "They flew to Perth for the Tamsin Rowing Conference of marine biologists, starting on 23 July."},
		{"hour without a time of day", "Jacob: Got it! 7? 8?\nAlex: Let's make it 7.", "They agree to meet at 7 pm.", "They agree to meet at 9 pm."},
		{"name made of common words", "She studied literature at Ohio State, graduating in 1998.", "She graduated from Ohio State in 1998 as a Bachelor of Arts.", "She graduated from Ohio State in 1998 as a Kessler Fellow of Arts."},
		{"country of several words for its nationality", "The American army said the base was closed.", "The United States Army said the base was closed.", "The United States Navy said the base was closed."},
		{"subdivision with its kind's word", "Ona Vey was born in Shizuoka and studied in Leeds.", "Ona Vey was born in Shizuoka Prefecture.", "Ona Vey was born in Nagano Prefecture."},
		{"abbreviation the sentence defines", "The college was rated gold by the Teaching Excellence Framework.", "The college was rated gold by the Teaching Excellence Framework (TEF).", "The college was rated gold by the Research Excellence Framework (REF)."},
		{"weekday the sources give in other words", "Steve: do you fancy a drink at the weekend?\nCarly: I was ill all weekend.", "Steve and Carly plan to meet up on Friday for a drink.", "Steve and Carly plan to meet up on Friday for a drink at 9 pm."},
	}
	flagged := func(f layer.Findings) []result.Issue {
		var out []result.Issue
		for _, is := range f.Issues {
			switch is.Type {
			case result.Hallucination, result.FactMismatch, result.UnsupportedClaim:
				out = append(out, is)
			}
		}
		return out
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			src := []layer.Source{{ID: "src", Content: tt.source}}
			if got := flagged(runFacts(t, &layer.Input{Output: tt.output, Sources: src})); len(got) != 0 {
				t.Errorf("%q flagged: %s", tt.output, dump(got))
			}
			if got := flagged(runFacts(t, &layer.Input{Output: tt.wrong, Sources: src})); len(got) == 0 {
				t.Errorf("%q not flagged", tt.wrong)
			}
		})
	}
}

// TestWeekdayAndHourNamed: a weekday or an hour is left undecided only
// where the sources name no weekday or time of day at all; where they
// name another, the claim is still flagged.
func TestWeekdayAndHourNamed(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ source, output string }{
		{"Steve: do you fancy a drink at the weekend?\nCarly: See you Saturday at Kings.", "Steve and Carly plan to meet up on Friday for a drink at Kings."},
		{"Jacob: Got it! 7? 8?\nAlex: Let's make it 7. The pub opens at 6 pm.", "They agree to meet at 8 pm."},
	} {
		f := runFacts(t, &layer.Input{Output: tt.output, Sources: []layer.Source{{ID: "src", Content: tt.source}}})
		bad := 0
		for _, is := range f.Issues {
			if is.Type == result.UnsupportedClaim || is.Type == result.Hallucination || is.Type == result.FactMismatch {
				bad++
			}
		}
		if bad == 0 {
			t.Errorf("%q against %q: not flagged (%s)", tt.output, tt.source, dump(f.Issues))
		}
	}
}

// TestSentenceUncovered: a sentence of six or more content words of which
// the sources hold less than a quarter is unsupported as a whole (a
// warning under facts.sentence_unsupported naming the missing words),
// whatever its specifics; one that shares a quarter of its words with the
// sources passes, and so does a sentence about the source itself ("The
// speakers…", and "It also…" after it).
func TestSentenceUncovered(t *testing.T) {
	t.Parallel()
	src := []layer.Source{{ID: "chat", Content: "Ovi: Just back from Israel!\nKim: How was the weather?\nOvi: Sunny every single day.\nKim: So jealous. See you at school tomorrow."}}
	tests := []struct {
		output  string
		flagged bool
	}{
		// Paraphrase: Ovi, Israel, weather, school are the chat's.
		{"Ovi tells his friends about his trip to Israel and the sunny weather, and will see Kim at school.", false},
		// The same length, about nothing the chat speaks of.
		{"The committee approved a new budget for regional hospitals after lengthy negotiations with unions.", true},
		// About the source itself, in words of its own.
		{"The speakers are chatting about a holiday abroad and arranging a meeting. It also mentions their envy about the climate.", false},
		// The same second sentence with no source subject before it.
		{"It also mentions their envy about the climate and their professional obligations regarding examinations.", true},
	}
	for _, tt := range tests {
		t.Run(tt.output, func(t *testing.T) {
			t.Parallel()
			f := runFacts(t, &layer.Input{Output: tt.output, Sources: src})
			var got []result.Issue
			for _, is := range f.Issues {
				if is.Rule == "facts.sentence_unsupported" {
					got = append(got, is)
				}
			}
			if tt.flagged != (len(got) > 0) {
				t.Fatalf("flagged %v, want %v: %s", len(got) > 0, tt.flagged, dump(f.Issues))
			}
			if tt.flagged && (got[0].Type != result.UnsupportedClaim || got[0].Severity != result.Warning || !strings.Contains(got[0].Message, "content words")) {
				t.Errorf("issue %s", dump(got))
			}
		})
	}
}

// TestOwnValueNotContradicted: a passage's value that the claim's own
// sentence gives to another of its parts is not reported as the value the
// claim should have ("Date stated as 1996 but 1997"): the claim is
// unsupported, and the suggestion names no value; a sentence without that
// other part is still contradicted, with the source's value. The
// sentences are written for this test.
func TestOwnValueNotContradicted(t *testing.T) {
	t.Parallel()
	src := []layer.Source{{ID: "src", Content: "Ada Lenk led the Tolby choir from 1997 to 2003."}}
	tests := []struct {
		output string
		typ    result.Type
		not    string // what the finding must not say
	}{
		{"After Ona Vey retired in 1996, Ada Lenk led the Tolby choir from 1997 to 2003.", result.UnsupportedClaim, "1997"},
		{"Ada Lenk took over the Tolby choir in 1996.", result.Hallucination, ""},
	}
	for _, tt := range tests {
		var got []result.Issue
		for _, is := range runFacts(t, &layer.Input{Output: tt.output, Sources: src}).Issues {
			if (is.Type == result.Hallucination || is.Type == result.UnsupportedClaim) && strings.Contains(is.Message, "1996") {
				got = append(got, is)
			}
		}
		if len(got) != 1 || got[0].Type != tt.typ {
			t.Errorf("%q: %s, want one %s about 1996", tt.output, dump(got), tt.typ)
			continue
		}
		if tt.not != "" && (strings.Contains(got[0].Message, tt.not) || strings.Contains(got[0].Suggestion, tt.not)) {
			t.Errorf("%q: %s names %s, the sentence's own value", tt.output, dump(got), tt.not)
		}
	}
}
