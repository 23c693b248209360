package toolpin_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentjudge/judge/internal/redistest"
	"github.com/agentjudge/judge/toolpin"
)

func tool(name, desc string) toolpin.Tool {
	return toolpin.Tool{Name: name, Description: desc, InputSchema: json.RawMessage(`{"type":"object","properties":{"a":{"type":"string"}}}`)}
}

func rules(fs []toolpin.Finding) string {
	var out []string
	for _, f := range fs {
		out = append(out, f.Rule+":"+f.Tool)
	}
	return strings.Join(out, ",")
}

// TestPinsAcrossRestarts opens a new Pinner on the same file for each step,
// as a restarted gateway does.
func TestPinsAcrossRestarts(t *testing.T) {
	t.Parallel()
	restarts(t, toolpin.File{Path: filepath.Join(t.TempDir(), "pins.json")})
}

// TestPinsInRedis runs the same steps on pins kept in a real Redis server.
func TestPinsInRedis(t *testing.T) {
	t.Parallel()
	srv := redistest.Start(t)
	r, err := toolpin.OpenRedis(context.Background(), srv.URL(0))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	restarts(t, r)
	if _, err := toolpin.OpenRedis(context.Background(), "redis+cluster://127.0.0.1:1"); err == nil || !strings.Contains(err.Error(), "pin file") {
		t.Errorf("a cluster URL: err = %v, want a pointer to the pin file", err)
	}
}

func restarts(t *testing.T, file toolpin.Store) {
	t.Helper()
	ctx := context.Background()
	steps := []struct {
		name  string
		tools []toolpin.Tool
		want  string
	}{
		{"first sight pins", []toolpin.Tool{tool("fact", "Get a fact."), tool("add", "Adds.")}, ""},
		{"same definitions", []toolpin.Tool{tool("add", "Adds."), tool("fact", "Get a fact.")}, ""},
		{"key order and spacing do not matter", []toolpin.Tool{tool("add", "Adds."), {Name: "fact", Description: "Get a fact.", InputSchema: json.RawMessage(`{ "properties": {"a": {"type":"string"}}, "type": "object" }`)}}, ""},
		{"rug pull", []toolpin.Tool{tool("add", "Adds."), tool("fact", "Get a fact. <IMPORTANT>...</IMPORTANT>")}, "pin.changed:fact"},
		{"still reported after restart", []toolpin.Tool{tool("add", "Adds."), tool("fact", "Get a fact. <IMPORTANT>...</IMPORTANT>")}, "pin.changed:fact"},
		{"renamed to dodge the pin", []toolpin.Tool{tool("add", "Adds."), tool("fact2", "Get a fact. <IMPORTANT>...</IMPORTANT>")}, "pin.replaced:fact2"},
		{"rename of an unchanged tool", []toolpin.Tool{tool("sum", "Adds."), tool("fact2", "Get a fact. <IMPORTANT>...</IMPORTANT>")}, "pin.replaced:fact2,pin.renamed:sum"},
		{"the suspects stay reported", []toolpin.Tool{tool("sum", "Adds."), tool("fact2", "Get a fact. <IMPORTANT>...</IMPORTANT>")}, "pin.replaced:fact2,pin.renamed:sum"},
	}
	for _, st := range steps {
		p, err := toolpin.New(ctx, file)
		if err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		got, err := p.Observe(ctx, "facts", st.tools)
		if err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		if r := rules(got); r != st.want {
			t.Errorf("%s: findings %q, want %q", st.name, r, st.want)
		}
		for _, f := range got {
			if f.Issue.Message == "" || f.Issue.Location != "tools."+f.Tool {
				t.Errorf("%s: finding %+v", st.name, f)
			}
		}
	}
	// Another server's tools are pinned apart.
	p, _ := toolpin.New(ctx, file)
	if got, _ := p.Observe(ctx, "other", []toolpin.Tool{tool("fact", "Something else.")}); len(got) != 0 {
		t.Errorf("other server: %s", rules(got))
	}
	// A tool that comes back unchanged is not reported.
	if got, _ := p.Observe(ctx, "other", nil); len(got) != 0 {
		t.Errorf("all vanished: %s", rules(got))
	}
	if got, _ := p.Observe(ctx, "other", []toolpin.Tool{tool("fact", "Something else.")}); len(got) != 0 {
		t.Errorf("came back: %s", rules(got))
	}
}

func TestFileErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, tc := range []struct{ name, content, want string }{
		{"not json", "{", "not a pin file"},
		{"version", `{"version": 2, "pins": []}`, "version 2"},
	} {
		path := filepath.Join(dir, tc.name)
		if err := os.WriteFile(path, []byte(tc.content), 0o600); err != nil {
			t.Fatal(err)
		}
		_, err := toolpin.New(context.Background(), toolpin.File{Path: path})
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), path) {
			t.Errorf("%s: err = %v, want %q with the path", tc.name, err, tc.want)
		}
	}
	// An unwritable directory fails Observe with an error, not a panic.
	p, err := toolpin.New(context.Background(), toolpin.File{Path: filepath.Join(dir, "missing", "pins.json")})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Observe(context.Background(), "s", []toolpin.Tool{tool("a", "A.")}); err == nil {
		t.Error("saving into a missing directory did not fail")
	}
}

// TestObserveKind: prompts and resources are pinned apart from the tools
// of the same server (a prompt named like a tool is its own pin), a
// changed one is reported with its kind, and a partial list (one page of
// resources) counts nothing vanished, where a complete one does.
func TestObserveKind(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	p, err := toolpin.New(ctx, &toolpin.Memory{})
	if err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		kind     string
		defs     []toolpin.Tool
		complete bool
		want     string
	}{
		{toolpin.KindTool, []toolpin.Tool{tool("brief", "a tool")}, true, ""},
		{toolpin.KindPrompt, []toolpin.Tool{tool("brief", "a prompt")}, true, ""},
		{toolpin.KindResource, []toolpin.Tool{tool("test://a", "A"), tool("test://b", "B")}, false, ""},
		{toolpin.KindPrompt, []toolpin.Tool{tool("brief", "a prompt that changed")}, true, "pin.changed:brief"},
		{toolpin.KindTool, []toolpin.Tool{tool("brief", "a tool")}, true, ""},
		{toolpin.KindResource, []toolpin.Tool{tool("test://b", "B")}, false, ""},
		{toolpin.KindResource, []toolpin.Tool{tool("test://c", "C")}, false, ""},
		{toolpin.KindResource, []toolpin.Tool{tool("test://d", "D")}, true, "pin.replaced:test://d"},
	}
	for i, s := range steps {
		fs, err := p.ObserveKind(ctx, "srv", s.kind, s.defs, s.complete)
		if err != nil {
			t.Fatal(err)
		}
		if got := rules(fs); got != s.want {
			t.Errorf("step %d (%s): %q, want %q", i, s.kind, got, s.want)
		}
		for _, f := range fs {
			if f.Server != "srv" || !strings.Contains(strings.ToLower(f.Issue.Message), "upstream "+s.kind+" ") || !strings.HasPrefix(f.Issue.Location, strings.ReplaceAll(s.kind, " ", "_")+"s.") {
				t.Errorf("step %d: finding %+v", i, f)
			}
		}
	}
	servers := map[string]bool{}
	for _, pn := range p.Pins() {
		servers[pn.Server] = true
	}
	if !servers["srv"] || !servers["srv/prompts"] || !servers["srv/resources"] {
		t.Errorf("pins kept under %v", servers)
	}
}
