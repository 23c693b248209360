package claim

import "strings"

// american returns a lower-case word in American spelling where British
// spelling writes it otherwise ("colour" color, "centre" center,
// "defence" defense, "organisation" organization, "analysed" analyzed,
// "travelled" traveled), or the word itself. Stem reads both spellings
// as one word, so a page and a claim each spelling its own way meet
// ("the Ministry of Defence" and "the Ministry of Defense"). Only forms
// whose other spelling is no other English word are rewritten: "-our"
// after three letters or more ("four", "flour", "fourth" are not), "-ise"
// after four ("raise", "prise" are not), "-re" in a list ("timbre" is no
// "timber"), and a list of words spelt otherwise, not surnames ("Grey" and
// "Gray", "Mould" are other people).
func american(w string) string {
	if a, ok := britishWords[w]; ok {
		return a
	}
	if strings.HasSuffix(w, "s") {
		if a, ok := britishWords[w[:len(w)-1]]; ok {
			return a + "s"
		}
	}
	for _, end := range [...]string{"", "s", "d"} {
		base, ok := strings.CutSuffix(w, end)
		if !ok || !strings.HasSuffix(base, "re") {
			continue
		}
		for _, re := range britishRe {
			if strings.HasSuffix(base, re) {
				return base[:len(base)-2] + "er" + end
			}
		}
	}
	if strings.Contains(w, "our") {
		if base, end, ok := cutEnd(w, "our", ourEnds); ok && len(base) >= 3 && !strings.ContainsRune("aeouy", rune(base[len(base)-1])) {
			return base + "or" + end
		}
	}
	if strings.Contains(w, "is") {
		if base, end, ok := cutEnd(w, "is", iseEnds); ok && len(base) >= 4 {
			return base + "iz" + end
		}
	}
	if strings.Contains(w, "ys") {
		if base, end, ok := cutEnd(w, "ys", yseEnds); ok && len(base) >= 3 {
			return base + "yz" + end
		}
	}
	return w
}

// cutEnd splits w into what comes before mid, and one of ends after it
// ("favourite": "fav", "ite"; "_" in ends is nothing), where w ends so.
func cutEnd(w, mid string, ends []string) (base, end string, ok bool) {
	for _, end := range ends {
		end = strings.TrimPrefix(end, "_") // "_": nothing after mid
		if b, ok := strings.CutSuffix(w, end); ok && strings.HasSuffix(b, mid) {
			return b[:len(b)-len(mid)], end, true
		}
	}
	return "", "", false
}

// ourEnds are what may follow the "our" of "colour", "favourite",
// "honourable", "neighbourhood"; iseEnds the "is" of "organise",
// "organisation"; yseEnds the "ys" of "analyse".
var (
	ourEnds = strings.Fields(`_ s ed ing ite ites able ably ful less er ers hood hoods ism ist ists`)
	iseEnds = strings.Fields(`e ed es ing ation ations er ers able`)
	yseEnds = strings.Fields(`e ed es ing er ers`)
)

// britishRe are the words British spelling ends in "-re" where American
// spelling writes "-er"; a word ending in one ("kilometre",
// "amphitheatre") or in one with "s" or "d" after it is rewritten.
var britishRe = []string{"centre", "theatre", "metre", "litre", "fibre", "calibre", "sabre", "sombre", "spectre", "lustre", "sceptre", "meagre", "mitre", "goitre", "saltpetre"}

// britishWords are words British spelling writes otherwise, with their
// American spelling.
var britishWords = map[string]string{
	"defence": "defense", "offence": "offense", "licence": "license", "pretence": "pretense",
	"catalogue": "catalog", "dialogue": "dialog", "analogue": "analog", "programme": "program",
	"aluminium": "aluminum", "jewellery": "jewelry", "plough": "plow",
	"sulphur": "sulfur", "moustache": "mustache", "pyjamas": "pajamas",
	"sceptic": "skeptic", "sceptical": "skeptical", "scepticism": "skepticism",
	"judgement": "judgment", "artefact": "artifact", "ageing": "aging",
	"encyclopaedia": "encyclopedia", "paediatric": "pediatric", "paediatrics": "pediatrics",
	"paediatrician": "pediatrician", "orthopaedic": "orthopedic", "anaesthesia": "anesthesia",
	"anaesthetic": "anesthetic", "foetus": "fetus", "oesophagus": "esophagus",
	"manoeuvre": "maneuver", "manoeuvred": "maneuvered", "manoeuvring": "maneuvering",
	"enrolment": "enrollment", "fulfil": "fulfill", "fulfilment": "fulfillment", "skilful": "skillful",
	"woollen": "woolen", "marvellous": "marvelous", "travelled": "traveled", "travelling": "traveling",
	"traveller": "traveler", "cancelled": "canceled", "cancelling": "canceling", "modelled": "modeled",
	"modelling": "modeling", "labelled": "labeled", "labelling": "labeling", "fuelled": "fueled",
	"counsellor": "counselor", "counselling": "counseling", "jeweller": "jeweler",
	"signalled": "signaled", "levelled": "leveled", "channelled": "channeled",
}
