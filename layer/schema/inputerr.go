package schema

import (
	"errors"
	"fmt"
	"maps"
	gourl "net/url"
	"regexp/syntax"
	"slices"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/agentjudge/judge/layer"
)

// inputError turns an error of the compiler into an *layer.InputError that
// says where in the request the schema is wrong and why.
func (b *builder) inputError(err error) *layer.InputError {
	ie := &layer.InputError{Layer: "schema", Location: "expected_schema", Msg: "invalid schema: " + err.Error(), Err: err}
	var (
		meta     *jsonschema.SchemaValidationError
		load     *jsonschema.LoadURLError
		regex    *jsonschema.InvalidRegexError
		noPtr    *jsonschema.JSONPointerNotFoundError
		noAnchor *jsonschema.AnchorNotFoundError
		badPtr   *jsonschema.InvalidJsonPointerError
		badURL   *jsonschema.ParseURLError
		badID    *jsonschema.ParseIDError
		badAnch  *jsonschema.ParseAnchorError
		dupID    *jsonschema.DuplicateIDError
		dupAnch  *jsonschema.DuplicateAnchorError
		draft    *jsonschema.UnsupportedDraftError
		cycle    *jsonschema.MetaSchemaCycleError
		metaURL  *jsonschema.InvalidMetaSchemaURLError
		vocab    *jsonschema.UnsupportedVocabularyError
	)
	switch {
	case errors.As(err, &meta):
		b.metaError(ie, meta)
	case errors.As(err, &load):
		kw, loc, ref := b.findRef(load.URL)
		ie.Location = loc
		var refused *refusedError
		if errors.Is(load.Err, errTooDeep) {
			ie.Location, ie.Msg = b.names[load.URL], tooDeep
		} else if errors.As(load.Err, &refused) {
			ie.Msg = fmt.Sprintf("%s %q is not among the local schemas; judge never fetches schemas (give it in \"schemas\" or in the directory of schemas judge reads)",
				kw, stripFragment(ref))
			ie.Err = &NotLocalError{Ref: stripFragment(ref), Err: err}
		} else {
			ie.Msg = fmt.Sprintf("%s %q cannot be loaded: %v", kw, stripFragment(ref), load.Err)
		}
	case errors.As(err, &regex):
		ie.Location = b.loc(regex.URL)
		if pointerLast(regex.URL) == "patternProperties" {
			ie.Location += "/" + pointer([]string{regex.Regex})
		}
		if gap := re2Gap(regex.Regex); gap != "" {
			ie.Msg = unsupportedPattern(regex.Regex, gap)
		} else if why := re2Limit(regex.Regex, regex.Err); why != "" {
			ie.Msg = "pattern " + show(regex.Regex) + " " + why
		} else {
			ie.Msg = fmt.Sprintf("invalid regular expression %s: %v (patterns use Go's RE2 syntax: no lookaround, no backreferences)",
				show(regex.Regex), regex.Err)
		}
	case errors.As(err, &noPtr):
		kw, loc, ref := b.findRef(noPtr.URL)
		ie.Location = loc
		ie.Msg = fmt.Sprintf("%s %q points to nothing: no value exists at that JSON Pointer", kw, ref)
	case errors.As(err, &noAnchor):
		kw, loc, ref := b.findRef(noAnchor.Reference)
		ie.Location = loc
		ie.Msg = fmt.Sprintf("%s %q names an anchor that the schema does not define", kw, ref)
	case errors.As(err, &badPtr):
		kw, loc, ref := b.findRef(badPtr.URL)
		ie.Location = loc
		ie.Msg = fmt.Sprintf("%s %q has an invalid JSON Pointer fragment (a ~ must be followed by 0 or 1)", kw, ref)
	case errors.As(err, &badURL):
		kw, loc, ref := b.findRef(badURL.URL)
		ie.Location = loc
		ie.Msg = fmt.Sprintf("%s %q is not a valid URI reference: %v", kw, ref, badURL.Err)
	case errors.As(err, &badID):
		ie.Location = b.loc(badID.URL)
		ie.Msg = "the schema's $id is not a valid URI reference"
	case errors.As(err, &badAnch):
		ie.Location = b.loc(badAnch.URL)
		ie.Msg = "the schema's anchor is not valid"
	case errors.As(err, &dupID):
		p1, p2 := min(dupID.Ptr1, dupID.Ptr2), max(dupID.Ptr1, dupID.Ptr2)
		ie.Location = b.loc(dupID.URL + "#" + p2)
		ie.Msg = fmt.Sprintf("$id %q is used twice: also at %s", displayURL(dupID.ID), b.loc(dupID.URL+"#"+p1))
	case errors.As(err, &dupAnch):
		p1, p2 := min(dupAnch.Ptr1, dupAnch.Ptr2), max(dupAnch.Ptr1, dupAnch.Ptr2)
		ie.Location = b.loc(dupAnch.URL + "#" + p2)
		ie.Msg = fmt.Sprintf("anchor %q is defined twice: also at %s", dupAnch.Anchor, b.loc(dupAnch.URL+"#"+p1))
	case errors.As(err, &draft):
		_, ie.Location, _ = b.findRef(draft.URL)
		ie.Msg = fmt.Sprintf("$schema %q names no draft judge knows (drafts 4, 6, 7, 2019-09 and 2020-12 are supported)", displayURL(draft.URL))
	case errors.As(err, &cycle):
		_, ie.Location, _ = b.findRef(cycle.URL)
		ie.Msg = fmt.Sprintf("$schema %q leads back to itself through meta-schemas", displayURL(cycle.URL))
	case errors.As(err, &metaURL):
		ie.Location = b.loc(metaURL.URL) + "/$schema"
		ie.Msg = fmt.Sprintf("$schema is not a valid URI: %v", metaURL.Err)
	case errors.As(err, &vocab):
		ie.Location = b.loc(vocab.URL) + "/$vocabulary"
		ie.Msg = fmt.Sprintf("the meta-schema requires vocabulary %q, which judge does not support", vocab.Vocabulary)
	}
	return ie
}

// metaError describes a schema that fails its meta-schema by the first
// problem found, located in the request.
func (b *builder) metaError(ie *layer.InputError, e *jsonschema.SchemaValidationError) {
	ie.Location = b.loc(e.URL)
	docURL := stripFragment(e.URL)
	doc := b.byURL[docURL]
	d := b.draft
	if docURL != b.mainURL {
		d = draftOf(doc, b.raw, b.draft)
	}
	ie.Msg = fmt.Sprintf("not a valid %s schema", draftName(draftVersion(d)))
	var verr *jsonschema.ValidationError
	if !errors.As(e.Err, &verr) {
		ie.Msg += ": " + e.Err.Error()
		return
	}
	inst, _ := lookup(doc, pointerTokens(e.URL))
	sub := newReporter(nil, inst, MaxIssues)
	sub.walk(verr)
	f := sub.first()
	if f == nil {
		return
	}
	what := "the schema"
	if n := len(f.tokens); n > 0 {
		ie.Location += "/" + pointer(f.tokens)
		what = "'" + f.tokens[n-1] + "'"
	}
	n := len(sub.found) + sub.skipped
	// A schema whose only fault is a pattern RE2 cannot run is valid: say
	// what judge lacks rather than that the schema is wrong.
	if sub.skipped == 0 && !slices.ContainsFunc(sub.found, func(f finding) bool { return f.gap == "" && f.limit == "" }) {
		ie.Msg = unsupportedPattern(f.regex, f.gap)
		if f.limit != "" {
			ie.Msg = "pattern " + show(f.regex) + " " + f.limit
		}
		if n > 1 {
			ie.Msg += fmt.Sprintf(" (and %d more such patterns)", n-1)
		}
		return
	}
	ie.Msg += ": " + what + " " + f.reason
	if n > 1 {
		ie.Msg += fmt.Sprintf(" (and %d more problems)", n-1)
	}
}

// re2Limit explains why a pattern breaks one of RE2's size limits, as a
// clause ("is beyond what RE2 compiles: …"), or returns "" for any other
// error. RE2's parser factors the common
// prefixes of alternatives into nested groups, so a flat list of
// alternatives sharing prefixes ("a|ab|abc|…") can pass its limit of 1000
// nesting levels: saying "nests too deeply" about a pattern that nests one
// level would mislead.
func re2Limit(pattern string, err error) string {
	var se *syntax.Error
	if !errors.As(err, &se) {
		return ""
	}
	switch se.Code {
	case syntax.ErrNestingDepth:
		own, alts := groupDepth(pattern)
		if own >= 1000 {
			return ""
		}
		return fmt.Sprintf("is beyond what RE2 compiles: its parser factors the common prefixes of the %d alternatives into nested groups, and they nest more than 1000 levels deep although the pattern itself nests %d; list the values with enum instead, or shorten the list",
			alts, own)
	case syntax.ErrLarge:
		return "is beyond what RE2 compiles: its compiled program would be larger than RE2's size limit (a counted repetition such as {1000} multiplies the size); write fewer or smaller repetitions"
	}
	return ""
}

// groupDepth returns how deeply pattern nests its parentheses, and how
// many alternatives it has ('|' outside character classes, plus one).
func groupDepth(pattern string) (depth, alts int) {
	cur, inClass, alts := 0, false, 1
	for i := 0; i < len(pattern); i++ {
		switch c := pattern[i]; {
		case c == '\\':
			i++
		case inClass:
			inClass = c != ']'
		case c == '[':
			inClass = true
			if i+1 < len(pattern) && pattern[i+1] == ']' {
				i++ // a ']' first in a class is literal
			}
		case c == '(':
			cur++
			depth = max(depth, cur)
		case c == ')':
			cur--
		case c == '|':
			alts++
		}
	}
	return depth, alts
}

// unsupportedPattern says that a pattern uses gap (see re2Gap).
func unsupportedPattern(pattern, gap string) string {
	return fmt.Sprintf("pattern %s uses %s, which judge's regular-expression engine (RE2) does not support", show(pattern), gap)
}

// re2Gap names what a regular expression uses that JSON Schema's
// ECMA-262 regular expressions allow but judge's engine, Go's RE2, lacks:
// "a lookahead", "a backreference". It returns "" for an expression RE2
// compiles, or one that is invalid for another reason.
func re2Gap(expr string) string {
	_, err := syntax.Parse(expr, syntax.Perl)
	var se *syntax.Error
	if !errors.As(err, &se) {
		return ""
	}
	switch se.Code {
	case syntax.ErrInvalidPerlOp:
		switch {
		case strings.HasPrefix(se.Expr, "(?="):
			return "a lookahead"
		case strings.HasPrefix(se.Expr, "(?!"):
			return "a negative lookahead"
		}
	case syntax.ErrInvalidNamedCapture:
		switch {
		case strings.HasPrefix(se.Expr, "(?<="):
			return "a lookbehind"
		case strings.HasPrefix(se.Expr, "(?<!"):
			return "a negative lookbehind"
		}
	case syntax.ErrInvalidEscape:
		if len(se.Expr) == 2 && (se.Expr[1] >= '1' && se.Expr[1] <= '9' || se.Expr[1] == 'k') {
			return "a backreference"
		}
	case syntax.ErrInvalidRepeatSize:
		return "a repetition count above 1000 (nested counts multiply)"
	}
	return ""
}

// loc renders a schema URL as an InputError location.
func (b *builder) loc(u string) string { return schemaLoc(b.names, u) }

// findRef finds the reference keyword ($ref, $dynamicRef, $recursiveRef or
// $schema) that resolves to target, and returns the keyword and its
// location. Without an exact match it settles for a reference to the same
// document; without any, for "$ref" and the expected schema.
func (b *builder) findRef(target string) (keyword, location, written string) {
	urls := slices.Sorted(maps.Keys(b.byURL))
	// The expected schema first.
	if i := slices.Index(urls, b.mainURL); i > 0 {
		urls = append(append([]string{b.mainURL}, urls[:i]...), urls[i+1:]...)
	}
	var docKW, docLoc, docRef string
	for _, u := range urls {
		var found bool
		scanRefs(b.byURL[u], u, nil, func(kw, ref, resolved string, tokens []string) bool {
			loc := b.names[u] + "/" + pointer(append(slices.Clip(tokens), kw))
			if resolved == target {
				keyword, location, written, found = kw, loc, ref, true
				return false
			}
			if docLoc == "" && stripFragment(resolved) == stripFragment(target) {
				docKW, docLoc, docRef = kw, loc, ref
			}
			return true
		})
		if found {
			return keyword, location, written
		}
	}
	if docLoc != "" && !strings.Contains(target, "#") {
		return docKW, docLoc, docRef
	}
	if docLoc != "" {
		return docKW, docLoc, displayURL(target)
	}
	return "$ref", "expected_schema", displayURL(target)
}

var refKeywords = []string{"$ref", "$dynamicRef", "$recursiveRef", "$schema"}

// scanRefs calls f for every reference keyword in doc, with its value
// resolved against the base URIs that $id (or id) set on the way. It stops
// when f returns false.
func scanRefs(doc any, base string, tokens []string, f func(kw, ref, resolved string, tokens []string) bool) bool {
	switch v := doc.(type) {
	case map[string]any:
		for _, kw := range []string{"$id", "id"} {
			if id, ok := v[kw].(string); ok && id != "" && id[0] != '#' {
				base = resolveRef(base, id)
				break
			}
		}
		for _, kw := range refKeywords {
			if ref, ok := v[kw].(string); ok {
				if !f(kw, ref, resolveRef(base, ref), tokens) {
					return false
				}
			}
		}
		for _, k := range slices.Sorted(maps.Keys(v)) {
			if !scanRefs(v[k], base, appendToken(tokens, k), f) {
				return false
			}
		}
	case []any:
		for i, item := range v {
			if !scanRefs(item, base, appendToken(tokens, fmt.Sprint(i)), f) {
				return false
			}
		}
	}
	return true
}

// resolveRef resolves ref against base as the compiler does, keeping the
// fragment.
func resolveRef(base, ref string) string {
	b, err := gourl.Parse(base)
	if err != nil {
		return ref
	}
	r, err := gourl.Parse(ref)
	if err != nil {
		return ref
	}
	res := b.ResolveReference(r)
	if !r.IsAbs() && b.Opaque != "" {
		res.Opaque = b.Opaque
	}
	return res.String()
}

func pointerLast(u string) string {
	toks := pointerTokens(u)
	if len(toks) == 0 {
		return ""
	}
	return toks[len(toks)-1]
}
