package toolcall

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/agentjudge/judge/internal/jsonvalue"
)

// Limits on definition files.
const (
	// MaxDefsBytes is the largest definitions document read, in bytes.
	MaxDefsBytes = 16 << 20
	// MaxTools is how many tools one definitions document may define.
	MaxTools = 10_000
	// MaxRules is how many rules one contract may carry.
	MaxRules = 100
)

// Kinds of definition, as [Definition.Kind] names them.
const (
	KindMCP      = "mcp"      // an MCP tool: {name, description, inputSchema, outputSchema}
	KindOpenAI   = "openai"   // an OpenAI function: {type: function, function: {name, description, parameters, strict}}
	KindManifest = "manifest" // a tool manifest of the registry
)

// Definition is one tool's definition, as read from an MCP tool, an OpenAI
// function or a manifest, with the judge extensions beside it. Compile it
// into a [Contract].
type Definition struct {
	// Name is the tool's name, as calls name it. Required.
	Name string
	// Description says what the tool does; its first sentence is the
	// intent the repair feedback shows.
	Description string
	// Kind is KindMCP, KindOpenAI or KindManifest.
	Kind string
	// InputSchema is the JSON Schema of the arguments, decoded (numbers as
	// json.Number); nil means any object.
	InputSchema any
	// OutputSchema is the JSON Schema of the MCP structuredContent, or nil.
	OutputSchema any
	// Strict is the OpenAI function's strict flag.
	Strict bool
	// Rules are CEL rules on the arguments, checked after the schema.
	Rules []Rule
	// AllowUnknown lets calls carry parameters the schema does not name,
	// when the schema itself says nothing about them. False by default:
	// an unknown parameter is an error.
	AllowUnknown bool
	// AppliesWhen scopes parameters to actions: for a parameter, the field
	// that selects the action and the values for which the parameter
	// applies ({"limit": {"action": ["by_time_span"]}}). A scoped
	// parameter given with another action is dropped before execution.
	AppliesWhen map[string]map[string][]string
	// NextTools are the tools that usually follow this one (declared
	// follow-ups), suggested after a successful call.
	NextTools []string
	// WhenToUse and WhenNotToUse are the tool's usage guidance (the
	// extensions when_to_use and when_not_to_use, else the keywords
	// x-when-to-use and x-when-not-to-use at the root of the input
	// schema), shown in repair feedback. A parameter's guidance is in its
	// schema: x-intent and x-anti-patterns.
	WhenToUse, WhenNotToUse string
	// Tier is the tool's visibility tier (the extension "tier", 0 by
	// default): a model shown the tools up to tier N is shown tier N+1
	// when the session escalates (see [Progress.Show]).
	Tier int
	// ReadOnlyHint and DestructiveHint are the MCP tool's annotations of
	// the same names, when its definition gives them (hints, not
	// guarantees): outcome hints never suggest a tool that writes on what
	// the call just read.
	ReadOnlyHint, DestructiveHint *bool
	// File and Where locate the definition: the document's file name
	// (may be empty) and the path in it ("tools[3]"), for errors.
	File, Where string
}

// Rule is a CEL rule on a call's arguments, for what a JSON Schema says
// badly: one of several fields required, a field required or forbidden for
// one action. The expression reads the arguments as args and must yield
// true.
type Rule struct {
	// ID names the rule; unique within a contract. Required.
	ID string `json:"id"`
	// Expression is the CEL expression that must hold. Required.
	Expression string `json:"expression"`
	// Message says what is wrong when the rule does not hold. Required.
	Message string `json:"message"`
	// FieldPath is the parameter the rule is about, as an issue location
	// ("tool_name"); empty means the arguments as a whole.
	FieldPath string `json:"fieldPath,omitempty"`
	// When is a CEL expression; the rule is checked only where it yields
	// true. Empty means always.
	When string `json:"when,omitempty"`
	// Suggestion says how to repair a call that breaks the rule; empty
	// means one derived from the message.
	Suggestion string `json:"suggestion,omitempty"`
}

// DefinitionError is a definitions document that cannot be read: bad JSON,
// an object that is no tool definition, a rule that does not compile, an
// invalid schema. Path locates the problem in the document
// ("tools[2].rules[0].expression"); Line and Col are 1-based, within the
// document for JSON errors and within the expression for rules, and 0 when
// unknown.
type DefinitionError struct {
	File      string
	Path      string
	Line, Col int
	Msg       string
	Err       error
}

func (e *DefinitionError) Error() string {
	var sb strings.Builder
	if e.File != "" {
		sb.WriteString(e.File)
		sb.WriteString(": ")
	}
	if e.Path != "" {
		sb.WriteString(e.Path)
		if e.Line > 0 {
			fmt.Fprintf(&sb, ":%d:%d", e.Line, e.Col)
		}
		sb.WriteString(": ")
	} else if e.Line > 0 {
		fmt.Fprintf(&sb, "%d:%d: ", e.Line, e.Col)
	}
	sb.WriteString(e.Msg)
	return sb.String()
}

// Unwrap returns the cause.
func (e *DefinitionError) Unwrap() error { return e.Err }

// ParseDefinitions reads tool definitions from a JSON document: one MCP
// tool, one OpenAI function, one tool manifest (as a JSON object with
// tool_id, or as a file {"path", "content"}), a list of them, or a
// tools/list answer ({"tools": [...]}, also as a JSON-RPC response
// {"result": {"tools": [...]}}). Each definition may carry the judge extensions "rules",
// "allow_unknown_parameters", "applies_when", "next_tools", "when_to_use"
// and "when_not_to_use" beside its own fields. file names the document in errors. Every error is a
// *DefinitionError; schemas and rules are compiled later, by
// [Checker.Compile]. It is [ParseDefinitionsContext] with a context that
// is never cancelled.
func ParseDefinitions(data []byte, file string) ([]Definition, error) {
	return ParseDefinitionsContext(context.Background(), data, file)
}

// ParseDefinitionsContext is [ParseDefinitions] under ctx: the tool
// manifests among the definitions are loaded under it, and a cancelled ctx
// ends the loading with its error.
func ParseDefinitionsContext(ctx context.Context, data []byte, file string) ([]Definition, error) {
	if len(data) > MaxDefsBytes {
		return nil, &DefinitionError{File: file, Msg: fmt.Sprintf("the document is larger than %d bytes", MaxDefsBytes)}
	}
	v, err := jsonvalue.Decode(data, 0)
	if err != nil {
		de := &DefinitionError{File: file, Msg: err.Error(), Err: err}
		if se, ok := err.(*jsonvalue.SyntaxError); ok {
			de.Line, de.Col, de.Msg = se.Line, se.Col, se.Msg
		}
		return nil, de
	}
	return definitionsOf(ctx, v, file)
}

// DecodeDefinitions reads the definitions of an already decoded JSON value
// (numbers as json.Number), as ParseDefinitions does; path prefixes the
// locations of errors ("tools"). It is [DecodeDefinitionsContext] with a
// context that is never cancelled.
func DecodeDefinitions(v any, path string) ([]Definition, error) {
	return DecodeDefinitionsContext(context.Background(), v, path)
}

// DecodeDefinitionsContext is [DecodeDefinitions] under ctx, as
// [ParseDefinitionsContext] is [ParseDefinitions].
func DecodeDefinitionsContext(ctx context.Context, v any, path string) ([]Definition, error) {
	defs, err := definitionsOf(ctx, v, "")
	if err != nil && path != "" {
		if de, ok := err.(*DefinitionError); ok {
			de.Path = joinPath(path, de.Path)
		}
	}
	return defs, err
}

func joinPath(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	case strings.HasPrefix(b, "["):
		return a + b
	}
	return a + "." + b
}

func definitionsOf(ctx context.Context, v any, file string) ([]Definition, error) {
	var items []any
	prefix := ""
	switch x := v.(type) {
	case []any:
		items = x
	case map[string]any:
		switch {
		case x["tools"] != nil:
			l, ok := x["tools"].([]any)
			if !ok {
				return nil, &DefinitionError{File: file, Path: "tools", Msg: "tools must be a list of tool definitions"}
			}
			items, prefix = l, "tools"
		case x["result"] != nil:
			r, ok := x["result"].(map[string]any)
			l, ok2 := r["tools"].([]any)
			if !ok || !ok2 {
				return nil, &DefinitionError{File: file, Path: "result", Msg: "a JSON-RPC answer must hold result.tools, the list of tools/list"}
			}
			items, prefix = l, "result.tools"
		default:
			items = []any{x}
		}
	default:
		return nil, &DefinitionError{File: file, Msg: "a definitions document is a tool definition, a list of them, or a tools/list answer {\"tools\": [...]}"}
	}
	if len(items) > MaxTools {
		return nil, &DefinitionError{File: file, Path: prefix, Msg: fmt.Sprintf("%d tools, more than the limit of %d", len(items), MaxTools)}
	}
	defs := make([]Definition, 0, len(items))
	seen := map[string]string{}
	var manifests []manifestItem
	var all []Definition
	for i, it := range items {
		where := fmt.Sprintf("%s[%d]", prefix, i)
		if len(items) == 1 && prefix == "" {
			if _, isList := v.([]any); !isList {
				where = ""
			}
		}
		if m, ok, err := asManifest(it, i, where); err != nil {
			err.File = file
			return nil, err
		} else if ok {
			manifests = append(manifests, m)
			continue
		}
		d, err := definitionOf(it, where)
		if err != nil {
			err.File = file
			return nil, err
		}
		d.File = file
		all = append(all, d)
	}
	if len(manifests) > 0 {
		md, err := manifestDefinitions(ctx, manifests, file)
		if err != nil {
			return nil, err
		}
		all = append(all, md...)
	}
	for _, d := range all {
		where := d.Where
		if d.Kind == KindManifest {
			where = strings.TrimSuffix(strings.TrimSuffix(where, "config"), ".")
		}
		field := "name"
		if d.Kind == KindManifest {
			field = "tool_id"
		}
		if prev, dup := seen[d.Name]; dup {
			return nil, &DefinitionError{File: file, Path: joinPath(where, field),
				Msg: fmt.Sprintf("tool %q is defined twice (first at %s)", d.Name, orRoot(prev))}
		}
		seen[d.Name] = where
		defs = append(defs, d)
	}
	return defs, nil
}

func orRoot(s string) string {
	if s == "" {
		return "root"
	}
	return s
}

// definitionOf reads one definition at where.
func definitionOf(v any, where string) (Definition, *DefinitionError) {
	fail := func(field, format string, args ...any) (Definition, *DefinitionError) {
		return Definition{}, &DefinitionError{Path: joinPath(where, field), Msg: fmt.Sprintf(format, args...)}
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return fail("", "a tool definition must be an object, not %s", kindOf(v))
	}
	d := Definition{Where: where}
	switch {
	case obj["function"] != nil || obj["type"] == "function":
		d.Kind = KindOpenAI
		fn := obj
		field := ""
		if f, ok := obj["function"]; ok {
			if fn, ok = f.(map[string]any); !ok {
				return fail("function", "function must be an object {name, description, parameters, strict}")
			}
			field = "function."
		}
		if t, ok := obj["type"]; ok && t != "function" {
			return fail("type", "type must be \"function\", not %s", shortJSON(t))
		}
		d.Name, _ = fn["name"].(string)
		d.Description, _ = fn["description"].(string)
		d.InputSchema = fn["parameters"]
		if s, ok := fn["strict"]; ok {
			b, ok := s.(bool)
			if !ok {
				return fail(field+"strict", "strict must be true or false")
			}
			d.Strict = b
		}
		if d.Name == "" {
			return fail(field+"name", "an OpenAI function needs a name")
		}
		if p, ok := fn["parameters"]; ok && p != nil {
			if _, ok := p.(map[string]any); !ok {
				return fail(field+"parameters", "parameters must be a JSON Schema object")
			}
		}
	case obj["name"] != nil:
		d.Kind = KindMCP
		if n, ok := obj["name"].(string); ok {
			d.Name = n
		}
		if d.Name == "" {
			return fail("name", "name must be a non-empty string")
		}
		if ds, ok := obj["description"]; ok && ds != nil {
			if d.Description, ok = ds.(string); !ok {
				return fail("description", "description must be a string")
			}
		}
		is, ok := obj["inputSchema"]
		if !ok {
			return fail("inputSchema", "an MCP tool needs an inputSchema (an OpenAI function is {\"type\": \"function\", \"function\": {...}})")
		}
		if _, ok := is.(map[string]any); !ok {
			return fail("inputSchema", "inputSchema must be a JSON Schema object")
		}
		d.InputSchema = is
		if os, ok := obj["outputSchema"]; ok && os != nil {
			if _, ok := os.(map[string]any); !ok {
				return fail("outputSchema", "outputSchema must be a JSON Schema object")
			}
			d.OutputSchema = os
		}
		if an, ok := obj["annotations"].(map[string]any); ok {
			// Read leniently: a hint of another type is no hint.
			if b, ok := an["readOnlyHint"].(bool); ok {
				d.ReadOnlyHint = &b
			}
			if b, ok := an["destructiveHint"].(bool); ok {
				d.DestructiveHint = &b
			}
		}
	default:
		return fail("", "not a tool definition: an MCP tool has name and inputSchema, an OpenAI function is {\"type\": \"function\", \"function\": {name, parameters}}")
	}
	if len(d.Name) > 128 {
		return fail("name", "the name is %d bytes long, more than 128", len(d.Name))
	}
	if err := readExtensions(obj, &d); err != nil {
		err.Path = joinPath(where, err.Path)
		return Definition{}, err
	}
	return d, nil
}

// readExtensions reads the judge fields of a definition.
func readExtensions(obj map[string]any, d *Definition) *DefinitionError {
	if r, ok := obj["rules"]; ok && r != nil {
		if err := readRules(r, d); err != nil {
			return err
		}
	}
	if a, ok := obj["allow_unknown_parameters"]; ok {
		b, ok := a.(bool)
		if !ok {
			return &DefinitionError{Path: "allow_unknown_parameters", Msg: "allow_unknown_parameters must be true or false"}
		}
		d.AllowUnknown = b
	}
	if a, ok := obj["applies_when"]; ok && a != nil {
		if err := readAppliesWhen(a, d); err != nil {
			return err
		}
	}
	for _, g := range []struct {
		key string
		to  *string
	}{{"when_to_use", &d.WhenToUse}, {"when_not_to_use", &d.WhenNotToUse}} {
		v, ok := obj[g.key]
		if !ok || v == nil {
			continue
		}
		s, ok := v.(string)
		if !ok {
			return &DefinitionError{Path: g.key, Msg: g.key + " must be a string: when a model should (or should not) choose the tool"}
		}
		*g.to = strings.TrimSpace(s)
	}
	if v, ok := obj["tier"]; ok && v != nil {
		n, isInt := intOf(v)
		if !isInt || n < 0 || n > 100 {
			return &DefinitionError{Path: "tier", Msg: "tier must be an integer from 0 to 100: the visibility tier the tool is shown in"}
		}
		d.Tier = int(n)
	}
	if n, ok := obj["next_tools"]; ok && n != nil {
		list, ok := n.([]any)
		if !ok {
			return &DefinitionError{Path: "next_tools", Msg: "next_tools must be a list of tool names"}
		}
		for i, x := range list {
			s, ok := x.(string)
			if !ok || s == "" {
				return &DefinitionError{Path: fmt.Sprintf("next_tools[%d]", i), Msg: "a next tool is a tool name"}
			}
			if !slices.Contains(d.NextTools, s) {
				d.NextTools = append(d.NextTools, s)
			}
		}
	}
	return nil
}

// readRules reads r, the definition's rules: a list of {id, expression,
// message, fieldPath?, when?, suggestion?} with unique ids.
func readRules(r any, d *Definition) *DefinitionError {
	list, ok := r.([]any)
	if !ok {
		return &DefinitionError{Path: "rules", Msg: "rules must be a list of {id, expression, message, fieldPath?, when?}"}
	}
	if len(list) > MaxRules {
		return &DefinitionError{Path: "rules", Msg: fmt.Sprintf("%d rules, more than the limit of %d", len(list), MaxRules)}
	}
	ids := map[string]bool{}
	for i, it := range list {
		path := fmt.Sprintf("rules[%d]", i)
		ro, ok := it.(map[string]any)
		if !ok {
			return &DefinitionError{Path: path, Msg: "a rule must be an object {id, expression, message, fieldPath?, when?}"}
		}
		var rule Rule
		fields := map[string]*string{"id": &rule.ID, "expression": &rule.Expression, "message": &rule.Message,
			"fieldPath": &rule.FieldPath, "when": &rule.When, "suggestion": &rule.Suggestion}
		for k, val := range ro {
			s, ok := val.(string)
			if !ok {
				return &DefinitionError{Path: path + "." + k, Msg: fmt.Sprintf("%s must be a string", k)}
			}
			f, known := fields[k]
			if !known {
				return &DefinitionError{Path: path + "." + k, Msg: fmt.Sprintf("unknown field %q of a rule (known: id, expression, message, fieldPath, when, suggestion)", k)}
			}
			*f = s
		}
		switch {
		case rule.ID == "":
			return &DefinitionError{Path: path + ".id", Msg: "a rule needs an id"}
		case ids[rule.ID]:
			return &DefinitionError{Path: path + ".id", Msg: fmt.Sprintf("rule id %q is used twice", rule.ID)}
		case strings.TrimSpace(rule.Expression) == "":
			return &DefinitionError{Path: path + ".expression", Msg: "a rule needs an expression"}
		case strings.TrimSpace(rule.Message) == "":
			return &DefinitionError{Path: path + ".message", Msg: "a rule needs a message"}
		}
		ids[rule.ID] = true
		d.Rules = append(d.Rules, rule)
	}
	return nil
}

// readAppliesWhen reads a, the definition's applies_when: for each
// parameter, the one {field: [values]} it applies under.
func readAppliesWhen(a any, d *Definition) *DefinitionError {
	m, ok := a.(map[string]any)
	if !ok {
		return &DefinitionError{Path: "applies_when", Msg: `applies_when must map parameters to {field: [values]}, e.g. {"limit": {"action": ["by_time_span"]}}`}
	}
	d.AppliesWhen = map[string]map[string][]string{}
	for param, sel := range m {
		path := "applies_when." + param
		sm, ok := sel.(map[string]any)
		if !ok || len(sm) != 1 {
			return &DefinitionError{Path: path, Msg: `a scope is one {field: [values]}, e.g. {"action": ["by_time_span"]}`}
		}
		for field, vals := range sm {
			list, ok := vals.([]any)
			if !ok || len(list) == 0 {
				return &DefinitionError{Path: path + "." + field, Msg: "the values must be a non-empty list of strings"}
			}
			var ss []string
			for _, x := range list {
				s, ok := x.(string)
				if !ok {
					return &DefinitionError{Path: path + "." + field, Msg: "the values must be strings"}
				}
				ss = append(ss, s)
			}
			if field == param {
				return &DefinitionError{Path: path, Msg: "a parameter cannot be scoped by itself"}
			}
			d.AppliesWhen[param] = map[string][]string{field: ss}
		}
	}
	return nil
}

// kindOf names the JSON type of a decoded value.
func kindOf(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case json.Number, float64, int, int64:
		return "a number"
	case string:
		return "a string"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

// shortJSON renders v as JSON, cut to 60 characters.
func shortJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%v", v)
	}
	s := string(b)
	if r := []rune(s); len(r) > 60 {
		s = string(r[:59]) + "…"
	}
	return s
}
