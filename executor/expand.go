package executor

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"

	"github.com/agentjudge/judge/result"
)

// MaxTemplateLen is the longest template (URL, header, argument) expanded,
// in bytes.
const MaxTemplateLen = 64 << 10

func lookupEnv(name string) (string, bool) { return os.LookupEnv(name) }

// ExpandError is a template or ${VAR} reference that cannot be expanded;
// Offset is the 0-based byte offset in the template.
type ExpandError struct {
	Template string
	Offset   int
	Msg      string
}

func (e *ExpandError) Error() string {
	return fmt.Sprintf("template %q at offset %d: %s", result.Clip(e.Template, 81), e.Offset, e.Msg)
}

// validEnvName reports whether s is a variable name: letters, digits and
// '_', not starting with a digit.
func validEnvName(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range s {
		if c == '_' || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (i > 0 && c >= '0' && c <= '9') {
			continue
		}
		return false
	}
	return true
}

// expand fills a template in one pass: ${NAME} with env(NAME) and {name}
// with param(name), each value passed through escape (nil: as is). A value
// is never scanned again, so a value holding "{x}" or "${X}" stays as it
// is. A '$' not followed by '{' is literal; '{{' and '}}' are literal
// braces. param nil leaves {name} as written (for values where only
// ${NAME} is meant). An unset variable, a missing parameter, a bad name or
// an unbalanced brace is an *ExpandError.
func expand(tmpl string, env func(string) (string, bool), param func(string) (string, bool), escape func(prefix, value string) string) (string, error) {
	if len(tmpl) > MaxTemplateLen {
		return "", &ExpandError{Template: tmpl, Offset: MaxTemplateLen, Msg: fmt.Sprintf("longer than %d bytes", MaxTemplateLen)}
	}
	var sb strings.Builder
	for i := 0; i < len(tmpl); i++ {
		c := tmpl[i]
		switch {
		case c == '$' && i+1 < len(tmpl) && tmpl[i+1] == '{':
			end := strings.IndexByte(tmpl[i+2:], '}')
			if end < 0 {
				return "", &ExpandError{Template: tmpl, Offset: i, Msg: "'${' is never closed"}
			}
			name := tmpl[i+2 : i+2+end]
			if !validEnvName(name) {
				return "", &ExpandError{Template: tmpl, Offset: i, Msg: fmt.Sprintf("'${%s}' is not a valid variable name", name)}
			}
			v, ok := env(name)
			if !ok {
				return "", &ExpandError{Template: tmpl, Offset: i, Msg: fmt.Sprintf("environment variable %s is not set", name)}
			}
			if escape != nil {
				v = escape(sb.String(), v)
			}
			sb.WriteString(v)
			i += 2 + end
		case c == '{' && param != nil:
			if i+1 < len(tmpl) && tmpl[i+1] == '{' {
				sb.WriteByte('{')
				i++
				continue
			}
			end := strings.IndexByte(tmpl[i+1:], '}')
			if end < 0 {
				return "", &ExpandError{Template: tmpl, Offset: i, Msg: "'{' is never closed"}
			}
			name := strings.TrimSpace(tmpl[i+1 : i+1+end])
			if name == "" || strings.ContainsAny(name, "{$") {
				return "", &ExpandError{Template: tmpl, Offset: i, Msg: fmt.Sprintf("'{%s}' does not name a parameter", tmpl[i+1:i+1+end])}
			}
			v, ok := param(name)
			if !ok {
				return "", &ExpandError{Template: tmpl, Offset: i, Msg: fmt.Sprintf("parameter %s has no value", name)}
			}
			if escape != nil {
				v = escape(sb.String(), v)
			}
			sb.WriteString(v)
			i += 1 + end
		case c == '}' && param != nil:
			if i+1 < len(tmpl) && tmpl[i+1] == '}' {
				i++
			}
			sb.WriteByte('}')
		default:
			sb.WriteByte(c)
		}
	}
	return sb.String(), nil
}

// paramText renders an argument for a template or an argv element: a
// string as it is, a number as written, anything else as JSON.
func paramText(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case json.Number:
		return x.String()
	case nil:
		return ""
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// paramLookup looks parameters up in args; an absent one is "" (an
// optional parameter left out), so that a template still expands.
func paramLookup(args map[string]any) func(string) (string, bool) {
	return func(name string) (string, bool) {
		v, ok := args[name]
		if !ok {
			return "", true
		}
		return paramText(v), true
	}
}

// childEnv builds a child's environment: the allowlisted variables of the
// parent that are set, then each NAME: value of the declared env maps (in
// order; a later one wins), value's ${VAR} expanded from the parent. A
// secret in the parent reaches the child only when a manifest declares it.
func childEnv(allow []string, lookup func(string) (string, bool), declared ...map[string]any) ([]string, error) {
	env := map[string]string{}
	for _, name := range allow {
		if v, ok := lookup(name); ok {
			env[name] = v
		}
	}
	for _, d := range declared {
		for _, name := range slices.Sorted(maps.Keys(d)) {
			if !validEnvName(name) {
				return nil, fmt.Errorf("config.env: %q is not a valid variable name", name)
			}
			raw, ok := d[name].(string)
			if !ok {
				raw = paramText(d[name])
			}
			v, err := expand(raw, lookup, nil, nil)
			if err != nil {
				var ee *ExpandError
				if errors.As(err, &ee) {
					// The template is the manifest's text, never a value.
					return nil, fmt.Errorf("config.env.%s: %s", name, ee.Msg)
				}
				return nil, err
			}
			env[name] = v
		}
	}
	out := make([]string, 0, len(env))
	for _, k := range slices.Sorted(maps.Keys(env)) {
		out = append(out, k+"="+env[k])
	}
	return out, nil
}
