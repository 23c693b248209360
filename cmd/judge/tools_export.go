package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/agentjudge/judge/manifest"
)

// toolsExportParams are the flags of judge tools export.
type toolsExportParams struct {
	format *enumFlag // --format: openai | anthropic | mcp
	strict bool      // --strict: the OpenAI strict-mode transform
	stderr io.Writer // where notes go
}

func initToolsExport(tools *cobra.Command) {
	params := toolsExportParams{format: newEnumFlag(manifest.ExportOpenAI, manifest.ExportFormats()...), stderr: os.Stderr}
	cmd := &cobra.Command{
		Use:   "export [DIR...]",
		Short: "Print the registry's tools as a model provider's tool definitions",
		Long: `Print the callable tools below each DIR (default ` + manifest.DefaultDir + `) as the tool
definitions of a model provider, so that the registry is the one source of
what the model sees:

  openai     [{"type": "function", "function": {name, description, parameters}}]
  anthropic  [{name, description, input_schema}]
  mcp        {"tools": [{name, description, inputSchema}]}  (a tools/list result)

Callable tools are scripts, api and mcp_tool tools, and tools of no known
type that declare parameters. A path id (rye/web/fetch) is renamed with '_'
to fit the providers' name rules. --strict rewrites every schema into the
subset OpenAI's strict mode accepts (every property required, optional ones
nullable, additionalProperties false); what it cannot express is noted on
stderr. Tools are not linted: run judge tools lint first.

Exit status: 0 written, 2 bad input (a directory that cannot be read, two
tools with one exported name, a schema strict mode cannot take).`,
		Example: `  judge tools export --format openai > tools.json
  judge tools export examples/tools --format anthropic
  judge tools export --format openai --strict`,
		RunE: func(cmd *cobra.Command, args []string) error {
			params.stderr = cmd.ErrOrStderr()
			return runToolsExport(cmd.Context(), params, args, cmd.OutOrStdout())
		},
	}
	f := cmd.Flags()
	f.Var(params.format, "format", "provider format: openai, anthropic or mcp")
	f.BoolVar(&params.strict, "strict", false, "rewrite each schema for OpenAI strict mode")
	tools.AddCommand(cmd)
}

// runToolsExport writes the definitions as indented JSON to out and the
// export's notes to params.stderr.
func runToolsExport(ctx context.Context, params toolsExportParams, args []string, out io.Writer) error {
	if len(args) == 0 {
		args = []string{manifest.DefaultDir}
	}
	reg, err := manifest.LoadDirs(ctx, args...)
	if err != nil {
		return badInput(err)
	}
	defs, notes, err := manifest.Export(reg, params.format.value, params.strict)
	if err != nil {
		return badInput(err)
	}
	b, err := json.MarshalIndent(defs, "", "  ")
	if err != nil {
		return fmt.Errorf("tools export: %w", err)
	}
	if _, err := out.Write(append(b, '\n')); err != nil {
		return fmt.Errorf("tools export: %w", err)
	}
	for _, n := range notes {
		fmt.Fprintf(params.stderr, "note: %s: %s\n", n.Tool, n.Message)
	}
	return nil
}
