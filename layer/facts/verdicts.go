package facts

import (
	"context"

	"github.com/agentjudge/judge/internal/claim"
	"github.com/agentjudge/judge/internal/source"
	"github.com/agentjudge/judge/internal/sourcepass"
	"github.com/agentjudge/judge/layer"
)

// ClaimVerdict is the verdict on one claim of an output, with its
// evidence.
type ClaimVerdict struct {
	// Kind, Text and Location describe the claim: "number", "9.8",
	// "summary:cvss_score".
	Kind, Text, Location string
	// Verdict is "supported", "contradicted", "unsupported" or
	// "undecided".
	Verdict string
	// SourceID and Evidence are the id of the source and the passage that
	// support or contradict the claim (for an unsupported negation, the
	// passage stating it un-negated); empty otherwise. Line is the
	// passage's line in the source.
	SourceID, Evidence string
	Line               int
	// Found is the source's value when the claim is contradicted.
	Found string
	// Near is set for a contradiction that is a near miss.
	Near bool
}

// Verdicts returns the verdict on every claim of in's output against in's
// sources, in the order of the claims, as the layer decides them: the
// layer's issues say what is wrong, Verdicts also shows what is right and
// where the evidence is. Citations are left out (they name sources rather
// than state facts). It fails like the layer, with a *layer.InputError
// for a source that cannot be indexed.
func Verdicts(ctx context.Context, in *layer.Input) ([]ClaimVerdict, error) {
	ix, _, err := sourcepass.Index(ctx, Layer.Name, in, nil)
	if err != nil {
		return nil, err
	}
	cs := claim.FromOutput(in.Output).Claims
	vs := make([]source.Verdict, len(cs))
	for i, c := range cs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if c.Kind != claim.Citation && len(ix.Docs()) > 0 {
			vs[i] = check(ix, c)
		}
	}
	var out []ClaimVerdict
	for i, c := range cs {
		if c.Kind == claim.Citation {
			continue
		}
		v := vs[i]
		cv := ClaimVerdict{Kind: string(c.Kind), Text: c.Text, Location: c.Location(), Verdict: v.Status.String(), Near: v.Near}
		if v.Evidence != nil {
			cv.SourceID, cv.Evidence, cv.Line = v.Source.ID, v.Evidence.Text, v.Evidence.Line
		}
		if v.Status == source.Contradicted {
			cv.Found = v.Found.Text
		}
		out = append(out, cv)
	}
	return out, nil
}
