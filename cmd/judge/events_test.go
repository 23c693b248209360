package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"testing"

	"github.com/agentjudge/judge/result"
)

// TestValidateDatedEvent: judge validate --source reports a month the
// source gives to the same event under another verb as a fact_mismatch
// with the source's date in the suggestion, and passes a decade and a
// name written with other spacing that the source states.
func TestValidateDatedEvent(t *testing.T) {
	t.Parallel()
	dir := writeFiles(t, map[string]string{
		"advisory.txt": "The heap overflow in libfoo was reported in February 2024 by the libfoo security team.\nThe library was first released in 1997 by Tech Crunch Labs.",
		"wrong.txt":    "The libfoo heap overflow lets attackers run code. It was discovered in March 2024.",
		"right.txt":    "The library dates from the 1990s and comes from TechCrunch Labs.",
	})
	run := func(output string) (result.ValidationResult, error) {
		params := newValidateParams()
		params.sources = []string{filepath.Join(dir, "advisory.txt")}
		params.format.value = formatJSON
		var out bytes.Buffer
		err := runValidate(context.Background(), params, []string{filepath.Join(dir, output)}, &out)
		var r result.ValidationResult
		if jerr := json.Unmarshal(out.Bytes(), &r); jerr != nil {
			t.Fatalf("%s: %v\n%s", output, jerr, out.String())
		}
		return r, err
	}
	r, err := run("wrong.txt")
	var ee *exitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatalf("err = %v", err)
	}
	if len(r.Issues) != 1 {
		t.Fatalf("issues %+v, want one fact_mismatch", r.Issues)
	}
	is := r.Issues[0]
	want := "Correct discovery date to February 2024 based on advisory.txt"
	if is.Type != result.FactMismatch || is.Location != "line:1:discovery_date" || is.Suggestion != want {
		t.Errorf("issue %+v\nwant fact_mismatch at line:1:discovery_date, suggestion %q", is, want)
	}
	r, err = run("right.txt")
	if err != nil || !r.Valid || len(r.Issues) != 0 {
		t.Errorf("the decade and the name the source states: err %v, valid %v, issues %+v", err, r.Valid, r.Issues)
	}
}
