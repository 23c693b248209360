package claim_test

import (
	"strings"
	"testing"

	"github.com/agentjudge/judge/internal/claim"
	"github.com/agentjudge/judge/internal/jsonvalue"
)

// want is one expected claim: "kind|text|value|location".
func TestExtract(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		text string
		want []string
	}{
		{"cve summary", "CVE-2024-12345 has a CVSS score of 9.8. It affects versions prior to 1.24.0. It was discovered by Alice Smith in March 2024.", []string{
			"cve|CVE-2024-12345|CVE-2024-12345|s",
			"name|CVSS|cvss|s",
			"number|9.8|9.8|s:cvss_score",
			"version_range|prior to 1.24.0|<1.24.0|s:affected_versions",
			"name|Alice Smith|alice smith|s:discoverer",
			"date|March 2024|2024-03-?|s:discovery_date",
		}},
		{"identifiers", "Mail sec@example.org, see https://example.org/a/b?x=1. and edit /etc/app/conf.yaml or src/main.go.", []string{
			"email|sec@example.org|sec@example.org|s",
			"url|https://example.org/a/b?x=1|https://example.org/a/b?x=1|s",
			"path|/etc/app/conf.yaml|/etc/app/conf.yaml|s",
			"path|src/main.go|src/main.go|s",
		}},
		{"quantities", "They spread 170 litres of paint, raised $5bn and grew 45% with seven people.", []string{
			"number|170|170 litre|s",
			"number|$5bn|5000000000 $|s",
			"number|45%|45 %|s",
			"number|seven|7 people|s",
		}},
		{"dates and times", "On June 26th the train leaves at 1:34 PM; on 2024-02-13 and Feb. 24, 2022 too, and on Thursday.", []string{
			"date|June 26th|?-06-26|s",
			"time|1:34 PM|13:34|s:train_leaves",
			"date|2024-02-13|2024-02-13|s",
			"date|Feb. 24, 2022|2022-02-24|s",
			"date|Thursday|weekday:thursday|s",
		}},
		{"ranges", "Fixed in v2.3.1; versions 1.2 to 1.5 and >= 2.0 are affected, up to 3.1 too.", []string{
			"version|v2.3.1|2.3.1|s",
			"version_range|1.2 to 1.5|>=1.2,<=1.5|s:affected_versions",
			"version_range|>= 2.0|>=2.0|s:affected_versions",
			"version_range|up to 3.1|<=3.1|s",
		}},
		{"negation and citation", "Sam was not happy, according to NVD.", []string{
			"negation|not|happy|s",
			"citation|NVD|nvd|s",
		}},
		{"colours and joined units", "Yellow and blue paint on the one-year anniversary.", []string{
			"color|Yellow|yellow|s",
			"color|blue|blue|s",
			"number|one|1 year|s",
		}},
		{"may is a verb", "It may rain. We met in May.", []string{"date|May|?-05-?|s"}},
		{"sentence-initial common word", "Published on the site. Affected users wait.", nil},
		{"sentence-initial name said again", "Sam left. Then Sam came back. Shares fell.", []string{"name|Sam|sam|s", "name|Sam|sam|s"}},
		{"hyphenated description", "It is a new Sims-based podcast. It has Russia-backed fans. It reads Anglo-Saxon poems.", []string{
			"name|Sims|sims|s",
			"name|Russia|russia|s",
			"name|Anglo-Saxon|anglo-saxon|s",
		}},
		{"dotted abbreviation in a name", "It was the U.S Presidential Election Day. He moved to the U.S. The D.C. office shut. I read The A.V. Club.", []string{
			"name|U.S Presidential Election Day|u.s presidential election day|s",
			"name|U.S|u.s|s",
			"name|D.C|d.c|s",
			"name|A.V. Club|a.v. club|s",
		}},
		{"empty", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			set := claim.Extract(tt.text, "s")
			var got []string
			for _, c := range set.Claims {
				if tt.text[c.Start:c.End] != c.Text {
					t.Errorf("span %d:%d is %q, Text %q", c.Start, c.End, tt.text[c.Start:c.End], c.Text)
				}
				got = append(got, strings.Join([]string{string(c.Kind), c.Text, c.Value, c.Location()}, "|"))
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

func TestCertainty(t *testing.T) {
	t.Parallel()
	set := claim.Extract("The flaw is definitely in version 2.4.1. Indefinitely 3.0.1.", "")
	if len(set.Claims) != 2 || !set.Claims[0].Certain || set.Claims[0].CertainWord != "definitely" || set.Claims[1].Certain {
		t.Fatalf("claims %+v", set.Claims)
	}
	if loc := set.Claims[1].Location(); loc != "line:1" {
		t.Errorf("location of a text claim = %q, want line:1", loc)
	}
}

func TestFromOutput(t *testing.T) {
	t.Parallel()
	v, err := jsonvalue.Decode([]byte(`{"vuln": {"cvss_score": 9.8, "discoverer": "Alice Smith", "notes": ["Fixed in 1.24.1 on March 3, 2024."]}}`), 0)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range claim.FromOutput(v).Claims {
		got = append(got, string(c.Kind)+"|"+c.Value+"|"+c.Location())
	}
	want := []string{"number|9.8|vuln.cvss_score", "name|alice smith|vuln.discoverer", "version|1.24.1|vuln.notes[0]", "date|2024-03-03|vuln.notes[0]:fix_date"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// A number that is a whole field's value is named by the field as
	// written, not by a capitalised key ("Sla hours 8 not found").
	if c := claim.FromOutput(v).Claims[0]; c.Subject() != "Field 'vuln.cvss_score' value" {
		t.Errorf("subject of a field's number = %q", c.Subject())
	}
	if s := claim.FromOutput("It is one.\nIt costs $3."); len(s.Claims) != 1 || s.Claims[0].Location() != "line:2" {
		t.Errorf("text output: %+v", s.Claims)
	}
}

func TestLimits(t *testing.T) {
	t.Parallel()
	set := claim.Extract(strings.Repeat("1 ", claim.MaxClaims+10), "")
	if !set.Truncated || len(set.Claims) != claim.MaxClaims {
		t.Errorf("truncated %v with %d claims", set.Truncated, len(set.Claims))
	}
}

func TestDateValue(t *testing.T) {
	t.Parallel()
	feb, _ := claim.ParseDate("2024-02-?")
	mar, _ := claim.ParseDate("2024-03-?")
	if feb.Agrees(mar) || strings.Join(feb.Disagree(mar), ",") != "month" || feb.Human() != "February 2024" {
		t.Errorf("feb %+v vs mar %+v", feb, mar)
	}
	if _, ok := claim.ParseDate("x"); ok {
		t.Error("ParseDate(x) ok")
	}
}
