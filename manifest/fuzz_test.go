package manifest_test

import (
	"context"
	"testing"

	"github.com/agentjudge/judge/manifest"
)

// FuzzConventions feeds arbitrary registry files to ParseConventions and,
// with an arbitrary signed manifest beside them, to the loader and the
// lint: an error is fine, a panic or a hang is not.
func FuzzConventions(f *testing.F) {
	f.Add("types:\n  mcp: {base: mcp_tool}\nprimitives: [gpu]\nfields: [anchor]\n",
		"# rye:signed:2026-02-12T23:55:37Z:0000000000000000000000000000000000000000000000000000000000000000:c2ln:ab\ncategory: a\nversion: \"1.0.0\"\ndescription: d\nexecutor_id: \"@gpu\"\ntool_type: mcp\nconfig:\n  server: a/b\n")
	f.Add("types: {x: {base: config, executor: none, requires: [a]}}", "#!/bin/sh\n# kiwi-mcp:validated:2026-01-01T00:00:00Z:zz\ntool_type: x\n")
	f.Add("", "executor_id: null\ntool_type: mcp_server\nconfig: {transport: http}\n")
	// The dialect keys: declared required fields, data folders, a kind
	// definition, and a data file with a kind's required_metadata.
	f.Add("required: [executor_id]\ndata: [c, a/b]\nkind_schema: c/d.py\n",
		"# ryeos:signed:2026-09-01T10:00:00Z:0000000000000000000000000000000000000000000000000000000000000000:c2ln:k\nname: caps\nversion: \"1.0.0\"\ncapabilities: [a]\n")
	f.Add("kind_schema: a/b.yaml\n", "required_metadata: [executor_id, category]\nname: tool\n")
	f.Fuzz(func(t *testing.T, reg, tool string) {
		_, _ = manifest.ParseConventions("r.yaml", []byte(reg))
		r, err := manifest.LoadFiles(context.Background(), []manifest.File{
			{Path: manifest.RegistryFile, Content: reg},
			{Path: "a/b.yaml", Content: tool},
			{Path: "c/d.py", Content: tool},
		})
		if err != nil {
			return
		}
		if _, err := manifest.LintWith(context.Background(), r, manifest.LintOptions{Strict: true}); err != nil {
			t.Fatal(err)
		}
		if _, _, err := manifest.PlanMigrations(r); err != nil {
			t.Fatal(err)
		}
		for _, format := range manifest.ExportFormats() {
			_, _, _ = manifest.Export(r, format, true)
		}
	})
}
