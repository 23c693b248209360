package claim_test

import (
	"math"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/agentjudge/judge/internal/claim"
)

// FuzzExtract checks that extraction never panics and that every claim's
// span, line and column point at its text.
func FuzzExtract(f *testing.F) {
	for _, s := range []string{
		"CVE-2024-12345 has a CVSS score of 9.8 and affects versions prior to 1.24.0.",
		"Discovered by Alice Smith in March 2024, according to NVD.",
		"$5bn, 45%, seven people, 1:34 PM, 2024-02-13, https://x.test/a, a@b.co, /etc/x/y",
		"He wasn't happy.\nNo one came. 1.2 to 1.5 >= 2.0",
		"", ".", "\x00\xff", "May May May 31st", "1,000,000.5 bn",
		"The Tolby Ministry of Defence's Centre organised colourful programmes in kilometres.",
		"A Merlin-powered Tolby Sea Hawk, the London-based X-ed Y, A-led B-c D-ing- E Kim Jong-un Hall and Tolby-based-",
		"the U.S Presidential Election Day", "to the U.S. The D.C. office", "A.B.C. D. E.F.", "U.S.\tThe X.Y.",
		"In 1558 Elizabeth I became queen. In London I met him. World War I, Henry V's I", "Finally I don’t I'm I’ve Bob I I",
		"I", "A I", "The I. X I\tV I's, In I", "Tolby I don’t. Tolby I 9 Tolby I—",
		"31.12.2009 12/31/2009 2009/12/31 1.2.31.12.2009 05/04/2010 version 1.12.2009 0/0/2000 31.12/2009-",
		"Ada F. Lenk, P. Q. R. Orwin, Gen. Lt. Col. Ona Vey. St. Tolby St. Police I. A. B. Gen. the X. Y.\tZ. Dr.",
		"\"The Sunday Courier\" the Monday Ledger, Grey Friday; a Friday Club. On Sunday March 5 “Tuesday X the Sunday the Sunday", "Good Friday", "the Sunday ", "In March Ona Vey left. On Friday Tolby Council May June X. Sunday Sunday Times Mays",
		"forty-fourth Twenty-First ninety-ninthly sixty- seventy-fifths thirty-first-", "twenty-",
		"Dubbed the Tolby Giant, it stood. In Tolby the Marlow Club met. Alfred the Great. the the The X the Y Z",
		"Finally the\tA B the C the D E the", "United States Army Rifle Unit", "Unit Unit United Un U",
		"May 11-22, March 3–9, 2016, Aug. 25 - April 1, 2018, June 2 to 5 2019, May 22-11, Dec. 30–31 9999, Jan 1-99", "May 1-", "October 6 of 1995, Oct. 6th of of 1995",
		"355 feet (108 m), 390 ft (120 m; 0 mi) 180,000 sq ft (17,000 m) 95 °F (35 °C) 1 (1 ft) 0 m (0 ft) 2 ft (",
		"£5 million ($6.5 million), 5 million euros (US$5.6 million), ¥1 billion (about $9 million), $0 (£0) 1 euros ( $",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		set := claim.Extract(s, "")
		for _, c := range set.Claims {
			if c.Start < 0 || c.End > len(s) || c.Start > c.End || s[c.Start:c.End] != c.Text {
				t.Fatalf("claim %+v: bad span in %q", c, s)
			}
			if c.Line < 1 || c.Col < 1 {
				t.Fatalf("claim %+v: bad position", c)
			}
			if utf8.ValidString(s) && !utf8.ValidString(c.Location()) {
				t.Fatalf("location %q is not UTF-8", c.Location())
			}
			// A name's span holds its words, no fewer ("Unit" of
			// "United States Army Rifle Unit" was one).
			if tf := strings.Join(strings.Fields(strings.ToLower(c.Text)), " "); c.Kind == claim.Name && tf != c.Value {
				t.Fatalf("name %q is written otherwise than its value %q", c.Text, c.Value)
			}
			// A number's rounding is a finite step, and its digits are
			// counted only where it has one.
			if u, d := claim.Rounding(c); math.IsNaN(u) || math.IsInf(u, 0) || u < 0 || d < 0 || (u == 0) != (d == 0) {
				t.Fatalf("claim %q rounds to %v with %d digits", c.Text, u, d)
			}
			// A conversion is another number of the text, linked back
			// and to nothing else.
			if o := c.Converted; o != nil && (c.Kind != claim.Number || o.Kind != claim.Number || o.Converted != nil ||
				o.Start < 0 || o.End > len(s) || s[o.Start:o.End] != o.Text || o.Start < c.End && o.End > c.Start) {
				t.Fatalf("claim %q has the conversion %+v", c.Text, *o)
			}
			// Every other form of a name keeps a word of it, and is
			// not the name itself.
			for _, alt := range c.Alternatives() {
				if alt.Kind != claim.Name || strings.TrimSpace(alt.Text) == "" || alt.Text == c.Text {
					t.Fatalf("alternative %q of %q", alt.Text, c.Text)
				}
			}
		}
	})
}

// FuzzNameForms checks that the other forms of any text (WordForms) are
// never empty, never the text itself, and never repeated.
func FuzzNameForms(f *testing.F) {
	for _, s := range []string{"St. Mary's", "Manchester United F.C.", "& &", "and", "A and", "Inc", "st St ST st.", "Ona Vey Jr.", "Jr. Sr.", "A B Sr"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for name, forms := range map[string]func(string) []string{"WordForms": claim.WordForms} {
			seen := map[string]bool{}
			for _, form := range forms(s) {
				if strings.TrimSpace(form) == "" || form == s || seen[form] {
					t.Fatalf("%s(%q) gives %q", name, s, form)
				}
				seen[form] = true
			}
		}
	})
}

// FuzzNumerals checks that the numeral keys of any text are each a stem
// and a numeral of one letter, that the text holds that numeral in
// capitals after a space or tab, and that extraction of the same text
// never ends a name with a pronoun contraction.
func FuzzNumerals(f *testing.F) {
	for _, s := range []string{"World War I", "King Henry V's army", "In London I met him", "I", " I", "A\tX", "Ǆ I", "É V’s", "I'm X. V"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, k := range claim.Numerals(s) {
			w, n, ok := strings.Cut(k, " ")
			if !ok || w == "" || (n != "i" && n != "v" && n != "x") {
				t.Fatalf("Numerals(%q) gives %q", s, k)
			}
			if up := strings.ToUpper(n); !strings.Contains(s, " "+up) && !strings.Contains(s, "\t"+up) {
				t.Fatalf("Numerals(%q) gives %q, which s does not hold", s, k)
			}
		}
		for _, c := range claim.Extract(s, "").Claims {
			if f := strings.Fields(c.Text); c.Kind == claim.Name && len(f) > 1 {
				switch strings.ReplaceAll(f[len(f)-1], "’", "'") {
				case "I'm", "I've", "I'd", "I'll":
					t.Fatalf("name %q of %q ends with the pronoun", c.Text, s)
				}
			}
		}
	})
}

// FuzzLetters checks that the letter keys of any text are each a word and
// a letter from a to z, that the text holds that letter in capitals after
// a space or tab, that they hold the numeral keys, and that a name's final
// letter key is a key of the name read as a passage.
func FuzzLetters(f *testing.F) {
	for _, s := range []string{"Vitamin D", "Hepatitis B's spread", "vitamin D, World War I", "Plan B-rich", "A\tZ", "Ǆ Q", "É D’s", "Washington D.C."} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		keys := claim.Letters(s)
		for _, k := range keys {
			w, l, ok := strings.Cut(k, " ")
			if !ok || w == "" || len(l) != 1 || l[0] < 'a' || l[0] > 'z' {
				t.Fatalf("Letters(%q) gives %q", s, k)
			}
			if up := strings.ToUpper(l); !strings.Contains(s, " "+up) && !strings.Contains(s, "\t"+up) {
				t.Fatalf("Letters(%q) gives %q, which s does not hold", s, k)
			}
		}
		for _, k := range claim.Numerals(s) {
			if !slices.Contains(keys, k) {
				t.Fatalf("Letters(%q) = %q lacks the numeral key %q", s, keys, k)
			}
		}
		if k := claim.FinalLetter(s); k != "" && !slices.Contains(keys, k) {
			t.Fatalf("Letters(%q) = %q lacks the final letter key %q", s, keys, k)
		}
	})
}
