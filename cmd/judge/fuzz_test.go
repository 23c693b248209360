package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/agentjudge/judge/layer"
)

// fileLineCol matches an error located in the rules file: "NAME:LINE:COL: ".
var fileLineCol = regexp.MustCompile(`^rules\.json:\d+:\d+: `)

// FuzzReadRules reads any bytes as a rules file: an error always starts
// with the file's name and, unless the file is empty or unreadable as a
// whole, its line and column; otherwise there is one offset per
// criterion, each pointing at the criterion's own text in the file (which
// decodes to the same criterion), in increasing order.
func FuzzReadRules(f *testing.F) {
	for _, s := range []string{
		`[{"id": "p1-sla", "description": "P1 tickets get an SLA", "rule": "output.priority != 'p1' || output.sla_hours <= 4"}, "Is polite"]`,
		"[\n  {\"id\": \"a\", \"rule\": \"true\"},\n  {\"id\": \"a\", \"rule\": \"false\"}\n]",
		`[{"id": 1}]`, `[{"severity": "high"}]`, `{"rules": []}`, `[`, `[1,]`, ``, "  \n", "\xef\xbb\xbf[]", "- rule: x\n", `[] []`,
		`[{"rule": "a", "rule": "b"}, null, "\ud800"]`,
	} {
		f.Add([]byte(s))
	}
	dir := f.TempDir()
	name := filepath.Join(dir, "rules.json")
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := os.WriteFile(name, data, 0o644); err != nil {
			t.Fatal(err)
		}
		got, rules, offsets, err := readRules(name)
		if err != nil {
			msg := strings.TrimPrefix(err.Error(), dir+string(filepath.Separator))
			if !strings.HasPrefix(msg, "rules.json:") {
				t.Fatalf("readRules(%q): error %q does not name the file", data, err)
			}
			if len(bytes.TrimSpace(bytes.TrimPrefix(data, utf8BOM))) > 0 && !fileLineCol.MatchString(msg) {
				t.Fatalf("readRules(%q): error %q has no line and column", data, err)
			}
			return
		}
		if len(rules) != len(offsets) {
			t.Fatalf("%d criteria, %d offsets", len(rules), len(offsets))
		}
		for i, off := range offsets {
			if off < 0 || off >= int64(len(got)) || i > 0 && off <= offsets[i-1] {
				t.Fatalf("criterion %d at offset %d of %d (offsets %v)", i, off, len(got), offsets)
			}
			var c layer.Criterion
			if err := json.NewDecoder(bytes.NewReader(got[off:])).Decode(&c); err != nil {
				t.Fatalf("criterion %d at offset %d does not decode there: %v", i, off, err)
			}
			if !reflect.DeepEqual(c, rules[i]) {
				t.Fatalf("criterion %d at offset %d is %+v, but readRules read %+v", i, off, c, rules[i])
			}
		}
	})
}

// FuzzLocate checks the locator that points CLI errors at a line and
// column: for any JSON document and any JSON Pointer into it, when the
// pointer leads to a value, locate finds it, at an offset where that
// value's own text starts.
func FuzzLocate(f *testing.F) {
	for _, s := range []struct{ doc, ptr string }{
		{`{"properties": {"a": {"type": "string"}}}`, "/properties/a"},
		{`{"a": [1, {"b": 2}]}`, "/a/1/b"},
		{`{"a~b": {"c/d": 1}}`, "/a~0b/c~1d"},
		{`[0, 1, 2]`, "/2"},
		{`{"a": 1, "a": 2}`, "/a"},
		{`{"": {"": 3}}`, "//"},
		{`{"a": 1}`, "/b"},
		{`[1]`, "/-1"},
	} {
		f.Add(s.doc, s.ptr)
	}
	f.Fuzz(func(t *testing.T, doc, ptr string) {
		var v any
		if !strings.HasPrefix(ptr, "/") || json.Unmarshal([]byte(doc), &v) != nil {
			return
		}
		tokens := pointerTokens(ptr)
		want, ok := resolve(v, tokens)
		off, found := locate([]byte(doc), tokens)
		if found {
			if off < 0 || off >= int64(len(doc)) {
				t.Fatalf("locate(%q, %q) = %d, outside the document", doc, ptr, off)
			}
			var at any
			if err := json.NewDecoder(strings.NewReader(doc[off:])).Decode(&at); err != nil {
				t.Fatalf("locate(%q, %q) = %d, where no value starts: %v", doc, ptr, off, err)
			}
		}
		if ok && !found {
			t.Fatalf("locate(%q, %q) did not find %v", doc, ptr, want)
		}
	})
}

// resolve follows tokens into v, a decoded JSON value.
func resolve(v any, tokens []string) (any, bool) {
	for _, tok := range tokens {
		switch x := v.(type) {
		case map[string]any:
			var ok bool
			if v, ok = x[tok]; !ok {
				return nil, false
			}
		case []any:
			i, err := indexToken(tok)
			if err != nil || i >= len(x) {
				return nil, false
			}
			v = x[i]
		default:
			return nil, false
		}
	}
	return v, true
}

// indexToken reads an array index token as the pointer syntax writes it.
func indexToken(tok string) (int, error) {
	var i int
	if tok == "" || len(tok) > 1 && tok[0] == '0' {
		return 0, os.ErrInvalid
	}
	for _, c := range tok {
		if c < '0' || c > '9' || i > 1<<20 {
			return 0, os.ErrInvalid
		}
		i = i*10 + int(c-'0')
	}
	return i, nil
}
