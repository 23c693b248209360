// Package jsonpos finds where things are in JSON text: the byte offset of
// the value a JSON Pointer leads to, of a character inside a string
// literal, and so their line and column. The command line points its
// errors at files with it; a report that marks a location in a document
// shown to a person (the console) uses the same locator.
package jsonpos

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/agentjudge/judge/internal/jsonvalue"
)

// PointerTokens splits a JSON Pointer ("/a/b~1c") into its unescaped
// tokens; "" gives none.
func PointerTokens(ptr string) []string {
	if ptr == "" {
		return nil
	}
	toks := strings.Split(strings.TrimPrefix(ptr, "/"), "/")
	for i, t := range toks {
		toks[i] = strings.ReplaceAll(strings.ReplaceAll(t, "~1", "/"), "~0", "~")
	}
	return toks
}

// Offset returns the byte offset in data, a JSON document, of the value
// the tokens of a JSON Pointer lead to, and whether it leads to one.
func Offset(data []byte, tokens []string) (int64, bool) {
	dec := json.NewDecoder(bytes.NewReader(data))
	start := SkipSpace(data, 0)
	for _, tok := range tokens {
		t, err := dec.Token()
		if err != nil {
			return 0, false
		}
		found := false
		switch t {
		case json.Delim('{'):
			for !found && dec.More() {
				k, err := dec.Token()
				if err != nil {
					return 0, false
				}
				if k == tok {
					start, found = SkipSep(data, dec.InputOffset()), true
				} else if dec.Decode(new(json.RawMessage)) != nil {
					return 0, false
				}
			}
		case json.Delim('['):
			n, err := strconv.Atoi(tok)
			if err != nil || n < 0 {
				return 0, false
			}
			for j := 0; !found && dec.More(); j++ {
				if j == n {
					start, found = SkipSep(data, dec.InputOffset()), true
				} else if dec.Decode(new(json.RawMessage)) != nil {
					return 0, false
				}
			}
		}
		if !found {
			return 0, false
		}
	}
	return start, true
}

// Locate returns the line and column (1-based, columns in bytes) in data
// of the value the JSON Pointer ptr leads to, and whether it leads to one.
func Locate(data []byte, ptr string) (line, col int, ok bool) {
	off, ok := Offset(data, PointerTokens(ptr))
	if !ok {
		return 0, 0, false
	}
	line, col = jsonvalue.Position(data, off)
	return line, col, true
}

// StringOffset returns the byte offset in data of the character at
// line:col (1-based, columns in characters) of the JSON string literal
// starting at off, counting escapes such as \n as the characters they
// stand for. It returns off when data holds no string there, and the
// closing quote when the string is shorter.
func StringOffset(data []byte, off int64, line, col int) int64 {
	if off >= int64(len(data)) || data[off] != '"' {
		return off
	}
	l, c := 1, 1
	i := off + 1
	for i < int64(len(data)) && data[i] != '"' {
		if l == line && c == col {
			return i
		}
		if data[i] == '\\' && i+1 < int64(len(data)) {
			n := int64(2)
			if data[i+1] == 'u' {
				n = 6
			}
			if data[i+1] == 'n' {
				l, c = l+1, 1
			} else {
				c++
			}
			i += n
			continue
		}
		_, size := utf8.DecodeRune(data[i:])
		i += int64(size)
		c++
	}
	return min(i, int64(len(data)))
}

// SkipSpace returns the offset of the first byte at or after off that is
// not JSON white space.
func SkipSpace(data []byte, off int64) int64 {
	for off < int64(len(data)) && strings.IndexByte(" \t\r\n", data[off]) >= 0 {
		off++
	}
	return off
}

// SkipSep is SkipSpace that also skips the separators ',' and ':'.
func SkipSep(data []byte, off int64) int64 {
	for off < int64(len(data)) && strings.IndexByte(" \t\r\n,:", data[off]) >= 0 {
		off++
	}
	return off
}
