package result

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode"
)

// CheckLocation reports whether loc is written in the one location grammar
// of docs/locations.md, and if not, why:
//
//	location = "root" / "N/A" / path [":" key] / [path ":"] code [":" key]
//	path     = ( name / "[" index "]" / "[" json-string "]" )
//	           *( "." name / "[" index "]" / "[" json-string "]" )
//	code     = line / "function:" NAME [":" line] / "file:" FILE ":" line
//	line     = "line:" N [":column:" N]
//	key      = lower-case letters, digits and '_'
//
// name is an identifier (a letter or '_', then letters, digits or '_');
// N is a positive integer. Field paths are the specification's dot and
// bracket notation ("customer.email", "tasks[2].status"); code locations
// are its "line:42", "function:calculate_average" and "file:auth.py:line:87".
// An empty location (none given) is allowed.
func CheckLocation(loc string) error {
	if loc == "" || loc == "root" || loc == "N/A" {
		return nil
	}
	rest := loc
	if !isCodeStart(rest) {
		n, err := pathLen(rest)
		if err != nil {
			return fmt.Errorf("location %q: %w", loc, err)
		}
		rest = rest[n:]
		if rest == "" {
			return nil
		}
		if rest[0] != ':' {
			return fmt.Errorf("location %q: %q after the field path, want '.', '[' or ':'", loc, rest)
		}
		rest = rest[1:]
		if !isCodeStart(rest) {
			if isKey(rest) {
				return nil
			}
			return fmt.Errorf("location %q: %q after the field path is neither a code location nor a key", loc, rest)
		}
	}
	rest, err := codeLen(rest)
	if err != nil {
		return fmt.Errorf("location %q: %w", loc, err)
	}
	if rest == "" || (rest[0] == ':' && isKey(rest[1:])) {
		return nil
	}
	return fmt.Errorf("location %q: unexpected %q after the code location", loc, rest)
}

func isCodeStart(s string) bool {
	return strings.HasPrefix(s, "line:") || strings.HasPrefix(s, "function:") || strings.HasPrefix(s, "file:")
}

// codeLen parses a code location at the start of s and returns the rest.
func codeLen(s string) (string, error) {
	switch {
	case strings.HasPrefix(s, "function:"):
		s = s[len("function:"):]
		end := strings.IndexByte(s, ':')
		if end < 0 {
			end = len(s)
		}
		if end == 0 || strings.ContainsAny(s[:end], " \t\n") {
			return "", fmt.Errorf("function:%s: the function name is empty or has spaces", s[:end])
		}
		s = s[end:]
		if strings.HasPrefix(s, ":line:") {
			return lineLen(s[1:])
		}
		return s, nil
	case strings.HasPrefix(s, "file:"):
		i := strings.Index(s, ":line:")
		if i <= len("file:") {
			return "", fmt.Errorf("%q: file:PATH must be followed by :line:N", s)
		}
		return lineLen(s[i+1:])
	}
	return lineLen(s)
}

// lineLen parses "line:N" or "line:N:column:M" and returns the rest.
func lineLen(s string) (string, error) {
	rest, err := number(s, "line:")
	if err != nil {
		return "", err
	}
	if strings.HasPrefix(rest, ":column:") {
		return number(rest[1:], "column:")
	}
	return rest, nil
}

func number(s, prefix string) (string, error) {
	if !strings.HasPrefix(s, prefix) {
		return "", fmt.Errorf("%q does not start with %s", s, prefix)
	}
	s = s[len(prefix):]
	n := 0
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	if n == 0 || s[0] == '0' {
		return "", fmt.Errorf("%s needs a positive number", prefix)
	}
	return s[n:], nil
}

// pathLen returns the length of the field path at the start of s.
func pathLen(s string) (int, error) {
	i := 0
	for first := true; i < len(s); first = false {
		switch {
		case s[i] == '[':
			j := strings.IndexByte(s[i:], ']')
			if j < 0 {
				return 0, fmt.Errorf("'[' at %d is not closed", i)
			}
			inner := s[i+1 : i+j]
			if strings.HasPrefix(inner, `"`) {
				// A quoted key may hold ']': read the JSON string.
				dec := json.NewDecoder(strings.NewReader(s[i+1:]))
				var key string
				if err := dec.Decode(&key); err != nil {
					return 0, fmt.Errorf("bad quoted key at %d: %v", i, err)
				}
				end := i + 1 + int(dec.InputOffset())
				if end >= len(s) || s[end] != ']' {
					return 0, fmt.Errorf("quoted key at %d is not followed by ']'", i)
				}
				i = end + 1
				continue
			}
			if inner == "" || strings.Trim(inner, "0123456789") != "" {
				return 0, fmt.Errorf("[%s] is not an index or a quoted key", inner)
			}
			i += j + 1
		case s[i] == '.' && !first:
			n := nameLen(s[i+1:])
			if n == 0 {
				return 0, fmt.Errorf("'.' at %d is not followed by a name", i)
			}
			i += 1 + n
		case first:
			n := nameLen(s)
			if n == 0 {
				return 0, fmt.Errorf("does not start with a name, '[', root, N/A or a code location")
			}
			i = n
		default:
			return i, nil
		}
	}
	return i, nil
}

func nameLen(s string) int {
	for i, c := range s {
		switch {
		case c == '_' || unicode.IsLetter(c):
		case i > 0 && unicode.IsDigit(c):
		default:
			return i
		}
	}
	return len(s)
}

func isKey(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}
