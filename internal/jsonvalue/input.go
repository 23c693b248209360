package jsonvalue

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/agentjudge/judge/internal/jsontoken/lex"
	"github.com/agentjudge/judge/internal/location"
	"github.com/agentjudge/judge/result"
)

// BOM is the UTF-8 byte-order mark, which Decode and [TrimBOM] skip at the
// start of a document.
const BOM = "\xef\xbb\xbf"

// TrimBOM returns data without a UTF-8 byte-order mark at its start.
// Positions in errors about the rest count from after the mark, as an
// editor shows them.
func TrimBOM(data []byte) []byte {
	return bytes.TrimPrefix(data, []byte(BOM))
}

// ErrInvalidUTF8 is wrapped by errors for a string that is not valid UTF-8.
var ErrInvalidUTF8 = errors.New("invalid UTF-8 in a JSON string")

// ErrOutOfRange is wrapped by errors for a number whose magnitude is larger
// than the largest float64 (about 1.8e308). It wraps ErrNumberTooLarge.
var ErrOutOfRange = fmt.Errorf("%w: outside the float64 range", ErrNumberTooLarge)

// OutOfRange reports whether n, the text of a JSON number, is larger in
// magnitude than the largest float64, which Decode rejects. It is for
// scanners that read numbers without Decode.
func OutOfRange(n []byte) bool { return lex.IsOutOfRange(n) }

// numberError is the error for the number at offset off of data: over the
// size limits, or out of the float64 range.
func numberError(data []byte, off int) error {
	end, exp, _ := lex.ScanNumber(data, off)
	num := data[off:end]
	line, col := Position(data, int64(off))
	se := &SyntaxError{Offset: int64(off), Line: line, Col: col, Path: pathAt(data, off)}
	shown := showNumber(num)
	if lex.NumberLimit(num, exp) == lex.TooLarge {
		se.Err = ErrNumberTooLarge
		se.Msg = fmt.Sprintf("number %s%s is beyond what judge accepts (an exponent of at most %d, at most %d characters)",
			shown, atPath(se.Path), MaxNumberExponent, MaxNumberLen)
		return se
	}
	se.Err = ErrOutOfRange
	se.Msg = fmt.Sprintf("number %s%s is outside the range of a 64-bit float (±1.8e308): a consumer reading it as a float would get infinity or a clamped value; send it as a string if it must be exact",
		shown, atPath(se.Path))
	return se
}

// maxShownNumber is how many characters of a number an error quotes.
const maxShownNumber = 40

// showNumber quotes a number for a message: whole when short, else its
// first characters, an ellipsis and how many digits it has.
func showNumber(n []byte) string {
	if len(n) <= maxShownNumber {
		return string(n)
	}
	digits := 0
	for _, c := range n {
		if lex.IsDigit(c) {
			digits++
		}
	}
	return fmt.Sprintf("%s… (%d digits)", n[:maxShownNumber], digits)
}

// utf8Error is the error for the invalid UTF-8 at offset off of data.
func utf8Error(data []byte, off int) error {
	line, col := Position(data, int64(off))
	se := &SyntaxError{Offset: int64(off), Line: line, Col: col, Path: pathAt(data, off), Err: ErrInvalidUTF8}
	se.Msg = fmt.Sprintf("invalid UTF-8 (byte 0x%02x) at byte offset %d%s: JSON text must be UTF-8, and judge does not replace bytes it cannot read",
		data[off], off, atPath(se.Path))
	return se
}

// atPath names a location in a message, or nothing for the root.
func atPath(p string) string {
	if p == "" || p == "root" {
		return ""
	}
	return " at " + p
}

// FirstInvalidUTF8 returns the offset of the first byte of s that does not
// start a valid UTF-8 sequence, or -1 when s is valid UTF-8.
func FirstInvalidUTF8(s []byte) int { return lex.FirstInvalidUTF8(s) }

// frame is one open array or object of a walk.
type frame struct {
	array  bool
	index  int
	key    string
	hasKey bool // the object's current key has been read
}

// walk scans data, a JSON document that is well formed at least up to the
// offsets asked about, and calls at for each token (a string, a scalar, or
// an opening bracket) with its start and end offsets, whether it is an
// object key, and the open containers. It stops when at returns false.
func walk(data []byte, at func(start, end int, isKey bool, stack []frame) bool) {
	var stack []frame
	for i := 0; i < len(data); {
		c := data[i]
		switch {
		case lex.IsSpace(c) || c == ':':
			i++
			continue
		case c == ',':
			if n := len(stack); n > 0 {
				if stack[n-1].array {
					stack[n-1].index++
				} else {
					stack[n-1].hasKey = false
				}
			}
			i++
			continue
		case c == '}' || c == ']':
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
			i++
			continue
		}
		isKey := len(stack) > 0 && !stack[len(stack)-1].array && !stack[len(stack)-1].hasKey
		end := i + 1
		switch {
		case c == '"':
			for end < len(data) && data[end] != '"' {
				if data[end] == '\\' {
					end++
				}
				end++
			}
			end = min(end+1, len(data))
		case c == '{' || c == '[':
		default:
			for end < len(data) && !lex.IsSpace(data[end]) && !strings.ContainsRune(",:]}", rune(data[end])) {
				end++
			}
		}
		if !at(i, end, isKey, stack) {
			return
		}
		if isKey {
			stack[len(stack)-1].key = unquote(data[i:end])
			stack[len(stack)-1].hasKey = true
		}
		switch c {
		case '{':
			stack = append(stack, frame{})
		case '[':
			stack = append(stack, frame{array: true})
		}
		i = end
	}
}

// unquote returns the text of a JSON string literal, its escapes decoded.
func unquote(lit []byte) string {
	d := getDecoder(lit, 1)
	defer d.release()
	b, j := d.str(0)
	if j < 0 {
		return string(bytes.Trim(lit, `"`))
	}
	return string(b)
}

// render writes the path of the open containers, plus key when not empty,
// in the notation of issue locations.
func render(stack []frame, key *string) string {
	var toks []string
	var idx []bool
	for k, f := range stack {
		if f.array {
			toks, idx = append(toks, strconv.Itoa(f.index)), append(idx, true)
		} else if f.hasKey && (k < len(stack)-1 || key == nil) {
			toks, idx = append(toks, f.key), append(idx, false)
		}
	}
	if key != nil {
		toks, idx = append(toks, *key), append(idx, false)
	}
	return location.Path(toks, func(i int) bool { return idx[i] })
}

// pathAt returns the location of the value of data that holds the byte at
// off (an object key counts as its member's value).
func pathAt(data []byte, off int) string {
	p := "root"
	walk(data, func(start, end int, isKey bool, stack []frame) bool {
		if start > off {
			return false
		}
		if off < end {
			if isKey {
				k := unquote(data[start:end])
				p = render(stack, &k)
			} else {
				p = render(stack, nil)
			}
			return false
		}
		return true
	})
	return p
}

// Issue is the warning about d, with rule as its rule: a reader that keeps
// the first of two values acts on other data than judge checked. where
// names the document in the message ("of the arguments").
func (d Duplicate) Issue(rule, where string) result.Issue {
	key := result.Clip(d.Key, 80)
	return result.Issue{
		Severity: result.Warning, Type: result.DuplicateKey, Location: d.Path, Rule: rule,
		Message: fmt.Sprintf("Key '%s' appears more than once in its object (again at line %d, column %d %s); judge read the last value, but a reader that keeps the first would act on other data",
			key, d.Line, d.Col, where),
		Suggestion: fmt.Sprintf("Send each key once: remove the repeated '%s', keeping the value you mean", key),
	}
}

// ErrDuplicateField is wrapped by the error of CheckEnvelope for a field
// given twice.
var ErrDuplicateField = errors.New("duplicate field in a request")

// CheckEnvelope checks a request body before encoding/json decodes it into
// a struct, for what that decoding would hide: nesting deeper than
// maxDepth (as [CheckDepth]), a top-level field given twice (of which
// encoding/json keeps the last; fields are compared as encoding/json
// matches them to struct fields, ignoring case), and bytes that are not
// UTF-8 anywhere (which encoding/json replaces in strings). data should
// have no byte-order mark ([TrimBOM]). Errors are *SyntaxError; the
// duplicate field's wraps [ErrDuplicateField].
func CheckEnvelope(data []byte, maxDepth int) error {
	if err := CheckDepth(data, maxDepth); err != nil {
		return err
	}
	if !utf8.Valid(data) {
		return utf8Error(data, lex.FirstInvalidUTF8(data))
	}
	i := skipSpace(data, 0)
	if i >= len(data) || data[i] != '{' {
		return nil
	}
	seen := map[string]int{}
	depth, expectKey := 0, false
	for ; i < len(data); i++ {
		switch c := data[i]; c {
		case '{', '[':
			depth++
			expectKey = depth == 1
		case '}', ']':
			depth--
			if depth <= 0 {
				return nil
			}
		case ',':
			expectKey = depth == 1
		case '"':
			start := i
			for i++; i < len(data) && data[i] != '"'; i++ {
				if data[i] == '\\' {
					i++
				}
			}
			if !expectKey || i >= len(data) {
				continue
			}
			expectKey = false
			key := strings.ToLower(unquote(data[start : i+1]))
			if first, ok := seen[key]; ok {
				line, col := Position(data, int64(start))
				fl, fc := Position(data, int64(first))
				return &SyntaxError{Offset: int64(start), Line: line, Col: col, Err: ErrDuplicateField,
					Msg: fmt.Sprintf("field %s is given twice (first at line %d, column %d); send each field once", data[start:i+1], fl, fc)}
			}
			seen[key] = start
		}
	}
	return nil
}
