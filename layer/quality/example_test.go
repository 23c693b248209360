package quality_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/agentjudge/judge"
)

func Example() {
	e, err := judge.New()
	if err != nil {
		panic(err)
	}
	out, _ := json.Marshal("```python\ndef run(cmd: str) -> None:\n    \"\"\"Run a command.\"\"\"\n    import subprocess\n    subprocess.run(cmd, shell=True)\n```\n")
	r, err := e.Validate(context.Background(), &judge.Request{Output: out, ValidationTypes: []string{"quality"}})
	if err != nil {
		panic(err)
	}
	for _, is := range r.Issues {
		fmt.Printf("%s %s at %s\n  %s\n  → %s\n", is.Severity, is.Rule, is.Location, is.Message, is.Suggestion)
	}
	fmt.Printf("quality %.2f, security %.2f\n", r.QualityScore, r.Metadata.QualityDimensions["security"])
	// Output:
	// warning security.shell_true at function:run:line:5
	//   subprocess.run is called with shell=True: input that reaches the command can run any shell command
	//   → Use subprocess with parameterized commands instead of shell=True: pass the program and its arguments as a list
	// quality 0.90, security 0.90
}
