// Package sourcepass indexes the sources a request gives a layer: it joins
// package layer, which knows no source index, and internal/source, which
// knows no layer, for the layers that declare [layer.Layer.ReadsSources].
package sourcepass

import (
	"context"
	"errors"
	"fmt"

	"github.com/agentjudge/judge/internal/source"
	"github.com/agentjudge/judge/layer"
)

// Index indexes the sources of in through cache (see [source.FromInput])
// and returns the trusted_sources entries that no source answers to. A
// source that cannot be indexed is an *layer.InputError of the layer
// named name at sources[i]; it fails with ctx's error when ctx ends. A nil
// cache builds every time.
func Index(ctx context.Context, name string, in *layer.Input, cache *layer.Cache) (*source.Index, []source.Missing, error) {
	docs := make([]source.Doc, len(in.Sources))
	for i, s := range in.Sources {
		docs[i] = source.Doc{ID: s.ID, URL: s.URL, Title: s.Title, Content: s.Content}
	}
	ix, missing, err := source.FromInput(ctx, docs, in.TrustedSources, cache)
	var de *source.IndexError
	if errors.As(err, &de) {
		return nil, nil, &layer.InputError{Layer: name, Location: fmt.Sprintf("sources[%d]", de.Index), Msg: de.Err.Error(), Err: de.Err}
	}
	return ix, missing, err
}

// Pass indexes the sources of p's input through p's cache, as Index does
// for p's layer.
func Pass(ctx context.Context, p *layer.Pass) (*source.Index, []source.Missing, error) {
	return Index(ctx, p.Layer.Name, p.Input, p.Cache)
}
