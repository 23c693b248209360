package main

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentjudge/judge/result"
)

// TestBinaryWithoutCgo builds judge as it is built on a machine without a
// C compiler (CGO_ENABLED=0): it builds, the README's first command answers
// as with cgo, and code it cannot parse is a not_checked note that names
// the fix, never a build failure ("build constraints exclude all Go files").
func TestBinaryWithoutCgo(t *testing.T) {
	t.Parallel()
	gotool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command is needed to build judge: %v", err)
	}
	bin := filepath.Join(t.TempDir(), "judge-nocgo")
	build := exec.Command(gotool, "build", "-o", bin, ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("CGO_ENABLED=0 go build: %v\n%s", err, out)
	}
	run := func(args ...string) (string, int) {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, bin, args...)
		cmd.Dir = repoRoot(t)
		out, err := cmd.Output()
		code := 0
		if ee := (*exec.ExitError)(nil); err != nil && !errors.As(err, &ee) {
			t.Fatalf("judge %s: %v", strings.Join(args, " "), err)
		} else if ee != nil {
			code = ee.ExitCode()
		}
		return string(out), code
	}

	// The README's first command: the same result as the cgo build's golden.
	out, code := run("validate", "examples/ticket.json", "--schema", "examples/ticket.schema.json", "--rules", "examples/ticket.rules.json", "--format", "text")
	golden, err := os.ReadFile(filepath.Join("testdata", "ticket.text.golden"))
	if err != nil {
		t.Fatal(err)
	}
	if code != 1 || out != string(golden) {
		t.Errorf("exit %d, want 1; output:\n%s\nwant:\n%s", code, out, golden)
	}

	// Code is not parsed: a not_checked note naming the fix.
	out, code = run("validate", "examples/code-answer.md", "--types", "quality", "--format", "json")
	var r result.ValidationResult
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("exit %d: %v\n%s", code, err, out)
	}
	found := false
	for _, is := range r.Issues {
		if is.Type == result.NotChecked && strings.Contains(is.Message, "built without cgo") && strings.Contains(is.Message, "CGO_ENABLED=1") {
			found = true
		}
	}
	if !found || r.Confidence >= 1 {
		t.Errorf("no not_checked note naming the cgo fix, or full confidence %v: %+v", r.Confidence, r.Issues)
	}
}
