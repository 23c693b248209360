package main

import (
	"bytes"
	"context"
	"os"
	"testing"

	"golang.org/x/tools/txtar"
)

// TestCallTextGolden runs judge call check and outcome with --format text
// and compares each output with its section of testdata/call.txtar;
// -update rewrites them.
func TestCallTextGolden(t *testing.T) {
	t.Parallel()
	const file = "testdata/call.txtar"
	ar, err := txtar.ParseFile(file)
	if err != nil {
		t.Fatal(err)
	}
	tools := toolsFile(t)
	runs := []struct {
		section string
		args    []string
		code    int
	}{
		{"check-invalid.txt", []string{"call", "check", "--format", "text", "--session", "s", "--defs", tools, "home_assistant", `{"action": "call_tool", "timeout": 3}`}, 1},
		{"check-normalized.txt", []string{"call", "check", "--format", "text", "--defs", tools, "get_events", `{"action": "by_ids", "ids": "e1", "limit": "5"}`}, 0},
		{"check-unknown-tool.txt", []string{"call", "check", "--format", "text", "--defs", tools, "lookup_contacts", `{}`}, 1},
		{"outcome-failed.txt", []string{"call", "outcome", "--format", "text", "--defs", tools, "get_events", `{"action": "by_ids", "ids": ["e1"]}`,
			`{"content": [{"type": "text", "text": "calendar offline"}], "isError": true}`}, 0},
		{"outcome-satisfied.txt", []string{"call", "outcome", "--format", "text", "--session", "s", "--defs", tools, "get_events", `{"action": "by_ids", "ids": ["e1"]}`,
			`[{"event_id": "e1", "title": "Standup"}]`}, 0},
	}
	changed := false
	for _, r := range runs {
		var stdout, stderr bytes.Buffer
		if code := Execute(context.Background(), r.args, nil, &stdout, &stderr); code != r.code {
			t.Errorf("%s: exit %d, want %d\n%s", r.section, code, r.code, stderr.String())
		}
		idx := -1
		for i := range ar.Files {
			if ar.Files[i].Name == r.section {
				idx = i
			}
		}
		switch {
		case *update && idx < 0:
			ar.Files = append(ar.Files, txtar.File{Name: r.section, Data: stdout.Bytes()})
			changed = true
		case *update:
			ar.Files[idx].Data, changed = stdout.Bytes(), true
		case idx < 0:
			t.Errorf("no section %s in %s; run with -update", r.section, file)
		case !bytes.Equal(ar.Files[idx].Data, stdout.Bytes()):
			t.Errorf("%s differs from %s (run with -update to accept):\n%s", r.section, file, lineDiff(string(ar.Files[idx].Data), stdout.String()))
		}
	}
	if changed {
		if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
