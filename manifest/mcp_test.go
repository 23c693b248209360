package manifest_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/agentjudge/judge/internal/sharedtest"
	"github.com/agentjudge/judge/manifest"
	"github.com/agentjudge/judge/result"
)

// providerRules are the provider rules a definition can break, each
// documented with its source in docs/manifests.md.
var providerRules = []string{"provider.name", "provider.description", "provider.parameter_description",
	"provider.array_items", "provider.property_name", "provider.root_object", "openai_strict.additional_properties",
	"openai_strict.required", "openai_strict.keyword", "openai_strict.format", "openai_strict.nesting"}

var pointerInMessage = regexp.MustCompile(`at '(#[^']*)'`)

// resolve follows a JSON Pointer ("#/a/b") into v.
func resolve(v any, ptr string) (any, bool) {
	for _, tok := range strings.Split(strings.TrimPrefix(strings.TrimPrefix(ptr, "#"), "/"), "/") {
		if tok == "" {
			continue
		}
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch x := v.(type) {
		case map[string]any:
			v = x[tok]
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(x) {
				return nil, false
			}
			v = x[i]
		default:
			return nil, false
		}
	}
	return v, v != nil
}

// definitions reads the tools of an MCP definitions file as decoded JSON,
// by name.
func definitions(t *testing.T, data []byte) map[string]map[string]any {
	t.Helper()
	var doc any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	var list []any
	switch x := doc.(type) {
	case []any:
		list = x
	case map[string]any:
		if ts, ok := x["tools"].([]any); ok {
			list = ts
		} else {
			list = []any{x}
		}
	}
	out := map[string]map[string]any{}
	for _, e := range list {
		m, _ := e.(map[string]any)
		name, _ := m["name"].(string)
		out[name] = m
	}
	return out
}

// TestLintMCPRealDefinitions lints every file of shared/testdata/mcp-tools:
// nothing crashes, a file that holds no definitions is an *MCPError with
// a position, and every warning is a documented provider rule that
// really holds for the definition it names (checked here independently
// of the linter).
func TestLintMCPRealDefinitions(t *testing.T) {
	t.Parallel()
	dir := sharedtest.Dir(t, "mcp-tools")
	var files []string
	for _, pat := range []string{"github-mcp-server/*.snap", "mcp-snapshots/*.json"} {
		m, err := filepath.Glob(filepath.Join(dir, pat))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) < 100 {
		t.Fatalf("found %d definition files, want the 117 snapshots and the server captures", len(files))
	}
	linted, tools, warnings := 0, 0, 0
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		rep, err := manifest.LintMCP(context.Background(), file, data)
		if err != nil {
			var me *manifest.MCPError
			if !errors.As(err, &me) || me.Pos.Line < 1 {
				t.Errorf("%s: error %v is not an *MCPError with a position", file, err)
			}
			if strings.HasSuffix(file, ".snap") || (!strings.Contains(file, "examples") && !strings.Contains(file, "sqlite")) {
				t.Errorf("%s holds definitions but was refused: %v", file, err)
			}
			continue
		}
		linted++
		defs := definitions(t, data)
		for key, r := range rep.Results {
			tools++
			if err := result.Check(r); err != nil {
				t.Errorf("%s %s: %v", file, key, err)
			}
			def := defs[key]
			if def == nil {
				t.Errorf("%s: result %q names no definition", file, key)
				continue
			}
			for _, is := range r.Issues {
				if is.Severity == result.Error {
					t.Errorf("%s %s: unexpected error on a published definition: %+v", file, key, is)
					continue
				}
				warnings++
				if is.Rule == manifest.RuleWeakDescription {
					continue // measured by TestWeakDescriptionRealDefinitions
				}
				if is.Type != result.ProviderIncompatible || !slices.Contains(providerRules, is.Rule) {
					t.Errorf("%s %s: warning %s/%s is not a provider rule", file, key, is.Type, is.Rule)
				}
				if f, _, _, ok := manifest.SplitLocation(is.Location); !ok || f != file {
					t.Errorf("%s %s: location %q is not file:line:column in the file", file, key, is.Location)
				}
				checkRuleHolds(t, file+" "+key, def, is)
			}
		}
	}
	if linted < 100 || tools < 200 || warnings == 0 {
		t.Errorf("linted %d files, %d tools, %d warnings: too few to have checked the corpus", linted, tools, warnings)
	}
}

// checkRuleHolds verifies, from the definition itself, that the rule an
// issue names is broken where the issue says.
func checkRuleHolds(t *testing.T, what string, def map[string]any, is result.Issue) {
	t.Helper()
	schema, _ := def["inputSchema"].(map[string]any)
	switch is.Rule {
	case "provider.parameter_description":
		name := strings.Split(is.Message, "'")[1]
		props, _ := schema["properties"].(map[string]any)
		p, _ := props[name].(map[string]any)
		if d, _ := p["description"].(string); p == nil || strings.TrimSpace(d) != "" {
			t.Errorf("%s: parameter %q does have a description: %s", what, name, is.Message)
		}
	case "provider.description":
		if d, _ := def["description"].(string); strings.TrimSpace(d) != "" {
			t.Errorf("%s: the tool does have a description", what)
		}
	case "provider.name":
		if name, _ := def["name"].(string); regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`).MatchString(name) {
			t.Errorf("%s: name %q is valid", what, name)
		}
	case "openai_strict.additional_properties", "openai_strict.required", "provider.array_items":
		m := pointerInMessage.FindStringSubmatch(is.Message)
		if m == nil {
			t.Errorf("%s: no pointer in %q", what, is.Message)
			return
		}
		v, ok := resolve(schema, m[1])
		sub, _ := v.(map[string]any)
		if !ok || sub == nil {
			t.Errorf("%s: pointer %s does not resolve", what, m[1])
			return
		}
		switch is.Rule {
		case "openai_strict.additional_properties":
			if sub["additionalProperties"] == false {
				t.Errorf("%s: %s sets additionalProperties false", what, m[1])
			}
		case "openai_strict.required":
			props, _ := sub["properties"].(map[string]any)
			req, _ := sub["required"].([]any)
			if len(req) >= len(props) {
				t.Errorf("%s: %s requires all %d properties", what, m[1], len(props))
			}
		case "provider.array_items":
			if _, has := sub["items"]; has {
				t.Errorf("%s: %s has items", what, m[1])
			}
		}
	}
}

func TestLintMCPBadInput(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, data string
		line, col  int
	}{
		{"not json", "Error: No initialize response\n", 1, 1},
		{"truncated", "{\n  \"tools\": [\n", 3, 1},
		{"no tools", `{"server": "x"}`, 1, 1},
		{"tools is a map", "{\n  \"tools\": {\"a\": {}}\n}", 2, 12},
		{"too large", "[" + strings.Repeat(" ", manifest.MaxMCPBytes) + "]", 1, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := manifest.LintMCP(context.Background(), "defs.json", []byte(tt.data))
			var me *manifest.MCPError
			if !errors.As(err, &me) {
				t.Fatalf("err = %v, want *MCPError", err)
			}
			if me.Pos.Line != tt.line || me.Pos.Col != tt.col {
				t.Errorf("position = %d:%d, want %d:%d (%v)", me.Pos.Line, me.Pos.Col, tt.line, tt.col, err)
			}
		})
	}
}

func TestLintMCPDefinitionErrors(t *testing.T) {
	t.Parallel()
	data := `{"tools": [
  {"name": "ok", "description": "Fine", "inputSchema": {"type": "object", "properties": {}, "additionalProperties": false}},
  {"name": "bad name!", "description": "Bad name", "inputSchema": {"type": "object", "properties": {}, "additionalProperties": false}},
  {"name": "no_schema", "description": "No schema"},
  {"name": "bad_schema", "description": "Bad", "inputSchema": {"type": "object", "properties": {"q": {"type": 5}}, "required": ["q"], "additionalProperties": false}},
  {"name": "ok", "description": "Again", "inputSchema": {"type": "object", "properties": {}, "additionalProperties": false}}
]}`
	rep, err := manifest.LintMCP(context.Background(), "defs.json", []byte(data))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{
		"bad name!":          {"defs.json:3:12 provider_incompatible provider.name", "defs.json:3:40 readability_issue guidance.description"},
		"no_schema":          {"defs.json:4:12 missing_field mcp.input_schema"},
		"bad_schema":         {"defs.json:5:111 schema_violation manifest.schema_meta", "defs.json:5:102 provider_incompatible provider.parameter_description", "defs.json:5:41 readability_issue guidance.description"},
		"defs.json#/tools/0": {"defs.json:2:12 duplicate_id mcp.duplicate_name", "defs.json:2:33 readability_issue guidance.description"},
		"defs.json#/tools/4": {"defs.json:6:12 duplicate_id mcp.duplicate_name", "defs.json:6:33 readability_issue guidance.description"},
	}
	for key, lines := range want {
		r := rep.Results[key]
		if r == nil {
			t.Errorf("no result for %q; keys %v", key, rep.Keys())
			continue
		}
		var got []string
		for _, is := range r.Issues {
			got = append(got, is.Location+" "+string(is.Type)+" "+is.Rule)
		}
		slices.Sort(got)
		slices.Sort(lines)
		if !slices.Equal(got, lines) {
			t.Errorf("%s: issues\n%s\nwant\n%s", key, strings.Join(got, "\n"), strings.Join(lines, "\n"))
		}
	}
}

// A default its own parameter rejects ({"type": "string", "default": null},
// common in real definitions) is one warning, located at the default, and
// the definition stays valid: calls are, and judge does not fill it.
func TestLintMCPInvalidDefault(t *testing.T) {
	t.Parallel()
	doc := `{"tools": [{"name": "search", "description": "Search the web for a query.", "inputSchema": {"type": "object",
	"properties": {"query": {"type": "string", "description": "What to search for."},
	"cursor": {"type": "string", "description": "Where to resume.", "default": null}}, "required": ["query"]}}]}`
	rep, err := manifest.LintMCP(context.Background(), "defs.json", []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	res := rep.Results["search"]
	var found []result.Issue
	for _, is := range res.Issues {
		if is.Rule == "manifest.parameter_default" {
			found = append(found, is)
		}
	}
	if len(found) != 1 || found[0].Severity != result.Warning || !res.Valid ||
		!strings.Contains(found[0].Message, "does not fill it") || !strings.HasPrefix(found[0].Location, "defs.json:3:") {
		t.Errorf("issues = %+v, valid %v; want one warning at the default", res.Issues, res.Valid)
	}
}
