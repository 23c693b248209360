package toolcall

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/agentjudge/judge/internal/llm"
	"github.com/agentjudge/judge/result"
)

// Verdicts of a [GoalCheck].
const (
	GoalAnswered    = "answered"
	GoalNotAnswered = "not_answered"
	GoalCannotTell  = "cannot_tell"
)

// How a goal was decided ([GoalCheck.By]).
const (
	ByRules = "deterministic"
	ByModel = "model"
)

// GoalCheck is the verdict on whether a result answers the user's goal.
type GoalCheck struct {
	// Verdict is GoalAnswered, GoalNotAnswered or GoalCannotTell.
	Verdict string `json:"verdict"`
	// By is ByRules or ByModel; empty when nothing decided.
	By string `json:"by,omitempty"`
	// Reason says why, naming what was found or missing.
	Reason string `json:"reason"`
	// Asked are the ids, entities and fields the goal asks about, as
	// judge read them.
	Asked []string `json:"asked,omitempty"`
	// Missing are those the result does not hold.
	Missing []string `json:"missing,omitempty"`
	// Evidence is the path of the part of the result that answers the
	// goal: for a question about the latest or current state, the newest
	// relevant item of a list, not the first.
	Evidence string `json:"evidence,omitempty"`
	// EvidenceValue is the value at Evidence.
	EvidenceValue any `json:"evidence_value,omitempty"`
}

// WithLLM gives the checker a model (an OpenAI-compatible API, see
// docs/llm.md) that decides whether a result answers a goal when the
// deterministic check cannot. It makes no call until an outcome needs
// one. It fails only on a configuration [llm.New] refuses.
func WithLLM(cfg llm.Config) (Option, error) {
	c, err := llm.New(cfg)
	if err != nil {
		return nil, fmt.Errorf("toolcall: %w", err)
	}
	return func(ch *Checker) { ch.model = c }, nil
}

// goalIDPattern finds identifiers in a goal: words of letters, digits,
// '_', '-', '.', '@' and '#' holding a digit and a letter (HAT069,
// mia_li_3668, ZFA04Y, #1234), or an e-mail address.
var (
	goalToken   = regexp.MustCompile(`[\p{L}\p{N}_\-.@#/]+`)
	quoted      = regexp.MustCompile("\"([^\"]{2,80})\"|“([^”]{2,80})”|`([^`]{2,80})`")
	sentenceEnd = regexp.MustCompile(`[^.?!\n]+[.?!\n]*`)
	asking      = regexp.MustCompile(`(?i)(\?\s*$|^\s*(what|how|which|when|where|who|whose|is|are|does|do|did|can|could)\b|\b(tell me|let me know|show me|give me|confirm|check)\b)`)
	notAnID     = regexp.MustCompile(`(?i)^\d+(st|nd|rd|th|am|pm|k|kg|lb|lbs|h|hr|hrs|m|min|s|x|d|gb|mb|usd|eur)?$`)
	latestWords = regexp.MustCompile(`(?i)\b(latest|current|currently|newest|most recent|status|update on|updates on)\b`)
)

// fieldWords are the nouns a goal asks for that a result names as a field:
// each maps to the key words that answer it.
var fieldWords = map[string][]string{
	"status": {"status", "state"}, "state": {"state", "status"},
	"price": {"price", "prices", "cost", "amount", "fare"}, "cost": {"cost", "price", "prices", "amount", "fare"},
	"fee": {"fee", "fees", "price", "cost"}, "total": {"total", "amount", "sum"}, "balance": {"balance", "amount"},
	"email": {"email", "mail"}, "address": {"address", "address1", "street"}, "phone": {"phone", "telephone", "mobile"},
	"departure": {"departure", "depart", "departs"}, "arrival": {"arrival", "arrive", "arrives"},
	"seat": {"seat", "seats"}, "seats": {"seat", "seats"},
	"baggage": {"baggage", "baggages", "bag", "bags", "luggage"}, "bags": {"baggage", "baggages", "bag", "bags"}, "luggage": {"baggage", "baggages", "luggage"},
	"membership": {"membership", "member", "tier"}, "insurance": {"insurance"},
	"owner": {"owner", "owners"}, "author": {"author", "authors", "user"}, "deadline": {"deadline", "due"},
	"temperature": {"temperature", "temp"}, "rating": {"rating", "stars", "score"}, "version": {"version", "release"},
	"assignee": {"assignee", "assignees"}, "labels": {"label", "labels"}, "reviewers": {"reviewer", "reviewers"},
}

// goalStop are words of a goal that name nothing in a result.
var goalStop = map[string]bool{
	"what": true, "which": true, "when": true, "where": true, "who": true, "whom": true, "whose": true, "why": true, "how": true,
	"the": true, "and": true, "for": true, "with": true, "about": true, "from": true, "into": true, "that": true, "this": true,
	"these": true, "those": true, "there": true, "their": true, "they": true, "them": true, "your": true, "mine": true,
	"please": true, "could": true, "would": true, "should": true, "can": true, "will": true, "want": true, "need": true,
	"tell": true, "show": true, "give": true, "find": true, "know": true, "have": true, "has": true, "had": true, "does": true,
	"did": true, "are": true, "was": true, "were": true, "been": true, "being": true, "is": true, "get": true, "also": true,
	"latest": true, "current": true, "currently": true, "newest": true, "recent": true, "last": true, "now": true, "still": true,
	"all": true, "every": true, "each": true, "any": true, "some": true, "many": true, "much": true, "more": true, "most": true,
	"my": true, "our": true, "you": true, "me": true, "us": true, "it": true, "its": true, "of": true, "to": true, "in": true,
	"on": true, "at": true, "by": true, "an": true, "a": true, "or": true, "if": true, "be": true, "do": true,
	"hi": true, "hello": true, "thanks": true, "thank": true, "yes": true, "sure": true, "okay": true, "like": true, "just": true,
}

// goalAsks is what a goal asks about.
type goalAsks struct {
	ids    []string // identifiers, quoted names
	fields []string // field nouns (fieldWords keys)
	words  []string // the other content words, for relevance
	latest bool     // asks for the latest or current state
}

// readGoal reads what a goal asks about.
func readGoal(goal string) goalAsks {
	var g goalAsks
	seen := map[string]bool{}
	add := func(list *[]string, s string) {
		k := strings.ToLower(s)
		if !seen[k] {
			seen[k] = true
			*list = append(*list, s)
		}
	}
	for _, m := range quoted.FindAllStringSubmatch(goal, 10) {
		for _, s := range m[1:] {
			if strings.TrimSpace(s) != "" {
				add(&g.ids, strings.TrimSpace(s))
			}
		}
	}
	questions := map[string]bool{} // the words of the goal's questions
	for _, sen := range sentenceEnd.FindAllString(goal, 50) {
		if asking.MatchString(sen) {
			for _, w := range goalToken.FindAllString(strings.ToLower(sen), 100) {
				questions[w] = true
			}
		}
	}
	for _, tok := range goalToken.FindAllString(goal, 200) {
		tok = strings.Trim(tok, ".-/@")
		if tok == "" {
			continue
		}
		hasDigit := strings.ContainsFunc(tok, unicode.IsDigit)
		hasLetter := strings.ContainsFunc(tok, unicode.IsLetter)
		switch {
		case strings.Contains(tok, "@") && strings.Contains(tok, "."):
			add(&g.ids, tok)
		case hasDigit && hasLetter && len(tok) >= 4 && !notAnID.MatchString(tok):
			add(&g.ids, strings.TrimPrefix(tok, "#"))
		case hasDigit && !hasLetter && len(strings.Trim(tok, "#")) >= 3 && strings.HasPrefix(tok, "#"):
			add(&g.ids, strings.TrimPrefix(tok, "#"))
		case !hasDigit:
			w := strings.ToLower(tok)
			if _, ok := fieldWords[w]; ok && questions[w] {
				add(&g.fields, w)
			} else if len(w) >= 4 && !goalStop[w] {
				add(&g.words, w)
			}
		}
	}
	for _, sen := range sentenceEnd.FindAllString(goal, 50) {
		if asking.MatchString(sen) && latestWords.MatchString(sen) {
			g.latest = true
		}
	}
	return g
}

// leaf is one scalar of a result with its path and the key holding it.
type leaf struct {
	path, key, text string
}

// leaves flattens a payload into its scalars, at most maxLeaves.
func leaves(v any) []leaf {
	const maxLeaves = 20000
	var out []leaf
	var walk func(v any, path []string, arrays []bool, key string, depth int)
	walk = func(v any, path []string, arrays []bool, key string, depth int) {
		if len(out) >= maxLeaves || depth > 64 {
			return
		}
		switch x := v.(type) {
		case map[string]any:
			for _, k := range slices.Sorted(maps.Keys(x)) {
				walk(x[k], append(slices.Clip(path), k), append(slices.Clip(arrays), false), k, depth+1)
			}
		case []any:
			for i, e := range x {
				walk(e, append(slices.Clip(path), fmt.Sprint(i)), append(slices.Clip(arrays), true), key, depth+1)
			}
		case nil:
			out = append(out, leaf{renderPath(path, arrays), key, ""})
		default:
			s, ok := x.(string)
			if !ok {
				s = fmt.Sprint(x)
			}
			out = append(out, leaf{renderPath(path, arrays), key, s})
		}
	}
	walk(v, nil, nil, "", 0)
	return out
}

// keyWords splits a key into lower-case words: departure_time →
// departure, time; scheduledDepartureTime → scheduled, departure, time.
func keyWords(k string) []string {
	var sb strings.Builder
	prev := rune(0)
	for _, r := range k {
		if unicode.IsUpper(r) && unicode.IsLower(prev) {
			sb.WriteByte(' ')
		}
		sb.WriteRune(unicode.ToLower(r))
		prev = r
	}
	return strings.FieldsFunc(sb.String(), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// checkGoalRules decides deterministically whether payload, the result of
// a call with args, answers goal. An identifier the goal names is covered
// when the result holds it, or when the call's arguments do (the tool
// looked that entity up); a field the goal asks for (status, price,
// email, …) when the result has a key of that name. The verdict is
// answered when everything asked is covered, not_answered when something
// is missing, and cannot_tell when the goal names nothing judge can look
// for. For the latest or current state, the evidence is the newest item
// of a list that is about the goal (holds one of its ids, or else of its
// words), whatever the list's order or scores.
func checkGoalRules(goal string, args, payload any) GoalCheck {
	// (Only a question's sentences ask for fields or the latest state;
	// ids count wherever the goal names them.)
	g := readGoal(goal)
	ls := leaves(payload)
	argText := strings.ToLower(idArgsText(args))
	var text strings.Builder
	keys := map[string]bool{}
	for _, l := range ls {
		text.WriteString(strings.ToLower(l.text))
		text.WriteByte('\n')
		for _, w := range keyWords(l.key) {
			keys[w] = true
		}
	}
	// Keys of objects that hold objects count too ("status": {...}).
	for _, l := range ls {
		for _, seg := range strings.FieldsFunc(l.path, func(r rune) bool { return r == '.' || r == '[' || r == ']' }) {
			for _, w := range keyWords(seg) {
				keys[w] = true
			}
		}
	}
	all := text.String()
	gc := GoalCheck{}
	_, structured := payload.(map[string]any)
	if _, isList := payload.([]any); isList {
		structured = true
	}
	if !structured {
		// A number or a text has no fields to look for: only the ids
		// the goal names can be checked in it.
		g.fields = nil
	}
	// A question about the current state is answered by the newest
	// item of a dated list that is about it, whatever its fields.
	var newest struct {
		path, why string
		value     any
		found     bool
	}
	if g.latest {
		newest.path, newest.value, newest.why, newest.found = newestRelevant(payload, g)
		if newest.found {
			g.fields = slices.DeleteFunc(g.fields, func(f string) bool { return f == "status" || f == "state" })
		}
	}
	for _, id := range g.ids {
		gc.Asked = append(gc.Asked, id)
		l := strings.ToLower(id)
		if !strings.Contains(all, l) && !strings.Contains(argText, l) {
			gc.Missing = append(gc.Missing, id)
		}
	}
	for _, f := range g.fields {
		gc.Asked = append(gc.Asked, f)
		if !slices.ContainsFunc(fieldWords[f], func(w string) bool { return keys[w] }) {
			gc.Missing = append(gc.Missing, f)
		}
	}
	switch {
	case len(gc.Missing) > 0:
		gc.By, gc.Verdict = ByRules, GoalNotAnswered
		gc.Reason = fmt.Sprintf("the result does not hold %s, which the goal asks about", quoteList(gc.Missing, " or "))
	case newest.found:
		gc.By, gc.Verdict = ByRules, GoalAnswered
		gc.Evidence, gc.EvidenceValue = newest.path, newest.value
		gc.Reason = newest.why
		if len(gc.Asked) > 0 {
			gc.Reason = fmt.Sprintf("the result holds %s; %s", quoteList(gc.Asked, " and "), newest.why)
		}
	case newest.why != "" && len(g.ids) == 0:
		// A dated list with nothing about the goal's words: the
		// result is about something else. (With ids, the list may be
		// a part of an entity the ids name.)
		gc.By, gc.Verdict, gc.Reason = ByRules, GoalNotAnswered, newest.why
	case len(gc.Asked) > 0:
		gc.By, gc.Verdict = ByRules, GoalAnswered
		gc.Reason = fmt.Sprintf("the result holds %s, which the goal asks about", quoteList(gc.Asked, " and "))
	default:
		gc.Verdict = GoalCannotTell
		gc.Reason = "the goal names no identifier or field judge can look for in the result"
	}
	return gc
}

// idArgsText is the text of the arguments that identify what the call is
// about (isIDParam: user_id, reservation_id, number, …), not free text
// such as a summary that merely mentions an id.
func idArgsText(args any) string {
	m, _ := args.(map[string]any)
	var sb strings.Builder
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if isIDParam(k) {
			sb.WriteString(argsText(m[k]))
		}
	}
	return sb.String()
}

// argsText is the text of a call's argument values.
func argsText(args any) string {
	var sb strings.Builder
	for _, l := range leaves(args) {
		sb.WriteString(l.text)
		sb.WriteByte('\n')
	}
	return sb.String()
}

// candidate is an item of a list that may answer a latest-state question.
type candidate struct {
	path     string
	value    any
	when     time.Time
	whenText string
	relevant bool
	index    int
}

// timeKey reports whether k names a time an item happened or changed.
func timeKey(k string) bool {
	l := strings.ToLower(k)
	for _, s := range []string{"date", "time", "timestamp", "created", "updated", "modified", "published", "posted", "occurred", "reported", "_at", "when"} {
		if strings.Contains(l, s) {
			return true
		}
	}
	return false
}

// timeLayouts are the forms of time newestRelevant reads.
var timeLayouts = []string{time.RFC3339Nano, time.RFC3339, "2006-01-02T15:04:05", "2006-01-02 15:04:05", "2006-01-02 15:04", "2006-01-02", time.RFC1123Z, time.RFC1123, "Jan 2, 2006", "2 Jan 2006"}

func parseTime(s string) (time.Time, bool) {
	s = strings.TrimSpace(s)
	for _, l := range timeLayouts {
		if t, err := time.Parse(l, s); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

// newestRelevant finds, in the largest list of objects with a time field,
// the newest item that is about the goal. It returns its path and value
// and a reason; ok is false when there is no such list (why is "") or no
// item of it is about the goal (why says so).
func newestRelevant(payload any, g goalAsks) (path string, v any, why string, ok bool) {
	var best []candidate
	var walk func(v any, path []string, arrays []bool, depth int)
	walk = func(v any, path []string, arrays []bool, depth int) {
		if depth > 8 {
			return
		}
		switch x := v.(type) {
		case map[string]any:
			for _, k := range slices.Sorted(maps.Keys(x)) {
				walk(x[k], append(slices.Clip(path), k), append(slices.Clip(arrays), false), depth+1)
			}
		case []any:
			var cands []candidate
			for i, e := range x {
				m, isObj := e.(map[string]any)
				if !isObj {
					continue
				}
				c := candidate{path: renderPath(append(slices.Clip(path), fmt.Sprint(i)), append(slices.Clip(arrays), true)), value: e, index: i}
				for _, k := range slices.Sorted(maps.Keys(m)) {
					if s, isStr := m[k].(string); isStr && timeKey(k) {
						if t, okT := parseTime(s); okT && (c.whenText == "" || t.After(c.when)) {
							c.when, c.whenText = t, s
						}
					}
				}
				if c.whenText != "" {
					c.relevant = about(e, g)
					cands = append(cands, c)
				}
			}
			if len(cands) >= 2 && len(cands) > len(best) {
				best = cands
			}
			for i, e := range x {
				if i >= 100 {
					break
				}
				walk(e, append(slices.Clip(path), fmt.Sprint(i)), append(slices.Clip(arrays), true), depth+1)
			}
		}
	}
	walk(payload, nil, nil, 0)
	if len(best) == 0 {
		return "", nil, "", false
	}
	var pick *candidate
	for i := range best {
		c := &best[i]
		if c.relevant && (pick == nil || c.when.After(pick.when)) {
			pick = c
		}
	}
	if pick == nil {
		return "", nil, fmt.Sprintf("none of the %d dated items of the result is about what the goal asks", len(best)), false
	}
	why = fmt.Sprintf("the newest item about it is %s (%s)", pick.path, pick.whenText)
	if pick.index != best[0].index {
		why += fmt.Sprintf(", not the first item %s", best[0].path)
		if !best[0].relevant {
			why += ", which is about something else"
		}
	}
	return pick.path, pick.value, why, true
}

// about reports whether an item is about what the goal asks: it holds one
// of the goal's ids, or, when the goal names none, one of its words.
func about(item any, g goalAsks) bool {
	text := strings.ToLower(argsText(item))
	terms := g.ids
	if len(terms) == 0 {
		terms = g.words
	}
	for _, t := range terms {
		if strings.Contains(text, strings.ToLower(t)) {
			return true
		}
	}
	return false
}

// goalCriterion is the plain-language criterion the model judges the
// result against.
func goalCriterion(goal string) string {
	return "The tool's result answers this goal of the user, or gives the information it asks for: " + goal
}

// checkGoalModel asks the model whether the result answers the goal.
func (ts *Toolset) checkGoalModel(ctx context.Context, goal, tool string, args, payload any) (GoalCheck, error) {
	out, err := json.Marshal(Compact(payload, ts.checker.budget).Value)
	if err != nil {
		return GoalCheck{}, err
	}
	cx, err := json.Marshal(map[string]any{"tool": tool, "arguments": args})
	if err != nil {
		return GoalCheck{}, err
	}
	res, _ := ts.checker.model.JudgeCriteria(ctx, llm.CriteriaQuestion{Output: string(out), Context: string(cx),
		Criteria: []llm.Criterion{{ID: 0, Text: goalCriterion(goal)}}})
	if res[0].Err != nil {
		return GoalCheck{}, res[0].Err
	}
	v := res[0].Verdict
	gc := GoalCheck{By: ByModel, Reason: v.Reason}
	switch v.Verdict {
	case llm.Met:
		gc.Verdict = GoalAnswered
	case llm.NotMet:
		gc.Verdict = GoalNotAnswered
	default:
		gc.Verdict, gc.By = GoalCannotTell, ""
	}
	return gc, nil
}

// checkGoal decides whether the result answers the goal: deterministically
// first, then with the model when one is configured. It adds its issue to
// b and returns the check and whether it decided.
func (ts *Toolset) checkGoal(ctx context.Context, b *result.Builder, goal, tool string, args, payload any) (*GoalCheck, bool) {
	gc := checkGoalRules(goal, args, payload)
	if gc.Verdict == GoalCannotTell && ts.checker.model != nil {
		mc, err := ts.checkGoalModel(ctx, goal, tool, args, payload)
		if err != nil {
			gc.Reason = "the deterministic check could not decide and the model gave no verdict: " + result.Clip(err.Error(), 200)
		} else {
			mc.Asked = gc.Asked
			if mc.Verdict == GoalCannotTell {
				mc.Reason = "neither the deterministic check nor the model could decide: " + mc.Reason
			}
			gc = mc
		}
	}
	switch gc.Verdict {
	case GoalAnswered:
		return &gc, true
	case GoalNotAnswered:
		b.Add(result.Issue{Severity: result.Warning, Type: result.CriteriaNotMet, Location: "goal",
			Message:    fmt.Sprintf("The result of '%s' does not answer the goal: %s", result.Clip(tool, 80), result.Clip(gc.Reason, 350)),
			Suggestion: "Call another tool, or the same one with other arguments, to get what the goal asks for",
			Rule:       "toolcall.goal." + gc.By})
		return &gc, true
	}
	msg := "Whether the result answers the goal was not decided: " + gc.Reason
	sug := "Read the extracted facts against the goal, or configure a model (JUDGE_LLM_BASE_URL, JUDGE_LLM_MODEL) to decide it"
	if ts.checker.model != nil {
		sug = "Read the extracted facts against the goal; name the ids or fields asked for in the goal"
	}
	b.Add(result.Issue{Severity: result.Info, Type: result.NotChecked, Location: "goal",
		Message: result.Clip(msg, 480), Suggestion: sug, Rule: "toolcall.goal"})
	return &gc, false
}
