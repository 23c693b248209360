package claim

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// A capital "I" right after a word of a name is either the name's Roman
// numeral ("World War I", "Elizabeth I") or the pronoun ("In London I met
// him"). The pronoun is a clause's subject, so a verb must follow it, and
// something must stand before it in its clause that is not its subject:
// where the grammar rules the pronoun out, the "I" is the numeral and part
// of the name; where it allows both readings it is left out, as a missed
// numeral costs less than a pronoun taken into a name (a name no source
// writes, flagged).

// leadArticles are the function words a name's run may start with and
// still begin its clause as its subject ("The Great War I ...").
var leadArticles = setOf(`the a an`)

// afterNumeral are the words that may follow a name's numeral but never
// the subject pronoun "I" directly: articles and determiners, possessives
// and personal pronouns, prepositions, coordinators and relative
// pronouns ("World War I and II", "Charles I of England", "during World
// War I he served").
var afterNumeral = setOf(`the a an this that these those my your his her its our their he she it we they you him them us me
of in on at to from by with for during after before until till since into onto through throughout against between under
over about within without among amid across upon toward towards via per alongside beyond near behind beside besides
despite inside outside around along as and or nor but who whom whose which`)

// pronounVerbs are verbs in a form the pronoun "I" takes and a name as
// subject does not (it would take "thinks", "has", "is"): "John I think
// is right" gives the pronoun whatever stands before the name.
var pronounVerbs = setOf(`am have do don't haven't think believe guess hope know mean want need feel say recommend
suggest agree disagree wonder suppose remember understand prefer wish expect assume reckon doubt bet promise imagine`)

// pronounContraction reports whether w is the pronoun "I" contracted with
// a verb ("I'm", "I've", "I'd", "I'll"), never a word of a name.
func pronounContraction(w string) bool {
	for _, q := range []string{"'", "’"} {
		if rest, ok := strings.CutPrefix(w, "I"+q); ok {
			switch rest {
			case "m", "ve", "d", "ll":
				return true
			}
		}
	}
	return false
}

// numeralI reports whether the "I" ending the name run [run, e) is the
// name's Roman numeral, the run's words before it being before (from s,
// past the function words dropped, only articles when articles is set).
// It is when the word before it is a word of a name and the pronoun is
// ruled out:
//   - no word follows, or a number or a punctuation mark does ("She
//     served in World War I."): the pronoun needs its verb;
//   - a word follows that never follows the subject pronoun
//     (afterNumeral: "World War I and II", "Charles I of England");
//   - the run begins its clause ("Elizabeth I ruled", "In 1603, Elizabeth
//     I died"), so it is the subject itself, unless it is one word
//     starting a sentence that the extractor would not take as a name
//     alone ("Finally I went") or starts with a common word that starts
//     sentences ("Thanks Bob I will");
//   - a number ends the phrase before it ("In 1558 Elizabeth I became
//     queen"): that phrase was fronted, the name is the subject.
//
// A verb only the pronoun takes after it ("John I think") gives the
// pronoun whatever the rest.
func (x *extractor) numeralI(run, s, e int, before []string, articles bool) bool {
	w := before[len(before)-1]
	if lw := strings.ToLower(w); (stopwords[lw] || particles[lw] || negators[lw]) && !isAcronym(w) {
		return false
	}
	if len(before) == 1 && x.sentenceInitial(s) && (commonInitial(strings.ToLower(w)) || !x.capitalizedElsewhere(w)) {
		return false
	}
	rest := strings.TrimLeft(x.text[e:], " \t")
	next := firstWord(rest)
	if pronounVerbs[next] || pronounVerbs[withContraction(rest, next)] {
		return false
	}
	if r, _ := utf8.DecodeRuneInString(rest); rest == "" || !unicode.IsLetter(r) || afterNumeral[next] {
		return true
	}
	if articles && x.clauseInitial(run) && !(x.sentenceInitial(s) && commonInitial(strings.ToLower(before[0]))) {
		return true // not after a common word starting the sentence ("Thanks Bob I will")
	}
	prev := strings.TrimRight(x.text[:run], " \t")
	return prev != "" && isDigit(prev[len(prev)-1])
}

// withContraction returns word, the first word of rest, with the "'t"
// that follows it in rest ("don't" of "don’t know"), or "".
func withContraction(rest, word string) string {
	after := rest[len(word):]
	for _, q := range []string{"'t", "’t"} {
		if strings.HasPrefix(after, q) && word != "" {
			return word + "'t"
		}
	}
	return ""
}

// clauseInitial reports whether offset s starts a clause: a sentence, or
// the text after a comma, semicolon, colon, dash or opening bracket.
func (x *extractor) clauseInitial(s int) bool {
	if x.sentenceInitial(s) {
		return true
	}
	before := strings.TrimRight(x.text[:s], " \t\"'“‘")
	for _, p := range []string{",", ";", "(", "—", "–"} {
		if strings.HasSuffix(before, p) {
			return true
		}
	}
	return false
}

// Numerals returns, for each Roman numeral of one letter in s ("I", "V",
// "X", in capitals) right after a capitalized word with only spaces
// between, that word's stem and the numeral in lower case ("war i" of
// "World War I", "henry v" of "King Henry V's"). ContentWords leaves such
// a numeral out, being one letter, so a name's numeral is matched by this
// key: "World War I" is not stated by "World War II", nor "Henry V" by
// "Henry VI". A pronoun "I" after a name gives a key too ("london i" of
// "In London I met him"), which only a claim of that name looks up.
func Numerals(s string) []string {
	if !mayHoldNumeral(s) {
		return nil
	}
	return letterKeys(s, true)
}

// RomanNumeral reports whether w is a Roman numeral from I to XXXIX
// written in capitals ("II", "VIII", "XIV").
func RomanNumeral(w string) bool {
	if w == "" {
		return false
	}
	rest := w
	for range 3 {
		rest = strings.TrimPrefix(rest, "X")
	}
	switch {
	case rest == "IX" || rest == "IV":
		return true
	case strings.HasPrefix(rest, "V"):
		rest = rest[1:]
	}
	return len(rest) <= 3 && strings.Trim(rest, "I") == ""
}

// mayHoldNumeral reports whether s has an "I", "V" or "X" after a space
// or tab and not before an ASCII letter or digit: whether Numerals need
// read its words at all.
func mayHoldNumeral(s string) bool {
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case 'I', 'V', 'X':
			if (s[i-1] == ' ' || s[i-1] == '\t') && (i+1 == len(s) || !isASCIIWordByte(s[i+1])) {
				return true
			}
		}
	}
	return false
}

func isASCIIWordByte(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}

// FinalLetter returns, for a name ending in a capital letter standing
// alone after a word of it ("Vitamin D", "Plan B", "Hepatitis B"), that
// word's stem and the letter in lower case ("vitamin d"), and "" for any
// other name. The letter is what tells the name from its siblings ("Vitamin
// C", "Plan A"), and ContentWords leaves it out, being one letter, so a name
// looks it up by this key, as [Numerals] does a numeral. "I", "V" and "X"
// are left to Numerals.
func FinalLetter(name string) string {
	name = strings.TrimSuffix(strings.TrimSuffix(name, "'s"), "’s")
	n := len(name)
	if n < 3 || name[n-1] < 'A' || name[n-1] > 'Z' || name[n-2] != ' ' && name[n-2] != '\t' {
		return ""
	}
	switch name[n-1] {
	case 'I', 'V', 'X':
		return ""
	}
	// The key is Letters' for the letter: the one the name's last letter adds.
	keys := Letters(name)
	if len(keys) == 0 || len(keys) == len(Letters(name[:n-1])) {
		return ""
	}
	return keys[len(keys)-1]
}

// Letters returns the keys a passage is indexed by for the capital letters
// standing alone in s: for each word of one capital letter ("I", "D") right
// after another word with only spaces between, that word's stem and the
// letter in lower case ("war i", "vitamin d"). It holds the keys of
// [Numerals] and those [FinalLetter] gives for any name of s, and more
// (a letter after a word in lower case, "vitamin D"), which only a claim
// of that name looks up.
func Letters(s string) []string {
	if !mayHoldLetter(s) {
		return nil
	}
	return letterKeys(s, false)
}

// letterKeys returns the keys of [Letters], or of [Numerals] when
// numerals is set: for each word of one capital letter right after another
// word with only spaces or tabs between, that word's stem and the letter
// in lower case. The word before is any but a function word; with
// numerals, only "I", "V" and "X" count, after a capitalized word.
func letterKeys(s string, numerals bool) []string {
	var out []string
	prev, prevEnd := "", -1
	WordsFunc(s, func(w string, start, end int) {
		letter := len(w) == 1
		if numerals {
			letter = w == "i" || w == "v" || w == "x"
		}
		if letter && prev != "" && start > prevEnd && strings.Trim(s[prevEnd:start], " \t") == "" &&
			s[start] >= 'A' && s[start] <= 'Z' {
			out = append(out, Stem(prev)+" "+w)
		}
		prev, prevEnd = "", end
		if stopwords[w] {
			return
		}
		if r, _ := utf8.DecodeRuneInString(s[start:]); !numerals || unicode.IsUpper(r) {
			prev = w
		}
	})
	return out
}

// mayHoldLetter reports whether s has an ASCII capital letter after a
// space or tab and not before an ASCII letter or digit: whether Letters
// need read its words at all.
func mayHoldLetter(s string) bool {
	for i := 1; i < len(s); i++ {
		if s[i] >= 'A' && s[i] <= 'Z' && (s[i-1] == ' ' || s[i-1] == '\t') && (i+1 == len(s) || !isASCIIWordByte(s[i+1])) {
			return true
		}
	}
	return false
}
