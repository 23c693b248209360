package toolcall

import (
	"bytes"
	"maps"
	"slices"
	"time"

	"github.com/agentjudge/judge/internal/jsonvalue"
	"github.com/agentjudge/judge/layer/schema"
	"github.com/agentjudge/judge/result"
)

// plainValid reports whether call's arguments are, as given, an object
// that Check would find valid changing nothing but defaults filled in: no
// rule to evaluate, no goal that lifts limits, no parameter an action
// scope could drop, no value a coercion could change, no unknown
// parameter judge reports, and the schema's fast path sure that the bytes
// (with the missing defaults' members added) are valid, which also means
// they decode without error and repeat no key. Then the check needs no
// decoded value. missing has bit i set for ct.defaultNames[i] when the
// call lacks it. False means only that Check takes its usual path, which
// decides the same way.
func (ct *Contract) plainValid(call Call) (missing uint64, ok bool) {
	raw := call.Arguments
	if len(raw) > MaxArgumentsBytes || len(ct.rules) > 0 || (call.Goal != "" && WantsAll(call.Goal)) {
		return 0, false
	}
	if ct.closed != nil {
		if v := ct.closed(); v != nil {
			i := jsonvalue.SkipSpace(raw, 0)
			if i >= len(raw) || raw[i] != '{' {
				return 0, false
			}
			valid, sure := v.Check(raw, 0)
			return 0, valid && sure
		}
	}
	missing, end, ok := ct.plainKeys(raw)
	if !ok {
		return 0, false
	}
	doc := []byte(raw)
	if missing != 0 {
		if ct.defaultMembers == nil {
			return 0, false
		}
		doc = ct.withDefaults(raw[:end], missing)
	}
	valid, sure := ct.input.fast.Check(doc, 0)
	return missing, valid && sure
}

// withDefaults is obj, an object's bytes without its closing brace, with
// the members of the missing defaults added and the object closed.
func (ct *Contract) withDefaults(obj []byte, missing uint64) []byte {
	n := len(obj) + 1
	for i, m := range ct.defaultMembers {
		if missing&(1<<i) != 0 {
			n += len(m) + 1
		}
	}
	doc := append(make([]byte, 0, n), obj...)
	comma := obj[len(bytes.TrimRight(obj, " \t\r\n"))-1] != '{'
	for i, m := range ct.defaultMembers {
		if missing&(1<<i) != 0 {
			if comma {
				doc = append(doc, ',')
			}
			doc, comma = append(doc, m...), true
		}
	}
	return append(doc, '}')
}

// plainResult is the result of arguments plainValid accepted, missing the
// defaults it says: passed, with an info issue per default filled in, as
// normalization words them.
func (ct *Contract) plainResult(missing uint64, start time.Time) *result.ValidationResult {
	if missing == 0 {
		return result.Passed(ValidationType, 1, time.Since(start), result.ProcessSelfCheck())
	}
	var issues []result.Issue
	for i, is := range ct.defaultIssues {
		if missing&(1<<i) != 0 {
			issues = append(issues, is)
		}
	}
	return result.NewBuilder().Ran(ValidationType).Add(issues...).Confidence(1).Duration(time.Since(start)).Build()
}

// filled returns args, decoded arguments plainValid accepted, with the
// missing defaults filled in as normalization fills them.
func (ct *Contract) filled(args any, missing uint64) any {
	m, ok := args.(map[string]any)
	if !ok || missing == 0 {
		return args
	}
	for i, k := range ct.defaultNames {
		if missing&(1<<i) != 0 {
			m[k] = ct.defaults[k]
		}
	}
	return m
}

// keyInfo says what normalization may do with a root parameter.
type keyInfo struct {
	flags keyFlag
	def   uint8 // 1 + the parameter's index in defaultNames; 0 without a default
}

// keyFlag is a set of what normalization may do with a parameter.
type keyFlag uint8

const (
	keyScoped    keyFlag = 1 << iota // an action scope may drop it
	keyCoercible                     // a coercion may change its value (see coerce)
	keyArray                         // it takes arrays: a single value is wrapped
)

// plainDefaults is how many defaults the undecoded path fills in at most.
const plainDefaults = 64

// compilePlain lists the root parameters with what normalization may do
// to each (every one of them: a parameter without flags is known, not
// unknown), and the members and issues of the defaults the undecoded
// path fills in itself: none when one of them is scoped (whether it
// applies depends on the call) or they are too many.
func (ct *Contract) compilePlain() {
	ct.keys = make(map[string]keyInfo, len(ct.props))
	for k := range ct.props {
		ct.keys[k] = keyInfo{}
	}
	set := func(k string, f keyFlag) {
		ki := ct.keys[k]
		ki.flags |= f
		ct.keys[k] = ki
	}
	for k := range ct.def.AppliesWhen {
		set(k, keyScoped)
	}
	for _, p := range ct.coercible {
		set(p.name, keyCoercible)
		if p.array {
			set(p.name, keyArray)
		}
	}
	if len(ct.defaultNames) > plainDefaults {
		return
	}
	var members [][]byte
	var issues []result.Issue
	for i, k := range ct.defaultNames {
		if _, scoped := ct.def.AppliesWhen[k]; scoped {
			return
		}
		m := append(jsonvalue.AppendString(nil, k), ':')
		m, err := jsonvalue.Append(m, ct.defaults[k])
		if err != nil {
			return
		}
		members = append(members, m)
		issues = append(issues, defaultIssue(k, ct.defaults[k]))
		ki := ct.keys[k]
		ki.def = uint8(i + 1)
		ct.keys[k] = ki
	}
	ct.defaultMembers, ct.defaultIssues = members, issues
	if ct.defaultMembers == nil {
		ct.defaultMembers = [][]byte{}
	}
}

// closable reports whether the input schema closed to unknown
// parameters (closedSchema) can decide the undecoded path alone, without
// plainKeys reading the keys first: judge reports unknown parameters, of
// the root's own properties only (no patternProperties, allOf, anyOf,
// oneOf, $ref: then additionalProperties false rejects exactly those
// judge reports), no parameter has a default or an action scope, and
// every parameter a coercion may change has a "type" its schema applies
// (no $ref beside it) that a value coerce changes fails: a string for one
// that takes numbers but not strings, a single value of another type for
// one that takes arrays, unless it takes integers but not numbers (1.0 is
// a valid integer that coerce, reading it as a number, wraps in a list).
// A document the closed
// schema finds valid for sure is then one plainKeys accepts with nothing
// missing, or one whose keys it does not read (an escaped key) that the
// usual path finds valid, changing nothing.
func (ct *Contract) closable(root map[string]any) bool {
	if root == nil || !ct.checkUnknown || ct.patterns || len(ct.defaultNames) > 0 || len(ct.def.AppliesWhen) > 0 {
		return false
	}
	for _, kw := range []string{"allOf", "anyOf", "oneOf"} {
		if _, ok := root[kw]; ok {
			return false
		}
	}
	if p, ok := root["properties"]; ok {
		if _, isMap := p.(map[string]any); !isMap {
			return false
		}
	}
	for _, p := range ct.coercible {
		if p.array && slices.Contains(p.types, "integer") && !slices.Contains(p.types, "number") {
			return false
		}
		if _, ref := asMap(ct.props[p.name])["$ref"]; ref {
			return false
		}
	}
	return true
}

// closedSchema compiles root with additionalProperties false; nil when it
// does not compile.
func closedSchema(root map[string]any) *schema.Validator {
	closed := maps.Clone(root)
	closed["additionalProperties"] = false
	v, err := schema.CompileValue(closed, schema.Options{})
	if err != nil {
		return nil
	}
	return v
}

// plainKeys reads the members of raw, an object, at its top level only:
// it reports whether none of them is a parameter normalization could drop
// or coerce or an unknown one, which parameters with a default are
// missing (a bit per index in defaultNames; all of them when their
// indexes are not known), and the offset of the object's closing brace.
// Anything unusual (not an object, an escaped key, a malformed value) is
// false: the usual path reads it.
func (ct *Contract) plainKeys(raw []byte) (missing uint64, end int, ok bool) {
	i := jsonvalue.SkipSpace(raw, 0)
	if i >= len(raw) || raw[i] != '{' {
		return 0, 0, false
	}
	unknown := ct.checkUnknown && !ct.patterns
	var present uint64
	all := uint64(1)<<len(ct.defaultNames) - 1
	if len(ct.defaultNames) >= 64 {
		all = ^uint64(0)
	}
	i = jsonvalue.SkipSpace(raw, i+1)
	if i < len(raw) && raw[i] == '}' {
		return all, i, jsonvalue.SkipSpace(raw, i+1) == len(raw)
	}
	for i < len(raw) {
		if raw[i] != '"' {
			return 0, 0, false
		}
		n := bytes.IndexByte(raw[i+1:], '"')
		if n < 0 {
			return 0, 0, false
		}
		key := raw[i+1 : i+1+n]
		if bytes.IndexByte(key, '\\') >= 0 {
			return 0, 0, false
		}
		i = jsonvalue.SkipSpace(raw, i+2+n)
		if i >= len(raw) || raw[i] != ':' {
			return 0, 0, false
		}
		i = jsonvalue.SkipSpace(raw, i+1)
		if i >= len(raw) {
			return 0, 0, false
		}
		first := raw[i]
		if i = jsonvalue.SkipValue(raw, i, 1, jsonvalue.DefaultMaxDepth); i < 0 {
			return 0, 0, false
		}
		ki, known := ct.keys[string(key)]
		if !known && unknown || ki.flags&keyScoped != 0 ||
			ki.flags&keyCoercible != 0 && (first == '"' || ki.flags&keyArray != 0 && first != '[') {
			return 0, 0, false
		}
		if ki.def != 0 {
			present |= 1 << (ki.def - 1)
		}
		i = jsonvalue.SkipSpace(raw, i)
		if i >= len(raw) {
			return 0, 0, false
		}
		switch raw[i] {
		case ',':
			i = jsonvalue.SkipSpace(raw, i+1)
		case '}':
			return all &^ present, i, jsonvalue.SkipSpace(raw, i+1) == len(raw)
		default:
			return 0, 0, false
		}
	}
	return 0, 0, false
}
