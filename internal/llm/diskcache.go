package llm

import (
	"bytes"
	"cmp"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"
)

// Bounds of the disk cache ([Config.CacheDir]).
const (
	// MaxCacheDirEntries bounds the entries kept in a cache directory:
	// before an answer is written to a directory that holds this many, the
	// oldest tenth of them (by modification time) is removed.
	MaxCacheDirEntries = 10000
	// MaxCacheEntryBytes bounds the size of one entry: a larger file is
	// not read (it is a miss), and a larger answer is not written.
	MaxCacheEntryBytes = 1 << 20
)

// diskEntryVersion is the version of the entries' format; an entry of
// another version is a miss.
const diskEntryVersion = 1

// diskEntry is the content of one file of the disk cache, <key>.json.
type diskEntry struct {
	Version int    `json:"version"`
	Key     string `json:"key"`     // the file's own key, so a renamed file is a miss
	Model   string `json:"model"`   // the model that answered
	Content string `json:"content"` // the answer as the model gave it, not yet decoded
	SHA256  string `json:"sha256"`  // of Content, in hex: a damaged entry is a miss
}

// diskCache keeps answers in a directory across processes, one file per
// question. Every failure to read or write it is a miss, never an error:
// the cache saves calls, it is not needed to answer. It is safe for
// concurrent use, by several processes too: files are replaced whole, by
// rename.
type diskCache struct {
	dir   string
	model string
	max   int // entries kept at most
}

// newDiskCache returns the disk cache of dir for model, or nil when dir is
// "" (no disk cache; the methods of a nil *diskCache do nothing).
func newDiskCache(dir, model string, entries int) *diskCache {
	if dir == "" {
		return nil
	}
	return &diskCache{dir: dir, model: model, max: entries}
}

// get returns the content kept under key, or ok false. Only a regular
// file directly in the directory is read: a symbolic link is a miss, and
// nothing outside the directory is opened (os.Root).
func (d *diskCache) get(key string) (content string, ok bool) {
	if d == nil {
		return "", false
	}
	root, err := os.OpenRoot(d.dir)
	if err != nil {
		return "", false
	}
	defer root.Close()
	name := key + ".json"
	if fi, err := root.Lstat(name); err != nil || !fi.Mode().IsRegular() {
		return "", false
	}
	f, err := root.Open(name)
	if err != nil {
		return "", false
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() || fi.Size() > MaxCacheEntryBytes {
		return "", false
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxCacheEntryBytes+1))
	if err != nil || len(data) > MaxCacheEntryBytes {
		return "", false
	}
	content, err = decodeEntry(data, key, d.model)
	return content, err == nil
}

// put keeps content under key: written to a temporary file of the
// directory, mode 0600, then renamed over <key>.json, so that a reader
// never sees half an entry. The directory is made, mode 0700, when
// missing. A failure leaves the cache as it was.
func (d *diskCache) put(key, content string) {
	if d == nil {
		return
	}
	data, err := json.Marshal(diskEntry{Version: diskEntryVersion, Key: key, Model: d.model, Content: content, SHA256: sum(content)})
	if err != nil || len(data) > MaxCacheEntryBytes {
		return
	}
	if err := os.MkdirAll(d.dir, 0o700); err != nil {
		return
	}
	root, err := os.OpenRoot(d.dir)
	if err != nil {
		return
	}
	defer root.Close()
	d.prune(root)
	tmp := "." + key + "." + strings.ToLower(rand.Text()) + ".tmp"
	f, err := root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return
	}
	_, werr := f.Write(data)
	if cerr := f.Close(); werr != nil || cerr != nil {
		_ = root.Remove(tmp)
		return
	}
	// No fsync: an entry cut short by a crash is a miss, not a wrong answer.
	if err := root.Rename(tmp, key+".json"); err != nil {
		_ = root.Remove(tmp)
	}
}

// prune removes the oldest tenth of the entries, by modification time,
// when the directory holds d.max of them or more. Only files named as
// entries are counted and removed: whatever else the directory holds is
// left alone. The directory is listed by name only, since a directory
// opened in an os.Root stats every entry it lists (ReadDir would cost a
// stat per file on every write); entries are stat'ed only when pruning.
func (d *diskCache) prune(root *os.Root) {
	dir, err := root.Open(".")
	if err != nil {
		return
	}
	names, err := dir.Readdirnames(-1)
	_ = dir.Close()
	if err != nil {
		return
	}
	names = slices.DeleteFunc(names, func(name string) bool { return !isEntryName(name) })
	if len(names) < d.max {
		return
	}
	type entry struct {
		name string
		mod  time.Time
	}
	old := make([]entry, 0, len(names))
	for _, name := range names {
		if fi, err := root.Lstat(name); err == nil {
			old = append(old, entry{name, fi.ModTime()})
		}
	}
	slices.SortFunc(old, func(a, b entry) int {
		return cmp.Or(a.mod.Compare(b.mod), strings.Compare(a.name, b.name))
	})
	// An entry another process removed since the listing is not in old,
	// so old may hold fewer than d.max: then drop is less, or nothing.
	drop := min(max(len(old)-d.max+1+d.max/10, 0), len(old))
	for _, e := range old[:drop] {
		_ = root.Remove(e.name)
	}
}

// isEntryName reports whether name is that of an entry: a cache key (64
// lowercase hex digits) and .json.
func isEntryName(name string) bool {
	key, ok := strings.CutSuffix(name, ".json")
	if !ok || len(key) != 2*sha256.Size {
		return false
	}
	for _, c := range key {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// decodeEntry returns the content of the entry data read from the file of
// key, for model. An entry that is not exactly one JSON object of the
// current version, names another key or model, or whose content is empty
// or does not match its digest, is an error.
func decodeEntry(data []byte, key, model string) (string, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var e diskEntry
	if err := dec.Decode(&e); err != nil {
		return "", fmt.Errorf("not a cache entry: %w", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return "", errors.New("not a cache entry: data after the object")
	}
	switch {
	case e.Version != diskEntryVersion:
		return "", fmt.Errorf("entry version %d, want %d", e.Version, diskEntryVersion)
	case e.Key != key:
		return "", errors.New("the entry is of another question")
	case e.Model != model:
		return "", fmt.Errorf("the entry is of model %q, not %q", e.Model, model)
	case e.Content == "":
		return "", errors.New("the entry has no content")
	case e.SHA256 != sum(e.Content):
		return "", errors.New("the entry's content does not match its digest")
	}
	return e.Content, nil
}

// sum is the SHA-256 of s in hex.
func sum(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}
