package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/agentjudge/judge/manifest"
	"github.com/agentjudge/judge/result"
)

// toolsNewParams are the flags of judge tools new.
type toolsNewParams struct {
	typ     string // --type: the tool's type
	runtime string // --runtime: a script's runtime, an mcp_tool's server
	dir     string // --dir: the tools directory
}

func initToolsNew(tools *cobra.Command) {
	var params toolsNewParams
	cmd := &cobra.Command{
		Use:   "new --type TYPE NAME",
		Short: "Create a tool that lints clean: the right files for its type, every required field",
		Long: `Create the tool NAME of type TYPE in the tools directory (--dir, default ` + manifest.DefaultDir + `)
and lint the directory at once.

  script      NAME/tool.yaml and an entrypoint for the runtime (--runtime, default
              python_runtime; a runtime named *node* gets main.js, *bash* main.sh)
  api         NAME.yaml, run by http_client
  mcp_tool    NAME.yaml, run by the mcp_server --runtime names (default NAME_server)
  mcp_server  NAME.yaml, a stdio server run by subprocess
  runtime     NAME.yaml, run by subprocess
  knowledge   NAME.md with YAML frontmatter
  directive   NAME.xml

Every tool gets its required fields and a parameter with a description.
An existing file is never overwritten. The lint of the new tool is printed;
the exit status is 1 when it has an error (its executor is not in the
directory yet, say), 2 for bad input.`,
		Example: `  judge tools new --type runtime python_runtime
  judge tools new --type script summarize --runtime python_runtime
  judge tools new --type mcp_tool search_docs --runtime docs_server --dir tools`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runToolsNew(cmd.Context(), params, args, cmd.OutOrStdout())
		},
	}
	f := cmd.Flags()
	f.StringVar(&params.typ, "type", "", "the tool's type: "+strings.Join(scaffoldTypes(), ", "))
	f.StringVar(&params.runtime, "runtime", "", "the runtime a script runs on, or the server an mcp_tool belongs to")
	f.StringVar(&params.dir, "dir", manifest.DefaultDir, "the tools directory")
	tools.AddCommand(cmd)
}

func scaffoldTypes() []string {
	var out []string
	for _, t := range manifest.ScaffoldTypes() {
		out = append(out, string(t))
	}
	return out
}

// runToolsNew writes the new tool's files, refusing to overwrite any, and
// prints the lint of the new tool.
func runToolsNew(ctx context.Context, params toolsNewParams, args []string, out io.Writer) error {
	if params.typ == "" {
		return badInputf("tools new: give --type: one of %s", strings.Join(scaffoldTypes(), ", "))
	}
	files, err := manifest.Scaffold(manifest.ScaffoldOptions{Type: manifest.ToolType(params.typ), Name: args[0], Executor: params.runtime})
	if err != nil {
		return badInputf("tools new: %w", err)
	}
	for _, f := range files {
		p := filepath.Join(params.dir, filepath.FromSlash(f.Path))
		if _, err := os.Lstat(p); err == nil {
			return badInputf("tools new: %s already exists; it is never overwritten", p)
		} else if !errors.Is(err, fs.ErrNotExist) {
			return badInputf("tools new: %w", err)
		}
		// A script's directory may not exist either: a half-written tool
		// would lint as another one.
		if d := filepath.Dir(p); d != filepath.Clean(params.dir) {
			if _, err := os.Lstat(d); err == nil && strings.HasSuffix(f.Path, "/tool.yaml") {
				return badInputf("tools new: %s already exists; it is never overwritten", d)
			}
		}
	}
	var written []string
	for _, f := range files {
		p := filepath.Join(params.dir, filepath.FromSlash(f.Path))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return fmt.Errorf("tools new: %w", err)
		}
		fh, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err != nil {
			return badInputf("tools new: %w", err)
		}
		_, err = io.WriteString(fh, f.Content)
		if cerr := fh.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return fmt.Errorf("tools new: %w", err)
		}
		written = append(written, p)
	}
	for _, p := range written {
		fmt.Fprintf(out, "created %s\n", p)
	}
	reg, err := manifest.LoadDirs(ctx, params.dir)
	if err != nil {
		return badInput(err)
	}
	rep, err := manifest.Lint(ctx, reg)
	if err != nil {
		return fmt.Errorf("tools new: %w", err)
	}
	r, ok := rep.Results[args[0]]
	if !ok {
		return fmt.Errorf("tools new: the new tool %s was not found by the lint", args[0])
	}
	one := &manifest.Report{Results: map[string]*result.ValidationResult{args[0]: r}, Summary: manifest.Summary{Tools: 1, ByType: map[string]int{params.typ: 1}}}
	if r.Valid {
		one.Summary.Valid = 1
	} else {
		one.Summary.Invalid = 1
	}
	one.Summary.Errors, one.Summary.Warnings, one.Summary.Infos = r.Metadata.ErrorCount, r.Metadata.WarningCount, r.Metadata.InfoCount
	if err := writeLintText(out, one); err != nil {
		return fmt.Errorf("tools new: %w", err)
	}
	if !r.Valid {
		return &exitError{code: exitInvalid}
	}
	return nil
}
