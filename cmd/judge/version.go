package main

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"
)

// version is the release of judge, set at build time with
// -ldflags "-X main.version=v1.2.3". Unset, it is "dev" and the module's
// build information completes it.
var version = "dev"

// versionParams are the flags of judge version (none yet).
type versionParams struct{}

func newVersionParams() versionParams { return versionParams{} }

func initVersion(root *cobra.Command) {
	params := newVersionParams()
	cmd := &cobra.Command{
		Use:   "version",
		Short: "Print the version of judge (also judge --version, -v)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runVersion(cmd.Context(), params, args, cmd.OutOrStdout())
		},
	}
	root.AddCommand(cmd)
}

// runVersion writes "judge <version>" and, from the build information, the
// module version, VCS revision and Go version.
func runVersion(_ context.Context, _ versionParams, _ []string, out io.Writer) error {
	_, err := fmt.Fprintf(out, "judge %s\n", versionDetails())
	return err
}

// versionString is the version reported by the server: the -ldflags
// version, else the module version from the build information, else "dev".
func versionString() string {
	bi, _ := debug.ReadBuildInfo()
	return versionOf(version, bi)
}

// versionOf is the version of a build: ldflags when it is set (not "dev"),
// else the main module's version from bi (as "go install
// github.com/agentjudge/judge/cmd/judge@v1.2.3" records it), else "dev".
// bi may be nil.
func versionOf(ldflags string, bi *debug.BuildInfo) string {
	if ldflags != "dev" {
		return ldflags
	}
	if bi != nil && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return ldflags
}

// versionDetails is versionString followed, in parentheses, by the module
// path and version, the VCS revision and the Go toolchain.
func versionDetails() string {
	s := versionString()
	details := ""
	if bi, ok := debug.ReadBuildInfo(); ok {
		details = bi.Main.Path
		if bi.Main.Version != "" && bi.Main.Version != "(devel)" {
			details += "@" + bi.Main.Version
		}
		settings := map[string]string{}
		for _, kv := range bi.Settings {
			settings[kv.Key] = kv.Value
		}
		if rev := settings["vcs.revision"]; rev != "" {
			if len(rev) > 12 {
				rev = rev[:12]
			}
			details += ", commit " + rev
			if settings["vcs.modified"] == "true" {
				details += "+dirty"
			}
		}
		if details != "" {
			details += ", "
		}
	}
	return fmt.Sprintf("%s (%s%s %s/%s)", s, details, runtime.Version(), runtime.GOOS, runtime.GOARCH)
}
