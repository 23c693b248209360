package judge

// Confidence is how decidable the checks of a request were: the mean, over
// the layers that were asked for or applied, of each layer's confidence.
// A layer's confidence is the mean certainty of its checks (1 for a
// deterministic check, a model's own confidence for its verdict, 0 for a
// check that could not be decided); a layer that failed, timed out, was not
// available or had nothing to check counts 0. With no layer at all nothing
// was checked and the confidence is 0. See docs/scoring.md.
func Confidence(outcomes []LayerOutcome) float64 {
	if len(outcomes) == 0 {
		return 0
	}
	var sum float64
	for _, o := range outcomes {
		if o.Failed {
			continue
		}
		sum += o.Findings.Confidence
	}
	return sum / float64(len(outcomes))
}
