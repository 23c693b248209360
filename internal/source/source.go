package source

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/agentjudge/judge/internal/ablate"
	"github.com/agentjudge/judge/internal/claim"
	"github.com/agentjudge/judge/internal/jsonvalue"
)

// Format is how a document's content is written.
type Format string

// The formats a document may have.
const (
	Text     Format = "text"
	Markdown Format = "markdown"
	JSON     Format = "json"
)

// Limits of what is read.
const (
	// MaxDocBytes is the largest document indexed; a larger one is an
	// error.
	MaxDocBytes = 16 << 20
	// MaxDirBytes is the most all files of a directory may hold together.
	MaxDirBytes = 64 << 20
	// MaxPassageBytes cuts longer passages (a minified line) into pieces.
	MaxPassageBytes = 2000
)

// Doc is one source document.
type Doc struct {
	ID    string
	URL   string
	Title string
	// Content is the document's text (UTF-8).
	Content string
	// Format is the content's format; "" guesses it from the ID's
	// extension (.md, .json), else Text.
	Format Format
}

// Name is how a message names the document: its title, else its id, else
// its URL.
func (d *Doc) Name() string {
	switch {
	case d.Title != "":
		return d.Title
	case d.ID != "":
		return d.ID
	}
	return d.URL
}

// Ref is the document's URL, else its id: what a suggestion cites.
func (d *Doc) Ref() string {
	if d.URL != "" {
		return d.URL
	}
	return d.ID
}

func (d *Doc) format() Format {
	if d.Format != "" {
		return d.Format
	}
	switch strings.ToLower(filepath.Ext(d.ID)) {
	case ".md", ".markdown":
		return Markdown
	case ".json":
		return JSON
	}
	return Text
}

// DocError is a document that cannot be indexed.
type DocError struct {
	ID  string // the document's id
	Msg string
	Err error
}

func (e *DocError) Error() string { return fmt.Sprintf("source %q: %s", e.ID, e.Msg) }

// Unwrap returns the cause.
func (e *DocError) Unwrap() error { return e.Err }

// Passage is one sentence or line of a document, with the claims it
// states.
type Passage struct {
	Doc *Doc
	// Text is the passage as indexed (markup removed).
	Text string
	// Line is the 1-based line of the passage in the prepared text.
	Line int
	// Claims are the specifics the passage states.
	Claims  []claim.Claim
	negated bool
	// stems are the stems of the passage's content words, sorted.
	stems []string
}

// has reports whether the passage holds a word of stem w.
func (p *Passage) has(w string) bool {
	_, ok := slices.BinarySearch(p.stems, w)
	return ok
}

// DocIndex is one document split into passages and indexed. It is
// immutable and safe for concurrent use.
type DocIndex struct {
	doc      *Doc
	passages []Passage
	words    map[string][]int32
	values   map[string][]int32
	// hyph maps the stem of each part of a hyphenated word to the
	// passages holding it ("nazi" and "neo" for "neo-Nazi"); the word
	// itself is in words.
	hyph map[string][]int32
	// folded maps a word with accents, without them ("montreal" for
	// "montréal"), to the passages holding it.
	folded map[string][]int32
	// clock, dated and weekday are set when a passage gives a time of
	// day, a date with its day and month, or a weekday.
	clock, dated, weekday bool
}

// Doc returns the indexed document.
func (x *DocIndex) Doc() *Doc { return x.doc }

// Passages returns the number of passages.
func (x *DocIndex) Passages() int { return len(x.passages) }

// Build splits d into passages and indexes them. It fails with a
// *DocError when d is larger than MaxDocBytes or not UTF-8; a JSON
// document that does not parse is indexed as text.
func Build(d Doc) (*DocIndex, error) {
	if len(d.Content) > MaxDocBytes {
		return nil, &DocError{ID: d.ID, Msg: fmt.Sprintf("the document holds %d bytes, over the limit of %d", len(d.Content), MaxDocBytes)}
	}
	if !utf8.ValidString(d.Content) {
		return nil, &DocError{ID: d.ID, Msg: "the document is not UTF-8 text"}
	}
	doc := d
	x := &DocIndex{doc: &doc, words: map[string][]int32{}, values: map[string][]int32{}, hyph: map[string][]int32{}, folded: map[string][]int32{}}
	text := prepare(d.Content, d.format())
	lineStarts := []int{0}
	for i := 0; i < len(text); i++ {
		if text[i] == '\n' {
			lineStarts = append(lineStarts, i+1)
		}
	}
	line := 1
	for _, sp := range claim.Sentences(text) {
		for sp.Start < sp.End {
			end := min(sp.End, sp.Start+MaxPassageBytes)
			for end < sp.End && end > sp.Start && !utf8.RuneStart(text[end]) {
				end--
			}
			for line < len(lineStarts) && lineStarts[line] <= sp.Start {
				line++
			}
			x.add(text[sp.Start:end], line)
			sp.Start = end
		}
	}
	return x, nil
}

// implicitNegRE finds the verbs that negate what follows them without a
// negator: a source saying "the company failed to get the balance right"
// states what "the company did not get the balance right" says.
var implicitNegRE = regexp.MustCompile(`(?i)\b(?:fail(?:s|ed)?|refus(?:e|es|ed)|unable|declin(?:e|es|ed)|neglect(?:s|ed)?) to\b`)

// relativeDateRE finds a date written relative to the day of writing,
// which a passage does not give: "today", "yesterday", "this year", "last
// week", "next month".
var relativeDateRE = regexp.MustCompile(`(?i)\b(?:today|yesterday|tomorrow|tonight|(?:this|last|next|past|coming) (?:year|month|week|season|summer|winter|spring|autumn|fall|weekend|(?:jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?|may|(?:mon|tues|wednes|thurs|fri|satur|sun)day))\b`)

// elided returns the stem of w after a French or Italian particle elided
// before it ("d'ivoire" of "Côte d'Ivoire", "l'enfant", "dell'orto"), or
// "" when it has none: the claim reader takes the word after the
// apostrophe for a word of the name, as a name starts there. "O'Brien"
// keeps its "O'".
func elided(w string) string {
	for _, p := range [...]string{"d'", "l'", "dell'", "dall'", "nell'", "all'", "sull'"} {
		if rest, ok := strings.CutPrefix(w, p); ok && len(rest) >= 3 && !strings.ContainsAny(rest, "'-.") && !ablate.Off(ablate.Elision) {
			return claim.Stem(rest)
		}
	}
	return ""
}

// relative returns the words by which the passage dates something
// relative to a day it does not give ("today", "this year", "last
// week"), or "": its other dates may be of another event than the one it
// dates that way.
func (p *Passage) relative() string { return relativeDateRE.FindString(p.Text) }

func (x *DocIndex) add(text string, line int) {
	id := int32(len(x.passages))
	p := Passage{Doc: x.doc, Text: text, Line: line, Claims: claim.Extract(text, "").Claims}
	p.stems = claim.ContentWords(text)
	for _, w := range p.stems {
		x.words[w] = append(x.words[w], id)
		if rest := elided(w); rest != "" {
			// "d'ivoire" of "Côte d'Ivoire": the reader takes "Ivoire"
			// for the name's word, without its elided particle.
			if ids := x.words[rest]; len(ids) == 0 || ids[len(ids)-1] != id {
				x.words[rest] = append(ids, id)
			}
		}
		if f := fold(w); f != w {
			x.folded[f] = append(x.folded[f], id)
			if fs := foldedStem(f); fs != f {
				x.folded[fs] = append(x.folded[fs], id)
			}
		}
		if !strings.Contains(w, "-") {
			continue
		}
		for _, part := range strings.Split(w, "-") {
			if len(part) < 2 {
				continue
			}
			st := claim.Stem(part)
			if ids := x.hyph[st]; len(ids) == 0 || ids[len(ids)-1] != id {
				x.hyph[st] = append(ids, id)
			}
		}
	}
	// A name's numeral or final letter of one letter, by the word before
	// it ("war i", "vitamin d"): ContentWords leaves the letter out.
	for _, k := range claim.Letters(text) {
		if ids := x.words[k]; len(ids) == 0 || ids[len(ids)-1] != id {
			x.words[k] = append(ids, id)
		}
	}
	slices.Sort(p.stems)
	seen := map[string]bool{}
	p.negated = implicitNegRE.MatchString(text)
	for _, c := range p.Claims {
		switch c.Kind {
		case claim.Negation:
			p.negated = true
		case claim.Time:
			x.clock = true
		case claim.Date:
			if d, ok := claim.ParseDate(c.Value); ok && d.Day != 0 && d.Month != 0 {
				x.dated = true
			} else if ok && d.Weekday != "" {
				x.weekday = true
			}
		}
		for _, k := range valueKeys(c) {
			if !seen[k] {
				seen[k] = true
				x.values[k] = append(x.values[k], id)
			}
		}
	}
	x.passages = append(x.passages, p)
}

// valueKeys are the keys under which claim c is found by value. Dates are
// keyed by each part they give, numbers by their value alone.
func valueKeys(c claim.Claim) []string {
	switch c.Kind {
	case claim.Date:
		d, ok := claim.ParseDate(c.Value)
		if !ok {
			return nil
		}
		var keys []string
		if d.Period != 0 {
			return []string{"date:p:" + c.Value}
		}
		if d.Weekday != "" {
			keys = append(keys, "date:w:"+d.Weekday)
		}
		if d.Year != 0 {
			keys = append(keys, "date:y:"+strconv.Itoa(d.Year))
			if d.Month == 0 && d.Day == 0 {
				keys = append(keys, "number:"+strconv.Itoa(d.Year))
			}
		}
		if d.Month != 0 {
			keys = append(keys, "date:m:"+strconv.Itoa(d.Month))
		}
		return keys
	case claim.Number:
		return []string{"number:" + strconv.FormatFloat(c.Num, 'g', 12, 64)}
	case claim.Negation, claim.Name:
		return nil
	}
	return []string{string(c.Kind) + ":" + c.Value}
}

var (
	mdLinkRE    = regexp.MustCompile(`!?\[([^\]\n]*)\]\(([^)\s]*)[^)\n]*\)`)
	mdEmphRE    = regexp.MustCompile(`(\*\*|__|\x60)`)
	mdHeadingRE = regexp.MustCompile(`(?m)^[ \t]{0,3}(?:#{1,6}[ \t]+|>[ \t]?|[-*+][ \t]+|\d+[.)][ \t]+)`)
)

// prepare turns content of format f into plain text, one line for each
// line of the content (JSON aside).
func prepare(content string, f Format) string {
	switch f {
	case Markdown:
		s := mdLinkRE.ReplaceAllString(content, "$1 ($2)")
		s = mdEmphRE.ReplaceAllString(s, "")
		s = mdHeadingRE.ReplaceAllString(s, "")
		lines := strings.Split(s, "\n")
		for i, l := range lines {
			t := strings.TrimSpace(l)
			if strings.HasPrefix(t, "|") {
				cells := strings.Split(strings.Trim(t, "|"), "|")
				var keep []string
				for _, c := range cells {
					c = strings.TrimSpace(c)
					if strings.Trim(c, "-: ") != "" {
						keep = append(keep, c)
					}
				}
				lines[i] = strings.Join(keep, ": ")
			} else if strings.Trim(t, "-=*_ ") == "" {
				lines[i] = ""
			} else if !strings.HasSuffix(t, ".") && !strings.HasSuffix(t, ":") {
				// A heading or list item is a passage of its own.
				lines[i] = l
			}
		}
		return strings.Join(lines, "\n")
	case JSON:
		v, err := jsonvalue.Decode([]byte(content), 0)
		if err != nil {
			return content
		}
		var b strings.Builder
		flatten(&b, v, "", "")
		return b.String()
	}
	return content
}

// flatten writes one "key: value" line per scalar of v; key is the last
// two object keys, humanized.
func flatten(b *strings.Builder, v any, parent, key string) {
	switch v := v.(type) {
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(v)) {
			flatten(b, v[k], key, humanize(k))
		}
	case []any:
		for _, e := range v {
			flatten(b, e, parent, key)
		}
	case nil:
	default:
		label := strings.TrimSpace(parent + " " + key)
		val := fmt.Sprint(v)
		if label != "" {
			b.WriteString(label + ": ")
		}
		b.WriteString(strings.ReplaceAll(val, "\n", " "))
		if !strings.HasSuffix(val, ".") {
			b.WriteString(".")
		}
		b.WriteString("\n")
	}
}

// humanize turns a JSON key into words: "baseScore" and "base_score" are
// "base score".
func humanize(k string) string {
	var b strings.Builder
	for i, r := range k {
		switch {
		case r == '_' || r == '-':
			b.WriteByte(' ')
		case r >= 'A' && r <= 'Z' && i > 0 && k[i-1] >= 'a' && k[i-1] <= 'z':
			b.WriteByte(' ')
			b.WriteRune(r - 'A' + 'a')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// sourceExts are the extensions LoadDir reads.
var sourceExts = []string{".txt", ".md", ".markdown", ".json"}

// LoadDir reads every .txt, .md and .json file under dir (hidden
// directories skipped) as a Doc whose id is its path relative to dir, with
// forward slashes. A JSON file that is an object with a string "content"
// (and optional "id", "url", "title") is that document; any other JSON file
// is indexed as data. It fails on unreadable files, invalid UTF-8, and
// more than MaxDirBytes in all.
func LoadDir(dir string) ([]Doc, error) {
	var docs []Doc
	var total int64
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != dir && strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() || !slices.Contains(sourceExts, strings.ToLower(filepath.Ext(path))) {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if total += int64(len(data)); total > MaxDirBytes {
			return fmt.Errorf("%s: the sources together are larger than the limit of %d bytes", path, MaxDirBytes)
		}
		data = bytes.TrimPrefix(data, []byte{0xEF, 0xBB, 0xBF})
		if !utf8.Valid(data) {
			return fmt.Errorf("%s: the source is not UTF-8 text", path)
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		docs = append(docs, docFromFile(filepath.ToSlash(rel), data))
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("source directory %s: %w", dir, err)
	}
	return docs, nil
}

// docFromFile makes the Doc of a file: a JSON {"content": ...} object is a
// document with its own fields.
func docFromFile(id string, data []byte) Doc {
	d := Doc{ID: id, Content: string(data)}
	if strings.EqualFold(filepath.Ext(id), ".json") {
		var wrapped struct {
			ID      string `json:"id"`
			URL     string `json:"url"`
			Title   string `json:"title"`
			Content *string
		}
		if json.Unmarshal(data, &wrapped) == nil && wrapped.Content != nil {
			d.Content, d.URL, d.Title = *wrapped.Content, wrapped.URL, wrapped.Title
			d.Format = Text
			if wrapped.ID != "" {
				d.ID = wrapped.ID
			}
		}
	}
	return d
}
