package main

import (
	"errors"
	"slices"

	"github.com/agentjudge/judge"
	"github.com/agentjudge/judge/layer/schema"
	"github.com/agentjudge/judge/result"
)

// flagHint is the flag that carries out the suggestion of an issue of the
// given rule, or "". The core words its suggestions without the command
// line (it says what to change); the command line says how, with its flags.
func flagHint(rule string) string {
	switch rule {
	case "engine.layer_failed":
		return "--timeout"
	case "facts.trusted_source_missing", "facts.no_sources":
		return "--source"
	case "toolcall.no_contract":
		return "--defs"
	}
	return ""
}

// withFlagHints returns r with the flag of each issue's suggestion added
// (see flagHint), for the text a person reads; r itself is not changed.
func withFlagHints(r *result.ValidationResult) *result.ValidationResult {
	if r == nil {
		return nil
	}
	cp := *r
	cp.Issues = slices.Clone(r.Issues)
	for i, is := range cp.Issues {
		if h := flagHint(is.Rule); h != "" && is.Suggestion != "" {
			cp.Issues[i].Suggestion += " (" + h + ")"
		}
	}
	return &cp
}

// requestFlagHint is what the command line adds to the message of a
// request error for the flag that mends it, or "".
func requestFlagHint(re *judge.RequestError) string {
	if nl := (*schema.NotLocalError)(nil); errors.As(re, &nl) {
		return "; give that directory with --schemas DIR"
	}
	return ""
}
