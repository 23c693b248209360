package judge

import (
	"fmt"

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
// is a source_missing issue. The facts and hallucination layers index each
// document the first time a request uses it and reuse the index after.
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

// SourceDocs returns how many documents WithSourceDir loaded.
func (e *Engine) SourceDocs() int { return len(e.sourceDocs) }
