package schema

import (
	"bytes"
	"slices"
	"strconv"

	"github.com/agentjudge/judge/internal/jsonvalue"
	"github.com/agentjudge/judge/internal/location"
	"github.com/agentjudge/judge/result"
)

// Documents with a repeated key. The decoder keeps the last member of a
// repeated key, and reports each repetition (the engine's duplicate_key
// warning). The fast path's scans give up on a repeated key, since a
// member they checked may not be the one the decoder keeps. When they do,
// collectDuplicates reads the document once more with the scanner's
// checks (syntax, nesting, UTF-8, number range), noting each repeated key
// (its offset, and its location from the containers the scan is in) and
// the members the decoder drops; the fast path then validates the
// document without those members, which is the value the decoder gives,
// and reports the repetitions as the decoder lists them, without reading
// the document again to place them.

// dupKeys is what collectDuplicates notes: the offsets of the keys that
// repeat an earlier key of their object (their opening quotes, in
// document order) and their locations, and the spans of the members the
// decoder drops. index holds, while the scan reads, the index of the
// element being read of each open container (0 for objects).
type dupKeys struct {
	keys  []int
	paths []string
	drop  [][2]int
	index []int
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
	// A pooled scanner, whose scratch has grown already.
	s := scannerPool.Get().(*scanner)
	s.data, s.maxDepth, s.depth, s.bail, s.dups = doc, maxDepth, 0, false, &d
	s.stack, s.keys, s.objs = s.stack[:0], s.keys[:0], s.objs[:0]
	i := skipWS(doc, 0)
	end, ok := s.skip(i)
	ok = ok && !s.bail && skipWS(doc, end) == len(doc)
	s.data, s.dups = nil, nil
	if cap(s.stack) <= 1<<12 && cap(s.keys) <= 1<<12 && cap(s.objs) <= 1<<12 {
		s.stack, s.keys, s.objs = s.stack[:0], s.keys[:0], s.objs[:0]
		scannerPool.Put(s)
	}
	if !ok {
		return dupKeys{}, false
	}
	return d, true
}

// duplicatePath is the location of the member of key in the object being
// skipped, as the decoder renders it: the element index of each array and
// the current key of each object the scan is in (an object's current key
// is the last it read before the next object opened), then key.
func (s *scanner) duplicatePath(key []byte) string {
	toks := make([]string, 0, len(s.stack))
	index := make([]bool, 0, len(s.stack))
	obj := 0
	for level, closing := range s.stack[:len(s.stack)-1] {
		if closing == ']' {
			toks, index = append(toks, strconv.Itoa(s.dups.index[level])), append(index, true)
			continue
		}
		obj++
		k := s.keys[s.objs[obj].start-1]
		toks, index = append(toks, string(s.data[k[0]:k[1]])), append(index, false)
	}
	toks, index = append(toks, string(key)), append(index, false)
	return location.Path(toks, func(i int) bool { return index[i] })
}

// duplicates describes the repeated keys d noted in doc as
// jsonvalue.DecodeDuplicates does, their lines and columns counted in one
// sweep over the bytes before the last of them.
func (d *dupKeys) duplicates(doc []byte) []jsonvalue.Duplicate {
	out := make([]jsonvalue.Duplicate, 0, len(d.keys))
	line, lineStart, at := 1, 0, 0
	for k, off := range d.keys {
		before := doc[at:off]
		if n := bytes.Count(before, []byte("\n")); n > 0 {
			line += n
			lineStart = at + bytes.LastIndexByte(before, '\n') + 1
		}
		at = off
		q := rawString(doc, off) // the offset after the key's closing quote
		out = append(out, jsonvalue.Duplicate{Key: string(doc[off+1 : q-1]), Path: d.paths[k],
			Offset: int64(off), Line: line, Col: off - lineStart + 1})
	}
	return out
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
// repeated keys as the decoder lists them (nil when there is none).
func (c *compiled) fastIssuesDuplicates(doc []byte, maxDepth int) (issues []result.Issue, repeated []jsonvalue.Duplicate, sure bool) {
	issues, _, repeated, sure = c.issuesDuplicates(doc, maxDepth, false, true)
	return issues, repeated, sure
}

// issuesDuplicates is fastIssuesDuplicates with the fast path's issues in
// a result.Room when inRoom (see fastIssuesIn), and without the recover
// unless guarded (the tests' fail on a panic instead).
func (c *compiled) issuesDuplicates(doc []byte, maxDepth int, inRoom, guarded bool) (issues []result.Issue, room result.Room, repeated []jsonvalue.Duplicate, sure bool) {
	if issues, room, sure = c.fastIssuesIn(doc, maxDepth, inRoom, guarded); sure || c.fast == nil {
		return issues, room, nil, sure
	}
	return c.issuesWithoutDuplicates(doc, maxDepth, inRoom, guarded)
}

// issuesWithoutDuplicates is issuesDuplicates once the fast path was not
// sure of doc: the issues of doc without the members its repeated keys
// drop, when that is why.
func (c *compiled) issuesWithoutDuplicates(doc []byte, maxDepth int, inRoom, guarded bool) (issues []result.Issue, room result.Room, repeated []jsonvalue.Duplicate, sure bool) {
	d, ok := collectDuplicates(doc, maxDepth)
	if !ok || len(d.keys) == 0 {
		return nil, result.Room{}, nil, false
	}
	if issues, room, sure = c.fastIssuesIn(withoutDropped(doc, d.drop), maxDepth, inRoom, guarded); !sure {
		return nil, result.Room{}, nil, false
	}
	return issues, room, d.duplicates(doc), true
}
