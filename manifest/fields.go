package manifest

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/agentjudge/judge/internal/spell"
	"github.com/agentjudge/judge/result"
)

// loc renders a position in t's file as "file:line:column".
func (t *Tool) loc(p Pos) string {
	if p.Line <= 0 {
		p = Pos{1, 1}
	}
	return t.Path + ":" + strconv.Itoa(p.Line) + ":" + strconv.Itoa(max(p.Col, 1))
}

// pathElem is one step into a manifest: a mapping key (string) or a list
// index (int).
type pathElem = any

// lookup returns the node at path and the deepest node found on the way
// (itself when the path exists).
func (t *Tool) lookup(path ...pathElem) (found, nearest *node) {
	n := t.doc
	nearest = n
	for _, e := range path {
		var next *node
		switch k := e.(type) {
		case string:
			next = n.field(k)
		case int:
			if n != nil && n.kind == kindSeq && k >= 0 && k < len(n.items) {
				next = n.items[k]
			}
		}
		if next == nil {
			return nil, nearest
		}
		n, nearest = next, next
	}
	return n, nearest
}

// posOf is the position of the value at path, or of the nearest ancestor
// that exists, or the start of the file.
func (t *Tool) posOf(path ...pathElem) Pos {
	_, n := t.lookup(path...)
	if n == nil {
		return t.startPos()
	}
	return n.pos
}

// keyPosOf is the position of the last key of path, when it is a mapping
// key that exists; otherwise posOf.
func (t *Tool) keyPosOf(path ...pathElem) Pos {
	if len(path) > 0 {
		if k, ok := path[len(path)-1].(string); ok {
			parent, _ := t.lookup(path[:len(path)-1]...)
			if parent != nil && parent.kind == kindMap {
				if p, ok := parent.keyPos[k]; ok {
					return p
				}
			}
		}
	}
	return t.posOf(path...)
}

func (t *Tool) startPos() Pos {
	if t.doc != nil {
		return t.doc.pos
	}
	return Pos{1, 1}
}

// report adds an issue of t at p.
func (t *Tool) report(sev result.Severity, typ result.Type, rule string, p Pos, suggestion, format string, args ...any) {
	t.issues = append(t.issues, result.Issue{Severity: sev, Type: typ, Rule: rule, Location: t.loc(p),
		Message: fmt.Sprintf(format, args...), Suggestion: suggestion})
}

// dotted renders a path for messages: config.headers.X, parameters[2].name.
func dotted(path ...pathElem) string {
	var sb strings.Builder
	for _, e := range path {
		switch k := e.(type) {
		case string:
			if sb.Len() > 0 {
				sb.WriteByte('.')
			}
			sb.WriteString(k)
		case int:
			fmt.Fprintf(&sb, "[%d]", k)
		}
	}
	return sb.String()
}

// topFields are the top-level fields of a manifest every type knows.
var topFields = []string{"tool_id", "tool_type", "version", "description", "executor", "executor_id",
	"config", "parameters", "input_schema", "config_schema", "category", "tags", "author", "license", "name", "title", "metadata",
	"when_to_use", "when_not_to_use"}

// toolKeys are the fields whose presence makes a YAML mapping a tool
// manifest rather than data another tool reads: what identifies a tool or
// says how it runs. name, version and description are not among them:
// capability lists and other data a registry's code reads carry them too.
var toolKeys = []string{"tool_id", "tool_type", "executor", "executor_id", "config", "parameters",
	"input_schema", "config_schema"}

// parseYAML decodes a YAML manifest at the given offsets and fills t.
func (t *Tool) parseYAML(src []byte, lineOff, colOff int) {
	doc, err := decodeYAML(t.Path, src, lineOff, colOff)
	if err != nil {
		t.yamlIssue(err)
		return
	}
	t.doc = doc
	t.fill()
}

func (t *Tool) yamlIssue(err error) {
	t.broken = true
	var ye *YAMLError
	if errors.As(err, &ye) {
		t.report(result.Error, result.SyntaxError, "manifest.yaml", ye.Pos,
			"Correct the YAML at this position; quote strings that contain ': ' or start with a special character",
			"%s", ye.Msg)
		return
	}
	t.report(result.Error, result.SyntaxError, "manifest.yaml", Pos{1, 1}, "", "the manifest could not be read: %v", err)
}

// stringField reads a string field of the manifest; a value of another
// kind is reported.
func (t *Tool) stringField(path ...pathElem) (string, bool) {
	n, _ := t.lookup(path...)
	if n == nil || n.kind == kindNull {
		return "", false
	}
	if s, ok := n.str(); ok {
		return s, true
	}
	if n.kind == kindScalar {
		// version: 1.0 is a number to YAML; keep its text and let the
		// field's own rule judge it.
		t.report(result.Warning, result.InvalidType, "manifest.type", n.pos,
			fmt.Sprintf("Quote the value: %s: \"%s\"", dotted(path...), n.text),
			"Field '%s' is %s, not a string", dotted(path...), n.describe())
		return n.text, true
	}
	t.report(result.Error, result.InvalidType, "manifest.type", n.pos, "Write the field as a single string",
		"Field '%s' must be a string, not %s", dotted(path...), n.describe())
	return "", false
}

// fill reads the universal fields of a YAML manifest.
func (t *Tool) fill() {
	if t.doc.kind != kindMap {
		t.report(result.Error, result.InvalidType, "manifest.root", t.doc.pos,
			"Write the manifest as a mapping with tool_id, tool_type, version, description and executor",
			"The manifest is %s, not a mapping of fields", t.doc.describe())
		t.doc = nil
		return
	}
	if (t.Form == FormFile || t.Form == FormDir) && len(t.doc.keys) > 0 && !slices.ContainsFunc(toolKeys, func(k string) bool { return t.doc.field(k) != nil }) {
		t.notTool = "it has none of the fields that identify a tool or say how it runs (" + strings.Join(toolKeys, ", ") + "), so it is read as data another tool reads"
		return
	}
	if t.Type == "" {
		if s, ok := t.stringField("tool_type"); ok {
			t.Type = ToolType(s)
		}
	}
	if s, ok := t.stringField("tool_id"); ok {
		t.ID = s
	} else if t.doc.field("category") == nil {
		if s, ok := t.stringField("name"); ok {
			t.ID = s
		}
	}
	if s, ok := t.stringField("version"); ok {
		t.Version = s
	}
	if s, ok := t.stringField("description"); ok {
		t.Description = s
	}
	if s, ok := t.stringField("when_to_use"); ok {
		t.Guidance.WhenToUse = s
	}
	if s, ok := t.stringField("when_not_to_use"); ok {
		t.Guidance.WhenNotToUse = s
	}
	ex, hasEx := t.stringField("executor")
	exID, hasExID := t.stringField("executor_id")
	for _, k := range []string{"executor", "executor_id"} {
		if n := t.doc.field(k); n != nil && n.kind == kindNull {
			t.nullExec = true
		}
	}
	switch {
	case hasEx && hasExID && ex != exID:
		t.report(result.Error, result.ConstraintViolation, "manifest.executor_alias", t.keyPosOf("executor_id"),
			"Keep one of the two fields: executor and executor_id are the same field",
			"Fields 'executor' (%q) and 'executor_id' (%q) disagree; they name the same thing", ex, exID)
		t.Executor = ex
	case hasEx && hasExID:
		t.report(result.Warning, result.UnknownField, "manifest.executor_alias", t.keyPosOf("executor_id"),
			"Remove executor_id and keep executor",
			"Fields 'executor' and 'executor_id' are the same field, given twice")
		t.Executor = ex
	case hasEx:
		t.Executor = ex
	case hasExID:
		t.Executor = exID
	}
	if n := t.doc.field("config"); n != nil && n.kind != kindNull {
		if n.kind != kindMap {
			t.report(result.Error, result.InvalidType, "manifest.type", n.pos, "Write config as a mapping of settings",
				"Field 'config' must be a mapping, not %s", n.describe())
		} else {
			t.Config, _ = n.toAny().(map[string]any)
		}
	}
	t.readParameters()
	if t.Guidance.Empty() {
		t.Guidance = SchemaGuidance(t.schema)
	}
}

// checkUnknown warns about each key of the mapping at path that is not in
// known.
func (t *Tool) checkUnknown(known []string, what string, path ...pathElem) {
	t.warnUnknown(t.report, known, what, path...)
}

// reportFunc is the signature of Tool.report and checker.report.
type reportFunc func(sev result.Severity, typ result.Type, rule string, p Pos, suggestion, format string, args ...any)

// warnUnknown warns through report about each key of the mapping at path
// that is not in known, suggesting the closest known name; what names the
// mapping in the message ("a tool manifest").
func (t *Tool) warnUnknown(report reportFunc, known []string, what string, path ...pathElem) {
	n, _ := t.lookup(path...)
	if n == nil || n.kind != kindMap {
		return
	}
	for _, k := range n.keys {
		if slices.Contains(known, k) {
			continue
		}
		full := dotted(append(slices.Clone(path), k)...)
		sugg := "Remove the field, or rename it to one of: " + strings.Join(known, ", ")
		if c := closest(k, known); c != "" {
			sugg = fmt.Sprintf("Rename it to '%s', or remove it", c)
		}
		report(result.Warning, result.UnknownField, "manifest.unknown_field", n.keyPos[k], sugg,
			"Field '%s' is not known for %s and is ignored", full, what)
	}
}

// closest returns the known name within edit distance 2 of s, if any.
func closest(s string, known []string) string {
	best, bestD := "", 3
	for _, k := range known {
		if d := spell.Distance(strings.ToLower(s), k, bestD); d < bestD {
			best, bestD = k, d
		}
	}
	return best
}
