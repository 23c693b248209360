package source_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/agentjudge/judge/internal/source"
)

// FuzzLoadDir writes a file of any name and content into a source
// directory that also holds symbolic links leading out of it, and reads
// the directory: the links are never followed (what they lead to is never
// read); a .txt or .md file of UTF-8 text is one document whose id is its
// path relative to the directory and whose content is the file's, minus a
// byte-order mark; a file that is not UTF-8 is refused with an error
// naming it; and every error names the directory.
func FuzzLoadDir(f *testing.F) {
	for _, s := range []struct{ name, content string }{
		{"cve.md", "# CVE-2024-1\nCVSS 9.8.\n"}, {"a/b/notes.txt", "\ufeffThe score is 7."}, {"nvd.json", `{"url": "https://x.test", "content": "c"}`},
		{"bad.txt", "a\xffb"}, {".hidden/x.txt", "hidden"}, {"x.TXT", ""}, {"data.json", `{"a": [1, 2]}`}, {"ignored.bin", "\x00"},
		{"..", "x"}, {"a/../b.md", "y"}, {"/abs.md", "z"},
	} {
		f.Add(s.name, s.content)
	}
	f.Fuzz(func(t *testing.T, name, content string) {
		base := t.TempDir()
		dir, outside := filepath.Join(base, "sources"), filepath.Join(base, "outside")
		for _, d := range []string{dir, outside} {
			if err := os.MkdirAll(d, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		const secret = "SECRET_OUTSIDE_THE_DIRECTORY"
		if err := os.WriteFile(filepath.Join(outside, "secret.txt"), []byte(secret), 0o644); err != nil {
			t.Fatal(err)
		}
		for link, target := range map[string]string{"link.txt": filepath.Join(outside, "secret.txt"), "linkdir": outside, "rel.md": "../outside/secret.txt"} {
			if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
				t.Skipf("no symbolic links here: %v", err)
			}
		}
		clean := filepath.ToSlash(filepath.Clean(name))
		valid := name != "" && !strings.ContainsRune(name, 0) && clean == name && !filepath.IsAbs(name) &&
			clean != "." && !strings.HasPrefix(clean, "../") && clean != ".." && !strings.Contains(name, `\`) && len(name) < 200
		for _, part := range strings.Split(clean, "/") {
			if part == "link.txt" || part == "linkdir" || part == "rel.md" || len(part) > 100 {
				valid = false
			}
		}
		if valid {
			p := filepath.Join(dir, filepath.FromSlash(name))
			if os.MkdirAll(filepath.Dir(p), 0o755) != nil || os.WriteFile(p, []byte(content), 0o644) != nil {
				valid = false
			}
		}
		docs, err := source.LoadDir(dir)
		if err != nil {
			if !strings.Contains(err.Error(), dir) {
				t.Fatalf("error %q does not name the directory", err)
			}
			if valid && utf8.ValidString(content) {
				t.Fatalf("%q of UTF-8 text refused: %v", name, err)
			}
			if !strings.Contains(err.Error(), filepath.FromSlash(name)) {
				t.Fatalf("error %q does not name the file %q", err, name)
			}
			return
		}
		hidden := strings.HasPrefix(clean, ".") || strings.Contains(clean, "/.")
		ext := strings.ToLower(filepath.Ext(name))
		wantDoc := valid && !hidden && (ext == ".txt" || ext == ".md" || ext == ".markdown")
		if valid && !hidden && ext != "" && !utf8.ValidString(content) && (wantDoc || ext == ".json") {
			t.Fatalf("%q is not UTF-8 but was read", name)
		}
		found := false
		for _, d := range docs {
			if strings.Contains(d.Content, secret) {
				t.Fatalf("document %q holds the file outside the directory: a link was followed", d.ID)
			}
			if d.ID == name {
				found = true
				if want := strings.TrimPrefix(content, "\ufeff"); wantDoc && d.Content != want {
					t.Fatalf("document %q: content %q, want %q", name, d.Content, want)
				}
			}
		}
		if wantDoc && !found {
			t.Fatalf("%q was not read as a document (documents: %d)", name, len(docs))
		}
	})
}
