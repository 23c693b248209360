package schema_test

import (
	"encoding/json"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/agentjudge/judge/internal/sharedtest"
	"github.com/agentjudge/judge/layer/schema"
	"github.com/agentjudge/judge/result"
)

// verdicts returns both paths' verdicts on doc: the fast path's (and
// whether it was sure) and the slow path's, from the issues Validate
// gives when the fast path is skipped.
func verdicts(t testing.TB, v *schema.Validator, doc []byte) (fast, sure, slow bool) {
	t.Helper()
	fast, sure = schema.FastVerdict(v, doc)
	issues, err := schema.SlowValidate(v, doc)
	if err != nil {
		// Not JSON, or a $ref cycle at run time: the fast path must not
		// have found it valid.
		return fast, sure, false
	}
	slow = true
	for _, is := range issues {
		if is.Severity == result.Error {
			slow = false
		}
	}
	return fast, sure, slow
}

// TestFastPathSuite runs every required test of the JSON Schema Test Suite
// (draft-07 and 2020-12) on both paths: wherever the fast path is sure, its
// verdict must be the slow path's and the suite's; and the slow path must
// agree with the suite. It also counts how many tests the fast path
// decided, so that a fast path that gave up everywhere would fail.
func TestFastPathSuite(t *testing.T) {
	t.Parallel()
	suiteDir := sharedtest.Dir(t, "json-schema-test-suite")
	remotes := map[string]json.RawMessage{}
	for uri, data := range sharedtest.SuiteRemotes(t, suiteDir) {
		remotes[uri] = data
	}
	var total, fastSchemas, schemas, decided atomic.Int64
	for _, d := range sharedtest.SuiteDrafts {
		for _, file := range sharedtest.SuiteFiles(t, suiteDir, d) {
			for _, g := range sharedtest.ReadSuiteFile(t, file, d) {
				v, err := schema.Compile(g.Schema, schema.Options{Schemas: remotes})
				if err != nil {
					t.Errorf("%s / %s: Compile: %v", filepath.Base(file), g.Description, err)
					continue
				}
				schemas.Add(1)
				if fast, _, _ := v.Path(); fast {
					fastSchemas.Add(1)
				}
				for _, tc := range g.Tests {
					total.Add(1)
					fast, sure, slow := verdicts(t, v, tc.Data)
					if slow != tc.Valid {
						t.Errorf("%s / %s / %s: slow path valid = %v, want %v", filepath.Base(file), g.Description, tc.Description, slow, tc.Valid)
					}
					if sure {
						decided.Add(1)
						if fast != slow || fast != tc.Valid {
							t.Errorf("%s %s / %s / %s: fast path valid = %v, slow path %v, suite %v",
								d.Dir, filepath.Base(file), g.Description, tc.Description, fast, slow, tc.Valid)
						}
					}
				}
			}
		}
	}
	t.Logf("suite: %d schemas, %d on the fast path; %d tests, %d decided by the fast path", schemas.Load(), fastSchemas.Load(), total.Load(), decided.Load())
	if fastSchemas.Load()*2 < schemas.Load() {
		t.Errorf("only %d of %d suite schemas take the fast path", fastSchemas.Load(), schemas.Load())
	}
}

// TestFastPathBenchCorpus checks both paths on every document of the bench
// corpus: the fast path decides every valid one, agreeing with the labels.
func TestFastPathBenchCorpus(t *testing.T) {
	t.Parallel()
	c := sharedtest.LoadBenchCorpus(t)
	check := func(name string, sch json.RawMessage, doc string, want bool) {
		v, err := schema.Compile(sch, schema.Options{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if fast, _, why := v.Path(); !fast {
			t.Errorf("%s: the schema takes the slow path: %s", name, why)
		}
		fast, sure, slow := verdicts(t, v, []byte(doc))
		if slow != want {
			t.Errorf("%s: slow path valid = %v, want %v", name, slow, want)
		}
		if sure && fast != want {
			t.Errorf("%s: fast path valid = %v, want %v", name, fast, want)
		}
		if want && !sure {
			t.Errorf("%s: the fast path did not decide a valid document", name)
		}
	}
	for _, tc := range c.Cases {
		check(tc.Name+"/valid", tc.Schema, tc.Valid, true)
		check(tc.Name+"/invalid", tc.Schema, tc.Invalid, false)
	}
	check("large/valid", c.Large.Schema, c.Large.Valid, true)
	check("large/invalid", c.Large.Schema, c.Large.Invalid, false)
}
