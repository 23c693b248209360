package llm

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"text/template"
)

// The facts check: its prompt and its answer's schema. Immutable.
var (
	factsSystem = string(mustRead("facts.system.txt"))
	factsUser   = template.Must(template.New("facts.user.tmpl").Funcs(template.FuncMap{
		"json": func(s string) string { b, _ := json.Marshal(s); return string(b) },
		"join": func(s []string) string { return strings.Join(s, ", ") },
	}).Parse(string(mustRead("facts.user.tmpl"))))
	// FactsSchema is the shape of the facts check's answer.
	FactsSchema = MustSchema("claim_verdicts", mustRead("facts.schema.json"))
)

// Verdict values of the facts check (with [CannotTell]).
const (
	Supported    = "supported"
	Contradicted = "contradicted"
)

// Passage is a passage of a trusted source shown with a claim.
type Passage struct {
	// Source is the id of the passage's source; Line its 1-based line.
	Source string
	Line   int
	Text   string
}

// Claim is a claim of an output to check against its passages.
type Claim struct {
	// ID names the claim in the prompt and the answer: its index in the
	// output's claims.
	ID int
	// Kind is what the claim is ("number", "date", "name", "negation"…),
	// Subject what it is about ("CVSS score"), Value what it states
	// ("9.8"), Sentence the sentence it is in.
	Kind, Subject, Value, Sentence string
	// Passages are the passages most related to the claim, best first.
	Passages []Passage
}

// size is a bound on the bytes c takes in a prompt.
func (c Claim) size() int {
	n := len(c.Kind) + len(c.Subject) + len(c.Value) + len(c.Sentence) + 120
	for _, p := range c.Passages {
		n += len(p.Source) + len(p.Text) + 60
	}
	return n
}

// ClaimVerdict is the model's decision on one claim.
type ClaimVerdict struct {
	ID int
	// Verdict is Supported, Contradicted or CannotTell.
	Verdict string
	// Evidence is the index, in the claim's Passages, of the passage that
	// decides it; -1 for CannotTell.
	Evidence int
	// SourceValue is the source's value when Contradicted, else "".
	SourceValue string
	// Confidence is the model's own, in [0, 1].
	Confidence float64
	// Cached is true when the answer came from the cache.
	Cached bool
}

// ClaimResult is what became of one claim: a verdict, or the error that
// left it undecided.
type ClaimResult struct {
	Verdict *ClaimVerdict
	Err     error
}

// maxSourceValue bounds a contradicted verdict's source value, in bytes.
const maxSourceValue = 200

// JudgeClaims asks the model about claims: as many in one call as fit in
// MaxPromptChars and MaxBatch, the calls in parallel (at most
// MaxConcurrency at once). It returns one result per claim, in claims'
// order, and the tokens spent. A claim too large for a prompt has a
// *TooLargeError; a claim whose call failed has its *CallError or
// *MalformedError.
func (c *Client) JudgeClaims(ctx context.Context, claims []Claim) ([]ClaimResult, Usage) {
	out := make([]ClaimResult, len(claims))
	fixed := len(factsSystem) + 1200
	sizes := make([]int, len(claims))
	for i, cl := range claims {
		sizes[i] = cl.size()
	}
	batches := batchPlan(sizes, fixed, func(i int) {
		out[i].Err = &TooLargeError{Chars: sizes[i], Limit: MaxPromptChars - fixed, What: "the claim and its passages"}
	})
	usage := askBatches(claims, batches, c.cfg.MaxConcurrency,
		func(batch []Claim) ([]ClaimVerdict, Usage, error) { return c.judgeClaimBatch(ctx, batch) },
		func(i int, v *ClaimVerdict, err error) { out[i].Verdict, out[i].Err = v, err })
	return out, usage
}

// judgeClaimBatch asks about claims in one call; the verdicts are in
// claims' order.
func (c *Client) judgeClaimBatch(ctx context.Context, claims []Claim) ([]ClaimVerdict, Usage, error) {
	msgs, labels, err := factsMessages(claims)
	if err != nil {
		return nil, Usage{}, err
	}
	return askVerdicts(ctx, c, msgs, FactsSchema,
		func(v any) ([]ClaimVerdict, error) { return claimVerdicts(v, claims, labels) },
		func(v *ClaimVerdict) { v.Cached = true })
}

// claimVerdicts reads the answer v (valid against FactsSchema) into one
// verdict per claim, in claims' order. labels[i] are the passage ids shown
// with claims[i]. An answer that misses a claim, names one not asked or
// one twice, or cites as evidence a passage not shown with the claim is an
// error.
func claimVerdicts(v any, claims []Claim, labels [][]string) ([]ClaimVerdict, error) {
	ids := make([]int, len(claims))
	for i, c := range claims {
		ids[i] = c.ID
	}
	return readVerdicts(v, ids, "claim", func(m map[string]any, id, i int) (ClaimVerdict, error) {
		cn, _ := m["confidence"].(json.Number)
		conf, err := cn.Float64()
		verdict, _ := m["verdict"].(string)
		if err != nil || !(conf >= 0 && conf <= 1) || (verdict != Supported && verdict != Contradicted && verdict != CannotTell) {
			return ClaimVerdict{}, fmt.Errorf("the verdict for claim %d is not one of supported, contradicted, cannot_tell with a confidence in [0, 1]", id)
		}
		cv := ClaimVerdict{ID: id, Verdict: verdict, Confidence: conf, Evidence: -1}
		if verdict != CannotTell {
			ev, _ := m["evidence"].(string)
			cv.Evidence = indexOf(labels[i], strings.TrimSpace(ev))
			if cv.Evidence < 0 {
				return ClaimVerdict{}, fmt.Errorf("the verdict for claim %d cites passage %q, which is not among its passages (%s)", id, ev, strings.Join(labels[i], ", "))
			}
		}
		if verdict == Contradicted {
			sv, _ := m["source_value"].(string)
			cv.SourceValue = strings.Join(strings.Fields(sv), " ")
			if cv.SourceValue == "" || len(cv.SourceValue) > maxSourceValue {
				return ClaimVerdict{}, fmt.Errorf("the verdict for claim %d is contradicted but its source_value is empty or over %d bytes", id, maxSourceValue)
			}
		}
		return cv, nil
	})
}

func indexOf(list []string, s string) int {
	for i, x := range list {
		if x == s {
			return i
		}
	}
	return -1
}

// FactsMessages returns the messages of the facts check: the system
// prompt, then the claims and their passages, fenced and labelled as data
// under a tag derived from their content. Passages shown with several
// claims are listed once, with ids P1, P2, ….
func FactsMessages(claims []Claim) ([]Message, error) {
	msgs, _, err := factsMessages(claims)
	return msgs, err
}

// factsMessages is FactsMessages, with the passage ids shown with each
// claim.
func factsMessages(claims []Claim) ([]Message, [][]string, error) {
	type passageKey struct {
		source string
		line   int
		text   string
	}
	type shownPassage struct {
		Label, Source, Text string
		Line                int
	}
	type shownClaim struct {
		ID                             int
		Kind, Subject, Value, Sentence string
		Labels                         []string
	}
	h := sha256.New()
	ids := map[passageKey]string{}
	var passages []shownPassage
	shown := make([]shownClaim, len(claims))
	labels := make([][]string, len(claims))
	for i, c := range claims {
		fmt.Fprintf(h, "%d:%d:%s%d:%s%d:%s%d:%s", c.ID, len(c.Kind), c.Kind, len(c.Subject), c.Subject, len(c.Value), c.Value, len(c.Sentence), c.Sentence)
		for _, p := range c.Passages {
			k := passageKey{p.Source, p.Line, p.Text}
			id, ok := ids[k]
			if !ok {
				id = "P" + strconv.Itoa(len(passages)+1)
				ids[k] = id
				passages = append(passages, shownPassage{id, p.Source, p.Text, p.Line})
				fmt.Fprintf(h, "%d:%s%d:%d:%s", len(p.Source), p.Source, p.Line, len(p.Text), p.Text)
			}
			labels[i] = append(labels[i], id)
		}
		shown[i] = shownClaim{c.ID, c.Kind, c.Subject, c.Value, c.Sentence, labels[i]}
		if len(labels[i]) == 0 {
			shown[i].Labels = []string{"none"}
		}
	}
	var b strings.Builder
	err := factsUser.Execute(&b, struct {
		Claims   []shownClaim
		Passages []shownPassage
		Tag      string
	}{shown, passages, hex.EncodeToString(h.Sum(nil))[:16]})
	if err != nil {
		return nil, nil, fmt.Errorf("llm: facts prompt: %w", err)
	}
	return []Message{{Role: "system", Content: factsSystem}, {Role: "user", Content: b.String()}}, labels, nil
}
