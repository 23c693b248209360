package toolpin_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentjudge/judge/toolpin"
)

// FuzzFile loads arbitrary pin files: an error or pins, never a panic;
// loaded pins survive a save and a load unchanged in number.
func FuzzFile(f *testing.F) {
	f.Add([]byte(`{"version":1,"pins":[{"server":"s","tool":"t","hash":"h","body":"b","first_seen":"2026-01-01T00:00:00Z"}]}`))
	f.Add([]byte(`{"version":1,"pins":null}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), "pins.json")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		p, err := toolpin.New(context.Background(), toolpin.File{Path: path})
		if err != nil {
			return
		}
		if _, err := p.Observe(context.Background(), "fuzz", []toolpin.Tool{{Name: "x"}}); err != nil {
			t.Fatal(err)
		}
		q, err := toolpin.New(context.Background(), toolpin.File{Path: path})
		if err != nil {
			t.Fatalf("a saved pin file does not load: %v", err)
		}
		if len(q.Pins()) != len(p.Pins()) {
			t.Fatalf("%d pins saved, %d loaded", len(p.Pins()), len(q.Pins()))
		}
	})
}
