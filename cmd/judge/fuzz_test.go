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
