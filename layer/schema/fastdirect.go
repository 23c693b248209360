package schema

import (
	"strconv"
	"unicode/utf8"

	"github.com/agentjudge/judge/internal/location"
	"github.com/agentjudge/judge/result"
)

// The issues the report scan writes itself. A failed type or required
// keyword is the most common error of a tool call's arguments, and the
// reporter (issues.go) would only walk through the errors above it (a
// schema's group, $ref, allOf: see reporter.walk) to word it alone. So,
// where no anyOf, oneOf or propertyNames above it needs the error tree
// (scanner.tree is 0), the scan writes its issue directly: every text into
// one buffer (scanner.text), turned into one string at the end, with no
// error, token or finding allocated. The words are the reporter's
// (wrongType, required, addFieldSuggestion, reporter.at), which the tests
// hold them to: they compare the fast path's issues with the slow path's
// on the JSON Schema Test Suite, the corpus and a fuzz target.

// directIssue is an issue the report scan wrote: its type and rule, and
// its texts as ranges of scanner.text.
type directIssue struct {
	typ            result.Type
	rule           string
	msg, loc, sugg [2]int
}

// directSite is where a direct issue is, as reporter.at names it: the
// ranges in scanner.text of its location, of the location cut for a
// sentence (clipLeft), and of the name its subject gives it (the field's
// name, cut; or the cut location of an item); root is true at the root.
type directSite struct {
	loc, clip, name [2]int
	root, item      bool
}

// site writes the location of the value being read into s.text and
// returns it as a directSite.
func (s *scanner) site() directSite {
	toks := s.path[s.pathBase:]
	start := len(s.text)
	var d directSite
	if len(toks) == 0 {
		s.text = append(s.text, "root"...)
		d.loc, d.root = [2]int{start, len(s.text)}, true
		return d
	}
	for j, t := range toks {
		if t.index >= 0 {
			s.text = append(s.text, '[')
			s.text = strconv.AppendInt(s.text, int64(t.index), 10)
			s.text = append(s.text, ']')
		} else {
			s.text = location.AppendKey(s.text, s.data[t.start:t.end], j == 0)
		}
	}
	d.loc = [2]int{start, len(s.text)}
	d.clip = d.loc
	if d.loc[1]-d.loc[0] > maxShown && utf8.RuneCount(s.text[start:]) > maxShown {
		d.clip = s.appendText(clipLeft(string(s.text[start:]), maxShown))
	}
	last := toks[len(toks)-1]
	if last.index >= 0 {
		d.item, d.name = true, d.clip
		return d
	}
	key := s.data[last.start:last.end]
	if len(key) <= maxName {
		ns := len(s.text)
		s.text = append(s.text, key...)
		d.name = [2]int{ns, len(s.text)}
	} else {
		d.name = s.appendText(result.Clip(string(key), maxName))
	}
	return d
}

// appendText appends t to s.text and returns its range.
func (s *scanner) appendText(t string) [2]int {
	start := len(s.text)
	s.text = append(s.text, t...)
	return [2]int{start, len(s.text)}
}

// again appends the range r of s.text to it once more.
func (s *scanner) again(r [2]int) {
	s.text = append(s.text, s.text[r[0]:r[1]]...)
}

// appendRef appends how a sentence names the site (site.ref): "'email'",
// "tasks[2]", "the output".
func (s *scanner) appendRef(d directSite) {
	switch {
	case d.root:
		s.text = append(s.text, defaultNoun...)
	case d.item:
		s.again(d.name)
	default:
		s.text = append(s.text, '\'')
		s.again(d.name)
		s.text = append(s.text, '\'')
	}
}

// appendPlace appends "in user" or "at root" (site.where) when in is
// true, else "to user" or "to the output" (site.into).
func (s *scanner) appendPlace(d directSite, in bool) {
	switch {
	case d.root && in:
		s.text = append(s.text, "at root"...)
		return
	case d.root:
		s.text = append(s.text, "to "+defaultNoun...)
		return
	case in:
		s.text = append(s.text, "in "...)
	default:
		s.text = append(s.text, "to "...)
	}
	s.again(d.clip)
}

// typeIssue writes the issue of the value being read, of JSON type got,
// which n's type keyword does not accept: reporter.wrongType's.
func (s *scanner) typeIssue(n *node, got string) {
	d := s.site()
	ms := len(s.text)
	switch {
	case d.root:
		s.text = append(s.text, "The output"...)
	case d.item:
		s.text = append(s.text, "Item "...)
		s.again(d.name)
	default:
		s.text = append(s.text, "Field "...)
		s.appendRef(d)
	}
	s.text = append(s.text, " has type "...)
	s.text = append(s.text, got...)
	s.text = append(s.text, ", expected "...)
	ws := len(s.text)
	for i, t := range n.typeNames {
		if i > 0 {
			s.text = append(s.text, " or "...)
		}
		s.text = append(s.text, t...)
	}
	want := [2]int{ws, len(s.text)}
	msg := [2]int{ms, len(s.text)}
	ss := len(s.text)
	s.text = append(s.text, "Change "...)
	s.appendRef(d)
	s.text = append(s.text, " to "...)
	first := ""
	if len(n.typeNames) > 0 {
		first = n.typeNames[0]
	}
	s.text = append(s.text, article(first)...)
	s.text = append(s.text, ' ')
	s.again(want)
	s.text = append(s.text, " value"...)
	s.found = append(s.found, directIssue{typ: result.InvalidType, rule: "schema.type",
		msg: msg, loc: d.loc, sugg: [2]int{ss, len(s.text)}})
}

// nodeWords is what report mode writes of a node's issues, the same for
// every document: the names the node requires that the scan tracks, in
// the order of its required keyword.
type nodeWords struct {
	required []requiredName
}

// requiredName is a required name as reporter.required words it: cut,
// its bit among the node's tracked names, and what addFieldSuggestion
// says of its property's schema.
type requiredName struct {
	name    string
	bit     int
	field   fieldDesc
	article string
}

// words returns n's nodeWords, working them out the first time.
func (s *scanner) words(n *node) *nodeWords {
	if w := n.words.Load(); w != nil {
		return w
	}
	w := &nodeWords{}
	holder := s.comp.index[n.sch.Location]
	r := reporter{c: s.comp}
	for _, full := range n.sch.Required {
		b, ok := n.names[full]
		if !ok {
			continue // as missingNames: not tracked, never missing
		}
		name := result.Clip(full, maxName)
		w.required = append(w.required, requiredName{name: name, bit: b,
			field: r.fieldInfo(propertySchema(holder, name)), article: article(name)})
	}
	n.words.Store(w)
	return w
}

// requiredIssues writes the issues of the names n requires that the
// object being read lacks (by n's bits of present names), one a name:
// reporter.required's. It reports whether it wrote any.
func (s *scanner) requiredIssues(n *node, present uint64) bool {
	var d directSite
	wrote := false
	for _, rn := range s.words(n).required {
		if present&(1<<rn.bit) != 0 {
			continue
		}
		if !wrote {
			d, wrote = s.site(), true
		}
		ms := len(s.text)
		s.text = append(s.text, "Missing required field '"...)
		s.text = append(s.text, rn.name...)
		s.text = append(s.text, "' "...)
		s.appendPlace(d, true)
		msg := [2]int{ms, len(s.text)}
		// addFieldSuggestion's words.
		ss := len(s.text)
		f := rn.field
		s.text = append(s.text, "Add "...)
		s.text = append(s.text, rn.article...)
		s.text = append(s.text, " '"...)
		s.text = append(s.text, rn.name...)
		s.text = append(s.text, "' field"...)
		switch {
		case f.types != "" && f.desc != "":
			s.text = append(append(append(append(s.text, " ("...), f.types...), "): "...), f.desc...)
		case f.types != "":
			s.text = append(append(append(s.text, " ("...), f.types...), ") "...)
			s.appendPlace(d, false)
		case f.desc != "":
			s.text = append(append(s.text, ": "...), f.desc...)
		default:
			s.text = append(s.text, ' ')
			s.appendPlace(d, false)
		}
		s.found = append(s.found, directIssue{typ: result.MissingField, rule: "schema.required",
			msg: msg, loc: d.loc, sugg: [2]int{ss, len(s.text)}})
	}
	return wrote
}

// directIssues returns the issues the scan wrote, their texts cut from
// one string (nil when there are none).
func (s *scanner) directIssues() []result.Issue {
	if len(s.found) == 0 {
		return nil
	}
	text := string(s.text)
	out := make([]result.Issue, len(s.found))
	for i, f := range s.found {
		// Field by field: a whole struct written to the heap would go
		// through a bulk write barrier.
		is := &out[i]
		is.Severity, is.Type, is.Rule = result.Error, f.typ, f.rule
		is.Message = result.Clip(text[f.msg[0]:f.msg[1]], result.MaxTextLen)
		is.Location = text[f.loc[0]:f.loc[1]]
		is.Suggestion = result.Clip(text[f.sugg[0]:f.sugg[1]], result.MaxTextLen)
	}
	return out
}
