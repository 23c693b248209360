// Command run prints judge's one benchmark table: each row measures judge
// and a peer on the same inputs in the same run and gives their ratio, or,
// for the rows on growth, judge's time when one input grows 10× over its
// time at 1×. Every row names the command that reproduces it alone.
//
// Peers: Ajv 8 (Node) for schema validation, for pre-execution checks and
// for compiling the 1,000 schemas of the lint row; Ajv behind Node's http
// module (bench/ajv-server.mjs) for POST /validate; the direct upstream
// call for the gateway; radon's cc_visit for complexity metrics. judge
// serve, the Node server, the gateway benchmark and the load generator
// (bench/load) run as separate processes; the in-process rows run judge's
// library here and the peer's script in its own process, one after the
// other.
//
// Run from the repository root (Ajv is installed into bench/node_modules
// when missing; radon comes from Debian's package):
//
//	go run ./bench/run            # about 7 minutes on a loaded 2-core machine
//	go run ./bench/run -quick     # shorter measurements: under 4 minutes loaded
//	go run ./bench/run -row http  # only the rows whose id starts with http
//	go run ./bench/run -registry /tmp/reg  # the lint row's inputs, to time whole commands
//	go run ./bench/run -bodies /tmp/b.jsonl  # the http row's request bodies (bench/wrk.sh)
package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"time"

	"github.com/agentjudge/judge/bench/internal/corpus"
)

// row is one line of the table.
type row struct {
	id       string // what -row selects
	workload string // what is measured
	judge    string // judge's figure
	peer     string // the peer and its figure, or "—"
	ratio    string // the ratio, formatted
	meaning  string // how to read the ratio
	command  string // what reproduces the row alone
}

// bench is one group of rows measured together.
type bench struct {
	id  string
	run func(ctx context.Context, env *env) ([]row, error)
}

func benches() []bench {
	return []bench{
		{"schema", schemaRows},
		{"http", httpRows},
		{"check", checkRows},
		{"gateway", gatewayRows},
		{"radon", radonRows},
		{"lint", lintRows},
		{"grow", growRows},
		{"otel", otelRows},
	}
}

// env is what the benches share: the settings, the corpus, a scratch
// directory and the binaries built in it.
type env struct {
	quick  bool
	secs   time.Duration // one in-process measurement
	httpD  time.Duration // one load point
	gwN    int           // calls per path of the gateway benchmark
	corpus *corpus.Corpus
	dir    string
	bins   map[string]string
	ajv    map[string]float64 // bench/ajv-schema.mjs's figures, run once
	log    io.Writer
}

// corpusPath is the shared benchmark corpus, from the repository root.
const corpusPath = corpus.DefaultPath

func (e *env) flag() string {
	if e.quick {
		return " -quick"
	}
	return ""
}

func main() {
	quick := flag.Bool("quick", false, "a run of a minute or two: shorter measurements, fewer gateway calls")
	only := flag.String("row", "", "only the benches whose id starts with one of these, comma-separated: schema, http, check, gateway, radon, lint, grow, otel")
	registry := flag.String("registry", "", "only write the lint row's registry of 1,000 MCP tools (DIR/tools) and their schemas (DIR/schemas.json) into this new directory, and exit")
	bodies := flag.String("bodies", "", "only write the http row's POST /validate bodies (one a line, each tool's valid then invalid arguments) to this file, and exit")
	flag.Parse()
	ctx := context.Background()
	e := &env{quick: *quick, secs: 3 * time.Second, httpD: 10 * time.Second, gwN: 3000, bins: map[string]string{}, log: os.Stderr}
	if e.quick {
		e.secs, e.httpD, e.gwN = 700*time.Millisecond, 3*time.Second, 400
	}
	var err error
	if e.corpus, err = corpus.Load(corpus.DefaultPath); err != nil {
		log.Fatal(err)
	}
	if e.dir, err = os.MkdirTemp("", "bench-run"); err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(e.dir)
	if *bodies != "" {
		if err := writeBodies(e, *bodies); err != nil {
			log.Fatal(err)
		}
		return
	}
	if *registry != "" {
		if err := writeRegistryTo(e, *registry, 1000); err != nil {
			log.Fatal(err)
		}
		fmt.Printf("judge tools lint %s/tools\nnode bench/ajv-compile.mjs %s/schemas.json 0\n", *registry, *registry)
		return
	}

	start := time.Now()
	load0 := loadavg()
	var rows []row
	failed := false
	for _, b := range benches() {
		if !selected(b.id, *only) {
			continue
		}
		fmt.Fprintf(e.log, "bench/run: %s …\n", b.id)
		rs, err := b.run(ctx, e)
		if err != nil {
			fmt.Fprintf(e.log, "bench/run: %s: %v\n", b.id, err)
			rows = append(rows, row{id: b.id, workload: b.id, judge: "failed: " + firstLine(err.Error()), peer: "—", ratio: "—", command: "go run ./bench/run" + e.flag() + " -row " + b.id})
			failed = true
			continue
		}
		rows = append(rows, rs...)
	}
	printTable(os.Stdout, rows, start, load0, loadavg(), e)
	if failed {
		os.Exit(1)
	}
}

func selected(id, only string) bool {
	if only == "" {
		return true
	}
	for p := range strings.SplitSeq(only, ",") {
		if p = strings.TrimSpace(p); p != "" && (strings.HasPrefix(id, p) || strings.HasPrefix(p, id)) {
			return true
		}
	}
	return false
}

func printTable(w io.Writer, rows []row, start time.Time, load0, load1 string, e *env) {
	mode := "full"
	if e.quick {
		mode = "-quick"
	}
	fmt.Fprintf(w, "judge benchmark table, %s UTC, commit %s, %s run (%s per in-process figure, %s per load point), took %s\n",
		start.UTC().Format("2006-01-02 15:04"), commit(), mode, e.secs, e.httpD, time.Since(start).Round(time.Second))
	fmt.Fprintf(w, "machine: %d cores (%s), %s; load average (1, 5, 15 min) before %s, after %s\n\n",
		runtime.NumCPU(), cpuModel(), runtime.GOARCH, load0, load1)
	fmt.Fprintln(w, "| workload | judge | peer | ratio | the ratio means | command |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|")
	for _, r := range rows {
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | `%s` |\n", r.workload, r.judge, r.peer, r.ratio, r.meaning, r.command)
	}
}

func loadavg() string {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(data))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}

func cpuModel() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return "unknown CPU"
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return "unknown CPU"
}

func commit() string {
	out, err := exec.Command("git", "rev-parse", "--short", "HEAD").Output()
	if err != nil {
		return "unknown"
	}
	return strings.TrimSpace(string(out))
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return strings.ReplaceAll(s, "|", "/")
}
