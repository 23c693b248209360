package facts_test

import (
	"context"
	"fmt"

	"github.com/agentjudge/judge/layer"
	"github.com/agentjudge/judge/layer/facts"
)

func Example() {
	in := &layer.Input{
		Output: "libfoo 1.24.0 has a CVSS score of 9.8 and was found by Alice Smith.",
		Sources: []layer.Source{{ID: "nvd", Title: "NVD", URL: "https://nvd.example/CVE-2024-12345",
			Content: "CVSS v3.1 base score: 7.5 (HIGH). Fixed in libfoo 1.24.0."}},
	}
	p := layer.NewPass(facts.Layer, in, layer.NewCache(0))
	if err := facts.Layer.Run(context.Background(), p); err != nil {
		panic(err)
	}
	f := p.Findings()
	for _, is := range f.Issues {
		fmt.Printf("%s %s at %s\n  %s\n  %s\n", is.Severity, is.Type, is.Location, is.Message, is.Suggestion)
	}
	fmt.Println("failed:", f.Failed)
	fmt.Printf("confidence: %.2f\n", f.Confidence)
	// Output:
	// error hallucination at line:1:cvss_score
	//   CVSS score stated as 9.8 but 7.5 according to NVD (nvd line 1: "CVSS v3.1 base score: 7.5 (HIGH).")
	//   Update CVSS score to 7.5 based on https://nvd.example/CVE-2024-12345
	// error unsupported_claim at line:1:finder
	//   Finder 'Alice Smith' not found in sources
	//   Remove unsupported claim or provide valid source
	// failed: [All facts are supported by trusted sources]
	// confidence: 0.94
}
