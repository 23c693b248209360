package server

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

var update = flag.Bool("update", false, "rewrite the response sections of testdata/*.txtar")

// TestGolden posts each testdata/*.txtar archive's request.json (to the
// path in its comment, /validate by default) and compares the answer, with
// duration_ms zeroed, to its response.json.
func TestGolden(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob(filepath.Join("testdata", "*.txtar"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden files: %v", err)
	}
	_, ts := newTestServer(t, Options{})
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			path := "/validate"
			for line := range strings.Lines(string(ar.Comment)) {
				if p, ok := strings.CutPrefix(strings.TrimSpace(line), "path: "); ok {
					path = p
				}
			}
			var req, want *txtar.File
			for i := range ar.Files {
				switch ar.Files[i].Name {
				case "request.json":
					req = &ar.Files[i]
				case "response.json":
					want = &ar.Files[i]
				}
			}
			if req == nil {
				t.Fatal("no request.json section")
			}
			r := do(t, ts, http.MethodPost, path, string(req.Data), nil)
			got := zeroDuration(t, r.body)
			switch {
			case r.status != http.StatusOK:
			case strings.HasPrefix(path, "/v1/calls/"):
				checkAnswer(t, r)
			default:
				mustResult(t, r)
			}
			got = append([]byte(fmt.Sprintf("status: %d\n", r.status)), got...)
			if *update {
				if want == nil {
					ar.Files = append(ar.Files, txtar.File{Name: "response.json"})
					want = &ar.Files[len(ar.Files)-1]
				}
				want.Data = got
				if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			if want == nil {
				t.Fatal("no response.json section; run go test -run TestGolden -update")
			}
			if !bytes.Equal(got, want.Data) {
				t.Errorf("the answer differs from %s (rerun with -update to accept):\n%s", file, lineDiff(string(want.Data), string(got)))
			}
		})
	}
}

// zeroDuration sets metadata.duration_ms to 0 in a result, keeping the
// server's formatting; other bodies are returned as they are.
func zeroDuration(t *testing.T, body []byte) []byte {
	t.Helper()
	type metadata struct {
		DurationMS json.Number `json:"duration_ms"`
	}
	var probe struct {
		Metadata *metadata `json:"metadata"`
		// The answers of /v1/calls/* hold the result in "result".
		Result *struct {
			Metadata *metadata `json:"metadata"`
		} `json:"result"`
	}
	if json.Unmarshal(body, &probe) != nil {
		return body
	}
	if probe.Metadata == nil && probe.Result != nil {
		probe.Metadata = probe.Result.Metadata
	}
	if probe.Metadata == nil {
		return body
	}
	old := fmt.Sprintf(`"duration_ms": %s,`, probe.Metadata.DurationMS)
	if !bytes.Contains(body, []byte(old)) {
		t.Fatalf("duration_ms not found as %q in\n%s", old, body)
	}
	return bytes.Replace(body, []byte(old), []byte(`"duration_ms": 0,`), 1)
}

// lineDiff shows want and got line by line, marking the lines that differ.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var sb strings.Builder
	for i := range max(len(w), len(g)) {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl == gl {
			fmt.Fprintf(&sb, "  %s\n", wl)
			continue
		}
		if i < len(w) {
			fmt.Fprintf(&sb, "- %s\n", wl)
		}
		if i < len(g) {
			fmt.Fprintf(&sb, "+ %s\n", gl)
		}
	}
	return sb.String()
}
