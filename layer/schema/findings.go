package schema

import (
	"context"
	"slices"
)

// Findings validates v, a decoded JSON value (as jsonvalue.Decode gives),
// and returns the layer's issues as findings, as the package's Findings
// does for a schema it finds through a cache: a caller that compiled the
// schema once (a tool's input schema) validates through it without a
// cache look-up per value. noun names the value in messages ("the
// arguments"; empty: "the output"). It takes the slow path always: Check
// is the verdict alone.
func (v *Validator) Findings(ctx context.Context, val any, noun string) ([]Finding, error) {
	return v.c.findings(ctx, val, noun)
}

// findings is the findings of v, validated against c.
func (c *compiled) findings(ctx context.Context, v any, noun string) ([]Finding, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if noun == "" {
		noun = defaultNoun
	}
	r, err := c.report(v, noun)
	if err != nil || r == nil {
		return nil, err
	}
	sorted := r.sorted()
	out := make([]Finding, 0, len(sorted))
	for _, f := range sorted {
		out = append(out, Finding{Issue: f.issue, Keyword: f.keyword, Path: slices.Clone(f.tokens),
			Field: f.field, Expected: f.expected, Actual: f.actual})
	}
	return out, nil
}
