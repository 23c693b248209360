package layer

import (
	"context"
	"errors"
	"fmt"

	"github.com/agentjudge/judge/internal/source"
)

// IndexSources indexes the sources of in through cache (see
// [source.FromInput]) and returns the trusted_sources entries that no
// source answers to. A source that cannot be indexed is an *InputError at
// sources[i]; it fails with ctx's error when ctx ends.
func IndexSources(ctx context.Context, in *Input, cache *Cache) (*source.Index, []source.Missing, error) {
	docs := make([]source.Doc, len(in.Sources))
	for i, s := range in.Sources {
		docs[i] = source.Doc{ID: s.ID, URL: s.URL, Title: s.Title, Content: s.Content}
	}
	ix, missing, err := source.FromInput(ctx, docs, in.TrustedSources, cache)
	var de *source.IndexError
	if errors.As(err, &de) {
		return nil, nil, &InputError{Layer: "facts", Location: fmt.Sprintf("sources[%d]", de.Index), Msg: de.Err.Error(), Err: de.Err}
	}
	return ix, missing, err
}
