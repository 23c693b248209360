package jsonvalue

import (
	"encoding/binary"
	"encoding/json"
	"io"
	"math/bits"
	"strconv"
	"sync"
	"unicode/utf16"
	"unicode/utf8"
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
	return d.failMsg(off, "invalid character "+quoteChar(d.data[off])+" "+context)
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

// quoteChar formats c as encoding/json does in its error messages.
func quoteChar(c byte) string {
	switch c {
	case '\'':
		return `'\''`
	case '"':
		return `'"'`
	}
	s := strconv.Quote(string(rune(c)))
	return "'" + s[1:len(s)-1] + "'"
}

func skipSpace(data []byte, i int) int {
	for i < len(data) && data[i] <= ' ' && isSpace(data[i]) {
		i++
	}
	return i
}

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
		b, j := d.str(i)
		if j < 0 {
			return nil, j
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
	data := d.data
	for k := 1; k < len(lit); k++ {
		if i+k >= len(data) {
			return d.eof()
		}
		if data[i+k] != lit[k] {
			return d.fail(i+k, "in literal "+lit+" (expecting "+quoteChar(lit[k])+")")
		}
	}
	return i + len(lit)
}

// number reads the number at data[i], which is '-' or a digit.
func (d *decoder) number(i int) (any, int) {
	data := d.data
	start := i
	if data[i] == '-' {
		i++
		if i >= len(data) {
			return nil, d.eof()
		}
	}
	switch c := data[i]; {
	case c == '0':
		i++
	case '1' <= c && c <= '9':
		i++
		for i < len(data) && isDigit(data[i]) {
			i++
		}
	default:
		return nil, d.fail(i, "in numeric literal")
	}
	if i < len(data) && data[i] == '.' {
		i++
		if i >= len(data) {
			return nil, d.eof()
		}
		if !isDigit(data[i]) {
			return nil, d.fail(i, "after decimal point in numeric literal")
		}
		for i < len(data) && isDigit(data[i]) {
			i++
		}
	}
	exp := 0
	if i < len(data) && (data[i] == 'e' || data[i] == 'E') {
		i++
		if i < len(data) && (data[i] == '+' || data[i] == '-') {
			i++
		}
		if i >= len(data) {
			return nil, d.eof()
		}
		if !isDigit(data[i]) {
			return nil, d.fail(i, "in exponent of numeric literal")
		}
		for i < len(data) && isDigit(data[i]) {
			exp = min(exp*10+int(data[i]-'0'), MaxNumberExponent+1)
			i++
		}
	}
	// A number can only be out of the float64 range when its digits and
	// exponent add up to 308 or more.
	if d.bigNum < 0 && (exp > MaxNumberExponent || i-start > MaxNumberLen || exp+i-start >= 308 && outOfRange(data[start:i])) {
		d.bigNum = start
	}
	return d.numberValue(data[start:i]), i
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

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
		b, j := d.str(i)
		if j < 0 {
			return nil, j
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

// strSpecial marks the bytes that end the plain run of a string: the
// quote, the backslash, control characters and non-ASCII bytes.
var strSpecial = func() (t [256]bool) {
	for c := range t {
		t[c] = c < 0x20 || c == '"' || c == '\\' || c >= utf8.RuneSelf
	}
	return t
}()

// specialMask returns x, eight bytes of a string, with the high bit set
// in the first byte that strSpecial marks, if any (bits above it may be
// set too).
func specialMask(x uint64) uint64 {
	const lo, hi = 0x0101010101010101, 0x8080808080808080
	q := x ^ (lo * '"')
	b := x ^ (lo * '\\')
	return (x | (x-lo*0x20)&^x | (q-lo)&^q | (b-lo)&^b) & hi
}

// plainRun returns the offset of the first byte at or after data[i] that
// a string must look at (see specialMask), skipping eight plain bytes at a
// time while eight remain; with fewer left it stops, for the caller to
// read on byte by byte.
func plainRun(data []byte, i int) int {
	for len(data)-i >= 8 {
		if m := specialMask(binary.LittleEndian.Uint64(data[i:])); m != 0 {
			return i + bits.TrailingZeros64(m)/8
		}
		i += 8
	}
	return i
}

// str reads the string at data[i] (the opening quote) and returns its
// unescaped text, which is a slice of data or of d.buf, valid until the
// next call.
func (d *decoder) str(i int) ([]byte, int) {
	data := d.data
	i++
	start := i
	for i < len(data) {
		if i = plainRun(data, i); i == len(data) {
			break
		}
		c := data[i]
		if !strSpecial[c] {
			i++
			continue
		}
		switch {
		case c == '"':
			return data[start:i], i + 1
		case c == '\\':
			return d.strEscaped(start, i)
		case c < 0x20:
			return nil, d.fail(i, "in string literal")
		}
		r, size := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && size == 1 {
			if d.badUTF8 < 0 {
				d.badUTF8 = i
			}
			return d.strEscaped(start, i) // invalid UTF-8 to replace
		}
		i += size
	}
	return nil, d.eof()
}

// strEscaped reads on from data[i] a string started at data[start], whose
// text needs escapes decoded or invalid UTF-8 replaced, into d.buf.
func (d *decoder) strEscaped(start, i int) ([]byte, int) {
	data := d.data
	buf := append(d.buf[:0], data[start:i]...)
	for i < len(data) {
		c := data[i]
		if !strSpecial[c] {
			buf = append(buf, c)
			i++
			continue
		}
		switch {
		case c == '"':
			d.buf = buf[:0] // keep the grown buffer for the next string
			return buf, i + 1
		case c < 0x20:
			return nil, d.fail(i, "in string literal")
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRune(data[i:])
			if r == utf8.RuneError && size == 1 {
				if d.badUTF8 < 0 {
					d.badUTF8 = i
				}
				buf = utf8.AppendRune(buf, utf8.RuneError)
			} else {
				buf = append(buf, data[i:i+size]...)
			}
			i += size
			continue
		}
		// A backslash.
		if i+1 >= len(data) {
			return nil, d.eof()
		}
		switch e := data[i+1]; e {
		case '"', '\\', '/':
			buf = append(buf, e)
		case 'b':
			buf = append(buf, '\b')
		case 'f':
			buf = append(buf, '\f')
		case 'n':
			buf = append(buf, '\n')
		case 'r':
			buf = append(buf, '\r')
		case 't':
			buf = append(buf, '\t')
		case 'u':
			r, j := d.hex4(i + 2)
			if j < 0 {
				return nil, j
			}
			i = j
			if utf16.IsSurrogate(r) {
				// A pair is two escapes in a row; anything else,
				// including a second escape that does not complete
				// the pair, leaves the first as U+FFFD, and the second
				// is read on its own.
				if r2, ok := peekU4(data, i); ok {
					if p := utf16.DecodeRune(r, r2); p != utf8.RuneError {
						buf = utf8.AppendRune(buf, p)
						i += 6
						continue
					}
				}
				r = utf8.RuneError
			}
			buf = utf8.AppendRune(buf, r)
			continue
		default:
			return nil, d.fail(i+1, "in string escape code")
		}
		i += 2
	}
	return nil, d.eof()
}

// hex4 reads the four hexadecimal digits of a \u escape at data[i].
func (d *decoder) hex4(i int) (rune, int) {
	data := d.data
	var r rune
	for k := i; k < i+4; k++ {
		if k >= len(data) {
			return 0, d.eof()
		}
		h := unhex(data[k])
		if h < 0 {
			return 0, d.fail(k, `in \u hexadecimal character escape`)
		}
		r = r<<4 | h
	}
	return r, i + 4
}

// peekU4 returns the code of a complete \uXXXX escape at data[i], if any.
func peekU4(data []byte, i int) (rune, bool) {
	if len(data)-i < 6 || data[i] != '\\' || data[i+1] != 'u' {
		return 0, false
	}
	var r rune
	for _, c := range data[i+2 : i+6] {
		h := unhex(c)
		if h < 0 {
			return 0, false
		}
		r = r<<4 | h
	}
	return r, true
}

func unhex(c byte) rune {
	switch {
	case '0' <= c && c <= '9':
		return rune(c - '0')
	case 'a' <= c && c <= 'f':
		return rune(c - 'a' + 10)
	case 'A' <= c && c <= 'F':
		return rune(c - 'A' + 10)
	}
	return -1
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
