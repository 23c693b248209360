package facts_test

import (
	"testing"

	"github.com/agentjudge/judge/layer"
	"github.com/agentjudge/judge/result"
)

// TestDatedEvent: an output that dates an event in one month where the
// source dates the same event (same subject, a verb of the same family,
// same year) in another month, with another verb, is a fact_mismatch whose
// suggestion gives the source's date, as the specification's Example 3
// does for its wrong month; not an unsupported date. A date of another
// event, another year or another subject is left to the other rules.
func TestDatedEvent(t *testing.T) {
	t.Parallel()
	advisory := layer.Source{ID: "advisory", Title: "Vendor advisory", URL: "https://example.com/advisory",
		Content: "The heap overflow in libfoo was reported in February 2024 by the libfoo security team.\nA fix was released in April 2024."}
	tests := []struct {
		name, output string
		typ          result.Type // "" for no issue on the date
		location     string
		message      string
		suggestion   string
	}{
		{"discovered for reported", "The libfoo heap overflow lets attackers run code. It was discovered in March 2024.",
			result.FactMismatch, "line:1:discovery_date", "Discovery date stated as March 2024 but February 2024 according to Vendor advisory",
			"Correct discovery date to February 2024 based on https://example.com/advisory"},
		{"same subject", "The heap overflow in libfoo was discovered in March 2024.",
			result.FactMismatch, "line:1:discovery_date", "Discovery date stated as March 2024 but February 2024 according to Vendor advisory",
			"Correct discovery date to February 2024 based on https://example.com/advisory"},
		{"disclosed for reported", "The libfoo overflow was disclosed in January 2024.",
			result.FactMismatch, "line:1:disclosure_date", "Disclosure date stated as January 2024 but February 2024 according to Vendor advisory",
			"Correct disclosure date to February 2024 based on https://example.com/advisory"},
		{"identified for reported", "Researchers identified the libfoo heap overflow in May 2024.",
			result.FactMismatch, "line:1:identification_date", "Identification date stated as May 2024 but February 2024 according to Vendor advisory",
			"Correct identification date to February 2024 based on https://example.com/advisory"},
		{"the same month", "The heap overflow in libfoo was found in February 2024.", "", "", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := runFacts(t, &layer.Input{Output: tt.output, Sources: []layer.Source{advisory}})
			var dated []result.Issue
			for _, is := range f.Issues {
				if is.Type == result.FactMismatch || is.Type == result.UnsupportedClaim || is.Type == result.Hallucination {
					dated = append(dated, is)
				}
			}
			if tt.typ == "" {
				if len(dated) != 0 {
					t.Errorf("issues %s, want none", dump(dated))
				}
				return
			}
			if len(dated) != 1 {
				t.Fatalf("issues %s, want one %s", dump(f.Issues), tt.typ)
			}
			is := dated[0]
			if is.Type != tt.typ || is.Severity != result.Warning || !hasPrefix(is.Message, tt.message) || is.Suggestion != tt.suggestion || is.Location != tt.location {
				t.Errorf("issue %s\nwant %s at %s, %q…, suggestion %q", dump(dated), tt.typ, tt.location, tt.message, tt.suggestion)
			}
		})
	}
}

// TestDatedEventOtherEvent: a month the source gives to another event (a
// fix released for the same flaw) is no contradiction of the claimed
// date, though both are dates of the same subject.
func TestDatedEventOtherEvent(t *testing.T) {
	t.Parallel()
	src := layer.Source{ID: "advisory", Content: "The heap overflow in libfoo was found by the security team.\nA fix for the libfoo heap overflow was released in April 2024."}
	f := runFacts(t, &layer.Input{Output: "The heap overflow in libfoo was discovered in March 2024.", Sources: []layer.Source{src}})
	for _, is := range f.Issues {
		if is.Type == result.FactMismatch || is.Type == result.Hallucination {
			t.Errorf("issue %s: the source dates no discovery", dump(f.Issues))
		}
	}
}

func hasPrefix(s, p string) bool { return len(s) >= len(p) && s[:len(p)] == p }
