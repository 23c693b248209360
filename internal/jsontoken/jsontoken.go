// Package jsontoken reads one JSON document fed in chunks of any size,
// stopping at the end of each chunk and resuming with the next, and emits
// its tokens with their byte offsets. It enforces the limits of
// internal/jsonvalue (nesting depth, UTF-8 in strings, the size and range
// of numbers) and reports malformed or refused JSON at its byte, as a
// *jsonvalue.SyntaxError worded as jsonvalue.Decode words it.
package jsontoken

import (
	"fmt"
	"io"
	"unicode/utf8"

	"github.com/agentjudge/judge/internal/jsontoken/lex"
	"github.com/agentjudge/judge/internal/jsonvalue"
)

// Kind is the kind of a token.
type Kind uint8

// The kinds of tokens.
const (
	BeginObject Kind = iota + 1
	EndObject
	BeginArray
	EndArray
	Key    // an object member's name; Text is its decoded text
	String // Text is the decoded text
	Number // Text is the number as written
	True
	False
	Null
)

var kindNames = [...]string{"", "begin-object", "end-object", "begin-array", "end-array", "key", "string", "number", "true", "false", "null"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", k)
}

// Token is one token of the document. Offsets count bytes of the document
// from 0, after a byte-order mark at its start (as jsonvalue counts them).
type Token struct {
	Kind Kind
	// Begin and End delimit the token's bytes: [Begin, End).
	Begin, End int64
	// Text is the decoded text of a Key or String (escapes decoded,
	// unpaired surrogate escapes as U+FFFD, as jsonvalue.Decode reads
	// them) and the text of a Number; nil for other kinds. It is valid
	// only during the call that receives the token.
	Text []byte
	// Depth is how many arrays and objects hold the token (0 for the
	// document's value; a container's own brackets count outside it).
	Depth int
}

// state is what the tokenizer expects next, outside a token.
type state uint8

const (
	sValue       state = iota // a value
	sArrayFirst               // a value or ']'
	sObjectFirst              // a key or '}'
	sKey                      // a key, after ','
	sColon                    // ':' after a key
	sAfter                    // ',' or a closing bracket, or the end at top level
	sString                   // inside a string or key
	sNumber                   // inside a number
	sLiteral                  // inside true, false or null
	sFailed                   // after an error
)

// Tokenizer reads one JSON document in chunks. The zero value is not
// ready: use New. A Tokenizer is not safe for concurrent use.
type Tokenizer struct {
	maxDepth, limit int
	st              state
	stack           []byte // '{' or '[' of the open containers
	off             int64  // document offset of the next byte
	line            int    // 1-based line of the next byte
	lineStart       int64  // offset of the first byte of the current line
	bom             int    // bytes of a leading byte-order mark seen (0..3), -1 once past it
	bomSkipped      bool   // a whole byte-order mark was skipped
	consumed        int64  // bytes written, the byte-order mark included
	err             error

	// the token being read
	begin int64
	isKey bool
	buf   []byte // decoded text of a string, text of a number
	// direct is the index in the chunk being fed of a string's first
	// byte after its quote while the string, begun in that chunk, has
	// only plain bytes so far: its text is then read from the chunk
	// rather than copied. -1 otherwise (the text is in buf).
	direct int
	esc    int // 0: none, 1: after '\\', 2..5: hex digits of \u read +2
	hex    rune
	high   rune // a surrogate escape waiting for its pair, or -1
	u8     [4]byte
	u8n    int   // bytes of a UTF-8 sequence held
	u8need int   // bytes of the held sequence in all
	u8off  int64 // offset of its first byte
	num    lex.NumberScan
	lit    string
	litPos int
	tok    Token
}

// New returns a Tokenizer for one document that nests arrays and objects
// at most maxDepth deep (jsonvalue.DefaultMaxDepth when maxDepth <= 0).
func New(maxDepth int) *Tokenizer {
	if maxDepth <= 0 {
		maxDepth = jsonvalue.DefaultMaxDepth
	}
	return &Tokenizer{maxDepth: maxDepth, limit: min(maxDepth, 10000), line: 1, high: -1, direct: -1}
}

// Reset makes t ready for a new document nesting at most maxDepth deep,
// keeping its buffers.
func (t *Tokenizer) Reset(maxDepth int) {
	if maxDepth <= 0 {
		maxDepth = jsonvalue.DefaultMaxDepth
	}
	stack, buf := t.stack[:0], t.buf[:0]
	*t = Tokenizer{}
	t.maxDepth, t.limit, t.line, t.high, t.direct = maxDepth, min(maxDepth, 10000), 1, -1, -1
	t.stack, t.buf = stack, buf
}

// Offset returns the document offset of the next byte (bytes after a
// leading byte-order mark).
func (t *Tokenizer) Offset() int64 { return t.off }

// Consumed returns how many bytes were written, a byte-order mark included.
func (t *Tokenizer) Consumed() int64 { return t.consumed }

// BOM returns the length of the byte-order mark skipped at the start: 3
// or 0 (0 too while the first bytes could still be one).
func (t *Tokenizer) BOM() int {
	if t.bomSkipped {
		return len(jsonvalue.BOM)
	}
	return 0
}

// Depth returns how many arrays and objects are open.
func (t *Tokenizer) Depth() int { return len(t.stack) }

// Done reports whether the document's value is complete (only white space
// may follow).
func (t *Tokenizer) Done() bool { return t.st == sAfter && len(t.stack) == 0 }

// Err returns the error that stopped the tokenizer, or nil.
func (t *Tokenizer) Err() error { return t.err }

// Pending describes the token being read when a chunk ended inside it: its
// kind (String, Key, Number, or the literal's kind), where it began, and
// for a String or Key the text decoded so far, which every continuation
// keeps as a prefix (a pending surrogate escape or partial UTF-8 sequence
// is left out); for a Number its text so far. ok is false between tokens.
// text is valid until the next Write.
func (t *Tokenizer) Pending() (kind Kind, begin int64, text []byte, ok bool) {
	switch t.st {
	case sString:
		if t.isKey {
			return Key, t.begin, t.buf, true
		}
		return String, t.begin, t.buf, true
	case sNumber:
		return Number, t.begin, t.buf, true
	case sLiteral:
		switch t.lit {
		case "true":
			return True, t.begin, nil, true
		case "false":
			return False, t.begin, nil, true
		}
		return Null, t.begin, nil, true
	}
	return 0, 0, nil, false
}

// Write reads p, the next bytes of the document, and calls emit with each
// token completed in it, in order. A number completes only when the byte
// after it arrives (or at Close). It returns the first error: a
// *jsonvalue.SyntaxError for malformed or refused JSON, at its byte, or
// emit's error, returned as it is; either stops the tokenizer, which
// returns the same error from then on.
func (t *Tokenizer) Write(p []byte, emit func(*Token) error) error {
	if t.err != nil {
		return t.err
	}
	t.consumed += int64(len(p))
	i := 0
	for t.bom >= 0 && i < len(p) {
		if p[i] != jsonvalue.BOM[t.bom] {
			if t.bom > 0 {
				// A partial mark: its bytes are document bytes after all.
				held := []byte(jsonvalue.BOM[:t.bom])
				t.bom = -1
				if err := t.feed(held, emit); err != nil {
					return err
				}
			}
			t.bom = -1
			break
		}
		t.bom++
		i++
		if t.bom == len(jsonvalue.BOM) {
			t.bom, t.bomSkipped = -1, true
		}
	}
	if i == len(p) {
		return nil
	}
	return t.feed(p[i:], emit)
}

// Close ends the document: it completes a number at the end and returns
// an error wrapping io.ErrUnexpectedEOF (io.EOF when the document held no
// value at all) when the value is incomplete.
func (t *Tokenizer) Close(emit func(*Token) error) error {
	if t.err != nil {
		return t.err
	}
	if t.bom > 0 {
		held := []byte(jsonvalue.BOM[:t.bom])
		t.bom = -1
		if err := t.feed(held, emit); err != nil {
			return err
		}
	}
	if t.st == sNumber {
		if err := t.endNumber(emit, 0, true); err != nil {
			return err
		}
	}
	if t.Done() {
		return nil
	}
	se := t.errorAt(t.off, "unexpected end of JSON input")
	se.Err = io.ErrUnexpectedEOF
	if t.st == sValue && len(t.stack) == 0 {
		se.Err = io.EOF
	}
	t.err = se
	return se
}

// errorAt returns a syntax error at document offset off, on the current
// line (every error is at or after the start of the current line).
func (t *Tokenizer) errorAt(off int64, msg string) *jsonvalue.SyntaxError {
	line, col := t.line, int(off-t.lineStart)+1
	if off < t.lineStart {
		line, col = 0, 0 // cannot happen: errors are on the current line
	}
	return &jsonvalue.SyntaxError{Offset: off, Line: line, Col: col, Msg: msg}
}

func (t *Tokenizer) fail(off int64, c byte, context string) error {
	t.err = t.errorAt(off, "invalid character "+lex.QuoteChar(c)+" "+context)
	t.st = sFailed
	return t.err
}

func (t *Tokenizer) failErr(se *jsonvalue.SyntaxError) error {
	t.err = se
	t.st = sFailed
	return se
}

func (t *Tokenizer) emitTok(emit func(*Token) error, k Kind, begin, end int64, text []byte) error {
	// Field by field: a literal built aside and copied whole costs a
	// stall per token (narrow stores read back wide).
	tok := &t.tok
	tok.Kind, tok.Begin, tok.End, tok.Text, tok.Depth = k, begin, end, text, len(t.stack)
	if err := emit(tok); err != nil {
		t.err, t.st = err, sFailed
		return err
	}
	return nil
}

// feed reads document bytes. Inside a string it reads a run of plain
// bytes at once; a string wholly in the chunk and plain has the chunk's
// bytes as its text. Between tokens, the commonest bytes, which emit
// nothing (a colon, a comma, a string's or key's opening quote), are read
// in the loop itself; t.off is set when the loop ends, or before anything
// that reads it.
func (t *Tokenizer) feed(p []byte, emit func(*Token) error) error {
	base := t.off
	for i := 0; i < len(p); {
		c := p[i]
		off := base + int64(i)
		switch t.st {
		case sString:
			if t.direct >= 0 || t.esc == 0 && t.u8n == 0 && t.high < 0 && lex.IsPlain(c) {
				if !lex.IsPlain(c) {
					if c == '"' {
						if err := t.endString(emit, off, p[t.direct:i]); err != nil {
							return err
						}
						t.direct = -1
						i++
						continue
					}
					t.buf = append(t.buf[:0], p[t.direct:i]...)
					t.direct = -1
					goto special
				}
				j := lex.PlainRun(p, i+1) // eight plain bytes at a time
				for j < len(p) && lex.IsPlain(p[j]) {
					j++
				}
				if t.direct < 0 {
					t.buf = append(t.buf, p[i:j]...)
				}
				i = j
				continue
			}
		special:
			done, err := t.stringByte(c, off)
			if err == nil && done {
				err = t.endString(emit, off, t.buf)
			}
			if err != nil {
				return err
			}
			i++
			continue
		case sNumber, sLiteral:
			var err error
			if t.st == sNumber {
				i, err = t.feedNumber(p, i, base, emit)
			} else {
				i, err = t.feedLiteral(p, i, base, emit)
			}
			if err != nil {
				return err
			}
			continue
		case sFailed:
			return t.err
		}
		if lex.IsSpace(c) {
			t.space(c, off)
			i++
			continue
		}
		switch c {
		case ':':
			if t.st == sColon {
				t.st = sValue
				i++
				continue
			}
		case ',':
			if n := len(t.stack); t.st == sAfter && n > 0 {
				t.st = sValue
				if t.stack[n-1] == '{' {
					t.st = sKey
				}
				i++
				continue
			}
		case '"':
			switch t.st {
			case sKey, sObjectFirst, sValue, sArrayFirst:
				t.startString(off, t.st == sKey || t.st == sObjectFirst)
				t.direct = i + 1 // a string begins
				i++
				continue
			}
		}
		t.off = off
		err := t.structural(c, off, emit)
		if t.st == sString {
			t.direct = i + 1 // a string begins
		}
		i++
		t.off = base + int64(i)
		if err != nil {
			return err
		}
	}
	t.off = base + int64(len(p))
	t.keepText(p)
	return nil
}

// space counts a line at a newline byte c at off.
func (t *Tokenizer) space(c byte, off int64) {
	if c == '\n' {
		t.line++
		t.lineStart = off + 1
	}
}

// keepText keeps the text so far of a plain string that the chunk p
// ends inside, read from p until then.
func (t *Tokenizer) keepText(p []byte) {
	if t.direct >= 0 {
		t.buf = append(t.buf[:0], p[t.direct:]...)
		t.direct = -1
	}
}

// structural reads the byte c at off, outside a token: a value's first
// byte, a key's quote, or a colon, comma or closing bracket.
func (t *Tokenizer) structural(c byte, off int64, emit func(*Token) error) error {
	switch t.st {
	case sValue:
		return t.value(c, off, emit)
	case sArrayFirst:
		if c == ']' {
			return t.close(c, off, emit)
		}
		return t.value(c, off, emit)
	case sObjectFirst, sKey:
		switch {
		case c == '}' && t.st == sObjectFirst:
			return t.close(c, off, emit)
		case c == '"':
			t.startString(off, true)
			return nil
		}
		return t.fail(off, c, "looking for beginning of object key string")
	case sColon:
		if c != ':' {
			return t.fail(off, c, "after object key")
		}
		t.st = sValue
		return nil
	}
	n := len(t.stack) // sAfter
	switch {
	case n == 0:
		return t.failErr(t.errorAt(off, "unexpected data after the JSON value"))
	case c == ',':
		if t.stack[n-1] == '[' {
			t.st = sValue
		} else {
			t.st = sKey
		}
		return nil
	case c == ']' && t.stack[n-1] == '[', c == '}' && t.stack[n-1] == '{':
		return t.close(c, off, emit)
	case t.stack[n-1] == '[':
		return t.fail(off, c, "after array element")
	}
	return t.fail(off, c, "after object key:value pair")
}

// feedNumber reads the bytes of a number from p[i:] (lex.NumberScan),
// as feedString.
func (t *Tokenizer) feedNumber(p []byte, i int, base int64, emit func(*Token) error) (int, error) {
	j := t.num.Scan(p, i)
	t.buf = append(t.buf, p[i:j]...)
	if len(t.buf) > jsonvalue.MaxNumberLen {
		return j, t.numberTooLarge()
	}
	if j == len(p) {
		return j, nil
	}
	t.off = base + int64(j)
	return j, t.endNumber(emit, p[j], false) // p[j] is read again, after the number
}

// feedLiteral reads the bytes of true, false or null from p[i:], as
// feedString.
func (t *Tokenizer) feedLiteral(p []byte, i int, base int64, emit func(*Token) error) (int, error) {
	for i < len(p) {
		c := p[i]
		off := base + int64(i)
		if c != t.lit[t.litPos] {
			return i, t.fail(off, c, lex.LiteralContext(t.lit, t.litPos))
		}
		t.litPos++
		i++
		if t.litPos == len(t.lit) {
			t.st = sAfter
			k := Null
			switch t.lit {
			case "true":
				k = True
			case "false":
				k = False
			}
			t.off = off + 1
			return i, t.emitTok(emit, k, t.begin, off+1, nil)
		}
	}
	return i, nil
}

// endString ends the string or key whose closing quote is at off, with
// its decoded text.
func (t *Tokenizer) endString(emit func(*Token) error, off int64, text []byte) error {
	k := String
	if t.isKey {
		k = Key
		t.st = sColon
	} else {
		t.st = sAfter
	}
	t.off = off + 1
	return t.emitTok(emit, k, t.begin, off+1, text)
}

// value starts the value whose first byte c is at off.
func (t *Tokenizer) value(c byte, off int64, emit func(*Token) error) error {
	switch {
	case c == '{' || c == '[':
		if len(t.stack) >= t.limit {
			if len(t.stack) >= t.maxDepth {
				se := t.errorAt(off, fmt.Sprintf("JSON nested more than %d levels deep", t.maxDepth))
				se.Err = jsonvalue.ErrTooDeep
				return t.failErr(se)
			}
			return t.fail(off, c, "exceeded max depth")
		}
		k := BeginObject
		t.st = sObjectFirst
		if c == '[' {
			k, t.st = BeginArray, sArrayFirst
		}
		err := t.emitTok(emit, k, off, off+1, nil)
		t.stack = append(t.stack, c)
		return err
	case c == '"':
		t.startString(off, false)
	case c == '-' || lex.IsDigit(c):
		t.startNumber(off, c)
	default:
		lit := lex.Literal(c)
		if lit == "" {
			return t.fail(off, c, "looking for beginning of value")
		}
		t.startLiteral(off, lit)
	}
	return nil
}

func (t *Tokenizer) close(c byte, off int64, emit func(*Token) error) error {
	t.stack = t.stack[:len(t.stack)-1]
	t.st = sAfter
	k := EndObject
	if c == ']' {
		k = EndArray
	}
	return t.emitTok(emit, k, off, off+1, nil)
}

func (t *Tokenizer) startString(off int64, key bool) {
	t.st, t.begin, t.isKey = sString, off, key
	t.buf, t.esc, t.high, t.u8n = t.buf[:0], 0, -1, 0
}

func (t *Tokenizer) startLiteral(off int64, lit string) {
	t.st, t.begin, t.lit, t.litPos = sLiteral, off, lit, 1
}

func (t *Tokenizer) startNumber(off int64, c byte) {
	t.st, t.begin, t.num = sNumber, off, lex.NumberScan{}
	t.buf = append(t.buf[:0], c)
	t.num.Begin(c)
}

// stringByte reads byte c of a string at off, outside a plain run, and
// reports whether it closed the string.
func (t *Tokenizer) stringByte(c byte, off int64) (bool, error) {
	t.off = off
	if t.u8n > 0 {
		if c&0xC0 == 0x80 {
			t.u8[t.u8n] = c
			t.u8n++
			if t.u8n < t.u8need {
				return false, nil
			}
			r, size := utf8.DecodeRune(t.u8[:t.u8n])
			if r == utf8.RuneError && size <= 1 {
				return false, t.badUTF8(t.u8off, t.u8[0])
			}
			t.buf = append(t.buf, t.u8[:t.u8n]...)
			t.u8n = 0
			return false, nil
		}
		return false, t.badUTF8(t.u8off, t.u8[0])
	}
	if t.esc == 1 {
		t.esc = 0
		if c == 'u' {
			t.esc, t.hex = 2, 0
			return false, nil
		}
		t.flushHigh()
		e, ok := lex.Escape(c)
		if !ok {
			return false, t.fail(off, c, lex.BadEscape.Context())
		}
		t.buf = append(t.buf, e)
		return false, nil
	}
	if t.esc >= 2 {
		h := lex.Unhex(c)
		if h < 0 {
			return false, t.fail(off, c, lex.BadHex.Context())
		}
		t.hex = t.hex<<4 | h
		if t.esc++; t.esc < 6 {
			return false, nil
		}
		t.esc = 0
		r := t.hex
		if t.high >= 0 {
			if p := lex.Pair(t.high, r); p != utf8.RuneError {
				t.buf = utf8.AppendRune(t.buf, p)
				t.high = -1
				return false, nil
			}
			t.flushHigh()
		}
		if lex.IsSurrogate(r) {
			t.high = r
			return false, nil
		}
		t.buf = utf8.AppendRune(t.buf, r)
		return false, nil
	}
	if c == '\\' {
		// A pending surrogate waits: a \u escape may pair with it.
		t.esc = 1
		return false, nil
	}
	t.flushHigh()
	switch {
	case c == '"':
		return true, nil
	case c < 0x20:
		return false, t.fail(off, c, lex.Control.Context())
	case c < utf8.RuneSelf:
		t.buf = append(t.buf, c)
		return false, nil
	}
	need := 0
	switch {
	case c&0xE0 == 0xC0:
		need = 2
	case c&0xF0 == 0xE0:
		need = 3
	case c&0xF8 == 0xF0:
		need = 4
	default:
		return false, t.badUTF8(off, c)
	}
	t.u8[0], t.u8n, t.u8need, t.u8off = c, 1, need, off
	return false, nil
}

// flushHigh writes a surrogate escape left without its pair as U+FFFD.
func (t *Tokenizer) flushHigh() {
	if t.high >= 0 {
		t.buf = utf8.AppendRune(t.buf, utf8.RuneError)
		t.high = -1
	}
}

func (t *Tokenizer) badUTF8(off int64, c byte) error {
	se := t.errorAt(off, fmt.Sprintf("invalid UTF-8 (byte 0x%02x) at byte offset %d: JSON text must be UTF-8, and judge does not replace bytes it cannot read", c, off))
	se.Err = jsonvalue.ErrInvalidUTF8
	return t.failErr(se)
}

// endNumber ends the number before the byte c (at t.off), or at the end
// of the input (eof): an error when it is incomplete or refused, else its
// token. An incomplete number at the end of the input is left for Close
// to report as such.
func (t *Tokenizer) endNumber(emit func(*Token) error, c byte, eof bool) error {
	if code := t.num.End(); code != lex.OK {
		if eof {
			return nil
		}
		return t.fail(t.off, c, code.Context())
	}
	if !t.num.Small(len(t.buf)) {
		switch lex.NumberLimit(t.buf, t.num.Exp) {
		case lex.TooLarge:
			return t.numberTooLarge()
		case lex.OutOfRange:
			se := t.errorAt(t.begin, fmt.Sprintf("number %s is outside the range of a 64-bit float (±1.8e308): a consumer reading it as a float would get infinity or a clamped value; send it as a string if it must be exact", shown(t.buf)))
			se.Err = jsonvalue.ErrOutOfRange
			return t.failErr(se)
		}
	}
	t.st = sAfter
	return t.emitTok(emit, Number, t.begin, t.off, t.buf)
}

func (t *Tokenizer) numberTooLarge() error {
	se := t.errorAt(t.begin, fmt.Sprintf("number %s is beyond what judge accepts (an exponent of at most %d, at most %d characters)",
		shown(t.buf), jsonvalue.MaxNumberExponent, jsonvalue.MaxNumberLen))
	se.Err = jsonvalue.ErrNumberTooLarge
	return t.failErr(se)
}

func shown(n []byte) string {
	if len(n) <= 40 {
		return string(n)
	}
	return string(n[:40]) + "…"
}
