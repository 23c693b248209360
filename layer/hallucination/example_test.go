package hallucination_test

import (
	"context"
	"fmt"

	"github.com/agentjudge/judge/layer"
	"github.com/agentjudge/judge/layer/hallucination"
)

func Example() {
	in := &layer.Input{
		Output:  "The CVSS score is definitely 9.8.\nTo sum up, the CVSS score is 7.5.",
		Sources: []layer.Source{{ID: "nvd", Title: "NVD", Content: "CVSS v3.1 base score: 7.5 (HIGH)."}},
	}
	p := layer.NewPass(hallucination.Layer, in, layer.NewCache(0))
	if err := hallucination.Layer.Run(context.Background(), p); err != nil {
		panic(err)
	}
	for _, is := range p.Findings().Issues {
		fmt.Printf("%s %s at %s: %s\n", is.Severity, is.Type, is.Location, is.Message)
	}
	fmt.Println("failed:", p.Findings().Failed)
	// Output:
	// warning detail_inconsistency at line:2:cvss_score: The CVSS score is given as 9.8 (line 1) and as 7.5 (line 2)
	// warning confidence_mismatch at line:1:cvss_score: 'Definitely' asserts a claim NVD contradicts: CVSS score 9.8
	// failed: [No hallucinations present]
}
