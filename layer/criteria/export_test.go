package criteria

import (
	"github.com/agentjudge/judge/internal/llm"
	"github.com/agentjudge/judge/layer"
)

// LayerWithCostLimit returns the criteria layer with another cost limit, for
// tests that stop rules without building huge inputs.
func LayerWithCostLimit(n uint64) *layer.Layer {
	return newLayer(config{costLimit: n})
}

// ClientJudge is the Judge of judge's own client of an OpenAI-compatible
// API, which an engine with judge.WithLLM hands the layer.
func ClientJudge(c *llm.Client) Judge { return clientJudge{c} }
