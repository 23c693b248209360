package source

import (
	"slices"
	"strings"
	"sync"
	"unicode"

	"github.com/agentjudge/judge/internal/ablate"
	"github.com/agentjudge/judge/internal/claim"
	"github.com/agentjudge/judge/internal/lexicon"
)

// findName returns a passage that names c, or nil: one holding every
// word of the name (titles such as "President" may be left out), the same
// name with a nationality for its country or a country for its
// nationality ("Chinese officials" for "officials in China"), the
// initials of a name of several words ("LA" for "Los Angeles"), the name
// with other accents, or with other spacing or punctuation; failing
// those, one that names it in another of its forms
// ([claim.Claim.Alternatives]: "Saint Mary" for "St. Mary", "Manchester
// United" for "Manchester United F.C."), or by another name WordNet gives
// the same one thing ("World War I" for "Great War": findSynonym), tried
// in order. Every layer
// asking [Index.Check] gets the same answer for a name.
func (ix *Index) findName(c claim.Claim) *Passage {
	if p := ix.findNameAs(c); p != nil {
		return p
	}
	for _, alt := range c.Alternatives() {
		if p := ix.findNameAs(alt); p != nil {
			return p
		}
	}
	if p := ix.findDesignated(c); p != nil {
		return p
	}
	if p := ix.findHyphenated(c); p != nil {
		return p
	}
	return ix.findSynonym(c)
}

// findHyphenated returns a passage writing the hyphenated word the
// claim's name was cut from, as the claim's sentence writes it: the
// extractor takes "Blu" from "a Blu-ray edition" and "Tolby" from "a
// Tolby-based band", and a passage saying "Blu-ray" or "Tolby-based"
// states the name (the index keeps a hyphenated word whole, so the name
// alone finds no passage). Another word after the hyphen ("Tolby-led")
// states nothing: that is the part of a hyphenated word, which is not
// enough. Nil when none.
func (ix *Index) findHyphenated(c claim.Claim) *Passage {
	if ablate.Off(ablate.HyphenSame) || c.Text == "" {
		return nil
	}
	i := strings.Index(c.Sentence, c.Text+"-")
	if i < 0 {
		return nil
	}
	rest := c.Sentence[i+len(c.Text)+1:]
	n := strings.IndexFunc(rest, func(r rune) bool { return !unicode.IsLetter(r) })
	if n < 0 {
		n = len(rest)
	}
	suffix := rest[:n]
	if suffix == "" || strings.ToLower(suffix) != suffix {
		return nil
	}
	words := claim.ContentWords(c.Text + "-" + suffix)
	if len(words) == 0 || !strings.Contains(words[len(words)-1], "-") {
		return nil
	}
	return ix.findWords(words)
}

// findNameAs returns a passage that names c as written, in the ways
// findName lists before the other forms.
func (ix *Index) findNameAs(c claim.Claim) *Passage {
	words := claim.ContentWords(c.Text)
	if len(words) == 0 {
		return nil
	}
	var core []string
	for _, w := range words {
		if !titles[w] && (ablate.Off(ablate.TitleDot) || !titleAbbrevs[w]) {
			core = append(core, w)
		}
	}
	if len(core) == 0 {
		core = words
	}
	if !ablate.Off(ablate.Numeral) {
		// "World War I" is not stated by "World War II": its numeral,
		// by the word before it, is a word of the name.
		core = append(core, claim.Numerals(c.Text)...)
		// Nor "Vitamin D" by "Vitamin C": a final letter alone is one too.
		if k := claim.FinalLetter(c.Text); k != "" {
			core = append(core, k)
		}
	}
	for _, form := range nameForms(core) {
		if p := ix.findWords(form); p != nil {
			return p
		}
	}
	if p := ix.findParts(core); p != nil {
		return p
	}
	if p := ix.findInitials(c.Text); p != nil {
		return p
	}
	if p := ix.findUndotted(c.Text); p != nil {
		return p
	}
	if ablate.Off(ablate.Squeezed) {
		return nil
	}
	return ix.findSqueezed(c.Text)
}

// findParts returns a passage holding every word of the name of stems
// core, some with other accents ("Montréal" by "Montreal" and back).
// Passages of one document only; nil when none.
func (ix *Index) findParts(core []string) *Passage {
	if ablate.Off(ablate.Folded) {
		return nil
	}
	for _, part := range ix.parts {
		var ids []int32
		for i, w := range core {
			got := slices.Clone(part.words[w])
			f := fold(w)
			got = append(got, part.folded[f]...)
			if f != w {
				got = append(got, part.words[f]...)
			}
			if fs := foldedStem(f); fs != f {
				got = append(got, part.words[fs]...)
				got = append(got, part.folded[fs]...)
			}
			slices.Sort(got)
			got = slices.Compact(got)
			if i == 0 {
				ids = got
			} else {
				ids = slices.DeleteFunc(ids, func(id int32) bool { _, ok := slices.BinarySearch(got, id); return !ok })
			}
			if len(ids) == 0 {
				break
			}
		}
		if len(ids) > 0 {
			return &part.passages[ids[0]]
		}
	}
	return nil
}

// findSqueezed returns a passage that writes the name text with other
// spacing, case or punctuation ("TechCrunch" for "Tech Crunch",
// "African-Americans" for "African Americans", "A.C. Milan" for "AC
// Milan", "Anne-Sophie" for "Anne Sophie"): its letters and digits in
// order, lower-cased, are the same. Candidates are the passages holding a
// word, or a part of a hyphenated word, the squeezed name starts with;
// each is then compared whole.
func (ix *Index) findSqueezed(text string) *Passage {
	key := squeeze(text)
	if len(key) < 4 {
		return nil
	}
	spaced := !ablate.Off(ablate.HyphenSpaced)
	for _, part := range ix.parts {
		seen := map[int32]bool{}
		for i := 2; i <= len(key); i++ {
			st := claim.Stem(key[:i])
			// A name hyphenated in the passage ("Anne-Sophie") is
			// indexed whole and by its parts: its first part starts the
			// squeezed name too.
			lists := [2][]int32{part.words[st]}
			if spaced {
				lists[1] = part.hyph[st]
			}
			for _, ids := range lists {
				for _, id := range ids {
					if seen[id] {
						continue
					}
					seen[id] = true
					p := &part.passages[id]
					if squeezedHas(p.Text, key) {
						return p
					}
				}
			}
		}
	}
	return nil
}

// squeezedHas reports whether the squeezed text holds key from the start
// of a word to the end of a word: "Tech Crunch" holds "techcrunch",
// "I am ocean" does not hold "amoc".
func squeezedHas(text, key string) bool {
	var b strings.Builder
	starts, ends := map[int]bool{}, map[int]bool{}
	in := false
	for _, r := range text {
		word := unicode.IsLetter(r) || unicode.IsDigit(r)
		switch {
		case word && !in:
			starts[b.Len()] = true
		case !word && in && r != '.' && r != '-' && r != '\'' && r != '’':
			ends[b.Len()] = true
		}
		if word {
			b.WriteRune(unicode.ToLower(r))
			in = true
		} else if r != '.' && r != '-' && r != '\'' && r != '’' {
			in = false
		}
	}
	ends[b.Len()] = true
	sq := b.String()
	for i := 0; ; {
		j := strings.Index(sq[i:], key)
		if j < 0 {
			return false
		}
		if starts[i+j] && ends[i+j+len(key)] || starts[i+j] && ends[i+j+len(key)+1] && sq[i+j+len(key)] == 's' {
			return true
		}
		i += j + 1
	}
}

// squeeze returns the letters and digits of s, lower-cased.
func squeeze(s string) string {
	var b strings.Builder
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

// findWords returns a passage holding every word of words or, when no
// passage holds them all, the passage of the last word in a document that
// holds them all ("Alice Smith" ... "Smith said"); nil when none.
func (ix *Index) findWords(words []string) *Passage {
	for _, part := range ix.parts {
		if ids := intersect(part, words); len(ids) > 0 {
			return &part.passages[ids[0]]
		}
	}
	for _, part := range ix.parts {
		all := true
		for _, w := range words {
			if len(part.words[w]) == 0 {
				all = false
				break
			}
		}
		if all {
			return &part.passages[part.words[words[len(words)-1]][0]]
		}
	}
	return nil
}

// nameForms returns the word lists that state the name of stems core:
// core itself, then core with one nationality swapped for its country, or
// one country, of one word or several ("saudi arabia"), for its
// nationality; then the same with the adjectives of places WordNet gives
// ("cornish" and "cornwall", "florentine" and "florence").
func nameForms(core []string) [][]string {
	forms := [][]string{core}
	for i, w := range core {
		for _, alt := range places()[w] {
			forms = append(forms, slices.Concat(core[:i], alt, core[i+1:]))
		}
	}
	if !ablate.Off(ablate.Demonyms) {
		for i, w := range core {
			for _, alt := range wordNetPlaces().one[w] {
				forms = append(forms, slices.Concat(core[:i], alt, core[i+1:]))
			}
		}
	}
	if ablate.Off(ablate.PlaceWords) {
		return forms
	}
	multi := multiPlaces()
	if !ablate.Off(ablate.Demonyms) {
		multi = slices.Concat(multi, wordNetPlaces().multi)
	}
	for _, mp := range multi {
		for i := 0; i+len(mp.place) <= len(core); i++ {
			if slices.Equal(core[i:i+len(mp.place)], mp.place) {
				forms = append(forms, slices.Concat(core[:i], mp.nat, core[i+len(mp.place):]))
			}
		}
	}
	return forms
}

// demonymPlaces is what nameForms swaps from WordNet's adjectives of
// places (lexicon.Demonyms): by one word's stem, the stems of its places
// or adjectives (one), and the places of several words with their
// adjectives (multi).
type demonymPlaces struct {
	one   map[string][][]string
	multi []multiPlace
}

// wordNetPlaces indexes lexicon.Demonyms as nameForms reads it: an
// adjective by its place, and a place of one word by its adjective
// ("Cornish" and "Cornwall"), as the nationalities table is. It is built
// on first use and never written after.
var wordNetPlaces = sync.OnceValue(func() demonymPlaces {
	d := demonymPlaces{one: map[string][][]string{}}
	for _, dm := range lexicon.Demonyms() {
		adj, place := claim.ContentWords(dm.Adjective), claim.ContentWords(dm.Place)
		if len(adj) != 1 || len(place) == 0 {
			continue
		}
		d.one[adj[0]] = append(d.one[adj[0]], place)
		if len(place) == 1 {
			d.one[place[0]] = append(d.one[place[0]], adj)
		} else {
			d.multi = append(d.multi, multiPlace{place: place, nat: adj})
		}
	}
	return d
})

// findInitials returns a passage that writes the name of several words
// text by its initials, in capitals ("LA", "L.A." for "Los Angeles"), or
// nil.
func (ix *Index) findInitials(text string) *Passage {
	var initials []rune
	n := 0
	for _, w := range strings.Fields(text) {
		r := []rune(w)
		if len(r) == 0 || !unicode.IsUpper(r[0]) {
			if particles[strings.ToLower(w)] {
				continue
			}
			return nil
		}
		if claim.RomanNumeral(w) && n > 0 && !ablate.Off(ablate.Numeral) {
			initials = append(initials, r...) // "WWII" of "World War II", not "WWI"
		} else {
			initials = append(initials, r[0])
		}
		n++
	}
	if n < 2 || n > 6 {
		return nil
	}
	plain := string(initials)
	var dotted strings.Builder
	for _, r := range initials {
		dotted.WriteRune(r)
		dotted.WriteByte('.')
	}
	for _, key := range []string{claim.Stem(strings.ToLower(plain)), strings.ToLower(strings.TrimSuffix(dotted.String(), "."))} {
		for _, part := range ix.parts {
			for _, id := range part.words[key] {
				p := &part.passages[id]
				if hasToken(p.Text, plain) || strings.Contains(p.Text, dotted.String()) || strings.Contains(p.Text, strings.TrimSuffix(dotted.String(), ".")) {
					return p
				}
			}
		}
	}
	return nil
}

// findUndotted returns a passage writing the initials of text, a name of
// capitals each followed by a dot ("U.S.", "U.K.", "D.C."), without the
// dots: "US", "UK", "DC" as a word of their own, not beside another word
// in capitals, which would make it a word of a heading or a shout ("TELL
// US MORE"). The squeezed form is too short for findSqueezed, and "us" is
// no content word the index keeps, so every passage is read. Nil when
// none, or when text is not such a name.
func (ix *Index) findUndotted(text string) *Passage {
	if ablate.Off(ablate.Undotted) {
		return nil
	}
	plain := undotted(text)
	if plain == "" {
		return nil
	}
	for _, part := range ix.parts {
		for i := range part.passages {
			if p := &part.passages[i]; capsToken(p.Text, plain) {
				return p
			}
		}
	}
	return nil
}

// undotted returns the capitals of a name written as two to four capitals
// each followed by a dot, the last dot optional ("U.S", "D.C."), or "".
func undotted(text string) string {
	text = strings.TrimSuffix(text, ".")
	parts := strings.Split(text, ".")
	if len(parts) < 2 || len(parts) > 4 {
		return ""
	}
	var b strings.Builder
	for _, p := range parts {
		if len(p) != 1 || p[0] < 'A' || p[0] > 'Z' {
			return ""
		}
		b.WriteString(p)
	}
	return b.String()
}

// capsToken reports whether text holds tok as a whole word whose
// neighbouring words are not in capitals too ("US troops", not "TELL US").
func capsToken(text, tok string) bool {
	for i := 0; ; {
		j := strings.Index(text[i:], tok)
		if j < 0 {
			return false
		}
		s, e := i+j, i+j+len(tok)
		i = e
		if s > 0 && isLetterOrDigit(text[s-1]) || e < len(text) && isLetterOrDigit(text[e]) {
			continue
		}
		if !capsWord(lastWord(text[:s])) && !capsWord(firstWord(text[e:])) {
			return true
		}
	}
}

// capsWord reports whether w is a word of two letters or more, all capitals.
func capsWord(w string) bool {
	n := 0
	for _, r := range w {
		if !unicode.IsUpper(r) {
			return false
		}
		n++
	}
	return n >= 2
}

// lastWord returns the last run of letters of s, past spaces and
// punctuation; firstWord the first.
func lastWord(s string) string {
	s = strings.TrimRightFunc(s, func(r rune) bool { return !unicode.IsLetter(r) })
	return s[strings.LastIndexFunc(s, func(r rune) bool { return !unicode.IsLetter(r) })+1:]
}

func firstWord(s string) string {
	s = strings.TrimLeftFunc(s, func(r rune) bool { return !unicode.IsLetter(r) })
	if n := strings.IndexFunc(s, func(r rune) bool { return !unicode.IsLetter(r) }); n >= 0 {
		return s[:n]
	}
	return s
}

// hasToken reports whether text holds tok as a whole word.
func hasToken(text, tok string) bool {
	for i := 0; ; {
		j := strings.Index(text[i:], tok)
		if j < 0 {
			return false
		}
		s, e := i+j, i+j+len(tok)
		if (s == 0 || !isLetterOrDigit(text[s-1])) && (e == len(text) || !isLetterOrDigit(text[e])) {
			return true
		}
		i = e
	}
}

func isLetterOrDigit(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}

// particles are the lower-case words a name of several words may hold
// ("Bank of America"); they have no initial.
var particles = map[string]bool{"of": true, "the": true, "and": true, "de": true, "for": true, "van": true, "von": true, "der": true, "la": true, "le": true, "du": true, "da": true, "del": true}

// titleAbbrevs are the titles written abbreviated before a name that the
// claim extractor reads as the name's first word ("Gen. Douglas
// MacArthur"): as optional as the titles written out ("General").
var titleAbbrevs = map[string]bool{"gen": true, "sen": true, "rep": true, "gov": true, "lt": true, "col": true, "capt": true,
	"sgt": true, "maj": true, "adm": true, "rev": true, "hon": true, "fr": true}

var titles = map[string]bool{"mr": true, "mrs": true, "ms": true, "dr": true, "prof": true, "president": true, "minister": true,
	"senator": true, "sir": true, "king": true, "queen": true, "prince": true, "princ": true, "pope": true, "captain": true,
	"general": true, "chief": true, "judg": true, "mayor": true, "governor": true, "chancellor": true, "ceo": true}

// nationalities pairs each nationality with its country or region, as
// "nationality:place" with alternatives after commas; places maps the stem
// of each to the stems of the other.
const nationalities = `afghan:afghanistan albanian:albania algerian:algeria american:america,united states,u.s,usa
argentine,argentinian:argentina armenian:armenia australian:australia austrian:austria azerbaijani:azerbaijan
bangladeshi:bangladesh belarusian:belarus belgian:belgium bolivian:bolivia bosnian:bosnia brazilian:brazil
british:britain,united kingdom,u.k burmese:burma,myanmar cambodian:cambodia cameroonian:cameroon canadian:canada
chilean:chile chinese:china colombian:colombia congolese:congo croatian:croatia cuban:cuba cypriot:cyprus
czech:czechia danish:denmark dutch:netherlands,holland ecuadorian:ecuador egyptian:egypt english:england
eritrean:eritrea estonian:estonia ethiopian:ethiopia european:europe filipino:philippines finnish:finland
french:france georgian:georgia german:germany ghanaian:ghana greek:greece guatemalan:guatemala haitian:haiti
honduran:honduras hungarian:hungary icelandic:iceland indian:india indonesian:indonesia iranian:iran iraqi:iraq
irish:ireland israeli:israel italian:italy jamaican:jamaica japanese:japan jordanian:jordan kazakh:kazakhstan
kenyan:kenya korean:korea kosovar:kosovo kuwaiti:kuwait laotian:laos latvian:latvia lebanese:lebanon
liberian:liberia libyan:libya lithuanian:lithuania malaysian:malaysia malian:mali maltese:malta mexican:mexico
moldovan:moldova mongolian:mongolia montenegrin:montenegro moroccan:morocco mozambican:mozambique
namibian:namibia nepali,nepalese:nepal nicaraguan:nicaragua nigerian:nigeria norwegian:norway omani:oman
pakistani:pakistan palestinian:palestine panamanian:panama paraguayan:paraguay peruvian:peru polish:poland
portuguese:portugal qatari:qatar romanian:romania russian:russia rwandan:rwanda saudi:saudi arabia
scottish:scotland senegalese:senegal serbian:serbia singaporean:singapore slovak:slovakia slovenian:slovenia
somali:somalia african:africa spanish:spain sudanese:sudan swedish:sweden swiss:switzerland syrian:syria
taiwanese:taiwan tajik:tajikistan tanzanian:tanzania thai:thailand tunisian:tunisia turkish:turkey
ugandan:uganda ukrainian:ukraine emirati:united arab emirates,uae uruguayan:uruguay uzbek:uzbekistan
venezuelan:venezuela vietnamese:vietnam welsh:wales yemeni:yemen zambian:zambia zimbabwean:zimbabwe asian:asia`

// places maps a nationality's stem to its places' stems, and a one-word
// place's stem to its nationalities' stems. It is built on first use and
// never written after.
var places = sync.OnceValue(func() map[string][][]string {
	m := map[string][][]string{}
	for _, line := range strings.Split(nationalities, "\n") {
		for _, entry := range splitEntries(line) {
			nats, locs, _ := strings.Cut(entry, ":")
			for _, n := range strings.Split(nats, ",") {
				ns := claim.ContentWords(n)
				for _, l := range strings.Split(locs, ",") {
					ls := claim.ContentWords(l)
					m[ns[0]] = append(m[ns[0]], ls)
					if len(ls) == 1 {
						m[ls[0]] = append(m[ls[0]], ns)
					}
				}
			}
		}
	}
	return m
})

// multiPlace is a country or region of several words and one of its
// nationalities, as stems.
type multiPlace struct{ place, nat []string }

// multiPlaces lists the places of several words of nationalities, each
// with each of its nationalities. It is built on first use and never
// written after.
var multiPlaces = sync.OnceValue(func() []multiPlace {
	var out []multiPlace
	for _, line := range strings.Split(nationalities, "\n") {
		for _, entry := range splitEntries(line) {
			nats, locs, _ := strings.Cut(entry, ":")
			for _, l := range strings.Split(locs, ",") {
				ls := claim.ContentWords(l)
				if len(ls) < 2 {
					continue
				}
				for _, n := range strings.Split(nats, ",") {
					out = append(out, multiPlace{place: ls, nat: claim.ContentWords(n)})
				}
			}
		}
	}
	return out
})

// splitEntries splits a line of nationalities into its entries: a space
// starts a new entry only after a place, so "saudi:saudi arabia" and
// "united arab emirates" stay whole.
func splitEntries(line string) []string {
	var out []string
	for _, f := range strings.Fields(line) {
		if len(out) > 0 && !strings.Contains(f, ":") {
			out[len(out)-1] += " " + f
			continue
		}
		out = append(out, f)
	}
	return out
}

// foldedStem is the stem of f, a stem written without its accents, when
// the stemmer reads it otherwise than the accented word: "josé" and
// "lagacé" keep their last letter, "jose" and "lagace" lose it, so the
// plain form of an accented stem ("jose") is not the plain word's stem
// ("jos"). The index keeps an accented word under both, and a name's word
// is looked up under both, so "José" and "Jose" state each other. It is f
// itself with the fold-stem switch off.
func foldedStem(f string) string {
	if ablate.Off(ablate.FoldStem) {
		return f
	}
	return claim.Stem(f)
}

// fold returns the lower-case word w without the accents of Latin
// letters ("montréal" → "montreal", "straße" → "strasse"); other
// letters are kept.
func fold(w string) string {
	ascii := true
	for i := 0; i < len(w); i++ {
		if w[i] >= 0x80 {
			ascii = false
			break
		}
	}
	if ascii {
		return w
	}
	var b strings.Builder
	for _, r := range w {
		if f, ok := folds()[r]; ok {
			b.WriteString(f)
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// folds maps each accented lower-case Latin letter to its plain letters.
// It is built on first use and never written after.
var folds = sync.OnceValue(func() map[rune]string {
	m := map[rune]string{'ß': "ss", 'æ': "ae", 'œ': "oe", 'ð': "d", 'þ': "th", 'ø': "o", 'ł': "l", 'đ': "d", 'ħ': "h", 'ı': "i"}
	for plain, accented := range map[string]string{
		"a": "àáâãäåāăą", "c": "çćĉċč", "d": "ď", "e": "èéêëēĕėęě", "g": "ĝğġģ", "h": "ĥ",
		"i": "ìíîïĩīĭį", "j": "ĵ", "k": "ķ", "l": "ĺļľŀ", "n": "ñńņň", "o": "òóôõöōŏő",
		"r": "ŕŗř", "s": "śŝşšș", "t": "ţťț", "u": "ùúûüũūŭůűų", "w": "ŵ", "y": "ýÿŷ", "z": "źżž",
	} {
		for _, r := range accented {
			m[r] = plain
		}
	}
	return m
})
