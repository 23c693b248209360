package result

import (
	"cmp"
	"log/slog"
	"time"
)

// Passed returns the result of one validation type that ran and found
// nothing: valid, no issues, the given confidence and duration. It is
// NewBuilder().SelfCheck(sc).Ran(typ).Confidence(confidence).Duration(d).Build(), which
// it builds directly, field by field, in one allocation: the engine
// answers a valid document of its fast path with it, checked by sc (nil
// for no check; see [Builder.SelfCheck]).
func Passed(typ string, confidence float64, d time.Duration, sc *SelfCheck) *ValidationResult {
	r := single(typ, confidence, d)
	r.Valid = true
	r.QualityScore = 1
	if typ == QualityType {
		r.Metadata.QualityDimensions = QualityDimensions(nil)
	}
	if sc != nil {
		selfCheck(r, cmp.Or(sc.Log, slog.Default()), sc.Report)
	}
	return r
}

// single returns the result of one validation type that ran, with the given
// confidence and duration, in one allocation with its types, no issue,
// and what depends on the issues left for the caller. It writes the heap object
// field by field: a whole struct written to it would go through a bulk
// write barrier. The empty issue and criteria lists are not nil (the
// specification wants arrays) and allocate nothing.
func single(typ string, confidence float64, d time.Duration) *ValidationResult {
	one := &struct {
		r     ValidationResult
		types [1]string
	}{}
	r := &one.r
	// Pointers to static data first, while the object is known to be
	// zero: the compiler stores them without a write barrier. No issue
	// (Passed's answer) until the caller sets them.
	r.Issues = []Issue{}
	r.PassedCriteria = []string{}
	r.FailedCriteria = []string{}
	r.Metadata.Model = Deterministic
	r.Confidence = unit(confidence)
	r.Metadata.DurationMS = durationMS(d)
	one.types[0] = typ
	r.Metadata.ValidationTypesRun = one.types[:]
	return r
}

// fill is single's work on a room's result (see Room), zero but for its
// one-element ValidationTypesRun and its issues: the same fields, through
// write barriers (the compiler cannot know the room's result is zero).
// Found sets the issues.
func fill(r *ValidationResult, typ string, confidence float64, d time.Duration) {
	r.PassedCriteria = []string{}
	r.FailedCriteria = []string{}
	r.Metadata.Model = Deterministic
	r.Confidence = unit(confidence)
	r.Metadata.DurationMS = durationMS(d)
	r.Metadata.ValidationTypesRun[0] = typ
}

// Found returns the result of one validation type that ran and found
// issues: the given issues, confidence and duration. It is
// NewBuilder().SelfCheck(sc).Ran(typ).Add(issues...).Confidence(confidence).Duration(d).Build(),
// except that it takes issues over: the result's issues are normalized in
// issues' own array (which the caller must not use again) instead of a
// copy. The engine answers an invalid document of its fast path with
// [FoundIn], which is Found with the result in the issues' own allocation.
//
// Issues already in strictly increasing order under [CompareIssues] and
// within the cap (the schema layer's scan writes them so) are neither
// sorted nor compacted, which would leave them as they are, and the result
// is filled field by field as [Passed] fills it; any others go through the
// builder's own steps (TestFoundIsTheBuilders and FuzzFound hold the two
// equal).
func Found(typ string, confidence float64, d time.Duration, sc *SelfCheck, issues []Issue) *ValidationResult {
	return FoundIn(Room{}, typ, confidence, d, sc, issues)
}

// FoundIn is [Found], with the result filled in room when issues are
// room's own (see [NewRoom]): one allocation for the result and its issues
// where Found, given issues allocated on their own, makes a second for the
// result. Any other issues, or a room without a result, are Found's: room
// is then left unused. The result is the same either way.
func FoundIn(room Room, typ string, confidence float64, d time.Duration, sc *SelfCheck, issues []Issue) *ValidationResult {
	if issues == nil {
		issues = []Issue{}
	}
	for i := range issues {
		normalizeIn(&issues[i])
	}
	if len(issues) > DefaultMaxIssues || !increasing(issues) {
		b := Builder{types: []string{typ}, confidence: confidence, duration: d, maxIssues: DefaultMaxIssues, check: sc}
		return b.build(issues)
	}
	var r *ValidationResult
	if room.owns(issues) {
		r = room.r
		fill(r, typ, confidence, d)
	} else {
		r = single(typ, confidence, d)
	}
	r.Issues = issues
	r.Metadata.TotalIssues = len(issues)
	// The counts and QualityScore's product in one pass.
	var errs, warns, infos int
	q := 1.0
	for i := range issues {
		is := &issues[i]
		switch is.Severity {
		case Error:
			errs++
		case Warning:
			warns++
		default:
			infos++
		}
		if !process(is.Type) {
			q *= qualityFactor(is.Severity)
		}
	}
	r.Valid = errs == 0
	r.Metadata.ErrorCount, r.Metadata.WarningCount, r.Metadata.InfoCount = errs, warns, infos
	r.QualityScore = unit(q)
	if typ == QualityType {
		r.Metadata.QualityDimensions = QualityDimensions(issues)
	}
	if sc != nil {
		selfCheck(r, cmp.Or(sc.Log, slog.Default()), sc.Report)
	}
	return r
}

// increasing reports whether each issue orders strictly before the next
// under CompareIssues: a stable sort would leave them in place, and no two
// neighbours are equal for slices.Compact to merge (equal issues compare
// equal).
func increasing(issues []Issue) bool {
	for i := 1; i < len(issues); i++ {
		if compareIssues(&issues[i-1], &issues[i]) >= 0 {
			return false
		}
	}
	return true
}

// Room is a result and room for its issues in one allocation, for a
// validator that writes an invalid document's issues before the result is
// built (the engine's fast path): [FoundIn] fills the room's result when
// given the room's own issues. The zero Room has no result and no issues.
// It is one pointer: the result's Issues and ValidationTypesRun hold the
// room's arrays until FoundIn fills it.
type Room struct {
	r *ValidationResult
}

// maxRoomIssues is the most issues NewRoom allocates with a result: an
// invalid small document has one to a few.
const maxRoomIssues = 4

// NewRoom returns a Room of n zero issues, with a result beside them in one
// allocation, for 1 to 4 issues, and the issues, for the validator to
// write; for any other n, the zero Room and n issues (make), for which
// FoundIn allocates the result as Found does. The room's result is the
// caller's only through FoundIn.
func NewRoom(n int) (Room, []Issue) {
	var r *ValidationResult
	switch n {
	case 1:
		one := &roomOf[[1]Issue]{}
		r = one.bind(one.issues[:])
	case 2:
		one := &roomOf[[2]Issue]{}
		r = one.bind(one.issues[:])
	case 3:
		one := &roomOf[[3]Issue]{}
		r = one.bind(one.issues[:])
	case maxRoomIssues:
		one := &roomOf[[maxRoomIssues]Issue]{}
		r = one.bind(one.issues[:])
	default:
		return Room{}, make([]Issue, n)
	}
	return Room{r: r}, r.Issues
}

// roomOf is NewRoom's one allocation: a result, its one validation type
// and an array A of issues.
type roomOf[A any] struct {
	r      ValidationResult
	types  [1]string
	issues A
}

// bind points the result's issues at issues (the room's own array) and its
// validation types at the room's, and returns the result.
func (o *roomOf[A]) bind(issues []Issue) *ValidationResult {
	o.r.Issues, o.r.Metadata.ValidationTypesRun = issues, o.types[:]
	return &o.r
}

// owns reports whether m has a result not yet filled (fill sets its
// model) and issues is m's issues (the same array, from its start, no
// longer): a room serves one FoundIn, and a second is given a result of
// its own.
func (m Room) owns(issues []Issue) bool {
	return m.r != nil && m.r.Metadata.Model == "" && len(issues) > 0 && len(issues) <= len(m.r.Issues) && &issues[0] == &m.r.Issues[0]
}
