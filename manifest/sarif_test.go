package manifest_test

import (
	"bytes"
	"encoding/json"
	"net/url"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/agentjudge/judge/internal/sarifschema"
	"github.com/agentjudge/judge/manifest"
	"github.com/agentjudge/judge/result"
)

// sarifSchema compiles the official SARIF 2.1.0 schema
// (internal/sarifschema).
func sarifSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	sch, err := sarifschema.Compile()
	if err != nil {
		t.Fatal(err)
	}
	return sch
}

// validateSARIF validates a SARIF log against sch and returns the log.
func validateSARIF(t *testing.T, sch *jsonschema.Schema, data []byte) map[string]any {
	t.Helper()
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if err := sch.Validate(inst); err != nil {
		t.Fatalf("SARIF log breaks the SARIF 2.1.0 schema: %v", err)
	}
	return inst.(map[string]any)
}

// TestSARIFSchema renders the SARIF log of every broken fixture tree (so
// that every rule, level and kind of location appears) and validates it
// against the official SARIF 2.1.0 schema; then it checks that each
// result stands for one issue of the report, at its file, line and column.
func TestSARIFSchema(t *testing.T) {
	t.Parallel()
	sch := sarifSchema(t)
	files, err := filepath.Glob("testdata/broken/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no test archives: %v", err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			t.Parallel()
			dir, _, _, _ := overlay(t, file)
			rep := lintDir(t, dir)
			var out bytes.Buffer
			if err := manifest.WriteSARIF(&out, rep, "1.2.3"); err != nil {
				t.Fatal(err)
			}
			validateSARIF(t, sch, out.Bytes())
			checkSARIFResults(t, out.Bytes(), rep)
		})
	}
}

// TestSARIFSchemaPaths validates the SARIF of tools whose paths need
// escaping in a URI (a space, '%', '#', non-ASCII letters).
func TestSARIFSchemaPaths(t *testing.T) {
	t.Parallel()
	sch := sarifSchema(t)
	dir := filepath.Join(t.TempDir(), "my tools #1")
	for name, data := range map[string]string{
		"weird 100%.yaml": "tool_id: weird\ntool_type: api\nversion: 1.0\n",
		"über/tool.yaml":  "tool_id: uber\ntool_type: script\n",
	} {
		writeFile(t, dir, name, []byte(data))
	}
	rep := lintDir(t, dir)
	var out bytes.Buffer
	if err := manifest.WriteSARIF(&out, rep, ""); err != nil {
		t.Fatal(err)
	}
	validateSARIF(t, sch, out.Bytes())
	checkSARIFResults(t, out.Bytes(), rep)
}

// checkSARIFResults checks that the SARIF log data has one result per
// issue of rep, each naming its rule by id and index and pointing at the
// issue's file, line and column.
func checkSARIFResults(t *testing.T, data []byte, rep *manifest.Report) {
	t.Helper()
	var log struct {
		Runs []struct {
			Tool struct {
				Driver struct {
					Rules []struct {
						ID string `json:"id"`
					} `json:"rules"`
				} `json:"driver"`
			} `json:"tool"`
			Results []struct {
				RuleID    string `json:"ruleId"`
				RuleIndex int    `json:"ruleIndex"`
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct {
							URI string `json:"uri"`
						} `json:"artifactLocation"`
						Region struct {
							StartLine   int `json:"startLine"`
							StartColumn int `json:"startColumn"`
						} `json:"region"`
					} `json:"physicalLocation"`
				} `json:"locations"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(data, &log); err != nil {
		t.Fatal(err)
	}
	want := map[string]int{}
	total := 0
	for _, r := range rep.Results {
		for _, is := range r.Issues {
			file, line, col, ok := manifest.SplitLocation(is.Location)
			if !ok {
				t.Fatalf("issue location %q is not file:line:column", is.Location)
			}
			want[filepath.ToSlash(file)+":"+strconv.Itoa(line)+":"+strconv.Itoa(col)+" "+is.Rule]++
			total++
		}
	}
	run := log.Runs[0]
	if len(run.Results) != total || total == 0 {
		t.Fatalf("%d SARIF results for %d issues", len(run.Results), total)
	}
	for _, r := range run.Results {
		if r.RuleIndex < 0 || r.RuleIndex >= len(run.Tool.Driver.Rules) || run.Tool.Driver.Rules[r.RuleIndex].ID != r.RuleID {
			t.Errorf("result %s has ruleIndex %d pointing elsewhere", r.RuleID, r.RuleIndex)
		}
		if len(r.Locations) != 1 {
			t.Errorf("result %s has %d locations, want 1", r.RuleID, len(r.Locations))
			continue
		}
		pl := r.Locations[0].PhysicalLocation
		u, err := url.Parse(pl.ArtifactLocation.URI)
		if err != nil || u.Scheme != "" || u.Host != "" || u.RawQuery != "" || u.Fragment != "" {
			t.Errorf("artifact URI %q is not a path reference (%v)", pl.ArtifactLocation.URI, err)
			continue
		}
		key := u.Path + ":" + strconv.Itoa(pl.Region.StartLine) + ":" + strconv.Itoa(pl.Region.StartColumn) + " " + r.RuleID
		if want[key] == 0 {
			t.Errorf("SARIF result %s is not an issue of the report", key)
		}
		want[key]--
	}
}

func TestByPosition(t *testing.T) {
	t.Parallel()
	// In the order ByPosition sorts them: by file, then line and column
	// as numbers (line 9 before line 10); a location of another form
	// compares as text with any other.
	want := []string{"a.json:2:9", "a.json:2:10", "a.json:10:1", "b.json:1:1"}
	issues := []result.Issue{{Location: want[3]}, {Location: want[2]}, {Location: want[1]}, {Location: want[0]}}
	slices.SortStableFunc(issues, manifest.ByPosition)
	for i, is := range issues {
		if is.Location != want[i] {
			t.Fatalf("sorted[%d] = %q, want %q (all: %v)", i, is.Location, want[i], issues)
		}
	}
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"tools[2]", "a.json:1:1", 1},
		{"root", "root", 0},
		{"x.json:1:1", "x.json:1:1", 0},
	} {
		if got := manifest.ByPosition(result.Issue{Location: tc.a}, result.Issue{Location: tc.b}); got != tc.want {
			t.Errorf("ByPosition(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}
