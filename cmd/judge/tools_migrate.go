package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/agentjudge/judge/manifest"
)

// toolsMigrateParams are the flags of judge tools migrate.
type toolsMigrateParams struct {
	write bool // --write: change the files; otherwise print the plan and diff
}

func initToolsMigrate(tools *cobra.Command) {
	var params toolsMigrateParams
	cmd := &cobra.Command{
		Use:   "migrate [DIR]",
		Short: "Turn scripts with embedded metadata into a directory with tool.yaml",
		Long: `Find the scripts below DIR (default ` + manifest.DefaultDir + `) that carry their metadata (a YAML
docstring or comment header, or module constants such as __tool_id__) and
plan to turn each into manifest form: a directory named after the script
holding tool.yaml (the metadata, with config.entrypoint) and the script with
its metadata lines removed. The tool ids, executors and parameters stay the
same.

By default the plan and a unified diff are printed and nothing changes;
--write creates the directories and removes the old scripts. A script whose
directory already exists, or whose metadata cannot be read, is skipped with
its reason.`,
		Example: `  judge tools migrate
  judge tools migrate tools --write`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runToolsMigrate(cmd.Context(), params, args, cmd.OutOrStdout())
		},
	}
	cmd.Flags().BoolVar(&params.write, "write", false, "change the files (default: print the plan and the diff)")
	tools.AddCommand(cmd)
}

// runToolsMigrate prints the migration plan and diff, and applies it with
// --write.
func runToolsMigrate(ctx context.Context, params toolsMigrateParams, args []string, out io.Writer) error {
	dir := manifest.DefaultDir
	if len(args) == 1 {
		dir = args[0]
	}
	reg, err := manifest.LoadDirs(ctx, dir)
	if err != nil {
		return badInput(err)
	}
	plans, skipped, err := manifest.PlanMigrations(reg)
	if err != nil {
		return fmt.Errorf("tools migrate: %w", err)
	}
	for _, s := range skipped {
		fmt.Fprintf(out, "skip %s\n", s)
	}
	if len(plans) == 0 {
		fmt.Fprintln(out, "no script with embedded metadata to migrate")
		return nil
	}
	for _, p := range plans {
		fmt.Fprintf(out, "migrate %s: %s -> %s/ (tool.yaml, %s)\n", p.Tool, filepath.Join(dir, p.From), filepath.Join(dir, p.Dir), filepath.Base(p.Script.Path))
	}
	if !params.write {
		for _, p := range plans {
			fmt.Fprint(out, "\n"+p.Diff())
		}
		fmt.Fprintln(out, "\nnothing changed; run with --write to migrate")
		return nil
	}
	for _, p := range plans {
		if err := applyMigration(dir, p); err != nil {
			return fmt.Errorf("tools migrate: %s: %w", p.Tool, err)
		}
	}
	fmt.Fprintf(out, "migrated %d scripts\n", len(plans))
	return nil
}

// applyMigration creates the tool directory with its two files, never
// overwriting one, then removes the old script.
func applyMigration(dir string, p manifest.Migration) error {
	d := filepath.Join(dir, filepath.FromSlash(p.Dir))
	if err := os.Mkdir(d, 0o755); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("%s already exists; it is never overwritten", d)
		}
		return err
	}
	for _, f := range []struct {
		file manifest.File
		mode fs.FileMode
	}{{p.Script, p.Mode}, {p.Manifest, 0o644}} {
		if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(f.file.Path)), []byte(f.file.Content), f.mode); err != nil {
			return err
		}
	}
	return os.Remove(filepath.Join(dir, filepath.FromSlash(p.From)))
}
