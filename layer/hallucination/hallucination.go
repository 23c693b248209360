package hallucination

import (
	"context"
	_ "embed"
	"fmt"
	"slices"
	"strings"

	"github.com/agentjudge/judge/internal/claim"
	"github.com/agentjudge/judge/internal/source"
	"github.com/agentjudge/judge/internal/sourcepass"
	"github.com/agentjudge/judge/layer"
	"github.com/agentjudge/judge/result"
)

//go:embed doc.go
var docGo string

// Criterion is the name under which the layer reports, in passed_criteria
// or failed_criteria, whether the output shows signs of fabrication.
const Criterion = "No hallucinations present"

// Layer finds self-contradicting details and overconfident claims; see
// the package documentation. It applies by default when the request gives
// sources or trusted_sources, and to any output when validation_types
// names it.
var Layer = &layer.Layer{
	Name:             "hallucination",
	Doc:              layer.MustExtractDoc(docGo, "hallucination"),
	Applies:          hasSources,
	AppliesOnRequest: func(*layer.Input) bool { return true },
	Run:              run,
	CacheGroup:       "sources",
	ReadsSources:     true,
	AppliesOn:        layer.PartSources,
}

func hasSources(in *layer.Input) bool { return len(in.Sources) > 0 || len(in.TrustedSources) > 0 }

func run(ctx context.Context, p *layer.Pass) error {
	set := claim.FromOutput(p.Input.Output)
	bad := inconsistencies(p, set.Claims)
	p.Decided(1)

	ix, _, err := sourcepass.Pass(ctx, p)
	if err != nil {
		return err
	}
	undecided := 0
	// Requested without sources, the layer checks what needs none: the
	// output's internal consistency.
	noSources := !hasSources(p.Input)
	noted := map[string]bool{}
	if len(ix.Docs()) == 0 {
		// No source to weigh the claims against: certainty cannot be
		// judged, and contradictions are not known.
		set.Claims = slices.DeleteFunc(set.Claims, func(c claim.Claim) bool { return !c.Certain })
	}
	for _, c := range set.Claims {
		if err := ctx.Err(); err != nil {
			return err
		}
		if c.Kind == claim.Citation {
			continue
		}
		v := source.Verdict{}
		if len(ix.Docs()) > 0 {
			// A name's other forms are tried by the index, as for the
			// facts layer.
			v = ix.Check(c)
		}
		if v.Status == source.Contradicted {
			bad++
		}
		if !c.Certain {
			continue
		}
		switch {
		case noSources:
			// One note per sentence: none of its claims can be weighed.
			if noted[c.Sentence] {
				continue
			}
			noted[c.Sentence] = true
			undecided++
			p.Undecided(c.Location(), fmt.Sprintf("'%s' asserts '%s', but no source was given, so whether the certainty is warranted could not be checked", upper(c.CertainWord), result.ClipText(c.Sentence, 200)),
				"Give the sources the statement rests on (sources or trusted_sources), or check it by hand")
		case v.Status == source.Undecided:
			undecided++
			p.Undecided(c.Location(), fmt.Sprintf("'%s' asserts '%s', which no source speaks of, so whether the certainty is warranted could not be checked", upper(c.CertainWord), result.ClipText(c.Sentence, 200)),
				"Give a source that covers the statement, or check it by hand")
		case v.Status == source.Supported:
			p.Decided(1)
		default:
			p.Decided(1)
			bad++
			what := "a claim no source supports"
			if v.Status == source.Contradicted {
				what = fmt.Sprintf("a claim %s contradicts", v.Source.Name())
			}
			p.Report(result.Issue{Severity: result.Warning, Type: result.ConfidenceMismatch, Location: c.Location(),
				Message:    fmt.Sprintf("'%s' asserts %s: %s %s", upper(c.CertainWord), what, c.Subject(), c.Quoted()),
				Suggestion: fmt.Sprintf("Drop '%s' or hedge the claim, and state only what the sources support", c.CertainWord),
				Rule:       "hallucination.overconfident"})
		}
	}
	// Without sources, contradictions are not known: the criterion can
	// fail on the output's own inconsistencies, never pass.
	switch {
	case bad > 0:
		p.Failed(Criterion)
	case undecided == 0 && !noSources:
		p.Passed(Criterion)
	}
	return nil
}

// inconsistencies reports each attribute the output gives two different
// values, and returns how many it found.
func inconsistencies(p *layer.Pass, claims []claim.Claim) int {
	type key struct {
		kind      claim.Kind
		path, att string
	}
	first := map[key]claim.Claim{}
	n := 0
	for _, c := range claims {
		switch c.Kind {
		case claim.Number, claim.Date, claim.Version, claim.VersionRange, claim.Name:
		default:
			continue
		}
		if c.Key() == "" {
			continue
		}
		// Fields of one object are compared with each other; items of an
		// array are not (items[0].price and items[1].price may differ).
		scope := ""
		if strings.Contains(c.Path, "[") {
			scope = c.Path
		}
		k := key{c.Kind, scope, c.Key()}
		prev, seen := first[k]
		if !seen {
			first[k] = c
			continue
		}
		if same(prev, c) {
			continue
		}
		n++
		// Name the attribute as the text writes it ("CVSS score") rather
		// than as a JSON key does ("cvss score").
		noun := prev.Noun()
		if strings.ToLower(c.Attribute) != c.Attribute && strings.ToLower(prev.Attribute) == prev.Attribute {
			noun = c.Noun()
		}
		p.Report(result.Issue{Severity: result.Warning, Type: result.DetailInconsistency, Location: c.Location(),
			Message: fmt.Sprintf("The %s is given as %s (%s) and as %s (%s)", noun,
				prev.Quoted(), where(prev), c.Quoted(), where(c)),
			Suggestion: fmt.Sprintf("Keep one value for the %s, the one the sources support", noun),
			Rule:       "hallucination.inconsistent_detail"})
	}
	return n
}

// same reports whether two claims of one attribute agree.
func same(a, b claim.Claim) bool {
	switch a.Kind {
	case claim.Number:
		return a.Num == b.Num && (a.Unit == "" || b.Unit == "" || a.Unit == b.Unit)
	case claim.Date:
		da, ok1 := claim.ParseDate(a.Value)
		db, ok2 := claim.ParseDate(b.Value)
		return !ok1 || !ok2 || da.Agrees(db)
	case claim.Name:
		// "Alice Smith" and later "Smith" are one person; "World War I"
		// and "World War II", "Ann" and "Anne" are not: whole words.
		wa, wb := claim.Words(a.Value), claim.Words(b.Value)
		if len(wa) == 0 || len(wb) == 0 {
			return a.Value == b.Value
		}
		return wordRun(wa, wb) || wordRun(wb, wa)
	}
	return a.Value == b.Value
}

// wordRun reports whether the words part stand together, in order, in
// words ("smith" and "alice smith", "new york" and "new york city").
func wordRun(words, part []string) bool {
	for i := 0; i+len(part) <= len(words); i++ {
		if slices.Equal(words[i:i+len(part)], part) {
			return true
		}
	}
	return false
}

// where is a claim's place for a message: "line 3" or "line 1, column 40
// of summary".
func where(c claim.Claim) string {
	if c.Path == "" {
		return fmt.Sprintf("line %d", c.Line)
	}
	if c.Line == 1 && c.Col == 1 && c.Start == 0 && c.End == 0 {
		return c.Path
	}
	return fmt.Sprintf("%s, line %d column %d", c.Path, c.Line, c.Col)
}

func upper(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
