package facts

import (
	"context"
	_ "embed"
	"fmt"
	"strings"

	"github.com/agentjudge/judge/internal/claim"
	"github.com/agentjudge/judge/internal/lexicon"
	"github.com/agentjudge/judge/internal/source"
	"github.com/agentjudge/judge/layer"
	"github.com/agentjudge/judge/result"
)

//go:embed doc.go
var docGo string

// Criterion is the name under which the layer reports, in passed_criteria
// or failed_criteria, whether every claim was supported.
const Criterion = "All facts are supported by trusted sources"

// Certainty of an unsupported verdict: a lexical search can miss a
// paraphrase that supports the claim.
const unsupportedCertainty = 0.75

// Layer checks the output's claims against the request's sources; see the
// package documentation. It applies when the request gives sources or
// trusted_sources.
var Layer = newLayer(config{})

// config is what a Layer value is made of; the package's Layer has no
// model.
type config struct {
	// judge decides a claim the deterministic check leaves undecided or
	// unsupported; nil when no model is configured.
	judge claimJudge
}

// claimJudge decides claim c from the passages most likely to bear on it.
// It is where a model plugs in: its verdict counts with its own certainty
// and names it in metadata.model.
type claimJudge func(ctx context.Context, c claim.Claim, passages []*source.Passage) (judged, error)

// judged is a judge's verdict on one claim.
type judged struct {
	status    source.Status // Supported, Contradicted, Unsupported or Undecided
	evidence  *source.Passage
	found     string  // the source's value, when contradicted
	certainty float64 // in [0, 1]
	model     string
}

func newLayer(cfg config) *layer.Layer {
	return &layer.Layer{
		Name:    "facts",
		Doc:     layer.MustExtractDoc(docGo, "facts"),
		Applies: HasSources,
		Run:     cfg.run,
	}
}

// HasSources reports whether in gives sources or trusted_sources.
func HasSources(in *layer.Input) bool {
	return len(in.Sources) > 0 || len(in.TrustedSources) > 0
}

func (cfg config) run(ctx context.Context, p *layer.Pass) error {
	ix, missing, err := source.FromInput(ctx, p.Input, p.Cache)
	if err != nil {
		return err
	}
	for _, m := range missing {
		p.Decided(1)
		p.Report(result.Issue{Severity: result.Error, Type: result.SourceMissing, Location: fmt.Sprintf("trusted_sources[%d]", m.Index),
			Message:    fmt.Sprintf("Trusted source '%s' is not among the sources given, so no claim could be checked against it (judge never fetches URLs)", m.URI),
			Suggestion: "Give the source inline in sources, or put it in the directory given to --sources / --source",
			Rule:       "facts.trusted_source_missing"})
	}
	set := claim.FromOutput(p.Input.Output)
	if set.Truncated {
		p.Undecided("root", fmt.Sprintf("The output is too large to check whole: only its first %d claims or %d bytes of text were checked", claim.MaxClaims, claim.MaxTextBytes),
			"Check a shorter output, or split it into parts")
	}
	if len(ix.Docs()) == 0 && len(set.Claims) > 0 {
		// Nothing to check against: every claim is undecided, not
		// unsupported.
		p.Undecided("root", fmt.Sprintf("None of the trusted sources could be found, so the %d claims of the output were not checked", len(set.Claims)),
			"Give the sources inline in sources, or put them in the directory given to --sources / --source")
		for range len(set.Claims) - 1 {
			p.Decided(0)
		}
		p.Failed(Criterion)
		return nil
	}
	var t tally
	for _, c := range set.Claims {
		if err := ctx.Err(); err != nil {
			return err
		}
		t.add(cfg.checkClaim(ctx, p, ix, c))
	}
	for _, txt := range claim.Texts(p.Input.Output) {
		for _, sp := range claim.Sentences(txt.Text) {
			if err := ctx.Err(); err != nil {
				return err
			}
			sent := txt.Text[sp.Start:sp.End]
			for _, sw := range ix.AntonymSwaps(sent, lexicon.Antonyms) {
				t.add(source.Contradicted)
				reportSwap(p, txt, sp, sw)
			}
		}
	}
	if len(set.Claims) == 0 && t.bad == 0 {
		p.Undecided("root", "The output states no specific the sources could confirm or refute (no number, date, version, identifier, name or negation), so no fact was checked",
			"Nothing to do if the output makes no factual claim; otherwise state the specifics explicitly")
		return nil
	}
	switch {
	case t.bad > 0 || len(missing) > 0:
		p.Failed(Criterion)
	case t.undecided == 0:
		p.Passed(Criterion)
	}
	return nil
}

type tally struct{ bad, undecided int }

func (t *tally) add(s source.Status) {
	switch s {
	case source.Contradicted, source.Unsupported:
		t.bad++
	case source.Undecided:
		t.undecided++
	}
}

// checkClaim decides c, reports what it found and returns the verdict.
func (cfg config) checkClaim(ctx context.Context, p *layer.Pass, ix *source.Index, c claim.Claim) source.Status {
	if c.Kind == claim.Citation {
		p.Decided(1)
		if ix.Cites(c.Text) {
			return source.Supported
		}
		p.Report(result.Issue{Severity: result.Error, Type: result.SourceMissing, Location: c.Location(),
			Message:    fmt.Sprintf("The output cites '%s' but no source given is '%s', so the citation cannot be checked", c.Text, c.Text),
			Suggestion: fmt.Sprintf("Give '%s' in sources (or trusted_sources), or remove the citation", c.Text),
			Rule:       "facts.citation_missing"})
		return source.Unsupported
	}
	v := ix.Check(c)
	if cfg.judge != nil && (v.Status == source.Undecided || v.Status == source.Unsupported) {
		if j, err := cfg.judge(ctx, c, ix.Related(c, relatedPassages)); err == nil && j.status != source.Undecided {
			return reportJudged(p, ix, c, j)
		}
	}
	switch v.Status {
	case source.Supported:
		p.Decided(1)
	case source.Contradicted:
		p.Decided(1)
		reportContradiction(p, c, v)
	case source.Unsupported:
		p.Decided(unsupportedCertainty)
		reportUnsupported(p, c, v)
	default:
		p.Undecided(c.Location(),
			fmt.Sprintf("The negated statement '%s' could not be checked: no source speaks of it", clip(c.Sentence, 200)),
			"Give a source that covers this statement, or check it by hand")
	}
	return v.Status
}

func reportContradiction(p *layer.Pass, c claim.Claim, v source.Verdict) {
	d := v.Source
	found := v.Found.Quoted()
	msg := fmt.Sprintf("%s stated as %s but %s according to %s (%s line %d: %q)",
		c.Subject(), c.Quoted(), found, d.Name(), d.ID, v.Evidence.Line, clip(v.Evidence.Text, 200))
	verb := "Correct"
	if c.Kind == claim.Number {
		verb = "Update"
	}
	sug := fmt.Sprintf("%s %s to %s based on %s", verb, c.Noun(), found, d.Ref())
	is := result.Issue{Severity: result.Error, Type: result.Hallucination, Location: c.Location(), Message: msg, Suggestion: sug, Rule: "facts.contradicted"}
	if v.Near {
		is.Severity, is.Type, is.Rule = result.Warning, result.FactMismatch, "facts.near_miss"
	}
	p.Report(is)
}

// relatedPassages is how many passages a judge is shown for one claim.
const relatedPassages = 5

// reportJudged records a judge's verdict on c and reports what it found.
func reportJudged(p *layer.Pass, ix *source.Index, c claim.Claim, j judged) source.Status {
	p.Decided(j.certainty)
	if j.model != "" {
		p.UsedModel(j.model)
	}
	switch j.status {
	case source.Contradicted:
		if j.evidence == nil {
			break
		}
		d := ix.SourceOf(j.evidence)
		p.Report(result.Issue{Severity: result.Error, Type: result.Hallucination, Location: c.Location(),
			Message:    fmt.Sprintf("%s stated as %s but %s according to %s (%s line %d: %q)", c.Subject(), c.Quoted(), j.found, d.Name(), d.ID, j.evidence.Line, clip(j.evidence.Text, 200)),
			Suggestion: fmt.Sprintf("Correct %s to %s based on %s", c.Noun(), j.found, d.Ref()),
			Rule:       "facts.model_contradicted"})
	case source.Unsupported:
		p.Report(result.Issue{Severity: result.Error, Type: result.UnsupportedClaim, Location: c.Location(),
			Message:    fmt.Sprintf("%s %s not found in sources", c.Subject(), c.Quoted()),
			Suggestion: "Remove unsupported claim or provide valid source",
			Rule:       "facts.model_unsupported"})
	}
	return j.status
}

// antonymCertainty is the certainty of an antonym swap: the passage that
// best matches a sentence may be about something else.
const antonymCertainty = 0.75

func reportSwap(p *layer.Pass, txt claim.Text, sp claim.Span, sw source.Swap) {
	p.Decided(antonymCertainty)
	loc := txt.Path
	if loc == "" {
		loc = fmt.Sprintf("line:%d", 1+strings.Count(txt.Text[:sp.Start], "\n"))
	}
	d := sw.Source
	p.Report(result.Issue{Severity: result.Warning, Type: result.Hallucination, Location: loc,
		Message: fmt.Sprintf("Wording stated as '%s' but '%s' according to %s, which says the opposite (%s line %d: %q)",
			sw.Word, sw.Antonym, d.Name(), d.ID, sw.Evidence.Line, clip(sw.Evidence.Text, 200)),
		Suggestion: fmt.Sprintf("Correct '%s' to '%s' if the sentence speaks of the same thing, based on %s", sw.Word, sw.Antonym, d.Ref()),
		Rule:       "facts.antonym"})
}

func reportUnsupported(p *layer.Pass, c claim.Claim, v source.Verdict) {
	if c.Kind == claim.Negation {
		d := v.Source
		p.Report(result.Issue{Severity: result.Warning, Type: result.UnsupportedClaim, Location: c.Location(),
			Message: fmt.Sprintf("The negation in '%s' is not found in sources: %s states it without negation (line %d: %q)",
				clip(c.Sentence, 160), d.Name(), v.Evidence.Line, clip(v.Evidence.Text, 160)),
			Suggestion: fmt.Sprintf("Check whether '%s' belongs in the statement, based on %s", c.Text, d.Ref()),
			Rule:       "facts.negation_unsupported"})
		return
	}
	p.Report(result.Issue{Severity: result.Error, Type: result.UnsupportedClaim, Location: c.Location(),
		Message:    fmt.Sprintf("%s %s not found in sources", c.Subject(), c.Quoted()),
		Suggestion: "Remove unsupported claim or provide valid source",
		Rule:       "facts.unsupported"})
}

// clip shortens s to at most n bytes at a word boundary.
func clip(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) <= n {
		return s
	}
	cut := strings.LastIndexByte(s[:n], ' ')
	if cut < n/2 {
		cut = n
		for cut > 0 && s[cut]&0xC0 == 0x80 {
			cut--
		}
	}
	return s[:cut] + "…"
}
