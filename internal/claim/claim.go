package claim

import (
	"fmt"
	"strconv"
	"strings"
)

// Kind is what sort of specific a claim states.
type Kind string

// The kinds of claims.
const (
	Number       Kind = "number"        // a count or measure, with an optional unit
	Version      Kind = "version"       // a software version: 1.24.1
	VersionRange Kind = "version_range" // prior to 1.24.1, >= 2.0, 1.2 to 1.5
	Date         Kind = "date"          // a date, month, year or weekday
	Time         Kind = "time"          // a time of day: 1:34 PM
	CVE          Kind = "cve"           // a CVE identifier
	URL          Kind = "url"           // an http or https URL
	Email        Kind = "email"         // an email address
	Path         Kind = "path"          // a file path
	Name         Kind = "name"          // a person or an organisation
	Citation     Kind = "citation"      // a source the output cites: "according to NVD"
	Negation     Kind = "negation"      // a negated statement
	Color        Kind = "color"         // a colour: "yellow and blue paint"
)

// Limits of extraction.
const (
	// MaxTextBytes is how much of one text is read; the rest is ignored
	// and [Set.Truncated] is set.
	MaxTextBytes = 4 << 20
	// MaxClaims is how many claims one extraction returns at most.
	MaxClaims = 5000
)

// Claim is one specific stated in a text.
type Claim struct {
	Kind Kind
	// Text is the specific as written: "prior to 1.24.0", "March 2024".
	Text string
	// Value is the specific normalized for comparison: "9.8", "<1.24.0",
	// "2024-03-?", "CVE-2024-12345", "alice smith". Two claims of the same
	// kind state the same thing exactly when their values are equal
	// (dates compare by [DateValue] parts instead).
	Value string
	// Num is the numeric value of a Number claim (scaled: "$5bn" is 5e9).
	Num float64
	// Unit is what a Number counts or measures when the text says it:
	// "litre", "%", "$", "people"; "" when unknown.
	Unit string
	// Attribute names what the claim is about, in words: "CVSS score",
	// "affected versions", "discoverer", "discovery date"; "" when the text
	// does not say.
	Attribute string
	// Path is the field path of the JSON string holding the claim, in the
	// specification's notation ("summary", "items[2].text", "root" for a
	// string output), or "" for a text output.
	Path string
	// Field is, for a claim that is a whole JSON field's value (a number,
	// or a short string), that field's path ("vuln.cvss_score"); else "".
	Field string
	// Start and End are the byte offsets of Text in the text it came from.
	Start, End int
	// Line and Col are the 1-based line and column (in bytes) of Start.
	Line, Col int
	// Sentence is the sentence holding the claim.
	Sentence string
	// Certain is set when the sentence uses certainty language:
	// "definitely", "confirmed", "100%".
	Certain bool
	// CertainWord is the certainty word used, when Certain.
	CertainWord string
	// Converted is, for a number written with its conversion into
	// another unit in parentheses ("355 feet (108 m)"), the other number
	// of the pair, as extracted; nil otherwise. The two are one quantity,
	// stated where either is.
	Converted *Claim
}

// Key is the attribute in snake case: "cvss_score", or "" when unknown.
func (c Claim) Key() string {
	var b strings.Builder
	for _, w := range strings.FieldsFunc(strings.ToLower(c.Attribute), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
	}) {
		if b.Len() > 0 {
			b.WriteByte('_')
		}
		b.WriteString(w)
	}
	return b.String()
}

// Location is where the claim is (docs/locations.md): for a whole JSON
// field's value, that field's path ("vuln.cvss_score"); for a claim in a
// field's text, as in the specification's Example 3, the field path, a
// colon and the attribute key ("summary:cvss_score"); for a text output
// "line:N" and the key ("line:3:discoverer"). Without an attribute it is
// the field path or the line alone.
func (c Claim) Location() string {
	if c.Field != "" {
		return c.Field
	}
	where := c.Path
	if where == "" {
		where = "line:" + strconv.Itoa(c.Line)
	}
	if k := c.Key(); k != "" {
		return where + ":" + k
	}
	return where
}

// Subject is how a message names the claim: a number that is a whole JSON
// field's value by the field ("Field 'sla_hours' value"), else its attribute
// with a capital letter ("CVSS score"), else a phrase for its kind ("The
// number").
func (c Claim) Subject() string {
	if c.Field != "" && c.Kind == Number {
		// A number that is a whole JSON field's value is named by its
		// field as written: "Field 'sla_hours' value 8", not "Sla hours 8".
		return "Field '" + c.Field + "' value"
	}
	if c.Attribute != "" {
		return upperFirst(c.Attribute)
	}
	switch c.Kind {
	case Number:
		if ordinalUnit(c.Unit) {
			return "Ordinal" // "Ordinal 32nd", not "Number of nd 32"
		}
		if c.Unit != "" && c.Unit != "%" && c.Unit != "$" {
			return "Number of " + c.Unit
		}
		return "The number"
	case VersionRange:
		return "Version range"
	case CVE:
		return "CVE id"
	case URL:
		return "URL"
	case Email:
		return "Email address"
	case Path:
		return "File path"
	case Name:
		return "Name"
	case Citation:
		return "Cited source"
	case Negation:
		return "Negation"
	case Color:
		return "Colour"
	}
	return upperFirst(string(c.Kind))
}

// Noun is Subject inside a sentence: "CVSS score", "affected versions",
// "the number".
func (c Claim) Noun() string {
	s := c.Subject()
	if len(s) > 1 && s[1] >= 'a' && s[1] <= 'z' || len(s) == 1 {
		return strings.ToLower(s[:1]) + s[1:]
	}
	return s
}

// Quoted is the claim's text as a message shows it: numbers and dates bare
// ("9.8", "March 2024"), other kinds in single quotes ("'prior to
// 1.24.0'", "'Alice Smith'").
func (c Claim) Quoted() string {
	switch c.Kind {
	case Number:
		if ordinalUnit(c.Unit) && c.Text != "" && strings.Trim(c.Text, "0123456789") == "" {
			return c.Text + c.Unit // "32nd": the span is the digits
		}
		return c.Text
	case Date, Time, Version:
		return c.Text
	}
	return "'" + c.Text + "'"
}

// ordinalUnit reports whether unit is the suffix of an ordinal ("th" of
// "44th").
func ordinalUnit(unit string) bool {
	return unit == "st" || unit == "nd" || unit == "rd" || unit == "th"
}

func (c Claim) String() string {
	return fmt.Sprintf("%s %s %q at %s", c.Kind, c.Value, c.Text, c.Location())
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	if c := s[0]; c >= 'a' && c <= 'z' {
		return string(c-'a'+'A') + s[1:]
	}
	return s
}

// Set is the claims of one output.
type Set struct {
	Claims []Claim
	// Truncated is set when some text was not read because of
	// [MaxTextBytes] or [MaxClaims].
	Truncated bool
}
