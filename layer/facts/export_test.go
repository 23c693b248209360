package facts

import (
	"context"

	"github.com/agentjudge/judge/internal/llm"
	"github.com/agentjudge/judge/internal/source"
	"github.com/agentjudge/judge/layer"
)

// NewLayerWithJudge returns a facts layer whose undecided and unsupported
// claims go to a judge that finds every claim supported by the first
// related passage when it holds the claim's text, and unsupported
// otherwise, with certainty 0.9 under the model name "fake-model". It
// records the claims and passages it was shown.
func NewLayerWithJudge(seen *[]string) *layer.Layer {
	return newLayer(config{judge: func(ctx context.Context, qs []question) ([]judged, [2]int64) {
		out := make([]judged, len(qs))
		for i, q := range qs {
			c, ps := q.claim, q.passages
			*seen = append(*seen, c.Text)
			out[i] = judged{status: source.Unsupported, certainty: 0.9, model: "fake-model"}
			for _, p := range ps {
				if containsFold(p.Text, c.Text) {
					out[i] = judged{status: source.Supported, evidence: p, certainty: 0.9, model: "fake-model"}
					break
				}
			}
		}
		return out, [2]int64{}
	}})
}

func containsFold(s, sub string) bool {
	return len(sub) > 0 && len(s) >= len(sub) && indexFold(s, sub) >= 0
}

func indexFold(s, sub string) int {
	for i := 0; i+len(sub) <= len(s); i++ {
		match := true
		for j := 0; j < len(sub); j++ {
			a, b := s[i+j], sub[j]
			if a|0x20 != b|0x20 {
				match = false
				break
			}
		}
		if match {
			return i
		}
	}
	return -1
}

// ClientJudge is the Judge of judge's own client of an OpenAI-compatible
// API, which an engine with judge.WithLLM hands the layer.
func ClientJudge(c *llm.Client) Judge { return clientJudge{c} }
