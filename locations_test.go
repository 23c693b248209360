package judge_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/agentjudge/judge"
	"github.com/agentjudge/judge/layer"
	"github.com/agentjudge/judge/result"
)

// TestLocationsParse checks that every location judge produces over the
// examples, and every location written in the repository's golden files,
// parses under the one grammar of docs/locations.md.
func TestLocationsParse(t *testing.T) {
	t.Parallel()
	e, err := judge.New()
	if err != nil {
		t.Fatal(err)
	}
	incident, err := os.ReadFile(filepath.Join("examples", "sources", "incident-4411.md"))
	if err != nil {
		t.Fatal(err)
	}
	schema, err := os.ReadFile(filepath.Join("examples", "ticket.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	rules, err := os.ReadFile(filepath.Join("examples", "ticket.rules.json"))
	if err != nil {
		t.Fatal(err)
	}
	var crits []layer.Criterion
	if err := json.Unmarshal(rules, &crits); err != nil {
		t.Fatal(err)
	}
	sources := []layer.Source{{ID: "incident-4411.md", Content: string(incident)}, {ID: "cve", Content: cveSource}}
	outputs := map[string][]byte{"cve-summary": []byte(cveSummary)}
	for _, name := range []string{"ticket.json", "ticket-fixed.json", "answer.md", "code-answer.md", "stats.py"} {
		data, err := os.ReadFile(filepath.Join("examples", name))
		if err != nil {
			t.Fatal(err)
		}
		outputs[name] = data
	}
	// The outputs of the quality tests: code in JSON fields, prose.
	outputs["code-fields"] = []byte(`{"solution": {"code": "def run(cmd):\n    import os\n    os.system(cmd)\n    return eval(cmd)\n"}, "owner": "<your name>", "summary": "The queue is drained and then the"}`)
	outputs["broken-json-string"] = []byte(`"{\"a\": 1,,}"`)
	checked := 0
	for name, data := range outputs {
		out := json.RawMessage(data)
		if !json.Valid(data) {
			b, _ := json.Marshal(string(data))
			out = b
		}
		for _, withSchema := range []bool{false, true} {
			req := &judge.Request{Output: out, Sources: sources, AcceptanceCriteria: crits,
				ValidationTypes: []string{"criteria", "facts", "hallucination", "quality"}}
			if withSchema {
				req.ExpectedSchema = schema
				req.ValidationTypes = append(req.ValidationTypes, "schema")
			}
			res, err := e.Validate(context.Background(), req)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			for _, is := range res.Issues {
				checked++
				if err := result.CheckLocation(is.Location); err != nil {
					t.Errorf("%s: [%s] %s: %v", name, is.Type, is.Message, err)
				}
			}
		}
	}

	// The golden files: "location": "..." in JSON, "(at ...)" in text.
	jsonLoc := regexp.MustCompile(`"location":\s*"((?:[^"\\]|\\.)*)"`)
	textLoc := regexp.MustCompile(`\(at ([^()\s]+)\)\n`)
	err = filepath.WalkDir(".", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".")) && path != "." {
			return filepath.SkipDir
		}
		if d.IsDir() || filepath.Base(filepath.Dir(path)) != "testdata" && !strings.Contains(path, "/testdata/") {
			return nil
		}
		if ext := filepath.Ext(path); ext != ".golden" && ext != ".txtar" && ext != ".txt" && ext != ".json" {
			return nil
		}
		// manifest lint and tool definitions locate into judge's own input
		// files (FILE:LINE:COL), not into an output.
		if strings.HasPrefix(path, "manifest"+string(filepath.Separator)) || strings.Contains(path, "tools-lint") {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		var locs []string
		for _, m := range jsonLoc.FindAllSubmatch(data, -1) {
			var s string
			if json.Unmarshal(append(append([]byte{'"'}, m[1]...), '"'), &s) == nil {
				locs = append(locs, s)
			}
		}
		for _, m := range textLoc.FindAllSubmatch(data, -1) {
			locs = append(locs, string(m[1]))
		}
		for _, loc := range locs {
			checked++
			if err := result.CheckLocation(loc); err != nil {
				t.Errorf("%s: %v", path, err)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 50 {
		t.Errorf("only %d locations checked: the corpus was not read", checked)
	}
	t.Logf("%d locations checked", checked)
}
