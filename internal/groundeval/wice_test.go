package groundeval

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentjudge/judge"
	"github.com/agentjudge/judge/internal/sharedtest"
)

// TestWiCE runs the evaluation over WiCE's development claims and holds
// the figures recorded in docs/grounding.md: a change that flags more
// supported claims, or lets through more not_supported ones, fails here.
func TestWiCE(t *testing.T) {
	file := filepath.Join(sharedtest.Dir(t, "wice-dev"), "wice-claim-dev.jsonl")
	e, err := judge.New()
	if err != nil {
		t.Fatal(err)
	}
	rep, err := EvaluateWiCE(context.Background(), e, file, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	var sb strings.Builder
	rep.Write(&sb, 10)
	t.Logf("\n%s", sb.String())
	if s, p, n := rep.Claims["supported"], rep.Claims["partially_supported"], rep.Claims["not_supported"]; s.N != 114 || p.N != 192 || n.N != 43 {
		t.Errorf("claims per label %d, %d, %d; want 114, 192, 43", s.N, p.N, n.N)
	}
	const maxSupported, minNotSupported = 0.10, 0.88
	if r := rep.Claims["supported"].Rate(); r > maxSupported {
		t.Errorf("%.3f of supported claims flagged, above %.2f", r, maxSupported)
	}
	if r := rep.Claims["not_supported"].Rate(); r < minNotSupported {
		t.Errorf("%.3f of not_supported claims flagged, below %.2f", r, minNotSupported)
	}
}

func TestHalf(t *testing.T) {
	t.Parallel()
	n := map[string]int{}
	for i := range 1000 {
		n[Half("dev"+strings.Repeat("0", i%3)+string(rune('a'+i%26))+string(rune('a'+i/26%26)))]++
	}
	if n["a"]+n["b"] != 1000 || n["a"] < 300 || n["b"] < 300 {
		t.Errorf("halves %v", n)
	}
	// FNV-1a of the id, even or odd: fixed, so that the halves recorded
	// in docs/grounding.md stay the same claims.
	for id, want := range map[string]string{"dev02986": "b", "dev00624": "a", "dev00866": "a"} {
		if got := Half(id); got != want {
			t.Errorf("Half(%q) = %q, want %q", id, got, want)
		}
	}
}

// TestBadInput: a line that is not a WiCE row fails with its line number.
func TestBadInput(t *testing.T) {
	t.Parallel()
	e, err := judge.New()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for name, content := range map[string]string{
		"json.jsonl":  `{"label": "supported", "claim": "x", "evidence": [], "meta": {"id": "a"}}` + "\n{broken\n",
		"label.jsonl": `{"label": "maybe", "claim": "x", "evidence": [], "meta": {"id": "a"}}`,
	} {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := EvaluateWiCE(context.Background(), e, path, "", nil)
		want := path + ":2:"
		if name == "label.jsonl" {
			want = path + ":1: label"
		}
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%s: err %v, want prefix %q", name, err, want)
		}
	}
}
