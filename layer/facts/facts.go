package facts

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"strings"

	"github.com/agentjudge/judge/internal/claim"
	"github.com/agentjudge/judge/internal/lexicon"
	"github.com/agentjudge/judge/internal/source"
	"github.com/agentjudge/judge/internal/sourcepass"
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

// claimJudge decides claims, each from the passages most likely to bear on
// it, all at once, and returns one verdict per question, in order, and the
// prompt and completion tokens spent. It is where a model plugs in: its
// verdict counts with its own certainty and names it in metadata.model.
type claimJudge func(ctx context.Context, qs []question) ([]judged, [2]int64)

// question is a claim put to a judge, with its related passages.
type question struct {
	claim    claim.Claim
	passages []*source.Passage
	// ix names the passages' sources.
	ix *source.Index
}

// judged is a judge's verdict on one claim.
type judged struct {
	status    source.Status // Supported, Contradicted, Unsupported or Undecided
	evidence  *source.Passage
	found     string  // the source's value, when contradicted
	certainty float64 // in [0, 1]
	// model names the model that answered, even when it could not tell.
	model string
	// err says why the claim stays undecided, when it does.
	err error
}

func newLayer(cfg config) *layer.Layer {
	return &layer.Layer{
		Name:          "facts",
		Doc:           layer.MustExtractDoc(docGo, "facts"),
		Applies:       HasSources,
		Run:           cfg.run,
		CacheGroup:    "sources",
		UsesModel:     true,
		ReadsSources:  true,
		ChecksSources: true,
		AppliesOn:     layer.PartSources,
	}
}

// HasSources reports whether in gives sources or trusted_sources.
func HasSources(in *layer.Input) bool {
	return len(in.Sources) > 0 || len(in.TrustedSources) > 0
}

func (cfg config) run(ctx context.Context, p *layer.Pass) error {
	if m := judgeOf(p.Model); m != nil && cfg.judge == nil {
		cfg.judge = modelJudge(m)
	}
	ix, missing, err := sourcepass.Pass(ctx, p)
	if err != nil {
		return err
	}
	for _, m := range missing {
		p.Decided(1)
		p.Report(result.Issue{Severity: result.Error, Type: result.SourceMissing, Location: fmt.Sprintf("trusted_sources[%d]", m.Index),
			Message:    fmt.Sprintf("Trusted source '%s' is not among the sources given, so no claim could be checked against it (judge never fetches URLs)", m.URI),
			Suggestion: "Give the source inline in sources, or put it in the directory of sources judge reads",
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
		p.Report(result.Issue{Severity: result.Info, Type: result.NotChecked, Location: "root",
			Message:    fmt.Sprintf("None of the trusted sources could be found, so the %d claims of the output were not checked", len(set.Claims)),
			Suggestion: "Give the sources inline in sources, or put them in the directory of sources judge reads",
			Rule:       "facts.no_sources"})
		p.Decided(0)
		for range len(set.Claims) - 1 {
			p.Decided(0)
		}
		p.Failed(Criterion)
		return nil
	}
	verdicts, judgedBy, err := cfg.verdicts(ctx, p, ix, set.Claims)
	if err != nil {
		return err
	}
	var t tally
	for i, c := range set.Claims {
		j, ok := judgedBy[i]
		t.add(checkClaim(p, ix, c, verdicts[i], j, ok))
	}
	if err := checkWording(ctx, p, ix, &t); err != nil {
		return err
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

// verdicts checks every claim against the sources; those the checker
// leaves undecided or unsupported go to the judge together, when there is
// one, before any is reported. It returns each claim's verdict and the
// judge's, by claim index, for those it asked.
func (cfg config) verdicts(ctx context.Context, p *layer.Pass, ix *source.Index, claims []claim.Claim) ([]source.Verdict, map[int]judged, error) {
	verdicts := make([]source.Verdict, len(claims))
	var qs []question
	var asked []int
	for i, c := range claims {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		if c.Kind == claim.Citation {
			continue
		}
		verdicts[i] = check(ix, c)
		if cfg.judge == nil || (verdicts[i].Status != source.Undecided && verdicts[i].Status != source.Unsupported) {
			continue
		}
		if ps := ix.Related(c, relatedPassages); len(ps) > 0 {
			qs = append(qs, question{c, ps, ix})
			asked = append(asked, i)
		}
	}
	judgedBy := map[int]judged{}
	if len(qs) > 0 {
		js, tokens := cfg.judge(ctx, qs)
		p.UsedTokens(tokens[0], tokens[1])
		for k, i := range asked {
			if k < len(js) {
				judgedBy[i] = js[k]
			} else {
				judgedBy[i] = judged{status: source.Undecided, err: errors.New("the judge gave no verdict")}
			}
		}
	}
	return verdicts, judgedBy, nil
}

// checkWording checks each sentence of the output's texts for a word the
// sources' passage says the opposite of, and a negation the source has
// and the sentence dropped, counting each on t.
func checkWording(ctx context.Context, p *layer.Pass, ix *source.Index, t *tally) error {
	for _, txt := range claim.Texts(p.Input.Output) {
		prev := ""
		for _, sp := range claim.Sentences(txt.Text) {
			if err := ctx.Err(); err != nil {
				return err
			}
			sent := txt.Text[sp.Start:sp.End]
			for _, sw := range ix.AntonymSwaps(sent, lexicon.Antonyms) {
				t.add(source.Contradicted)
				reportSwap(p, txt, sp, sw)
			}
			if ev := ix.DroppedNegation(sent); ev != nil {
				t.add(source.Contradicted)
				reportDroppedNegation(p, txt, sp, ev, ix.SourceOf(ev))
			}
			if cv, ok := ix.Uncovered(sent, prev); ok {
				t.add(source.Unsupported)
				reportUncovered(p, txt, sp, cv)
			}
			prev = sent
		}
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

// checkClaim reports what was found of c — the checker's verdict v, or
// the judge's j when asked is true and j decided — and returns the
// verdict.
func checkClaim(p *layer.Pass, ix *source.Index, c claim.Claim, v source.Verdict, j judged, asked bool) source.Status {
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
	if asked && j.model != "" {
		p.UsedModel(j.model)
	}
	if asked && j.status != source.Undecided {
		return reportJudged(p, ix, c, j)
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
		msg := fmt.Sprintf("The negated statement '%s' could not be checked: no source speaks of it", result.ClipText(c.Sentence, 200))
		if asked && j.err != nil {
			msg = fmt.Sprintf("The negated statement '%s' could not be checked: no source states it, and the model could not decide it (%s)", result.ClipText(c.Sentence, 160), result.ClipText(j.err.Error(), 200))
		}
		switch {
		case v.Why != "" && v.Evidence != nil:
			msg = fmt.Sprintf("%s %s could not be checked: %s (%s line %d: %q)", c.Subject(), c.Quoted(), v.Why, v.Source.ID, v.Evidence.Line, result.ClipText(v.Evidence.Text, 200))
			if asked && j.err != nil {
				msg += fmt.Sprintf("; the model could not decide it (%s)", result.ClipText(j.err.Error(), 200))
			}
		case v.Why != "":
			msg = fmt.Sprintf("%s %s could not be checked: no source states it, and %s", c.Subject(), c.Quoted(), v.Why)
			if asked && j.err != nil {
				msg += fmt.Sprintf(" (the model could not decide it: %s)", result.ClipText(j.err.Error(), 200))
			}
		case c.Kind != claim.Negation:
			// A count of one or two no source states (source.Index.Check).
			msg = fmt.Sprintf("%s %s could not be checked: no source states it, and a count this small is often inferred rather than stated", c.Subject(), c.Quoted())
			if asked && j.err != nil {
				msg += fmt.Sprintf(" (the model could not decide it: %s)", result.ClipText(j.err.Error(), 200))
			}
		}
		p.Undecided(c.Location(), msg, "Give a source that covers this statement, or check it by hand")
	}
	return v.Status
}

func reportContradiction(p *layer.Pass, c claim.Claim, v source.Verdict) {
	d := v.Source
	found := v.Found.Quoted()
	msg := fmt.Sprintf("%s stated as %s but %s according to %s (%s line %d: %q)",
		c.Subject(), c.Quoted(), found, d.Name(), d.ID, v.Evidence.Line, result.ClipText(v.Evidence.Text, 200))
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

// reportJudged records a judge's verdict on c and reports what it found:
// a contradiction in the deterministic checker's format, under a rule that
// says a model decided it.
func reportJudged(p *layer.Pass, ix *source.Index, c claim.Claim, j judged) source.Status {
	p.Decided(j.certainty)
	switch j.status {
	case source.Contradicted:
		found := quoteAs(c, j.found)
		msg := fmt.Sprintf("%s stated as %s but %s according to the model's reading of the sources", c.Subject(), c.Quoted(), found)
		sug := fmt.Sprintf("Check %s against the sources and correct it to %s if they bear it out", c.Noun(), found)
		if j.evidence != nil {
			d := ix.SourceOf(j.evidence)
			msg = fmt.Sprintf("%s stated as %s but %s according to %s (%s line %d: %q)", c.Subject(), c.Quoted(), found, d.Name(), d.ID, j.evidence.Line, result.ClipText(j.evidence.Text, 200))
			verb := "Correct"
			if c.Kind == claim.Number {
				verb = "Update"
			}
			sug = fmt.Sprintf("%s %s to %s based on %s", verb, c.Noun(), found, d.Ref())
		}
		p.Report(result.Issue{Severity: result.Error, Type: result.Hallucination, Location: c.Location(),
			Message: msg, Suggestion: sug, Rule: "facts.model_contradicted"})
	case source.Unsupported:
		p.Report(result.Issue{Severity: result.Error, Type: result.UnsupportedClaim, Location: c.Location(),
			Message:    fmt.Sprintf("%s %s not found in sources", c.Subject(), c.Quoted()),
			Suggestion: "Remove unsupported claim or provide valid source",
			Rule:       "facts.model_unsupported"})
	}
	return j.status
}

// quoteAs writes the source's value s as c's own value is written: bare
// for a number, date, time or version, else in single quotes.
func quoteAs(c claim.Claim, s string) string {
	switch c.Kind {
	case claim.Number, claim.Date, claim.Time, claim.Version:
		return s
	}
	return "'" + s + "'"
}

// sentenceLocation is where a finding on the sentence sp of txt points:
// the text's path in the output, else the sentence's line.
func sentenceLocation(txt claim.Text, sp claim.Span) string {
	if txt.Path != "" {
		return txt.Path
	}
	return fmt.Sprintf("line:%d", 1+strings.Count(txt.Text[:sp.Start], "\n"))
}

// antonymCertainty is the certainty of an antonym swap: the passage that
// best matches a sentence may be about something else.
const antonymCertainty = 0.75

func reportSwap(p *layer.Pass, txt claim.Text, sp claim.Span, sw source.Swap) {
	p.Decided(antonymCertainty)
	loc := sentenceLocation(txt, sp)
	d := sw.Source
	p.Report(result.Issue{Severity: result.Warning, Type: result.Hallucination, Location: loc,
		Message: fmt.Sprintf("Wording stated as '%s' but '%s' according to %s, which says the opposite (%s line %d: %q)",
			sw.Word, sw.Antonym, d.Name(), d.ID, sw.Evidence.Line, result.ClipText(sw.Evidence.Text, 200)),
		Suggestion: fmt.Sprintf("Correct '%s' to '%s' if the sentence speaks of the same thing, based on %s", sw.Word, sw.Antonym, d.Ref()),
		Rule:       "facts.antonym"})
}

// reportDroppedNegation reports a sentence that states plainly what the
// passage ev that best matches it negates.
func reportDroppedNegation(p *layer.Pass, txt claim.Text, sp claim.Span, ev *source.Passage, d *source.Doc) {
	p.Decided(antonymCertainty)
	loc := sentenceLocation(txt, sp)
	p.Report(result.Issue{Severity: result.Warning, Type: result.Hallucination, Location: loc,
		Message: fmt.Sprintf("'%s' is stated without the negation %s gives it (%s line %d: %q)",
			result.ClipText(txt.Text[sp.Start:sp.End], 160), d.Name(), d.ID, ev.Line, result.ClipText(ev.Text, 200)),
		Suggestion: fmt.Sprintf("Check whether the statement should be negated, based on %s", d.Ref()),
		Rule:       "facts.negation_dropped"})
}

// uncoveredCertainty is the certainty of a sentence the sources share
// too few words with: a source may say the same in words of its own.
const uncoveredCertainty = 0.6

// reportUncovered reports a sentence of which the sources hold less than
// a quarter of the content words (source.Index.Uncovered).
func reportUncovered(p *layer.Pass, txt claim.Text, sp claim.Span, cv source.Coverage) {
	p.Decided(uncoveredCertainty)
	loc := sentenceLocation(txt, sp)
	p.Report(result.Issue{Severity: result.Warning, Type: result.UnsupportedClaim, Location: loc,
		Message: fmt.Sprintf("'%s' is not found in sources: they hold only %d of its %d content words (not %s)",
			result.ClipText(txt.Text[sp.Start:sp.End], 160), cv.Found, cv.Words, result.ClipText("'"+strings.Join(cv.Missing, "', '")+"'", 160)),
		Suggestion: "Give a source that states this, or remove the sentence",
		Rule:       "facts.sentence_unsupported"})
}

func reportUnsupported(p *layer.Pass, c claim.Claim, v source.Verdict) {
	if c.Kind == claim.Negation {
		d := v.Source
		p.Report(result.Issue{Severity: result.Warning, Type: result.UnsupportedClaim, Location: c.Location(),
			Message: fmt.Sprintf("The negation in '%s' is not found in sources: %s states it without negation (line %d: %q)",
				result.ClipText(c.Sentence, 160), d.Name(), v.Evidence.Line, result.ClipText(v.Evidence.Text, 160)),
			Suggestion: fmt.Sprintf("Check whether '%s' belongs in the statement, based on %s", c.Text, d.Ref()),
			Rule:       "facts.negation_unsupported"})
		return
	}
	p.Report(result.Issue{Severity: result.Error, Type: result.UnsupportedClaim, Location: c.Location(),
		Message:    fmt.Sprintf("%s %s not found in sources", c.Subject(), c.Quoted()),
		Suggestion: "Remove unsupported claim or provide valid source",
		Rule:       "facts.unsupported"})
}
