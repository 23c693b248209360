package proxy

import (
	"strings"
)

// Report is judge's verdict on one answer: the "judge" member of the
// final chunk (streaming) or of the completion (not streaming) in the
// annotate and stop modes.
type Report struct {
	// Mode is the proxy's --on-violation mode.
	Mode Mode `json:"mode"`
	// Valid is true when every document checked is valid.
	Valid bool `json:"valid"`
	// Stopped is true when judge ended the answer at a violation (stop
	// mode): the upstream's generation was cancelled, and every choice
	// that was still generating ends with finish_reason
	// "content_filter".
	Stopped bool `json:"stopped,omitempty"`
	// Checks are the verdicts on every document checked (each choice's
	// content, each tool call's arguments), in the order they came.
	Checks []*Verdict `json:"checks"`
	// RepairText is the repair text of every invalid document, for the
	// client to send back to the model on its retry; "" when valid.
	RepairText string `json:"repair_text,omitempty"`
	// Tokens counts the completion tokens of the answer.
	Tokens Tokens `json:"tokens"`
}

// Tokens counts the completion tokens of an answer around its first
// violation.
type Tokens struct {
	// Completion is the completion tokens the upstream generated for the
	// answer: its usage when it reported one, else estimated as one token
	// per delta that carried content or arguments (as OpenAI streams
	// them).
	Completion int64 `json:"completion"`
	// AfterViolation is how many of them came after judge was certain of
	// the first violation: in the pass and annotate modes, what the stop
	// mode would have saved; in the stop mode, the ones in flight before
	// the cut. Always estimated at the violation by counting deltas.
	AfterViolation int64 `json:"after_violation"`
	// Saved, in the stop mode, is the tokens the cut saved: exactly 0
	// (SavedExact) when the model had finished every choice before the
	// cut and the upstream's usage was read after it; else an upper
	// bound, the request's max_completion_tokens (or max_tokens) less
	// those generated, absent when the request set no cap, since what
	// the model would have written is then unknown.
	Saved *int64 `json:"saved,omitempty"`
	// SavedExact is true when Saved is exact, false when it is an upper
	// bound.
	SavedExact bool `json:"saved_exact,omitempty"`
	// Estimated is true when Completion is estimated (no usage from the
	// upstream).
	Estimated bool `json:"estimated"`
}

// report makes the report of a, in mode; stopped says whether the answer
// was cut, maxTokens is the request's cap (0 when none).
func (a *answer) report(mode Mode, stopped bool, maxTokens int64) *Report {
	r := &Report{Mode: mode, Valid: true, Stopped: stopped, Checks: a.verdicts}
	if r.Checks == nil {
		r.Checks = []*Verdict{}
	}
	var texts []string
	for _, v := range a.verdicts {
		if !v.Result.Valid {
			r.Valid = false
			if v.RepairText != "" {
				texts = append(texts, v.RepairText)
			}
		}
	}
	r.RepairText = strings.Join(texts, "\n\n")
	r.Tokens = a.tokenCounts(stopped, maxTokens)
	return r
}

func (a *answer) tokenCounts(stopped bool, maxTokens int64) Tokens {
	t := Tokens{Completion: a.tokens, Estimated: true}
	if a.usage != nil && (!stopped || a.ended) {
		t.Completion, t.Estimated = a.usage.CompletionTokens, false
	}
	if a.violatedAt >= 0 {
		t.AfterViolation = max(t.Completion-a.violatedAt, 0)
	}
	switch {
	case stopped && a.ended && a.usage != nil:
		// The model had finished: the cut saved nothing, and the
		// upstream's usage says what it generated.
		t.Saved, t.SavedExact = new(int64), true
	case stopped && maxTokens > 0:
		s := max(maxTokens*int64(len(a.choices))-t.Completion, 0)
		t.Saved = &s
	}
	return t
}
