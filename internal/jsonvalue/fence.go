package jsonvalue

import (
	"errors"
	"regexp"
	"strings"
)

// Embedding says how [FindInString] found JSON in a string, or why it left
// the string as text.
type Embedding int

const (
	// NoJSON: the string neither is nor holds a JSON object or array.
	NoJSON Embedding = iota
	// Whole: the string, less surrounding space, is a JSON object or array.
	Whole
	// Fenced: a ```json (or unlabelled) fenced block holds a JSON object
	// or array; the text around it is not JSON.
	Fenced
	// Broken: the string looks like JSON (Line 0), or a ```json fence
	// opened at Line holds something, that does not parse.
	Broken
	// Unclosed: a ```json fence opened at Line is never closed.
	Unclosed
)

// Embedded is what [FindInString] found in a string.
type Embedded struct {
	How Embedding
	// Value is the decoded JSON (Whole and Fenced).
	Value any
	// Dups are the duplicate keys of Value, their lines counted in the
	// string (Whole and Fenced).
	Dups []Duplicate
	// Line is the line of the string that the JSON's own lines count
	// from: 0 for the whole string, the opening line of the fence
	// otherwise (1-based).
	Line int
	// Err is why the JSON does not parse (Broken); a *SyntaxError's line
	// counts from Line.
	Err error
}

// fenceRE finds fenced code blocks: ```lang\n...\n```.
var fenceRE = regexp.MustCompile("(?s)```[ \t]*([A-Za-z0-9_+-]*)[ \t]*\r?\n(.*?)\r?\n[ \t]*```")

// openFenceRE finds the opening of a ```json fence.
var openFenceRE = regexp.MustCompile("(?m)^[ \t]*```[ \t]*(?i:json)[ \t]*\r?$")

// FindInString finds JSON inside a string, as an LLM writes it when asked
// for JSON: the whole string, or the first ```json (or unlabelled) fenced
// block that holds a JSON object or array. A fenced scalar stays text, and
// an unlabelled fence that does not parse is passed over.
//
// JSON nested deeper than maxDepth, or a number beyond what Decode reads,
// is an error (wrapping [ErrTooDeep] or [ErrNumberTooLarge]): read as text,
// the string would pass checks its JSON fails.
func FindInString(s string, maxDepth int) (Embedded, error) {
	trimmed := strings.TrimSpace(s)
	if strings.HasPrefix(trimmed, "{") || strings.HasPrefix(trimmed, "[") {
		v, dd, err := DecodeDuplicates([]byte(trimmed), maxDepth)
		if rejects(err) {
			return Embedded{}, err
		}
		if err != nil {
			return Embedded{How: Broken, Err: err}, nil
		}
		return Embedded{How: Whole, Value: v, Dups: dd}, nil
	}
	for _, m := range fenceRE.FindAllStringSubmatchIndex(s, -1) {
		lang := strings.ToLower(s[m[2]:m[3]])
		if lang != "json" && lang != "" {
			continue
		}
		body := s[m[4]:m[5]]
		line := strings.Count(s[:m[4]], "\n") // the fence's opening line
		v, dd, err := DecodeDuplicates([]byte(body), maxDepth)
		if rejects(err) {
			return Embedded{}, err
		}
		if err != nil {
			if lang == "json" {
				return Embedded{How: Broken, Line: line, Err: err}, nil
			}
			continue
		}
		if !isContainer(v) {
			continue
		}
		for i := range dd {
			dd[i].Line += line
		}
		return Embedded{How: Fenced, Value: v, Dups: dd, Line: line}, nil
	}
	if m := openFenceRE.FindStringIndex(s); m != nil && !fenceRE.MatchString(s[m[0]:]) {
		return Embedded{How: Unclosed, Line: strings.Count(s[:m[0]], "\n") + 1}, nil
	}
	return Embedded{}, nil
}

// rejects reports whether err, an error of decoding JSON found in a
// string, rejects the string rather than leaving it text.
func rejects(err error) bool {
	return errors.Is(err, ErrTooDeep) || errors.Is(err, ErrNumberTooLarge)
}

func isContainer(v any) bool {
	switch v.(type) {
	case map[string]any, []any:
		return true
	}
	return false
}
