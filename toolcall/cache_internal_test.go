package toolcall

import (
	"context"
	"encoding/json"
	"testing"
)

// Checking calls never compiles: the contract's compiled schema is built
// once, at load, and every check after hits it.
func TestCheckNeverRecompiles(t *testing.T) {
	t.Parallel()
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
	entries, hitsBefore := ct.input.cache.Stats()
	if entries != 1 {
		t.Fatalf("the schema cache holds %d entries after load, want 1", entries)
	}
	// Valid arguments are decided by the compiled schema's fast path,
	// which the contract holds; invalid ones by the layer, through the
	// cache: every one of them a hit.
	invalid := 0
	for i := range 20 {
		args := `{"n": ` + string(rune('1'+i%9)) + `}`
		if i%4 == 0 {
			args, invalid = `{"n": 1.5}`, invalid+1
		}
		chk, err := ts.Check(context.Background(), Call{Tool: "a", Arguments: json.RawMessage(args)})
		if err != nil {
			t.Fatal(err)
		}
		if chk.Result.Valid == (i%4 == 0) {
			t.Fatalf("check %d of %s: valid %v", i, args, chk.Result.Valid)
		}
	}
	entries, hits := ct.input.cache.Stats()
	if entries != 1 || hits != hitsBefore+invalid {
		t.Errorf("after 20 checks (%d invalid): %d entries, %d hits (was %d): a check compiled, or a valid one missed the fast path", invalid, entries, hits, hitsBefore)
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
