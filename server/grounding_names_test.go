package server

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/agentjudge/judge/result"
)

// TestValidateOtherWords posts a summary that names what its source names
// in other words (a nationality for a country, initials for a city, a
// hyphenated description) and a month whose year the source leaves out:
// no name is unsupported, and the date is a not_checked note.
func TestValidateOtherWords(t *testing.T) {
	t.Parallel()
	_, ts := newTestServer(t, Options{})
	src, _ := json.Marshal("Officials in China met Sims fans in LA on 17 August last year.\nThe coins had no collateral until December 2022.")
	out, _ := json.Marshal("Chinese officials met Sims-based fans in Los Angeles in August 2022.")
	body := `{"output": ` + string(out) + `, "sources": [{"id": "notes", "content": ` + string(src) + `}]}`
	r := mustResult(t, do(t, ts, "POST", "/v1/validate", body, nil))
	if len(r.Issues) != 1 {
		t.Fatalf("issues %+v, want one not_checked note", r.Issues)
	}
	is := r.Issues[0]
	if is.Type != result.NotChecked || is.Location != "line:1" ||
		!strings.Contains(is.Message, `the source gives 17 August without a year (notes line 1: "Officials in China met Sims fans in LA on 17 August last year.")`) {
		t.Errorf("issue %+v", is)
	}
	if !r.Valid {
		t.Error("an undecided date fails nothing, but the result is invalid")
	}
}
