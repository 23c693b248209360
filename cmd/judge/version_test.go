package main

import (
	"bytes"
	"context"
	"runtime/debug"
	"strings"
	"testing"
)

// TestVersionFlag: judge --version and -v print what judge version prints.
func TestVersionFlag(t *testing.T) {
	t.Parallel()
	run := func(args ...string) (string, int) {
		var out, errOut bytes.Buffer
		code := Execute(context.Background(), args, strings.NewReader(""), &out, &errOut)
		if errOut.Len() > 0 {
			t.Errorf("judge %s: stderr %q", strings.Join(args, " "), errOut.String())
		}
		return out.String(), code
	}
	want, code := run("version")
	if code != 0 || !strings.HasPrefix(want, "judge ") {
		t.Fatalf("judge version: %q, exit %d", want, code)
	}
	for _, args := range [][]string{{"--version"}, {"-v"}} {
		got, code := run(args...)
		if code != 0 || got != want {
			t.Errorf("judge %s = %q, exit %d; want %q, exit 0", args[0], got, code, want)
		}
	}
}

// TestVersionOf: a build from a module version reports that version.
func TestVersionOf(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		ldflags string
		bi      *debug.BuildInfo
		want    string
	}{
		{"module version", "dev", &debug.BuildInfo{Main: debug.Module{Path: "github.com/agentjudge/judge", Version: "v1.4.0"}}, "v1.4.0"},
		{"pseudo-version from a checkout", "dev", &debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261124031500-fdd29a7c0ffe+dirty"}}, "v0.0.0-20261124031500-fdd29a7c0ffe+dirty"},
		{"ldflags win", "v2.0.0", &debug.BuildInfo{Main: debug.Module{Version: "v1.4.0"}}, "v2.0.0"},
		{"devel build", "dev", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "dev"},
		{"no build info", "dev", nil, "dev"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := versionOf(tc.ldflags, tc.bi); got != tc.want {
				t.Errorf("versionOf(%q) = %q, want %q", tc.ldflags, got, tc.want)
			}
		})
	}
}
