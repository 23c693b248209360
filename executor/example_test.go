package executor_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/agentjudge/judge/executor"
	"github.com/agentjudge/judge/manifest"
)

// A script tool runs through its runtime (bash_runtime: the arguments as
// command-line arguments) in its own process group.
func ExampleRunner_Call() {
	ctx := context.Background()
	reg, err := manifest.LoadDirs(ctx, "testdata/tools")
	if err != nil {
		panic(err)
	}
	r, err := executor.New(ctx, reg)
	if err != nil {
		panic(err)
	}
	defer r.Close()
	res, err := r.Call(ctx, "greet", json.RawMessage(`{"name": "Ada"}`))
	if err != nil {
		panic(err)
	}
	fmt.Printf("%q exit %d error %v\n", res.Text, res.ExitCode, res.IsError)
	// Output: "hello, Ada\n" exit 0 error false
}

// Tools whose manifests have lint errors, or that need what the executor
// does not do, are left out with their reason.
func ExampleRunner_Skipped() {
	ctx := context.Background()
	reg, err := manifest.LoadDirs(ctx, "../examples/tools-broken")
	if err != nil {
		panic(err)
	}
	r, err := executor.New(ctx, reg)
	if err != nil {
		panic(err)
	}
	defer r.Close()
	for _, s := range r.Skipped() {
		fmt.Println(s.Tool, "—", s.Reason[:strings.Index(s.Reason, ",")])
	}
	// Output:
	// github_mcp — its manifest has lint errors
	// weather_forecast — its manifest has lint errors
}
