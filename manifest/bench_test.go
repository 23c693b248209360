package manifest_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentjudge/judge/manifest"
)

// registry1000 writes a registry of 1,000 tools of every type into a
// temporary directory: 2 runtimes and 98 more, 100 MCP servers with 200
// MCP tools, 200 api tools, 200 scripts (directories with an entrypoint),
// 100 knowledge entries and 100 directives.
func registry1000(b *testing.B) string {
	b.Helper()
	dir := b.TempDir()
	write := func(rel, data string) {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	n := 0
	for i := range 100 {
		write(fmt.Sprintf("runtimes/rt%d.yaml", i), fmt.Sprintf("tool_id: rt%d\ntool_type: runtime\nversion: \"1.0.0\"\ndescription: Runtime %d\nexecutor: subprocess\nconfig:\n  command: python3\n", i, i))
		write(fmt.Sprintf("servers/srv%d.yaml", i), fmt.Sprintf("tool_id: srv%d\ntool_type: mcp_server\nversion: \"1.0.0\"\ndescription: Server %d\nexecutor: subprocess\nconfig:\n  transport: stdio\n  command: npx\n  args: [\"-y\", \"server-%d\"]\n  startup_timeout: 10\n", i, i, i))
		n += 2
	}
	for i := range 200 {
		write(fmt.Sprintf("mcp/t%d.yaml", i), fmt.Sprintf("tool_id: mcp_t%d\ntool_type: mcp_tool\nversion: \"1.0.0\"\ndescription: MCP tool %d\nexecutor: srv%d\nconfig:\n  mcp_tool_name: search\ninput_schema:\n  type: object\n  properties:\n    query:\n      type: string\n      description: The query\n    limit:\n      type: integer\n      minimum: 1\n  required: [query]\n", i, i, i%100))
		write(fmt.Sprintf("api/a%d.yaml", i), fmt.Sprintf("tool_id: api%d\ntool_type: api\nversion: \"1.0.0\"\ndescription: API %d\nexecutor: http_client\nconfig:\n  method: GET\n  url_template: \"https://api.example.com/v1/items/{id}?q={q}\"\n  headers:\n    Authorization: \"Bearer ${TOKEN_%d}\"\n  response_transform: \"$.data.items[?@.score > 0.5].name\"\nparameters:\n  - name: id\n    type: string\n    required: true\n    description: Item id\n  - name: q\n    type: string\n    required: true\n    description: Query\n", i, i, i))
		write(fmt.Sprintf("scripts/s%d/tool.yaml", i), fmt.Sprintf("tool_id: script%d\ntool_type: script\nversion: \"1.0.0\"\ndescription: Script %d\nexecutor: rt%d\nconfig:\n  entrypoint: main.py\n  requires: [\"httpx>=0.24\"]\nparameters:\n  - name: email\n    type: string\n    required: true\n    description: An email\n", i, i, i%100))
		write(fmt.Sprintf("scripts/s%d/main.py", i), "print('hi')\n")
		n += 3
	}
	for i := range 100 {
		write(fmt.Sprintf("knowledge/k%d.md", i), fmt.Sprintf("---\nid: k%d\ntitle: Entry %d\nentry_type: reference\ntags: [a, b]\n---\nBody %d.\n", i, i, i))
		write(fmt.Sprintf("directives/d%d.xml", i), fmt.Sprintf("<directive name=\"d%d\" version=\"1.0.0\"><metadata><description>Directive %d</description><model tier=\"fast\"/><permissions><read resource=\"fs\"/></permissions></metadata><inputs/><process><step name=\"a\">Do it.</step></process></directive>\n", i, i))
		n += 2
	}
	if n != 1000 {
		b.Fatalf("generated %d tools", n)
	}
	return dir
}

// BenchmarkLint1000 lints a loaded registry of 1,000 tools.
func BenchmarkLint1000(b *testing.B) {
	dir := registry1000(b)
	reg, err := manifest.LoadDirs(context.Background(), dir)
	if err != nil {
		b.Fatal(err)
	}
	rep, err := manifest.Lint(context.Background(), reg)
	if err != nil {
		b.Fatal(err)
	}
	if rep.Summary.Tools != 1000 || rep.Summary.Invalid != 0 {
		b.Fatalf("summary %+v, want 1000 valid tools", rep.Summary)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := manifest.Lint(context.Background(), reg); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLoadAndLint1000 loads the 1,000 tools from disk and lints them,
// as judge tools lint does.
func BenchmarkLoadAndLint1000(b *testing.B) {
	dir := registry1000(b)
	b.ReportAllocs()
	for b.Loop() {
		reg, err := manifest.LoadDirs(context.Background(), dir)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := manifest.Lint(context.Background(), reg); err != nil {
			b.Fatal(err)
		}
	}
}
