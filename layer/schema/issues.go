package schema

import (
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"math/big"
	gourl "net/url"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"

	"github.com/agentjudge/judge/internal/spell"
	"github.com/agentjudge/judge/layer"
	"github.com/agentjudge/judge/result"
)

// maxShown is how many characters of an actual value a message quotes.
const maxShown = 60

// maxName is how many characters of a field name a message quotes.
const maxName = 100

// finding is one issue with what the reporter needs to compose it into
// others: the instance path as tokens, and the message as a phrase after its
// subject ("has type string, expected integer").
type finding struct {
	issue  result.Issue
	tokens []string
	reason string
	// keyword is the failed keyword; field is the property the finding
	// names beside its location (a missing required field), and expected
	// and actual what the keyword wanted and met, where the keyword has
	// them. Findings hands them out.
	keyword, field   string
	expected, actual string
	// regex and gap are set for a regular expression that JSON Schema
	// allows but RE2 cannot run: the expression, and what it uses that RE2
	// lacks ("a lookahead").
	regex, gap string
	// limit, for a regular expression that breaks one of RE2's size
	// limits, says why (see re2Limit).
	limit string
}

// reporter turns a *jsonschema.ValidationError tree into findings.
type reporter struct {
	c     *compiled // nil when the instance is a schema checked against a meta-schema
	held  *fullForm // c's full form, once asked for (see form)
	doc   instance  // the validated value
	noun  string    // how messages name the instance: "the output"
	found []finding
	// budget is how many findings the reporter composes; past it, it only
	// counts them in skipped.
	budget  int
	skipped int
	err     *layer.InputError // met while walking: a $ref cycle, a value that is not JSON
}

// newReporter returns a reporter of the errors of doc, a value validated
// against c (nil for a schema checked against its meta-schema), that
// composes at most budget findings.
func newReporter(c *compiled, doc any, budget int) *reporter {
	return newReporterOn(c, decoded{doc}, budget)
}

// newReporterOn is newReporter over any instance: a decoded value, or the
// bytes the fast path read (see rawDoc).
func newReporterOn(c *compiled, doc instance, budget int) *reporter {
	return &reporter{c: c, doc: doc, noun: defaultNoun, budget: max(budget, 0)}
}

// instance is the validated value as the reporter reads it: the location
// of a path in it (which tokens index arrays) and the value at a path.
// The slow path has it decoded (decoded); the fast path reads it from the
// document's bytes (rawDoc), so that both compose the same messages.
type instance interface {
	location(tokens []string) string
	value(tokens []string) any
}

// decoded is a decoded JSON value as an instance.
type decoded struct{ v any }

func (d decoded) location(tokens []string) string { return InstanceLocation(d.v, tokens) }

func (d decoded) value(tokens []string) any {
	v, _ := lookup(d.v, tokens)
	return v
}

// defaultNoun is how messages name the validated value unless a caller of
// Findings names it otherwise.
const defaultNoun = "the output"

// full reports whether the reporter has composed all the findings its
// budget allows.
func (r *reporter) full() bool { return len(r.found) >= r.budget }

// issues returns the findings as issues, with an info issue counting those
// past the budget, sorted as a result lists them. result.Builder.Build sorts
// again and drops duplicates; sorting here keeps the layer's own findings
// (Pass.Findings) in a stable order.
func (r *reporter) issues() []result.Issue {
	n := len(r.found)
	if r.skipped > 0 {
		n++
	}
	issues := make([]result.Issue, 0, n)
	for i := range r.found {
		issues = append(issues, r.found[i].issue)
	}
	if r.skipped > 0 {
		issues = append(issues, r.truncated())
	}
	// Issues equal by CompareIssues are equal: any sort gives sorted's order.
	slices.SortFunc(issues, result.CompareIssues)
	return issues
}

// truncated is the note counting the findings past the budget.
func (r *reporter) truncated() result.Issue {
	return result.Issue{
		Severity:   result.Info,
		Type:       result.NotChecked,
		Location:   "root",
		Message:    fmt.Sprintf("%d more schema errors were not reported: only the first %d are listed", r.skipped, r.budget),
		Suggestion: "Fix the errors listed, which are likely repeated across " + r.noun + ", and validate again to see any that remain",
		Rule:       "schema.truncated",
	}
}

// sorted returns the findings, with the note counting those past the
// budget, in the order of issues.
func (r *reporter) sorted() []finding {
	found := make([]finding, 0, len(r.found)+1)
	found = append(found, r.found...)
	if r.skipped > 0 {
		found = append(found, finding{issue: r.truncated()})
	}
	slices.SortFunc(found, func(a, b finding) int { return result.CompareIssues(a.issue, b.issue) })
	return found
}

// site is where an issue is: its tokens, its location, and how messages
// name it.
type site struct {
	tokens []string
	loc    string // "user.email", "tasks[2]", "root"
	subj   string // starts a message: "Field 'email'", "Item tasks[2]", "The output"
	ref    string // inside a sentence: "'email'", "tasks[2]", "the output"
	where  string // after a noun: "in user", "at root"
	into   string // after "Add x": "to user", "to the output"
}

// at is the site of tokens; the fast path writes the same texts itself
// (scanner.site and its helpers in fastdirect.go).
func (r *reporter) at(tokens []string) site {
	s := site{tokens: tokens, loc: r.doc.location(tokens)}
	// The texts that end alike share one allocation: ref is the end of
	// subj, and where and into are cut from one string.
	switch {
	case len(tokens) == 0:
		s.subj, s.ref, s.where, s.into = capital(r.noun), r.noun, "at root", "to the output"
		if r.noun != defaultNoun {
			s.into = "to " + r.noun
		}
		return s
	case isArrayIndex(tokens[len(tokens)-1]) && strings.HasSuffix(s.loc, "]") && !strings.HasSuffix(s.loc, `"]`):
		s.subj = "Item " + clipLeft(s.loc, maxShown)
		s.ref = s.subj[len("Item "):]
	default:
		s.subj = "Field '" + result.Clip(tokens[len(tokens)-1], maxName) + "'"
		s.ref = s.subj[len("Field "):]
	}
	loc := clipLeft(s.loc, maxShown)
	both := "in " + loc + "to " + loc
	s.where, s.into = both[:3+len(loc)], both[3+len(loc):]
	return s
}

// capital returns s with its first letter in upper case.
func capital(s string) string {
	switch s {
	case "":
		return s
	case defaultNoun:
		return "The output"
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// clipLeft cuts a location to its last n characters, starting with "…"
// when cut.
func clipLeft(s string, n int) string {
	if len(s) <= n || utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return "…" + string(r[len(r)-n+1:])
}

func (r *reporter) schema(url string) *jsonschema.Schema {
	if f := r.form(); f != nil {
		return f.index[url]
	}
	return nil
}

// form is the full form of r.c (nil without one), kept from the first
// call: a reporter words issues of one document against one full form.
func (r *reporter) form() *fullForm {
	if r.held == nil && r.c != nil {
		r.held = r.c.form(true)
	}
	return r.held
}

func (r *reporter) value(tokens []string) any {
	return r.doc.value(tokens)
}

// add adds a finding and returns it, or counts it and returns nil when the
// budget is spent.
func (r *reporter) add(s site, typ result.Type, keyword, msg, reason, suggestion string) *finding {
	if r.full() {
		r.skipped++
		return nil
	}
	r.found = append(r.found, finding{
		issue: result.Issue{
			Severity:   result.Error,
			Type:       typ,
			Message:    result.Clip(msg, result.MaxTextLen),
			Location:   s.loc,
			Suggestion: result.Clip(suggestion, result.MaxTextLen),
			Rule:       ruleOf(keyword),
		},
		tokens:  s.tokens,
		reason:  reason,
		keyword: keyword,
	})
	return &r.found[len(r.found)-1]
}

// ruleOf is the rule of an issue of the keyword: "schema.type". The
// keywords the reporter names most have theirs written out, which spares
// an allocation per issue.
func ruleOf(keyword string) string {
	switch keyword {
	case "type":
		return "schema.type"
	case "required":
		return "schema.required"
	case "enum":
		return "schema.enum"
	case "const":
		return "schema.const"
	case "additionalProperties":
		return "schema.additionalProperties"
	case "pattern":
		return "schema.pattern"
	case "format":
		return "schema.format"
	case "minLength":
		return "schema.minLength"
	case "maxLength":
		return "schema.maxLength"
	case "minimum":
		return "schema.minimum"
	case "maximum":
		return "schema.maximum"
	case "minItems":
		return "schema.minItems"
	case "maxItems":
		return "schema.maxItems"
	case "anyOf":
		return "schema.anyOf"
	case "oneOf":
		return "schema.oneOf"
	}
	return "schema." + keyword
}

// addf adds an issue whose message is the subject followed by reason.
func (r *reporter) addf(s site, typ result.Type, keyword, reason, suggestion string) *finding {
	return r.add(s, typ, keyword, s.subj+" "+reason, reason, suggestion)
}

func (r *reporter) fail(err *layer.InputError) {
	if r.err == nil {
		r.err = err
	}
}

// walk reports the leaves under e. Groups (the whole schema, allOf, $ref,
// several failed keywords of one schema) are walked through, in the order
// of inOrder; anyOf and oneOf are judged as a whole by alternatives. Past
// the budget, walk goes on to count the leaves and to find the errors that
// make validation fail.
func (r *reporter) walk(e *jsonschema.ValidationError) {
	switch k := e.ErrorKind.(type) {
	case *kind.Schema, *kind.Group, *kind.AllOf, *kind.Reference:
		for _, c := range inOrder(e.Causes) {
			r.walk(c)
		}
	case *kind.AnyOf:
		r.alternatives(e, "anyOf")
	case *kind.OneOf:
		if len(k.Subschemas) < 2 {
			r.alternatives(e, "oneOf")
		} else {
			r.leaf(e)
		}
	case *kind.RefCycle:
		loc := k.URL
		if r.c != nil {
			loc = r.c.schemaLoc(k.URL)
		}
		path := "the schema's root"
		if k.KeywordLocation1 != "" {
			path = quoteJSON(k.KeywordLocation1)
		}
		r.fail(&layer.InputError{Layer: "schema", Location: loc,
			Msg: fmt.Sprintf("$ref cycle: following %s comes back to %s for the same value, so validation would never end",
				path, loc)})
	case *kind.InvalidJsonValue:
		loc := "output"
		if len(e.InstanceLocation) > 0 {
			loc += "/" + pointer(e.InstanceLocation)
		}
		r.fail(&layer.InputError{Layer: "schema", Location: loc,
			Msg: fmt.Sprintf("the output holds a Go %T, which is not a JSON value", k.Value)})
	default:
		r.leaf(e)
	}
}

// inOrder returns errs ordered by instance location (array indices in
// numeric order), schema location and keyword. The validator lists the
// errors of an object's properties in Go's random map order; since the
// budget keeps the first findings, the order must not vary.
func inOrder(errs []*jsonschema.ValidationError) []*jsonschema.ValidationError {
	if slices.IsSortedFunc(errs, compareErrors) {
		return errs
	}
	return slices.SortedStableFunc(slices.Values(errs), compareErrors)
}

func compareErrors(a, b *jsonschema.ValidationError) int {
	if c := slices.CompareFunc(a.InstanceLocation, b.InstanceLocation, compareTokens); c != 0 {
		return c
	}
	if c := cmp.Compare(a.SchemaURL, b.SchemaURL); c != 0 {
		return c
	}
	return slices.Compare(keywordPath(a), keywordPath(b))
}

// compareTokens orders two tokens of an instance location: array indices
// by number, anything else as strings.
func compareTokens(a, b string) int {
	if isArrayIndex(a) && isArrayIndex(b) {
		return cmp.Or(cmp.Compare(len(a), len(b)), cmp.Compare(a, b))
	}
	return cmp.Compare(a, b)
}

func keywordPath(e *jsonschema.ValidationError) []string {
	if e.ErrorKind == nil {
		return nil
	}
	return e.ErrorKind.KeywordPath()
}

// leafFindings is how many findings leaf makes of e.
func leafFindings(e *jsonschema.ValidationError) int {
	switch k := e.ErrorKind.(type) {
	case *kind.Required:
		return len(k.Missing)
	case *kind.AdditionalProperties:
		return len(k.Properties)
	case *kind.Dependency:
		return len(k.Missing)
	case *kind.DependentRequired:
		return len(k.Missing)
	}
	return 1
}

// leaf reports one failed keyword, or counts its findings when the budget
// is spent.
func (r *reporter) leaf(e *jsonschema.ValidationError) {
	if r.full() {
		r.skipped += leafFindings(e)
		return
	}
	s := r.at(e.InstanceLocation)
	holder := r.schema(e.SchemaURL)
	switch k := e.ErrorKind.(type) {
	case *kind.Required:
		r.required(s, holder, k.Missing)
	case *kind.Type:
		r.wrongType(s, k)
	case *kind.Enum:
		r.enum(s, k.Got, k.Want)
	case *kind.Const:
		r.constant(s, k)
	case *kind.Minimum:
		r.number(s, holder, "minimum", k.Got, k.Want)
	case *kind.Maximum:
		r.number(s, holder, "maximum", k.Got, k.Want)
	case *kind.ExclusiveMinimum:
		r.number(s, holder, "exclusiveMinimum", k.Got, k.Want)
	case *kind.ExclusiveMaximum:
		r.number(s, holder, "exclusiveMaximum", k.Got, k.Want)
	case *kind.MultipleOf:
		reason, sugg := multipleOfWords(numString(r.value(s.tokens), k.Got), k.Want, s.ref)
		r.addf(s, result.ConstraintViolation, "multipleOf", reason, sugg)
	case *kind.MinLength:
		reason, sugg := minLengthWords(show(r.value(s.tokens)), k.Got, k.Want, s.ref, holder)
		r.addf(s, result.ConstraintViolation, "minLength", reason, sugg)
	case *kind.MaxLength:
		reason, sugg := maxLengthWords(k.Got, k.Want, s.ref, holder)
		r.addf(s, result.ConstraintViolation, "maxLength", reason, sugg)
	case *kind.Pattern:
		reason, sugg := patternWords(show(k.Got), k.Want, s.ref)
		r.addf(s, result.ConstraintViolation, "pattern", reason, sugg)
	case *kind.Format:
		r.format(s, k)
	case *kind.MinItems:
		r.addf(s, result.ConstraintViolation, "minItems",
			fmt.Sprintf("has %s, fewer than the minimum %d", plural(k.Got, "item"), k.Want),
			countSuggestion(s, holder, "items", fmt.Sprintf("Add items to %s until it has at least %d", s.ref, k.Want)))
	case *kind.MaxItems:
		r.addf(s, result.ConstraintViolation, "maxItems",
			fmt.Sprintf("has %s, more than the maximum %d", plural(k.Got, "item"), k.Want),
			countSuggestion(s, holder, "items", fmt.Sprintf("Remove items from %s until it has at most %d", s.ref, k.Want)))
	case *kind.MinProperties:
		r.addf(s, result.ConstraintViolation, "minProperties",
			fmt.Sprintf("has %s, fewer than the minimum %d", plural(k.Got, "property"), k.Want),
			countSuggestion(s, holder, "properties", fmt.Sprintf("Add properties to %s until it has at least %d", s.ref, k.Want)))
	case *kind.MaxProperties:
		r.addf(s, result.ConstraintViolation, "maxProperties",
			fmt.Sprintf("has %s, more than the maximum %d", plural(k.Got, "property"), k.Want),
			countSuggestion(s, holder, "properties", fmt.Sprintf("Remove properties from %s until it has at most %d", s.ref, k.Want)))
	case *kind.UniqueItems:
		r.uniqueItems(s, k)
	case *kind.AdditionalProperties:
		r.additionalProperties(s, holder, k.Properties)
	case *kind.AdditionalItems:
		r.additionalItems(s, k)
	case *kind.PropertyNames:
		r.propertyNames(e, s, k.Property)
	case *kind.Contains:
		what := containsWhat(holder)
		r.addf(s, result.ConstraintViolation, "contains",
			fmt.Sprintf("has no item that matches %s", what),
			fmt.Sprintf("Add an item that matches %s to %s", what, s.ref))
	case *kind.MinContains:
		what := containsWhat(holder)
		r.addf(s, result.ConstraintViolation, "minContains",
			fmt.Sprintf("has %s matching %s, fewer than minContains %d", plural(len(k.Got), "item"), what, k.Want),
			fmt.Sprintf("Add items that match %s to %s until at least %d do", what, s.ref, k.Want))
	case *kind.MaxContains:
		what := containsWhat(holder)
		r.addf(s, result.ConstraintViolation, "maxContains",
			fmt.Sprintf("has %s matching %s, more than maxContains %d", plural(len(k.Got), "item"), what, k.Want),
			fmt.Sprintf("Remove items that match %s from %s until at most %d do", what, s.ref, k.Want))
	case *kind.Dependency:
		r.dependent(s, "dependencies", k.Prop, k.Missing)
	case *kind.DependentRequired:
		r.dependent(s, "dependentRequired", k.Prop, k.Missing)
	case *kind.FalseSchema:
		r.falseSchema(e, s)
	case *kind.Not:
		r.not(s, holder)
	case *kind.OneOf:
		r.moreThanOne(s, holder, k)
	default:
		r.otherKeyword(e, s)
	}
}

// required reports each field of missing that s lacks, the name cut at
// maxName and the property's schema found by the whole name. The fast
// path writes the same words itself (fastdirect.go): change both together.
func (r *reporter) required(s site, holder *jsonschema.Schema, missing []string) {
	for _, name := range missing {
		full := name
		name := result.Clip(name, maxName)
		if f := r.add(s, result.MissingField, "required",
			"Missing required field '"+name+"' "+s.where,
			"is missing required field '"+name+"'",
			addFieldSuggestion(name, r.fieldInfo(propertySchema(holder, full)), s)); f != nil {
			f.field = full
		}
	}
}

// wrongType reports a value of a type the schema does not accept. The
// fast path writes the same words itself (fastdirect.go).
func (r *reporter) wrongType(s site, k *kind.Type) {
	want := strings.Join(k.Want, " or ")
	// The message is the subject and the reason, one string.
	msg := s.subj + " has type " + k.Got + ", expected " + want
	if f := r.add(s, result.InvalidType, "type", msg, msg[len(s.subj)+1:],
		"Change "+s.ref+" to "+article(want)+" "+want+" value"); f != nil {
		f.expected, f.actual = want, k.Got
	}
}

// constant reports a value other than the schema's const. The fast path
// writes the same words itself (fastdirect.go).
func (r *reporter) constant(s site, k *kind.Const) {
	if f := r.addf(s, result.ConstraintViolation, "const",
		fmt.Sprintf("is %s, but must be the constant %s", show(k.Got), show(k.Want)),
		fmt.Sprintf("Set %s to %s", s.ref, show(k.Want))); f != nil {
		f.expected, f.actual = show(k.Want), show(k.Got)
	}
}

// format reports a string that is not of its format, naming what RE2
// lacks for a regular expression it cannot read.
func (r *reporter) format(s site, k *kind.Format) {
	why := ""
	if k.Err != nil {
		why = " (" + result.Clip(k.Err.Error(), 120) + ")"
	}
	reason := fmt.Sprintf("is %s, not a valid %s%s", show(k.Got), k.Want, why)
	regex, _ := k.Got.(string)
	gap := ""
	if k.Want == "regex" {
		gap = re2Gap(regex)
	}
	limit := ""
	if k.Want == "regex" && gap == "" {
		limit = re2Limit(regex, k.Err)
	}
	switch {
	case gap != "":
		reason = fmt.Sprintf("is %s, a regular expression that uses %s, which judge's regular-expression engine (RE2) does not support",
			show(regex), gap)
	case limit != "":
		reason = fmt.Sprintf("is %s, a regular expression that %s", show(regex), limit)
	}
	if f := r.addf(s, result.ConstraintViolation, "format", reason,
		fmt.Sprintf("Change %s to a valid %s%s", s.ref, k.Want, formatExample(k.Want))); f != nil && (gap != "" || limit != "") {
		f.regex, f.gap, f.limit = regex, gap, limit
	}
}

// uniqueItems reports the first two equal items of an array whose items
// must be unique.
func (r *reporter) uniqueItems(s site, k *kind.UniqueItems) {
	i, j := k.Duplicates[0], k.Duplicates[1]
	ti, tj := appendToken(s.tokens, strconv.Itoa(i)), appendToken(s.tokens, strconv.Itoa(j))
	li, lj := r.doc.location(ti), r.doc.location(tj)
	r.addf(s, result.ConstraintViolation, "uniqueItems",
		fmt.Sprintf("has duplicate items, but its items must be unique: %s and %s are both %s", li, lj, show(r.value(ti))),
		fmt.Sprintf("Remove the duplicate item %s, or change it so that no two items are equal", lj))
}

// additionalItems reports the items past those additionalItems false
// allows.
func (r *reporter) additionalItems(s site, k *kind.AdditionalItems) {
	n := 0
	if arr, ok := r.value(s.tokens).([]any); ok {
		n = len(arr)
	}
	r.addf(s, result.ConstraintViolation, "additionalItems",
		fmt.Sprintf("has %s, but the schema allows only the first %d (additionalItems is false)", plural(n, "item"), n-k.Count),
		fmt.Sprintf("Remove the last %s from %s", plural(k.Count, "item"), s.ref))
}

// not reports a value that matches the schema under not.
func (r *reporter) not(s site, holder *jsonschema.Schema) {
	what := "the schema under 'not'"
	if holder != nil {
		if sum := summarize(holder.Not); sum != "" {
			what += " (" + sum + ")"
		}
	}
	r.addf(s, result.SchemaViolation, "not",
		fmt.Sprintf("matches %s, which it must not match", what),
		fmt.Sprintf("Change %s so that it no longer matches %s", s.ref, what))
}

// moreThanOne reports a value that matches two alternatives of a oneOf.
func (r *reporter) moreThanOne(s site, holder *jsonschema.Schema, k *kind.OneOf) {
	i, j := k.Subschemas[0], k.Subschemas[1]
	var branches []*jsonschema.Schema
	if holder != nil {
		branches = holder.OneOf
	}
	a, b := alternative(branches, i), alternative(branches, j)
	r.addf(s, result.SchemaViolation, "oneOf",
		fmt.Sprintf("matches more than one alternative of oneOf (%s and %s), but must match exactly one", a, b),
		fmt.Sprintf("Change %s so that it matches exactly one of the alternatives, not both %s and %s", s.ref, a, b))
}

// otherKeyword reports the failure of a keyword leaf has no words of its
// own for, in the library's text.
func (r *reporter) otherKeyword(e *jsonschema.ValidationError, s site) {
	kw := "invalid"
	if p := e.ErrorKind.KeywordPath(); len(p) > 0 {
		kw = p[0]
	}
	r.addf(s, result.SchemaViolation, kw,
		fmt.Sprintf("fails the '%s' keyword of the schema: %s", kw, result.Clip(libraryText(e), 200)),
		fmt.Sprintf("Change %s so that it satisfies the '%s' keyword of the schema", s.ref, kw))
}

// enum reports a value the enum does not allow. The fast path writes the
// same words itself (fastdirect.go).
func (r *reporter) enum(s site, got any, want []any) {
	if len(want) == 1 {
		r.addf(s, result.ConstraintViolation, "enum",
			fmt.Sprintf("is %s, but the only allowed value is %s", show(got), show(want[0])),
			fmt.Sprintf("Set %s to %s", s.ref, show(want[0])))
		return
	}
	list := showList(want, 10)
	reason := fmt.Sprintf("is %s, not one of the allowed values", show(got))
	if len(want) <= 5 && utf8.RuneCountInString(list) <= 150 {
		reason += " " + list
	}
	r.addf(s, result.ConstraintViolation, "enum", reason,
		fmt.Sprintf("Use one of the allowed values for %s: %s", s.ref, list))
}

func (r *reporter) number(s site, holder *jsonschema.Schema, keyword string, got, want *big.Rat) {
	shown := numString(r.value(s.tokens), got)
	reason, sugg := numberWords(keyword, shown, want, s.ref, holder)
	if f := r.addf(s, result.ConstraintViolation, keyword, reason, sugg); f != nil {
		f.expected, f.actual = ratString(want), shown
	}
}

// numberWords is the reason and suggestion of a failed minimum, maximum,
// exclusiveMinimum or exclusiveMaximum keyword, for the number shown
// (numString) at the site named ref, holder the failed schema; the fast
// path writes them through it too (scanner.valueIssue).
func numberWords(keyword, shown string, want *big.Rat, ref string, holder *jsonschema.Schema) (reason, sugg string) {
	format := "is %s, not below the exclusive maximum %s"
	switch keyword {
	case "minimum":
		format = "is %s, below the minimum %s"
	case "maximum":
		format = "is %s, above the maximum %s"
	case "exclusiveMinimum":
		format = "is %s, not above the exclusive minimum %s"
	}
	return fmt.Sprintf(format, shown, ratString(want)),
		fmt.Sprintf("Use a value %s for %s", ofBounds(numberBounds(holder, keyword, want)), ref)
}

// multipleOfWords is numberWords for a failed multipleOf.
func multipleOfWords(shown string, want *big.Rat, ref string) (reason, sugg string) {
	return fmt.Sprintf("is %s, not a multiple of %s", shown, ratString(want)),
		fmt.Sprintf("Change %s to a multiple of %s", ref, ratString(want))
}

// ofBounds puts "of" before bounds that start with "at": "of at most 5".
func ofBounds(b string) string {
	if strings.HasPrefix(b, "at ") {
		return "of " + b
	}
	return b
}

// additionalProperties reports each of props, which holder's
// additionalProperties false refuses; the fast path writes the same
// words itself (scanner.addlIssues), through addlDeclared and addlWords.
func (r *reporter) additionalProperties(s site, holder *jsonschema.Schema, props []string) {
	declared, allowed := addlDeclared(holder)
	obj, _ := r.value(s.tokens).(map[string]any)
	for _, prop := range slices.Sorted(slices.Values(props)) {
		p := r.at(appendToken(s.tokens, prop))
		msg, sugg := addlWords(result.Clip(prop, maxName), nearest(prop, declared, func(i int) bool {
			_, ok := obj[declared[i]]
			return ok
		}), allowed, s.where, strings.TrimPrefix(s.into, "to "))
		if f := r.add(p, result.ConstraintViolation, "additionalProperties", msg,
			"is not allowed (additionalProperties is false)", sugg); f != nil {
			f.field = prop
		}
	}
}

// addlDeclared returns the names holder declares, sorted, and the fields
// its additionalProperties false allows, as its issues list them ("" when
// it declares none and has no patternProperties).
func addlDeclared(holder *jsonschema.Schema) (declared []string, allowed string) {
	var patterns []string
	if holder != nil {
		declared = slices.Sorted(maps.Keys(holder.Properties))
		for re := range holder.PatternProperties {
			patterns = append(patterns, re.String())
		}
		slices.Sort(patterns)
	}
	if len(declared) > 0 || len(patterns) > 0 {
		allowed = quoteList(declared, 10)
		if len(patterns) > 0 {
			if allowed != "" {
				allowed += ", and "
			}
			allowed += "fields whose names match " + strings.Join(patterns, " or ")
		}
	}
	return declared, allowed
}

// addlWords is the message and suggestion of the field name (cut) that
// additionalProperties false refuses: near is the declared name it is
// closest to (nearest), allowed what addlDeclared lists, where the
// object's place ("in user", "at root") and into the object ("user",
// "the output").
func addlWords(name, near, allowed, where, into string) (msg, sugg string) {
	switch near = result.Clip(near, maxName); {
	case near != "":
		sugg = "Rename '" + name + "' to '" + near + "', a field the schema declares, or remove it"
	case allowed != "":
		sugg = "Remove '" + name + "'; the fields allowed " + where + " are " + allowed
	default:
		sugg = "Remove '" + name + "' from " + into
	}
	return "Field '" + name + "' is not allowed " + where + ": the schema permits no properties besides those it declares", sugg
}

func (r *reporter) propertyNames(e *jsonschema.ValidationError, s site, name string) {
	sub := newReporter(r.c, name, MaxIssues)
	sub.noun = r.noun
	for _, c := range e.Causes {
		sub.walk(c)
	}
	why := "it fails the propertyNames schema"
	f := sub.first()
	if f != nil {
		why = "the name " + f.reason
	}
	p := r.at(appendToken(s.tokens, name))
	if added := r.add(p, result.ConstraintViolation, "propertyNames",
		fmt.Sprintf("Property name %s %s is not allowed: %s", show(name), s.where, why),
		"has a name the schema does not allow: "+why,
		fmt.Sprintf("Rename the property %s %s so that its name is allowed, or remove it", show(name), s.where)); added != nil && f != nil {
		added.regex, added.gap, added.limit = f.regex, f.gap, f.limit
	}
}

func (r *reporter) dependent(s site, keyword, prop string, missing []string) {
	prop = result.Clip(prop, maxName)
	for _, name := range missing {
		full := name
		name := result.Clip(name, maxName)
		if f := r.add(s, result.ConstraintViolation, keyword,
			fmt.Sprintf("Missing field '%s' %s, required when '%s' is present", name, s.where, prop),
			fmt.Sprintf("is missing field '%s', required when '%s' is present", name, prop),
			fmt.Sprintf("Add %s '%s' field %s, or remove '%s'", article(name), name, s.into, prop)); f != nil {
			f.field = full
		}
	}
}

func (r *reporter) falseSchema(e *jsonschema.ValidationError, s site) {
	toks := pointerTokens(e.SchemaURL)
	last, parent := "", ""
	if n := len(toks); n > 0 {
		last = toks[n-1]
		if n > 1 {
			parent = toks[n-2]
		}
	}
	remove := "Check the expected schema: the part that applies to " + r.noun + " is false and rejects every value"
	if len(s.tokens) > 0 {
		up := r.at(s.tokens[:len(s.tokens)-1])
		remove = "Remove " + s.ref + " from " + strings.TrimPrefix(up.into, "to ")
	}
	switch {
	case len(s.tokens) == 0 && len(toks) == 0:
		r.addf(s, result.SchemaViolation, "false",
			"is not allowed: the expected schema is false, which accepts no value at all",
			"Check the expected schema: a schema of false rejects every output")
	case last == "unevaluatedProperties" || last == "unevaluatedItems":
		r.addf(s, result.SchemaViolation, last,
			fmt.Sprintf("is not allowed: no keyword of the schema covers it and %s is false", last), remove)
	case last == "items" || last == "additionalItems" || parent == "items" || parent == "prefixItems":
		r.addf(s, result.SchemaViolation, "items",
			"is not allowed: the schema accepts no item at this position", remove)
	case parent == "properties" || parent == "patternProperties":
		r.addf(s, result.SchemaViolation, parent, "is not allowed: its schema is false", remove)
	case last == "additionalProperties":
		r.addf(s, result.SchemaViolation, last, "is not allowed: its schema is false", remove)
	default:
		r.addf(s, result.SchemaViolation, "false",
			"is not allowed here: the schema at this point is false and accepts no value", remove)
	}
}

// alternatives reports an anyOf or oneOf none of whose branches matched.
//
// A branch is ruled out when the value fails it at the top: wrong type,
// wrong const or enum, a false schema, or a const or enum on a direct
// property (a discriminator such as "kind": "circle"). When exactly one
// branch is left, the value was meant for it and its issues are reported.
// When every branch is ruled out by type alone, one invalid_type issue
// lists the types the branches accept. Otherwise one schema_violation issue
// describes each alternative and why the value fails it.
func (r *reporter) alternatives(e *jsonschema.ValidationError, keyword string) {
	var branches []*jsonschema.Schema
	if h := r.schema(e.SchemaURL); h != nil {
		branches = h.AnyOf
		if keyword == "oneOf" {
			branches = h.OneOf
		}
	}
	if len(branches) != len(e.Causes) {
		branches = nil
	}
	alts := make([]branchResult, len(e.Causes))
	var open []int
	for i, c := range e.Causes {
		sub := newReporterOn(r.c, r.doc, r.budget-len(r.found))
		sub.noun = r.noun
		sub.walk(c)
		if sub.err != nil {
			r.fail(sub.err)
			return
		}
		a := branchResult{sub: sub}
		a.ruledOut, a.types = ruledOut(c, len(e.InstanceLocation))
		alts[i] = a
		if !a.ruledOut {
			open = append(open, i)
		}
	}
	if len(open) == 1 {
		r.found = append(r.found, alts[open[0]].sub.found...)
		r.skipped += alts[open[0]].sub.skipped
		return
	}
	if r.full() {
		r.skipped++
		return
	}
	s := r.at(e.InstanceLocation)
	if len(open) == 0 {
		if want := typesOf(alts); len(want) > 0 {
			got := "unknown"
			for _, l := range leaves(e.Causes[0]) {
				if k, ok := l.ErrorKind.(*kind.Type); ok && len(l.InstanceLocation) == len(e.InstanceLocation) {
					got = k.Got
					break
				}
			}
			w := strings.Join(want, " or ")
			r.addf(s, result.InvalidType, keyword,
				fmt.Sprintf("has type %s, expected %s", got, w),
				fmt.Sprintf("Change %s to %s %s value", s.ref, article(w), w))
			return
		}
	}
	const maxListed = 4
	var parts, names []string
	for i, a := range alts {
		name := alternative(branches, i)
		names = append(names, name)
		if i == maxListed {
			parts = append(parts, fmt.Sprintf("and %d more", len(alts)-maxListed))
			continue
		} else if i > maxListed {
			continue
		}
		parts = append(parts, name+": "+result.Clip(r.whyNot(a, e.InstanceLocation), 110))
	}
	reason := fmt.Sprintf("matches none of the %d alternatives of %s: %s", len(alts), keyword, strings.Join(parts, "; "))
	one := "at least one"
	if keyword == "oneOf" {
		one = "exactly one"
	}
	r.addf(s, result.SchemaViolation, keyword, reason,
		fmt.Sprintf("Change %s so that it matches %s of the alternatives: %s", s.ref, one, result.Clip(strings.Join(names, ", "), 300)))
}

// branchResult is one branch of an anyOf or oneOf as alternatives weighs it: its
// issues (sub), whether the value fails it at the top, and the types that
// ruled it out.
type branchResult struct {
	sub      *reporter
	ruledOut bool
	types    []string
}

// ruledOut says whether the value at depth atDepth fails c, a branch's
// error, at the top (see alternatives), and which types the branch
// accepts when a wrong type is why.
func ruledOut(c *jsonschema.ValidationError, atDepth int) (out bool, types []string) {
	for _, l := range leaves(c) {
		depth := len(l.InstanceLocation) - atDepth
		switch k := l.ErrorKind.(type) {
		case *kind.Type:
			if depth == 0 {
				out = true
				types = append(types, k.Want...)
			}
		case *kind.FalseSchema:
			out = out || depth == 0
		case *kind.Const, *kind.Enum:
			out = out || depth <= 1
		}
	}
	return out, types
}

// typesOf returns the types the alternatives accept, each once, when every
// one was ruled out by its type; nil otherwise.
func typesOf(alts []branchResult) []string {
	var want []string
	for _, a := range alts {
		if len(a.types) == 0 {
			return nil
		}
		for _, t := range a.types {
			if !slices.Contains(want, t) {
				want = append(want, t)
			}
		}
	}
	return want
}

// whyNot says why the value at tokens fails a: its first issue, and how
// many more there are.
func (r *reporter) whyNot(a branchResult, tokens []string) string {
	why := "it does not match"
	if f := a.sub.first(); f != nil {
		if slices.Equal(f.tokens, tokens) {
			why = "it " + f.reason
		} else {
			why = r.doc.location(f.tokens) + " " + f.reason
		}
		if n := len(a.sub.found) + a.sub.skipped; n > 1 {
			why += fmt.Sprintf(" (and %d more)", n-1)
		}
	}
	return why
}

// first returns the first finding in issue order, or nil.
func (r *reporter) first() *finding {
	if len(r.found) == 0 {
		return nil
	}
	f := slices.MinFunc(r.found, func(a, b finding) int { return result.CompareIssues(a.issue, b.issue) })
	return &f
}

// leaves returns the errors under e that are not groups, stopping at
// anyOf, oneOf and other keywords that judge their causes themselves.
func leaves(e *jsonschema.ValidationError) []*jsonschema.ValidationError {
	switch e.ErrorKind.(type) {
	case *kind.Schema, *kind.Group, *kind.AllOf, *kind.Reference:
		var out []*jsonschema.ValidationError
		for _, c := range e.Causes {
			out = append(out, leaves(c)...)
		}
		return out
	}
	return []*jsonschema.ValidationError{e}
}

// alternative names branch i of an anyOf or oneOf: "#2 \"Dog\" (object)".
func alternative(branches []*jsonschema.Schema, i int) string {
	name := fmt.Sprintf("#%d", i+1)
	if i < len(branches) {
		if sum := summarize(branches[i]); sum != "" {
			name += " " + sum
		}
	}
	return name
}

// summarize describes a schema in a few words: its title or the name it is
// defined under, and its type, constant or values. It returns "" when
// nothing short describes it.
func summarize(s *jsonschema.Schema) string {
	if s == nil {
		return ""
	}
	name := ""
	refName := ""
	cur := s
	for range 8 {
		if name == "" && cur.Title != "" {
			name = cur.Title
		}
		if !alwaysRefs(cur) || cur.Ref == cur {
			break
		}
		if refName == "" {
			refName = definitionName(cur.Ref.Location)
		}
		cur = cur.Ref
	}
	if name == "" {
		name = refName
	}
	var what string
	switch {
	case cur.Bool != nil:
		what = "any value"
		if !*cur.Bool {
			what = "no value"
		}
	case cur.Const != nil:
		what = "the constant " + show(*cur.Const)
	case cur.Enum != nil && len(cur.Enum.Values) <= 5:
		what = "one of " + showList(cur.Enum.Values, 5)
	case cur.Types != nil:
		what = strings.Join(cur.Types.ToStrings(), " or ")
	}
	name = result.Clip(name, 40)
	switch {
	case name != "" && what != "":
		return show(name) + " (" + result.Clip(what, 80) + ")"
	case name != "":
		return show(name)
	default:
		return result.Clip(what, 80)
	}
}

// definitionName returns the name a schema is defined under, from its
// location: "Cat" for ".../$defs/Cat", "cat.json" for ".../cat.json#".
func definitionName(location string) string {
	doc, _, _ := strings.Cut(location, "#")
	toks := pointerTokens(location)
	switch n := len(toks); {
	case n == 0:
		doc = displayURL(doc)
		if i := strings.LastIndexAny(doc, "/:"); i >= 0 {
			doc = doc[i+1:]
		}
		return doc
	case n >= 2 && (toks[n-2] == "$defs" || toks[n-2] == "definitions"):
		return toks[n-1]
	}
	return ""
}

func containsWhat(holder *jsonschema.Schema) string {
	what := "the 'contains' schema"
	if holder != nil {
		if sum := summarize(holder.Contains); sum != "" {
			what += " (" + sum + ")"
		}
	}
	return what
}

// propertySchema returns the schema a holder declares for a property, or
// nil.
func propertySchema(holder *jsonschema.Schema, name string) *jsonschema.Schema {
	if holder == nil {
		return nil
	}
	return holder.Properties[name]
}

// addFieldSuggestion says how to add a missing field, with its type and
// description when its schema gives them (see fieldInfo); the fast path
// writes the same words itself (scanner.requiredIssues).
func addFieldSuggestion(name string, f fieldDesc, s site) string {
	a := article(name)
	switch {
	case f.types != "" && f.desc != "":
		return "Add " + a + " '" + name + "' field (" + f.types + "): " + f.desc
	case f.types != "":
		return "Add " + a + " '" + name + "' field (" + f.types + ") " + s.into
	case f.desc != "":
		return "Add " + a + " '" + name + "' field: " + f.desc
	}
	return "Add " + a + " '" + name + "' field " + s.into
}

// fieldDesc is what addFieldSuggestion says of a property's schema: its
// description (or title), white space collapsed and cut, and its types.
type fieldDesc struct{ desc, types string }

func describeField(prop *jsonschema.Schema) fieldDesc {
	desc, types := "", ""
	for cur, i := prop, 0; cur != nil && i < 8; cur, i = cur.Ref, i+1 {
		if desc == "" {
			desc = cmp.Or(cur.Description, cur.Title)
		}
		if types == "" && cur.Types != nil {
			types = strings.Join(cur.Types.ToStrings(), " or ")
		}
	}
	return fieldDesc{desc: result.Clip(strings.Join(strings.Fields(desc), " "), 300), types: types}
}

// fieldInfo is describeField of prop, which a compiled schema keeps once
// worked out: a missing field is the most common issue, and its
// description the longest text of it.
func (r *reporter) fieldInfo(prop *jsonschema.Schema) fieldDesc {
	full := r.form()
	if full == nil || prop == nil {
		return describeField(prop)
	}
	if f, ok := full.fields.Load(prop); ok {
		return f.(fieldDesc)
	}
	f := describeField(prop)
	full.fields.Store(prop, f)
	return f
}

// numberBounds describes the numbers the holder accepts: "between 1 and 5",
// "greater than 0", "at most 10".
func numberBounds(holder *jsonschema.Schema, keyword string, want *big.Rat) string {
	var lo, hi string
	if holder != nil {
		switch {
		case holder.ExclusiveMinimum != nil && (holder.Minimum == nil || holder.ExclusiveMinimum.Cmp(holder.Minimum) >= 0):
			lo = "greater than " + ratString(holder.ExclusiveMinimum)
		case holder.Minimum != nil:
			lo = "at least " + ratString(holder.Minimum)
		}
		switch {
		case holder.ExclusiveMaximum != nil && (holder.Maximum == nil || holder.ExclusiveMaximum.Cmp(holder.Maximum) <= 0):
			hi = "less than " + ratString(holder.ExclusiveMaximum)
		case holder.Maximum != nil:
			hi = "at most " + ratString(holder.Maximum)
		}
	}
	if lo == "" && hi == "" {
		switch keyword {
		case "minimum":
			lo = "at least " + ratString(want)
		case "exclusiveMinimum":
			lo = "greater than " + ratString(want)
		case "maximum":
			hi = "at most " + ratString(want)
		default:
			hi = "less than " + ratString(want)
		}
	}
	switch {
	case lo == "":
		return hi
	case hi == "":
		return lo
	case strings.HasPrefix(lo, "at least ") && strings.HasPrefix(hi, "at most "):
		return "between " + strings.TrimPrefix(lo, "at least ") + " and " + strings.TrimPrefix(hi, "at most ")
	}
	return lo + " and " + hi
}

// lengthSuggestion gives both length bounds when the holder has both.
func lengthSuggestion(ref string, holder *jsonschema.Schema, one string) string {
	if holder != nil && holder.MinLength != nil && holder.MaxLength != nil {
		return fmt.Sprintf("Use between %d and %d characters for %s", *holder.MinLength, *holder.MaxLength, ref)
	}
	return one
}

// The words of a failed minLength, maxLength or pattern keyword: the
// reason (the message after the site's subject) and the suggestion, for
// the value shown (show) of got characters at the site named ref, holder
// the failed schema. The fast path writes them through these too
// (scanner.stringIssue).

func minLengthWords(shown string, got, want int, ref string, holder *jsonschema.Schema) (reason, sugg string) {
	return fmt.Sprintf("is %s, %s long, shorter than the minimum length %d", shown, plural(got, "character"), want),
		lengthSuggestion(ref, holder, fmt.Sprintf("Lengthen %s to at least %s", ref, plural(want, "character")))
}

func maxLengthWords(got, want int, ref string, holder *jsonschema.Schema) (reason, sugg string) {
	return fmt.Sprintf("is %s long, longer than the maximum length %d", plural(got, "character"), want),
		lengthSuggestion(ref, holder, fmt.Sprintf("Shorten %s to at most %s", ref, plural(want, "character")))
}

func patternWords(shown, pattern, ref string) (reason, sugg string) {
	pat := result.Clip(pattern, 120)
	return fmt.Sprintf("is %s, which does not match the pattern %s", shown, pat),
		fmt.Sprintf("Change %s so that it matches the pattern %s", ref, pat)
}

// countSuggestion gives both count bounds (of items or properties) when the
// holder has both.
func countSuggestion(s site, holder *jsonschema.Schema, what, one string) string {
	if holder == nil {
		return one
	}
	lo, hi := holder.MinItems, holder.MaxItems
	if what == "properties" {
		lo, hi = holder.MinProperties, holder.MaxProperties
	}
	if lo != nil && hi != nil {
		return fmt.Sprintf("Give %s between %d and %d %s", s.ref, *lo, *hi, what)
	}
	return one
}

// formatExample shows what a valid value of a format looks like.
func formatExample(format string) string {
	ex := map[string]string{
		"email":                 "name@example.com",
		"idn-email":             "name@example.com",
		"date":                  "2024-05-01 (YYYY-MM-DD)",
		"time":                  "12:30:00Z (with a time zone)",
		"date-time":             "2024-05-01T12:30:00Z (RFC 3339)",
		"duration":              "P3DT4H (ISO 8601)",
		"uri":                   "https://example.com/path (an absolute URI)",
		"iri":                   "https://example.com/path (an absolute IRI)",
		"uri-reference":         "../path#frag",
		"uuid":                  "123e4567-e89b-12d3-a456-426614174000",
		"ipv4":                  "192.0.2.1",
		"ipv6":                  "2001:db8::1",
		"hostname":              "api.example.com",
		"json-pointer":          "/a/b/0",
		"relative-json-pointer": "1/a",
		"regex":                 "^[a-z]+$",
		"semver":                "1.2.3",
	}[format]
	if ex == "" {
		return ""
	}
	return " such as " + ex
}

// nearest returns the declared property that name most likely misspells:
// one not present in the object (present(i) is true when declared[i] is),
// within an edit distance of 2 (1 for short names).
func nearest(name string, declared []string, present func(i int) bool) string {
	best, bestD := "", 3
	if utf8.RuneCountInString(name) <= 4 {
		bestD = 2
	}
	for i, d := range declared {
		if present(i) {
			continue
		}
		if dist := spell.Distance(strings.ToLower(name), strings.ToLower(d), bestD); dist < bestD {
			best, bestD = d, dist
		}
	}
	return best
}

// show renders a value as compact JSON, cut to about maxShown characters.
func show(v any) string {
	if s, ok := v.(string); ok {
		return quoteJSON(result.Clip(s, maxShown))
	}
	var sb strings.Builder
	enc := json.NewEncoder(&sb)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return result.Clip(fmt.Sprint(v), maxShown)
	}
	return result.Clip(strings.TrimSuffix(sb.String(), "\n"), maxShown)
}

// showList renders up to max values, and how many more there are.
func showList(vals []any, max int) string {
	var parts []string
	for i, v := range vals {
		if i == max {
			parts = append(parts, fmt.Sprintf("and %d more", len(vals)-max))
			break
		}
		parts = append(parts, show(v))
	}
	return strings.Join(parts, ", ")
}

func quoteList(names []string, max int) string {
	var parts []string
	for i, n := range names {
		if i == max {
			parts = append(parts, fmt.Sprintf("and %d more", len(names)-max))
			break
		}
		parts = append(parts, "'"+result.Clip(n, maxName)+"'")
	}
	return strings.Join(parts, ", ")
}

// numString renders the number at the instance as written, else rat.
func numString(v any, rat *big.Rat) string {
	switch v := v.(type) {
	case json.Number:
		return result.Clip(v.String(), maxShown)
	case float64:
		return strconv.FormatFloat(v, 'g', -1, 64)
	case float32:
		return strconv.FormatFloat(float64(v), 'g', -1, 32)
	case int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64:
		return fmt.Sprint(v)
	}
	if rat == nil {
		return "?"
	}
	return ratString(rat)
}

// ratString renders a number of the schema: exactly when it is an integer,
// else as the shortest float64 that reads back to it.
func ratString(r *big.Rat) string {
	if r == nil {
		return "?"
	}
	if r.IsInt() {
		return result.Clip(r.Num().String(), maxShown)
	}
	f, _ := r.Float64()
	return strconv.FormatFloat(f, 'g', -1, 64)
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	switch {
	case strings.HasSuffix(noun, "y"):
		noun = strings.TrimSuffix(noun, "y") + "ies"
	default:
		noun += "s"
	}
	return fmt.Sprintf("%d %s", n, noun)
}

// article returns "an" before a word that starts with a vowel, else "a".
func article(word string) string {
	if r, _ := utf8.DecodeRuneInString(word); strings.ContainsRune("aeiouAEIOU", r) {
		return "an"
	}
	return "a"
}

func appendToken(tokens []string, tok string) []string {
	return append(slices.Clip(tokens), tok)
}

// lookup returns the value at tokens in doc.
func lookup(doc any, tokens []string) (any, bool) {
	cur := doc
	for _, tok := range tokens {
		switch v := cur.(type) {
		case map[string]any:
			next, ok := v[tok]
			if !ok {
				return nil, false
			}
			cur = next
		case []any:
			n, err := strconv.Atoi(tok)
			if err != nil || n < 0 || n >= len(v) {
				return nil, false
			}
			cur = v[n]
		default:
			return nil, false
		}
	}
	return cur, true
}

// pointer joins tokens as a JSON Pointer without the leading slash.
func pointer(tokens []string) string {
	esc := make([]string, len(tokens))
	for i, t := range tokens {
		esc[i] = strings.ReplaceAll(strings.ReplaceAll(t, "~", "~0"), "/", "~1")
	}
	return strings.Join(esc, "/")
}

// pointerTokens returns the tokens of the JSON Pointer fragment of a schema
// URL.
func pointerTokens(u string) []string {
	_, frag, _ := strings.Cut(u, "#")
	if f, err := gourl.PathUnescape(frag); err == nil {
		frag = f
	}
	if !strings.HasPrefix(frag, "/") {
		return nil
	}
	toks := strings.Split(frag[1:], "/")
	for i, t := range toks {
		toks[i] = strings.ReplaceAll(strings.ReplaceAll(t, "~1", "/"), "~0", "~")
	}
	return toks
}

// libraryText is the validator's own English text for an error kind judge
// has no words of its own for.
func libraryText(e *jsonschema.ValidationError) string {
	leaf := &jsonschema.ValidationError{SchemaURL: e.SchemaURL, ErrorKind: e.ErrorKind}
	text := leaf.Error()
	if _, after, ok := strings.Cut(text, "': "); ok && strings.HasPrefix(text, "at '") {
		return after
	}
	return text
}
