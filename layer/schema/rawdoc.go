package schema

import (
	"slices"
	"strconv"

	"github.com/agentjudge/judge/internal/jsontoken/lex"
	"github.com/agentjudge/judge/internal/jsonvalue"
	"github.com/agentjudge/judge/internal/location"
)

// rawDoc is a document's bytes as an instance of the reporter: the fast
// path's issues read the values they quote from it. An array on a path
// asked about is indexed once (the report scan hands over the index of
// every array with an error under it); an object's members are read until
// the key (the document the fast path answers for has no repeated key).
//
// The document has been read whole by the fast path, which was sure of
// it: it is well formed, within the limits, and its keys have no escapes.
// So rawDoc steps over values without checking them again (rawSkip),
// which costs a fraction of the scanner's careful reading: an issue deep
// in a large array would otherwise pay for reading the array once more.
type rawDoc struct {
	data     []byte
	root     int
	maxDepth int
	arrays   map[int][]int // offsets of an array's elements, by the array's offset
}

// rawSkip returns the offset after the value at d[i], a value of a well
// formed document (what it returns for any other bytes is meaningless,
// but within d).
func rawSkip(d []byte, i int) int {
	switch d[i] {
	case '"':
		return rawString(d, i)
	case '{', '[':
		depth := 0
		for i < len(d) {
			switch d[i] {
			case '"':
				i = rawString(d, i)
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
			i++
		}
		return i
	}
	for i < len(d) {
		switch d[i] {
		case ',', ']', '}', ' ', '\t', '\n', '\r':
			return i
		}
		i++
	}
	return i
}

// rawString returns the offset after the string at d[i].
func rawString(d []byte, i int) int {
	end, _, _ := lex.SkipString(d, i)
	return end
}

// rawNext returns the offset of the next element or member after a value
// ending at end, or -1 at the end of its container.
func rawNext(d []byte, end int) int {
	i := skipWS(d, end)
	if i >= len(d) || d[i] != ',' {
		return -1
	}
	return skipWS(d, i+1)
}

// child returns the offset of the value at tok in the container at off,
// or -1.
func (d *rawDoc) child(off int, tok string) int {
	data := d.data
	switch data[off] {
	case '[':
		elems, ok := d.arrays[off]
		if !ok {
			for at := skipWS(data, off+1); at >= 0 && at < len(data) && data[at] != ']'; at = rawNext(data, rawSkip(data, at)) {
				elems = append(elems, at)
			}
			if d.arrays == nil {
				d.arrays = map[int][]int{}
			}
			d.arrays[off] = elems
		}
		n, err := strconv.Atoi(tok)
		if err != nil || n < 0 || n >= len(elems) {
			return -1
		}
		return elems[n]
	case '{':
		for at := skipWS(data, off+1); at >= 0 && at < len(data) && data[at] == '"'; {
			keyEnd := rawString(data, at)
			v := skipWS(data, skipWS(data, keyEnd)+1) // past the colon
			if string(data[at+1:keyEnd-1]) == tok {
				return v
			}
			at = rawNext(data, rawSkip(data, v))
		}
	}
	return -1
}

// resolve returns the offset of the value at tokens (-1 when there is
// none; only when value is true) and which tokens index arrays, as
// location.Instance finds them.
func (d *rawDoc) resolve(tokens []string, value bool) (int, []bool) {
	arrays := make([]bool, len(tokens))
	off := d.root
	for i, tok := range tokens {
		if off < 0 || off >= len(d.data) {
			off = -1
			break
		}
		arrays[i] = d.data[off] == '['
		if i < len(tokens)-1 || value {
			off = d.child(off, tok)
		}
	}
	return off, arrays
}

func (d *rawDoc) location(tokens []string) string {
	if !slices.ContainsFunc(tokens, isArrayIndex) {
		// Only a token that could index an array needs the document.
		return location.Path(tokens, nil)
	}
	_, arrays := d.resolve(tokens, false)
	return location.Path(tokens, func(i int) bool { return arrays[i] })
}

func (d *rawDoc) value(tokens []string) any {
	off, _ := d.resolve(tokens, true)
	if off < 0 {
		return nil
	}
	v, err := jsonvalue.Decode(d.data[off:rawSkip(d.data, off)], d.maxDepth)
	if err != nil {
		return nil
	}
	return v
}
