package criteria

import "github.com/agentjudge/judge/layer"

// LayerWithCostLimit returns the criteria layer with another cost limit, for
// tests that stop rules without building huge inputs.
func LayerWithCostLimit(n uint64) *layer.Layer {
	return newLayer(config{costLimit: n})
}
