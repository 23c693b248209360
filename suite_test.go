package judge_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/agentjudge/judge"
	"github.com/agentjudge/judge/internal/sharedtest"
	"github.com/agentjudge/judge/result"
)

// TestSuite runs every required test of the official JSON Schema Test Suite
// for draft-07 and 2020-12 through one Engine, as requests with
// output_mode "value" and the suite's remotes as local schemas: the result
// must be valid exactly when the test says so.
func TestSuite(t *testing.T) {
	t.Parallel()
	suiteDir, schemas, e := suiteEngine(t)
	var total, agree atomic.Int64
	t.Run("group", func(t *testing.T) {
		for _, d := range sharedtest.SuiteDrafts {
			for _, file := range sharedtest.SuiteFiles(t, suiteDir, d) {
				t.Run(d.Dir+"/"+filepath.Base(file), func(t *testing.T) {
					t.Parallel()
					for _, g := range sharedtest.ReadSuiteFile(t, file, d) {
						for _, tc := range g.Tests {
							total.Add(1)
							res, err := e.Validate(context.Background(), &judge.Request{
								Output:         tc.Data,
								ExpectedSchema: g.Schema,
								Schemas:        schemas,
								Options:        judge.Options{OutputMode: judge.OutputValue},
							})
							if err != nil {
								t.Errorf("%s / %s: Validate: %v", g.Description, tc.Description, err)
								continue
							}
							if failed := layerFailures(res); failed != nil {
								t.Errorf("%s / %s: a layer failed: %+v", g.Description, tc.Description, failed)
								continue
							}
							if res.Valid != tc.Valid {
								t.Errorf("%s / %s: valid = %v, want %v; issues: %+v", g.Description, tc.Description, res.Valid, tc.Valid, res.Issues)
								continue
							}
							agree.Add(1)
						}
					}
				})
			}
		}
	})
	t.Logf("JSON Schema Test Suite through the engine: %d tests run, %d agree", total.Load(), agree.Load())
	if total.Load() == 0 {
		t.Fatal("no suite test ran")
	}
}

// layerFailures returns the layer_failed issues of res: a layer that did
// not finish leaves valid true whatever the output.
func layerFailures(res *result.ValidationResult) []result.Issue {
	var failed []result.Issue
	for _, is := range res.Issues {
		if is.Type == result.LayerFailed {
			failed = append(failed, is)
		}
	}
	return failed
}

// suiteEngine returns the folder of the JSON Schema Test Suite, its
// remotes as local schemas by URI, and an Engine to run its tests through.
func suiteEngine(t *testing.T) (suiteDir string, schemas map[string]json.RawMessage, e *judge.Engine) {
	t.Helper()
	suiteDir = sharedtest.Dir(t, "json-schema-test-suite")
	schemas = map[string]json.RawMessage{}
	for uri, data := range sharedtest.SuiteRemotes(t, suiteDir) {
		schemas[uri] = data
	}
	e, err := judge.New()
	if err != nil {
		t.Fatal(err)
	}
	return suiteDir, schemas, e
}
