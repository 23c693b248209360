package toolcall

import (
	"bytes"

	"github.com/agentjudge/judge/internal/jsonvalue"
)

// plainValid reports whether call's arguments are, as given, an object
// that Check would find valid without changing it: no rule to evaluate,
// no goal that lifts limits, every parameter with a default present, no
// parameter an action scope could drop, no value a coercion could change,
// no unknown parameter judge reports, and the schema's fast path sure
// that the bytes are valid (which also means they decode without error
// and repeat no key). Then the check needs no decoded value. False means
// only that Check takes its usual path, which decides the same way.
func (ct *Contract) plainValid(call Call) bool {
	raw := call.Arguments
	if len(raw) > MaxArgumentsBytes || len(ct.rules) > 0 || (call.Goal != "" && WantsAll(call.Goal)) {
		return false
	}
	if !ct.plainKeys(raw) {
		return false
	}
	ok, sure := ct.input.fast.Check(raw, 0)
	return ok && sure
}

// plainKeys reads the members of raw, an object, at its top level only:
// it reports whether none of them is a parameter normalization could drop
// or coerce or an unknown one, and every parameter with a default is
// there. Anything unusual (not an object, an escaped key, a malformed
// value) is false: the usual path reads it.
func (ct *Contract) plainKeys(raw []byte) bool {
	i := jsonvalue.SkipSpace(raw, 0)
	if i >= len(raw) || raw[i] != '{' {
		return false
	}
	unknown := ct.checkUnknown && !ct.patterns
	defaults := 0
	i = jsonvalue.SkipSpace(raw, i+1)
	if i < len(raw) && raw[i] == '}' {
		return len(ct.defaultNames) == 0 && jsonvalue.SkipSpace(raw, i+1) == len(raw)
	}
	for i < len(raw) {
		if raw[i] != '"' {
			return false
		}
		end := bytes.IndexByte(raw[i+1:], '"')
		if end < 0 {
			return false
		}
		key := raw[i+1 : i+1+end]
		if bytes.IndexByte(key, '\\') >= 0 {
			return false
		}
		i = jsonvalue.SkipSpace(raw, i+2+end)
		if i >= len(raw) || raw[i] != ':' {
			return false
		}
		i = jsonvalue.SkipSpace(raw, i+1)
		if i >= len(raw) {
			return false
		}
		first := raw[i]
		if i = jsonvalue.SkipValue(raw, i, 1, jsonvalue.DefaultMaxDepth); i < 0 {
			return false
		}
		if unknown {
			if _, ok := ct.props[string(key)]; !ok {
				return false
			}
		}
		if _, ok := ct.def.AppliesWhen[string(key)]; ok {
			return false
		}
		if _, ok := ct.defaults[string(key)]; ok {
			defaults++
		}
		for _, p := range ct.coercible {
			if p.name == string(key) && (first == '"' || p.array && first != '[') {
				return false
			}
		}
		i = jsonvalue.SkipSpace(raw, i)
		if i >= len(raw) {
			return false
		}
		switch raw[i] {
		case ',':
			i = jsonvalue.SkipSpace(raw, i+1)
		case '}':
			return defaults == len(ct.defaultNames) && jsonvalue.SkipSpace(raw, i+1) == len(raw)
		default:
			return false
		}
	}
	return false
}
