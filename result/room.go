package result

import "time"

// A Room is a result and room for its first issues in one allocation:
// [NewRoom] makes it, a producer of issues writes them into [Room.Issues],
// and [Room.Found] builds the result around them, so that a result of one
// or two issues costs one allocation instead of two (the engine's fast
// path for an invalid document: the schema layer's scan writes its issues
// into a room, the engine builds the result of them). The zero Room has
// no room: its Issues are nil and its Found is [Found].
//
// A Room serves one result: a second Found of the same Room, or of issues
// that are not its own, allocates a result as [Found] does.
type Room struct {
	r      *ValidationResult
	issues []Issue
}

// NewRoom returns a Room for n issues: its Issues are n zero issues, in
// the block of the result when n is 1 or 2, else a slice of their own
// (and Found then allocates the result). Its Issues have no spare
// capacity, so that an append to them never writes into the block.
func NewRoom(n int) Room {
	switch n {
	case 1:
		one := &struct {
			r      ValidationResult
			types  [1]string
			issues [1]Issue
		}{}
		// The fixed pointers stored while the block is known to be zero:
		// no write barrier (see single). Issues stay nil until Found.
		one.r.PassedCriteria = []string{}
		one.r.FailedCriteria = []string{}
		one.r.Metadata.Model = Deterministic
		one.r.Metadata.ValidationTypesRun = one.types[:]
		return Room{r: &one.r, issues: one.issues[:]}
	case 2:
		two := &struct {
			r      ValidationResult
			types  [1]string
			issues [2]Issue
		}{}
		// The fixed pointers stored while the block is known to be zero:
		// no write barrier (see single). Issues stay nil until Found.
		two.r.PassedCriteria = []string{}
		two.r.FailedCriteria = []string{}
		two.r.Metadata.Model = Deterministic
		two.r.Metadata.ValidationTypesRun = two.types[:]
		return Room{r: &two.r, issues: two.issues[:]}
	}
	if n <= 0 {
		return Room{}
	}
	return Room{issues: make([]Issue, n)}
}

// Issues returns the room's issues for the producer to fill (nil for the
// zero Room).
func (m Room) Issues() []Issue { return m.issues }

// Found is [Found] (same arguments, same result, issues taken over) with
// the result built in the room when issues are the room's own (its Issues,
// or a prefix of them) and its result is unused; else it is Found. The
// result's Issues then have no spare capacity either: an append to them
// copies them out of the block.
func (m Room) Found(typ string, confidence float64, d time.Duration, sc *SelfCheck, issues []Issue) *ValidationResult {
	r := m.r
	if r == nil || r.Issues != nil || len(issues) == 0 || len(issues) > len(m.issues) || &issues[0] != &m.issues[0] ||
		len(issues) > DefaultMaxIssues {
		return Found(typ, confidence, d, sc, issues)
	}
	for i := range issues {
		normalizeIn(&issues[i])
	}
	if !increasing(issues) {
		// Found's own way for these (they are normalized already).
		b := Builder{types: []string{typ}, confidence: confidence, duration: d, maxIssues: DefaultMaxIssues, check: sc}
		return b.build(issues)
	}
	issues = issues[:len(issues):len(issues)]
	r.Issues = issues
	r.Confidence = unit(confidence)
	r.Metadata.DurationMS = durationMS(d)
	r.Metadata.ValidationTypesRun[0] = typ
	return counted(r, typ, sc, issues)
}
