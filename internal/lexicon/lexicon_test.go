package lexicon_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/agentjudge/judge/internal/claim"
	"github.com/agentjudge/judge/internal/lexicon"
)

func TestAntonyms(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ word, antonym string }{
		{"increase", "decreased"}, {"happy", "unhappy"}, {"rises", "fall"}, {"win", "lose"}, {"accepted", "rejected"},
	} {
		if got := lexicon.Antonyms(claim.Stem(tt.word)); !slices.Contains(got, claim.Stem(tt.antonym)) {
			t.Errorf("Antonyms(%s) = %v, want %s among them", tt.word, got, claim.Stem(tt.antonym))
		}
	}
	if got := lexicon.Antonyms(claim.Stem("table")); len(got) != 0 {
		t.Errorf("table has antonyms %v", got)
	}
	if n := lexicon.Pairs(); n < 3000 {
		t.Errorf("only %d words with antonyms: the embedded data is incomplete", n)
	}
}

func TestTerm(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		words string
		want  bool
	}{
		{"Grand Jury", true}, {"Bachelor of Arts", true}, {"prime minister", true}, {"Prime Ministers", true}, {"High School", true},
		{"Grand Street", false},        // not a term
		{"Supreme Court", false},       // "Supreme" is also capitalized
		{"American Revolution", false}, // an instance, and a proper word
		{"Paris Review", false}, {"Jury", false}, {"", false},
	} {
		if got := lexicon.Term(strings.Fields(tt.words)); got != tt.want {
			t.Errorf("Term(%q) = %v, want %v", tt.words, got, tt.want)
		}
	}
	if n := lexicon.Terms(); n < 3000 {
		t.Errorf("only %d terms: the embedded data is incomplete", n)
	}
}

func TestSynonyms(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name string
		want string // one synonym among those given, or "" for none
	}{
		{"Great War", "World War I"}, {"world war i", "First World War"}, {"PhD", "Ph.D."},
		{"United States of America", "U.S.A."}, {"Douglas MacArthur", "MacArthur"},
		{"Georgia", ""},       // a state and a country
		{"Lincoln", ""},       // a city and a president
		{"World War", ""},     // a common noun
		{"Turdus merula", ""}, // the Latin name of a bird
		{"", ""},
	} {
		got := lexicon.Synonyms(tt.name)
		if tt.want == "" && len(got) != 0 || tt.want != "" && !slices.Contains(got, tt.want) {
			t.Errorf("Synonyms(%q) = %q, want %q", tt.name, got, tt.want)
		}
		if slices.ContainsFunc(got, func(s string) bool { return strings.EqualFold(s, tt.name) }) {
			t.Errorf("Synonyms(%q) = %q holds the name itself", tt.name, got)
		}
	}
	if n := lexicon.SynonymSets(); n < 10000 {
		t.Errorf("only %d names with synonyms: the embedded data is incomplete", n)
	}
}

func TestDemonyms(t *testing.T) {
	t.Parallel()
	got := lexicon.Demonyms()
	for _, want := range []lexicon.Demonym{{"Cornish", "Cornwall"}, {"Florentine", "Florence"}, {"Salvadoran", "El Salvador"}, {"Texan", "Texas"}} {
		if !slices.Contains(got, want) {
			t.Errorf("Demonyms() lacks %v", want)
		}
	}
	for _, d := range got {
		if strings.Contains(d.Adjective, " ") || d.Adjective == "" || d.Place == "" {
			t.Errorf("Demonyms() holds %v: an adjective of one word and a place are wanted", d)
		}
	}
	if len(got) < 300 {
		t.Errorf("only %d demonyms: the embedded data is incomplete", len(got))
	}
}
