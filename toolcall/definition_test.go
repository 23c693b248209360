package toolcall_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/agentjudge/judge/internal/sharedtest/tooltest"
	"github.com/agentjudge/judge/result"
	"github.com/agentjudge/judge/toolcall"
)

func TestParseDefinitions(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		doc   string
		names []string
		kinds []string
	}{
		{name: "MCP tool", doc: `{"name": "a", "inputSchema": {"type": "object"}}`, names: []string{"a"}, kinds: []string{toolcall.KindMCP}},
		{name: "OpenAI function", doc: `{"type": "function", "function": {"name": "f", "parameters": {"type": "object"}, "strict": true}}`,
			names: []string{"f"}, kinds: []string{toolcall.KindOpenAI}},
		{name: "flat OpenAI function", doc: `{"type": "function", "name": "f", "parameters": {"type": "object"}}`,
			names: []string{"f"}, kinds: []string{toolcall.KindOpenAI}},
		{name: "list of both", doc: `[{"name": "a", "inputSchema": {}}, {"type": "function", "function": {"name": "f"}}]`,
			names: []string{"a", "f"}, kinds: []string{toolcall.KindMCP, toolcall.KindOpenAI}},
		{name: "tools/list answer", doc: `{"server_info": {}, "tools": [{"name": "a", "inputSchema": {}}]}`, names: []string{"a"}, kinds: []string{toolcall.KindMCP}},
		{name: "JSON-RPC answer", doc: `{"jsonrpc": "2.0", "id": 1, "result": {"tools": [{"name": "a", "inputSchema": {}}]}}`, names: []string{"a"}, kinds: []string{toolcall.KindMCP}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			defs, err := toolcall.ParseDefinitions([]byte(tt.doc), "defs.json")
			if err != nil {
				t.Fatal(err)
			}
			if len(defs) != len(tt.names) {
				t.Fatalf("got %d definitions, want %d", len(defs), len(tt.names))
			}
			for i, d := range defs {
				if d.Name != tt.names[i] || d.Kind != tt.kinds[i] {
					t.Errorf("definition %d = %s (%s), want %s (%s)", i, d.Name, d.Kind, tt.names[i], tt.kinds[i])
				}
			}
		})
	}
}

// Bad definitions are *DefinitionError with the path, and a broken rule
// or schema with its position.
func TestDefinitionErrors(t *testing.T) {
	t.Parallel()
	c, err := toolcall.New()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		doc  string
		want string // the error's text
	}{
		{name: "not JSON", doc: "{\n  \"name\": }", want: `defs.json: 2:11: invalid character '}' looking for beginning of value`},
		{name: "not a definition", doc: `{"title": "x"}`, want: "defs.json: not a tool definition"},
		{name: "MCP without inputSchema", doc: `{"tools": [{"name": "a"}]}`, want: "defs.json: tools[0].inputSchema: an MCP tool needs an inputSchema"},
		{name: "duplicate", doc: `[{"name": "a", "inputSchema": {}}, {"name": "a", "inputSchema": {}}]`, want: `defs.json: [1].name: tool "a" is defined twice (first at [0])`},
		{name: "rule without message", doc: `{"name": "a", "inputSchema": {}, "rules": [{"id": "r", "expression": "true"}]}`, want: "defs.json: rules[0].message: a rule needs a message"},
		{name: "unknown rule field", doc: `{"name": "a", "inputSchema": {}, "rules": [{"id": "r", "expression": "true", "message": "m", "msg": 1}]}`, want: "defs.json: rules[0].msg: msg must be a string"},
		{name: "broken rule", doc: `{"tools": [{"name": "a", "inputSchema": {}}, {"name": "b", "inputSchema": {}, "rules": [{"id": "r", "expression": "has(args.x) &&", "message": "m"}]}]}`,
			want: "defs.json: tools[1].rules[0].expression:1:15: Syntax error"},
		{name: "rule of another variable", doc: `{"name": "a", "inputSchema": {}, "rules": [{"id": "r", "expression": "output.x == 1", "message": "m"}]}`,
			want: "defs.json: rules[0].expression:1:1: undeclared reference to 'output'"},
		{name: "broken when", doc: `{"name": "a", "inputSchema": {}, "rules": [{"id": "r", "expression": "true", "when": "args.x + 1", "message": "m"}]}`,
			want: "defs.json: rules[0].when:1:8: rule must yield a bool"},
		{name: "invalid schema", doc: `{"name": "a", "inputSchema": {"type": "object", "properties": {"n": {"type": "integr"}}}}`,
			want: "defs.json: inputSchema/properties/n/type: invalid JSON Schema"},
		{name: "invalid OpenAI schema", doc: `{"type": "function", "function": {"name": "f", "parameters": {"minProperties": -1}}}`,
			want: "defs.json: function.parameters/minProperties: invalid JSON Schema"},
		{name: "scope of unknown parameter", doc: `{"name": "a", "inputSchema": {"properties": {"x": {}}}, "applies_when": {"y": {"x": ["1"]}}}`,
			want: `defs.json: applies_when.y: parameter "y" is not among the schema's properties (x)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			defs, err := toolcall.ParseDefinitions([]byte(tt.doc), "defs.json")
			if err == nil {
				_, err = c.NewToolset(defs...)
			}
			var de *toolcall.DefinitionError
			if !errors.As(err, &de) {
				t.Fatalf("err = %v, want a *DefinitionError", err)
			}
			if !strings.HasPrefix(de.Error(), tt.want) {
				t.Errorf("error = %q\nwant prefix %q", de.Error(), tt.want)
			}
		})
	}
}

// A compiled contract is cached by content: the same definition compiles
// once, and an error is placed at each definition that has it.
func TestCompileCached(t *testing.T) {
	t.Parallel()
	c, err := toolcall.New()
	if err != nil {
		t.Fatal(err)
	}
	defs, err := toolcall.ParseDefinitions([]byte(`[{"name": "a", "inputSchema": {"properties": {"x": {"type": "string"}}}}]`), "")
	if err != nil {
		t.Fatal(err)
	}
	a, err := c.Compile(defs[0])
	if err != nil {
		t.Fatal(err)
	}
	defs[0].Where = "elsewhere"
	b, err := c.Compile(defs[0])
	if err != nil {
		t.Fatal(err)
	}
	if a != b {
		t.Error("the same definition compiled twice")
	}
}

// A rule that cannot be decided is a not_checked info issue that lowers
// confidence, never a pass.
func TestRuleUndecided(t *testing.T) {
	t.Parallel()
	c, err := toolcall.New()
	if err != nil {
		t.Fatal(err)
	}
	defs, err := toolcall.ParseDefinitions([]byte(`{"name": "a", "inputSchema": {"properties": {"n": {"type": "integer"}}},
		"rules": [{"id": "big", "expression": "args.n > 3", "message": "n must be over 3"}]}`), "")
	if err != nil {
		t.Fatal(err)
	}
	ts, err := c.NewToolset(defs...)
	if err != nil {
		t.Fatal(err)
	}
	res, err := ts.Check(context.Background(), toolcall.Call{Tool: "a", Arguments: json.RawMessage(`{}`)})
	if err != nil {
		t.Fatal(err)
	}
	r := res.Result
	if len(r.Issues) != 1 || r.Issues[0].Type != result.NotChecked || r.Confidence >= 1 {
		t.Errorf("undecided rule: confidence %v, issues %+v", r.Confidence, r.Issues)
	}
	res, _ = ts.Check(context.Background(), toolcall.Call{Tool: "a", Arguments: json.RawMessage(`{"n": 2}`)})
	if res.Result.Valid || res.Result.Issues[0].Message != "n must be over 3" {
		t.Errorf("rule not met: %+v", res.Result.Issues)
	}
}

// A rule whose condition reads a parameter the call does not have does
// not apply (the condition's missing key is a typed error toolcall reads,
// criteria.MissingKeyError); a condition that fails otherwise leaves the
// rule undecided.
func TestRuleConditionMissingKey(t *testing.T) {
	t.Parallel()
	ts := tooltest.Toolset(t, []byte(`[
		{"name": "a", "inputSchema": {"properties": {"mode": {"type": "string"}, "n": {"type": "integer"}}},
		 "rules": [{"id": "big", "when": "args.mode == 'strict'", "expression": "args.n > 3", "message": "n must be over 3"}]},
		{"name": "b", "inputSchema": {"properties": {"mode": {"type": "string"}, "n": {"type": "integer"}}},
		 "rules": [{"id": "big", "when": "int(args.mode) > 0", "expression": "args.n > 3", "message": "n must be over 3"}]}]`), "tools.json")
	tests := []struct {
		tool, args string
		wantType   result.Type // "" for no issue
	}{
		{"a", `{"n": 1}`, ""},
		{"a", `{"mode": "strict", "n": 1}`, result.ConstraintViolation},
		{"a", `{"mode": "loose", "n": 1}`, ""},
		{"b", `{"mode": "x", "n": 1}`, result.NotChecked},
	}
	for _, tt := range tests {
		res, err := ts.Check(context.Background(), toolcall.Call{Tool: tt.tool, Arguments: json.RawMessage(tt.args)})
		if err != nil {
			t.Fatal(err)
		}
		var got result.Type
		if len(res.Result.Issues) > 0 {
			got = res.Result.Issues[0].Type
		}
		if got != tt.wantType || len(res.Result.Issues) > 1 {
			t.Errorf("%s %s: issues %+v, want one of type %q", tt.tool, tt.args, res.Result.Issues, tt.wantType)
		}
	}
}

// A parameter's location is written in the one notation of
// internal/location, as the schema layer writes it: café is an identifier
// (before, toolcall wrote ["café"]), x-api is not.
func TestParamLocationNotation(t *testing.T) {
	t.Parallel()
	ts := tooltest.Toolset(t, []byte(`{"name": "a", "inputSchema": {"type": "object", "properties": {"n": {"type": "integer"}}}}`), "tools.json")
	for arg, want := range map[string]string{"café": "café", "x-api": `["x-api"]`, "q\u200d": `["q\u200d"]`} {
		b, _ := json.Marshal(map[string]any{"n": 1, arg: 1})
		res, err := ts.Check(context.Background(), toolcall.Call{Tool: "a", Arguments: b})
		if err != nil {
			t.Fatal(err)
		}
		var locs []string
		for _, is := range res.Result.Issues {
			locs = append(locs, is.Location)
		}
		if len(locs) != 1 || locs[0] != want {
			t.Errorf("argument %q: locations %q, want only %s", arg, locs, want)
		}
	}
}
