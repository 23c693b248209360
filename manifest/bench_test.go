package manifest_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
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
func BenchmarkLint1000(b *testing.B) { benchLint(b, registry1000(b), false) }

// BenchmarkLoadAndLint1000 loads the 1,000 tools from disk and lints them,
// as judge tools lint does.
func BenchmarkLoadAndLint1000(b *testing.B) { benchLoadAndLint(b, registry1000(b)) }

// benchLint checks once that the registry in dir is 1,000 valid tools (and
// without a warning when clean), then times its lint.
func benchLint(b *testing.B, dir string, clean bool) {
	reg, err := manifest.LoadDirs(context.Background(), dir)
	if err != nil {
		b.Fatal(err)
	}
	rep, err := manifest.Lint(context.Background(), reg)
	if err != nil {
		b.Fatal(err)
	}
	if rep.Summary.Tools != 1000 || rep.Summary.Invalid != 0 || clean && rep.Summary.Warnings != 0 {
		b.Fatalf("summary %+v, want 1000 valid tools", rep.Summary)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := manifest.Lint(context.Background(), reg); err != nil {
			b.Fatal(err)
		}
	}
}

// benchLoadAndLint times loading the registry in dir and linting it.
func benchLoadAndLint(b *testing.B, dir string) {
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

// pathRegistry1000 writes a registry of 1,000 tools in the path-identity
// convention of rye-os: no tool_id, ids from category and file name,
// executors by path, config_schema, a registry file declaring the type mcp
// and the extra fields, rye:signed headers on the runtimes: 2 primitives,
// 48 runtimes, 100 null-executor MCP servers, 350 MCP tools naming their
// server by path, 500 tools without a type run by a runtime.
func pathRegistry1000(b *testing.B) string {
	b.Helper()
	dir := b.TempDir()
	write := func(rel, data string) {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	sign := func(body string) string {
		sum := sha256.Sum256([]byte(body))
		return "# rye:signed:2026-02-12T23:55:37Z:" + hex.EncodeToString(sum[:]) + ":c2ln:440443d0858f0199\n" + body
	}
	write(manifest.RegistryFile, "types:\n  mcp: {base: mcp_tool}\nfields: [env_config, anchor, verify_deps]\n")
	for _, p := range []string{"subprocess", "http_client"} {
		write("rye/core/primitives/"+p+".yaml", "version: \"1.0.0\"\ntool_type: primitive\nexecutor_id: null\ncategory: rye/core/primitives\ndescription: Primitive "+p+"\n")
	}
	for i := range 48 {
		write(fmt.Sprintf("rye/core/runtimes/rt%d.yaml", i), sign(fmt.Sprintf("version: \"1.0.0\"\ntool_type: runtime\nexecutor_id: rye/core/primitives/subprocess\ncategory: rye/core/runtimes\ndescription: Runtime %d\nenv_config:\n  interpreter:\n    type: venv_python\n    var: RYE_PYTHON\nanchor:\n  enabled: true\nconfig:\n  command: \"${RYE_PYTHON}\"\n  args: [\"{tool_path}\", \"--params\", \"{params_json}\"]\n  timeout: 300\n", i)))
	}
	for i := range 100 {
		write(fmt.Sprintf("mcp/servers/s%d.yaml", i), fmt.Sprintf("tool_type: mcp_server\nexecutor_id: null\ncategory: mcp/servers\nversion: \"1.0.0\"\ndescription: Server %d\nconfig:\n  transport: http\n  url: https://mcp%d.example.com/mcp\n  timeout: 30\n", i, i))
	}
	for i := range 350 {
		write(fmt.Sprintf("mcp/s%d/t%d.yaml", i%100, i), fmt.Sprintf("tool_type: mcp\nexecutor_id: rye/core/runtimes/rt%d\ncategory: mcp/s%d\nversion: \"1.0.0\"\ndescription: MCP tool %d\nconfig:\n  server: mcp/servers/s%d\n  tool_name: t%d\ninput_schema:\n  type: object\n  properties:\n    query:\n      type: string\n      description: The query\n  required: [query]\n  additionalProperties: false\n", i%48, i%100, i, i%100, i))
	}
	for i := range 500 {
		write(fmt.Sprintf("app/g%d/tool%d.yaml", i%25, i), fmt.Sprintf("category: app/g%d\nversion: \"1.0.0\"\nexecutor_id: rye/core/runtimes/rt%d\ndescription: Tool %d\nconfig:\n  command: tool.py\nconfig_schema:\n  type: object\n  properties:\n    text:\n      type: string\n      description: The text\n  required: [text]\n  additionalProperties: false\n", i%25, i%48, i))
	}
	return dir
}

// BenchmarkLint1000PathIdentity lints the path-identity registry of
// pathRegistry1000, loaded once.
func BenchmarkLint1000PathIdentity(b *testing.B) { benchLint(b, pathRegistry1000(b), true) }

// BenchmarkLoadAndLint1000PathIdentity loads the path-identity registry
// from disk and lints it, as judge tools lint does.
func BenchmarkLoadAndLint1000PathIdentity(b *testing.B) { benchLoadAndLint(b, pathRegistry1000(b)) }
