package main

import (
	"encoding/json"
	"net/http"
	"testing"
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
