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

// keyFlag says what normalization may do with a root parameter.
type keyFlag uint8

const (
	keyScoped    keyFlag = 1 << iota // an action scope may drop it
	keyDefault                       // it has a default normalization fills in
	keyCoercible                     // a coercion may change its value (see coerce)
	keyArray                         // it takes arrays: a single value is wrapped
)

// keyFlags returns the flags of the root parameters, every one of them
// listed (a parameter without flags is known, not unknown).
func (ct *Contract) keyFlags() map[string]keyFlag {
	fl := make(map[string]keyFlag, len(ct.props))
	for k := range ct.props {
		fl[k] = 0
	}
	for k := range ct.def.AppliesWhen {
		fl[k] |= keyScoped
	}
	for k := range ct.defaults {
		fl[k] |= keyDefault
	}
	for _, p := range ct.coercible {
		fl[p.name] |= keyCoercible
		if p.array {
			fl[p.name] |= keyArray
		}
	}
	return fl
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
		f, known := ct.keys[string(key)]
		switch {
		case !known && unknown, f&keyScoped != 0,
			f&keyCoercible != 0 && (first == '"' || f&keyArray != 0 && first != '['):
			return false
		case f&keyDefault != 0:
			defaults++
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
