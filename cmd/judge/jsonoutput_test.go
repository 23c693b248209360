package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestMalformedJSONOutput: an output meant as JSON (a .json file, or with
// --schema an output that starts like JSON or is empty) that does not parse
// is headlined by its parse error with line and column, not by the schema's
// "has type string, expected object".
func TestMalformedJSONOutput(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name, data string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	schema := write("s.schema.json", `{"type": "object", "required": ["a"]}`)
	bad := write("bad.json", "{\"a\": 1,,}")
	badTxt := write("bad.txt", "{\n  \"a\": 1,\n  ,\n}")
	empty := write("empty.json", "")
	prose := write("prose.md", "The answer:\n```json\n{\"a\": 1}\n```\n")
	tests := []struct {
		name  string
		args  []string
		stdin string
		code  int
		// stderr matches the whole of stderr.
		stderr string
	}{
		{"json file", []string{"validate", bad}, "", 2, `^judge: .*bad\.json:1:9: the output is not valid JSON \(it is a \.json file\): invalid character ',' .*\n$`},
		{"json file with schema", []string{"validate", bad, "--schema", schema}, "", 2, `^judge: .*bad\.json:1:9: the output is not valid JSON`},
		{"text file with schema", []string{"validate", badTxt, "--schema", schema}, "", 2, `^judge: .*bad\.txt:3:3: the output is not valid JSON \(--schema expects JSON\): `},
		{"stdin with schema", []string{"validate", "-", "--schema", schema}, "{\"a\": 1,,}", 2, `^judge: <stdin>:1:9: the output is not valid JSON \(--schema expects JSON\): `},
		{"empty stdin with schema", []string{"validate", "-", "--schema", schema}, "", 2, `^judge: <stdin>: the output is empty, but --schema expects JSON, so it must hold a JSON value\n$`},
		{"empty json file", []string{"validate", empty}, "", 2, `^judge: .*empty\.json: the output is empty, but it is a \.json file, so it must hold a JSON value\n$`},
		{"prose with a fence and a schema is text", []string{"validate", prose, "--schema", schema}, "", 0, `^$`},
		{"broken JSON on stdin without schema is text", []string{"validate", "-", "--types", "quality"}, "{\"a\": 1,,}", 0, `^$`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var out, errOut bytes.Buffer
			code := Execute(context.Background(), append(tc.args, "--format", "json"), strings.NewReader(tc.stdin), &out, &errOut)
			if code != tc.code {
				t.Errorf("exit %d, want %d\nstdout: %s\nstderr: %s", code, tc.code, out.String(), errOut.String())
			}
			if !regexp.MustCompile(tc.stderr).MatchString(errOut.String()) {
				t.Errorf("stderr %q does not match %q", errOut.String(), tc.stderr)
			}
			if strings.Contains(out.String()+errOut.String(), "has type string") {
				t.Errorf("the schema's type mismatch is reported: %s", out.String())
			}
		})
	}
}
