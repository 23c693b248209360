package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/agentjudge/judge/internal/jsonpos"
	"github.com/agentjudge/judge/internal/jsonvalue"
	"github.com/agentjudge/judge/layer"
)

// Size limits of what judge validate reads.
const (
	// maxInputBytes is the largest output, context or source file read.
	maxInputBytes = 10 << 20
	// maxSourcesBytes is the most all --source files together may hold.
	maxSourcesBytes = 64 << 20
)

// sourceExts are the extensions of the files read from a --source DIR.
var sourceExts = []string{".txt", ".md", ".json"}

var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// readInput reads the output under validation from the file name, or from
// stdin when name is "-". implicit says that no FILE argument was given, so
// that a terminal on stdin is an error rather than a wait for typing. It
// returns the data and the name to show in errors.
func readInput(name string, implicit bool, stdin io.Reader) ([]byte, string, error) {
	if name != "-" {
		data, err := readFile(name, "output", maxInputBytes)
		return data, name, err
	}
	const display = "<stdin>"
	if f, ok := stdin.(*os.File); ok && implicit {
		if fi, err := f.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
			return nil, display, badInputf("no output to validate: give a FILE, or pipe the output on stdin (see 'judge validate --help')")
		}
	}
	if stdin == nil {
		return nil, display, badInputf("no output to validate: stdin is closed")
	}
	data, err := readLimited(stdin, display, "output", maxInputBytes)
	return data, display, err
}

// readOutput turns the bytes of an output into the request's output: the
// JSON value itself when data is JSON, else a JSON string holding the text.
// A UTF-8 byte order mark is dropped. The result is always valid JSON.
func readOutput(data []byte) json.RawMessage {
	data = bytes.TrimPrefix(data, utf8BOM)
	if trimmed := bytes.TrimSpace(data); len(trimmed) > 0 && json.Valid(trimmed) {
		return json.RawMessage(trimmed)
	}
	b, err := json.Marshal(string(data)) // invalid UTF-8 becomes U+FFFD
	if err != nil {
		panic(fmt.Sprintf("judge: marshal a string: %v", err)) // cannot happen
	}
	return b
}

// checkJSONOutput fails with the parse error, at its line and column, when
// the output was meant as JSON and is not: a .json file always, and with a
// schema (withSchema) an output that is empty or starts like JSON ('{' or
// '['). Prose, and prose around a fenced JSON block, is not refused: it is
// validated as text. Without this, a broken JSON output would be validated
// as a string and headlined "has type string, expected object".
func checkJSONOutput(name, display string, data []byte, withSchema bool) error {
	data = bytes.TrimPrefix(data, utf8BOM)
	trimmed := bytes.TrimSpace(data)
	jsonFile := name != "-" && strings.EqualFold(filepath.Ext(name), ".json")
	looksJSON := len(trimmed) == 0 || trimmed[0] == '{' || trimmed[0] == '['
	if !jsonFile && !(withSchema && looksJSON) {
		return nil
	}
	if _, err := jsonvalue.Decode(data, 0); err != nil {
		why := "it is a .json file"
		if !jsonFile {
			why = "--schema expects JSON"
		}
		if len(trimmed) == 0 {
			return badInputf("%s: the output is empty, but %s, so it must hold a JSON value", display, why)
		}
		if errors.Is(err, jsonvalue.ErrTooDeep) {
			return badInput(jsonFileError(display, "output", data, err))
		}
		var se *jsonvalue.SyntaxError
		if errors.As(err, &se) && se.Path != "" {
			// Well-formed JSON with a value judge refuses to change.
			return badInputf("%s:%d:%d: the output cannot be validated: %s", display, se.Line, se.Col, se.Msg)
		}
		if errors.As(err, &se) {
			return badInputf("%s:%d:%d: the output is not valid JSON (%s): %s", display, se.Line, se.Col, why, se.Msg)
		}
		return badInputf("%s: the output is not valid JSON (%s): %v", display, why, err)
	}
	return nil
}

// readFile reads at most limit bytes of the file name; what names the file's
// role in errors.
func readFile(name, what string, limit int64) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, badInput(fileError(name, what, err))
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.IsDir() {
		return nil, badInputf("%s: the %s file is a directory", name, what)
	}
	return readLimited(f, name, what, limit)
}

// readLimited reads r to its end, failing when it holds more than limit
// bytes.
func readLimited(r io.Reader, name, what string, limit int64) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, badInput(fileError(name, what, err))
	}
	if int64(len(data)) > limit {
		return nil, badInputf("%s: the %s is larger than the limit of %s", name, what, sizeString(limit))
	}
	return data, nil
}

// fileError renders an error of reading a file as "name: reason".
func fileError(name, what string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%s: no such %s file", name, what)
	case errors.Is(err, fs.ErrPermission):
		return fmt.Errorf("%s: permission denied reading the %s file", name, what)
	}
	return fmt.Errorf("%s: %w", name, err)
}

func sizeString(n int64) string {
	if n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}

// readJSONFile reads a JSON file (a schema, a context) and checks its
// syntax; errors give file:line:col. YAML is refused with a clear message.
func readJSONFile(name, what string, limit int64) ([]byte, error) {
	if ext := strings.ToLower(filepath.Ext(name)); ext == ".yaml" || ext == ".yml" {
		return nil, badInputf("%s: the %s file must be JSON; YAML is not supported", name, what)
	}
	data, err := readFile(name, what, limit)
	if err != nil {
		return nil, err
	}
	data = bytes.TrimPrefix(data, utf8BOM)
	if _, err := jsonvalue.Decode(data, 0); err != nil {
		return nil, badInput(jsonFileError(name, what, data, err))
	}
	return data, nil
}

// jsonFileError renders a JSON syntax error in a file as
// "name:line:col: the what file is not valid JSON: msg".
func jsonFileError(name, what string, data []byte, err error) error {
	var se *jsonvalue.SyntaxError
	if !errors.As(err, &se) {
		return fmt.Errorf("%s: %w", name, err)
	}
	msg := se.Msg
	if errors.Is(err, jsonvalue.ErrTooDeep) {
		return fmt.Errorf("%s:%d:%d: the %s file nests too deeply: %s", name, se.Line, se.Col, what, msg)
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return fmt.Errorf("%s: the %s file is empty; it must hold a JSON value", name, what)
	}
	if looksLikeYAML(data) {
		msg += " (the file must be JSON; YAML is not supported)"
	}
	return fmt.Errorf("%s:%d:%d: the %s file is not valid JSON: %s", name, se.Line, se.Col, what, msg)
}

// looksLikeYAML reports whether data starts the way YAML does and JSON
// cannot: a key, a list dash, a comment or a document marker.
func looksLikeYAML(data []byte) bool {
	t := bytes.TrimSpace(data)
	if len(t) == 0 {
		return false
	}
	switch c := t[0]; {
	case c == '#':
		return true
	case c == '-': // "- item" or the "---" document marker; "-1" is JSON
		return len(t) == 1 || t[1] == ' ' || t[1] == '-' || t[1] == '\n'
	case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_':
		line, _, _ := bytes.Cut(t, []byte("\n"))
		return bytes.Contains(line, []byte(":"))
	}
	return false
}

// readRules reads a rules file: a JSON array of criteria, each an object
// {"id", "description", "rule", "message", "messageExpression"} (or a
// plain-language string). It returns the file's data, the criteria and the
// byte offset of each in the file.
func readRules(name string) ([]byte, []layer.Criterion, []int64, error) {
	data, err := readJSONFile(name, "rules", maxInputBytes)
	if err != nil {
		return nil, nil, nil, err
	}
	start := jsonpos.SkipSpace(data, 0)
	if start >= int64(len(data)) || data[start] != '[' {
		line, col := jsonvalue.Position(data, start)
		return nil, nil, nil, badInputf(`%s:%d:%d: the rules file must hold a JSON array of criteria, like [{"id": "p1-sla", "description": "P1 tickets get an SLA of 4 hours or less", "rule": "output.priority != 'p1' || output.sla_hours <= 4"}]`, name, line, col)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if _, err := dec.Token(); err != nil { // '['
		return nil, nil, nil, badInput(jsonFileError(name, "rules", data, jsonvalue.Wrap(data, dec.InputOffset(), err)))
	}
	var rules []layer.Criterion
	var offsets []int64
	ids := map[string]int{}
	for i := 0; dec.More(); i++ {
		off := jsonpos.SkipSep(data, dec.InputOffset())
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, nil, nil, badInput(jsonFileError(name, "rules", data, jsonvalue.Wrap(data, dec.InputOffset(), err)))
		}
		line, col := jsonvalue.Position(data, off)
		var c layer.Criterion
		if err := json.Unmarshal(raw, &c); err != nil {
			return nil, nil, nil, badInputf("%s:%d:%d: criterion %d: %v", name, line, col, i+1, unwrapJSONError(err))
		}
		if c.ID != "" {
			if prev, dup := ids[c.ID]; dup {
				return nil, nil, nil, badInputf("%s:%d:%d: criterion %d has the id %q of criterion %d; ids must be unique", name, line, col, i+1, c.ID, prev)
			}
			ids[c.ID] = i + 1
		}
		rules = append(rules, c)
		offsets = append(offsets, off)
	}
	return data, rules, offsets, nil
}

// unwrapJSONError drops encoding/json's "json: " prefixes from a message.
func unwrapJSONError(err error) string {
	return strings.ReplaceAll(err.Error(), "json: ", "")
}

// readSources reads --source arguments: a file becomes one source whose id
// is its base name; a directory, every .txt, .md and .json file under it
// (hidden directories skipped), with ids relative to it.
func readSources(args []string) ([]layer.Source, error) {
	var sources []layer.Source
	seen := map[string]string{}
	var total int64
	add := func(path, id string) error {
		data, err := readFile(path, "source", maxInputBytes)
		if err != nil {
			return err
		}
		if total += int64(len(data)); total > maxSourcesBytes {
			return badInputf("%s: the sources together are larger than the limit of %s", path, sizeString(maxSourcesBytes))
		}
		data = bytes.TrimPrefix(data, utf8BOM)
		if !utf8.Valid(data) {
			return badInputf("%s: the source is not UTF-8 text", path)
		}
		if prev, dup := seen[id]; dup {
			return badInputf("%s and %s both give the source id %q; rename one", prev, path, id)
		}
		seen[id] = path
		sources = append(sources, layer.Source{ID: id, Content: string(data)})
		return nil
	}
	for _, arg := range args {
		fi, err := os.Stat(arg)
		if err != nil {
			return nil, badInput(fileError(arg, "source", err))
		}
		if !fi.IsDir() {
			if err := add(arg, filepath.Base(arg)); err != nil {
				return nil, err
			}
			continue
		}
		n := 0
		err = filepath.WalkDir(arg, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return badInput(fileError(path, "source", err))
			}
			if d.IsDir() {
				if path != arg && strings.HasPrefix(d.Name(), ".") {
					return filepath.SkipDir
				}
				return nil
			}
			if !d.Type().IsRegular() || !slices.Contains(sourceExts, strings.ToLower(filepath.Ext(path))) {
				return nil
			}
			rel, err := filepath.Rel(arg, path)
			if err != nil {
				return badInput(err)
			}
			n++
			return add(path, filepath.ToSlash(rel))
		})
		if err != nil {
			return nil, err
		}
		if n == 0 {
			return nil, badInputf("%s: the source directory holds no %s file", arg, strings.Join(sourceExts, ", "))
		}
	}
	return sources, nil
}
