package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// TestMetricsGolden runs judge metrics on each source of
// testdata/metrics.txtar, in JSON and in text, and compares the output
// with the archive's NAME.json and NAME.text sections; -update rewrites
// them.
func TestMetricsGolden(t *testing.T) {
	t.Parallel()
	const file = "testdata/metrics.txtar"
	ar, err := txtar.ParseFile(file)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	got := map[string][]byte{}
	for _, f := range ar.Files {
		if strings.HasSuffix(f.Name, ".json") || strings.HasSuffix(f.Name, ".text") {
			continue
		}
		path := filepath.Join(dir, f.Name)
		if err := os.WriteFile(path, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
		for _, format := range []string{formatJSON, formatText} {
			params := newMetricsParams()
			params.format.value = format
			var out bytes.Buffer
			if err := runMetrics(context.Background(), params, []string{path}, &out); err != nil {
				t.Fatalf("%s --format %s: %v", f.Name, format, err)
			}
			got[f.Name+"."+format] = out.Bytes()
		}
	}
	changed := false
	for i, f := range ar.Files {
		g, ok := got[f.Name]
		if !ok {
			continue
		}
		delete(got, f.Name)
		if *update {
			ar.Files[i].Data, changed = g, true
		} else if !bytes.Equal(g, f.Data) {
			t.Errorf("%s differs (run with -update to accept):\ngot:\n%s\nwant:\n%s", f.Name, g, f.Data)
		}
	}
	for name := range got {
		t.Errorf("testdata/metrics.txtar has no section %s", name)
	}
	if changed {
		if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
