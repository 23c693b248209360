package schema_test

import (
	"context"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/agentjudge/judge/internal/sharedtest"
	"github.com/agentjudge/judge/layer"
	"github.com/agentjudge/judge/layer/schema"
	"github.com/agentjudge/judge/result"
)

const (
	draft7URI    = "http://json-schema.org/draft-07/schema#"
	draft2020URI = "https://json-schema.org/draft/2020-12/schema"
)

// TestSuite runs every required test of the official JSON Schema Test Suite
// for draft-07 and 2020-12 through the layer: a test is valid exactly when
// the layer reports no error issue.
func TestSuite(t *testing.T) {
	t.Parallel()
	suiteDir := sharedtest.Dir(t, "json-schema-test-suite")
	remotes := loadRemotes(t, suiteDir)
	cache := layer.NewCache(0)
	var total, agree atomic.Int64
	t.Run("group", func(t *testing.T) {
		for _, d := range []struct{ dir, uri string }{{"draft7", draft7URI}, {"draft2020-12", draft2020URI}} {
			files, err := filepath.Glob(filepath.Join(suiteDir, "tests", d.dir, "*.json"))
			if err != nil || len(files) == 0 {
				t.Fatalf("no tests in %s: %v", d.dir, err)
			}
			for _, file := range files {
				t.Run(d.dir+"/"+filepath.Base(file), func(t *testing.T) {
					t.Parallel()
					runSuiteFile(t, file, d.uri, remotes, cache, &total, &agree)
				})
			}
		}
	})
	t.Logf("JSON Schema Test Suite: %d tests run, %d agree", total.Load(), agree.Load())
	if total.Load() == 0 {
		t.Fatal("no suite test ran")
	}
}

type suiteGroup struct {
	Description string
	Schema      any
	Tests       []suiteTest
}

type suiteTest struct {
	Description string
	Data        any
	Valid       bool
}

func runSuiteFile(t *testing.T, file, draftURI string, remotes map[string]any, cache *layer.Cache, total, agree *atomic.Int64) {
	groups := suiteGroups(t, file)
	for _, g := range groups {
		sch := g.Schema
		if obj, ok := sch.(map[string]any); ok {
			if _, ok := obj["$schema"]; !ok {
				obj = maps.Clone(obj)
				obj["$schema"] = draftURI
				sch = obj
			}
		}
		for _, tc := range g.Tests {
			total.Add(1)
			p := layer.NewPass(schema.Layer, &layer.Input{Output: tc.Data, ExpectedSchema: sch, Schemas: remotes}, cache)
			if err := schema.Layer.Run(context.Background(), p); err != nil {
				t.Errorf("%s / %s: Run: %v", g.Description, tc.Description, err)
				continue
			}
			f := p.Findings()
			valid := true
			for _, is := range f.Issues {
				checkIssue(t, is)
				if is.Severity == result.Error {
					valid = false
				}
			}
			if valid != tc.Valid {
				t.Errorf("%s / %s: valid = %v, want %v; issues: %+v", g.Description, tc.Description, valid, tc.Valid, f.Issues)
				continue
			}
			if f.Checks != 1 {
				t.Errorf("%s / %s: %d checks recorded, want 1", g.Description, tc.Description, f.Checks)
			}
			agree.Add(1)
		}
	}
}

// loadRemotes gives every file under remotes/ as a local schema under
// http://localhost:1234/<path>. Remotes under draft2020-12/ and draft7/ are
// written for that draft without always saying so: those without $schema
// get it, as the suite's own runners compile them. Top-level remotes keep
// no $schema, so that they are read in the draft of the test that refers to
// them (the layer reads a local schema without $schema in the draft of the
// expected schema).
func loadRemotes(t *testing.T, suiteDir string) map[string]any {
	dir := filepath.Join(suiteDir, "remotes")
	remotes := map[string]any{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".json") {
			return err
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		doc := decodeFile(t, path)
		if obj, ok := doc.(map[string]any); ok {
			if _, has := obj["$schema"]; !has {
				switch {
				case strings.HasPrefix(rel, "draft2020-12/"):
					obj["$schema"] = draft2020URI
				case strings.HasPrefix(rel, "draft7/"):
					obj["$schema"] = draft7URI
				}
			}
		}
		remotes["http://localhost:1234/"+rel] = doc
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(remotes) == 0 {
		t.Fatal("no remotes")
	}
	return remotes
}

// decodeFile decodes a JSON file with json.Number numbers, as the engine
// decodes requests.
func decodeFile(t *testing.T, path string) any {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	v, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return v
}

// suiteGroups reads the groups of a suite file, keeping json.Number.
func suiteGroups(t *testing.T, path string) []suiteGroup {
	arr, ok := decodeFile(t, path).([]any)
	if !ok {
		t.Fatalf("%s is not an array of test groups", path)
	}
	var groups []suiteGroup
	for _, item := range arr {
		obj, _ := item.(map[string]any)
		g := suiteGroup{Schema: obj["schema"]}
		g.Description, _ = obj["description"].(string)
		tests, _ := obj["tests"].([]any)
		for _, tv := range tests {
			to, _ := tv.(map[string]any)
			var tc suiteTest
			tc.Description, _ = to["description"].(string)
			tc.Data = to["data"]
			tc.Valid, _ = to["valid"].(bool)
			g.Tests = append(g.Tests, tc)
		}
		groups = append(groups, g)
	}
	return groups
}

// checkIssue checks what every issue of the layer promises.
func checkIssue(t *testing.T, is result.Issue) {
	t.Helper()
	if is.Severity != result.Error {
		t.Errorf("issue %+v: severity %q, want error", is, is.Severity)
	}
	if _, ok := result.Lookup(is.Type); !ok {
		t.Errorf("issue %+v: unknown type", is)
	}
	if n := len([]rune(is.Message)); n < result.MinTextLen || n > result.MaxTextLen {
		t.Errorf("issue %+v: message of %d characters", is, n)
	}
	if n := len([]rune(is.Suggestion)); n < result.MinTextLen || n > result.MaxTextLen {
		t.Errorf("issue %+v: suggestion of %d characters", is, n)
	}
	if is.Location == "" || !strings.HasPrefix(is.Rule, "schema.") {
		t.Errorf("issue %+v: no location or rule", is)
	}
}
