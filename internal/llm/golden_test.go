package llm

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/tools/txtar"
)

var update = flag.Bool("update", false, "rewrite the request sections of testdata/*.txtar")

// TestPromptGolden checks the request each check produces, byte for byte,
// against testdata/<check>.txtar: its input sections (output, context,
// criteria for the criteria check; claims for the facts check) and its
// "request" section, the JSON body sent to
// /chat/completions. Run with -update to rewrite the requests.
func TestPromptGolden(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("testdata/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden files: %v", err)
	}
	c, err := New(Config{BaseURL: "http://127.0.0.1:1/v1", Model: "golden-model"})
	if err != nil {
		t.Fatal(err)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			t.Parallel()
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			sec := map[string][]byte{}
			for _, f := range ar.Files {
				sec[f.Name] = f.Data
			}
			msgs, schema := goldenMessages(t, sec)
			body, err := json.MarshalIndent(c.params(msgs, schema), "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			body = append(body, '\n')
			if *update {
				for i := range ar.Files {
					if ar.Files[i].Name == "request" {
						ar.Files[i].Data = body
					}
				}
				if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			if want := sec["request"]; !bytes.Equal(body, want) {
				t.Errorf("the request differs from %s (run with -update to accept):\ngot:\n%s\nwant:\n%s", file, body, want)
			}
		})
	}
}

// goldenMessages builds the messages of the check whose input sections
// are in sec: a "claims" section (JSON, a list of Claim) is the facts
// check, else the criteria check.
func goldenMessages(t *testing.T, sec map[string][]byte) ([]Message, *Schema) {
	t.Helper()
	if raw, ok := sec["claims"]; ok {
		var claims []Claim
		if err := json.Unmarshal(raw, &claims); err != nil {
			t.Fatalf("claims section: %v", err)
		}
		msgs, err := FactsMessages(claims)
		if err != nil {
			t.Fatal(err)
		}
		return msgs, FactsSchema
	}
	var texts []string
	if err := json.Unmarshal(sec["criteria"], &texts); err != nil {
		t.Fatalf("criteria section: %v", err)
	}
	crits := make([]Criterion, len(texts))
	for i, s := range texts {
		crits[i] = Criterion{ID: i, Text: s}
	}
	msgs, err := CriteriaMessages(string(bytes.TrimSuffix(sec["output"], []byte("\n"))), string(bytes.TrimSuffix(sec["context"], []byte("\n"))), crits)
	if err != nil {
		t.Fatal(err)
	}
	return msgs, CriteriaSchema
}
