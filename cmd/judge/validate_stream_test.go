package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"golang.org/x/tools/txtar"
)

// durationRE finds the one field of a result that changes between runs.
var durationRE = regexp.MustCompile(`"duration_ms":[0-9.e-]+`)

// TestValidateStreamProcess runs judge validate - --stream as a process fed
// through a pipe in chunks. After each chunk but the last it reads the
// events the chunk must have made certain before writing the next, so an
// event that waited for the end of the input would hang the test (until
// its deadline) rather than pass. The lines, durations zeroed, are
// compared with testdata/validate-stream.txtar; -update rewrites them.
func TestValidateStreamProcess(t *testing.T) {
	t.Parallel()
	const file = "testdata/validate-stream.txtar"
	ar, err := txtar.ParseFile(file)
	if err != nil {
		t.Fatal(err)
	}
	section := func(name string) (int, []byte) {
		for i, f := range ar.Files {
			if f.Name == name {
				return i, f.Data
			}
		}
		return -1, nil
	}
	_, sch := section("schema.json")
	schemaPath := filepath.Join(t.TempDir(), "schema.json")
	if err := os.WriteFile(schemaPath, sch, 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		chunks []string
		// lines is how many lines each chunk but the last must make
		// appear before the next is written.
		lines []int
		code  int
		// open keeps stdin open after the chunks: judge must stop by
		// itself (at a malformed byte).
		open bool
	}{
		{"invalid.ndjson", []string{`{"kind": "c`, `x", "tags": ["a", "b", "c"`, `], "owner": 5}`}, []int{1, 1}, 1, false},
		{"valid.ndjson", []string{`{"kind": "a", `, `"owner": "o", "tags": []}`}, []int{0}, 0, false},
		{"missing.ndjson", []string{"{\"kind\": \"b\"\n", "}\n"}, []int{0}, 1, false},
		{"malformed.ndjson", []string{`{"kind": "a",, "owner": "o"`}, nil, 2, true},
	}
	changed := false
	for _, tc := range tests {
		got, stderr, code := streamProcess(t, schemaPath, tc.chunks, tc.lines, tc.open)
		if code != tc.code {
			t.Errorf("%s: exit %d, want %d; stderr %s", tc.name, code, tc.code, stderr)
		}
		got = durationRE.ReplaceAll(got, []byte(`"duration_ms":0`))
		if tc.code == 2 {
			got = append(got, []byte("stderr: "+stderr)...)
		}
		idx, want := section(tc.name)
		switch {
		case *update && idx < 0:
			ar.Files = append(ar.Files, txtar.File{Name: tc.name, Data: got})
			changed = true
		case *update:
			ar.Files[idx].Data, changed = got, true
		case idx < 0:
			t.Errorf("no section %s in %s; run with -update", tc.name, file)
		case !bytes.Equal(want, got):
			t.Errorf("%s differs from %s (run with -update to accept):\n%s", tc.name, file, lineDiff(string(want), string(got)))
		}
	}
	if changed {
		if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// streamProcess runs judge validate - --schema schemaPath --stream, writes
// chunks to its stdin one by one, reading lines[i] lines of its output
// after chunk i before writing chunk i+1, and returns its stdout, stderr
// and exit status.
func streamProcess(t *testing.T, schemaPath string, chunks []string, lines []int, open bool) ([]byte, string, int) {
	t.Helper()
	// Build first: building judge may take minutes on a busy machine, and
	// the minute is for the run alone.
	bin := judgeBin(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "validate", "-", "--schema", schemaPath, "--stream")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	r := bufio.NewReader(stdout)
	var got []byte
	for i, c := range chunks {
		if _, err := io.WriteString(stdin, c); err != nil {
			t.Fatalf("writing chunk %d: %v", i, err)
		}
		if i < len(lines) {
			for range lines[i] {
				line, err := r.ReadBytes('\n')
				if err != nil {
					t.Fatalf("after chunk %d: %v (read %q)", i, err, got)
				}
				got = append(got, line...)
			}
		}
	}
	if !open {
		stdin.Close()
	}
	rest, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, rest...)
	err = cmd.Wait()
	stdin.Close()
	code := 0
	if ee := (*exec.ExitError)(nil); errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return got, strings.TrimSpace(stderr.String()) + "\n", code
}
