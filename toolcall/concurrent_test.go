package toolcall_test

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"

	"github.com/agentjudge/judge/toolcall"
)

// One Checker serves many goroutines: compiling the same definitions,
// checking calls and recording outcomes of shared sessions.
func TestConcurrent(t *testing.T) {
	t.Parallel()
	defs, err := toolcall.ParseDefinitions([]byte(outcomeTools), "tools.json")
	if err != nil {
		t.Fatal(err)
	}
	c, err := toolcall.New()
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for g := range 8 {
		wg.Go(func() {
			ts, err := c.NewToolset(defs...)
			if err != nil {
				errs <- err
				return
			}
			ctx := context.Background()
			for i := range 50 {
				sess := fmt.Sprint("s", i%3)
				res, err := ts.Check(ctx, toolcall.Call{Tool: "get_issue", SessionID: sess,
					Arguments: json.RawMessage(fmt.Sprintf(`{"owner": "o", "repo": "r", "issue_number": "%d"}`, g*100+i))})
				if err != nil || !res.Result.Valid {
					errs <- fmt.Errorf("check: %v %+v", err, res)
					return
				}
				o, err := ts.Outcome(ctx, toolcall.OutcomeRequest{Call: toolcall.Call{Tool: "get_issue", SessionID: sess},
					Result: json.RawMessage(fmt.Sprintf(`{"number": %d}`, i))})
				if err != nil || o.Status != toolcall.Satisfied || o.Progress == nil {
					errs <- fmt.Errorf("outcome: %v %+v", err, o)
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
