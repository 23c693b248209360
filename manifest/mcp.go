package manifest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/agentjudge/judge/result"
)

// MCPError is an MCP definitions file that cannot be linted: not JSON, or
// holding no tool definitions.
type MCPError struct {
	File string
	Pos  Pos
	Msg  string
	Err  error
}

// Error renders the error with its location.
func (e *MCPError) Error() string {
	return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Pos.Line, e.Pos.Col, e.Msg)
}

// Unwrap returns the underlying error, if any.
func (e *MCPError) Unwrap() error { return e.Err }

// MaxMCPBytes is the largest MCP definitions file LintMCP reads.
const MaxMCPBytes = MaxFileBytes

// LintMCP lints MCP tool definitions (tools/list entries: name,
// description, inputSchema) read from data, a JSON document that is a
// tools/list result ({"tools": [...]}), a JSON-RPC response holding one
// ({"result": {"tools": [...]}}), an array of definitions, or one
// definition. file names the document in locations. Each tool gets the
// checks of its parameters: the meta-schema and the providers' rules. It
// returns an *MCPError when data holds no definitions.
func LintMCP(ctx context.Context, file string, data []byte) (*Report, error) {
	if len(data) > MaxMCPBytes {
		return nil, &MCPError{File: file, Pos: Pos{1, 1}, Msg: fmt.Sprintf("the file is larger than %d bytes", MaxMCPBytes)}
	}
	var probe any
	if err := json.Unmarshal(data, &probe); err != nil {
		// A truncated document is located at its end.
		off := len(data)
		var se *json.SyntaxError
		if errors.As(err, &se) && se.Error() != "unexpected end of JSON input" {
			off = int(se.Offset) - 1
		}
		l, c := lineCol(data, off)
		p := Pos{l, c}
		return nil, &MCPError{File: file, Pos: p, Msg: "not a JSON document: " + err.Error(), Err: err}
	}
	doc, err := decodeYAML(file, data, 0, 0)
	if err != nil {
		// goccy/go-yaml reads nearly all JSON; when it cannot, positions
		// fall back to the start of the file.
		doc = nodeOf(probe, 0)
	}
	var tools *node
	switch {
	case doc.kind == kindSeq:
		tools = doc
	case doc.field("tools") != nil:
		tools = doc.field("tools")
	case doc.field("result").field("tools") != nil:
		tools = doc.field("result").field("tools")
	case doc.field("name") != nil && doc.field("inputSchema") != nil:
		tools = &node{kind: kindSeq, items: []*node{doc}, pos: doc.pos}
	}
	if tools == nil || tools.kind != kindSeq {
		what := "no \"tools\" list"
		if tools != nil {
			what = "\"tools\" is " + tools.describe() + ", not a list of definitions"
		}
		at := doc.pos
		if tools != nil {
			at = tools.pos
		}
		return nil, &MCPError{File: file, Pos: at,
			Msg: what + `: expected a tools/list result {"tools": [{"name", "description", "inputSchema"}]}, a list of definitions, or one definition`}
	}
	reg := &Registry{byID: map[string][]*Tool{}}
	for i, tn := range tools.items {
		t := &Tool{Path: file, Form: FormMCP, doc: tn, schemaBase: []pathElem{"inputSchema"}}
		if tn.kind != kindMap {
			t.report(result.Error, result.InvalidType, "mcp.definition", tn.pos, "Write each definition as an object with name, description and inputSchema",
				"Tool definition %d is %s, not an object", i, tn.describe())
		} else {
			t.ID, _ = tn.field("name").str()
			t.Description, _ = tn.field("description").str()
			if s, ok := tn.field("inputSchema").toAny().(map[string]any); ok {
				t.schema = s
			}
			t.Guidance.WhenToUse, _ = tn.field("when_to_use").str()
			t.Guidance.WhenNotToUse, _ = tn.field("when_not_to_use").str()
			if t.Guidance.Empty() {
				t.Guidance = SchemaGuidance(t.schema)
			}
		}
		reg.tools = append(reg.tools, t)
		if t.ID != "" {
			reg.byID[t.ID] = append(reg.byID[t.ID], t)
		}
	}
	rep := &Report{Results: map[string]*result.ValidationResult{}, Summary: Summary{ByType: map[string]int{}}}
	run := &lintRun{ctx: ctx}
	for i, t := range reg.tools {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("manifest: lint: %w", err)
		}
		start := time.Now()
		c := &checker{Tool: t, run: run, reg: reg, issues: slices.Clone(t.issues)}
		c.mcpDefinition()
		res := result.NewBuilder().Add(c.issues...).Ran(c.ran...).Duration(time.Since(start)).Build()
		key := t.ID
		if key == "" || len(reg.byID[key]) > 1 {
			key = fmt.Sprintf("%s#/tools/%d", file, i)
		}
		rep.add(key, "mcp_definition", res)
	}
	return rep, nil
}

// mcpDefinition checks one MCP tool definition.
func (c *checker) mcpDefinition() {
	if c.doc == nil || c.doc.kind != kindMap {
		return
	}
	c.ran = append(c.ran, "mcp_definition")
	namePos := c.posOf("name")
	if c.ID == "" {
		c.report(result.Error, result.MissingField, "mcp.name", namePos, "Add a name: the identifier clients call the tool by",
			"Tool definition has no name")
	}
	if dups := c.reg.byID[c.ID]; c.ID != "" && len(dups) > 1 {
		var others []string
		for _, o := range dups {
			if o != c.Tool {
				others = append(others, o.loc(o.posOf("name")))
			}
		}
		c.report(result.Error, result.DuplicateID, "mcp.duplicate_name", namePos, "Give each tool of a server its own name",
			"Tool name '%s' is also used at %s", c.ID, others[0])
	}
	if n := c.doc.field("inputSchema"); n == nil || n.kind != kindMap {
		c.report(result.Error, result.MissingField, "mcp.input_schema", namePos,
			"Add inputSchema: an object schema, {\"type\": \"object\"} for a tool without arguments",
			"Tool '%s' has no inputSchema object, which MCP requires", result.Clip(c.ID, 60))
		return
	}
	c.ran = append(c.ran, "parameters", "provider")
	c.checkSchema()
	if f, ok := descriptionFinding(c.ID, c.Description, c.Guidance); ok {
		p := c.posOf("description")
		if c.doc.field("description") == nil {
			p = namePos
		}
		c.report(result.Warning, result.ReadabilityIssue, f.rule, p, f.sugg, "%s", f.msg)
	}
	for _, f := range providerFindings(c.ID, c.Description, c.schema) {
		p := c.schemaPos(f.ptr)
		if f.onToolName {
			p = namePos
		}
		c.report(result.Warning, result.ProviderIncompatible, f.rule, p, f.sugg, "%s", f.msg)
	}
}

// nodeOf converts decoded JSON to a node without positions.
func nodeOf(v any, depth int) *node {
	if depth > MaxDepth {
		return &node{kind: kindNull}
	}
	switch x := v.(type) {
	case map[string]any:
		n := &node{kind: kindMap, fields: map[string]*node{}, keyPos: map[string]Pos{}}
		for _, k := range sortedKeys(x) {
			n.keys = append(n.keys, k)
			n.fields[k] = nodeOf(x[k], depth+1)
		}
		return n
	case []any:
		n := &node{kind: kindSeq}
		for _, e := range x {
			n.items = append(n.items, nodeOf(e, depth+1))
		}
		return n
	case nil:
		return &node{kind: kindNull}
	case float64:
		return &node{kind: kindScalar, value: x, text: fmt.Sprint(x)}
	default:
		return &node{kind: kindScalar, value: x, text: fmt.Sprint(x)}
	}
}
