package manifest

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/agentjudge/judge/result"
)

// paramFields are the keys a parameter may have.
var paramFields = []string{"name", "type", "required", "description", "enum", "default", "minimum", "maximum", "pattern", "items", "format",
	"intent", "anti_patterns"}

// paramTypes are the JSON Schema types a parameter may have.
var paramTypes = []string{"string", "number", "integer", "boolean", "array", "object"}

// readParameters reads parameters and input_schema into t.Parameters and
// the tool's one JSON Schema.
func (t *Tool) readParameters() {
	ps := t.doc.field("parameters")
	is := t.doc.field("input_schema")
	schemaField := "input_schema"
	if cs := t.doc.field("config_schema"); (is == nil || is.kind == kindNull) && (ps == nil || ps.kind == kindNull) && cs != nil {
		// The registry convention: config_schema is the parameter schema.
		is, schemaField = cs, "config_schema"
	}
	if is != nil && is.kind != kindNull {
		t.readInputSchema(is, ps, schemaField)
		return
	}
	if ps == nil || ps.kind == kindNull {
		return
	}
	if ps.kind != kindSeq {
		t.report(result.Error, result.InvalidType, "manifest.type", ps.pos, "Write parameters as a list of {name, type, required, description}",
			"Field 'parameters' must be a list, not %s", ps.describe())
		return
	}
	props := map[string]any{}
	required := []any{}
	seen := map[string]int{}
	for i, pn := range ps.items {
		if pn.kind != kindMap {
			t.report(result.Error, result.InvalidType, "manifest.type", pn.pos, "Write each parameter as a mapping with name and type",
				"Parameter %d must be a mapping, not %s", i, pn.describe())
			continue
		}
		t.checkUnknown(paramFields, "a parameter", "parameters", i)
		name, ok := t.stringField("parameters", i, "name")
		if !ok || name == "" {
			t.report(result.Error, result.MissingField, "manifest.parameter_name", pn.pos, "Add a name: to the parameter",
				"Parameter %d has no name", i)
			continue
		}
		if j, dup := seen[name]; dup {
			t.report(result.Error, result.DuplicateID, "manifest.parameter_duplicate", t.posOf("parameters", i, "name"),
				"Rename or remove one of the two parameters",
				"Parameter '%s' is declared twice (parameters[%d] and parameters[%d])", name, j, i)
			continue
		}
		seen[name] = i
		p, prop := t.readParameter(i, pn, name)
		t.Parameters = append(t.Parameters, p)
		props[name] = prop
		if p.Required {
			required = append(required, name)
		}
	}
	t.schema = map[string]any{"type": "object", "properties": props, "additionalProperties": false}
	if len(required) > 0 {
		t.schema["required"] = required
	}
	t.fromParams = true
}

// readInputSchema reads is, the tool's JSON Schema given as schemaField
// (input_schema or config_schema); ps, parameters given beside it, are
// ignored, with a warning.
func (t *Tool) readInputSchema(is, ps *node, schemaField string) {
	if is.kind != kindMap {
		t.report(result.Error, result.InvalidType, "manifest.type", is.pos, "Write "+schemaField+" as a JSON Schema object",
			"Field '%s' must be a JSON Schema mapping, not %s", schemaField, is.describe())
	} else {
		t.schema, _ = is.toAny().(map[string]any)
		t.schemaBase = []pathElem{schemaField}
	}
	if ps != nil && ps.kind != kindNull {
		t.report(result.Warning, result.ConstraintViolation, "manifest.parameters_and_schema", t.keyPosOf("parameters"),
			"Keep one of the two: move the parameters into input_schema, or drop input_schema",
			"Both 'parameters' and 'input_schema' are given; input_schema is used and parameters are ignored")
	}
}

// readParameter reads parameters[i], pn, named name: the Parameter and its
// property in the tool's JSON Schema. Each field of the wrong kind is
// reported and left out.
func (t *Tool) readParameter(i int, pn *node, name string) (Parameter, map[string]any) {
	p, prop := Parameter{Name: name}, map[string]any{}
	if typ, ok := t.stringField("parameters", i, "type"); ok {
		p.Type = typ
		if !slices.Contains(paramTypes, typ) {
			t.report(result.Error, result.ConstraintViolation, "manifest.parameter_type", t.posOf("parameters", i, "type"),
				"Use one of: "+strings.Join(paramTypes, ", "),
				"Parameter '%s' has type '%s', not one of %s", name, typ, strings.Join(paramTypes, ", "))
		}
		if slices.Contains(paramTypes, typ) {
			prop["type"] = typ
		}
	} else {
		t.report(result.Error, result.MissingField, "manifest.parameter_type", pn.pos,
			"Add a type: string, number, integer, boolean, array or object", "Parameter '%s' has no type", name)
	}
	if rn := pn.field("required"); rn != nil {
		b, isBool := rn.value.(bool)
		if !isBool || rn.kind != kindScalar {
			t.report(result.Error, result.InvalidType, "manifest.type", rn.pos, "Write required: true or required: false",
				"Field 'parameters[%d].required' must be a boolean, not %s", i, rn.describe())
		}
		p.Required = b
	}
	if d, ok := t.stringField("parameters", i, "description"); ok {
		p.Description = d
		prop["description"] = d
	}
	if en := pn.field("enum"); en != nil {
		if en.kind != kindSeq || len(en.items) == 0 {
			t.report(result.Error, result.InvalidType, "manifest.type", en.pos, "Write enum as a non-empty list of allowed values",
				"Field 'parameters[%d].enum' must be a non-empty list, not %s", i, en.describe())
		} else {
			p.Enum, _ = en.toAny().([]any)
			prop["enum"] = p.Enum
		}
	}
	if dn := pn.field("default"); dn != nil {
		p.Default = dn.toAny()
		prop["default"] = p.Default
	}
	for _, k := range []string{"minimum", "maximum"} {
		n := pn.field(k)
		if n == nil {
			continue
		}
		f, ok := n.number()
		if !ok {
			t.report(result.Error, result.InvalidType, "manifest.type", n.pos, "Write "+k+" as a number",
				"Field 'parameters[%d].%s' must be a number, not %s", i, k, n.describe())
			continue
		}
		if k == "minimum" {
			p.Minimum = &f
		} else {
			p.Maximum = &f
		}
		prop[k] = f
	}
	if p.Minimum != nil && p.Maximum != nil && *p.Minimum > *p.Maximum {
		t.report(result.Error, result.ConstraintViolation, "manifest.parameter_range", t.posOf("parameters", i, "maximum"),
			"Swap the bounds, or correct one of them",
			"Parameter '%s' has minimum %v above its maximum %v, so no value is valid", name, *p.Minimum, *p.Maximum)
	}
	if pat, ok := t.stringField("parameters", i, "pattern"); ok {
		p.Pattern = pat
		prop["pattern"] = pat
	}
	if f, ok := t.stringField("parameters", i, "format"); ok {
		prop["format"] = f
	}
	if it := pn.field("items"); it != nil {
		p.Items = it.toAny()
		prop["items"] = p.Items
	}
	if s, ok := t.stringField("parameters", i, "intent"); ok && strings.TrimSpace(s) != "" {
		p.Intent = s
		prop[KeyIntent] = s
	}
	if an := pn.field("anti_patterns"); an != nil && an.kind != kindNull {
		list, _ := an.toAny().([]any)
		if an.kind != kindSeq || len(stringList(list)) != len(list) {
			t.report(result.Error, result.InvalidType, "manifest.type", an.pos, "Write anti_patterns as a list of strings, each a value or use to avoid",
				"Field 'parameters[%d].anti_patterns' must be a list of non-empty strings, not %s", i, an.describe())
		} else {
			p.AntiPatterns = stringList(list)
			prop[KeyAntiPatterns] = list
		}
	}
	return p, prop
}

// schemaPos maps a JSON Pointer's tokens into the tool's schema to a
// position in the manifest: through input_schema (or an MCP inputSchema)
// as written, or back to the parameters list the schema was built from.
func (t *Tool) schemaPos(ptr []string) Pos {
	if t.fromParams {
		if len(ptr) >= 2 && ptr[0] == "properties" {
			for _, p := range t.Parameters {
				if p.Name != ptr[1] {
					continue
				}
				path := []pathElem{"parameters", t.paramIndex(p.Name)}
				for _, tok := range ptr[2:] {
					path = append(path, tok)
				}
				return t.nodePos(path)
			}
		}
		return t.keyPosOf("parameters")
	}
	if len(ptr) == 0 {
		return t.keyPosOf(t.schemaBase...)
	}
	path := slices.Clone(t.schemaBase)
	for _, tok := range ptr {
		path = append(path, tok)
	}
	return t.nodePos(path)
}

// paramIndex is the index in the parameters list of the parameter name.
func (t *Tool) paramIndex(name string) int {
	ps := t.doc.field("parameters")
	if ps == nil {
		return 0
	}
	for i, pn := range ps.items {
		if s, _ := pn.field("name").str(); s == name {
			return i
		}
	}
	return 0
}

// nodePos is posOf for a path whose list indexes may be given as strings,
// as JSON Pointer tokens are.
func (t *Tool) nodePos(path []pathElem) Pos {
	n := t.doc
	best := t.startPos()
	if n != nil {
		best = n.pos
	}
	for _, e := range path {
		if n == nil {
			break
		}
		var next *node
		switch k := e.(type) {
		case int:
			if n.kind == kindSeq && k >= 0 && k < len(n.items) {
				next = n.items[k]
			}
		case string:
			if n.kind == kindSeq {
				if i, err := strconv.Atoi(k); err == nil && i >= 0 && i < len(n.items) {
					next = n.items[i]
				}
			} else {
				next = n.field(k)
			}
		}
		if next == nil {
			break
		}
		n, best = next, next.pos
	}
	return best
}

// reportRemote reports a schema that names a document outside itself,
// url, in $schema or a $ref: as /validate says it, judge never fetches
// schemas.
func (c *checker) reportRemote(url string) {
	if ms, _ := c.schema["$schema"].(string); ms != "" && strings.TrimSuffix(ms, "#") == strings.TrimSuffix(url, "#") {
		c.report(result.Error, result.SchemaViolation, "manifest.schema_remote", c.schemaPos([]string{"$schema"}),
			"Name a draft judge knows in $schema (https://json-schema.org/draft/2020-12/schema, draft 2019-09, 7, 6 or 4), or leave $schema out for 2020-12",
			"The parameter schema's $schema %q is not a draft judge knows, and judge never fetches schemas", ms)
		return
	}
	ref := findRef(c.schema, url)
	shown := url
	if ref != nil {
		shown, _ = lookupString(c.schema, ref)
	}
	c.report(result.Error, result.SchemaViolation, "manifest.schema_remote", c.schemaPos(ref),
		"Put the referenced schema under $defs in the tool's own schema and point $ref at it (\"#/$defs/name\")",
		"The parameter schema's $ref %q points outside the schema; judge never fetches schemas, so $ref may point only inside the schema itself", shown)
}

// findRef returns the JSON Pointer tokens of a $ref in v whose value,
// without its fragment, is url; nil when there is none.
func findRef(v any, url string) []string {
	base, _, _ := strings.Cut(url, "#")
	var walk func(v any, path []string) []string
	walk = func(v any, path []string) []string {
		switch x := v.(type) {
		case map[string]any:
			if r, ok := x["$ref"].(string); ok {
				if b, _, _ := strings.Cut(r, "#"); b != "" && (b == base || strings.HasSuffix(base, "/"+strings.TrimPrefix(b, "./"))) {
					return append(slices.Clip(path), "$ref")
				}
			}
			for _, k := range slices.Sorted(maps.Keys(x)) {
				if p := walk(x[k], append(slices.Clip(path), k)); p != nil {
					return p
				}
			}
		case []any:
			for i, e := range x {
				if p := walk(e, append(slices.Clip(path), strconv.Itoa(i))); p != nil {
					return p
				}
			}
		}
		return nil
	}
	return walk(v, nil)
}

// lookupString returns the string at the JSON Pointer tokens ptr of v.
func lookupString(v any, ptr []string) (string, bool) {
	for _, tok := range ptr {
		switch x := v.(type) {
		case map[string]any:
			v = x[tok]
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(x) {
				return "", false
			}
			v = x[i]
		default:
			return "", false
		}
	}
	s, ok := v.(string)
	return s, ok
}

// checkSchema compiles the tool's schema against its meta-schema (draft
// 2020-12 unless $schema says otherwise) and reports each violation.
func (c *checker) checkSchema() {
	if c.schema == nil {
		return
	}
	if c.run.compiler == nil {
		// One compiler per lint: it compiles each meta-schema once.
		c.run.compiler = jsonschema.NewCompiler()
		c.run.compiler.UseLoader(jsonschema.SchemeURLLoader{}) // nothing is fetched
	}
	comp := c.run.compiler
	c.run.n++
	url := fmt.Sprintf("mem:///tool-schema-%d.json", c.run.n)
	if err := comp.AddResource(url, c.schema); err != nil {
		c.report(result.Error, result.SchemaViolation, "manifest.schema", c.schemaPos(nil), "Correct the schema", "The parameter schema cannot be read: %v", err)
		return
	}
	_, err := comp.Compile(url)
	if err == nil {
		c.checkValues(comp, url)
		return
	}
	var sve *jsonschema.SchemaValidationError
	if errors.As(err, &sve) {
		var ve *jsonschema.ValidationError
		if errors.As(sve.Err, &ve) {
			seen := map[string]bool{}
			for _, leaf := range leafErrors(ve, 0) {
				if ptr := pointer(leaf.InstanceLocation); seen[ptr] {
					continue
				} else {
					seen[ptr] = true
				}
				msg := leaf.Error()
				if i := strings.Index(msg, ": "); i >= 0 && strings.HasPrefix(msg, "at ") {
					msg = msg[i+2:]
				}
				c.report(result.Error, result.SchemaViolation, "manifest.schema_meta", c.schemaPos(leaf.InstanceLocation),
					"Correct the schema so that it is valid against its JSON Schema meta-schema",
					"The parameter schema is not a valid JSON Schema at '%s': %s", pointer(leaf.InstanceLocation), msg)
			}
			return
		}
	}
	var load *jsonschema.LoadURLError
	if errors.As(err, &load) {
		c.reportRemote(load.URL)
		return
	}
	var re *jsonschema.InvalidRegexError
	if errors.As(err, &re) {
		c.report(result.Error, result.SchemaViolation, "manifest.schema_pattern", c.schemaPos(ptrOfURL(re.URL)),
			"Write the pattern as an ECMA-262 regular expression", "The parameter schema has an invalid pattern %q: %v", re.Regex, re.Err)
		return
	}
	c.report(result.Error, result.SchemaViolation, "manifest.schema", c.schemaPos(nil),
		"Correct the schema; $ref may point only inside the schema itself", "The parameter schema does not compile: %v", err)
}

// checkValues checks that each top-level property's enum values have the
// property's type and that its default is valid against the property's
// own schema (type, enum, bounds, pattern).
func (c *checker) checkValues(comp *jsonschema.Compiler, url string) {
	props, _ := c.schema["properties"].(map[string]any)
	for _, name := range sortedKeys(props) {
		p, _ := props[name].(map[string]any)
		if p == nil {
			continue
		}
		if typ, ok := p["type"].(string); ok {
			if enum, ok := p["enum"].([]any); ok {
				for i, v := range enum {
					if !hasType(v, typ) {
						c.report(result.Error, result.InvalidType, "manifest.parameter_enum", c.schemaPos([]string{"properties", name, "enum", strconv.Itoa(i)}),
							fmt.Sprintf("Write each enum value as a %s, or change the parameter's type", typ),
							"Enum value %s of parameter '%s' is not a %s", result.Clip(jsonText(v), 60), name, typ)
					}
				}
			}
		}
		def, ok := p["default"]
		if !ok {
			continue
		}
		sub, err := comp.Compile(url + "#/properties/" + strings.ReplaceAll(strings.ReplaceAll(name, "~", "~0"), "/", "~1"))
		if err != nil {
			continue
		}
		if err := sub.Validate(def); err != nil {
			// A warning: calls stay valid, and judge never fills such
			// a default into a call (it would make the call invalid).
			c.report(result.Warning, result.ConstraintViolation, "manifest.parameter_default", c.schemaPos([]string{"properties", name, "default"}),
				"Give a default that the parameter itself accepts, or remove it",
				"Default %s of parameter '%s' is not valid for the parameter, so judge does not fill it into calls: %s", result.Clip(jsonText(def), 60), name, firstLine(err))
		}
	}
}

// hasType reports whether the decoded JSON value v has JSON Schema type t.
func hasType(v any, t string) bool {
	switch t {
	case "string":
		_, ok := v.(string)
		return ok
	case "number":
		_, ok := v.(float64)
		return ok
	case "integer":
		f, ok := v.(float64)
		return ok && f == float64(int64(f))
	case "boolean":
		_, ok := v.(bool)
		return ok
	case "array":
		_, ok := v.([]any)
		return ok
	case "object":
		_, ok := v.(map[string]any)
		return ok
	case "null":
		return v == nil
	}
	return true
}

func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// firstLine is the last line of a validation error: its leaf message.
func firstLine(err error) string {
	lines := strings.Split(strings.TrimSpace(err.Error()), "\n")
	msg := strings.TrimSpace(lines[len(lines)-1])
	if i := strings.Index(msg, ": "); i >= 0 && strings.HasPrefix(msg, "- at ") {
		msg = msg[i+2:]
	}
	return msg
}

// ptrOfURL extracts the JSON Pointer tokens of a schema URL's fragment.
func ptrOfURL(u string) []string {
	_, frag, ok := strings.Cut(u, "#")
	if !ok || frag == "" {
		return nil
	}
	toks := strings.Split(strings.TrimPrefix(frag, "/"), "/")
	for i, tok := range toks {
		toks[i] = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
	}
	return toks
}

func leafErrors(e *jsonschema.ValidationError, depth int) []*jsonschema.ValidationError {
	if len(e.Causes) == 0 || depth > 32 {
		return []*jsonschema.ValidationError{e}
	}
	var out []*jsonschema.ValidationError
	for _, c := range e.Causes {
		out = append(out, leafErrors(c, depth+1)...)
		if len(out) >= 20 {
			break
		}
	}
	return out
}

// pointer renders tokens as a JSON Pointer; the root is "#".
func pointer(toks []string) string {
	if len(toks) == 0 {
		return "#"
	}
	var sb strings.Builder
	sb.WriteByte('#')
	for _, tok := range toks {
		sb.WriteByte('/')
		sb.WriteString(strings.ReplaceAll(strings.ReplaceAll(tok, "~", "~0"), "/", "~1"))
	}
	return sb.String()
}

// namePattern is the function-name rule shared by OpenAI, Anthropic and
// Gemini tool definitions.
var namePattern = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)

// propertyNamePattern is Anthropic's rule for the keys of input_schema
// properties.
var propertyNamePattern = regexp.MustCompile(`^[a-zA-Z0-9_.-]{1,64}$`)

// strictUnsupported are keywords OpenAI strict mode does not support.
var strictUnsupported = []string{"minLength", "maxLength", "patternProperties", "unevaluatedProperties",
	"propertyNames", "minProperties", "maxProperties", "unevaluatedItems", "contains", "minContains", "maxContains",
	"uniqueItems", "prefixItems", "additionalItems", "allOf", "not", "if", "then", "else", "dependentRequired",
	"dependentSchemas", "dependencies", "$dynamicRef", "$dynamicAnchor", "contentEncoding", "contentMediaType", "contentSchema"}

// strictFormats are the string formats OpenAI strict mode accepts.
var strictFormats = []string{"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"}

// finding is one provider rule a definition breaks.
type finding struct {
	ptr        []string
	rule       string
	msg, sugg  string
	onToolName bool
}

// providerFindings lists what providers would reject in a tool named name
// with description desc and parameter schema schema (nil: none).
func providerFindings(name, desc string, schema map[string]any) []finding {
	var out []finding
	if !namePattern.MatchString(name) {
		out = append(out, finding{rule: "provider.name", onToolName: true,
			msg:  fmt.Sprintf("Tool name '%s' does not match ^[a-zA-Z0-9_-]{1,64}$, which OpenAI, Anthropic and Gemini require of function names", result.Clip(name, 80)),
			sugg: "Rename the tool with letters, digits, '_' and '-' only, at most 64 characters"})
	}
	if strings.TrimSpace(desc) == "" {
		out = append(out, finding{rule: "provider.description", onToolName: true,
			msg:  fmt.Sprintf("Tool '%s' has no description, which models read to decide when to call it", result.Clip(name, 80)),
			sugg: "Add a description saying what the tool does and when to use it"})
	}
	if schema == nil {
		return out
	}
	if t, ok := schema["type"]; !ok || t != "object" {
		out = append(out, finding{rule: "provider.root_object",
			msg:  "The parameter schema's root is not \"type\": \"object\"; function-calling APIs take an object of named arguments",
			sugg: "Make the root an object schema with properties"})
	}
	if props, ok := schema["properties"].(map[string]any); ok {
		for _, k := range sortedKeys(props) {
			p, _ := props[k].(map[string]any)
			if d, _ := p["description"].(string); strings.TrimSpace(d) == "" && p != nil {
				if _, isRef := p["$ref"]; !isRef {
					out = append(out, finding{ptr: []string{"properties", k}, rule: "provider.parameter_description",
						msg:  fmt.Sprintf("Parameter '%s' has no description, so a model must guess what to pass", result.Clip(k, 80)),
						sugg: "Add a description saying what the parameter means and which values are valid"})
				}
			}
		}
	}
	w := &schemaWalker{}
	w.walk(schema, nil, 0, 0)
	return append(out, w.out...)
}

type schemaWalker struct {
	out []finding
}

// sub returns the subschemas of s with their pointer tokens.
func (w *schemaWalker) walk(s any, ptr []string, depth, objects int) {
	m, ok := s.(map[string]any)
	if !ok || depth > MaxDepth || len(w.out) > 200 {
		return
	}
	at := func(toks ...string) []string { return append(slices.Clone(ptr), toks...) }
	isType := func(want string) bool {
		switch t := m["type"].(type) {
		case string:
			return t == want
		case []any:
			return slices.Contains(t, any(want))
		}
		return false
	}
	if isType("array") {
		_, hasItems := m["items"]
		_, hasPrefix := m["prefixItems"]
		if !hasItems && !hasPrefix {
			w.out = append(w.out, finding{ptr: ptr, rule: "provider.array_items",
				msg:  fmt.Sprintf("Array schema at '%s' has no 'items'; OpenAI and Gemini reject an array without items", pointer(ptr)),
				sugg: "Add items with the schema of each element, such as {\"type\": \"string\"}"})
		}
	}
	props, hasProps := m["properties"].(map[string]any)
	if isType("object") || hasProps {
		objects++
		if objects == 11 {
			w.out = append(w.out, finding{ptr: ptr, rule: "openai_strict.nesting",
				msg:  fmt.Sprintf("Objects nest more than 10 levels deep at '%s', beyond OpenAI strict mode's limit", pointer(ptr)),
				sugg: "Flatten the parameters to at most 10 levels of objects"})
		}
		if ap, ok := m["additionalProperties"]; !ok || ap != false {
			w.out = append(w.out, finding{ptr: ptr, rule: "openai_strict.additional_properties",
				msg:  fmt.Sprintf("Object schema at '%s' does not set \"additionalProperties\": false, which OpenAI strict mode requires", pointer(ptr)),
				sugg: "Add \"additionalProperties\": false to the object schema"})
		}
		req := map[string]bool{}
		if rs, ok := m["required"].([]any); ok {
			for _, r := range rs {
				if s, ok := r.(string); ok {
					req[s] = true
				}
			}
		}
		var optional []string
		for _, k := range sortedKeys(props) {
			if !propertyNamePattern.MatchString(k) {
				w.out = append(w.out, finding{ptr: at("properties", k), rule: "provider.property_name",
					msg:  fmt.Sprintf("Property name '%s' does not match ^[a-zA-Z0-9_.-]{1,64}$, which Anthropic requires of input_schema properties", result.Clip(k, 80)),
					sugg: "Rename the property with letters, digits, '_', '.' and '-' only, at most 64 characters"})
			}
			if !req[k] {
				optional = append(optional, k)
			}
		}
		if len(optional) > 0 {
			w.out = append(w.out, finding{ptr: ptr, rule: "openai_strict.required",
				msg: fmt.Sprintf("Object schema at '%s' leaves %s out of 'required'; OpenAI strict mode requires every property to be required",
					pointer(ptr), quoteList(optional, 6)),
				sugg: "List every property in required and write an optional one as a union with null, as \"type\": [\"string\", \"null\"]"})
		}
	}
	for _, kw := range strictUnsupported {
		if _, ok := m[kw]; ok {
			w.out = append(w.out, finding{ptr: at(kw), rule: "openai_strict.keyword",
				msg:  fmt.Sprintf("Keyword '%s' at '%s' is not supported by OpenAI strict mode and would be rejected", kw, pointer(ptr)),
				sugg: "Remove the keyword, or state the constraint in the description, when the tool is used in strict mode"})
		}
	}
	if f, ok := m["format"].(string); ok && isType("string") && !slices.Contains(strictFormats, f) {
		w.out = append(w.out, finding{ptr: at("format"), rule: "openai_strict.format",
			msg:  fmt.Sprintf("Format '%s' at '%s' is not one OpenAI strict mode supports (%s)", result.Clip(f, 40), pointer(ptr), strings.Join(strictFormats, ", ")),
			sugg: "Remove the format, or use one of the supported formats"})
	}
	for _, k := range sortedKeys(props) {
		w.walk(props[k], at("properties", k), depth+1, objects)
	}
	for _, kw := range []string{"items", "additionalProperties", "not", "if", "then", "else", "contains"} {
		if sub, ok := m[kw].(map[string]any); ok {
			w.walk(sub, at(kw), depth+1, objects)
		}
	}
	for _, kw := range []string{"anyOf", "oneOf", "allOf", "prefixItems", "items"} {
		if subs, ok := m[kw].([]any); ok {
			for i, sub := range subs {
				w.walk(sub, at(kw, strconv.Itoa(i)), depth+1, objects)
			}
		}
	}
	for _, kw := range []string{"$defs", "definitions", "patternProperties"} {
		if defs, ok := m[kw].(map[string]any); ok {
			for _, k := range sortedKeys(defs) {
				w.walk(defs[k], at(kw, k), depth+1, objects)
			}
		}
	}
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// quoteList renders names as 'a', 'b' and 'c', at most n of them.
func quoteList(names []string, n int) string {
	q := make([]string, 0, min(len(names), n))
	for i, s := range names {
		if i == n {
			break
		}
		q = append(q, "'"+result.Clip(s, 40)+"'")
	}
	s := strings.Join(q, ", ")
	if len(names) > n {
		s += fmt.Sprintf(" and %d more", len(names)-n)
	}
	return s
}
