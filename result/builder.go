package result

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"os"
	"slices"
	"strings"
	"time"
	"unicode/utf8"
)

// Text limits of Message and Suggestion, in characters, from the
// specification.
const (
	MinTextLen = 10
	MaxTextLen = 500
)

// DefaultMaxIssues is how many issues a built result keeps; the rest are
// summarized by one info issue. Errors are kept first, so Valid stays right.
const DefaultMaxIssues = 500

// SelfCheckEnv names the environment variable that, when "1" as the
// program starts, makes every Build of a builder given no [SelfCheck] of
// its own validate its result against the embedded JSON Schema and log a
// violation as an error through [slog.Default] (never a panic). The test
// script sets it so that every result produced anywhere in the test suite
// is checked. It is read once, when the package is initialised (see
// [SelfCheckFromEnv]), never by Build.
const SelfCheckEnv = "JUDGE_SELFCHECK"

// SelfCheckReportEnv names the environment variable that, with the
// self-check on, also names a file to which every violation is appended as
// one JSON line ({"err", "result"}). The test script sets it and fails the
// run when the file is not empty, so a result that breaks the
// specification anywhere in the suite, in any process, still fails it
// although Build no longer panics.
const SelfCheckReportEnv = "JUDGE_SELFCHECK_REPORT"

// SelfCheck makes Build validate every result it builds against the
// specification's JSON Schema (see [Builder.SelfCheck]). A violation is
// logged as an error through Log ([slog.Default] when nil), never a panic,
// and appended as one JSON line ({"err", "result"}) to the file Report
// names, when it names one.
type SelfCheck struct {
	Log    *slog.Logger
	Report string
}

// SelfCheckFromEnv reads the self-check through getenv (os.Getenv in a
// program): nil, no check, unless SelfCheckEnv is "1"; the report file
// from SelfCheckReportEnv.
func SelfCheckFromEnv(getenv func(string) string) *SelfCheck {
	if getenv(SelfCheckEnv) != "1" {
		return nil
	}
	return &SelfCheck{Report: getenv(SelfCheckReportEnv)}
}

// processSelfCheck is the self-check of builders given none: the
// environment's as the program started, read once here and never written
// again, so that Build reads no environment and every builder of the
// process, in any package, is checked when the test script asks.
var processSelfCheck = SelfCheckFromEnv(os.Getenv)

// ProcessSelfCheck returns a copy of the self-check the environment asked
// for as the program started (see SelfCheckEnv), or nil: what builders
// given none use.
func ProcessSelfCheck() *SelfCheck {
	if processSelfCheck == nil {
		return nil
	}
	sc := *processSelfCheck
	return &sc
}

// Builder collects the parts of a result and builds it with the invariants
// enforced. The zero Builder is not usable: call [NewBuilder]. A Builder is
// not safe for concurrent use.
type Builder struct {
	issues     []Issue
	passed     []string
	failed     []string
	types      []string
	models     []string
	tokens     TokenUsage
	confidence float64
	quality    float64
	qualitySet bool
	duration   time.Duration
	maxIssues  int
	check      *SelfCheck
}

// NewBuilder returns a Builder with confidence 1, the quality score
// derived from the issues by [QualityScore] unless set, and the self-check
// the environment asked for as the program started (see SelfCheckEnv)
// unless [Builder.SelfCheck] sets another.
func NewBuilder() *Builder {
	return &Builder{confidence: 1, maxIssues: DefaultMaxIssues, check: processSelfCheck}
}

// SelfCheck sets how Build checks its result against the specification's
// schema: nil for no check.
func (b *Builder) SelfCheck(sc *SelfCheck) *Builder {
	b.check = sc
	return b
}

// Add appends issues.
func (b *Builder) Add(issues ...Issue) *Builder {
	b.issues = append(b.issues, issues...)
	return b
}

// Pass records a criterion that was met.
func (b *Builder) Pass(criterion string) *Builder {
	b.passed = append(b.passed, criterion)
	return b
}

// Fail records a criterion that was not met.
func (b *Builder) Fail(criterion string) *Builder {
	b.failed = append(b.failed, criterion)
	return b
}

// Ran records validation types that ran, in order, once each.
func (b *Builder) Ran(types ...string) *Builder {
	for _, t := range types {
		if !slices.Contains(b.types, t) {
			b.types = append(b.types, t)
		}
	}
	return b
}

// Model records an LLM model that decided a check. Several models are
// joined with commas.
func (b *Builder) Model(name string) *Builder {
	if name != "" && !slices.Contains(b.models, name) {
		b.models = append(b.models, name)
	}
	return b
}

// Tokens adds the tokens of model calls to metadata.token_usage; negative
// counts are ignored.
func (b *Builder) Tokens(prompt, completion int64) *Builder {
	b.tokens.PromptTokens += max(prompt, 0)
	b.tokens.CompletionTokens += max(completion, 0)
	b.tokens.TotalTokens = b.tokens.PromptTokens + b.tokens.CompletionTokens
	return b
}

// Confidence sets the confidence; it is clamped to [0, 1] and NaN becomes 0.
func (b *Builder) Confidence(c float64) *Builder {
	b.confidence = c
	return b
}

// QualityScore sets the quality score, overriding [QualityScore] of the
// issues; it is clamped to [0, 1] and NaN becomes 0.
func (b *Builder) QualityScore(q float64) *Builder {
	b.quality, b.qualitySet = q, true
	return b
}

// Duration sets the duration reported in the metadata.
func (b *Builder) Duration(d time.Duration) *Builder {
	b.duration = d
	return b
}

// MaxIssues sets how many issues the result keeps, at least 2: one kept
// issue and the note counting the rest.
func (b *Builder) MaxIssues(n int) *Builder {
	b.maxIssues = max(n, 2)
	return b
}

// Build returns the result. It never fails: whatever was added is brought
// within the invariants of the package documentation.
func (b *Builder) Build() *ValidationResult {
	issues := make([]Issue, 0, len(b.issues))
	for _, is := range b.issues {
		issues = append(issues, normalize(is))
	}
	return b.build(issues)
}

// build returns the result of the normalized issues, an array of its own.
func (b *Builder) build(issues []Issue) *ValidationResult {
	slices.SortStableFunc(issues, CompareIssues)
	issues = slices.Compact(issues)
	issues = capIssues(issues, b.maxIssues)

	// A result of one validation type takes one allocation with its
	// types (the fast path's answer; see Passed).
	one := &struct {
		r     ValidationResult
		types [1]string
	}{}
	types := one.types[:0]
	if len(b.types) > 1 {
		types = make([]string, 0, len(b.types))
	}
	r := &one.r
	*r = ValidationResult{
		Valid:          true,
		Confidence:     unit(b.confidence),
		Issues:         issues,
		PassedCriteria: append([]string{}, b.passed...),
		FailedCriteria: append([]string{}, b.failed...),
		Metadata: Metadata{
			ValidationTypesRun: append(types, b.types...),
			TotalIssues:        len(issues),
			DurationMS:         durationMS(b.duration),
			Model:              Deterministic,
		},
	}
	if len(b.models) > 0 {
		r.Metadata.Model = strings.Join(b.models, ",")
	}
	if b.tokens != (TokenUsage{}) {
		tu := b.tokens
		r.Metadata.TokenUsage = &tu
	}
	for _, is := range issues {
		switch is.Severity {
		case Error:
			r.Valid = false
			r.Metadata.ErrorCount++
		case Warning:
			r.Metadata.WarningCount++
		default:
			r.Metadata.InfoCount++
		}
	}
	if b.qualitySet {
		r.QualityScore = unit(b.quality)
	} else {
		r.QualityScore = QualityScore(issues)
	}
	if slices.Contains(b.types, QualityType) {
		r.Metadata.QualityDimensions = QualityDimensions(issues)
	}
	if b.check != nil {
		selfCheck(r, cmp.Or(b.check.Log, slog.Default()), b.check.Report)
	}
	return r
}

// selfCheck validates r against the embedded schema and logs a report to
// log when it breaks it, appending it to the file report too when that is
// not empty. It never panics: Build runs inside library calls, the CLI and
// the server, none of which may crash on a result.
func selfCheck(r *ValidationResult, log *slog.Logger, report string) bool {
	err := Check(r)
	if err == nil {
		return true
	}
	log.Error("result: built result breaks the specification", "env", SelfCheckEnv, "err", err)
	if report != "" {
		if werr := appendReport(report, r, err); werr != nil {
			log.Error("result: self-check report not written", "env", SelfCheckReportEnv, "err", werr)
		}
	}
	return false
}

// appendReport appends one JSON line naming err and the result to the file
// at path, in a single write so that lines of several processes do not mix.
func appendReport(path string, r *ValidationResult, err error) error {
	line, jerr := json.Marshal(struct {
		Err    string            `json:"err"`
		Result *ValidationResult `json:"result"`
	}{err.Error(), r})
	if jerr != nil {
		return jerr
	}
	f, oerr := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if oerr != nil {
		return oerr
	}
	_, werr := f.Write(append(line, '\n'))
	return errors.Join(werr, f.Close())
}

// Quality penalties per severity: each issue multiplies the score by
// (1 - penalty). Process types (see [TypeInfo]) carry no penalty.
const (
	ErrorPenalty   = 0.20
	WarningPenalty = 0.10
	InfoPenalty    = 0.02
)

// QualityScore is the default quality score of a list of issues: the
// product over issues of (1 - penalty of its severity). It is 1 with no
// issues, never rises when an issue is added or made more severe, and lands
// the four complete examples of the specification in their rubric bands.
func QualityScore(issues []Issue) float64 {
	q := 1.0
	for i := range issues { // by index: an Issue is 112 bytes
		if is := &issues[i]; !process(is.Type) {
			q *= qualityFactor(is.Severity)
		}
	}
	return unit(q)
}

// qualityFactor is what an issue of severity s that is not of a process
// type multiplies the quality score by (QualityScore's product).
func qualityFactor(s Severity) float64 {
	switch s {
	case Error:
		return 1 - ErrorPenalty
	case Warning:
		return 1 - WarningPenalty
	default:
		return 1 - InfoPenalty
	}
}

// Grade is the rubric band of a quality score: Excellent, Good, Fair, Poor
// or Very Poor.
func Grade(q float64) string {
	switch {
	case q >= 0.9:
		return "Excellent"
	case q >= 0.7:
		return "Good"
	case q >= 0.5:
		return "Fair"
	case q >= 0.3:
		return "Poor"
	default:
		return "Very Poor"
	}
}

// unit is x within [0, 1], rounded to four decimals (0 for NaN).
func unit(x float64) float64 {
	if x == 1 {
		// What the rounding gives of 1 (a deterministic layer's
		// confidence, the score of no issue), without it.
		return 1
	}
	if math.IsNaN(x) {
		return 0
	}
	return math.Round(min(max(x, 0), 1)*10000) / 10000
}

// durationMS is d in milliseconds to the microsecond: d's whole
// microseconds over 1000. (A whole number of microseconds is its own
// math.Round, which the value was once given.)
func durationMS(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func severityRank(s Severity) int {
	switch s {
	case Error:
		return 0
	case Warning:
		return 1
	default:
		return 2
	}
}

// CompareIssues orders issues as a built result lists them: by location
// (numbers in it by value, see [CompareLocations]), type, message, then
// severity, suggestion and rule.
func CompareIssues(a, b Issue) int { return compareIssues(&a, &b) }

// compareIssues is CompareIssues without copying the issues.
func compareIssues(a, b *Issue) int {
	// In turn, not through cmp.Or, which would work out every comparison.
	if c := CompareLocations(a.Location, b.Location); c != 0 {
		return c
	}
	if c := strings.Compare(string(a.Type), string(b.Type)); c != 0 {
		return c
	}
	if c := strings.Compare(a.Message, b.Message); c != 0 {
		return c
	}
	if c := cmp.Compare(severityRank(a.Severity), severityRank(b.Severity)); c != 0 {
		return c
	}
	if c := strings.Compare(a.Suggestion, b.Suggestion); c != 0 {
		return c
	}
	return strings.Compare(a.Rule, b.Rule)
}

// CompareLocations orders locations as text, except that a run of digits
// compares with a run of digits by its value: "items[2]" before
// "items[10]", "line:9" before "line:10". Equal values written differently
// ("[07]", "[7]") fall back to their text.
func CompareLocations(a, b string) int {
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		if isDigit(a[i]) && isDigit(b[j]) {
			ei, ej := digitsEnd(a, i), digitsEnd(b, j)
			na, nb := strings.TrimLeft(a[i:ei], "0"), strings.TrimLeft(b[j:ej], "0")
			if c := cmp.Or(cmp.Compare(len(na), len(nb)), strings.Compare(na, nb)); c != 0 {
				return c
			}
			i, j = ei, ej
			continue
		}
		if a[i] != b[j] {
			return cmp.Compare(a[i], b[j])
		}
		i++
		j++
	}
	return cmp.Or(cmp.Compare(len(a)-i, len(b)-j), strings.Compare(a, b))
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func digitsEnd(s string, i int) int {
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	return i
}

// capIssues keeps at most n issues, the most severe first, and adds one info
// issue counting what was left out.
func capIssues(issues []Issue, n int) []Issue {
	if len(issues) <= n {
		return issues
	}
	byRank := slices.Clone(issues)
	slices.SortStableFunc(byRank, func(a, b Issue) int {
		return cmp.Compare(severityRank(a.Severity), severityRank(b.Severity))
	})
	kept, dropped := byRank[:n-1], byRank[n-1:]
	var e, w, i int
	for _, is := range dropped {
		switch is.Severity {
		case Error:
			e++
		case Warning:
			w++
		default:
			i++
		}
	}
	kept = append(kept, Issue{
		Severity: Info,
		Type:     NotChecked,
		Message:  fmt.Sprintf("%d more issues were left out of this result (%d errors, %d warnings, %d info)", len(dropped), e, w, i),
		Location: "root",
		Rule:     "result.truncated",
	})
	slices.SortStableFunc(kept, CompareIssues)
	return kept
}

func normalize(is Issue) Issue {
	normalizeIn(&is)
	return is
}

// normalizeIn is normalize in place; it writes only the fields it
// changes, so that an issue already normal (the fast path's) costs no
// write to the heap.
func normalizeIn(is *Issue) {
	if !is.Severity.Valid() {
		is.Severity = Error
	}
	if is.Type == "" {
		is.Type = SchemaViolation
	}
	// A text within the limits is only trimmed; the type's meaning is
	// looked up for one that is not.
	// Trimmed only when plainEnds, which inlines, cannot tell that
	// strings.TrimSpace would leave the text as it is (a call for each of
	// four texts an issue was a tenth of Found's instructions).
	m := is.Message
	if !plainEnds(m) {
		m = strings.TrimSpace(m)
	}
	if !fitsASCII(m) && !fits(m) {
		meaning := typeMeaning(is.Type)
		is.Message = fitText(m, meaning+": ", meaning)
	} else if len(m) != len(is.Message) {
		is.Message = m
	}
	// A blank suggestion (empty or only white space) is no suggestion.
	sg := is.Suggestion
	if !plainEnds(sg) {
		sg = strings.TrimSpace(sg)
	}
	if sg != "" && !fitsASCII(sg) && !fits(sg) {
		is.Suggestion = fitText(sg, "Suggested fix: ", "Follow the message: "+typeMeaning(is.Type))
	} else if len(sg) != len(is.Suggestion) {
		is.Suggestion = sg
	}
	if is.Location != "" && !plainEnds(is.Location) && strings.TrimSpace(is.Location) == "" {
		is.Location = ""
	}
	if is.Rule != "" && !plainEnds(is.Rule) && strings.TrimSpace(is.Rule) == "" {
		is.Rule = ""
	}
}

// plainEnds reports whether s's first and last bytes are ASCII other than
// white space (every text the engine's fast path writes), which
// strings.TrimSpace leaves as it is. It inlines.
func plainEnds(s string) bool {
	return len(s) > 0 && ' ' < s[0] && s[0] < utf8.RuneSelf && ' ' < s[len(s)-1] && s[len(s)-1] < utf8.RuneSelf
}

// typeMeaning is what an issue of type t means, for a text too short to
// say it.
func typeMeaning(t Type) string {
	if ti, ok := Lookup(t); ok {
		return ti.Meaning
	}
	return "Issue of type " + string(t)
}

// fits reports whether s, trimmed, is within MinTextLen and MaxTextLen
// characters, which fitText leaves as it is.
func fits(s string) bool {
	return !shorter(s, MinTextLen) && (len(s) <= MaxTextLen || utf8.RuneCountInString(s) <= MaxTextLen)
}

// fitText brings s within MinTextLen and MaxTextLen characters: a short text
// gets prefix, a text that is still short (or that clipping reduced to
// almost nothing, such as a run of punctuation) becomes fallback.
func fitText(s, prefix, fallback string) string {
	s = strings.TrimSpace(s)
	if s != "" && shorter(s, MinTextLen) {
		s = prefix + s
	}
	s = Clip(s, MaxTextLen)
	if shorter(s, MinTextLen) {
		s = Clip(fallback, MaxTextLen)
	}
	return s
}

// fitsASCII reports, without counting characters, that s fits (within
// MinTextLen and MaxTextLen characters) when its first eight bytes are
// ASCII, eight characters, and at least utf8.UTFMax times the
// MinTextLen-8 characters still wanted follow; when it does not, fits
// decides. Every text the fast path writes is ASCII at its start, and
// counting the characters of those under 4*MinTextLen bytes was a quarter
// of normalizeIn's instructions on an invalid corpus document. It inlines
// where fits, inlined, is called.
func fitsASCII(s string) bool {
	return len(s) >= 8+utf8.UTFMax*(MinTextLen-8) && len(s) <= MaxTextLen &&
		(s[0]|s[1]|s[2]|s[3]|s[4]|s[5]|s[6]|s[7])&0x80 == 0
}

// shorter reports whether s has fewer than n characters, without counting
// them when its length in bytes (at least its characters, at most four
// times as many) decides, and counting no further than n when it does not.
func shorter(s string, n int) bool {
	switch {
	case len(s) < n:
		return true
	case len(s) >= utf8.UTFMax*n:
		return false
	}
	c := 0
	for range s {
		if c++; c >= n {
			return false
		}
	}
	return true
}

// ClipText is [Clip] of s with each run of white space made one space: for
// quoting a sentence or a passage of a text in a message.
func ClipText(s string, n int) string { return Clip(strings.Join(strings.Fields(s), " "), n) }

// Clip returns s cut to at most n characters; a cut text ends at a word
// boundary with "…". It is the one clip of the module: messages, prompts
// and reports all cut text with it.
func Clip(s string, n int) string {
	if len(s) <= n || utf8.RuneCountInString(s) <= n {
		return s
	}
	runes := []rune(s)[:n-1]
	cut := string(runes)
	if i := strings.LastIndexAny(cut, " \t\n"); i > len(cut)/2 {
		cut = cut[:i]
	}
	return strings.TrimRight(cut, " \t\n.,;:") + "…"
}
