package source

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/agentjudge/judge/internal/ablate"
	"github.com/agentjudge/judge/internal/claim"
)

// Index is the documents one request checks against: several DocIndexes
// searched together. It is safe for concurrent use.
type Index struct {
	parts []*DocIndex
	// meta maps the document a part was built from to the document as
	// this request gives it (its URL and title may differ); nil when
	// they are the same.
	meta map[*Doc]*Doc
}

// NewIndex joins document indexes.
func NewIndex(parts ...*DocIndex) *Index { return &Index{parts: parts} }

// NewIndexAs joins document indexes and names each part's document as
// docs[i] gives it: an index built once is reused under the URL and title
// of each request.
func NewIndexAs(parts []*DocIndex, docs []Doc) *Index {
	ix := &Index{parts: parts, meta: make(map[*Doc]*Doc, len(parts))}
	for i, p := range parts {
		d := docs[i]
		ix.meta[p.doc] = &d
	}
	return ix
}

// Docs returns the indexed documents.
func (ix *Index) Docs() []*Doc {
	var out []*Doc
	for _, p := range ix.parts {
		out = append(out, ix.source(p.doc))
	}
	return out
}

// source is the request's document for a part's built document.
func (ix *Index) source(d *Doc) *Doc {
	if m, ok := ix.meta[d]; ok {
		return m
	}
	return d
}

// Status is a claim's verdict.
type Status int

// The verdicts of a claim.
const (
	// Undecided: the sources hold nothing to decide the claim on.
	Undecided Status = iota
	// Supported: a passage states the claim's value.
	Supported
	// Contradicted: a passage about the same thing states another value.
	Contradicted
	// Unsupported: no passage states the claim's value.
	Unsupported
)

func (s Status) String() string {
	return [...]string{"undecided", "supported", "contradicted", "unsupported"}[s]
}

// Verdict is the outcome of checking one claim.
type Verdict struct {
	Status Status
	// Source is the document of Evidence as the request names it (use it,
	// not Evidence.Doc, in messages).
	Source *Doc
	// Evidence is the passage that supports or contradicts the claim, or,
	// for an unsupported negation, the passage stating it un-negated; nil
	// otherwise.
	Evidence *Passage
	// Found is the value the evidence states instead, when Contradicted.
	Found claim.Claim
	// Near is set for a contradiction that is a near miss: a date off in
	// its month or day only, a number within 5%.
	Near bool
	// Why says why an Undecided claim could not be decided, when the
	// sources say something of it: "the source gives 17 August without a
	// year".
	Why string
}

// maxCandidates is how many passages are read for a contradiction.
const maxCandidates = 12

// Check decides claim c against the index. Citations are not checked here
// (they name sources, see the facts layer); they come back Undecided.
func (ix *Index) Check(c claim.Claim) Verdict {
	v := ix.check(c)
	if c.Converted != nil && (v.Status == Unsupported || v.Status == Undecided) {
		// A measure and its conversion are one quantity: stated, or left
		// undecided, where either is; contradicted where one is, whatever
		// the other finds.
		if o := ix.check(*c.Converted); o.Status == Supported || o.Status == Undecided && v.Status == Unsupported {
			v = o
		}
	}
	if v.Evidence != nil {
		v.Source = ix.source(v.Evidence.Doc)
	}
	return v
}

func (ix *Index) check(c claim.Claim) Verdict {
	q := newQuery(c)
	switch c.Kind {
	case claim.Citation:
		return Verdict{}
	case claim.Negation:
		return ix.checkNegation(c, q)
	case claim.Name:
		if p := ix.findName(c); p != nil {
			return Verdict{Status: Supported, Evidence: p}
		}
		if v, ok := ix.bareHead(c); ok {
			return v
		}
		if v, ok := ix.definedAbbreviation(c); ok {
			return v
		}
	default:
		if p := ix.findValue(c, q); p != nil {
			return Verdict{Status: Supported, Evidence: p}
		}
		if p := ix.valueInWords(c, q); p != nil {
			return Verdict{Status: Supported, Evidence: p}
		}
		if v, ok := ix.age(c); ok {
			return v
		}
		if p := ix.dateWeekday(c); p != nil {
			return Verdict{Status: Supported, Evidence: p}
		}
		if v, ok := ix.pageDated(c, q); ok {
			return v
		}
		if v, ok := ix.partialDate(c, q); ok {
			return v
		}
		if v, ok := ix.eventDate(c, q); ok {
			return v
		}
	}
	if v, ok := ix.yearInSpan(c, q); ok {
		return v
	}
	if v, ok := ix.dayInSpan(c, q); ok {
		return v
	}
	if v, ok := ix.bounded(c, q); ok {
		return v
	}
	if v, ok := ix.rounded(c, q); ok {
		return v
	}
	if v, ok := ix.contradiction(c, q); ok {
		return v
	}
	if v, ok := ix.genericName(c); ok {
		return v
	}
	if v, ok := ix.relativeDate(c, q); ok {
		return v
	}
	if smallCount(c) {
		return Verdict{Status: Undecided}
	}
	if v, ok := ix.bareHour(c); ok {
		return v
	}
	if v, ok := ix.unnamedWeekday(c); ok {
		return v
	}
	return Verdict{Status: Unsupported}
}

// bareHour decides a time of day no source states or contradicts, where
// the sources give no time of day at all but its hour as a bare number
// ("7 pm" where a chat says "Let's make it 7"): the source does not say
// the number is a time, so the claim is undecided, with Why saying so.
func (ix *Index) bareHour(c claim.Claim) (Verdict, bool) {
	h, m, ok := strings.Cut(c.Value, ":")
	hh, err := strconv.Atoi(h)
	if ablate.Off(ablate.BareHour) || c.Kind != claim.Time || !ok || m != "00" || err != nil {
		return Verdict{}, false
	}
	for _, part := range ix.parts {
		if part.clock {
			return Verdict{}, false
		}
	}
	for _, n := range []int{hh, hh - 12} {
		if n < 1 || n > 12 {
			continue
		}
		for _, part := range ix.parts {
			for _, id := range part.values["number:"+strconv.Itoa(n)] {
				p := &part.passages[id]
				for _, s := range p.Claims {
					if s.Kind == claim.Number && s.Num == float64(n) && s.Unit == "" {
						return Verdict{Status: Undecided, Evidence: p, Found: s,
							Why: fmt.Sprintf("the source gives %s without saying it is a time of day", s.Quoted())}, true
					}
				}
			}
		}
	}
	return Verdict{}, false
}

// unnamedWeekday decides a weekday alone ("on Friday") that no source
// states, when the sources name no day of the week and no full date at
// all: they may speak of that day in other words ("TGIF", "at the
// weekend", "tomorrow"), and give no day it could contradict, so the
// claim is undecided.
func (ix *Index) unnamedWeekday(c claim.Claim) (Verdict, bool) {
	cd, ok := claim.ParseDate(c.Value)
	if ablate.Off(ablate.UnnamedWeekday) || c.Kind != claim.Date || !ok || cd.Weekday == "" {
		return Verdict{}, false
	}
	for _, part := range ix.parts {
		if part.dated || part.weekday {
			return Verdict{}, false
		}
	}
	return Verdict{Status: Undecided}, true
}

// smallCount reports whether c is a count of one or two written as a word
// ("two friends", "one person"): a count a text infers (two people in a
// conversation) more often than it reads, so one no source states is
// left undecided rather than called unsupported. A duration ("one-month
// anniversary") is a measure, not a count: it stays unsupported.
func smallCount(c claim.Claim) bool {
	return c.Kind == claim.Number && (c.Num == 1 || c.Num == 2) &&
		!strings.ContainsAny(c.Text, "0123456789") && !timeUnits[claim.Stem(c.Unit)]
}

// Related returns at most k passages most likely to bear on c: those that
// share the most words with its attribute and sentence, best first. Name
// a passage's document with [Index.SourceOf].
func (ix *Index) Related(c claim.Claim, k int) []*Passage {
	var out []*Passage
	for _, s := range ix.candidates(newQuery(c)) {
		if len(out) == k {
			break
		}
		out = append(out, s.p)
	}
	return out
}

// SourceOf returns the document of passage p as the request names it.
func (ix *Index) SourceOf(p *Passage) *Doc { return ix.source(p.Doc) }

// query is what a claim's passages are searched by: the stems of its
// attribute and of its sentence's other content words.
type query struct {
	attr, ctx []string
}

func newQuery(c claim.Claim) query {
	own := map[string]bool{}
	for _, w := range claim.ContentWords(c.Text) {
		own[w] = true
	}
	var q query
	q.attr = claim.ContentWords(c.Attribute)
	for _, w := range claim.ContentWords(c.Sentence) {
		if !own[w] && !slices.Contains(q.attr, w) && !isNumeric(w) {
			q.ctx = append(q.ctx, w)
		}
	}
	return q
}

func isNumeric(w string) bool { return strings.Trim(w, "0123456789.,") == "" }

// overlap counts the query's words in passage text: attribute words count
// twice.
func (q query) overlap(p *Passage) int {
	n := 0
	for _, w := range q.attr {
		if p.has(w) {
			n += 2
		}
	}
	for _, w := range q.ctx {
		if p.has(w) {
			n++
		}
	}
	return n
}

// findValue returns the best passage stating c's value, or nil.
func (ix *Index) findValue(c claim.Claim, q query) *Passage {
	var best *Passage
	bestScore, unitMatch := -1, false
	for _, key := range lookupKeys(c) {
		for _, part := range ix.parts {
			for _, id := range part.values[key] {
				p := &part.passages[id]
				i := slices.IndexFunc(p.Claims, func(s claim.Claim) bool { return sameValue(c, s) })
				if i < 0 {
					continue
				}
				// The same number with another unit ("870 infections",
				// "870 people infected") supports only where the passage
				// is about the same thing.
				su := p.Claims[i].Unit
				um := c.Kind != claim.Number || c.Unit == "" || su == "" || sameUnit(c.Unit, su)
				if !um && otherMeasure(c.Unit, su) {
					continue
				}
				score := q.overlap(p)
				if score > bestScore || score == bestScore && um && !unitMatch {
					best, bestScore, unitMatch = p, score, um
				}
			}
		}
	}
	if best == nil {
		return nil
	}
	if bestScore == 0 && len(q.attr)+len(q.ctx) > 0 && !(specific(c) && unitMatch) {
		// A bare number, a lone month or weekday supports only where the
		// passage is about the same thing, unless the claim's sentence
		// gives nothing to compare.
		return nil
	}
	return best
}

// otherMeasure reports whether a number of unit b can never state one of
// unit a (two units, not the same): "one month" is not "one year", and a
// length of time is not a count of things, either way: "three years" is
// not stated by the film title "3 Sparrows", nor "3 goals" by "3 years".
// Two counts of things ("870 infections", "870 people infected") may be
// the same count, which the passage's words decide.
func otherMeasure(a, b string) bool {
	if a == "" || b == "" {
		return false
	}
	ta, tb := timeUnits[claim.Stem(a)], timeUnits[claim.Stem(b)]
	return ta && tb || ta != tb && !ablate.Off(ablate.DurationUnit)
}

// timeUnits are the stems of units of time: a number of one is never a
// number of another.
var timeUnits = map[string]bool{"second": true, "minut": true, "hour": true, "day": true, "week": true, "month": true, "year": true, "decad": true, "century": true}

// specific reports whether c's value is unlikely to appear by chance: a
// number with a unit, a date with a year, a version or an identifier.
func specific(c claim.Claim) bool {
	switch c.Kind {
	case claim.Number:
		return c.Unit != ""
	case claim.Time:
		return false
	case claim.Date:
		d, _ := claim.ParseDate(c.Value)
		if d.Year != 0 && !ablate.Off(ablate.YearAnywhere) {
			// A year, a decade or a century rarely matches by chance:
			// any passage giving it states it, whatever it is about.
			return true
		}
		n := 0
		for _, part := range []int{d.Year, d.Month, d.Day} {
			if part != 0 {
				n++
			}
		}
		return n >= 2
	}
	return true
}

// sameValue reports whether source claim s states claim c's value.
func sameValue(c, s claim.Claim) bool {
	switch c.Kind {
	case claim.Number:
		if s.Kind == claim.Date {
			return sameValue(s, c)
		}
		return s.Kind == claim.Number && closeEnough(c.Num, s.Num, 1e-9)
	case claim.Date:
		if cd, ok := claim.ParseDate(c.Value); ok && cd.Period != 0 {
			return !ablate.Off(ablate.Period) && statesPeriod(cd, s)
		}
		if s.Kind == claim.Number {
			// A year the source writes as a bare number: "a 1997 outbreak".
			d, ok := claim.ParseDate(c.Value)
			return ok && d.Month == 0 && d.Day == 0 && d.Weekday == "" && float64(d.Year) == s.Num
		}
		if s.Kind != claim.Date {
			return false
		}
		cd, ok1 := claim.ParseDate(c.Value)
		sd, ok2 := claim.ParseDate(s.Value)
		return ok1 && ok2 && sd.Period == 0 && cd.Shared(sd) && cd.Agrees(sd) && covers(sd, cd)
	}
	return c.Kind == s.Kind && c.Value == s.Value
}

// statesPeriod reports whether source claim s states the decade or
// century p: a date or a bare year inside it ("1995" states "the
// 1990s"), or a period inside it ("the 1990s" states "the 20th
// century").
func statesPeriod(p claim.DateValue, s claim.Claim) bool {
	switch s.Kind {
	case claim.Number:
		return s.Unit == "" && s.Num == math.Trunc(s.Num) && p.Holds(int(s.Num))
	case claim.Date:
		sd, ok := claim.ParseDate(s.Value)
		return ok && sd.Year != 0 && p.Holds(sd.Year) && p.Holds(sd.Last())
	}
	return false
}

// lookupKeys are the keys under which the passages that may state c are
// found: valueKeys, and for a decade or century every year in it.
func lookupKeys(c claim.Claim) []string {
	d, ok := claim.ParseDate(c.Value)
	if c.Kind != claim.Date || !ok || d.Period == 0 {
		return valueKeys(c)
	}
	keys := valueKeys(c)
	for y := d.Year; y <= d.Last(); y++ {
		keys = append(keys, "date:y:"+strconv.Itoa(y), "number:"+strconv.Itoa(y))
	}
	return keys
}

// partialDate decides a date claim that a passage about the same thing
// (sharing a word with its sentence) gives only in part: the same month,
// and day if both give one, but no year ("17 August last year" for
// "August 2022"). The source neither states nor contradicts the rest, so
// the claim is undecided, with Why saying so, and no other date of the
// sources contradicts it.
func (ix *Index) partialDate(c claim.Claim, q query) (Verdict, bool) {
	cd, ok := claim.ParseDate(c.Value)
	if c.Kind != claim.Date || !ok || cd.Month == 0 || cd.Year == 0 {
		return Verdict{}, false
	}
	key := "date:m:" + strconv.Itoa(cd.Month)
	for _, part := range ix.parts {
		for _, id := range part.values[key] {
			p := &part.passages[id]
			if q.overlap(p) == 0 {
				continue
			}
			for _, s := range p.Claims {
				sd, ok := claim.ParseDate(s.Value)
				if s.Kind != claim.Date || !ok || sd.Month != cd.Month || sd.Year != 0 || !cd.Agrees(sd) {
					continue
				}
				return Verdict{Status: Undecided, Evidence: p, Found: s,
					Why: fmt.Sprintf("the source gives %s without a year", s.Quoted())}, true
			}
		}
	}
	return Verdict{}, false
}

// dateWeekday returns the passage stating the full date written right
// after weekday claim c in its sentence ("Friday, October 6, 1995"), when
// the calendar puts that date on c's weekday: a page giving the date
// gives its weekday. Another weekday ("Monday, October 6, 1995") is not
// stated, and a weekday alone is left to the other rules.
func (ix *Index) dateWeekday(c claim.Claim) *Passage {
	cd, ok := claim.ParseDate(c.Value)
	if ablate.Off(ablate.DateWeekday) || c.Kind != claim.Date || !ok || cd.Weekday == "" || cd.Year != 0 || cd.Month != 0 {
		return nil
	}
	at := strings.Index(c.Sentence, c.Text)
	if at < 0 {
		return nil
	}
	end := at + len(c.Text)
	for _, d := range claim.Extract(c.Sentence, "").Claims {
		dd, ok := claim.ParseDate(d.Value)
		if d.Kind != claim.Date || !ok || d.Start < end || strings.Trim(c.Sentence[end:d.Start], ", ") != "" ||
			dd.Year == 0 || dd.Month == 0 || dd.Day == 0 || dd.Period != 0 {
			continue
		}
		day := time.Date(dd.Year, time.Month(dd.Month), dd.Day, 0, 0, 0, 0, time.UTC)
		if day.Month() != time.Month(dd.Month) || lowerWeekday(day.Weekday()) != cd.Weekday {
			return nil
		}
		return ix.findValue(d, newQuery(d))
	}
	return nil
}

// eventDate aligns a date claim with the source's date of the same event
// written with another verb: "discovered in March 2024" against "reported
// in February 2024". The source's date must be of an event of the same
// family (claim.Claim.Event), in the same year, in a passage that shares a
// word of the claim's sentence other than its verb (the same subject), or
// be the only date of that event and year in the sources; then a month
// that differs is a near-miss contradiction, and the suggestion gives the
// source's date.
func (ix *Index) eventDate(c claim.Claim, q query) (Verdict, bool) {
	fam := c.Event()
	cd, ok := claim.ParseDate(c.Value)
	if ablate.Off(ablate.EventDate) || fam == "" || !ok || cd.Year == 0 || cd.Month == 0 || cd.Period != 0 {
		return Verdict{}, false
	}
	var best Verdict
	bestScore, n := -1, 0
	for _, part := range ix.parts {
		for _, id := range part.values["date:y:"+strconv.Itoa(cd.Year)] {
			p := &part.passages[id]
			score := 0
			for _, w := range q.ctx {
				if p.has(w) && !claim.IsEventVerb(w) {
					score++
				}
			}
			for _, s := range p.Claims {
				sd, ok := claim.ParseDate(s.Value)
				if s.Kind != claim.Date || !ok || s.Event() != fam || sd.Year != cd.Year || sd.Month == 0 || sd.Period != 0 {
					continue
				}
				if cd.Agrees(sd) {
					return Verdict{}, false // the sources also give the claimed date
				}
				n++
				if score > bestScore {
					best, bestScore = Verdict{Status: Contradicted, Evidence: p, Found: s, Near: true}, score
				}
			}
		}
	}
	// The same subject: the passage shares a word of the claim's
	// sentence, or it is the only date of that event the sources give
	// that year ("It was discovered in March 2024", the sentence's
	// subject a pronoun).
	return best, bestScore > 0 || n == 1
}

// relativeDate decides a date claim with a year or month that no passage states or
// contradicts, where the passage that best matches its sentence (sharing
// minRelativeOverlap words or more, and a quarter of the sentence's)
// dates something relative to a day it does not give: "won the national
// student cup in 2019" against "took the National Student Cup this year,
// building on 2018". The source neither states nor contradicts the year,
// so the claim is undecided, with Why quoting the relative date.
func (ix *Index) relativeDate(c claim.Claim, q query) (Verdict, bool) {
	cd, ok := claim.ParseDate(c.Value)
	if ablate.Off(ablate.RelativeDate) || c.Kind != claim.Date || !ok || cd.Year == 0 || cd.Period != 0 {
		return Verdict{}, false
	}
	cands := ix.candidates(q)
	need := max(minRelativeOverlap, (2*len(q.attr)+len(q.ctx)+3)/4)
	if len(cands) == 0 || cands[0].score < need {
		return Verdict{}, false
	}
	p := cands[0].p
	rel := p.relative()
	if rel == "" {
		return Verdict{}, false
	}
	return Verdict{Status: Undecided, Evidence: p,
		Why: fmt.Sprintf("the source dates it %q, relative to a day it does not give", rel)}, true
}

// minRelativeOverlap is the fewest words a passage dating something
// relative to its day must share with a claim's sentence to leave the
// claim's year undecided.
const minRelativeOverlap = 3

// covers reports whether source date s gives every part claim date c
// gives (c "February 2024" is covered by "February 13, 2024", not by
// "2024").
func covers(s, c claim.DateValue) bool {
	return (c.Year == 0 || s.Year != 0) && (c.Month == 0 || s.Month != 0) && (c.Day == 0 || s.Day != 0) && (c.Weekday == "" || s.Weekday != "")
}

func sameUnit(a, b string) bool { return claim.Stem(a) == claim.Stem(b) }

func closeEnough(a, b, rel float64) bool {
	if a == b {
		return true
	}
	return math.Abs(a-b) <= rel*math.Max(math.Abs(a), math.Abs(b))
}

// intersect returns the passages of part holding every word.
func intersect(part *DocIndex, words []string) []int32 {
	lists := make([][]int32, 0, len(words))
	for _, w := range words {
		l := part.words[w]
		if len(l) == 0 {
			return nil
		}
		lists = append(lists, l)
	}
	sort.Slice(lists, func(i, j int) bool { return len(lists[i]) < len(lists[j]) })
	out := lists[0]
	for _, l := range lists[1:] {
		var next []int32
		for _, id := range out {
			if _, ok := slices.BinarySearch(l, id); ok {
				next = append(next, id)
			}
		}
		out = next
		if len(out) == 0 {
			return nil
		}
	}
	return out
}

// candidates returns the passages that share the most query words, best
// first, at most maxCandidates, each with its score.
func (ix *Index) candidates(q query) []scored {
	type key struct {
		part *DocIndex
		id   int32
	}
	score := map[key]int{}
	total := 0
	for _, part := range ix.parts {
		total += len(part.passages)
	}
	add := func(words []string, weight int) {
		for _, w := range words {
			// A word in a large share of all passages says little about
			// which one is meant, and costs the most: skip it.
			df := 0
			for _, part := range ix.parts {
				df += len(part.words[w])
			}
			if df > 200 && df*100 > total {
				continue
			}
			for _, part := range ix.parts {
				for _, id := range part.words[w] {
					score[key{part, id}] += weight
				}
			}
		}
	}
	add(q.attr, 2)
	add(q.ctx, 1)
	out := make([]scored, 0, len(score))
	for k, s := range score {
		out = append(out, scored{&k.part.passages[k.id], s, k.id})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].score != out[j].score {
			return out[i].score > out[j].score
		}
		if out[i].p.Doc.ID != out[j].p.Doc.ID {
			return out[i].p.Doc.ID < out[j].p.Doc.ID
		}
		if out[i].p.Line != out[j].p.Line {
			return out[i].p.Line < out[j].p.Line
		}
		// Several passages of one line (its sentences): the first first,
		// so that the best candidate is the same on every run.
		return out[i].id < out[j].id
	})
	if len(out) > maxCandidates {
		out = out[:maxCandidates]
	}
	return out
}

type scored struct {
	p     *Passage
	score int
	id    int32 // the passage's index in its document
}

// contradiction looks for a passage about the same thing as c that states
// another value of the same kind.
func (ix *Index) contradiction(c claim.Claim, q query) (Verdict, bool) {
	switch c.Kind {
	case claim.Number, claim.Date, claim.Time, claim.Version, claim.VersionRange, claim.Name, claim.CVE:
	default:
		return Verdict{}, false
	}
	if c.Kind == claim.Name && c.Attribute == "" {
		return Verdict{}, false
	}
	need := contradictionOverlap(q)
	var own []claim.Claim
	ownRead := false
	for _, cand := range ix.candidates(q) {
		if cand.score < need {
			break
		}
		for _, s := range cand.p.Claims {
			near, ok := conflicts(c, s)
			if ok && c.Kind == claim.Date && !near && cand.p.relative() != "" && !ablate.Off(ablate.RelativeDate) {
				// "Since that first win in 2006 ... his new victory
				// today": another year in a passage that dates
				// something relative to its day may be of another
				// event than the claim's.
				continue
			}
			if ok && !ablate.Off(ablate.OwnValue) {
				if !ownRead {
					own, ownRead = sentenceClaims(c), true
				}
				if statesOwn(s, own) {
					// "retired in 1996; Oue served from 1997 to 2003"
					// against "Oue served from 1997 to 2003": the value
					// is the one the sentence gives its other part.
					continue
				}
			}
			if ok {
				return Verdict{Status: Contradicted, Evidence: cand.p, Found: s, Near: near}, true
			}
		}
	}
	return Verdict{}, false
}

// sentenceClaims returns the claims of c's sentence other than c: those
// its other specifics are.
func sentenceClaims(c claim.Claim) []claim.Claim {
	var out []claim.Claim
	for _, o := range claim.Extract(c.Sentence, "").Claims {
		if o.Kind == c.Kind && (o.Text == c.Text || o.Value == c.Value) {
			continue
		}
		out = append(out, o)
	}
	return out
}

// statesOwn reports whether source claim s gives the value of one of the
// claims own, those of a claim's sentence other than the claim: then s is
// that other part of the sentence ("After his retirement in 1996, Oue
// served from 1997 to 2003" against "Oue served from 1997 to 2003"; "in
// 1997 he was awarded the medal for his actions on December 26, 1944"
// against a citation dated 26 December 1944, "on Sunday rather than
// Saturday" against "on Saturday"), and says nothing of the claim's
// value either way.
func statesOwn(s claim.Claim, own []claim.Claim) bool {
	for _, o := range own {
		if o.Kind != s.Kind {
			continue
		}
		switch o.Kind {
		case claim.Date:
			od, ok1 := claim.ParseDate(o.Value)
			sd, ok2 := claim.ParseDate(s.Value)
			if ok1 && ok2 && od.Period == 0 && sd.Period == 0 && od.Shared(sd) && od.Agrees(sd) {
				return true
			}
		case claim.Number:
			if closeEnough(o.Num, s.Num, 1e-9) && (o.Unit == "" || s.Unit == "" || sameUnit(o.Unit, s.Unit)) {
				return true
			}
		default:
			if o.Value == s.Value {
				return true
			}
		}
	}
	return false
}

// contradictionOverlap is the score a passage needs to be about the same
// thing as a claim of query q: two words, or all the sentence has when it
// has fewer than three and no attribute.
func contradictionOverlap(q query) int {
	if len(q.attr) == 0 && len(q.ctx) < 3 {
		return max(1, len(q.ctx))
	}
	return 2
}

// conflicts reports whether source claim s gives another value for what
// claim c states, and whether that is a near miss.
func conflicts(c, s claim.Claim) (near, ok bool) {
	if c.Kind != s.Kind {
		return false, false
	}
	if c.Attribute != "" && s.Attribute != "" && !sharesWord(c.Attribute, s.Attribute) {
		return false, false
	}
	if ce, se := c.Event(), s.Event(); ce != "" && se != "" && ce != se {
		// "discovery date" and "release date" share a word, not an
		// event.
		return false, false
	}
	switch c.Kind {
	case claim.Number:
		if c.Unit != "" && s.Unit != "" && !sameUnit(c.Unit, s.Unit) {
			return false, false
		}
		// Two numbers are about the same thing when they measure the
		// same attribute, or else count the same unit: "$5 million" is
		// not contradicted by "meet at 6".
		sameAttr := c.Attribute != "" && s.Attribute != ""
		sameCount := c.Unit != "" && s.Unit != ""
		if !sameAttr && !sameCount {
			return false, false
		}
		if closeEnough(c.Num, s.Num, 1e-9) {
			return false, false
		}
		return closeEnough(c.Num, s.Num, 0.05), true
	case claim.Date:
		cd, ok1 := claim.ParseDate(c.Value)
		sd, ok2 := claim.ParseDate(s.Value)
		if !ok1 || !ok2 || !cd.Shared(sd) || cd.Period != 0 || sd.Period != 0 {
			// A decade or century is never contradicted: "the 1990s"
			// and "1985" may speak of different things.
			return false, false
		}
		diff := cd.Disagree(sd)
		if len(diff) == 0 {
			return false, false
		}
		return !slices.Contains(diff, "year") && !slices.Contains(diff, "weekday"), true
	case claim.Name:
		if c.Attribute == "" || s.Attribute == "" || c.Value == s.Value {
			return false, false
		}
		return false, true
	default:
		return false, c.Value != s.Value
	}
}

func sharesWord(a, b string) bool {
	bw := claim.ContentWords(b)
	for _, w := range claim.ContentWords(a) {
		if slices.Contains(bw, w) {
			return true
		}
	}
	return false
}

// checkNegation decides a negation by the passages holding its words,
// else by the passage that best matches its sentence (sharing at least
// minNegationOverlap content words and a quarter of the sentence's) when
// that passage holds the first negated word: "did not approve the plan
// quickly" is unsupported where the source says "approved the plan" and
// nowhere "quickly".
func (ix *Index) checkNegation(c claim.Claim, q query) Verdict {
	words := strings.Fields(c.Value)
	var plain *Passage
	for _, part := range ix.parts {
		for _, id := range intersect(part, words) {
			p := &part.passages[id]
			if p.negated {
				return Verdict{Status: Supported, Evidence: p}
			}
			if plain == nil {
				plain = p
			}
		}
	}
	if plain == nil {
		// No passage holds every negated word: the passage that best
		// matches the claim's sentence decides when it holds the first
		// negated word (the verb) and shares enough of the sentence.
		cands := ix.candidates(q)
		if len(cands) == 0 || len(words) == 0 || cands[0].score < max(minNegationOverlap, (len(q.ctx)+3)/4) || !cands[0].p.has(words[0]) {
			return Verdict{Status: Undecided}
		}
		if cands[0].p.negated {
			return Verdict{Status: Supported, Evidence: cands[0].p}
		}
		plain = cands[0].p
	}
	return Verdict{Status: Unsupported, Evidence: plain}
}

// Swap is a word of an output sentence whose antonym the passage that
// best matches the sentence uses instead: "prices went down" against
// "prices went up".
type Swap struct {
	// Word is the sentence's word and Antonym the passage's, as written.
	Word, Antonym string
	Evidence      *Passage
	// Source is the evidence's document as the request names it.
	Source *Doc
}

// AntonymSwaps looks for a passage that matches sentence and returns the
// words of the sentence it does not use whose antonym (antonyms gives the
// stems of a stem's antonyms) it uses instead. One of the two passages
// that best match must share at least three content words and a quarter
// of the sentence's; a passage that matches less (two shared words,
// among the five best) counts only for an antonym beside the same word as
// the sentence's ("decreased market" where it says "increased market"),
// where a negating prefix also makes an antonym ("unimpressive" for
// "impressive"). A sentence or passage with a negation is skipped: "not
// up" and "down" say the same.
func (ix *Index) AntonymSwaps(sentence string, antonyms func(stem string) []string) []Swap {
	if negated(sentence) {
		return nil
	}
	type word struct {
		stem, surface string
		prev, next    string // the stems of the content words beside it
	}
	var words []word
	seen := map[string]bool{}
	seq := contentSequence(sentence)
	for i, st := range seq {
		if seen[st.stem] || len(st.stem) < 3 || isNumeric(st.stem) {
			continue
		}
		seen[st.stem] = true
		w := word{stem: st.stem, surface: sentence[st.start:st.end]}
		if i > 0 {
			w.prev = seq[i-1].stem
		}
		if i+1 < len(seq) {
			w.next = seq[i+1].stem
		}
		words = append(words, w)
	}
	// Search only when some word's antonym occurs in the sources at all:
	// most sentences stop here, before the costlier passage search.
	if !slices.ContainsFunc(words, func(w word) bool {
		return slices.ContainsFunc(antonyms(w.stem), ix.hasWord) || slices.ContainsFunc(negatedForms(w.stem), ix.hasWord)
	}) {
		return nil
	}
	q := query{}
	for _, w := range words {
		q.ctx = append(q.ctx, w.stem)
	}
	cands := ix.candidates(q)
	need := max(minSwapOverlap, (len(words)+3)/4)
	var out []Swap
	for k, c := range cands[:min(len(cands), swapCandidates)] {
		if c.score < minLocalSwapOverlap {
			break
		}
		if c.p.negated {
			continue
		}
		best := k < 2 && c.score >= need
		p := c.p
		pseq := contentSequence(p.Text)
		pw := map[string]int{}
		for i, x := range pseq {
			if _, ok := pw[x.stem]; !ok {
				pw[x.stem] = i
			}
		}
		for _, w := range words {
			if _, ok := pw[w.stem]; ok {
				continue
			}
			direct := antonyms(w.stem)
			for j, a := range slices.Concat(direct, negatedForms(w.stem)) {
				i, ok := pw[a]
				if !ok || seen[a] {
					continue
				}
				best := best && j < len(direct)
				// Outside the best-matching passages, the antonym must stand
				// where the word stands: beside the same word ("decreased
				// market" where the source says "increased market").
				local := i > 0 && w.prev != "" && pseq[i-1].stem == w.prev || i+1 < len(pseq) && w.next != "" && pseq[i+1].stem == w.next
				if best || local {
					out = append(out, Swap{Word: w.surface, Antonym: p.Text[pseq[i].start:pseq[i].end], Evidence: p, Source: ix.source(p.Doc)})
					break
				}
			}
		}
		if len(out) > 0 {
			return out
		}
	}
	return nil
}

// negationPrefixes turn a word into its opposite: "unimpressive",
// "disagree", "nonprofit".
var negationPrefixes = []string{"un", "dis", "non"}

// negatedForms returns the stems that differ from stem w by a negating
// prefix, added or taken away: "impressive" gives "unimpressive",
// "disimpressive" and "nonimpressive"; "unsurprising" gives "surprising".
func negatedForms(w string) []string {
	var out []string
	for _, p := range negationPrefixes {
		if rest, ok := strings.CutPrefix(w, p); ok && len(rest) >= 4 {
			out = append(out, strings.TrimPrefix(rest, "-"))
		} else if len(w) >= 4 {
			out = append(out, p+w)
		}
	}
	return out
}

// span is a content word of a text: its stem and byte span.
type span struct {
	stem       string
	start, end int
}

// contentSequence returns the content words of s in order, stemmed.
func contentSequence(s string) []span {
	var out []span
	claim.WordsFunc(s, func(w string, start, end int) {
		if claim.IsStopword(w) {
			return
		}
		out = append(out, span{claim.Stem(w), start, end})
	})
	return out
}

// hasWord reports whether a passage of the index holds a word of stem w.
func (ix *Index) hasWord(w string) bool {
	for _, part := range ix.parts {
		if len(part.words[w]) > 0 {
			return true
		}
	}
	return false
}

// minSwapOverlap is the fewest content words one of the two passages that
// best match a sentence must share with it for any antonym swap between
// them to count.
const minSwapOverlap = 3

// A passage among the swapCandidates that best match a sentence, sharing
// at least minLocalSwapOverlap content words with it, counts only for an
// antonym beside the same word as the sentence's word.
const (
	swapCandidates      = 5
	minLocalSwapOverlap = 2
)

// negated reports whether s holds a negation.
func negated(s string) bool {
	for _, c := range claim.Extract(s, "").Claims {
		if c.Kind == claim.Negation {
			return true
		}
	}
	return false
}

// DroppedNegation looks for the passage that best matches sentence and
// returns it when it negates what the sentence states plainly: the
// passage says "the council did not approve the plan" and the sentence,
// with no negation of its own, "the council approved the plan". The
// words the passage's negation governs must follow each other in the
// sentence as they do in the passage, and the passage must share at least
// minNegationOverlap content words and a quarter of the sentence's, so
// that it speaks of the same thing. It returns nil when there is no such
// passage.
func (ix *Index) DroppedNegation(sentence string) *Passage {
	if negated(sentence) {
		return nil
	}
	own := map[string]bool{}
	var q query
	for _, w := range claim.ContentWords(sentence) {
		if !own[w] && !isNumeric(w) {
			own[w] = true
			q.ctx = append(q.ctx, w)
		}
	}
	need := max(minNegationOverlap, (len(q.ctx)+3)/4)
	cands := ix.candidates(q)
	if len(cands) == 0 || cands[0].score < need || !cands[0].p.negated {
		return nil
	}
	p := cands[0].p
	seq := " " + strings.Join(claim.ContentWords(sentence), " ") + " "
	for _, c := range p.Claims {
		if c.Kind == claim.Negation && strings.Contains(seq, " "+c.Value+" ") {
			return p
		}
	}
	return nil
}

// minNegationOverlap is the fewest content words a passage must share
// with a sentence for a negation it drops to count.
const minNegationOverlap = 4
