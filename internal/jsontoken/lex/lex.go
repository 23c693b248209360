// Package lex is JSON's lexical grammar, written once: white space, the
// end, escapes and UTF-8 of a string and its decoded text, the grammar and
// range of a number, and the literals. Every reader of JSON bytes in judge
// calls it: jsonvalue's decoder, the resumable jsontoken.Tokenizer, the
// schema fast path's scanner and mcpstdio's message reader, so they agree
// on every token by construction.
//
// The functions work on a whole buffer and report where they stopped, so
// a caller that reads a document in chunks (the Tokenizer) calls the same
// ones on each chunk: NumberScan keeps its state between chunks, and the
// string helpers (IsPlain, PlainRun, Escape, Unhex, Pair) are the steps a
// resumable reader takes one byte at a time. Errors are Codes, which the
// caller turns into its own error at the offset returned, worded by
// Code.Context as encoding/json words it.
package lex

import (
	"encoding/binary"
	"math"
	"math/bits"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// Limits on a number's text, beyond which judge refuses a document:
// validating such numbers exactly (as JSON Schema needs) costs time that
// grows with the exponent, and no real output needs them.
const (
	MaxNumberExponent = 1000 // largest |exponent| of a number
	MaxNumberLen      = 1000 // longest number, in bytes
)

// Code says why a token is malformed, or that it is not.
type Code uint8

// The codes. The offset a function returns with a code other than OK is
// that of the byte it names (len of the input for EOF).
const (
	OK          Code = iota
	EOF              // the input ended inside the token
	Control          // a control character in a string
	BadEscape        // a backslash followed by a byte that is no escape
	BadHex           // a byte of a \u escape that is not a hexadecimal digit
	BadNumber        // a '-' not followed by a digit
	BadDecimal       // a '.' not followed by a digit
	BadExponent      // an 'e' or 'E' (and its sign) not followed by a digit
	BadLiteral       // a byte of true, false or null that is not the literal's
	TooLarge         // a number over MaxNumberExponent or MaxNumberLen
	OutOfRange       // a number larger in magnitude than the largest float64
)

var contexts = [...]string{
	Control:     "in string literal",
	BadEscape:   "in string escape code",
	BadHex:      `in \u hexadecimal character escape`,
	BadNumber:   "in numeric literal",
	BadDecimal:  "after decimal point in numeric literal",
	BadExponent: "in exponent of numeric literal",
}

// Context is the end of encoding/json's message for an invalid character
// with code c ("invalid character 'x' " + Context), for the codes of a
// byte; "" for the others (BadLiteral's is LiteralContext).
func (c Code) Context() string {
	if int(c) < len(contexts) {
		return contexts[c]
	}
	return ""
}

// LiteralContext is Context for a byte of literal lit at index k that is
// not lit[k].
func LiteralContext(lit string, k int) string {
	return "in literal " + lit + " (expecting " + QuoteChar(lit[k]) + ")"
}

// QuoteChar formats c as encoding/json does in its error messages.
func QuoteChar(c byte) string {
	switch c {
	case '\'':
		return `'\''`
	case '"':
		return `'"'`
	}
	s := strconv.Quote(string(rune(c)))
	return "'" + s[1:len(s)-1] + "'"
}

// IsSpace reports whether c is JSON white space: space, tab, LF, CR.
func IsSpace(c byte) bool { return c <= ' ' && (c == ' ' || c == '\t' || c == '\n' || c == '\r') }

// SkipSpace returns the offset of the first byte from d[i] on that is not
// white space, or len(d).
func SkipSpace(d []byte, i int) int {
	for i < len(d) && IsSpace(d[i]) {
		i++
	}
	return i
}

// IsDigit reports whether c is a decimal digit.
func IsDigit(c byte) bool { return '0' <= c && c <= '9' }

// DigitRun returns the offset of the first byte from d[i] on that is not
// a digit, or len(d).
func DigitRun(d []byte, i int) int {
	for i < len(d) && IsDigit(d[i]) {
		i++
	}
	return i
}

// Literal returns the literal (true, false or null) that a value starting
// with byte c must be, or "".
func Literal(c byte) string {
	switch c {
	case 't':
		return "true"
	case 'f':
		return "false"
	case 'n':
		return "null"
	}
	return ""
}

// ScanLiteral reads lit at d[i] (whose first byte the caller has seen):
// it returns the offset after it and OK, or the offset of the first byte
// that differs and BadLiteral, or len(d) and EOF. A letter right after
// the literal is the caller's to reject, as after any value.
func ScanLiteral(d []byte, i int, lit string) (int, Code) {
	if len(d)-i >= len(lit) && string(d[i:i+len(lit)]) == lit {
		return i + len(lit), OK
	}
	for k := 1; k < len(lit); k++ {
		if i+k >= len(d) {
			return len(d), EOF
		}
		if d[i+k] != lit[k] {
			return i + k, BadLiteral
		}
	}
	return i + len(lit), OK
}

// plain marks the bytes a string holds as they are: not the quote, the
// backslash, a control character or a non-ASCII byte.
var plain = func() (t [256]bool) {
	for c := range t {
		t[c] = c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf
	}
	return t
}()

// IsPlain reports whether a string holds c as it is: c is not the quote,
// the backslash, a control character or a non-ASCII byte.
func IsPlain(c byte) bool { return plain[c] }

// SpecialMask returns x, eight bytes of a string, with the high bit set in
// the first byte that is not plain, if any (bits above it may be set too).
func SpecialMask(x uint64) uint64 {
	const lo, hi = 0x0101010101010101, 0x8080808080808080
	q := x ^ (lo * '"')
	b := x ^ (lo * '\\')
	return (x | (x-lo*0x20)&^x | (q-lo)&^q | (b-lo)&^b) & hi
}

// PlainRun returns the offset of the first byte from d[i] on that is not
// plain, skipping eight plain bytes at a time while eight remain; with
// fewer left it stops, for the caller to read on byte by byte.
func PlainRun(d []byte, i int) int {
	for len(d)-i >= 8 {
		if m := SpecialMask(binary.LittleEndian.Uint64(d[i:])); m != 0 {
			return i + bits.TrailingZeros64(m)/8
		}
		i += 8
	}
	return i
}

// Escape returns the byte that the one-letter escape \c stands for (c one
// of " \ / b f n r t); false for any other c, 'u' included.
func Escape(c byte) (byte, bool) {
	switch c {
	case '"', '\\', '/':
		return c, true
	case 'b':
		return '\b', true
	case 'f':
		return '\f', true
	case 'n':
		return '\n', true
	case 'r':
		return '\r', true
	case 't':
		return '\t', true
	}
	return 0, false
}

// Unhex returns the value of the hexadecimal digit c, or -1.
func Unhex(c byte) rune {
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

// Hex4 reads the four hexadecimal digits of a \u escape at d[i:]: the
// code and the offset after them, or the offset of the first byte that is
// not a digit and BadHex, or len(d) and EOF.
func Hex4(d []byte, i int) (rune, int, Code) {
	var r rune
	for k := i; k < i+4; k++ {
		if k >= len(d) {
			return 0, len(d), EOF
		}
		h := Unhex(d[k])
		if h < 0 {
			return 0, k, BadHex
		}
		r = r<<4 | h
	}
	return r, i + 4, OK
}

// Pair returns the character that the surrogate escapes hi and lo stand
// for together, or utf8.RuneError when they are no pair.
func Pair(hi, lo rune) rune { return utf16.DecodeRune(hi, lo) }

// IsSurrogate reports whether the code of a \u escape is a surrogate,
// which stands for a character only followed by its pair.
func IsSurrogate(r rune) bool { return utf16.IsSurrogate(r) }

// Flags say what a string holds.
type Flags uint8

// The flags.
const (
	Escaped  Flags = 1 << iota // a backslash escape
	NonASCII                   // bytes of 0x80 and above
	BadUTF8                    // bytes that are not UTF-8, read as U+FFFD
	Lone                       // a surrogate escape without its pair, read as U+FFFD
)

// SkipString reads the string whose opening quote is d[i] without decoding
// it: it returns the offset after its closing quote and what it holds, or
// the offset of the byte that makes it malformed and a Code (len(d) and
// EOF when it does not end). Bytes that are not UTF-8 are not an error:
// BadUTF8 says it holds some (FirstInvalidUTF8 finds them). Lone is not
// reported (only decoding sees the pairs).
func SkipString(d []byte, i int) (int, Flags, Code) {
	var f Flags
	i++
	for i < len(d) {
		if i = PlainRun(d, i); i == len(d) {
			break
		}
		c := d[i]
		switch {
		case plain[c]:
			i++
		case c == '"':
			return i + 1, f, OK
		case c == '\\':
			f |= Escaped
			if i+1 >= len(d) {
				return len(d), f, EOF
			}
			if _, ok := Escape(d[i+1]); ok {
				i += 2
				continue
			}
			if d[i+1] != 'u' {
				return i + 1, f, BadEscape
			}
			_, j, code := Hex4(d, i+2)
			if code != OK {
				return j, f, code
			}
			i = j
		case c < 0x20:
			return i, f, Control
		default:
			f |= NonASCII
			r, size := utf8.DecodeRune(d[i:])
			if r == utf8.RuneError && size == 1 {
				f |= BadUTF8
			}
			i += size
		}
	}
	return len(d), f, EOF
}

// ReadString reads the string whose opening quote is d[i] and returns its
// text, as encoding/json decodes it (escapes decoded; bytes that are not
// UTF-8 and surrogate escapes without their pair as U+FFFD), and the
// offset after its closing quote; or, as SkipString, where it is
// malformed. The text is a slice of d when the string has no escape and
// is UTF-8, else of *buf, which it grows; either is valid until the
// caller changes d or *buf.
func ReadString(d []byte, i int, buf *[]byte) ([]byte, int, Flags, Code) {
	i++
	start := i
	var f Flags
	for i < len(d) {
		if i = PlainRun(d, i); i == len(d) {
			break
		}
		c := d[i]
		switch {
		case plain[c]:
			i++
			continue
		case c == '"':
			return d[start:i], i + 1, f, OK
		case c == '\\':
			return unquote(d, start, i, buf, f)
		case c < 0x20:
			return nil, i, f, Control
		}
		f |= NonASCII
		r, size := utf8.DecodeRune(d[i:])
		if r == utf8.RuneError && size == 1 {
			return unquote(d, start, i, buf, f) // bytes to replace
		}
		i += size
	}
	return nil, len(d), f, EOF
}

// unquote reads on from d[i] a string started at d[start], whose text
// needs escapes decoded or bytes replaced, into *buf.
func unquote(d []byte, start, i int, buf *[]byte, f Flags) ([]byte, int, Flags, Code) {
	b := append((*buf)[:0], d[start:i]...)
	for i < len(d) {
		c := d[i]
		if plain[c] {
			b = append(b, c)
			i++
			continue
		}
		switch {
		case c == '"':
			*buf = b
			return b, i + 1, f, OK
		case c < 0x20:
			*buf = b
			return nil, i, f, Control
		case c >= utf8.RuneSelf:
			f |= NonASCII
			r, size := utf8.DecodeRune(d[i:])
			if r == utf8.RuneError && size == 1 {
				f |= BadUTF8
				b = utf8.AppendRune(b, utf8.RuneError)
			} else {
				b = append(b, d[i:i+size]...)
			}
			i += size
			continue
		}
		// A backslash.
		f |= Escaped
		if i+1 >= len(d) {
			*buf = b
			return nil, len(d), f, EOF
		}
		if e, ok := Escape(d[i+1]); ok {
			b = append(b, e)
			i += 2
			continue
		}
		if d[i+1] != 'u' {
			*buf = b
			return nil, i + 1, f, BadEscape
		}
		r, j, code := Hex4(d, i+2)
		if code != OK {
			*buf = b
			return nil, j, f, code
		}
		i = j
		if IsSurrogate(r) {
			// A pair is two escapes in a row; anything else, including
			// a second escape that does not complete the pair, leaves
			// the first as U+FFFD, and the second is read on its own.
			if len(d)-i >= 6 && d[i] == '\\' && d[i+1] == 'u' {
				if r2, _, code := Hex4(d, i+2); code == OK {
					if p := Pair(r, r2); p != utf8.RuneError {
						b = utf8.AppendRune(b, p)
						i += 6
						continue
					}
				}
			}
			f |= Lone
			r = utf8.RuneError
		}
		b = utf8.AppendRune(b, r)
	}
	*buf = b
	return nil, len(d), f, EOF
}

// FirstInvalidUTF8 returns the offset of the first byte of s that does not
// start a valid UTF-8 sequence, or -1 when s is valid UTF-8.
func FirstInvalidUTF8(s []byte) int {
	for i := 0; i < len(s); {
		if s[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, size := utf8.DecodeRune(s[i:])
		if r == utf8.RuneError && size == 1 {
			return i
		}
		i += size
	}
	return -1
}

// number phases: what a number has read last.
const (
	nStart    = iota // nothing
	nMinus           // '-'
	nZero            // a leading 0
	nInt             // digits of the integer part
	nDot             // '.'
	nFrac            // fraction digits
	nE               // 'e' or 'E'
	nExpSign         // the exponent's sign
	nExpDigit        // exponent digits
)

// NumberScan reads a number in JSON's grammar,
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?, in one buffer or in
// pieces: Scan takes the bytes that continue it and stops at the first
// that does not. The zero value is ready for a number's first byte.
type NumberScan struct {
	phase uint8
	// Exp is the magnitude of the exponent read so far, capped at
	// MaxNumberExponent+1.
	Exp int
}

// Begin reads c, the first byte of a number, and reports whether it may
// begin one ('-' or a digit); s is then ready for the next bytes.
func (s *NumberScan) Begin(c byte) bool {
	s.Exp = 0
	switch {
	case c == '-':
		s.phase = nMinus
	case c == '0':
		s.phase = nZero
	case '1' <= c && c <= '9':
		s.phase = nInt
	default:
		s.phase = nStart
		return false
	}
	return true
}

// Scan reads the bytes of p from p[i] on that continue the number and
// returns the offset of the first that does not, or len(p). It is the
// grammar written straight, entered at the place the number has reached
// (the phase), which it notes where p ends.
func (s *NumberScan) Scan(p []byte, i int) int {
	switch s.phase {
	case nMinus:
		goto minus
	case nZero:
		goto intEnd
	case nInt:
		goto intDigits
	case nDot:
		goto dot
	case nFrac:
		goto fracDigits
	case nE:
		goto exp
	case nExpSign:
		goto expSign
	case nExpDigit:
		goto expDigits
	}
	// nStart
	s.Exp = 0
	if i == len(p) {
		return i
	}
	if p[i] == '-' {
		i++
	}
minus:
	s.phase = nMinus
	if i == len(p) {
		return i
	}
	if p[i] == '0' {
		i++
		s.phase = nZero
		goto intEnd
	}
	if p[i] < '1' || p[i] > '9' {
		return i
	}
	i++
intDigits:
	s.phase = nInt
	for i < len(p) && IsDigit(p[i]) {
		i++
	}
intEnd: // after the integer part (s.phase is nInt or nZero)
	if i == len(p) {
		return i
	}
	switch p[i] {
	case '.':
		i++
	case 'e', 'E':
		i++
		goto exp
	default:
		return i
	}
dot:
	s.phase = nDot
	if i == len(p) || !IsDigit(p[i]) {
		return i
	}
	i++
fracDigits:
	s.phase = nFrac
	for i < len(p) && IsDigit(p[i]) {
		i++
	}
	if i == len(p) || p[i] != 'e' && p[i] != 'E' {
		return i
	}
	i++
exp:
	s.phase = nE
	if i == len(p) {
		return i
	}
	if p[i] == '+' || p[i] == '-' {
		i++
	}
	s.phase = nExpSign
expSign:
	if i == len(p) || !IsDigit(p[i]) {
		return i
	}
expDigits:
	s.phase = nExpDigit
	for i < len(p) && IsDigit(p[i]) {
		s.Exp = min(s.Exp*10+int(p[i]-'0'), MaxNumberExponent+1)
		i++
	}
	return i
}

// End reports whether the number read so far is complete: OK, or the
// Code for the byte that stopped it too early (BadNumber, BadDecimal or
// BadExponent; at the end of the input the number is cut short: EOF).
func (s *NumberScan) End() Code {
	switch s.phase {
	case nStart, nMinus:
		return BadNumber
	case nDot:
		return BadDecimal
	case nE, nExpSign:
		return BadExponent
	}
	return OK
}

// ScanNumber reads the number at d[i] ('-' or a digit) in one buffer: the
// offset after it, the magnitude of its exponent (capped), and OK; or the
// offset of the byte where it is malformed and its Code (len(d) and EOF
// when d ends inside it).
func ScanNumber(d []byte, i int) (end, exp int, code Code) {
	var s NumberScan
	end = s.Scan(d, i)
	if code = s.End(); code != OK && end == len(d) {
		code = EOF
	}
	return end, s.Exp, code
}

// Small reports, without looking at the number, that a complete number of
// n bytes read by s is within every limit (NumberLimit would say OK): a
// number can only be over them, or out of the float64 range, when its
// length and exponent add up to 308 or more. It is for the callers'
// inlined fast path; NumberLimit decides the others.
func (s *NumberScan) Small(n int) bool { return s.Exp+n < 308 }

// NumberLimit checks n, the text of a complete number whose exponent's
// magnitude is exp (as NumberScan reads it): TooLarge over the limits,
// OutOfRange beyond the float64 range, else OK.
func NumberLimit(n []byte, exp int) Code {
	switch {
	case exp > MaxNumberExponent || len(n) > MaxNumberLen:
		return TooLarge
	case exp+len(n) >= 308 && IsOutOfRange(n):
		// Both limits are over 308 (see Small).
		return OutOfRange
	}
	return OK
}

// IsOutOfRange reports whether n, the text of a JSON number, is larger in
// magnitude than math.MaxFloat64: whatever reads it as a float64 would get
// an infinity or a clamped value. Numbers too small to be represented are
// not out of range: they round to zero, as 0.1 rounds to a float64.
func IsOutOfRange(n []byte) bool {
	i := 0
	if i < len(n) && n[i] == '-' {
		i++
	}
	// mag is the decimal exponent of the first significant digit.
	mag, seen := 0, false
	intStart := i
	i = DigitRun(n, i)
	if intDigits := i - intStart; intDigits > 1 || (intDigits == 1 && n[intStart] != '0') {
		mag, seen = intDigits-1, true
	}
	if i < len(n) && n[i] == '.' {
		i++
		for k := 1; i < len(n) && IsDigit(n[i]); k++ {
			if !seen && n[i] != '0' {
				mag, seen = -k, true
			}
			i++
		}
	}
	if !seen {
		return false // zero
	}
	if i < len(n) && (n[i] == 'e' || n[i] == 'E') {
		i++
		neg := false
		if i < len(n) && (n[i] == '+' || n[i] == '-') {
			neg = n[i] == '-'
			i++
		}
		exp := 0
		for ; i < len(n) && IsDigit(n[i]); i++ {
			exp = min(exp*10+int(n[i]-'0'), 1<<20)
		}
		if neg {
			exp = -exp
		}
		mag += exp
	}
	switch {
	case mag < 308:
		return false
	case mag > 308:
		return true
	}
	f, err := strconv.ParseFloat(string(n), 64)
	return err != nil && math.IsInf(f, 0)
}
