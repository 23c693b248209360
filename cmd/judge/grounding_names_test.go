package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/agentjudge/judge/result"
)

// wordsSource and wordsSummary name the same things in other words: a
// nationality for a country, initials for a city, a hyphenated
// description, and a month whose year the source leaves out.
const (
	wordsSource  = "Officials in China met Sims fans in LA on 17 August last year.\nThe coins had no collateral until December 2022."
	wordsSummary = "Chinese officials met Sims-based fans in Los Angeles in August 2022."
)

// TestValidateOtherWords runs the binary: no name is unsupported, and the
// month's year is a not_checked note that quotes the source.
func TestValidateOtherWords(t *testing.T) {
	t.Parallel()
	dir := writeFiles(t, map[string]string{"summary.txt": wordsSummary, "source.txt": wordsSource})
	r := runJudge(t, nil, "validate", dir+"/summary.txt", "--source", dir+"/source.txt", "--format", "json")
	var res result.ValidationResult
	if err := json.Unmarshal([]byte(r.stdout), &res); err != nil {
		t.Fatalf("%v\nstdout %s\nstderr %s", err, r.stdout, r.stderr)
	}
	if got := issueKeys(&res); got != "not_checked line:1" {
		t.Fatalf("issues\n%s\nwant one not_checked note", got)
	}
	if msg := res.Issues[0].Message; !strings.Contains(msg, "Date August 2022 could not be checked: the source gives 17 August without a year") {
		t.Errorf("message %q", msg)
	}
	if r.code != 0 || !res.Valid {
		t.Errorf("exit %d, valid %v: an undecided date fails nothing", r.code, res.Valid)
	}
}
