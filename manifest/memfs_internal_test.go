package manifest

import (
	"errors"
	"io/fs"
	"testing"
	"testing/fstest"
)

// memFS passes the standard library's file-system conformance test
// (fstest.TestFS: Open, ReadDir in parts, Stat, reads and seeks) on a
// tree of nested directories, and refuses what is not there.
func TestMemFS(t *testing.T) {
	t.Parallel()
	m := newMemFS(map[string][]byte{
		"a.yaml":            []byte("tool_id: a\n"),
		"tools/b.yaml":      []byte("tool_id: b\n"),
		"tools/deep/c.yaml": []byte("tool_id: c\n"),
		"tools/deep/d.md":   nil,
		".judge-registry":   []byte("types: {}\n"),
	})
	if err := fstest.TestFS(m, "a.yaml", "tools/b.yaml", "tools/deep/c.yaml", "tools/deep/d.md", ".judge-registry"); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"missing", "tools/missing.yaml", "tools/deep/c.yaml/x"} {
		if _, err := m.Open(name); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("Open(%q): %v, want not exist", name, err)
		}
	}
	for _, name := range []string{"../a.yaml", "/a.yaml", "tools/"} {
		if _, err := m.Open(name); !errors.Is(err, fs.ErrInvalid) {
			t.Errorf("Open(%q): %v, want invalid", name, err)
		}
	}
	if _, err := m.ReadDir("a.yaml"); err == nil {
		t.Error("ReadDir of a file succeeded")
	}
}
