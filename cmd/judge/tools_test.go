package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/agentjudge/judge/internal/sharedtest"
	"github.com/agentjudge/judge/manifest"
	"github.com/agentjudge/judge/result"
)

// lintParams returns judge tools lint flags with the given format.
func lintParams(format string) toolsLintParams {
	p := newToolsLintParams()
	p.format.value = format
	return p
}

func TestToolsLint(t *testing.T) {
	t.Parallel()
	examples := filepath.Join(repoRoot(t), "examples")
	tests := []struct {
		name  string
		args  []string
		mcp   string
		code  int
		tools int
	}{
		{"valid", []string{filepath.Join(examples, "tools")}, "", exitOK, 7},
		{"broken", []string{filepath.Join(examples, "tools-broken")}, "", exitInvalid, 4},
		{"both", []string{filepath.Join(examples, "tools"), filepath.Join(examples, "tools-broken")}, "", exitInvalid, 11},
		{"absent", []string{filepath.Join(examples, "no-such-dir")}, "", exitBadInput, 0},
		{"not a dir", []string{filepath.Join(examples, "ticket.json")}, "", exitBadInput, 0},
		{"mcp", nil, filepath.Join(examples, "mcp-tools.json"), exitOK, 3},
		{"mcp not definitions", nil, filepath.Join(examples, "ticket.json"), exitBadInput, 0},
		{"mcp absent", nil, filepath.Join(examples, "none.json"), exitBadInput, 0},
		{"mcp and dirs", []string{examples}, filepath.Join(examples, "mcp-tools.json"), exitBadInput, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p := lintParams(formatJSON)
			p.mcp = tt.mcp
			var out bytes.Buffer
			err := runToolsLint(context.Background(), p, tt.args, &out)
			if code := exitCode(err); code != tt.code {
				t.Fatalf("exit %d (%v), want %d\n%s", code, err, tt.code, out.String())
			}
			if tt.code == exitBadInput {
				if out.Len() != 0 || err == nil || err.Error() == "" {
					t.Errorf("bad input wrote %q and err %v; want nothing and a message", out.String(), err)
				}
				return
			}
			var rep struct {
				Results map[string]json.RawMessage `json:"results"`
				Summary manifest.Summary           `json:"summary"`
			}
			if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
				t.Fatal(err)
			}
			if len(rep.Results) != tt.tools || rep.Summary.Tools != tt.tools {
				t.Errorf("%d results, summary %+v; want %d tools", len(rep.Results), rep.Summary, tt.tools)
			}
			for key, raw := range rep.Results {
				if err := result.CheckJSON(raw); err != nil {
					t.Errorf("%s: %v", key, err)
				}
			}
		})
	}
}

// TestToolsLintText compares the text report of examples/tools-broken
// with testdata/tools-lint.txtar (rewritten with -update).
func TestToolsLintText(t *testing.T) {
	t.Parallel()
	const golden = "testdata/tools-lint.txtar"
	var out bytes.Buffer
	err := runToolsLint(context.Background(), lintParams(formatText), []string{"../../examples/tools-broken"}, &out)
	if exitCode(err) != exitInvalid {
		t.Fatalf("exit %d (%v), want 1", exitCode(err), err)
	}
	got := strings.ReplaceAll(out.String(), "../../", "")
	if *update {
		ar := &txtar.Archive{Comment: []byte("judge tools lint examples/tools-broken --format text\n"),
			Files: []txtar.File{{Name: "stdout", Data: []byte(got)}}}
		if err := os.WriteFile(golden, txtar.Format(ar), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	ar, err := txtar.ParseFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if want := string(ar.Files[0].Data); got != want {
		t.Errorf("text report differs from %s (run with -update to accept):\ngot:\n%s\nwant:\n%s", golden, got, want)
	}
}

// TestToolsLintSARIF checks the SARIF log: version 2.1.0, one rule per
// rule id referenced by index, and every result on its file, line and
// column, agreeing with the JSON report.
func TestToolsLintSARIF(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(repoRoot(t), "examples", "tools-broken")
	var out bytes.Buffer
	if code := exitCode(runToolsLint(context.Background(), lintParams(formatSARIF), []string{dir}, &out)); code != exitInvalid {
		t.Fatalf("exit %d", code)
	}
	var log struct {
		Schema  string `json:"$schema"`
		Version string `json:"version"`
		Runs    []struct {
			Tool struct {
				Driver struct {
					Name  string `json:"name"`
					Rules []struct {
						ID      string `json:"id"`
						HelpURI string `json:"helpUri"`
					} `json:"rules"`
				} `json:"driver"`
			} `json:"tool"`
			Results []struct {
				RuleID    string `json:"ruleId"`
				RuleIndex int    `json:"ruleIndex"`
				Level     string `json:"level"`
				Message   struct {
					Text string `json:"text"`
				} `json:"message"`
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct {
							URI string `json:"uri"`
						} `json:"artifactLocation"`
						Region struct {
							StartLine   int `json:"startLine"`
							StartColumn int `json:"startColumn"`
						} `json:"region"`
					} `json:"physicalLocation"`
				} `json:"locations"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(out.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	if log.Version != "2.1.0" || !strings.Contains(log.Schema, "sarif-2.1.0") || len(log.Runs) != 1 || log.Runs[0].Tool.Driver.Name != "judge" {
		t.Fatalf("not a SARIF 2.1.0 log of judge: %s", out.String()[:200])
	}
	run := log.Runs[0]
	var jsonOut bytes.Buffer
	_ = runToolsLint(context.Background(), lintParams(formatJSON), []string{dir}, &jsonOut)
	var rep manifest.Report
	if err := json.Unmarshal(jsonOut.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	total := rep.Summary.Errors + rep.Summary.Warnings + rep.Summary.Infos
	if len(run.Results) != total || total == 0 {
		t.Fatalf("%d SARIF results, %d issues in the JSON report", len(run.Results), total)
	}
	want := map[string]bool{}
	for _, r := range rep.Results {
		for _, is := range r.Issues {
			want[is.Location+" "+is.Rule] = true
		}
	}
	for _, r := range run.Results {
		if r.RuleIndex >= len(run.Tool.Driver.Rules) || run.Tool.Driver.Rules[r.RuleIndex].ID != r.RuleID {
			t.Errorf("result %s has ruleIndex %d pointing elsewhere", r.RuleID, r.RuleIndex)
		}
		if r.Level != "error" && r.Level != "warning" && r.Level != "note" {
			t.Errorf("level %q", r.Level)
		}
		if len(r.Locations) != 1 {
			t.Errorf("result %s has %d locations", r.RuleID, len(r.Locations))
			continue
		}
		pl := r.Locations[0].PhysicalLocation
		// The URI is percent-encoded (a checkout path may hold a space, a
		// '%' or a '#'); the JSON report's location is the plain path.
		u, err := url.Parse(pl.ArtifactLocation.URI)
		if err != nil {
			t.Errorf("result %s: URI %q: %v", r.RuleID, pl.ArtifactLocation.URI, err)
			continue
		}
		loc := filepath.FromSlash(u.Path) + ":" + itoa(pl.Region.StartLine) + ":" + itoa(pl.Region.StartColumn)
		if !want[loc+" "+r.RuleID] {
			t.Errorf("SARIF result %s at %s is not in the JSON report", r.RuleID, loc)
		}
	}
	for _, rule := range run.Tool.Driver.Rules {
		if !strings.HasPrefix(rule.HelpURI, manifest.DocsURL) {
			t.Errorf("rule %s helpUri %q", rule.ID, rule.HelpURI)
		}
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestToolsLintMCPShared lints the captured tools/list answers of real
// servers through the command: exit 0 (warnings only) for each.
func TestToolsLintMCPShared(t *testing.T) {
	t.Parallel()
	dir := sharedtest.Dir(t, "mcp-tools", "mcp-snapshots")
	for _, name := range []string{"server-github.json", "server-filesystem.json", "cloudflare-radar.json"} {
		p := lintParams(formatText)
		p.mcp = filepath.Join(dir, name)
		var out bytes.Buffer
		if err := runToolsLint(context.Background(), p, nil, &out); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		if !strings.Contains(out.String(), "provider_incompatible") {
			t.Errorf("%s: no provider warning in\n%s", name, out.String())
		}
	}
}

// TestBinaryToolsLint runs the built binary: the default directory, stdin
// for --mcp, and the exit statuses.
func TestBinaryToolsLint(t *testing.T) {
	t.Parallel()
	r := runJudge(t, nil, "tools", "lint", "examples/tools-broken", "--format", "text")
	if r.code != exitInvalid || !strings.Contains(r.stdout, "Executor chain forms a cycle: deno_runtime -> node_runtime -> deno_runtime") {
		t.Errorf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	data, err := os.ReadFile(filepath.Join(repoRoot(t), "examples", "mcp-tools.json"))
	if err != nil {
		t.Fatal(err)
	}
	r = runJudge(t, data, "tools", "lint", "--mcp", "-")
	if r.code != exitOK || !strings.Contains(r.stdout, `"<stdin>:`) {
		t.Errorf("--mcp -: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = runJudge(t, nil, "tools", "lint")
	if r.code != exitBadInput || !strings.Contains(r.stderr, ".ai/tools") {
		t.Errorf("default dir absent: exit %d, stderr %q", r.code, r.stderr)
	}
}
