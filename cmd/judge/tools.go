package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/agentjudge/judge/console"
	"github.com/agentjudge/judge/manifest"
	"github.com/agentjudge/judge/toolscan"
)

// formatSARIF is the SARIF 2.1.0 output of judge tools lint.
const formatSARIF = "sarif"

// formatHTML is the HTML page of judge tools lint.
const formatHTML = "html"

// toolsLintParams are the flags of judge tools lint.
type toolsLintParams struct {
	mcp    string    // --mcp: MCP tools/list file to lint instead of directories
	format *enumFlag // --format: json | text | sarif; "" = by terminal
	strict bool      // --strict: fields the registry does not declare are warnings
	stdin  io.Reader // where --mcp - reads from
	config string    // --config: the config file; "" = JUDGE_CONFIG or the default
	stderr io.Writer // where the config file's warnings go
	getenv func(string) string
}

func newToolsLintParams() toolsLintParams {
	return toolsLintParams{format: newEnumFlag("", formatJSON, formatText, formatSARIF, formatHTML), stdin: os.Stdin, stderr: os.Stderr, getenv: os.Getenv}
}

func initTools(root *cobra.Command) {
	tools := &cobra.Command{
		Use:   "tools",
		Short: "Work with tool manifests",
	}
	params := newToolsLintParams()
	lint := &cobra.Command{
		Use:   "lint [DIR...]",
		Short: "Lint tool manifests: one ValidationResult per tool",
		Long: `Lint the tool manifests below each DIR (default ` + manifest.DefaultDir + `) and print one
ValidationResult per tool, keyed by tool_id, with a summary.

A tool is a directory with tool.yaml, a single NAME.yaml, a script with
embedded metadata, a Markdown knowledge entry with YAML frontmatter, or a
directive (XML, alone or in a Markdown xml fence). Each is validated by its
tool_type: the universal fields, the rules of its type, its executor chain
(which must end in a primitive, subprocess or http_client), its parameters'
JSON Schema, and what model providers would reject (warnings). Every issue
has its location as file:line:column.

Registries in their own conventions are read too: ids from the path (or
category and name) when tool_id is absent, executors by path or as
@primitive, config_schema as the parameters, and the types, primitives and
extra fields a ` + manifest.RegistryFile + ` at the top of DIR declares,
and those of the config file's registry section (--config; the registry
file's declaration of a type wins); see docs/manifests.md. --strict reports
undeclared fields as warnings.

With --mcp FILE the tool definitions of an MCP tools/list answer are linted
instead (name, description, inputSchema).

--format sarif writes SARIF 2.1.0 for code-scanning UIs; --format html one
self-contained HTML page (each tool with its issues at their file and line;
see docs/console.md).

Exit status: 0 no tool has an error, 1 some tool has an error, 2 bad input
(a directory that cannot be read, an MCP file that is not a definitions
document, a bad flag).`,
		Example: `  judge tools lint
  judge tools lint examples/tools --format text
  judge tools lint --mcp tools-list.json --format sarif > lint.sarif`,
		RunE: func(cmd *cobra.Command, args []string) error {
			params.stdin = cmd.InOrStdin()
			params.stderr = cmd.ErrOrStderr()
			params.config = configFlagValue(cmd)
			return runToolsLint(cmd.Context(), params, args, cmd.OutOrStdout())
		},
	}
	f := lint.Flags()
	f.StringVar(&params.mcp, "mcp", "", `MCP tool definitions to lint (a tools/list result as JSON; "-" reads stdin) instead of directories`)
	f.Var(params.format, "format", "output format: json, text, sarif or html (default text on a terminal, json otherwise)")
	f.BoolVar(&params.strict, "strict", false, "report fields the registry does not declare as warnings, in every convention")
	tools.AddCommand(lint)
	initToolsNew(tools)
	initToolsMigrate(tools)
	initToolsExport(tools)
	initToolsRun(tools)
	root.AddCommand(tools)
}

// runToolsLint lints the directories args (or the --mcp file) and writes
// the report to out. It returns an *exitError with status 1 when a tool
// has an error and with status 2 for bad input.
func runToolsLint(ctx context.Context, params toolsLintParams, args []string, out io.Writer) error {
	var (
		rep *manifest.Report
		err error
	)
	if params.mcp != "" {
		if len(args) > 0 {
			return badInputf("give either --mcp FILE or directories, not both")
		}
		var data []byte
		name := params.mcp
		if name == "-" {
			data, err = io.ReadAll(io.LimitReader(params.stdin, manifest.MaxMCPBytes+1))
			name = "<stdin>"
		} else {
			data, err = readFilePrefix(name, manifest.MaxMCPBytes+1)
		}
		if err != nil {
			return badInputf("--mcp: %w", err)
		}
		rep, err = manifest.LintMCP(ctx, name, data)
		if err == nil {
			err = toolscan.AddToReport(rep, name, data)
		}
	} else {
		if len(args) == 0 {
			args = []string{manifest.DefaultDir}
		}
		conv, cerr := lintConventions(params)
		if cerr != nil {
			return cerr
		}
		var reg *manifest.Registry
		reg, err = manifest.LoadDirsWith(ctx, conv, args...)
		if err == nil {
			rep, err = manifest.LintWith(ctx, reg, manifest.LintOptions{Strict: params.strict, Checks: []manifest.Check{toolscan.ManifestCheck(reg)}})
		}
	}
	if err != nil {
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return fmt.Errorf("tools lint: %w", err)
		}
		return badInput(err)
	}
	format := params.format.value
	if format == "" {
		format = formatJSON
		if isTerminal(out) {
			format = formatText
		}
	}
	var buf bytes.Buffer
	switch format {
	case formatText:
		err = writeLintText(&buf, rep)
	case formatSARIF:
		err = manifest.WriteSARIF(&buf, rep, version)
	case formatHTML:
		title := strings.Join(args, " ")
		if params.mcp != "" {
			title = params.mcp
		} else if title == "" {
			title = manifest.DefaultDir
		}
		err = console.WriteLint(&buf, console.Lint{Title: title, Report: rep})
	default:
		enc := json.NewEncoder(&buf)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		err = enc.Encode(rep)
	}
	if err != nil {
		return fmt.Errorf("tools lint: %w", err)
	}
	if _, err := out.Write(buf.Bytes()); err != nil {
		return fmt.Errorf("tools lint: %w", err)
	}
	if rep.Summary.Invalid > 0 {
		return &exitError{code: exitInvalid}
	}
	return nil
}

// lintConventions reads the config file params name (if any) for the
// declarations of its registry section.
func lintConventions(params toolsLintParams) (manifest.Conventions, error) {
	return configRegistry(params.config, params.getenv, params.stderr)
}

// writeLintText writes a report for people: each tool with its verdict and
// issues, then the summary.
func writeLintText(w io.Writer, rep *manifest.Report) error {
	var sb strings.Builder
	for _, key := range rep.Keys() {
		r := rep.Results[key]
		mark := "✅"
		switch {
		case !r.Valid:
			mark = "❌"
		case r.Metadata.WarningCount > 0:
			mark = "⚠️"
		}
		fmt.Fprintf(&sb, "%s %s", mark, key)
		if n := len(r.Issues); n > 0 {
			fmt.Fprintf(&sb, " (%s, %s, %s)", count(r.Metadata.ErrorCount, "error"), count(r.Metadata.WarningCount, "warning"), count(r.Metadata.InfoCount, "note"))
		}
		sb.WriteString("\n")
		issues := slices.Clone(r.Issues)
		slices.SortStableFunc(issues, manifest.ByPosition)
		for _, is := range issues {
			fmt.Fprintf(&sb, "  %s: %s [%s] %s\n", is.Location, is.Severity, is.Type, is.Message)
			if is.Suggestion != "" {
				fmt.Fprintf(&sb, "    → %s\n", is.Suggestion)
			}
		}
	}
	s := rep.Summary
	fmt.Fprintf(&sb, "\n%s: %d valid, %d invalid; %s, %s, %s\n",
		count(s.Tools, "tool"), s.Valid, s.Invalid, count(s.Errors, "error"), count(s.Warnings, "warning"), count(s.Infos, "note"))
	_, err := io.WriteString(w, sb.String())
	return err
}

// readFilePrefix reads at most limit bytes of the file name: enough for
// LintMCP to refuse an over-large file without reading all of it.
func readFilePrefix(name string, limit int64) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, limit))
}

// count writes n and noun, with an "s" unless n is 1: "1 error", "2 errors".
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
