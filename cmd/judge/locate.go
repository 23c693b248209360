package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/agentjudge/judge"
	"github.com/agentjudge/judge/internal/jsonpos"
	"github.com/agentjudge/judge/internal/jsonvalue"
)

// fileText is a file judge read, kept to point errors at lines and columns.
type fileText struct {
	name string
	data []byte
}

// criterionOrigin says where one acceptance criterion came from: a
// --criteria flag or an element of the rules file.
type criterionOrigin struct {
	flag   int      // 1-based position among the --criteria flags, or 0
	file   fileText // the rules file
	index  int      // 0-based index in the rules file
	offset int64    // byte offset of the criterion in the rules file
	id     string   // the criterion's id, if any
}

// origins records which file each part of a request came from.
type origins struct {
	output, schema, context fileText
	criteria                []criterionOrigin
	// schemas are the files of --schemas DIR by the URI of their $id.
	schemas map[string]fileText
}

// criterionFieldRE matches the request location of an error in a criterion:
// acceptance_criteria[2].rule:1:7.
var criterionFieldRE = regexp.MustCompile(`^acceptance_criteria\[(\d+)\](?:\.([A-Za-z_]+))?(?::(\d+):(\d+))?(.*)$`)

// schemasFieldRE matches the request location of an error in a schema
// given by URI: schemas["https://example.com/a.json"]/properties/x.
var schemasFieldRE = regexp.MustCompile(`^schemas\[("(?:[^"\\]|\\.)*")\](.*)$`)

// describe renders a request error for the command line, naming the file,
// line and column it comes from where they can be found.
func (o *origins) describe(re *judge.RequestError) string {
	field, msg := re.Field, re.Msg
	var se *jsonvalue.SyntaxError
	if !errors.As(re, &se) {
		se = nil
	}
	switch {
	case field == "validation_types":
		return "--types: " + msg
	case field == "options.output_mode":
		return "--output-mode: " + msg
	case isField(field, "output"):
		return o.output.at(strings.TrimPrefix(field, "output"), msg, se)
	case isField(field, "expected_schema"):
		return o.schema.at(strings.TrimPrefix(field, "expected_schema"), msg, se)
	case isField(field, "context"):
		return o.context.at(strings.TrimPrefix(field, "context"), msg, se)
	case strings.HasPrefix(field, "acceptance_criteria["):
		if s, ok := o.describeCriterion(field, msg); ok {
			return s
		}
	case strings.HasPrefix(field, "schemas["):
		if m := schemasFieldRE.FindStringSubmatch(field); m != nil {
			var uri string
			if json.Unmarshal([]byte(m[1]), &uri) == nil {
				if f, ok := o.schemas[uri]; ok {
					return f.at(m[2], msg, nil)
				}
			}
		}
	}
	if field == "" {
		return msg
	}
	return field + ": " + msg
}

// isField reports whether loc is name or a location inside it.
func isField(loc, name string) bool {
	rest, ok := strings.CutPrefix(loc, name)
	return ok && (rest == "" || strings.IndexByte("/#:.[ ", rest[0]) >= 0)
}

// at renders msg at a location in f: the position of se when given, else
// the position of rest read as a JSON Pointer ("/properties/a", "#/a"),
// else the file alone.
func (f fileText) at(rest, msg string, se *jsonvalue.SyntaxError) string {
	if f.name == "" {
		return msg
	}
	if se != nil {
		return fmt.Sprintf("%s:%d:%d: %s", f.name, se.Line, se.Col, se.Msg)
	}
	ptr := strings.TrimPrefix(strings.TrimSpace(rest), "#")
	if strings.HasPrefix(ptr, "/") {
		if off, ok := jsonpos.Offset(f.data, jsonpos.PointerTokens(ptr)); ok {
			line, col := jsonvalue.Position(f.data, off)
			return fmt.Sprintf("%s:%d:%d: %s: %s", f.name, line, col, ptr, msg)
		}
		return fmt.Sprintf("%s: %s: %s", f.name, ptr, msg)
	}
	return fmt.Sprintf("%s: %s", f.name, msg)
}

// describeCriterion renders an error in the criterion that field names at
// its place in the rules file, down to the column in a rule expression.
func (o *origins) describeCriterion(field, msg string) (string, bool) {
	m := criterionFieldRE.FindStringSubmatch(field)
	if m == nil {
		return "", false
	}
	i, err := strconv.Atoi(m[1])
	if err != nil || i < 0 || i >= len(o.criteria) {
		return "", false
	}
	c := o.criteria[i]
	if c.flag > 0 {
		return fmt.Sprintf("--criteria #%d: %s", c.flag, msg), true
	}
	name := fmt.Sprintf("criterion %d", c.index+1)
	if c.id != "" {
		name = fmt.Sprintf("criterion %q", c.id)
	}
	data := c.file.data
	off := c.offset
	if key := m[2]; key != "" {
		if rel, ok := jsonpos.Offset(data[off:], []string{key}); ok {
			off += rel
			if m[3] != "" {
				line, _ := strconv.Atoi(m[3])
				col, _ := strconv.Atoi(m[4])
				off = jsonpos.StringOffset(data, off, line, col)
			}
		}
	}
	line, col := jsonvalue.Position(data, off)
	return fmt.Sprintf("%s:%d:%d: %s: %s", c.file.name, line, col, name, msg), true
}
