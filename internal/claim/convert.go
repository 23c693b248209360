package claim

import (
	"math"
	"regexp"
	"strings"

	"github.com/agentjudge/judge/internal/ablate"
)

// A measure written with its conversion into another unit right after it,
// in parentheses ("355 feet (108 m)", "5 miles (8 km; 3 nmi)", "180,000
// square feet (17,000 m²)", "95 °F (35 °C)"), is one quantity written
// twice: encyclopedias and newspapers add the conversion themselves, and a
// source gives the quantity in one unit or the other. So is a sum of money
// with its value in another currency ("£5 million ($6.5 million)"), read
// at a rough rate. conversions links the two numbers of each such pair
// through [Claim.Converted].

// measure is a unit of measure: its dimension and its size in the
// dimension's base unit (metre, square metre, cubic metre, kilogram,
// metre per second); a unit of two usual sizes (the US and the imperial
// gallon, the short and the long ton) has both.
type measure struct {
	dim   byte // 'L' length, 'A' area, 'V' volume, 'M' mass, 'S' speed, 'F' / 'C' degrees Fahrenheit / Celsius
	sizes []float64
}

// measures are the units a conversion is read between, by their written
// forms in lower case without dots.
var measures = func() map[string]measure {
	m := map[string]measure{}
	add := func(dim byte, sizes []float64, forms string) {
		for _, f := range strings.Split(forms, "|") {
			m[f] = measure{dim, sizes}
		}
	}
	one := func(f float64) []float64 { return []float64{f} }
	add('L', one(1), "m|metre|metres|meter|meters")
	add('L', one(1000), "km|kilometre|kilometres|kilometer|kilometers")
	add('L', one(0.01), "cm|centimetre|centimetres|centimeter|centimeters")
	add('L', one(0.001), "mm|millimetre|millimetres|millimeter|millimeters")
	add('L', one(0.3048), "ft|foot|feet")
	add('L', one(0.0254), "in|inch|inches")
	add('L', one(0.9144), "yd|yard|yards")
	add('L', one(1609.344), "mi|mile|miles")
	add('L', one(1852), "nmi|nautical mile|nautical miles")
	add('A', one(1), "m2|m²|sq m|square metre|square metres|square meter|square meters")
	add('A', one(1e6), "km2|km²|sq km|square kilometre|square kilometres|square kilometer|square kilometers")
	add('A', one(0.09290304), "sq ft|square foot|square feet|ft2|ft²")
	add('A', one(2589988.110336), "sq mi|square mile|square miles|mi2|mi²")
	add('A', one(4046.8564224), "acre|acres")
	add('A', one(1e4), "ha|hectare|hectares")
	add('V', one(1), "m3|m³|cu m|cubic metre|cubic metres|cubic meter|cubic meters")
	add('V', one(0.028316846592), "cu ft|cubic foot|cubic feet|ft3|ft³")
	add('V', one(1.6387064e-5), "cu in|cubic inch|cubic inches|in3|in³")
	add('V', one(1e-6), "cm3|cm³|cc|ml|millilitre|millilitres|milliliter|milliliters")
	add('V', one(1e-3), "l|litre|litres|liter|liters")
	add('V', []float64{0.003785411784, 0.00454609}, "gal|gallon|gallons")
	add('M', one(1), "kg|kilogram|kilograms|kilo|kilos")
	add('M', one(1e-3), "g|gram|grams")
	add('M', one(0.45359237), "lb|lbs|pound|pounds")
	add('M', one(0.028349523125), "oz|ounce|ounces")
	add('M', one(1000), "t|tonne|tonnes|metric ton|metric tons")
	add('M', []float64{907.18474, 1016.0469088}, "ton|tons")
	add('M', one(6.35029318), "st|stone")
	add('S', one(1/3.6), "km/h|kph|kmh|kilometres per hour|kilometers per hour")
	add('S', one(0.44704), "mph|miles per hour")
	add('S', one(1852/3600.0), "kn|kt|knot|knots")
	add('F', one(1), "°f|f|degrees fahrenheit|fahrenheit")
	add('C', one(1), "°c|c|degrees celsius|celsius")
	return m
}()

// unitAt reads the unit written at the start of s (after spaces and a
// joining hyphen, "a 355-foot tower"): its measure and the bytes read.
// The longest form of up to three words wins ("square feet" over
// "square"); a unit must end at a word's end.
func unitAt(s string) (measure, int, bool) {
	i := 0
	for i < len(s) {
		switch {
		case s[i] == ' ' || s[i] == '-':
			i++
			continue
		case strings.HasPrefix(s[i:], "\u00a0"): // a no-break space
			i += len("\u00a0")
			continue
		}
		break
	}
	best, bestEnd, found := measure{}, 0, false
	end, words := i, 0
	for end < len(s) && words < 3 {
		j := end
		for j < len(s) && s[j] != ' ' && s[j] != ')' && s[j] != ';' && s[j] != ',' && s[j] != '(' && s[j] != ']' {
			j++
		}
		if j == end {
			break
		}
		words++
		form := strings.ToLower(strings.ReplaceAll(s[i:j], ".", ""))
		if m, ok := measures[strings.Join(strings.Fields(form), " ")]; ok {
			best, bestEnd, found = m, j, true
		}
		end = j
		for end < len(s) && s[end] == ' ' {
			end++
		}
	}
	return best, bestEnd, found
}

// conversions links each measure to its conversion written in
// parentheses right after it: a number with a unit, "(", a number with a
// unit of the same dimension, and ")", ";" or "," after it, the second
// number being the first converted, to its rounding. A unit of length
// after one of area or volume is the square or cube whose sign was lost
// ("180,000 sq ft (17,000 m)").
func (x *extractor) conversions() {
	for i := 0; i < len(x.claims); i++ {
		a := &x.claims[i]
		if a.Kind != Number {
			continue
		}
		j := i + 1
		for j < len(x.claims) && x.claims[j].Kind != Number && x.claims[j].Start < a.End+40 {
			j++
		}
		if j == len(x.claims) || x.claims[j].Kind != Number {
			continue
		}
		b := &x.claims[j]
		if b.Start <= a.End || (ablate.Off(ablate.Conversion) || !converts(x.text[a.End:b.Start], x.text[b.End:], a, b)) && !exchanges(x.text[a.End:b.Start], x.text[b.End:], a, b) {
			continue
		}
		ca, cb := *a, *b
		a.Converted, b.Converted = &cb, &ca
		i = j
	}
}

// converts reports whether between (the text from a's end to b's start)
// is a unit and an opening parenthesis, after (the text after b) starts
// with a unit of the same dimension closed by ")", ";" or ",", and b's
// number is a's converted.
func converts(between, after string, a, b *Claim) bool {
	ua, n, ok := unitAt(between)
	if !ok || strings.TrimSpace(between[n:]) != "(" {
		return false
	}
	ub, n, ok := unitAt(after)
	if !ok {
		return false
	}
	rest := strings.TrimLeft(after[n:], " ")
	if rest == "" || rest[0] != ')' && rest[0] != ';' && rest[0] != ',' {
		return false
	}
	if ua.dim == 'F' || ua.dim == 'C' {
		return ub.dim != ua.dim && (ub.dim == 'F' || ub.dim == 'C') && sameDegrees(a.Num, ua.dim, b.Num, b.Text, a.Text)
	}
	ua, ub = lostPower(ua, ub), lostPower(ub, ua)
	if ua.dim != ub.dim {
		return false
	}
	for _, sa := range ua.sizes {
		for _, sb := range ub.sizes {
			if rounds(a.Num*sa/sb, b.Num, b.Text, a.Text) {
				return true
			}
		}
	}
	return false
}

// lostPower is u read beside other: a length beside an area or a volume
// is the square or the cube whose superscript a text lost ("m" for "m²").
func lostPower(u, other measure) measure {
	if u.dim != 'L' || other.dim != 'A' && other.dim != 'V' {
		return u
	}
	p := 2.0
	if other.dim == 'V' {
		p = 3
	}
	out := measure{dim: other.dim}
	for _, s := range u.sizes {
		out.sizes = append(out.sizes, math.Pow(s, p))
	}
	return out
}

// sameDegrees reports whether temperature a in degrees dim, written from,
// is b, written text, in the other scale.
func sameDegrees(a float64, dim byte, b float64, text, from string) bool {
	want := (a - 32) * 5 / 9
	if dim == 'C' {
		want = a*9/5 + 32
	}
	return rounds(want, b, text, from)
}

// rounds reports whether want, the conversion of a number written from,
// may be got, written text: within 5%, or within half the step of got's
// last written digit ("120" for 118.9, "17,000" for 16,723, "2" for 1.6;
// not "200" for 108). A got of one significant digit is read so only
// where from has one too: a converter keeps a measure's precision, and
// half a step of one digit is up to half the number ("10,000" is no
// rounding of 14,569, the hectares of "36,000 acres").
func rounds(want, got float64, text, from string) bool {
	if want <= 0 || got <= 0 {
		return want == got
	}
	if math.Abs(want-got) <= 0.05*want {
		return true
	}
	if significant(text) < 2 && significant(from) > 1 {
		return false
	}
	return math.Abs(want-got) <= step(text)/2
}

// significant is how many significant digits a number written in digits
// has ("17,000": 2; "2.50": 3; "108": 3); 0 for a number in words.
func significant(text string) int {
	written := digitsOf(text)
	sig := strings.TrimLeft(strings.ReplaceAll(written, ".", ""), "0")
	if !strings.Contains(written, ".") {
		sig = strings.TrimRight(sig, "0")
	}
	return len(sig)
}

// step is the value of the last significant digit of a number written in
// digits: 1 for "108", 1000 for "17,000", 0.1 for "2.5"; 1 for a number
// in words.
func step(text string) float64 {
	digits := strings.ReplaceAll(text, ",", "")
	if i := strings.IndexByte(digits, '.'); i >= 0 {
		return math.Pow(10, -float64(len(digits)-i-1))
	}
	if strings.Trim(digits, "0123456789") != "" || digits == "" {
		return 1
	}
	z := len(digits) - len(strings.TrimRight(digits, "0"))
	if z == len(digits) {
		return 1
	}
	return math.Pow(10, float64(z))
}

// Rounding returns, for a number written in digits, the value of its last
// significant digit, scaled as the number is ("$45 million": 1 million;
// "12,000": 1,000; "1.25": 0.01), and how many significant digits it has
// (2, 2, 3); 0, 0 for a number in words or another kind of claim.
func Rounding(c Claim) (unit float64, digits int) {
	if c.Kind != Number {
		return 0, 0
	}
	written := digitsOf(c.Text)
	v, ok := parseNum(written)
	if written == "" || !ok || v <= 0 {
		return 0, 0
	}
	return step(written) * math.Abs(c.Num) / v, significant(written)
}

// digitsOf is the first number written in digits in text, without its
// thousands commas ("$45,000 million": "45000"); "" where there is none.
func digitsOf(text string) string {
	i := strings.IndexFunc(text, func(r rune) bool { return r >= '0' && r <= '9' })
	if i < 0 {
		return ""
	}
	j := i
	for j < len(text) && (isDigit(text[j]) || text[j] == ',' || text[j] == '.' && j+1 < len(text) && isDigit(text[j+1])) {
		j++
	}
	return strings.ReplaceAll(text[i:j], ",", "")
}

// currencies are the sizes of a unit of money in US dollars, as a text
// converts a sum into another currency ("£5 million ($6.5 million)"): a
// rough rate, since rates move, read with maxRateFactor. "¥" is the yen
// or the yuan, some eighteen times apart, and has no rate: a sum in "¥"
// links to no conversion.
var currencies = map[string][]float64{
	"$": {1}, "dollar": {1}, "usd": {1},
	"£": {1.3}, "pound": {1.3}, "gbp": {1.3},
	"€": {1.1}, "euro": {1.1}, "eur": {1.1},
	"yen": {0.008}, "yuan": {0.14}, "rmb": {0.14},
	"₹": {0.013}, "rupee": {0.013}, "inr": {0.013},
	"chf": {1.1}, "franc": {1.1},
}

// maxRateFactor is how far from the rough rate a sum's conversion may be
// and still be read as one: rates move over years and between dollars.
const maxRateFactor = 2

// exchangeRE is what may stand between a sum and its conversion into
// another currency: the parenthesis, a word of estimate, and the
// country letters of a dollar ("US$85 million", "A$5").
var exchangeRE = regexp.MustCompile(`^\s*\(\s*(?:(?:about|approximately|approx\.|around|roughly|some|c\.|ca\.|circa)\s+)?(?:US|U\.S\.|A|AU|C|CA|NZ|HK|S)?$`)

// exchanges reports whether b, in parentheses right after a (between is
// the text from a's end to b's start, after the text after b), is the sum
// a in another currency: "£5 million ($6.5 million)", "5 million euros
// (US$5.6 million)", "1 billion yen (about $9 million)".
func exchanges(between, after string, a, b *Claim) bool {
	ra, rb := currencies[a.Unit], currencies[b.Unit]
	if ablate.Off(ablate.Exchange) || len(ra) == 0 || len(rb) == 0 || a.Unit == b.Unit || a.Num <= 0 || b.Num <= 0 {
		return false
	}
	if w := strings.TrimLeft(between, " "); a.Unit[0] >= 'a' && a.Unit[0] <= 'z' {
		// The currency written as a word after the number: "euros (".
		n := strings.IndexAny(w, " (")
		if n < 0 || singular(strings.ToLower(w[:n])) != a.Unit {
			return false
		}
		between = w[n:]
	}
	rest := strings.TrimLeft(after, " ")
	if b.Unit[0] >= 'a' && b.Unit[0] <= 'z' {
		if n := strings.IndexAny(rest, " );,"); n >= 0 {
			rest = strings.TrimLeft(rest[n:], " ")
		}
	}
	if !exchangeRE.MatchString(between) || rest == "" || rest[0] != ')' && rest[0] != ';' && rest[0] != ',' {
		return false
	}
	for _, sa := range ra {
		for _, sb := range rb {
			if r := a.Num * sa / (b.Num * sb); r <= maxRateFactor && r >= 1/float64(maxRateFactor) {
				return true
			}
		}
	}
	return false
}
