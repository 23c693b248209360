package httpapi

import (
	"net/http"
	"time"

	"github.com/agentjudge/judge/server/api"
)

// OrDefault returns v, or def when v is zero or negative: an option the
// caller left unset. The front ends fill their options' defaults with it.
func OrDefault[T int | int64 | time.Duration](v, def T) T {
	if v <= 0 {
		return def
	}
	return v
}

// Readiness answers a readiness probe (GET /readyz): 503 with the detail
// "the <what> is shutting down" once ready is false; 503 with Retry-After
// and the reason while saturation, asked only when ready, gives one; 200
// with {"status":"ok"} otherwise.
func Readiness(w http.ResponseWriter, r *http.Request, ready bool, what string, saturation func() string) {
	if !ready {
		WriteProblem(w, r, api.Problem{Status: http.StatusServiceUnavailable, Code: api.CodeUnavailable,
			Detail: "the " + what + " is shutting down"})
		return
	}
	if why := saturation(); why != "" {
		w.Header().Set("Retry-After", "1")
		WriteProblem(w, r, api.Problem{Status: http.StatusServiceUnavailable, Code: api.CodeUnavailable, Detail: why})
		return
	}
	WriteJSON(w, http.StatusOK, api.MediaTypeJSON, api.Health{Status: "ok"})
}
