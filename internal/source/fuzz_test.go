package source_test

import (
	"strings"
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
		"The Grand Jury of the United States Army met the Prime Minister of Saudi Arabia. United States United",
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

// FuzzOtherForms checks the rules that read a page's other forms (ages,
// names with other accents, a year inside a span of years, a number
// against a bound or an estimate, a name's word forms, a name by its bare
// head, a term of common words, a synonym WordNet gives, a name
// hyphenated, a span's end year, an adjective of a place) on any page and any sentence: they never
// panic, a supported claim has its evidence, and an undecided one that
// says why quotes a passage of the page, but for a term of common words,
// undecided for what it is.
func FuzzOtherForms(f *testing.F) {
	for _, s := range [][2]string{
		{"Retired judge Mara Quill dies at 83\nBy Ona Vey on June 9, 2021\nThe board met Tuesday night.", "The jurist passed away at the age of 83. The board met on June 8, 2021."},
		{"The 44-year-old joined in 2009. Why May 14th matters. In 1987 it opened.", "Rook, at 44, left on May 14, 1987."},
		{"A neo-Fascist banner. The Cup was awarded on 3 March 2015.", "Fascism rose in March of the same year."},
		{"-- - -ism neo- -year-old aged 999 at age", "Aged 0, at 1, a 2-years-old Ism in February of that year on February 30, 2021."},
		{"", "on December 31, 9999 at the age of 1e9"},
		{"Montréal, Zürich, ßÆœ-Łódź and São Paulo.", "Montreal, Zurich, SSAEOE-Lodz, Sao Paulo and Ǆ."},
		{"He was mayor from 1990 to 1995. Between May 1870 and 1880 it grew. 1999–05, 2001-2 and 2010 and 2012.", "He was mayor in 1993. It grew in 1875, 2003 and 2011."},
		{"from 9999 to 1000 between 1000 and and 2000 1990-", "In 1995 and 1500 and 2001."},
		{"It opened on October 6, 1995. February 29, 2001.", "On Friday, October 6, 1995, Monday, October 6, 1995, Thursday, February 29, 2001 and Friday , , 6 Oct 0001."},
		{"The fair runs May 11-22. Aug. 25 - April 1, 2018. March 3–9, 2016. May 31-32, Dec 1 to 1 0", "It opened on May 19, 2016, on August 30, 2017 and March 5, 2016, and May 31."},
		{"It grossed over $100 million. Fewer than 300 came. About 12,000 lived there. Nearly $1.8 billion moved.", "It grossed $105 million, 250 came, 12,345 lived there and over $1.75 billion moved."},
		{"over 0 under -5 about about 1e308 up to", "It was over 0.5 and 1e309 and under -3."},
		{"The choir of St. Brenna's Church. Mt. Tarrow. Corlan United F.C. Acme Corp.", "Saint Brenna's Church, Mount Tarrow, Corlan United and Acme Corporation Inc. St. St."},
		{"Posted July 19, 2019\nThe fest runs from Aug. 28 to Sept. 7.\nThe Tamsin Conference will start Sunday.", "The fest is in August 2019. The Tamsin Conference starts on 21 July and on February 29, 2019."},
		{"December 31, 9999\nOn Jan. 1 and Sunday.", "On January 1, 10000, Sunday, January 2, 9999 and 31 December."},
		{"It came out on Harvest Day. The Northern Grand Prix. Day Day. U.S. Harvest Day", "The Tolby County Harvest Day, the Southern Grand Prix, A B Day Day and U.S. Harvest Day Harvest Day."},
		{"The American army met Saudi ministers. The Prime Minister came.", "The Grand Jury, the Grand Juries, a Bachelor of Arts, the Foreign Minister, the United States Army and Ministers of Saudi Arabia Saudi Arabia."},
		{"She served in the Great War. He took a Ph.D. at Ely. The Great War Memorial. MacArthur. Great War", "World War I, World War II, the First World War, a PhD, World War I I, Douglas MacArthur and World War  I."},
		{"Marie-Luce Weekly. A-B-C-D. The 2016–17 season. 1999-00. 2019–2", "Marie Luce Weekly, A B C D, in 2017, in 2000, in 2019."},
		{"The 2016–17 season. It was rebuilt 1962–68. From Sept. 3, 1990 to may 1995. Between Jun 2 1871 and Dec. 1880. Then 1999 to 20", "In 2017, in 1965, in 1993, in 1875 and in 1999."},
		{"In World War II Queen Elizabeth II's barge sank. WWI. Henry VI. In London I met Pius X", "World War I, Elizabeth I's barge, World War II and Henry V. In London I saw Pius X I."},
		{"Tin mines of Cornwall. Florentine bankers. Salvadoran farmers. Soviet", "A Cornish mine, Bankers of Florence, El Salvador, the Soviet Union and Cornish Cornish."},
		{"Born in Shizuoka. Cork. Kyoto University. Bihar, Anhui", "Shizuoka Prefecture, County Cork, Province of Anhui, Kyoto Prefecture, Bihār State, Prefecture, County of, Cork County."},
		{"Prince Harry, Duke of Sussex. Tom Kell was knighted. The Duke of Kent.", "Prince Harry, Duke of Cornwall; Tom Kell was appointed Knight Commander of the Order of the British Empire (KBE). Grand Duke of, Duke of of The, , Duke of X"},
		{"The new Zeta-ray disc. A Tolby-based band. After five years and a hit like 3 Sparrows. Zeta-", "A Zeta-ray edition, a Tolby-led band, a Zeta- -ray, three years, 3 goals, 5 years and Zeta-Ray."},
		{"The Teaching Excellence Framework. T.E.F", "The Teaching Excellence Framework (TEF), the (T.E.F.), (TEF, Framework (F) and A (AAAAAAAAA) ()."},
		// A value the sentence gives its other part (own-value).
		{"Ada Lenk led the Tolby choir from 1997 to 2003.", "After Ona Vey retired in 1996, Ada Lenk led the Tolby choir from 1997 to 2003, on Sunday rather than Saturday."},
		{"Posted: Dec 31, 9999\nThe board said this week and last month and TODAY it voted.\nThe hall is 108 metres long.", "In December the board said it voted. On January 2 the board voted. The hall is 355 feet (108 m) long, 1 ft (0 m) and 0 m (0 ft)."},
		{"Posted: Jan 1, 1500\nThe board voted last week and yesterday.", "In December the board voted on December 31, 1499."},
		{"The film grossed $45.3 million. It grossed over 0 and 1e308 and about -5 dollars.", "The film grossed over $45 million, about 0, nearly 1e309 and under -3 dollars."},
		// A name of dotted initials by its capitals (undotted).
		{"Some US adults. TELL US MORE. UKIP. US", "The U.S. adults, the U.K., Washington, D.C., A.B.C.D.E. and U.S and U."},
		// A word after an elided particle (elision).
		{"Côte d'Ivoire, d’Arc, l'X, dell'Orto, d'', d'ab-c, O'Brien", "Cote d’Ivoire, Arc, X, Orto, Brien and d' and l'Ab."},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, page, text string) {
		x, err := source.Build(source.Doc{ID: "p", Content: page})
		if err != nil {
			return
		}
		ix := source.NewIndex(x)
		for _, c := range claim.Extract(text, "").Claims {
			v := ix.Check(c)
			if v.Status == source.Supported && c.Kind != claim.Negation && v.Evidence == nil {
				t.Fatalf("%s %q supported without evidence", c.Kind, c.Text)
			}
			// A term of common words ("Grand Jury") is undecided for
			// what it is, not for a passage: its Why quotes none.
			generic := v.Evidence == nil && strings.Contains(v.Why, "term of English")
			if v.Status == source.Undecided && v.Why != "" && !generic && (v.Evidence == nil || !strings.Contains(page, strings.TrimSpace(v.Evidence.Text[:min(len(v.Evidence.Text), 8)]))) {
				t.Fatalf("%s %q undecided (%s) without a passage of the page", c.Kind, c.Text, v.Why)
			}
		}
	})
}

// FuzzUncovered checks the coverage of any sentence against any page: it
// never panics, counts no more words found than it has, and names every
// word it did not find.
func FuzzUncovered(f *testing.F) {
	for _, s := range [][3]string{
		{"The heap overflow in libfoo was reported in February.", "The libfoo flaw lets attackers run arbitrary code remotely.", ""},
		{"Ovi: Israel was great! Sun every day.", "The speakers are playing a guessing game about jobs and titles.", ""},
		{"Hi", "It also includes a long conversation between two women about many topics.", "The document is a podcast."},
		{"", "Ǆ ǅ ǆ 123 4.5 -- '' ’s neo- a b c d e f g", "\x00"},
	} {
		f.Add(s[0], s[1], s[2])
	}
	f.Fuzz(func(t *testing.T, page, sentence, prev string) {
		x, err := source.Build(source.Doc{ID: "p", Content: page})
		if err != nil {
			return
		}
		cv, ok := source.NewIndex(x).Uncovered(sentence, prev)
		if !ok {
			return
		}
		if cv.Found < 0 || cv.Found*4 >= cv.Words || len(cv.Missing) != cv.Words-cv.Found {
			t.Fatalf("coverage %+v of %q", cv, sentence)
		}
		for _, w := range cv.Missing {
			if !strings.Contains(sentence, w) {
				t.Fatalf("missing word %q not in %q", w, sentence)
			}
		}
	})
}
