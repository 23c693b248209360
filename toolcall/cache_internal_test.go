package toolcall

import (
	"context"
	"encoding/json"
	"testing"
)

// Checking calls never compiles: the contract's compiled schema is built
// once, at load, and every check after hits it.
// (Not parallel: AllocsPerRun counts the whole process's allocations.)
func TestCheckNeverRecompiles(t *testing.T) {
	c, err := New()
	if err != nil {
		t.Fatal(err)
	}
	defs, err := ParseDefinitions([]byte(`{"name": "a", "inputSchema": {"type": "object", "properties": {"n": {"type": "integer"}}},
		"rules": [{"id": "r", "expression": "!has(args.n) || args.n > 0", "message": "n must be positive"}]}`), "")
	if err != nil {
		t.Fatal(err)
	}
	ts, err := c.NewToolset(defs...)
	if err != nil {
		t.Fatal(err)
	}
	ct, _ := ts.Contract("a")
	fast := ct.input.fast
	// A compile takes hundreds of allocations (compileAllocs measures
	// one): a check that compiled would take at least as many. A check
	// of valid arguments is decided by the compiled schema's fast path
	// (and the rule), one of invalid arguments by the layer through the
	// same compiled schema.
	compileAllocs := testing.AllocsPerRun(5, func() {
		if _, err := compileSchema(ct.def.InputSchema, "the arguments"); err != nil {
			t.Fatal(err)
		}
	})
	for _, tc := range []struct {
		args  string
		valid bool
		most  float64
	}{
		{`{"n": 3}`, true, compileAllocs / 4},
		{`{"n": 1.5}`, false, compileAllocs - 1},
	} {
		allocs := testing.AllocsPerRun(20, func() {
			chk, err := ts.Check(context.Background(), Call{Tool: "a", Arguments: json.RawMessage(tc.args)})
			if err != nil {
				t.Fatal(err)
			}
			if chk.Result.Valid != tc.valid {
				t.Fatalf("check of %s: valid %v", tc.args, chk.Result.Valid)
			}
		})
		// The race detector makes sync.Pool drop items at random, so the
		// count says nothing there; the identity check below still holds.
		if allocs > tc.most && !raceEnabled {
			t.Errorf("a check of %s takes %.0f allocations, over %.0f (a compile takes %.0f): does it compile?", tc.args, allocs, tc.most, compileAllocs)
		}
		t.Logf("%s: %.0f allocations; a compile %.0f", tc.args, allocs, compileAllocs)
	}
	if ct.input.fast != fast {
		t.Error("the contract's compiled schema was replaced")
	}
	// A second toolset from the same definitions reuses the contract.
	ts2, err := c.NewToolset(defs...)
	if err != nil {
		t.Fatal(err)
	}
	if ct2, _ := ts2.Contract("a"); ct2 != ct {
		t.Error("the same definition was compiled again")
	}
}
