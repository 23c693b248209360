package sharedtest

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// SuiteDraft is a draft of the JSON Schema Test Suite that judge runs: its
// folder under tests/ and remotes/, and the URI of its meta-schema.
type SuiteDraft struct {
	Dir string
	URI string
}

// SuiteDrafts are the drafts whose required tests judge runs.
var SuiteDrafts = []SuiteDraft{
	{Dir: "draft7", URI: "http://json-schema.org/draft-07/schema#"},
	{Dir: "draft2020-12", URI: "https://json-schema.org/draft/2020-12/schema"},
}

// SuiteRemoteBase is the URI under which the suite's tests refer to the
// files of remotes/.
const SuiteRemoteBase = "http://localhost:1234/"

// SuiteGroup is one group of a suite file: a schema and tests of it. The
// schema and each test's data are the JSON text of the file.
type SuiteGroup struct {
	Description string          `json:"description"`
	Schema      json.RawMessage `json:"schema"`
	Tests       []SuiteTest     `json:"tests"`
}

// SuiteTest is one instance and whether it is valid against its group's
// schema.
type SuiteTest struct {
	Description string          `json:"description"`
	Data        json.RawMessage `json:"data"`
	Valid       bool            `json:"valid"`
}

// SuiteFiles returns the required test files of draft in the suite at
// suiteDir (tests/<draft.Dir>/*.json, not optional/), sorted, or fails tb
// when there are none.
func SuiteFiles(tb testing.TB, suiteDir string, draft SuiteDraft) []string {
	tb.Helper()
	files, err := filepath.Glob(filepath.Join(suiteDir, "tests", draft.Dir, "*.json"))
	if err != nil || len(files) == 0 {
		tb.Fatalf("no tests in %s: %v", draft.Dir, err)
	}
	return files
}

// ReadSuiteFile reads the groups of a suite file of draft. A schema that is
// an object without $schema gets draft's, as the suite's own runners read
// it in the draft of its folder.
func ReadSuiteFile(tb testing.TB, path string, draft SuiteDraft) []SuiteGroup {
	tb.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	var groups []SuiteGroup
	if err := json.Unmarshal(data, &groups); err != nil {
		tb.Fatalf("%s: %v", path, err)
	}
	for i := range groups {
		groups[i].Schema = WithSchema(groups[i].Schema, draft.URI)
	}
	return groups
}

// SuiteRemotes returns every file under remotes/ of the suite at suiteDir,
// as JSON text, by the URI the tests use: SuiteRemoteBase + its path.
// Remotes under the folder of a draft of SuiteDrafts are written for that
// draft without always saying so: those without $schema get it, as the
// suite's own runners compile them. Other remotes keep no $schema, so that
// they are read in the draft of the test that refers to them (judge reads a
// local schema without $schema in the draft of the expected schema).
func SuiteRemotes(tb testing.TB, suiteDir string) map[string][]byte {
	tb.Helper()
	dir := filepath.Join(suiteDir, "remotes")
	remotes := map[string][]byte{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".json") {
			return err
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, d := range SuiteDrafts {
			if strings.HasPrefix(rel, d.Dir+"/") {
				data = WithSchema(data, d.URI)
			}
		}
		remotes[SuiteRemoteBase+rel] = data
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	if len(remotes) == 0 {
		tb.Fatal("no remotes")
	}
	return remotes
}

// WithSchema returns the JSON text of a schema with "$schema": uri added
// when it is an object without $schema; any other text is returned as it
// is. The rest of the text is kept byte for byte.
func WithSchema(schema []byte, uri string) []byte {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(schema, &obj); err != nil || obj == nil {
		return schema
	}
	if _, ok := obj["$schema"]; ok {
		return schema
	}
	rest := bytes.TrimSpace(schema)[1:] // after "{"
	sep := ","
	if len(obj) == 0 {
		sep = ""
	}
	quoted, _ := json.Marshal(uri) // a string always encodes
	out := append([]byte(`{"$schema": `), quoted...)
	out = append(out, sep...)
	return append(out, rest...)
}
