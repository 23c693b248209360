package claim

import "regexp"

// The parts of the name pattern. A name is nameWord, then more of them
// after spaces, each maybe after a particle ("Bank of America", "Ludwig
// van Beethoven").
const (
	nameParticle = `(?:(?:of|de|van|von|der|den|la|le|du|da|del|bin|al|the)[ \t]+)?`
	// nameInitial is a capital letter with its dot before another word of
	// the name: "F. " of "John F. Kennedy", each of "J. R. R. " of "J. R.
	// R. Tolkien". "I." is left out: a name ending in the numeral ends a
	// sentence there ("served in World War I. Churchill said").
	nameInitial = `(?:[A-HJ-Z]\.[ \t]+)*`
	// nameTitle is an abbreviated title or place word with its dot at the
	// start of a name ("Gen. Douglas MacArthur", "Sen. Ada Lenk", "St.
	// Mary Church", "Lt. Col. Ada Lenk"): only there, as "Main St.
	// Police" is a street and then a new sentence.
	nameTitle = `(?:(?:` + titleAbbrevAlt + `)\.[ \t]+)*`
	// titleAbbrevAlt are the abbreviations nameTitle reads; titleAbbrevs
	// holds them for the sentence splitter.
	titleAbbrevAlt = `Mrs|Mr|Ms|Dr|Prof|St|Mt|Ft|Gen|Sen|Rep|Gov|Lt|Col|Capt|Sgt|Maj|Adm|Rev|Hon|Fr`
)

// titleAbbrevs are titleAbbrevAlt's words: written capitalized before a
// capitalized word, their dot does not end a sentence.
var titleAbbrevs = setOf(`Mrs Mr Ms Dr Prof St Mt Ft Gen Sen Rep Gov Lt Col Capt Sgt Maj Adm Rev Hon Fr`)

// nameREs are the name pattern with and without initials (index 1 of the
// first dimension: with) and titles (of the second) read as its words;
// nameREFor picks one, so that internal/ablate can turn either off.
var nameREs = func() (res [2][2]*regexp.Regexp) {
	for i, initial := range []string{"", nameInitial} {
		for j, title := range []string{"", nameTitle} {
			word := initial + nameWord
			res[i][j] = regexp.MustCompile(`\b` + title + word + `(?:[ \t]+` + nameParticle + word + `)*`)
		}
	}
	return res
}()

// nameREFor returns the name pattern reading initials and titles as words
// of a name or not.
func nameREFor(initials, titles bool) *regexp.Regexp {
	i, j := 0, 0
	if initials {
		i = 1
	}
	if titles {
		j = 1
	}
	return nameREs[i][j]
}
