package source_test

import (
	"strings"
	"testing"

	"github.com/agentjudge/judge/internal/claim"
	"github.com/agentjudge/judge/internal/source"
)

// TestDefinedAbbreviation checks that an abbreviation the claim's
// sentence defines by the name before it ("the Teaching Excellence
// Framework (TEF)") takes that name's verdict, supported or undecided,
// ("the Grand Jury (GJ)", a term of common words: generic-name), and
// that each changed counterpart stays flagged: letters that are not
// the name's initials ("(TFE)", "(KGB)" after "Federal Security
// Service"), an abbreviation defined by a name the sources do not hold,
// and one not in parentheses after its name. The sentences are written
// for this test.
func TestDefinedAbbreviation(t *testing.T) {
	t.Parallel()
	ix := mustIndex(t, source.Doc{ID: "page.txt", Content: "The college was rated gold by the Teaching Excellence Framework in 2019.\n" +
		"Prince Harry visited Leeds in 2019 with his cousin.\n" +
		"The Federal Security Service opened an office in Leeds in 2019."})
	tests := []verdictCase{
		{"The college was rated gold by the Teaching Excellence Framework (TEF) in 2019.", source.Supported},
		{"The college was rated gold by the Teaching Excellence Framework (T.E.F.) in 2019.", source.Supported},
		{"The Grand Jury (GJ) heard the case in 2019.", source.Undecided},
		{"The college was rated gold by the Teaching Excellence Framework (TFE) in 2019.", flagged},
		{"The Federal Security Service (KGB) opened an office in Leeds in 2019.", flagged},
		{"The college was rated gold by the Research Excellence Framework (REF) in 2019.", flagged},
		{"The college was rated gold by TEF in 2019.", flagged},
	}
	checkVerdicts(t, ix, tests, upperName, nil)
}

// upperName picks a sentence's first name written in capitals and dots
// only ("TEF", "T.E.F.").
func upperName(cs []claim.Claim) *claim.Claim {
	for i := range cs {
		if cs[i].Kind == claim.Name && strings.Trim(cs[i].Text, "ABCDEFGHIJKLMNOPQRSTUVWXYZ.") == "" {
			return &cs[i]
		}
	}
	return nil
}
