package manifest_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/agentjudge/judge/manifest"
)

// Lint a tool directory given by content, as POST /v1/tools/lint does:
// the api tool's method is lower case and its template names a parameter
// it does not declare.
func ExampleLint() {
	files := []manifest.File{{Path: "weather.yaml", Content: `tool_id: weather_forecast
tool_type: api
version: "1.0.0"
description: Get the weather forecast for coordinates
executor: http_client
config:
  method: get
  url_template: "https://api.weather.com/v1/forecast?lat={lat}&lon={lng}"
parameters:
  - {name: lat, type: number, required: true, description: Latitude}
`}}
	reg, err := manifest.LoadFiles(context.Background(), files)
	if err != nil {
		fmt.Println(err)
		return
	}
	rep, err := manifest.Lint(context.Background(), reg)
	if err != nil {
		fmt.Println(err)
		return
	}
	r := rep.Results["weather_forecast"]
	fmt.Println("valid:", r.Valid)
	for _, is := range r.Issues {
		fmt.Printf("%s %s: %s\n", is.Location, is.Type, is.Message)
	}
	// Output:
	// valid: false
	// weather.yaml:7:11 constraint_violation: HTTP method 'get' is not one of GET, POST, PUT, PATCH, DELETE
	// weather.yaml:8:17 constraint_violation: Template variable {lng} in config.url_template is not a declared parameter
}

// Look a tool up in a registry and read its parameters as a JSON Schema,
// as the tool-call checks do.
func ExampleRegistry_Lookup() {
	reg, err := manifest.LoadDirs(context.Background(), "testdata/tools")
	if err != nil {
		fmt.Println(err)
		return
	}
	tool, ok := reg.Lookup("email_enricher")
	if !ok {
		fmt.Println("not found")
		return
	}
	schema, err := tool.SchemaJSON()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(tool.Type, tool.Form, tool.Executor)
	fmt.Println(string(schema))
	// Output:
	// script dir python_runtime
	// {"additionalProperties":false,"properties":{"email":{"description":"The email address to enrich","type":"string"}},"required":["email"],"type":"object"}
}

// Lint the definitions of an MCP server's tools/list answer: warnings for
// what model providers would reject.
func ExampleLintMCP() {
	defs := `{"tools": [{"name": "search", "description": "Search issues",
  "inputSchema": {"type": "object", "properties": {"labels": {"type": "array", "description": "Labels"}},
    "required": ["labels"], "additionalProperties": false}}]}`
	rep, err := manifest.LintMCP(context.Background(), "tools.json", []byte(defs))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, is := range rep.Results["search"].Issues {
		fmt.Printf("%s %s %s\n", is.Location, is.Severity, is.Rule)
	}
	// Output:
	// tools.json:1:46 warning guidance.description
	// tools.json:2:62 warning provider.array_items
}

// ExampleScaffold creates a new api tool's manifest.
func ExampleScaffold() {
	files, err := manifest.Scaffold(manifest.ScaffoldOptions{Type: manifest.API, Name: "get_item"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(files[0].Path)
	// Output: get_item.yaml
}

// ExampleExport prints a registry in the path convention as OpenAI tool
// definitions: the path id is renamed to a valid function name.
func ExampleExport() {
	reg, err := manifest.LoadFiles(context.Background(), []manifest.File{{Path: "rye/web/fetch.yaml", Content: `category: rye/web
version: "1.0.0"
description: Fetch a page
executor_id: "@subprocess"
config_schema:
  type: object
  properties:
    url: {type: string, description: The URL}
  required: [url]
`}})
	if err != nil {
		fmt.Println(err)
		return
	}
	defs, notes, err := manifest.Export(reg, manifest.ExportOpenAI, false)
	if err != nil {
		fmt.Println(err)
		return
	}
	b, _ := json.Marshal(defs)
	fmt.Println(string(b))
	fmt.Println(notes[0].Message)
	// Output:
	// [{"function":{"description":"Fetch a page","name":"rye_web_fetch","parameters":{"properties":{"url":{"description":"The URL","type":"string"}},"required":["url"],"type":"object"}},"type":"function"}]
	// renamed rye_web_fetch to fit the providers' name rules
}

// Lint a registry in its own convention with declarations the caller
// gives, as judge's config file does: the type job is a runtime, @gpu a
// host primitive and anchor a known field, so even a strict lint finds
// nothing. Without them the same tool gets three warnings.
func ExampleLoadFilesWith() {
	files := []manifest.File{{Path: "a/job.yaml", Content: `category: a
name: job
version: "1.0.0"
description: Run a job
executor_id: "@gpu"
tool_type: job
anchor: x
config: {command: run}
`}}
	conv := manifest.Conventions{
		Primitives: []string{"gpu"},
		Types:      map[string]manifest.TypeDecl{"job": {Base: manifest.Runtime}},
		Fields:     []string{"anchor"},
	}
	for _, c := range []manifest.Conventions{{}, conv} {
		reg, err := manifest.LoadFilesWith(context.Background(), c, files)
		if err != nil {
			fmt.Println(err)
			return
		}
		rep, err := manifest.LintWith(context.Background(), reg, manifest.LintOptions{Strict: true})
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("declared %d types: %d warnings\n", len(c.Types), rep.Summary.Warnings)
	}
	// Output:
	// declared 0 types: 3 warnings
	// declared 1 types: 0 warnings
}
