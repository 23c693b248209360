package manifest

import (
	"bytes"
	"regexp"
	"strings"

	"github.com/agentjudge/judge/result"
)

// moduleConstant matches a Python module constant such as
// __tool_type__ = "script" at the start of a line.
var moduleConstant = regexp.MustCompile(`^(__[a-z_]+__)\s*=\s*(?:"([^"\\]*)"|'([^'\\]*)')\s*(#.*)?$`)

// constantFields maps module constants to manifest fields.
var constantFields = map[string]string{
	"__tool_id__": "tool_id", "__tool_type__": "tool_type", "__version__": "version",
	"__executor_id__": "executor", "__executor__": "executor", "__description__": "description",
	"__tool_description__": "description",
}

// metadataKeys are the keys whose presence makes a comment block or
// docstring tool metadata.
var metadataKeys = regexp.MustCompile(`(?m)^\s*(tool_id|tool_type)\s*:`)

// parseEmbedded reads the metadata a script carries: a YAML block in a
// Python module docstring, a YAML block in the comment header (# or //) of
// any other script, and Python module constants. It reports false when
// the script carries none.
func (t *Tool) parseEmbedded(src []byte) bool {
	lines := strings.Split(string(src), "\n")
	found := false
	if block, at, ok := docstring(lines); ok && metadataKeys.MatchString(block) {
		t.parseYAML([]byte(block), at, 0)
		t.metaFrom, t.metaTo = at, at+strings.Count(block, "\n")+1
		found = true
	} else if block, at, col, ok := commentHeader(lines); ok && metadataKeys.MatchString(block) {
		t.parseYAML([]byte(block), at, col)
		t.metaFrom, t.metaTo = at, at+strings.Count(block, "\n")+1
		found = true
	}
	if t.doc == nil && found {
		return true // a YAML error, already reported
	}
	// Module constants fill what the block left out, with their positions.
	for i, line := range lines {
		m := moduleConstant.FindStringSubmatch(strings.TrimRight(line, "\r"))
		if m == nil {
			continue
		}
		field, ok := constantFields[m[1]]
		if !ok {
			continue
		}
		t.metaConsts = append(t.metaConsts, i)
		val := m[2] + m[3]
		if t.doc == nil {
			t.doc = &node{kind: kindMap, pos: Pos{i + 1, 1}, fields: map[string]*node{}, keyPos: map[string]Pos{}}
		}
		if _, set := t.doc.fields[field]; set {
			if field == "executor" {
				if _, alias := t.doc.fields["executor_id"]; alias {
					continue
				}
			}
			t.report(result.Warning, result.ConstraintViolation, "manifest.embedded_duplicate", Pos{i + 1, 1},
				"Keep one of the two: the metadata block or the module constant", "%s repeats field '%s' of the metadata block; the block's value is used", m[1], field)
			continue
		}
		col := strings.Index(line, "=") + 1
		for col < len(line) && line[col] == ' ' {
			col++
		}
		t.doc.keys = append(t.doc.keys, field)
		t.doc.fields[field] = &node{kind: kindScalar, value: val, text: val, pos: Pos{i + 1, col + 1}, size: 1}
		t.doc.keyPos[field] = Pos{i + 1, 1}
		found = true
	}
	if !found {
		return false
	}
	if t.doc.kind == kindMap && t.doc.field("tool_id") == nil && t.doc.field("__tool_id__") == nil {
		// A script's tool_id defaults to its file name.
		base := t.rel[strings.LastIndexByte(t.rel, '/')+1:]
		if i := strings.LastIndexByte(base, '.'); i > 0 {
			base = base[:i]
		}
		t.doc.keys = append(t.doc.keys, "tool_id")
		t.doc.fields["tool_id"] = &node{kind: kindScalar, value: base, text: base, pos: Pos{1, 1}, size: 1}
	}
	t.fill()
	return true
}

// docstring finds a Python module docstring: the first statement, after
// the shebang, encoding line, comments and blank lines. It returns the
// text between the quotes with the quotes blanked out, so that positions
// stay exact, and the line offset of its first line.
func docstring(lines []string) (string, int, bool) {
	for i, line := range lines {
		s := strings.TrimSpace(line)
		if s == "" || strings.HasPrefix(s, "#") {
			continue
		}
		for _, q := range []string{`"""`, `'''`} {
			for _, prefix := range []string{"", "r", "R"} {
				if !strings.HasPrefix(s, prefix+q) {
					continue
				}
				start := strings.Index(line, prefix+q)
				first := strings.Repeat(" ", start+len(prefix)+3) + line[start+len(prefix)+3:]
				if end := strings.Index(first, q); end >= 0 {
					return strings.TrimRight(first[:end], " "), i, true
				}
				body := []string{first}
				for j := i + 1; j < len(lines); j++ {
					if end := strings.Index(lines[j], q); end >= 0 {
						body = append(body, lines[j][:end])
						return strings.Join(body, "\n"), i, true
					}
					body = append(body, lines[j])
				}
				return "", 0, false
			}
		}
		return "", 0, false
	}
	return "", 0, false
}

// commentHeader returns the leading comment block of a script (after a
// shebang) with its comment marker removed, the block's line offset and
// the marker's width.
func commentHeader(lines []string) (string, int, int, bool) {
	i := 0
	if len(lines) > 0 && strings.HasPrefix(lines[0], "#!") {
		i = 1
	}
	marker := ""
	switch {
	case i < len(lines) && strings.HasPrefix(lines[i], "//"):
		marker = "//"
	case i < len(lines) && strings.HasPrefix(lines[i], "#"):
		marker = "#"
	default:
		return "", 0, 0, false
	}
	// The width removed is the marker plus one space when every line has it.
	width := len(marker) + 1
	var body []string
	start := i
	for ; i < len(lines); i++ {
		l := strings.TrimRight(lines[i], "\r")
		if !strings.HasPrefix(l, marker) {
			break
		}
		rest := l[len(marker):]
		if rest != "" && !strings.HasPrefix(rest, " ") {
			width = len(marker)
		}
		body = append(body, rest)
	}
	var sb bytes.Buffer
	for k, b := range body {
		if k > 0 {
			sb.WriteByte('\n')
		}
		if width > len(marker) && b != "" {
			b = b[1:]
		}
		sb.WriteString(b)
	}
	return sb.String(), start, width, true
}

// parseKnowledge reads a knowledge entry's frontmatter (which starts on
// the file's second line) into the universal fields: id is the tool_id,
// title the description.
func (t *Tool) parseKnowledge(fm []byte) {
	doc, err := decodeYAML(t.Path, fm, 1, 0)
	if err != nil {
		t.yamlIssue(err)
		t.doc = &node{kind: kindMap, pos: Pos{1, 1}, fields: map[string]*node{}, keyPos: map[string]Pos{}}
		return
	}
	if doc.kind != kindMap {
		t.report(result.Error, result.InvalidType, "manifest.root", doc.pos,
			"Write the frontmatter as a mapping with id, title and entry_type",
			"The frontmatter is %s, not a mapping of fields", doc.describe())
		t.doc = &node{kind: kindMap, pos: doc.pos, fields: map[string]*node{}, keyPos: map[string]Pos{}}
		return
	}
	t.doc = doc
	if s, ok := t.stringField("id"); ok {
		t.ID = s
	}
	if s, ok := t.stringField("title"); ok {
		t.Description = s
	}
	if s, ok := t.stringField("version"); ok {
		t.Version = s
	}
	for _, k := range []string{"executor", "executor_id"} {
		if s, ok := t.doc.field(k).str(); ok {
			t.Executor = s
		}
	}
}
