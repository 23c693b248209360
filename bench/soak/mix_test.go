package main

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"github.com/agentjudge/judge"
	"github.com/agentjudge/judge/bench/internal/corpus"
	"github.com/agentjudge/judge/bench/internal/load"
	"github.com/agentjudge/judge/internal/sharedtest"
	"github.com/agentjudge/judge/server"
)

// The soak's classification: a valid result with a layer that could not
// start, or with confidence 0, is a fail-open; a verdict other than the
// expected one is wrong; anything but a result is an unexpected status.
func TestClassify(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		code int
		body string
		want bool
		out  string
	}{
		{"valid as expected", 200, `{"valid": true, "confidence": 1, "issues": []}`, true, ""},
		{"invalid as expected", 200, `{"valid": false, "confidence": 1, "issues": [{"type": "type_mismatch"}]}`, false, ""},
		{"engine busy", 200, `{"valid": true, "confidence": 0.5, "issues": [{"type": "layer_failed", "rule": "engine.layer_failed",
			"message": "The schema layer could not start within 5s because the engine was busy with other checks, so its checks did not run"}]}`, true, "fail-open"},
		{"confidence 0", 200, `{"valid": true, "confidence": 0, "issues": []}`, true, "fail-open"},
		{"invalid while busy is not open", 200, `{"valid": false, "confidence": 0, "issues": [{"type": "layer_failed"}]}`, false, ""},
		{"wrong verdict", 200, `{"valid": false, "confidence": 1, "issues": []}`, true, "wrong-verdict"},
		{"503", 503, `{"title": "busy"}`, true, "unexpected-status"},
		{"not a result", 200, `{"error": "x"}`, true, "unexpected-status"},
	} {
		if got := verdict(tc.want, nil)(tc.code, []byte(tc.body)); got != tc.out {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.out)
		}
	}
	wrapped := `{"result": {"valid": true, "confidence": 0, "issues": []}}`
	pick := func(b []byte) json.RawMessage {
		var r struct{ Result json.RawMessage }
		_ = json.Unmarshal(b, &r)
		return r.Result
	}
	if got := verdict(true, pick)(http.StatusOK, []byte(wrapped)); got != "fail-open" {
		t.Errorf("call check with confidence 0: %q, want fail-open", got)
	}
}

// A unique schema is still the same schema, and differs at every request.
func TestMixUnique(t *testing.T) {
	t.Parallel()
	a := unique(json.RawMessage(` {"type": "object"}`), 1, 2)
	b := unique(json.RawMessage(`{"type": "object"}`), 1, 3)
	var v map[string]any
	if err := json.Unmarshal(a, &v); err != nil || v["type"] != "object" || string(a) == string(b) {
		t.Fatalf("unique: %s, %s (%v)", a, b, err)
	}
}

// The mix against the real server on loopback: every kind is sent, and
// every answer is what the soak expects (no 5xx, no fail-open, no wrong
// verdict), so a soak's failure is the server's, not the mix's.
func TestMixAgainstServer(t *testing.T) {
	t.Parallel()
	c, err := corpus.Load(filepath.Join(sharedtest.Dir(t, "mcp-tools"), "bench-corpus.json"))
	if err != nil {
		t.Fatal(err)
	}
	eng, err := judge.New()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = eng.Close(context.Background()) })
	ts := httptest.NewServer(server.New(eng, server.Options{}).Handler())
	defer ts.Close()
	rep, err := load.Run(context.Background(), load.Options{URL: ts.URL, Conns: 4, MaxRequests: 160, Duration: time.Minute, Next: newMix(c).next})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Requests != 160 || rep.Errors != 0 || rep.Count5xx() != 0 || len(rep.Classes) != 0 {
		t.Fatalf("requests %d, no answer %d, status %v, classes %v, samples %v", rep.Requests, rep.Errors, rep.Status, rep.Classes, rep.Samples)
	}
	for _, k := range kindNames {
		if rep.Kinds[k] == 0 {
			t.Errorf("kind %s was never sent: %v", k, rep.Kinds)
		}
	}
	if rep.Status[400] != rep.Kinds["validate-malformed"] {
		t.Errorf("400s %d, malformed bodies %d", rep.Status[400], rep.Kinds["validate-malformed"])
	}
}
