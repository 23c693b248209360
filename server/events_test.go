package server

import (
	"encoding/json"
	"testing"

	"github.com/agentjudge/judge/result"
)

// TestValidateDatedEvent posts an output dating an event in March where
// the inline source reports it in February: a fact_mismatch with the
// source's date in the suggestion. A decade and a name written with other
// spacing that the source states pass.
func TestValidateDatedEvent(t *testing.T) {
	t.Parallel()
	_, ts := newTestServer(t, Options{})
	src, _ := json.Marshal("The heap overflow in libfoo was reported in February 2024 by the libfoo security team.\nThe library was first released in 1997 by Tech Crunch Labs.")
	sources := `[{"id": "advisory", "title": "Vendor advisory", "url": "https://example.com/advisory", "content": ` + string(src) + `}]`
	r := mustResult(t, do(t, ts, "POST", "/validate", `{"output": "The libfoo heap overflow lets attackers run code. It was discovered in March 2024.", "sources": `+sources+`}`, nil))
	if len(r.Issues) != 1 {
		t.Fatalf("issues %+v, want one fact_mismatch", r.Issues)
	}
	is := r.Issues[0]
	if is.Type != result.FactMismatch || is.Severity != result.Warning || is.Location != "line:1:discovery_date" ||
		is.Suggestion != "Correct discovery date to February 2024 based on https://example.com/advisory" {
		t.Errorf("issue %+v", is)
	}
	r = mustResult(t, do(t, ts, "POST", "/validate", `{"output": "The library dates from the 1990s and comes from TechCrunch Labs.", "sources": `+sources+`}`, nil))
	if !r.Valid || len(r.Issues) != 0 {
		t.Errorf("valid %v, issues %+v", r.Valid, r.Issues)
	}
}
