package schema

import (
	"hash/maphash"
	"slices"

	"github.com/agentjudge/judge/internal/jsonvalue"
	"github.com/agentjudge/judge/result"
)

// Documents with a repeated key. The decoder keeps the last member of a
// repeated key, and reports each repetition (the engine's duplicate_key
// warning). The fast path's scans give up on a repeated key, since a
// member they checked may not be the one the decoder keeps. When they do,
// collectDuplicates reads the document once more with the scanner's
// checks (syntax, nesting, UTF-8, number range), noting each repeated key
// and the members the decoder drops; the fast path then validates the
// document without those members, which is the value the decoder gives,
// and the caller reports the repetitions from their offsets.

// dupKeys is what collectDuplicates notes: the offsets of the keys that
// repeat an earlier key of their object (their opening quotes, in
// document order), and the spans of the members the decoder drops.
type dupKeys struct {
	keys []int
	drop [][2]int
}

// collectDuplicates reads doc, one JSON value, as the fast path's skip
// does, and returns its repeated keys and the members they drop; ok is
// false when the scanner gives up for another reason (or on a repeated
// key it cannot place: an escaped key, or an object of more than
// linearKeys keys), or past jsonvalue.MaxDuplicates repetitions (where
// the decoder's choice of which to list is its own; the scan stops there,
// so what it notes stays small whatever the document).
func collectDuplicates(doc []byte, maxDepth int) (d dupKeys, ok bool) {
	if maxDepth <= 0 {
		maxDepth = jsonvalue.DefaultMaxDepth
	}
	s := &scanner{data: doc, maxDepth: maxDepth, dups: &d, seed: maphash.MakeSeed()}
	i := skipWS(doc, 0)
	end, ok := s.skip(i)
	if !ok || s.bail || skipWS(doc, end) != len(doc) {
		return dupKeys{}, false
	}
	return d, true
}

// withoutDropped returns doc without the spans of drop, which may nest.
func withoutDropped(doc []byte, drop [][2]int) []byte {
	slices.SortFunc(drop, func(a, b [2]int) int { return a[0] - b[0] })
	out := make([]byte, 0, len(doc))
	at := 0
	for _, sp := range drop {
		if sp[0] < at {
			continue // inside a span already dropped
		}
		out = append(out, doc[at:sp[0]]...)
		at = sp[1]
	}
	return append(out, doc[at:]...)
}

// fastIssuesDuplicates is fastIssues that also answers for a document
// with repeated keys: the issues of the value the decoder gives, and the
// offsets of the repeated keys (nil when there is none).
func (c *compiled) fastIssuesDuplicates(doc []byte, maxDepth int) (issues []result.Issue, repeated []int, sure bool) {
	return c.issuesDuplicates(doc, maxDepth, c.fastIssues)
}

// issuesDuplicates is fastIssuesDuplicates with the fast path's issues
// from issuesOf (the tests' have no recover).
func (c *compiled) issuesDuplicates(doc []byte, maxDepth int,
	issuesOf func([]byte, int) ([]result.Issue, bool)) (issues []result.Issue, repeated []int, sure bool) {
	if issues, sure = issuesOf(doc, maxDepth); sure || c.fast == nil {
		return issues, nil, sure
	}
	d, ok := collectDuplicates(doc, maxDepth)
	if !ok || len(d.keys) == 0 {
		return nil, nil, false
	}
	if issues, sure = issuesOf(withoutDropped(doc, d.drop), maxDepth); !sure {
		return nil, nil, false
	}
	return issues, d.keys, true
}
