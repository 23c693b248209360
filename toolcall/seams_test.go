package toolcall

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNoSchemaMessageParsing fails when toolcall's sources read the schema
// layer's message text again instead of its structured findings
// (schema.Findings): rewriting "the output" or parsing "Missing required
// field '" breaks silently whenever the layer's wording changes.
func TestNoSchemaMessageParsing(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	forbidden := []string{`"The output"`, `"the output"`, `"Missing required field`, `NewReplacer("The`}
	checked := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		checked++
		for _, lit := range forbidden {
			if strings.Contains(string(b), lit) {
				t.Errorf("%s contains %s: read the schema layer's findings (keyword, path, field), not its message text", name, lit)
			}
		}
	}
	if checked == 0 {
		t.Fatal("no sources found")
	}
}
