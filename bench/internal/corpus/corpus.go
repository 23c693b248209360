// Package corpus loads the shared benchmark corpus
// (../shared/testdata/mcp-tools/bench-corpus.json): the input schemas of
// github-mcp-server's tools, each with a valid and an invalid argument
// document, and a large array of records with its schema.
package corpus

import (
	"encoding/json"
	"fmt"
	"os"
)

// DefaultPath is the corpus's path from the repository root.
const DefaultPath = "../shared/testdata/mcp-tools/bench-corpus.json"

// Case is one tool: its input schema and two argument documents.
type Case struct {
	Name    string          `json:"name"`
	Schema  json.RawMessage `json:"schema"`
	Valid   string          `json:"valid"`
	Invalid string          `json:"invalid"`
}

// Corpus is the whole file.
type Corpus struct {
	Cases []Case `json:"cases"`
	Large struct {
		Schema  json.RawMessage `json:"schema"`
		Valid   string          `json:"valid"`
		Invalid string          `json:"invalid"`
	} `json:"large"`
}

// Load reads the corpus at path.
func Load(path string) (*Corpus, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("corpus: %w (run from the repository root, with ../shared beside it)", err)
	}
	var c Corpus
	if err := json.Unmarshal(data, &c); err != nil {
		return nil, fmt.Errorf("corpus: %s: %w", path, err)
	}
	if len(c.Cases) == 0 || len(c.Large.Schema) == 0 {
		return nil, fmt.Errorf("corpus: %s has no cases or no large document", path)
	}
	return &c, nil
}

// ValidateBody returns the body of a POST /validate of output against
// schema.
func ValidateBody(schema json.RawMessage, output string) []byte {
	b, _ := json.Marshal(map[string]any{"output": json.RawMessage(output), "expected_schema": schema})
	return b
}

// MCPTool returns c as an MCP tool definition, as tools/list lists it.
func (c Case) MCPTool() map[string]any {
	return map[string]any{"name": c.Name, "description": "github-mcp-server tool " + c.Name, "inputSchema": c.Schema}
}
