package manifest

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/agentjudge/judge/result"
)

// MaxXMLElements is how many elements a directive may hold.
const MaxXMLElements = 10_000

// ModelTiers are the model tiers a directive's <model tier> may name.
func ModelTiers() []string { return []string{"fast", "balanced", "reasoning", "expert"} }

// xmlElem is one element of a directive with its position.
type xmlElem struct {
	name     string
	attrs    map[string]string
	children []*xmlElem
	text     string
	pos      Pos
}

func (e *xmlElem) child(name string) *xmlElem {
	if e == nil {
		return nil
	}
	for _, c := range e.children {
		if c.name == name {
			return c
		}
	}
	return nil
}

func (e *xmlElem) all(name string) []*xmlElem {
	if e == nil {
		return nil
	}
	var out []*xmlElem
	for _, c := range e.children {
		if c.name == name {
			out = append(out, c)
		}
	}
	return out
}

// directiveDoc is a parsed directive.
type directiveDoc struct {
	root *xmlElem
	pos  map[string]Pos // positions of the universal fields
}

// XMLError is a directive whose XML is not well formed, with the line of
// the first error.
type XMLError struct {
	Pos Pos
	Msg string
	Err error
}

// Error renders the error with its location.
func (e *XMLError) Error() string { return fmt.Sprintf("%d:%d: %s", e.Pos.Line, e.Pos.Col, e.Msg) }

// Unwrap returns the underlying error, if any.
func (e *XMLError) Unwrap() error { return e.Err }

// parseXML parses src into an element tree; lineOff shifts every line.
func parseXML(src []byte, lineOff int) (*xmlElem, error) {
	d := xml.NewDecoder(bytes.NewReader(src))
	d.Strict = true
	var stack []*xmlElem
	var root *xmlElem
	count := 0
	for {
		line, col := d.InputPos()
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			var se *xml.SyntaxError
			el, ec := d.InputPos()
			p := Pos{el + lineOff, ec}
			msg := err.Error()
			if errors.As(err, &se) {
				msg = se.Msg
				if se.Line != el {
					p = Pos{se.Line + lineOff, 1}
				}
			}
			return nil, &XMLError{Pos: p, Msg: "XML is not well formed: " + msg, Err: err}
		}
		switch t := tok.(type) {
		case xml.StartElement:
			count++
			if count > MaxXMLElements || len(stack) >= MaxDepth {
				return nil, &XMLError{Pos: Pos{line + lineOff, col}, Msg: fmt.Sprintf("the directive has more than %d elements or nests deeper than %d", MaxXMLElements, MaxDepth)}
			}
			e := &xmlElem{name: t.Name.Local, attrs: map[string]string{}, pos: Pos{line + lineOff, col}}
			for _, a := range t.Attr {
				e.attrs[a.Name.Local] = a.Value
			}
			if len(stack) == 0 {
				if root != nil {
					return nil, &XMLError{Pos: e.pos, Msg: "XML is not well formed: a second root element <" + e.name + "> follows the first"}
				}
				root = e
			} else {
				p := stack[len(stack)-1]
				p.children = append(p.children, e)
			}
			stack = append(stack, e)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		case xml.CharData:
			if len(stack) > 0 {
				stack[len(stack)-1].text += string(t)
			}
		}
	}
	if root == nil {
		return nil, &XMLError{Pos: Pos{1 + lineOff, 1}, Msg: "the directive holds no XML element"}
	}
	return root, nil
}

// parseDirective parses a directive's XML (at line offset lineOff of the
// file) and fills the universal fields from it.
func (t *Tool) parseDirective(src []byte, lineOff int) {
	t.Type = Directive
	root, err := parseXML(src, lineOff)
	if err != nil {
		var xe *XMLError
		if errors.As(err, &xe) {
			t.report(result.Error, result.SyntaxError, "manifest.directive.xml", xe.Pos,
				"Correct the XML here; escape '<' as &lt; and '&' as &amp; in text", "%s", xe.Msg)
		}
		t.xml = &directiveDoc{pos: map[string]Pos{"directive": {1 + lineOff, 1}}}
		t.broken = true
		return
	}
	doc := &directiveDoc{root: root, pos: map[string]Pos{"directive": root.pos}}
	t.xml = doc
	if root.name != "directive" {
		t.report(result.Error, result.ConstraintViolation, "manifest.directive.root", root.pos,
			"Make <directive name=\"...\" version=\"...\"> the root element", "The root element is <%s>, not <directive>", root.name)
		t.broken = true
		return
	}
	t.ID = root.attrs["name"]
	t.Version = root.attrs["version"]
	doc.pos["tool_id"], doc.pos["version"] = root.pos, root.pos
	if d := root.child("metadata").child("description"); d != nil {
		t.Description = strings.TrimSpace(d.text)
		doc.pos["description"] = d.pos
	} else if m := root.child("metadata"); m != nil {
		doc.pos["description"] = m.pos
	}
}

// directive is layer 2 of a directive: metadata, permissions, model tier,
// inputs and process steps.
func (c *checker) directive() {
	root := c.xml.root
	if root == nil || root.name != "directive" {
		return
	}
	meta := root.child("metadata")
	if meta == nil {
		c.report(result.Error, result.MissingField, "manifest.directive.metadata", root.pos,
			"Add <metadata> with <description>, <model tier> and <permissions>", "The directive has no <metadata> element")
	} else {
		perms := meta.child("permissions")
		switch {
		case perms == nil:
			c.report(result.Error, result.MissingField, "manifest.directive.permissions", meta.pos,
				"Add <permissions> listing what the directive may do, such as <read resource=\"filesystem\" path=\"**/*\"/>",
				"The directive's metadata has no <permissions>")
		case len(perms.children) == 0:
			c.report(result.Error, result.ConstraintViolation, "manifest.directive.permissions", perms.pos,
				"Declare at least one permission inside <permissions>", "The directive's <permissions> is empty; a directive must declare what it may do")
		}
		model := meta.child("model")
		if model == nil {
			if legacy := meta.child("model_class"); legacy != nil {
				model = legacy
				c.report(result.Warning, result.ConstraintViolation, "manifest.directive.model_class", legacy.pos,
					"Rename <model_class> to <model>", "<model_class> is the legacy spelling of <model>")
			}
		}
		switch {
		case model == nil:
			c.report(result.Error, result.MissingField, "manifest.directive.model", meta.pos,
				"Add <model tier=\"balanced\"/> to the metadata", "The directive's metadata has no <model> element with a tier")
		case !slices.Contains(ModelTiers(), model.attrs["tier"]):
			c.report(result.Error, result.ConstraintViolation, "manifest.directive.model_tier", model.pos,
				"Use tier="+strings.Join(ModelTiers(), ", "),
				"Model tier '%s' is not one of %s", result.Clip(model.attrs["tier"], 40), strings.Join(ModelTiers(), ", "))
		}
	}
	inputs := root.child("inputs")
	if inputs == nil {
		c.report(result.Error, result.MissingField, "manifest.directive.inputs", root.pos,
			"Add <inputs> (empty when the directive takes none)", "The directive has no <inputs> element")
	}
	for i, in := range inputs.all("input") {
		if strings.TrimSpace(in.attrs["name"]) == "" {
			c.report(result.Error, result.MissingField, "manifest.directive.input_name", in.pos,
				"Add name=\"...\" to the input", "Input %d of the directive has no name attribute", i+1)
		}
	}
	process := root.child("process")
	steps := process.all("step")
	switch {
	case process == nil:
		c.report(result.Error, result.MissingField, "manifest.directive.process", root.pos,
			"Add <process> with at least one <step name=\"...\">", "The directive has no <process> element")
	case len(steps) == 0:
		c.report(result.Error, result.ConstraintViolation, "manifest.directive.steps", process.pos,
			"Add at least one <step name=\"...\"> to the process", "The directive's <process> has no <step>")
	}
	for i, st := range steps {
		if strings.TrimSpace(st.attrs["name"]) == "" {
			c.report(result.Error, result.MissingField, "manifest.directive.step_name", st.pos,
				"Add name=\"...\" to the step", "Step %d of the directive's process has no name attribute", i+1)
		}
	}
}
