package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/agentjudge/judge/internal/code"
)

// metricsParams are the flags of judge metrics.
type metricsParams struct {
	lang   string    // --lang: python, javascript, typescript, go, bash (or an alias)
	format *enumFlag // --format: json | text
	stdin  io.Reader // where "-" reads from
}

func newMetricsParams() metricsParams {
	return metricsParams{format: newEnumFlag(formatJSON, formatJSON, formatText), stdin: os.Stdin}
}

func initMetrics(root *cobra.Command) {
	params := newMetricsParams()
	cmd := &cobra.Command{
		Use:   "metrics [FILE|-]",
		Short: "Print the per-function code metrics of a source file as JSON",
		Long: `Print the functions of one source file with their line, cyclomatic
complexity and length in lines, as JSON:

  {"language": "python", "functions": [{"name": "f", "line": 3, "complexity": 4, "length": 12}]}

Complexity is counted as the reference tool of the language counts it: radon
cc for Python, gocyclo for Go, ESLint's complexity rule for JavaScript and
TypeScript. The language is --lang, else the file's extension, else guessed
from the content.

Exit status: 0 done, 2 bad input (unreadable file, unknown language, syntax
error, a file over 1 MiB).`,
		Example: `  judge metrics app.py
  cat main.go | judge metrics - --lang go`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			params.stdin = cmd.InOrStdin()
			return runMetrics(cmd.Context(), params, args, cmd.OutOrStdout())
		},
	}
	f := cmd.Flags()
	f.StringVar(&params.lang, "lang", "", "language: python, javascript, typescript, go, bash (or py, js, ts, golang, sh); default: by extension or content")
	f.Var(params.format, "format", "output format: json or text")
	root.AddCommand(cmd)
}

// runMetrics measures the source named by args (stdin when none or "-")
// and writes its metrics to out. Bad input is an *exitError with status 2.
func runMetrics(ctx context.Context, params metricsParams, args []string, out io.Writer) error {
	name := "-"
	if len(args) == 1 {
		name = args[0]
	}
	data, display, err := readInput(name, len(args) == 0, params.stdin)
	if err != nil {
		return err
	}
	if len(data) > code.MaxSourceBytes {
		return badInputf("%s: the source is %s, over the limit of %s", display, sizeString(int64(len(data))), sizeString(code.MaxSourceBytes))
	}
	var lang code.Language
	var ok bool
	switch {
	case params.lang != "":
		if lang, ok = code.LookupLanguage(params.lang); !ok {
			return badInputf("--lang %q is not a known language (python, javascript, typescript, go, bash)", params.lang)
		}
	case name != "-":
		lang, ok = code.ByExtension(name)
	}
	if !ok {
		if lang, ok = code.Detect(ctx, string(data)); !ok {
			return badInputf("%s: cannot tell the language of the source; give --lang", display)
		}
	}
	f, err := code.Parse(ctx, lang, data)
	if err != nil {
		return badInputf("%s: %w", display, err)
	}
	if f.Syntax != nil {
		return badInputf("%s:%d:%d: %s syntax error: %s", display, f.Syntax.Line, f.Syntax.Col, lang, f.Syntax.Msg)
	}
	m := f.Metrics()
	if params.format.value == formatText {
		tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
		fmt.Fprintf(tw, "LINE\tCOMPLEXITY\tLENGTH\tFUNCTION (%s)\n", m.Language)
		for _, fn := range m.Functions {
			fmt.Fprintf(tw, "%d\t%d\t%d\t%s\n", fn.Line, fn.Complexity, fn.Length, fn.Name)
		}
		return tw.Flush()
	}
	enc := json.NewEncoder(out)
	enc.SetIndent("", "  ")
	return enc.Encode(m)
}
