package source

import (
	"unsafe"

	"github.com/agentjudge/judge/internal/claim"
)

// Estimates of what Go's runtime spends beyond the bytes of a value: a
// string header, a slice header, a map slot with its share of the table's
// spare room (a map grows by doubling, so up to half its slots are free).
const (
	stringHeader = int64(unsafe.Sizeof(""))
	sliceHeader  = int64(unsafe.Sizeof([]int32(nil)))
	mapSlot      = 2 * (stringHeader + sliceHeader + 8)
)

// Size estimates the bytes the index holds: the document, its passages
// (their text, stems and claims) and the word and value maps. A cache
// charges it against its byte budget; TestSizeEstimate compares it with
// the heap an index really takes.
func (x *DocIndex) Size() int64 {
	n := int64(unsafe.Sizeof(*x)) + docSize(x.doc)
	n += int64(cap(x.passages)) * int64(unsafe.Sizeof(Passage{}))
	for i := range x.passages {
		p := &x.passages[i]
		// The prepared text, a copy of the content for Markdown and JSON;
		// for plain text the passages share the content, counted twice.
		n += int64(len(p.Text))
		n += int64(cap(p.stems)) * stringHeader
		for _, s := range p.stems {
			n += int64(len(s))
		}
		n += int64(cap(p.Claims)) * int64(unsafe.Sizeof(claim.Claim{}))
		for _, c := range p.Claims {
			n += int64(len(c.Text) + len(c.Value) + len(c.Unit) + len(c.Attribute) + len(c.Path) + len(c.Field))
		}
	}
	for _, m := range []map[string][]int32{x.words, x.values} {
		for k, ids := range m {
			n += mapSlot + int64(len(k)) + 4*int64(cap(ids))
		}
	}
	return n
}

// Size estimates the bytes the index holds beyond its parts, plus its
// parts' (see [DocIndex.Size]): a part also cached on its own is counted
// in both entries, so that a budget errs on the safe side.
func (ix *Index) Size() int64 {
	n := int64(unsafe.Sizeof(*ix)) + int64(cap(ix.parts))*8
	for _, p := range ix.parts {
		n += p.Size()
	}
	for _, d := range ix.meta {
		n += mapSlot + docSize(d)
	}
	return n
}

func docSize(d *Doc) int64 {
	return int64(unsafe.Sizeof(*d)) + int64(len(d.ID)+len(d.URL)+len(d.Title)+len(d.Content)+len(d.Format))
}
