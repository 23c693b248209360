package judge

import (
	"fmt"
	"slices"

	"github.com/agentjudge/judge/internal/source"
	"github.com/agentjudge/judge/layer"
)

// WithSourceDir reads every .txt, .md and .json file under dir once, as
// the local documents that a request's trusted_sources resolve against: an
// entry names a document by its path relative to dir, by the URL a JSON
// document {"url", "title", "content"} gives, or by the last segment of a
// URI matching the file name with or without its extension
// ("https://nvd.nist.gov/vuln/detail/CVE-2024-12345" names
// CVE-2024-12345.md). Nothing is fetched; an entry that names no document
// is a source_missing issue. The documents are indexed here, once, for the
// facts and hallucination layers (up to 256 of them; the rest when a request
// first names them), and a document that cannot be indexed fails New.
func WithSourceDir(dir string) Option {
	return func(e *Engine) error {
		docs, err := source.LoadDir(dir)
		if err != nil {
			return fmt.Errorf("judge: %w", err)
		}
		for _, d := range docs {
			e.sourceDocs = append(e.sourceDocs, layer.Source{ID: d.ID, URL: d.URL, Title: d.Title, Content: d.Content})
		}
		return nil
	}
}

// resolveSources returns the request's inline sources followed by the
// documents of the source directory that its trusted_sources name, each
// once. A resolved document without a URL of its own takes the entry as
// its URL, so that suggestions cite what the request named.
func (e *Engine) resolveSources(req *Request) []layer.Source {
	if len(e.sourceDocs) == 0 || len(req.TrustedSources) == 0 {
		return req.Sources
	}
	out := append([]layer.Source(nil), req.Sources...)
	used := map[int]bool{}
	for _, uri := range req.TrustedSources {
		for i, s := range e.sourceDocs {
			d := source.Doc{ID: s.ID, URL: s.URL}
			if used[i] || !source.Matches(&d, uri) {
				continue
			}
			used[i] = true
			if s.URL == "" {
				s.URL = uri
			}
			out = append(out, s)
		}
	}
	return out
}

// warmSources indexes the documents of the source directory at start, once,
// into the cache of each layer that declares it reads sources (facts,
// hallucination), so that no request pays for it.
func (e *Engine) warmSources() error {
	if len(e.sourceDocs) == 0 {
		return nil
	}
	var caches []*layer.Cache
	for _, l := range e.layers {
		if c := e.caches[l.Name]; l.ReadsSources && !slices.Contains(caches, c) {
			caches = append(caches, c)
		}
	}
	if len(caches) == 0 {
		return nil
	}
	docs := make([]source.Doc, len(e.sourceDocs))
	for i, s := range e.sourceDocs {
		docs[i] = source.Doc{ID: s.ID, URL: s.URL, Title: s.Title, Content: s.Content}
	}
	if _, err := source.Warm(caches, docs); err != nil {
		return fmt.Errorf("judge: source directory: %w", err)
	}
	return nil
}

// SourceDocs returns how many documents WithSourceDir loaded.
func (e *Engine) SourceDocs() int { return len(e.sourceDocs) }
