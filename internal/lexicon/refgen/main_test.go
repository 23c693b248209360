package main

import (
	"slices"
	"strings"
	"testing"
)

// nobles is four lines of WordNet 3.0's data.noun (copied from Debian's
// wordnet-base, glosses cut, and aristocrat's pointers shortened to the
// one kept here): aristocrat, male aristocrat below it, nobleman below
// that and count below nobleman; an unrelated synset and two lines that
// do not parse, which are skipped.
const nobles = `  1 This software and database is being provided to you, the LICENSEE, by
09807754 18 n 03 aristocrat 0 blue_blood 0 patrician 0 002 @ 09623038 n 0000 ~ 10285135 n 0000 | a member of the aristocracy
10285135 18 n 01 male_aristocrat 0 002 @ 09807754 n 0000 ~ 10271677 n 0000 | a man who is an aristocrat
10271677 18 n 03 Lord 0 noble 0 nobleman 0 002 @ 10285135 n 0000 ~ 09969218 n 0000 | a titled peer of the realm
09969218 18 n 01 count 0 003 @ 10271677 n 0000 ~ 09969375 n 0000 ~ 10245029 n 0000 | a nobleman (in various countries) having rank equal to a British earl
10026367 18 n 01 don't-know 0 002 @ 10213180 n 0000 ;u 07075172 n 0000 | a person who responds
10026368 18 n zz broken 0
10026369 18 n 01 broken 0 many
`

// TestRanks: the lemmas of aristocrat and of the nouns below it, lower
// case, of one or two words; nothing of the unrelated synset.
func TestRanks(t *testing.T) {
	t.Parallel()
	got := ranks([]byte(nobles))
	slices.Sort(got)
	want := []string{"aristocrat", "blue blood", "count", "lord", "male aristocrat", "noble", "nobleman", "patrician"}
	if !slices.Equal(got, want) {
		t.Errorf("ranks = %q, want %q", got, want)
	}
}

// TestSubdivisions: a subdivision's name with the last word of its type;
// a name in several languages or inverted left out; a word ending three
// names of one type in one country (the type in the country's language)
// also dropped; invalid JSON an error.
func TestSubdivisions(t *testing.T) {
	t.Parallel()
	doc := `{"3166-2": [
		{"code": "JP-22", "name": "Shizuoka", "type": "Prefecture"},
		{"code": "IE-CO", "name": "Cork", "type": "County"},
		{"code": "GB-KEN", "name": "Kent", "type": "Two-tier county"},
		{"code": "CN-AH", "name": "Anhui Sheng", "type": "Province"},
		{"code": "CN-FJ", "name": "Fujian Sheng", "type": "Province"},
		{"code": "CN-GD", "name": "Guangdong Sheng", "type": "Province"},
		{"code": "CN-BJ", "name": "Beijing Shi", "type": "Municipality"},
		{"code": "GB-AGY", "name": "Isle of Anglesey [Sir Ynys Môn GB-YNM]", "type": "Unitary authority"},
		{"code": "RU-AD", "name": "Adygeja, Respublika", "type": "Republic"},
		{"code": "XX-1", "name": "  ", "type": "State"},
		{"code": "XX-2", "name": "Nowhere", "type": ""}
	]}`
	got, err := subdivisions([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(got)
	want := []string{"Anhui Sheng|province", "Anhui|province", "Beijing Shi|municipality", "Cork|county", "Fujian Sheng|province",
		"Fujian|province", "Guangdong Sheng|province", "Guangdong|province", "Kent|county", "Shizuoka|prefecture"}
	if !slices.Equal(got, want) {
		t.Errorf("subdivisions = %q, want %q", got, want)
	}
	if _, err := subdivisions([]byte(`{"3166-2": [`)); err == nil || !strings.Contains(err.Error(), "iso_3166-2") {
		t.Errorf("truncated JSON: error %v, want one naming iso_3166-2", err)
	}
}

// FuzzRanks: any data.noun text gives ranks of one or two lower-case
// words, each once, and never panics.
func FuzzRanks(f *testing.F) {
	f.Add(nobles)
	f.Add("09807754 18 n 01 aristocrat 0 001 ~ 09807754 n 0000\n") // a cycle
	f.Add("09807754 18 n ff")
	f.Fuzz(func(t *testing.T, data string) {
		got := ranks([]byte(data))
		seen := map[string]bool{}
		for _, r := range got {
			if seen[r] || r == "" || strings.ToLower(r) != r || len(strings.Fields(r)) > 2 {
				t.Fatalf("rank %q: duplicate, empty, not lower case or of more than two words", r)
			}
			seen[r] = true
		}
	})
}

// FuzzSubdivisions: any JSON gives lines of a name and a kind, neither
// empty nor holding a "|" or a line break, or an error; never a panic.
func FuzzSubdivisions(f *testing.F) {
	f.Add(`{"3166-2": [{"code": "JP-22", "name": "Shizuoka", "type": "Prefecture"}]}`)
	f.Add(`{"3166-2": [{"code": "CN-AH", "name": "Anhui Sheng", "type": "Province"}, {"code": "CN-FJ", "name": "Fujian Sheng", "type": "Province"}, {"code": "CN-GD", "name": "Guangdong Sheng", "type": "Province"}]}`)
	f.Add(`{"3166-2": [{"name": "a|b", "type": "x\ny"}]}`)
	f.Add(`[]`)
	f.Fuzz(func(t *testing.T, data string) {
		got, err := subdivisions([]byte(data))
		if err != nil {
			if !strings.Contains(err.Error(), "iso_3166-2") {
				t.Fatalf("error %v does not name the file", err)
			}
			return
		}
		for _, l := range got {
			name, kind, ok := strings.Cut(l, "|")
			if !ok || name == "" || kind == "" || strings.Contains(kind, "|") || strings.ContainsAny(l, "\n\r") {
				t.Fatalf("line %q is not name|kind on one line", l)
			}
		}
	})
}
