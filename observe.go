package judge

import (
	"context"
	"time"

	"github.com/agentjudge/judge/result"
)

// LayerRun is how one layer run of a validation ended, as a
// [LayerObserver] is told of it.
type LayerRun struct {
	// Layer is the layer's name.
	Layer string
	// Duration is the layer's run time: from taking a slot to returning,
	// or to its deadline when it did not return in time.
	Duration time.Duration
	// Failed is true when the layer returned an error, panicked or missed
	// its deadline (it then reports one layer_failed issue).
	Failed bool
	// Issues are the layer's findings as it reported them, before the
	// result is built; the observer must not keep or change them.
	Issues []result.Issue
}

// LayerObserver is told of every layer run of a validation whose context
// carries it, once the run ended, on the goroutine of Validate. It must be
// cheap and safe for concurrent use: validations run at once.
type LayerObserver func(LayerRun)

// observerKey is the context key of a LayerObserver.
type observerKey struct{}

// ObserveLayers returns a copy of ctx that carries fn: every validation
// given that context (Engine.Validate, Prepared.Validate) calls fn for
// each of its layer runs. A server counts its per-layer metrics with it.
func ObserveLayers(ctx context.Context, fn LayerObserver) context.Context {
	return context.WithValue(ctx, observerKey{}, fn)
}

// observerOf returns the observer ctx carries, or nil.
func observerOf(ctx context.Context) LayerObserver {
	fn, _ := ctx.Value(observerKey{}).(LayerObserver)
	return fn
}

// observe tells the observer of ctx, if there is one, of the layer runs
// outs.
func observe(ctx context.Context, outs []LayerOutcome) {
	fn := observerOf(ctx)
	if fn == nil {
		return
	}
	for _, o := range outs {
		if o.Ran {
			fn(LayerRun{Layer: o.Name, Duration: o.took, Failed: o.Failed, Issues: o.Findings.Issues})
		}
	}
}
