package httpapi

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/agentjudge/judge/server/api"
)

func TestOrDefault(t *testing.T) {
	t.Parallel()
	if got := OrDefault(0, 64); got != 64 {
		t.Errorf("OrDefault(0, 64) = %d, want 64", got)
	}
	if got := OrDefault(int64(-1), 10<<20); got != 10<<20 {
		t.Errorf("OrDefault(-1, 10 MiB) = %d, want the default", got)
	}
	if got := OrDefault(3*time.Second, 15*time.Second); got != 3*time.Second {
		t.Errorf("OrDefault(3s, 15s) = %v, want 3s (a set option is kept)", got)
	}
}

func TestReadiness(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name       string
		ready      bool
		saturation string
		status     int
		detail     string
		retryAfter string
	}{
		{"ready", true, "", http.StatusOK, "", ""},
		{"shutting down", false, "saturated: 64 of 64 requests in flight", http.StatusServiceUnavailable, "the proxy is shutting down", ""},
		{"saturated", true, "saturated: 64 of 64 requests in flight", http.StatusServiceUnavailable, "saturated: 64 of 64 requests in flight", "1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			rec := httptest.NewRecorder()
			req := httptest.NewRequest(http.MethodGet, "/readyz", nil)
			Readiness(rec, req, tc.ready, "proxy", func() string { return tc.saturation })
			if rec.Code != tc.status {
				t.Fatalf("status %d, want %d; body %s", rec.Code, tc.status, rec.Body)
			}
			if got := rec.Header().Get("Retry-After"); got != tc.retryAfter {
				t.Errorf("Retry-After %q, want %q", got, tc.retryAfter)
			}
			if tc.status == http.StatusOK {
				var h api.Health
				if err := json.Unmarshal(rec.Body.Bytes(), &h); err != nil || h.Status != "ok" {
					t.Errorf("body %s: %v, want status ok", rec.Body, err)
				}
				return
			}
			var p api.Problem
			if err := json.Unmarshal(rec.Body.Bytes(), &p); err != nil {
				t.Fatalf("body %s is not a problem: %v", rec.Body, err)
			}
			if p.Detail != tc.detail || p.Code != api.CodeUnavailable {
				t.Errorf("problem %+v, want code %s and detail %q", p, api.CodeUnavailable, tc.detail)
			}
		})
	}
}
