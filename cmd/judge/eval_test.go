package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentjudge/judge/internal/sharedtest"
)

// evalSlice writes the first rows of the WiCE development file and the
// first samples of each SummEdits file to dir, and returns their paths:
// a slice of the real data small enough for a golden test.
func evalSlice(t *testing.T, dir string) (string, []string) {
	t.Helper()
	const wiceRows, summEditsSamples = 90, 20
	f, err := os.Open(filepath.Join(sharedtest.Dir(t, "wice-dev"), "wice-claim-dev.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var b strings.Builder
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 1<<20), 16<<20)
	for n := 0; n < wiceRows && sc.Scan(); n++ {
		b.WriteString(sc.Text() + "\n")
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	wice := filepath.Join(dir, "wice.jsonl")
	if err := os.WriteFile(wice, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	var se []string
	for _, name := range []string{"summedits_news.json", "summedits_podcast.json", "summedits_samsum.json"} {
		data, err := os.ReadFile(filepath.Join(sharedtest.Dir(t, "summedits-dev"), name))
		if err != nil {
			t.Fatal(err)
		}
		var samples []json.RawMessage
		if err := json.Unmarshal(data, &samples); err != nil {
			t.Fatal(err)
		}
		out, err := json.Marshal(samples[:summEditsSamples])
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, out, 0o644); err != nil {
			t.Fatal(err)
		}
		se = append(se, path)
	}
	return wice, se
}

// TestEvalGolden runs judge eval on a slice of WiCE and SummEdits and
// compares the report with testdata/eval.golden; -update rewrites it.
func TestEvalGolden(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	wice, se := evalSlice(t, dir)
	params := newEvalParams()
	params.wice, params.summedits, params.top = wice, se, 3
	var out bytes.Buffer
	if err := runEval(context.Background(), params, nil, &out); err != nil {
		t.Fatal(err)
	}
	got := []byte(strings.ReplaceAll(out.String(), dir, "DIR"))
	const golden = "testdata/eval.golden"
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("judge eval differs from %s (run with -update to accept):\ngot:\n%s\nwant:\n%s", golden, got, want)
	}
}

// TestEvalBadInput: every bad input is a clear error with exit status 2,
// naming the flag and, for a bad line, the file and line.
func TestEvalBadInput(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.jsonl")
	if err := os.WriteFile(bad, []byte(`{"label": "supported", "claim": "x", "evidence": [], "meta": {"id": "a"}}`+"\n{broken\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	notArray := filepath.Join(dir, "se.json")
	if err := os.WriteFile(notArray, []byte(`{"id": 1}`), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		params evalParams
		want   string
	}{
		{"nothing", evalParams{}, "nothing to evaluate"},
		{"half", evalParams{wice: bad, half: "c"}, `--half "c"`},
		{"top", evalParams{wice: bad, top: -1}, "--top -1"},
		{"missing", evalParams{wice: filepath.Join(dir, "none.jsonl")}, "--wice: open " + filepath.Join(dir, "none.jsonl")},
		{"bad line", evalParams{wice: bad}, "--wice: " + bad + ":2:"},
		{"summedits not an array", evalParams{summedits: []string{notArray}}, "--summedits: " + notArray + ":"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var out bytes.Buffer
			err := runEval(context.Background(), tt.params, nil, &out)
			if err == nil || !strings.Contains(err.Error(), tt.want) || exitCode(err) != exitBadInput {
				t.Errorf("err %v (exit %d), want exit 2 and %q", err, exitCode(err), tt.want)
			}
			if out.Len() != 0 {
				t.Errorf("wrote %q before failing", out.String())
			}
		})
	}
}

// TestEvalBinary runs the judge binary's eval on the slice of the real
// data: the report on stdout is the golden one, and a missing file exits
// with status 2 and says which.
func TestEvalBinary(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	wice, se := evalSlice(t, dir)
	r := runJudge(t, nil, "eval", "--wice", wice, "--summedits", strings.Join(se, ","), "--top", "3")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	want, err := os.ReadFile("testdata/eval.golden")
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.ReplaceAll(r.stdout, dir, "DIR"); got != string(want) {
		t.Errorf("judge eval differs from testdata/eval.golden:\n%s", got)
	}
	missing := filepath.Join(dir, "none.jsonl")
	r = runJudge(t, nil, "eval", "--wice", missing)
	if r.code != exitBadInput || !strings.Contains(r.stderr, missing) {
		t.Errorf("missing file: exit %d, stderr %q; want 2 naming %s", r.code, r.stderr, missing)
	}
}
