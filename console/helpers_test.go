package console

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentjudge/judge/internal/sharedtest"
	"github.com/agentjudge/judge/internal/sharedtest/tracetest"
	"github.com/agentjudge/judge/manifest"
	"github.com/agentjudge/judge/trace"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden.html with the actual output")

// checkTraces checks the conversations of data as judge trace does and
// returns what the report is made of.
func checkTraces(t testing.TB, title string, data []byte) Trace {
	t.Helper()
	ch, rs := tracetest.AirlineChecker(t)
	convs, err := trace.Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if ch, err = ch.ForInput(ctx, convs); err != nil {
		t.Fatal(err)
	}
	reports := make([]*trace.Report, len(convs))
	for i, cv := range convs {
		if reports[i], err = ch.Check(ctx, cv); err != nil {
			t.Fatal(err)
		}
	}
	return Trace{Title: title, Conversations: convs, Reports: reports, Summary: ch.Summarize(reports), Rules: rs}
}

// tauBench is the report of the 100 recorded tau-bench airline
// conversations.
func tauBench(t testing.TB) Trace {
	t.Helper()
	const name = "tau-bench-airline-gpt-4o.dev.json"
	data, err := os.ReadFile(filepath.Join(sharedtest.Dir(t, "agent-traces"), name))
	if err != nil {
		t.Fatal(err)
	}
	return checkTraces(t, name, data)
}

// renderTrace renders tr.
func renderTrace(t testing.TB, tr Trace) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := WriteTrace(&buf, tr); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// lintReport lints the registry of testdata/lint.
func lintReport(t testing.TB) *manifest.Report {
	t.Helper()
	reg, err := manifest.LoadDirs(context.Background(), filepath.Join("testdata", "lint"))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := manifest.Lint(context.Background(), reg)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// golden compares got with the file testdata/name, or rewrites it with
// -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to write it)", err)
	}
	if !bytes.Equal(got, want) {
		i := 0
		for i < len(got) && i < len(want) && got[i] == want[i] {
			i++
		}
		lo := max(i-200, 0)
		t.Errorf("rendered HTML differs from %s at byte %d (run with -update to accept):\ngot  …%s…\nwant …%s…", path, i, got[lo:min(i+200, len(got))], want[lo:min(i+200, len(want))])
	}
}
