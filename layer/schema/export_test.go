package schema

import (
	"regexp"

	"github.com/agentjudge/judge/internal/jsonvalue"
	"github.com/agentjudge/judge/result"
)

// SlowValidate validates doc on the slow path alone.
func SlowValidate(v *Validator, doc []byte) ([]result.Issue, error) {
	val, err := jsonvalue.Decode(doc, v.maxDepth)
	if err != nil {
		return nil, err
	}
	return v.c.validate(val)
}

// FastVerdict is the fast path's verdict, invalid ones included.
func FastVerdict(v *Validator, doc []byte) (valid, sure bool) {
	if v.c.fast == nil {
		return false, false
	}
	return fastValid(v.c.fast, v.c.nodes, doc, v.maxDepth)
}

// FastIssues is the fast path's issues and whether it is sure of them,
// without the recover that production keeps: a panic fails the test.
func FastIssues(v *Validator, doc []byte) ([]result.Issue, bool) {
	return v.c.fastIssuesUnguarded(doc, v.maxDepth)
}

// SimpleMatch matches s against the compiled pattern with the fast path's
// simple matcher; simple is false when the pattern does not get one.
func SimpleMatch(re *regexp.Regexp, s string) (matched, simple bool) {
	p := newSimplePattern(re)
	if p == nil {
		return false, false
	}
	return p.match([]byte(s)), true
}

// RawSkip is the end of the value at doc[i], as the fast reporter steps
// over values of a document the fast path has read.
func RawSkip(doc []byte, i int) int { return rawSkip(doc, i) }

// FastIssuesDuplicates is Validator.IssuesDuplicates without the recover
// that production keeps.
func FastIssuesDuplicates(v *Validator, doc []byte) ([]result.Issue, []jsonvalue.Duplicate, bool) {
	issues, _, repeated, sure := v.c.issuesDuplicates(doc, v.maxDepth, false, false)
	return issues, repeated, sure
}

// FastIssuesDuplicatesRoom is Validator.IssuesDuplicatesRoom without the
// recover that production keeps.
func FastIssuesDuplicatesRoom(v *Validator, doc []byte) ([]result.Issue, result.Room, []jsonvalue.Duplicate, bool) {
	return v.c.issuesDuplicates(doc, v.maxDepth, true, false)
}

// DirectReport is the report scan with issues written directly: the
// issues it wrote and whether it is sure.
func DirectReport(v *Validator, doc []byte) ([]result.Issue, bool) {
	_, _, issues, sure := fastReport(v.c, doc, v.maxDepth, true)
	return issues, sure
}

// BreakKeyTable empties the key table of v's fast root, so that the scan
// panics at the root's first key (an index out of range): the guard's
// test. It reports whether the root has a key table.
func BreakKeyTable(v *Validator) bool {
	if v.c.fast == nil || v.c.fast.table == nil {
		return false
	}
	v.c.fast.table.slots = nil
	return true
}

// MaxDepth is the nesting limit v was compiled with.
func MaxDepth(v *Validator) int { return v.maxDepth }
