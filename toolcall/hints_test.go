package toolcall_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/agentjudge/judge/internal/sharedtest"
	"github.com/agentjudge/judge/internal/sharedtest/tooltest"
	"github.com/agentjudge/judge/result"
	"github.com/agentjudge/judge/toolcall"
)

// snapshotTool is a tool of a recorded tools/list, with what the test
// needs of its annotations.
type snapshotTool struct {
	Name        string         `json:"name"`
	Description string         `json:"description"`
	Annotations map[string]any `json:"annotations"`
}

// writesTool says, independently of package toolcall, whether a recorded
// tool writes: its annotations, else its name's verb.
func writesTool(t snapshotTool) bool {
	if d, _ := t.Annotations["destructiveHint"].(bool); d {
		return true
	}
	if ro, ok := t.Annotations["readOnlyHint"].(bool); ok {
		return !ro
	}
	verb, _, _ := strings.Cut(t.Name, "_")
	return slices.Contains([]string{"create", "write", "delete", "remove", "move", "update", "edit", "set", "add"}, strings.ToLower(verb))
}

var markedDeprecated = regexp.MustCompile(`(?i)\bdeprecated\b`)

// The outcome hints on the real servers' recorded tools and example
// calls (../shared/testdata/mcp-tools/mcp-snapshots, every server with both
// a tools/list and examples): no suggestion of a tool whose description
// marks it deprecated, and none of a tool that writes on an argument of the
// read or listing call just made (server-filesystem's list_directory of
// /tmp suggested create_directory of /tmp).
func TestOutcomeHintsRealServers(t *testing.T) {
	t.Parallel()
	dir := sharedtest.Dir(t, "mcp-tools", "mcp-snapshots")
	examples, _ := filepath.Glob(filepath.Join(dir, "*-examples.json"))
	var calls, suggestions, servers int
	for _, ex := range examples {
		list := strings.TrimSuffix(ex, "-examples.json") + ".json"
		data, err := os.ReadFile(list)
		if err != nil {
			continue // examples without the server's tools/list
		}
		var snap struct {
			Tools []snapshotTool `json:"tools"`
		}
		if err := json.Unmarshal(data, &snap); err != nil {
			t.Fatalf("%s: %v", list, err)
		}
		byName := map[string]snapshotTool{}
		for _, tl := range snap.Tools {
			byName[tl.Name] = tl
		}
		ts := tooltest.Toolset(t, data, list)
		exData, err := os.ReadFile(ex)
		if err != nil {
			t.Fatal(err)
		}
		var exs struct {
			Tools map[string]struct {
				Input  json.RawMessage `json:"example_input"`
				Output json.RawMessage `json:"example_output"`
			} `json:"tools"`
		}
		if err := json.Unmarshal(exData, &exs); err != nil {
			t.Fatalf("%s: %v", ex, err)
		}
		servers++
		for name, e := range exs.Tools {
			called, ok := byName[name]
			if !ok || len(e.Output) == 0 {
				continue
			}
			o, err := ts.Outcome(context.Background(), toolcall.OutcomeRequest{Call: toolcall.Call{Tool: name, Arguments: e.Input}, Result: e.Output})
			if err != nil {
				t.Errorf("%s %s: %v", filepath.Base(ex), name, err)
				continue
			}
			calls++
			var args map[string]any
			_ = json.Unmarshal(e.Input, &args)
			for _, nt := range o.SuggestedNextTools {
				suggestions++
				next := byName[nt.Tool]
				if markedDeprecated.MatchString(next.Description) {
					t.Errorf("%s %s: suggests %s, which its description marks deprecated", filepath.Base(ex), name, nt.Tool)
				}
				if writesTool(next) && !writesTool(called) && len(nt.Needs) == 0 && len(nt.Arguments) > 0 {
					same := true // every argument the call's own: it acts on what was read, not on what was found
					for k, v := range nt.Arguments {
						if a, ok := args[k]; !ok || !jsonEqual(a, v) {
							same = false
						}
					}
					if same {
						t.Errorf("%s %s: suggests %s, which writes, on %v, which it just read", filepath.Base(ex), name, nt.Tool, nt.Arguments)
					}
				}
			}
		}
	}
	if servers < 3 || calls < 20 {
		t.Fatalf("%d servers, %d example calls: the snapshots were not read", servers, calls)
	}
	t.Logf("%d servers, %d example calls, %d suggestions, none deprecated, none writing on what was just read", servers, calls, suggestions)
}

func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

// Results recorded from the real server-filesystem 2026.8.31
// (testdata/server-filesystem, on a root holding a.txt): a
// read_multiple_files whose every file is missing is FAILED, one with a
// file read is SATISFIED, and list_directory suggests no tool that
// writes on the directory just listed.
func TestOutcomeFilesystemRecorded(t *testing.T) {
	t.Parallel()
	ts := tooltest.SharedToolset(t, "mcp-tools", "mcp-snapshots", "server-filesystem.json")
	tests := []struct {
		file, tool, args string
		status           toolcall.Status
		rule             string
	}{
		{"read_multiple_files-enoent.json", "read_multiple_files", `{"paths": ["/tmp/gwc/fsroot/nope.txt", "/tmp/gwc/fsroot/gone.txt"]}`, toolcall.Failed, "toolcall.every_item_error"},
		{"read_multiple_files-mixed.json", "read_multiple_files", `{"paths": ["/tmp/gwc/fsroot/a.txt", "/tmp/gwc/fsroot/gone.txt"]}`, toolcall.Satisfied, ""},
		{"list_directory.json", "list_directory", `{"path": "/tmp/gwc/fsroot"}`, toolcall.Satisfied, ""},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			t.Parallel()
			res, err := os.ReadFile(filepath.Join("testdata", "server-filesystem", tt.file))
			if err != nil {
				t.Fatal(err)
			}
			o, err := ts.Outcome(context.Background(), toolcall.OutcomeRequest{Call: toolcall.Call{Tool: tt.tool, Arguments: json.RawMessage(tt.args)}, Result: res})
			if err != nil {
				t.Fatal(err)
			}
			if o.Status != tt.status {
				t.Errorf("status %s (%s), want %s", o.Status, o.Reason, tt.status)
			}
			if tt.rule != "" && !slices.ContainsFunc(o.Result.Issues, func(is result.Issue) bool { return is.Rule == tt.rule && strings.Contains(is.Message, "ENOENT") }) {
				t.Errorf("issues %+v, want %s naming the error", o.Result.Issues, tt.rule)
			}
			for _, nt := range o.SuggestedNextTools {
				if nt.Tool == "create_directory" || nt.Tool == "write_file" || nt.Tool == "read_file" {
					t.Errorf("suggests %s %v", nt.Tool, nt.Arguments)
				}
			}
		})
	}
}

// A result whose every item is an error is FAILED, whatever its shape;
// one item that is not an error keeps it from being a failure.
func TestOutcomeEveryItemError(t *testing.T) {
	t.Parallel()
	ts := outcomeToolset(t)
	tests := []struct {
		name, res string
		failed    bool
	}{
		{"text items", `{"content": [{"type": "text", "text": "a.txt: Error - ENOENT: no such file\n---\nb.txt: Error - EACCES: permission denied"}]}`, true},
		{"one text item", `{"content": [{"type": "text", "text": "a.txt: Error - ENOENT: no such file"}]}`, true},
		{"lines", `"x: failed - timeout\ny: error: denied"`, true},
		{"objects", `[{"path": "a", "error": "not found"}, {"path": "b", "success": false}]`, true},
		{"one item read", `{"content": [{"type": "text", "text": "a.txt:\nhello\n---\nb.txt: Error - ENOENT"}]}`, false},
		{"objects, one ok", `[{"path": "a", "error": "not found"}, {"path": "b", "size": 3}]`, false},
		{"data mentioning errors", `{"content": [{"type": "text", "text": "3 results; errors: none\nlast error: 2024-01-01"}]}`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			o, err := ts.Outcome(context.Background(), toolcall.OutcomeRequest{Call: toolcall.Call{Tool: "run_script"}, Result: json.RawMessage(tt.res)})
			if err != nil {
				t.Fatal(err)
			}
			if (o.Status == toolcall.Failed) != tt.failed {
				t.Errorf("status %s (%s), want failed %v", o.Status, o.Reason, tt.failed)
			}
		})
	}
}
