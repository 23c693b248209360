package llm

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// testKey is a cache key made of i.
func testKey(i int) string {
	h := sha256.Sum256(fmt.Appendf(nil, "%d", i))
	return hex.EncodeToString(h[:])
}

// TestDiskCachePrune fills a directory bounded to 10 entries: the
// eleventh answer written first removes the two oldest (room for itself,
// and a tenth of 10 more), and files that are not entries stay.
func TestDiskCachePrune(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	d := newDiskCache(dir, "m", 10)
	others := []string{"notes.txt", strings.Repeat("g", 64) + ".json"}
	for _, name := range others {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("keep"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	old := time.Now().Add(-time.Hour)
	for i := range 10 {
		d.put(testKey(i), `{"n":1}`)
		// Entry i is i minutes younger than entry 0.
		if err := os.Chtimes(filepath.Join(dir, testKey(i)+".json"), old, old.Add(time.Duration(i)*time.Minute)); err != nil {
			t.Fatal(err)
		}
	}
	d.put(testKey(10), `{"n":1}`)
	var got []string
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		got = append(got, e.Name())
	}
	want := others
	for i := 2; i <= 10; i++ {
		want = append(want, testKey(i)+".json")
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("got files\n%v\nwant\n%v", got, want)
	}
	if c, ok := d.get(testKey(1)); ok {
		t.Errorf("the second oldest entry is still read: %q", c)
	}
	if c, ok := d.get(testKey(10)); !ok || c != `{"n":1}` {
		t.Errorf("the newest entry: got %q, %v", c, ok)
	}
}

// TestDiskCacheTooLarge checks that an answer too large to be read back is
// not written.
func TestDiskCacheTooLarge(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	d := newDiskCache(dir, "m", 10)
	d.put(testKey(0), strings.Repeat("a", MaxCacheEntryBytes))
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("got %d files, want none", len(ents))
	}
}

// FuzzDiskEntry feeds arbitrary bytes to the entries' decoder: an entry is
// either refused or gives non-empty content that matches its digest, for
// the key and model asked; it never panics.
func FuzzDiskEntry(f *testing.F) {
	key := testKey(0)
	good := func(version int, k, model, content, digest string) string {
		return fmt.Sprintf(`{"version":%d,"key":%q,"model":%q,"content":%q,"sha256":%q}`, version, k, model, content, digest)
	}
	content := `{"verdicts":[{"id":0,"verdict":"met","confidence":0.9,"reason":"ok"}]}`
	for _, s := range []string{
		good(1, key, "m", content, sum(content)),
		good(1, key, "m", content, sum(content)) + "\n",
		good(1, key, "m", content, sum(content)) + good(1, key, "m", content, sum(content)),
		good(1, key, "m", content, sum("other")),
		good(2, key, "m", content, sum(content)),
		good(1, testKey(1), "m", content, sum(content)),
		good(1, key, "other", content, sum(content)),
		good(1, key, "m", "", sum("")),
		`{"version":1,"key":"` + key + `","extra":true}`,
		`{"version":1e400}`, `null`, `[]`, ``, `{`, "\xff\xfe",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := decodeEntry(data, key, "m")
		if err != nil {
			if c != "" {
				t.Fatalf("refused with content %q", c)
			}
			return
		}
		var e diskEntry
		if uerr := json.Unmarshal(data, &e); uerr != nil || c == "" || e.Content != c || e.SHA256 != sum(c) || e.Key != key || e.Model != "m" || e.Version != diskEntryVersion {
			t.Fatalf("accepted %q from %q (%v)", c, data, uerr)
		}
	})
}

// TestDiskCacheConcurrent has several disk caches of one directory, as
// several processes would, write and read the same keys at once while the
// directory is pruned: a read gives nothing or a whole entry of its own
// key, never half of one, and no temporary file is left.
func TestDiskCacheConcurrent(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	const writers, keys, bound = 4, 30, 10
	var wg sync.WaitGroup
	for w := range writers {
		d := newDiskCache(dir, "m", bound)
		wg.Go(func() {
			for round := range 3 {
				for i := range keys {
					want := fmt.Sprintf(`{"key":%d,"writer":%d,"round":%d}`, i, w, round)
					d.put(testKey(i), want)
					if c, ok := d.get(testKey(i)); ok && !strings.HasPrefix(c, fmt.Sprintf(`{"key":%d,"writer":`, i)) {
						t.Errorf("writer %d read %q under key %d", w, c, i)
					}
				}
			}
		})
	}
	wg.Wait()
	if tmp, err := filepath.Glob(filepath.Join(dir, ".*.tmp")); err != nil || len(tmp) != 0 {
		t.Errorf("temporary files left: %v (%v)", tmp, err)
	}
	entries, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil || len(entries) == 0 || len(entries) > bound+writers {
		t.Errorf("got %d entries (%v), want 1 to %d", len(entries), err, bound+writers)
	}
}
