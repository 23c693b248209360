package jsonvalue

import (
	"encoding/binary"
	"encoding/json"
	"io"
	"sync"

	"github.com/agentjudge/judge/internal/jsontoken/lex"
)

// maxNestingDepth is encoding/json's own limit on nesting, which applies
// when Decode's maxDepth is larger.
const maxNestingDepth = 10000

// decoder is the state of one Decode: a single-pass recursive-descent
// parser over data. Its methods take the offset of the next byte and
// return the offset after what they read, or a negative offset after
// recording the error in err. The scratch stacks and caches are kept
// between uses through decoderPool.
type decoder struct {
	data     []byte
	depth    int
	maxDepth int
	limit    int // min(maxDepth, maxNestingDepth)
	err      *SyntaxError
	// bigNum is the offset of the first number over the size limits, or
	// -1: reported only when the document is otherwise well formed.
	bigNum int
	// badUTF8 is the offset of the first byte of a string that is not
	// valid UTF-8, or -1: reported, like bigNum, only when the document is
	// otherwise well formed.
	badUTF8 int
	// dups, when not nil, collects the offsets of object keys that repeat
	// an earlier key of their object (at most MaxDuplicates).
	dups *[]int

	vals []any    // elements of the arrays being read, innermost last
	mems []member // members of the objects being read, innermost last
	buf  []byte   // the unescaped text of the string being read

	// Short strings seen recently, to share one allocation between equal
	// object keys and values (strings are immutable, so sharing cannot be
	// observed). Entries are checked against the bytes before use.
	keys [cacheSize]string
	strs [cacheSize]any // string values
	nums [cacheSize]any // json.Number values
}

// member is one member of an object being read.
type member struct {
	key string
	val any
	off int // offset of the key's opening quote
}

const (
	cacheSize   = 256 // entries in each cache; a power of 2
	maxCacheLen = 32  // longest string cached, in bytes
	maxPooled   = 1 << 16
)

var decoderPool = sync.Pool{New: func() any { return new(decoder) }}

func getDecoder(data []byte, maxDepth int) *decoder {
	d := decoderPool.Get().(*decoder)
	d.data, d.depth, d.maxDepth, d.limit = data, 0, maxDepth, min(maxDepth, maxNestingDepth)
	d.bigNum, d.badUTF8 = -1, -1
	return d
}

// release returns d to the pool, dropping what it refers to of this use.
func (d *decoder) release() {
	// After an error the stacks may still hold values.
	clear(d.vals)
	clear(d.mems)
	d.vals, d.mems = d.vals[:0], d.mems[:0]
	d.data, d.err, d.dups = nil, nil, nil
	if cap(d.vals) > maxPooled || cap(d.mems) > maxPooled || cap(d.buf) > maxPooled {
		return // do not keep large buffers alive
	}
	decoderPool.Put(d)
}

// fail records a syntax error at the byte data[off], worded as
// encoding/json words it, and returns -1.
func (d *decoder) fail(off int, context string) int {
	return d.failMsg(off, "invalid character "+lex.QuoteChar(d.data[off])+" "+context)
}

// failMsg records an error at data[off] with message msg and returns -1.
func (d *decoder) failMsg(off int, msg string) int {
	line, col := Position(d.data, int64(off))
	d.err = &SyntaxError{Offset: int64(off), Line: line, Col: col, Msg: msg}
	return -1
}

// eof records that the data ended inside a value and returns -1.
func (d *decoder) eof() int {
	d.failMsg(len(d.data), "unexpected end of JSON input")
	d.err.Err = io.ErrUnexpectedEOF
	if skipSpace(d.data, 0) == len(d.data) {
		d.err.Err = io.EOF
	}
	return -1
}

// failCode records the error code (of package lex) at data[off], or
// the end of the data, and returns -1.
func (d *decoder) failCode(off int, code lex.Code) int {
	if code == lex.EOF {
		return d.eof()
	}
	return d.fail(off, code.Context())
}

func skipSpace(data []byte, i int) int { return lex.SkipSpace(data, i) }

// value reads the value starting at data[i], which is not white space.
func (d *decoder) value(i int) (any, int) {
	data := d.data
	if i >= len(data) {
		return nil, d.eof()
	}
	switch c := data[i]; c {
	case '{':
		return d.object(i)
	case '[':
		return d.array(i)
	case '"':
		// lex.ReadString called here, not through d.str: one call a
		// string (d.str is too large to inline).
		b, j, f, code := lex.ReadString(data, i, &d.buf)
		if code != lex.OK || f&lex.BadUTF8 != 0 {
			if j = d.strFault(i, j, code); j < 0 {
				return nil, j
			}
		}
		return d.stringValue(b), j
	case 't':
		return true, d.literal(i, "true")
	case 'f':
		return false, d.literal(i, "false")
	case 'n':
		return nil, d.literal(i, "null")
	default:
		if c == '-' || '0' <= c && c <= '9' {
			return d.number(i)
		}
		return nil, d.fail(i, "looking for beginning of value")
	}
}

// literal reads the literal lit (true, false or null), whose first byte
// is data[i].
func (d *decoder) literal(i int, lit string) int {
	j, code := lex.ScanLiteral(d.data, i, lit)
	switch code {
	case lex.EOF:
		return d.eof()
	case lex.BadLiteral:
		return d.fail(j, lex.LiteralContext(lit, j-i))
	}
	return j
}

// number reads the number at data[i], which is '-' or a digit.
func (d *decoder) number(i int) (any, int) {
	var s lex.NumberScan // lex.ScanNumber, written out: one call less
	j := s.Scan(d.data, i)
	if code := s.End(); code != lex.OK {
		if j == len(d.data) {
			return nil, d.eof()
		}
		return nil, d.failCode(j, code)
	}
	if !s.Small(j-i) && d.bigNum < 0 && lex.NumberLimit(d.data[i:j], s.Exp) != lex.OK {
		d.bigNum = i
	}
	return d.numberValue(d.data[i:j]), j
}

// push enters the array or object opened at data[i] and returns i+1.
func (d *decoder) push(i int) int {
	d.depth++
	if d.depth > d.limit {
		if d.depth > d.maxDepth {
			d.err = tooDeep(d.data, i, d.maxDepth)
			return -1
		}
		return d.fail(i, "exceeded max depth")
	}
	return i + 1
}

// array reads the array opened at data[i].
func (d *decoder) array(i int) (any, int) {
	data := d.data
	if i = d.push(i); i < 0 {
		return nil, i
	}
	if i = skipSpace(data, i); i >= len(data) {
		return nil, d.eof()
	}
	if data[i] == ']' {
		d.depth--
		return []any{}, i + 1
	}
	start := len(d.vals)
	for {
		v, j := d.value(i)
		if j < 0 {
			return nil, j
		}
		d.vals = append(d.vals, v)
		if i = skipSpace(data, j); i >= len(data) {
			return nil, d.eof()
		}
		switch data[i] {
		case ',':
			i = skipSpace(data, i+1)
		case ']':
			a := make([]any, len(d.vals)-start)
			copy(a, d.vals[start:])
			clear(d.vals[start:])
			d.vals = d.vals[:start]
			d.depth--
			return a, i + 1
		default:
			return nil, d.fail(i, "after array element")
		}
	}
}

// object reads the object opened at data[i].
func (d *decoder) object(i int) (any, int) {
	data := d.data
	if i = d.push(i); i < 0 {
		return nil, i
	}
	if i = skipSpace(data, i); i >= len(data) {
		return nil, d.eof()
	}
	if data[i] == '}' {
		d.depth--
		return map[string]any{}, i + 1
	}
	start := len(d.mems)
	for {
		if data[i] != '"' {
			return nil, d.fail(i, "looking for beginning of object key string")
		}
		b, j, f, code := lex.ReadString(data, i, &d.buf) // as in value
		if code != lex.OK || f&lex.BadUTF8 != 0 {
			if j = d.strFault(i, j, code); j < 0 {
				return nil, j
			}
		}
		key, koff := d.keyString(b), i
		if i = skipSpace(data, j); i >= len(data) {
			return nil, d.eof()
		}
		if data[i] != ':' {
			return nil, d.fail(i, "after object key")
		}
		v, j := d.value(skipSpace(data, i+1))
		if j < 0 {
			return nil, j
		}
		d.mems = append(d.mems, member{key, v, koff})
		if i = skipSpace(data, j); i >= len(data) {
			return nil, d.eof()
		}
		switch data[i] {
		case ',':
			if i = skipSpace(data, i+1); i >= len(data) {
				return nil, d.eof()
			}
		case '}':
			mems := d.mems[start:]
			m := make(map[string]any, len(mems))
			for _, e := range mems {
				m[e.key] = e.val // the last of duplicate keys wins
			}
			if len(m) < len(mems) && d.dups != nil {
				d.duplicates(mems)
			}
			clear(mems)
			d.mems = d.mems[:start]
			d.depth--
			return m, i + 1
		default:
			return nil, d.fail(i, "after object key:value pair")
		}
	}
}

// duplicates records the keys of mems, the members of one object, that
// repeat an earlier key.
func (d *decoder) duplicates(mems []member) {
	seen := make(map[string]bool, len(mems))
	for _, e := range mems {
		if seen[e.key] && len(*d.dups) < MaxDuplicates {
			*d.dups = append(*d.dups, e.off)
		}
		seen[e.key] = true
	}
}

// str reads the string at data[i] (the opening quote) and returns its
// decoded text (lex.ReadString), a slice of data or of d.buf, valid until
// the next call.
func (d *decoder) str(i int) ([]byte, int) {
	b, j, f, code := lex.ReadString(d.data, i, &d.buf)
	if code != lex.OK || f&lex.BadUTF8 != 0 {
		return b, d.strFault(i, j, code)
	}
	return b, j
}

// strFault records what is wrong with the string at data[i:j]: a
// malformation at data[j] (code), or invalid UTF-8, reported later; it
// returns the offset to go on from, or -1.
func (d *decoder) strFault(i, j int, code lex.Code) int {
	if code != lex.OK {
		return d.failCode(j, code)
	}
	if d.badUTF8 < 0 {
		d.badUTF8 = i + 1 + lex.FirstInvalidUTF8(d.data[i+1:j])
	}
	return j
}

// cacheIndex hashes a short string to an index in a cache.
func cacheIndex(b []byte) uint {
	const k = 0x9e3779b97f4a7c15
	var h uint64
	switch n := len(b); {
	case n >= 8:
		h = binary.LittleEndian.Uint64(b)*k ^ binary.LittleEndian.Uint64(b[n-8:])
	case n >= 4:
		h = uint64(binary.LittleEndian.Uint32(b))<<32 | uint64(binary.LittleEndian.Uint32(b[n-4:]))
	case n > 0:
		h = uint64(b[0])<<16 | uint64(b[n/2])<<8 | uint64(b[n-1])
	}
	h = (h ^ uint64(len(b))) * k
	return uint(h >> (64 - 8)) // cacheSize == 1<<8
}

// keyString returns b as a string, shared with an equal recent key.
func (d *decoder) keyString(b []byte) string {
	if len(b) > maxCacheLen {
		return string(b)
	}
	e := &d.keys[cacheIndex(b)]
	if *e == string(b) {
		return *e
	}
	s := string(b)
	*e = s
	return s
}

// stringValue returns b as a string in an any, shared with an equal
// recent string value.
func (d *decoder) stringValue(b []byte) any {
	if len(b) > maxCacheLen {
		return string(b)
	}
	e := &d.strs[cacheIndex(b)]
	if s, ok := (*e).(string); ok && s == string(b) {
		return *e
	}
	var v any = string(b)
	*e = v
	return v
}

// numberValue returns b as a json.Number in an any, shared with an equal
// recent number.
func (d *decoder) numberValue(b []byte) any {
	if len(b) > maxCacheLen {
		return json.Number(b)
	}
	e := &d.nums[cacheIndex(b)]
	if n, ok := (*e).(json.Number); ok && string(n) == string(b) {
		return *e
	}
	var v any = json.Number(b)
	*e = v
	return v
}
