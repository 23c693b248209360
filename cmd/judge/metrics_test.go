package main

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

func TestRunMetrics(t *testing.T) {
	t.Parallel()
	dir := writeFiles(t, map[string]string{
		"stats.py": "def mean(xs):\n    if not xs or len(xs) == 0:\n        return 0\n    return sum(xs) / len(xs)\n\n\ndef ok():\n    return 1\n",
		"bad.go":   "package p\nfunc f( {\n",
	})
	py, bad := filepath.Join(dir, "stats.py"), filepath.Join(dir, "bad.go")
	type fn struct {
		Name       string `json:"name"`
		Line       int    `json:"line"`
		Complexity int    `json:"complexity"`
		Length     int    `json:"length"`
	}
	tests := []struct {
		name     string
		args     []string
		stdin    string
		lang     string
		wantCode int
		wantLang string
		wantFns  []fn
		wantErr  string
	}{
		{name: "by extension", args: []string{py}, wantLang: "python",
			wantFns: []fn{{"mean", 1, 3, 4}, {"ok", 7, 1, 2}}},
		{name: "stdin with --lang", stdin: "package p\nfunc F(a bool) { if a {} }\n", lang: "golang", wantLang: "go",
			wantFns: []fn{{"F", 2, 2, 1}}},
		{name: "stdin detected", stdin: "const f = (a) => a ?? 1;\nconsole.log(f());\n", wantLang: "javascript",
			wantFns: []fn{{"f", 1, 2, 1}}},
		{name: "unknown language", args: []string{py}, lang: "cobol", wantCode: exitBadInput, wantErr: `--lang "cobol"`},
		{name: "syntax error", args: []string{bad}, wantCode: exitBadInput, wantErr: "bad.go:2:"},
		{name: "missing file", args: []string{filepath.Join(dir, "none.py")}, wantCode: exitBadInput, wantErr: "none.py"},
		{name: "prose", stdin: "Hello there, this is not code.", wantCode: exitBadInput, wantErr: "--lang"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			params := newMetricsParams()
			params.lang = tt.lang
			params.stdin = strings.NewReader(tt.stdin)
			var out bytes.Buffer
			err := runMetrics(context.Background(), params, tt.args, &out)
			if code := exitCode(err); code != tt.wantCode {
				t.Fatalf("exit %d, want %d (err %v)", code, tt.wantCode, err)
			}
			if tt.wantCode != 0 {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want it to mention %q", err, tt.wantErr)
				}
				return
			}
			var got struct {
				Language  string `json:"language"`
				Functions []fn   `json:"functions"`
			}
			if err := json.Unmarshal(out.Bytes(), &got); err != nil {
				t.Fatalf("%v: %s", err, out.String())
			}
			if got.Language != tt.wantLang || len(got.Functions) != len(tt.wantFns) {
				t.Fatalf("got %+v, want %s %+v", got, tt.wantLang, tt.wantFns)
			}
			for i, w := range tt.wantFns {
				if got.Functions[i] != w {
					t.Errorf("function %d: %+v, want %+v", i, got.Functions[i], w)
				}
			}
		})
	}
}

func TestBinaryMetrics(t *testing.T) {
	t.Parallel()
	r := runJudge(t, []byte("def f(a):\n    return a and a.b\n"), "metrics", "-", "--lang", "py")
	if r.code != 0 || !strings.Contains(r.stdout, `"complexity": 2`) {
		t.Fatalf("exit %d, stdout %s, stderr %s", r.code, r.stdout, r.stderr)
	}
	r = runJudge(t, []byte("def f(:\n"), "metrics", "-", "--lang", "py")
	if r.code != exitBadInput || !strings.Contains(r.stderr, "<stdin>:1:") {
		t.Fatalf("exit %d, stderr %s", r.code, r.stderr)
	}
}
