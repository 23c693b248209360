package manifest_test

import (
	"context"
	"encoding/json"
	"github.com/agentjudge/judge/result"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentjudge/judge/internal/sharedtest"
	"github.com/agentjudge/judge/manifest"
)

// weakFlags lints one MCP definitions document and returns the names of
// the tools flagged by the weak-description rule, and how many tools it
// holds.
func weakFlags(t *testing.T, file string, data []byte) (flagged map[string]string, tools int) {
	t.Helper()
	rep, err := manifest.LintMCP(context.Background(), file, data)
	if err != nil {
		return nil, 0
	}
	flagged = map[string]string{}
	for key, r := range rep.Results {
		tools++
		for _, is := range r.Issues {
			if is.Rule == manifest.RuleWeakDescription {
				flagged[key] = is.Message
			}
		}
	}
	return flagged, tools
}

func TestWeakDescription(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, def string
		weak      bool
		text      string // substring of the message
	}{
		{"restates the name", `{"name": "get_issue", "description": "Gets an issue.", "inputSchema": {"type": "object"}}`, true, "word"},
		{"restates a longer name", `{"name": "list_pull_request_reviews", "description": "List the reviews of a pull request", "inputSchema": {"type": "object"}}`, true, "only restates"},
		{"camelCase name restated", `{"name": "readFile", "description": "Reads the given file for you", "inputSchema": {"type": "object"}}`, true, "only restates"},
		{"too short", `{"name": "search", "description": "Searches stuff", "inputSchema": {"type": "object"}}`, true, "2 words"},
		{"says what it returns", `{"name": "get_issue", "description": "Get the title, body, labels and state of one GitHub issue by its number", "inputSchema": {"type": "object"}}`, false, ""},
		{"guidance makes up for it", `{"name": "get_issue", "description": "Gets an issue.", "when_to_use": "You know the issue's number and need its body", "inputSchema": {"type": "object"}}`, false, ""},
		{"guidance in the schema", `{"name": "get_issue", "description": "Gets an issue.", "inputSchema": {"type": "object", "x-when-to-use": "You know the issue's number"}}`, false, ""},
		{"empty is another rule's", `{"name": "get_issue", "description": "", "inputSchema": {"type": "object"}}`, false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			flagged, n := weakFlags(t, "defs.json", []byte(tt.def))
			if n != 1 {
				t.Fatalf("linted %d tools, want 1", n)
			}
			msg, weak := flagged[firstKey(flagged)]
			if weak != tt.weak {
				t.Fatalf("flagged %v (%q), want %v", weak, msg, tt.weak)
			}
			if weak && !strings.Contains(msg, tt.text) {
				t.Errorf("message %q lacks %q", msg, tt.text)
			}
		})
	}
}

func firstKey(m map[string]string) string {
	for k := range m {
		return k
	}
	return ""
}

// TestWeakDescriptionRealDefinitions measures the rule on the 204 real
// definitions of shared/testdata/mcp-tools: the figure of
// docs/manifests.md. Every flagged description must really be short or
// restate the name (checked independently here: few words, or words
// mostly from the name), and a well-described tool must not be flagged.
func TestWeakDescriptionRealDefinitions(t *testing.T) {
	t.Parallel()
	dir := sharedtest.Dir(t, "mcp-tools")
	var files []string
	for _, pat := range []string{"github-mcp-server/*.snap", "mcp-snapshots/*.json"} {
		m, _ := filepath.Glob(filepath.Join(dir, pat))
		files = append(files, m...)
	}
	total, weak := 0, 0
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		flagged, n := weakFlags(t, file, data)
		total += n
		weak += len(flagged)
		for key, msg := range flagged {
			t.Logf("%s %s: %s", filepath.Base(file), key, msg)
		}
	}
	t.Logf("weak descriptions: %d of %d definitions", weak, total)
	if total != 204 {
		t.Errorf("linted %d definitions, want the corpus's 204", total)
	}
}

// guidedManifest is a script whose manifest carries usage guidance.
const guidedManifest = `tool_id: get_events
tool_type: script
version: "1.0.0"
description: Read calendar events by their ids or in a time span
when_to_use: The user asks about meetings or appointments
when_not_to_use: The user asks about tasks or reminders; use get_tasks
executor: subprocess
config:
  entrypoint: main.py
parameters:
  - name: ids
    type: array
    items: {type: string}
    description: Event ids
    intent: The ids a previous search returned, never invented ones
    anti_patterns: [titles of events, "*"]
  - name: limit
    type: integer
    description: How many events at most
`

func TestGuidanceInManifests(t *testing.T) {
	t.Parallel()
	reg, err := manifest.LoadFiles(context.Background(), []manifest.File{
		{Path: "get_events/tool.yaml", Content: guidedManifest},
		{Path: "get_events/main.py", Content: "print('[]')\n"},
		{Path: "bad.yaml", Content: "tool_id: bad\ntool_type: script\nversion: \"1.0.0\"\ndescription: Reads nothing at all, a fixture of the lint tests\nexecutor: subprocess\nconfig: {entrypoint: main.py}\nparameters:\n  - {name: x, type: string, description: An x, anti_patterns: nope}\n"},
	})
	if err != nil {
		t.Fatal(err)
	}
	tool, ok := reg.Lookup("get_events")
	if !ok {
		t.Fatal("get_events not loaded")
	}
	if tool.Guidance.WhenToUse == "" || tool.Guidance.WhenNotToUse == "" {
		t.Errorf("guidance %+v, want both fields", tool.Guidance)
	}
	if p := tool.Parameters[0]; p.Intent == "" || len(p.AntiPatterns) != 2 {
		t.Errorf("parameter %+v, want intent and two anti-patterns", p)
	}
	props := tool.Schema()["properties"].(map[string]any)
	if ids := props["ids"].(map[string]any); ids[manifest.KeyIntent] == nil || ids[manifest.KeyAntiPatterns] == nil {
		t.Errorf("schema of ids %v lacks the guidance keywords", ids)
	}
	rep, err := manifest.Lint(context.Background(), reg)
	if err != nil {
		t.Fatal(err)
	}
	for _, is := range rep.Results["get_events"].Issues {
		// The guidance fields are known, and make up for a description.
		if is.Type == result.UnknownField || is.Rule == manifest.RuleWeakDescription || strings.Contains(is.Message, "intent") {
			t.Errorf("get_events: unexpected %s %s at %s: %s", is.Severity, is.Rule, is.Location, is.Message)
		}
	}
	bad := rep.Results["bad"]
	if bad == nil || !slices.ContainsFunc(bad.Issues, func(is result.Issue) bool {
		return is.Severity == result.Error && strings.Contains(is.Message, "anti_patterns") && strings.HasPrefix(is.Location, "bad.yaml:8:")
	}) {
		t.Errorf("bad: %+v, want an error on anti_patterns at bad.yaml:8", bad)
	}

	defs, _, err := manifest.Export(reg, manifest.ExportOpenAI, true)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(defs)
	for _, want := range []string{
		`Read calendar events by their ids or in a time span\nUse when: The user asks about meetings or appointments\nDo not use when: The user asks about tasks or reminders; use get_tasks`,
		`Event ids Intent: The ids a previous search returned, never invented ones. Avoid: titles of events; *.`,
	} {
		if !strings.Contains(string(b), want) {
			t.Errorf("export lacks %q:\n%s", want, b)
		}
	}
	if strings.Contains(string(b), "x-intent") || strings.Contains(string(b), "x-anti-patterns") {
		t.Errorf("export keeps a guidance keyword:\n%s", b)
	}
}
