package manifest

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"
	"golang.org/x/mod/modfile"

	"github.com/agentjudge/judge/result"
)

// depFinding is one thing wrong in a dependency file of a script, at a
// position of that file.
type depFinding struct {
	sev  result.Severity
	typ  result.Type
	rule string
	pos  Pos
	msg  string
	sugg string
}

// maxDepFindings caps the findings of one dependency file.
const maxDepFindings = 100

// pyprojectFindings checks a pyproject.toml: it must be TOML, the strings
// of [project] dependencies and [project.optional-dependencies] must be
// PEP 508 requirements, and the entries of [tool.poetry.dependencies] (and
// of dev-dependencies and group.NAME.dependencies) must be a package name
// with a version constraint or a table of a dependency's source.
func pyprojectFindings(data []byte) []depFinding {
	// The decoder catches what the parser alone accepts, such as a key
	// defined twice, so it decides whether the file is TOML.
	var v map[string]any
	if err := toml.Unmarshal(data, &v); err != nil {
		p := Pos{1, 1}
		msg := err.Error()
		var de *toml.DecodeError
		if errors.As(err, &de) {
			line, col := de.Position()
			p = charPos(data, lineOffset(data, line)+col-1)
		}
		return []depFinding{{sev: result.Error, typ: result.SyntaxError, rule: "manifest.script.pyproject", pos: p,
			msg:  "pyproject.toml is not valid TOML: " + result.Clip(msg, 300),
			sugg: "Correct the TOML at this line and column"}}
	}
	w := &tomlWalk{data: data}
	w.p.Reset(data)
	var table []string
	for w.p.NextExpression() && len(w.out) < maxDepFindings {
		e := w.p.Expression()
		switch e.Kind {
		case unstable.Table, unstable.ArrayTable:
			table = keyParts(e.Key())
		case unstable.KeyValue:
			w.keyValue(table, e)
		}
	}
	if err := w.p.Error(); err != nil && len(w.out) == 0 {
		// The decoder accepted what the parser did not: report it all
		// the same rather than pass the file.
		p := Pos{1, 1}
		var pe *unstable.ParserError
		if errors.As(err, &pe) && len(pe.Highlight) > 0 {
			p = charPos(data, int(w.p.Range(pe.Highlight).Offset))
		}
		w.out = append(w.out, depFinding{sev: result.Error, typ: result.SyntaxError, rule: "manifest.script.pyproject", pos: p,
			msg: "pyproject.toml is not valid TOML: " + result.Clip(err.Error(), 300), sugg: "Correct the TOML at this line and column"})
	}
	return w.out
}

// tomlWalk follows a parsed pyproject.toml and collects its findings.
type tomlWalk struct {
	data []byte
	p    unstable.Parser
	out  []depFinding
}

func keyParts(it unstable.Iterator) []string {
	var parts []string
	for it.Next() {
		parts = append(parts, string(it.Node().Data))
	}
	return parts
}

func (w *tomlWalk) pos(n *unstable.Node) Pos {
	return charPos(w.data, int(n.Raw.Offset))
}

// charPos is the 1-based line and column of the byte offset off of data,
// the column counted in characters, as the locations of manifests,
// scripts and go.mod count it (go-toml's positions count bytes).
func charPos(data []byte, off int) Pos {
	off = min(max(off, 0), len(data))
	start := bytes.LastIndexByte(data[:off], '\n') + 1
	return Pos{bytes.Count(data[:start], []byte{'\n'}) + 1, utf8.RuneCount(data[start:off]) + 1}
}

// lineOffset is the byte offset at which the 1-based line of data starts.
func lineOffset(data []byte, line int) int {
	off := 0
	for ; line > 1; line-- {
		i := bytes.IndexByte(data[off:], '\n')
		if i < 0 {
			break
		}
		off += i + 1
	}
	return off
}

func (w *tomlWalk) add(f depFinding) {
	if len(w.out) < maxDepFindings {
		w.out = append(w.out, f)
	}
}

// keyValue checks the key/value expression e of the table at path table.
func (w *tomlWalk) keyValue(table []string, e *unstable.Node) {
	it := e.Key()
	var keyNode *unstable.Node
	path := slices.Clone(table)
	for it.Next() {
		keyNode = it.Node()
		path = append(path, string(keyNode.Data))
	}
	w.value(path, keyNode, e.Value())
}

// value checks the value v of the key at path, written at keyNode.
func (w *tomlWalk) value(path []string, keyNode, v *unstable.Node) {
	found, poetry, prefix := dependencyPath(path)
	switch {
	case found && poetry:
		w.poetryDependency(strings.Join(path, "."), keyNode, v)
	case found:
		w.requirementList(strings.Join(path, "."), keyNode, v)
	case prefix && v.Kind == unstable.InlineTable:
		// An inline table on the way to a dependency list, such as
		// project = {dependencies = [...]}: follow its keys.
		for kids := v.Children(); kids.Next(); {
			if kv := kids.Node(); kv.Kind == unstable.KeyValue {
				w.keyValue(path, kv)
			}
		}
	}
}

// dependencyPaths are the key paths of pyproject.toml whose values are
// checked ("*" stands for any key): a list of PEP 508 requirements, or
// one Poetry dependency.
var dependencyPaths = []struct {
	path   []string
	poetry bool
}{
	{[]string{"build-system", "requires"}, false},
	{[]string{"project", "dependencies"}, false},
	{[]string{"project", "optional-dependencies", "*"}, false},
	{[]string{"tool", "poetry", "dependencies", "*"}, true},
	{[]string{"tool", "poetry", "dev-dependencies", "*"}, true},
	{[]string{"tool", "poetry", "group", "*", "dependencies", "*"}, true},
}

// dependencyPath reports whether path is one of dependencyPaths (found,
// and whether a Poetry one), or else whether it leads to one (prefix).
func dependencyPath(path []string) (found, poetry, prefix bool) {
	for _, d := range dependencyPaths {
		if len(path) > len(d.path) {
			continue
		}
		match := true
		for i, p := range path {
			if d.path[i] != "*" && d.path[i] != p {
				match = false
				break
			}
		}
		switch {
		case match && len(path) == len(d.path):
			return true, d.poetry, false
		case match:
			prefix = true
		}
	}
	return false, false, prefix
}

// requirementList checks that v, the value of name, is an array of PEP
// 508 requirement strings.
func (w *tomlWalk) requirementList(name string, keyNode, v *unstable.Node) {
	if v.Kind != unstable.Array {
		w.add(depFinding{sev: result.Error, typ: result.InvalidType, rule: "manifest.type", pos: w.pos(keyNode),
			msg:  fmt.Sprintf("%s in pyproject.toml must be an array of requirement strings, not %s", name, tomlKind(v)),
			sugg: `Write a list of requirements, such as ["httpx>=0.24", "pydantic>=2,<3"]`})
		return
	}
	i := 0
	for items := v.Children(); items.Next() && len(w.out) < maxDepFindings; {
		it := items.Node()
		if it.Kind == unstable.Comment {
			continue
		}
		switch {
		case it.Kind != unstable.String:
			w.add(depFinding{sev: result.Error, typ: result.InvalidType, rule: "manifest.type", pos: w.pos(it),
				msg:  fmt.Sprintf("%s[%d] in pyproject.toml must be a requirement string, not %s", name, i, tomlKind(it)),
				sugg: `Quote the requirement, such as "httpx>=0.24"`})
		case !pep508(string(it.Data)):
			w.add(depFinding{sev: result.Error, typ: result.SyntaxError, rule: "manifest.script.requirement", pos: w.pos(it),
				msg: fmt.Sprintf("%s[%d] in pyproject.toml is not a well-formed PEP 508 requirement: '%s'",
					name, i, result.Clip(string(it.Data), 80)),
				sugg: "Write a requirement as NAME, NAME==1.2, NAME>=1.0,<2 or NAME[extra]>=1.0; python_version<'3.11'"})
		}
		i++
	}
}

// packageName is a Python distribution name (PEP 508).
var packageName = regexp.MustCompile(`^` + pep508Name + `$`)

// poetryVersionSpec is one version of a Poetry constraint with its
// optional operator (^, ~, ~=, ==, !=, <=, >=, <, >, =): a PEP 440 version
// with an epoch (1!2.0), pre, post, dev and local parts (1.0rc1, 1.0-1,
// 1.0+cpu, 1.0+5), or a wildcard (1.2.*).
const poetryVersionSpec = `(\^|~=|~|===|==|!=|<=|>=|<|>|=)?\s*v?(\d+!)?\d+(\.(\d+|\*))*([.+_-]?[A-Za-z0-9][A-Za-z0-9.+_-]*)?`

// poetryConstraint is a Poetry version constraint: "*", or comma- or
// space-separated versions (poetryVersionSpec); alternatives are joined
// by "||" and checked one by one. It is compiled on first use (about
// 0.1 ms), not at the start of every program that imports the package.
var poetryConstraint = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*(\*|` + poetryVersionSpec + `)(\s*,?\s*` + poetryVersionSpec + `)*\s*$`)
})

// poetryDependencyKeys are the keys of a Poetry dependency table.
var poetryDependencyKeys = []string{"version", "python", "markers", "extras", "optional", "allow-prereleases",
	"allows-prereleases", "source", "develop", "git", "branch", "tag", "rev", "subdirectory", "path", "url", "file", "platform"}

// poetryDependency checks one entry of a Poetry dependency table: the key
// a package name, the value a version constraint, a table of the
// dependency's source, or an array of such tables.
func (w *tomlWalk) poetryDependency(name string, keyNode, v *unstable.Node) {
	pkg := string(keyNode.Data)
	if !packageName.MatchString(pkg) {
		w.add(depFinding{sev: result.Error, typ: result.SyntaxError, rule: "manifest.script.requirement", pos: w.pos(keyNode),
			msg:  fmt.Sprintf("'%s' in pyproject.toml is not a valid package name", result.Clip(pkg, 80)),
			sugg: "Name the package with letters, digits, '.', '_' and '-', starting and ending with a letter or digit"})
	}
	switch v.Kind {
	case unstable.String:
		w.poetryVersion(name, v)
	case unstable.InlineTable:
		w.poetryTable(name, v)
	case unstable.Array:
		for items := v.Children(); items.Next() && len(w.out) < maxDepFindings; {
			if it := items.Node(); it.Kind == unstable.InlineTable {
				w.poetryTable(name, it)
			} else if it.Kind != unstable.Comment {
				w.add(depFinding{sev: result.Error, typ: result.InvalidType, rule: "manifest.type", pos: w.pos(it),
					msg:  fmt.Sprintf("Each constraint of %s in pyproject.toml must be a table, not %s", name, tomlKind(it)),
					sugg: `Write each constraint as a table, such as {version = "^1.0", python = "<3.11"}`})
			}
		}
	default:
		w.add(depFinding{sev: result.Error, typ: result.InvalidType, rule: "manifest.type", pos: w.pos(v),
			msg:  fmt.Sprintf("%s in pyproject.toml must be a version string or a table, not %s", name, tomlKind(v)),
			sugg: `Write a version constraint, such as "^1.0", or a table such as {version = "^1.0", extras = ["http2"]}`})
	}
}

func (w *tomlWalk) poetryVersion(name string, v *unstable.Node) {
	s := string(v.Data)
	for _, alt := range strings.Split(s, "||") {
		if !poetryConstraint().MatchString(alt) {
			w.add(depFinding{sev: result.Error, typ: result.SyntaxError, rule: "manifest.script.requirement", pos: w.pos(v),
				msg:  fmt.Sprintf("The version of %s in pyproject.toml is not a valid Poetry constraint: '%s'", name, result.Clip(s, 80)),
				sugg: `Write a constraint such as "^1.2", "~1.2.3", ">=1.0,<2.0" or "*"`})
			return
		}
	}
}

func (w *tomlWalk) poetryTable(name string, v *unstable.Node) {
	source := false
	for kids := v.Children(); kids.Next(); {
		kv := kids.Node()
		if kv.Kind != unstable.KeyValue {
			continue
		}
		var k *unstable.Node
		for ki := kv.Key(); ki.Next(); {
			k = ki.Node()
		}
		key := string(k.Data)
		val := kv.Value()
		switch {
		case !slices.Contains(poetryDependencyKeys, key):
			sugg := "Use one of " + strings.Join(poetryDependencyKeys, ", ")
			if cl := closest(key, poetryDependencyKeys); cl != "" {
				sugg = fmt.Sprintf("Did you mean '%s'?", cl)
			}
			w.add(depFinding{sev: result.Warning, typ: result.UnknownField, rule: "manifest.unknown_field", pos: w.pos(k),
				msg:  fmt.Sprintf("Unknown key '%s' in the Poetry dependency %s of pyproject.toml", result.Clip(key, 60), name),
				sugg: sugg})
		case key == "version":
			source = true
			if val.Kind == unstable.String {
				w.poetryVersion(name, val)
			} else {
				w.add(depFinding{sev: result.Error, typ: result.InvalidType, rule: "manifest.type", pos: w.pos(val),
					msg:  fmt.Sprintf("The version of %s in pyproject.toml must be a string, not %s", name, tomlKind(val)),
					sugg: `Quote the constraint, such as "^1.0"`})
			}
		case key == "git" || key == "path" || key == "url" || key == "file":
			source = true
		}
	}
	if !source {
		w.add(depFinding{sev: result.Error, typ: result.MissingField, rule: "manifest.script.requirement", pos: w.pos(v),
			msg:  fmt.Sprintf("The Poetry dependency %s in pyproject.toml gives no version, git, path or url", name),
			sugg: `Add version = "^1.0", or where the package comes from (git, path or url)`})
	}
}

// tomlKind names the kind of a TOML value with its article.
func tomlKind(n *unstable.Node) string {
	switch n.Kind {
	case unstable.String:
		return "a string"
	case unstable.Integer:
		return "an integer"
	case unstable.Float:
		return "a float"
	case unstable.Bool:
		return "a boolean"
	case unstable.Array:
		return "an array"
	case unstable.InlineTable:
		return "a table"
	case unstable.DateTime, unstable.LocalDate, unstable.LocalDateTime, unstable.LocalTime:
		return "a date or time"
	}
	return "a value"
}

// goModFindings checks a go.mod: it must parse, and it must have a module
// line.
func goModFindings(data []byte) []depFinding {
	f, err := modfile.Parse("go.mod", data, nil)
	if err != nil {
		var list modfile.ErrorList
		if errors.As(err, &list) && len(list) > 0 {
			var out []depFinding
			for _, e := range list[:min(len(list), maxDepFindings)] {
				msg := e.Error()
				if e.Err != nil {
					msg = e.Err.Error()
				}
				out = append(out, depFinding{sev: result.Error, typ: result.SyntaxError, rule: "manifest.script.go_mod",
					pos:  Pos{max(e.Pos.Line, 1), max(e.Pos.LineRune, 1)},
					msg:  "go.mod is not valid: " + result.Clip(strings.Join(strings.Fields(msg), " "), 300),
					sugg: "Correct go.mod at this line, or run go mod tidy"})
			}
			return out
		}
		return []depFinding{{sev: result.Error, typ: result.SyntaxError, rule: "manifest.script.go_mod", pos: Pos{1, 1},
			msg: "go.mod is not valid: " + result.Clip(strings.TrimPrefix(err.Error(), "go.mod:"), 300), sugg: "Correct go.mod, or run go mod tidy"}}
	}
	if f.Module == nil {
		return []depFinding{{sev: result.Error, typ: result.MissingField, rule: "manifest.script.go_mod", pos: Pos{1, 1},
			msg:  "go.mod has no module line, so it names no module",
			sugg: "Add a first line such as: module example.com/mytool"}}
	}
	return nil
}
