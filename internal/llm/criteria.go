package llm

import (
	"context"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"text/template"

	"github.com/agentjudge/judge/result"
)

//go:embed prompts
var prompts embed.FS

func mustRead(name string) []byte {
	b, err := prompts.ReadFile("prompts/" + name)
	if err != nil {
		panic(err)
	}
	return b
}

// The criteria check: its prompt and its answer's schema. Immutable.
var (
	criteriaSystem = string(mustRead("criteria.system.txt"))
	criteriaUser   = template.Must(template.New("criteria.user.tmpl").Funcs(template.FuncMap{
		"json": func(s string) string { b, _ := json.Marshal(s); return string(b) },
	}).Parse(string(mustRead("criteria.user.tmpl"))))
	// CriteriaSchema is the shape of the criteria check's answer.
	CriteriaSchema = MustSchema("criteria_verdicts", mustRead("criteria.schema.json"))
)

// Bounds of one criteria call.
const (
	// MaxPromptChars bounds the bytes of one call's messages; an
	// output too large to fit with one criterion is not judged.
	MaxPromptChars = 48000
	// MaxBatch is the most criteria judged in one call.
	MaxBatch = 10
	// maxReason bounds a verdict's reason, in characters.
	maxReason = 300
)

// Criterion is a plain-language criterion to judge.
type Criterion struct {
	// ID names the criterion in the prompt and the answer: its index in
	// the request.
	ID   int
	Text string
}

// CriteriaQuestion asks whether an output meets plain-language criteria.
type CriteriaQuestion struct {
	// Output is the output under validation as text: as sent when it was
	// text, else its JSON.
	Output string
	// Context is the request's context as JSON, or "".
	Context  string
	Criteria []Criterion
}

// Verdict values of the criteria check.
const (
	Met        = "met"
	NotMet     = "not_met"
	CannotTell = "cannot_tell"
)

// Verdict is the model's decision on one criterion.
type Verdict struct {
	ID int
	// Verdict is Met, NotMet or CannotTell.
	Verdict string
	// Confidence is the model's own, in [0, 1].
	Confidence float64
	// Reason is one short sentence, at most 300 characters.
	Reason string
	// Cached is true when the answer came from the cache.
	Cached bool
}

// CriterionResult is what became of one criterion: a verdict, or the error
// that left it undecided.
type CriterionResult struct {
	Verdict *Verdict
	Err     error
}

// TooLargeError is a prompt over MaxPromptChars.
type TooLargeError struct {
	Chars, Limit int    // in bytes
	What         string // "the output and context", "the criterion"
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%s take %d bytes, over the %d bytes a prompt may hold", e.What, e.Chars, e.Limit)
}

// JudgeCriteria asks the model about q's criteria: as many in one call as
// fit in MaxPromptChars and MaxBatch, the calls in parallel. It returns one
// result per criterion, in q's order, and the tokens spent.
func (c *Client) JudgeCriteria(ctx context.Context, q CriteriaQuestion) ([]CriterionResult, Usage) {
	out := make([]CriterionResult, len(q.Criteria))
	fixed := len(criteriaSystem) + len(q.Output) + len(q.Context) + 1000
	if fixed > MaxPromptChars {
		err := &TooLargeError{Chars: len(q.Output) + len(q.Context), Limit: MaxPromptChars - len(criteriaSystem) - 1000, What: "the output and context"}
		for i := range out {
			out[i].Err = err
		}
		return out, Usage{}
	}
	sizes := make([]int, len(q.Criteria))
	for i, cr := range q.Criteria {
		sizes[i] = len(cr.Text) + 20
	}
	batches := batchPlan(sizes, fixed, func(i int) {
		out[i].Err = &TooLargeError{Chars: len(q.Criteria[i].Text), Limit: MaxPromptChars - fixed - 20, What: "the criterion's text"}
	})
	usage := askBatches(q.Criteria, batches, c.cfg.MaxConcurrency,
		func(crits []Criterion) ([]Verdict, Usage, error) { return c.judgeBatch(ctx, q, crits) },
		func(i int, v *Verdict, err error) { out[i].Verdict, out[i].Err = v, err })
	return out, usage
}

// judgeBatch asks about crits in one call; the verdicts are in crits' order.
func (c *Client) judgeBatch(ctx context.Context, q CriteriaQuestion, crits []Criterion) ([]Verdict, Usage, error) {
	msgs, err := CriteriaMessages(q.Output, q.Context, crits)
	if err != nil {
		return nil, Usage{}, err
	}
	return askVerdicts(ctx, c, msgs, CriteriaSchema,
		func(v any) ([]Verdict, error) { return verdicts(v, crits) },
		func(v *Verdict) { v.Cached = true })
}

// verdicts reads the answer v (valid against CriteriaSchema) into one
// verdict per criterion, in crits' order; an answer that misses a
// criterion, names one not asked, or names one twice is an error.
func verdicts(v any, crits []Criterion) ([]Verdict, error) {
	ids := make([]int, len(crits))
	for i, c := range crits {
		ids[i] = c.ID
	}
	return readVerdicts(v, ids, "id", func(m map[string]any, id, _ int) (Verdict, error) {
		cn, _ := m["confidence"].(json.Number)
		conf, err := cn.Float64()
		verdict, _ := m["verdict"].(string)
		reason, _ := m["reason"].(string)
		if err != nil || !(conf >= 0 && conf <= 1) || (verdict != Met && verdict != NotMet && verdict != CannotTell) {
			return Verdict{}, fmt.Errorf("the verdict for id %d is not one of met, not_met, cannot_tell with a confidence in [0, 1]", id)
		}
		return Verdict{ID: id, Verdict: verdict, Confidence: conf,
			Reason: result.Clip(strings.TrimSpace(reason), maxReason)}, nil
	})
}

// CriteriaMessages returns the messages of the criteria check: the system
// prompt, then the criteria and the output (and context), fenced and
// labelled as data under a tag derived from their content.
func CriteriaMessages(output, context string, crits []Criterion) ([]Message, error) {
	h := sha256.New()
	for _, s := range []string{output, context} {
		fmt.Fprintf(h, "%d:%s", len(s), s)
	}
	for _, c := range crits {
		fmt.Fprintf(h, "%d:%d:%s", c.ID, len(c.Text), c.Text)
	}
	var b strings.Builder
	err := criteriaUser.Execute(&b, struct {
		Criteria        []Criterion
		Output, Context string
		Tag             string
	}{crits, output, context, hex.EncodeToString(h.Sum(nil))[:16]})
	if err != nil {
		return nil, fmt.Errorf("llm: criteria prompt: %w", err)
	}
	return []Message{{Role: "system", Content: criteriaSystem}, {Role: "user", Content: b.String()}}, nil
}
