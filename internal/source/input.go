package source

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/url"
	"path"
	"strings"
)

// Missing is a trusted_sources entry that names no given source.
type Missing struct {
	Index int    // its index in trusted_sources
	URI   string // the entry
}

// Cache holds built indexes by key, building a missing one with build;
// *layer.Cache is one. A nil Cache builds every time.
type Cache interface {
	Load(key string, build func() (any, error)) (any, error)
}

// IndexError is a source that cannot be indexed: the Index-th of the
// request's sources.
type IndexError struct {
	Index int
	Err   error
}

func (e *IndexError) Error() string { return fmt.Sprintf("sources[%d]: %v", e.Index, e.Err) }

// Unwrap returns the cause.
func (e *IndexError) Unwrap() error { return e.Err }

// load is cache.Load, or build itself without a cache.
func load(cache Cache, key string, build func() (any, error)) (any, error) {
	if cache == nil {
		return build()
	}
	return cache.Load(key, build)
}

// FromInput indexes a request's sources through cache, keyed by a SHA-256
// of every source's id, URL, title and content, so that a set of documents
// sent again, or resolved again from the engine's source directory, is
// indexed once. A source without an id is named sources[i]. It returns the
// trusted entries that no source answers to (by id, URL, or file name; see
// [Matches]). It fails with an *IndexError for a source that cannot be
// indexed, and with ctx's error when ctx ends.
func FromInput(ctx context.Context, sources []Doc, trusted []string, cache Cache) (*Index, []Missing, error) {
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	docs := make([]Doc, len(sources))
	h := sha256.New()
	for i, d := range sources {
		if d.ID == "" {
			d.ID = fmt.Sprintf("sources[%d]", i)
		}
		for _, f := range []string{d.ID, d.URL, d.Title, d.Content} {
			fmt.Fprintf(h, "%d:%s", len(f), f)
		}
		docs[i] = d
	}
	// One entry per set of sources, so that a set sent again is found
	// whole; and, for sets small enough not to flood the cache, one entry
	// per document (by id and content only), so that a document shared by
	// several sets, or indexed by Warm at start, is indexed once.
	v, err := load(cache, "sources:"+hex.EncodeToString(h.Sum(nil)), func() (any, error) {
		parts := make([]*DocIndex, len(docs))
		// No ctx check here: failures are cached, and a build the deadline
		// abandons still finishes, for the next request.
		for i, d := range docs {
			var x *DocIndex
			var err error
			if len(docs) <= maxDocEntries {
				x, err = loadDoc(cache, d)
			} else {
				x, err = Build(d)
			}
			if err != nil {
				return nil, &IndexError{Index: i, Err: err}
			}
			parts[i] = x
		}
		return NewIndexAs(parts, docs), nil
	})
	if err != nil {
		return nil, nil, err
	}
	ix := v.(*Index)
	var missing []Missing
	for i, uri := range trusted {
		found := false
		for _, d := range ix.Docs() {
			if Matches(d, uri) {
				found = true
				break
			}
		}
		if !found {
			missing = append(missing, Missing{Index: i, URI: uri})
		}
	}
	return ix, missing, nil
}

// maxDocEntries is the largest set of sources whose documents are cached
// one by one as well as together.
const maxDocEntries = 256

// docKey is the cache key of one document's index: its id, format and
// content, not its URL or title, which only name it.
func docKey(d Doc) string {
	h := sha256.New()
	for _, f := range []string{d.ID, string(d.Format), d.Content} {
		fmt.Fprintf(h, "%d:%s", len(f), f)
	}
	return "doc:" + hex.EncodeToString(h.Sum(nil))
}

func loadDoc(cache Cache, d Doc) (*DocIndex, error) {
	v, err := load(cache, docKey(d), func() (any, error) { return Build(d) })
	if err != nil {
		return nil, err
	}
	return v.(*DocIndex), nil
}

// Warm indexes each of docs once and puts the index into every cache, as
// FromInput looks documents up, so that the first request naming them
// finds them indexed: a source directory is indexed at start. At most
// maxDocEntries documents are warmed, the caches' share for single
// documents; it returns how many.
func Warm[C Cache](caches []C, docs []Doc) (int, error) {
	n := 0
	for _, d := range docs {
		if n == maxDocEntries {
			break
		}
		x, err := Build(d)
		if err != nil {
			return n, err
		}
		for _, c := range caches {
			if _, err := c.Load(docKey(d), func() (any, error) { return x, nil }); err != nil {
				return n, err
			}
		}
		n++
	}
	return n, nil
}

// Matches reports whether document d is the source uri names: uri is its
// id or URL, or the last segment of uri is d's file name with or without
// its extension ("https://nvd.nist.gov/vuln/detail/CVE-2024-12345" names
// "CVE-2024-12345.md").
func Matches(d *Doc, uri string) bool {
	if uri == "" {
		return false
	}
	if uri == d.ID || uri == d.URL || strings.TrimSuffix(uri, "/") == strings.TrimSuffix(d.URL, "/") {
		return true
	}
	base := lastSegment(uri)
	if base == "" {
		return false
	}
	file := path.Base(d.ID)
	return strings.EqualFold(file, base) || strings.EqualFold(strings.TrimSuffix(file, path.Ext(file)), base)
}

// lastSegment is the last path segment of a URI or path, or its host when
// it has no path.
func lastSegment(uri string) string {
	if u, err := url.Parse(uri); err == nil && u.Host != "" {
		if p := strings.Trim(u.Path, "/"); p != "" {
			return path.Base(p)
		}
		return u.Host
	}
	return path.Base(strings.TrimSuffix(uri, "/"))
}

// Cites reports whether the name an output cites ("NVD", "the National
// Vulnerability Database") is one of the documents: it appears in the
// document's title, id or URL host, case-insensitively, or the document's
// title or id appears in it.
func (ix *Index) Cites(name string) bool {
	n := strings.ToLower(strings.TrimSpace(name))
	if n == "" {
		return true
	}
	for _, d := range ix.Docs() {
		for _, field := range []string{d.Title, d.ID, d.URL} {
			f := strings.ToLower(field)
			if f == "" {
				continue
			}
			stem := strings.TrimSuffix(f, path.Ext(f))
			if strings.Contains(f, n) || len(stem) >= 3 && strings.Contains(n, stem) {
				return true
			}
		}
		if u, err := url.Parse(d.URL); err == nil && u.Host != "" && strings.Contains(strings.ToLower(u.Host), n) {
			return true
		}
	}
	return false
}
