package schema_test

import (
	"context"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/agentjudge/judge/internal/sharedtest"
	"github.com/agentjudge/judge/layer"
	"github.com/agentjudge/judge/layer/schema"
	"github.com/agentjudge/judge/result"
)

// TestSuite runs every required test of the official JSON Schema Test Suite
// for draft-07 and 2020-12 through the layer: a test is valid exactly when
// the layer reports no error issue. The root package's TestSuite runs the
// same tests through the engine and compares only valid; this one also
// checks what the engine's result hides: that the layer records one check,
// and that its issues are well formed before result.Build normalizes them.
func TestSuite(t *testing.T) {
	t.Parallel()
	suiteDir := sharedtest.Dir(t, "json-schema-test-suite")
	remotes := map[string]any{}
	for uri, data := range sharedtest.SuiteRemotes(t, suiteDir) {
		remotes[uri] = decode(t, string(data))
	}
	cache := layer.NewCache(0)
	var total, agree atomic.Int64
	t.Run("group", func(t *testing.T) {
		for _, d := range sharedtest.SuiteDrafts {
			for _, file := range sharedtest.SuiteFiles(t, suiteDir, d) {
				t.Run(d.Dir+"/"+filepath.Base(file), func(t *testing.T) {
					t.Parallel()
					runSuiteFile(t, sharedtest.ReadSuiteFile(t, file, d), remotes, cache, &total, &agree)
				})
			}
		}
	})
	t.Logf("JSON Schema Test Suite: %d tests run, %d agree", total.Load(), agree.Load())
	if total.Load() == 0 {
		t.Fatal("no suite test ran")
	}
}

func runSuiteFile(t *testing.T, groups []sharedtest.SuiteGroup, remotes map[string]any, cache *layer.Cache, total, agree *atomic.Int64) {
	for _, g := range groups {
		sch := decode(t, string(g.Schema))
		for _, tc := range g.Tests {
			total.Add(1)
			p := layer.NewPass(schema.Layer, &layer.Input{Output: decode(t, string(tc.Data)), ExpectedSchema: sch, Schemas: remotes}, cache)
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

// checkIssue checks what every issue of the layer promises: an error, or
// the note counting the errors past MaxIssues.
func checkIssue(t *testing.T, is result.Issue) {
	t.Helper()
	switch {
	case is.Rule == "schema.truncated":
		if is.Severity != result.Info || is.Type != result.NotChecked || is.Location != "root" {
			t.Errorf("issue %+v: want an info not_checked issue at root", is)
		}
	case is.Severity != result.Error:
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
