package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/agentjudge/judge"
	"github.com/agentjudge/judge/internal/code"
	"github.com/agentjudge/judge/manifest"
	"github.com/agentjudge/judge/toolcall"
)

// validator returns an op validating reqs in turn through e, checking
// each verdict against want.
func validator(ctx context.Context, eng *judge.Engine, reqs []*judge.Request, want []bool) func(int) error {
	return func(i int) error {
		k := i % len(reqs)
		r, err := eng.Validate(ctx, reqs[k])
		if err != nil {
			return err
		}
		if r.Valid != want[k] {
			return fmt.Errorf("document %d: valid = %v, want %v: %v", k, r.Valid, want[k], r.Issues)
		}
		return nil
	}
}

func newEngine(ctx context.Context) (*judge.Engine, func(), error) {
	eng, err := judge.New()
	if err != nil {
		return nil, nil, err
	}
	return eng, func() { _ = eng.Close(ctx) }, nil
}

// schemaRows: Engine.Validate of the corpus's documents against Ajv.
func schemaRows(ctx context.Context, e *env) ([]row, error) {
	eng, done, err := newEngine(ctx)
	if err != nil {
		return nil, err
	}
	defer done()
	var small []*judge.Request
	var want []bool
	for _, c := range e.corpus.Cases {
		small = append(small, &judge.Request{Output: json.RawMessage(c.Valid), ExpectedSchema: c.Schema},
			&judge.Request{Output: json.RawMessage(c.Invalid), ExpectedSchema: c.Schema})
		want = append(want, true, false)
	}
	l := e.corpus.Large
	cases := []struct {
		name, ajv string
		reqs      []*judge.Request
		want      []bool
	}{
		{"schema, small: 117 github-mcp-server tool argument documents, valid and invalid (Engine.Validate)", "tool-arguments", small, want},
		{"schema, large: 110 KB valid array of 500 records (Engine.Validate)", "large/valid", []*judge.Request{{Output: json.RawMessage(l.Valid), ExpectedSchema: l.Schema}}, []bool{true}},
		{"schema, large: 110 KB invalid array (Engine.Validate)", "large/invalid", []*judge.Request{{Output: json.RawMessage(l.Invalid), ExpectedSchema: l.Schema}}, []bool{false}},
	}
	// judge and Ajv alternate in rounds, and each row takes the median of
	// each side's rounds and of the rounds' ratios, so that a change in the
	// machine's load hits both sides alike (as the http row does).
	rounds := 5
	if e.quick {
		rounds = 3
	}
	d := e.secs / time.Duration(rounds)
	judgeNs, ajvNs, ratios := make([][]float64, len(cases)), make([][]float64, len(cases)), make([][]float64, len(cases))
	peer := map[string][]float64{}
	for range rounds {
		for i, c := range cases {
			ns, err := measure(d, validator(ctx, eng, c.reqs, c.want))
			if err != nil {
				return nil, fmt.Errorf("%s: %w", c.name, err)
			}
			judgeNs[i] = append(judgeNs[i], ns)
		}
		ajv, err := e.runAjvSchema(ctx, d)
		if err != nil {
			return nil, err
		}
		for name, ns := range ajv {
			peer[name] = append(peer[name], ns)
		}
		for i, c := range cases {
			a := ajv[c.ajv]
			ajvNs[i], ratios[i] = append(ajvNs[i], a), append(ratios[i], judgeNs[i][len(judgeNs[i])-1]/a)
		}
	}
	// The check row compares with the median of Ajv's rounds.
	e.ajv = map[string]float64{}
	for name, ns := range peer {
		e.ajv[name] = median(ns)
	}
	var rows []row
	for i, c := range cases {
		rows = append(rows, row{workload: c.name, judge: dur(median(judgeNs[i])) + "/doc", peer: "Ajv 8: " + dur(median(ajvNs[i])) + "/doc", ratio: ratio(median(ratios[i])),
			meaning: fmt.Sprintf("judge's time / Ajv's (below 1: judge faster); median of %d alternating rounds", rounds), command: "go run ./bench/run" + e.flag() + " -row schema"})
	}
	return rows, nil
}

// definitions returns the corpus's tools as MCP definitions, copies times
// over (names suffixed _2, _3, … after the first copy), and one valid call
// for each.
func definitions(e *env, copies int) ([]toolcall.Definition, []toolcall.Call, error) {
	var defs []toolcall.Definition
	var calls []toolcall.Call
	for k := range copies {
		for _, c := range e.corpus.Cases {
			var schema any
			dec := json.NewDecoder(strings.NewReader(string(c.Schema)))
			dec.UseNumber()
			if err := dec.Decode(&schema); err != nil {
				return nil, nil, fmt.Errorf("%s: %w", c.Name, err)
			}
			name := c.Name
			if k > 0 {
				name = fmt.Sprintf("%s_%d", c.Name, k+1)
			}
			defs = append(defs, toolcall.Definition{Name: name, Description: "github-mcp-server tool " + c.Name, Kind: toolcall.KindMCP, InputSchema: schema})
			calls = append(calls, toolcall.Call{Tool: name, Arguments: json.RawMessage(c.Valid)})
		}
	}
	return defs, calls, nil
}

// checker returns an op checking calls in turn with a toolset of defs,
// each expected valid.
func checker(ctx context.Context, defs []toolcall.Definition, calls []toolcall.Call) (func(int) error, error) {
	c, err := toolcall.New()
	if err != nil {
		return nil, err
	}
	ts, err := c.NewToolset(defs...)
	if err != nil {
		return nil, err
	}
	return func(i int) error {
		call := calls[(i*7)%len(calls)]
		res, err := ts.Check(ctx, call)
		if err != nil {
			return err
		}
		if !res.Result.Valid {
			return fmt.Errorf("call of %s: not valid: %v", call.Tool, res.Result.Issues)
		}
		return nil
	}, nil
}

// checkRows: pre-execution checks of the valid calls of the 117 tools.
func checkRows(ctx context.Context, e *env) ([]row, error) {
	defs, calls, err := definitions(e, 1)
	if err != nil {
		return nil, err
	}
	op, err := checker(ctx, defs, calls)
	if err != nil {
		return nil, err
	}
	ns, err := measure(e.secs, op)
	if err != nil {
		return nil, err
	}
	ajv, err := e.ajvSchema(ctx)
	if err != nil {
		return nil, err
	}
	a := ajv["tool-arguments-valid"]
	return []row{{workload: "pre-execution checks: valid calls of the 117 github-mcp-server tools (Toolset.Check: arguments, normalization, repair)",
		judge: perSec(1e9/ns) + " (" + dur(ns) + "/call)", peer: "Ajv 8 validating the same arguments against the same inputSchemas: " + perSec(1e9/a),
		ratio: ratio(ns / a), meaning: "judge's time / Ajv's (below 1: judge faster)", command: "go run ./bench/run" + e.flag() + " -row check"}}, nil
}

// pythonFile is the large real Python file of the complexity row: the
// file JUDGE_BENCH_PY names, else CPython's _pydecimal.py.
func pythonFile() (string, error) {
	if p := os.Getenv("JUDGE_BENCH_PY"); p != "" {
		return p, nil
	}
	libs, _ := filepath.Glob("/usr/lib/python3.*/_pydecimal.py")
	if len(libs) == 0 {
		return "", fmt.Errorf("no large Python file: set JUDGE_BENCH_PY or install python3")
	}
	sort.Strings(libs)
	return libs[len(libs)-1], nil
}

// radonRows: complexity metrics of a large real Python file against radon.
func radonRows(ctx context.Context, e *env) ([]row, error) {
	file, err := pythonFile()
	if err != nil {
		return nil, err
	}
	src, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	ns, err := measure(e.secs, func(int) error {
		f, err := code.Parse(ctx, code.Python, src)
		if err != nil {
			return err
		}
		if len(f.Functions()) == 0 {
			return fmt.Errorf("%s: no functions", file)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	python := "/usr/bin/python3" // Debian's, where Debian's radon is
	if _, err := os.Stat(python); err != nil {
		python = "python3"
	}
	out, err := output(ctx, python, "bench/radon-cc.py", secsArg(e.secs), file)
	if err != nil {
		return nil, fmt.Errorf("radon (apt-get install radon): %w", err)
	}
	f := strings.Fields(string(out))
	var r float64
	if len(f) < 2 {
		return nil, fmt.Errorf("radon-cc.py printed %q", out)
	}
	if _, err := fmt.Sscan(f[1], &r); err != nil {
		return nil, err
	}
	lines := strings.Count(string(src), "\n")
	return []row{{workload: fmt.Sprintf("complexity metrics of %s (%s lines; parse + every function's complexity)", filepath.Base(file), thousands(int64(lines))),
		judge: dur(ns), peer: "radon cc_visit (in process): " + dur(r), ratio: ratio(ns / r),
		meaning: "judge's time / radon's (below 1: judge faster)", command: "go run ./bench/run" + e.flag() + " -row radon"}}, nil
}

// writeRegistry writes n MCP tools, with the corpus's input schemas in
// turn, and the max(1, n/100) servers they run on, into a new directory,
// and the n schemas as a JSON array into dir/schemas.json.
func writeRegistry(e *env, n int) (string, error) {
	dir, err := os.MkdirTemp(e.dir, fmt.Sprintf("registry%d-", n))
	if err != nil {
		return "", err
	}
	return dir, writeRegistryTo(e, dir, n)
}

// writeRegistryTo is writeRegistry into dir, which must not exist or be
// empty.
func writeRegistryTo(e *env, dir string, n int) error {
	servers := max(1, n/100)
	write := func(rel, data string) error {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		return os.WriteFile(p, []byte(data), 0o644)
	}
	for s := range servers {
		if err := write(fmt.Sprintf("tools/servers/srv%d.yaml", s), fmt.Sprintf("tool_id: srv%d\ntool_type: mcp_server\nversion: \"1.0.0\"\ndescription: github-mcp-server copy %d\nexecutor: subprocess\nconfig:\n  transport: stdio\n  command: github-mcp-server\n  args: [stdio]\n", s, s)); err != nil {
			return err
		}
	}
	schemas := make([]json.RawMessage, 0, n)
	for i := range n {
		c := e.corpus.Cases[i%len(e.corpus.Cases)]
		schemas = append(schemas, c.Schema)
		m := fmt.Sprintf("tool_id: t%d\ntool_type: mcp_tool\nversion: \"1.0.0\"\ndescription: github-mcp-server tool %s\nexecutor: srv%d\nconfig:\n  mcp_tool_name: %s\ninput_schema: %s\n", i, c.Name, i%servers, c.Name, c.Schema)
		if err := write(fmt.Sprintf("tools/mcp/t%d.yaml", i), m); err != nil {
			return err
		}
	}
	data, err := json.Marshal(schemas)
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "schemas.json"), data, 0o644)
}

// linter returns an op that loads and lints the registry in dir, as judge
// tools lint does, checking that its tools are all valid.
func linter(ctx context.Context, dir string, tools int) func(int) error {
	return func(int) error {
		reg, err := manifest.LoadDirs(ctx, filepath.Join(dir, "tools"))
		if err != nil {
			return err
		}
		rep, err := manifest.Lint(ctx, reg)
		if err != nil {
			return err
		}
		if rep.Summary.Tools != tools || rep.Summary.Invalid != 0 {
			return fmt.Errorf("lint: %d tools, %d invalid; want %d valid", rep.Summary.Tools, rep.Summary.Invalid, tools)
		}
		return nil
	}
}

// lintRows: loading and linting 1,000 MCP tools against Ajv compiling
// their 1,000 input schemas.
func lintRows(ctx context.Context, e *env) ([]row, error) {
	dir, err := writeRegistry(e, 1000)
	if err != nil {
		return nil, err
	}
	ns, err := measure(e.secs, linter(ctx, dir, 1010))
	if err != nil {
		return nil, err
	}
	if err := ensureAjv(ctx); err != nil {
		return nil, err
	}
	out, err := output(ctx, "node", "bench/ajv-compile.mjs", filepath.Join(dir, "schemas.json"), secsArg(e.secs))
	if err != nil {
		return nil, err
	}
	m, err := nameValues(out)
	if err != nil {
		return nil, err
	}
	a := m["compile"]
	return []row{{workload: "lint of 1,000 MCP tools (github-mcp-server input schemas) and their 10 servers: load from disk + lint",
		judge: dur(ns), peer: "Ajv 8 compiling the same 1,000 schemas (no other check): " + dur(a), ratio: ratio(ns / a),
		meaning: "judge's time / Ajv's; judge also reads 1,010 YAML files and checks every field and reference", command: "go run ./bench/run" + e.flag() + " -row lint"}}, nil
}
