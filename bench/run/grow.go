package main

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/agentjudge/judge"
	"github.com/agentjudge/judge/internal/groundeval"
	"github.com/agentjudge/judge/internal/sharedtest"
	"github.com/agentjudge/judge/layer"
	"github.com/agentjudge/judge/result"
)

// growRow measures op at 1× and at 10× in three alternating rounds and
// returns the row of the median of the rounds' ratios, so that a change
// in the machine's load hits both sizes alike.
func growRow(e *env, workload string, at1, at10 func(int) error) (row, error) {
	const rounds = 3
	var t1s, t10s, ratios []float64
	for range rounds {
		t1, err := measure(e.secs/rounds, at1)
		if err != nil {
			return row{}, fmt.Errorf("%s at 1×: %w", workload, err)
		}
		t10, err := measure(e.secs/rounds, at10)
		if err != nil {
			return row{}, fmt.Errorf("%s at 10×: %w", workload, err)
		}
		t1s, t10s, ratios = append(t1s, t1), append(t10s, t10), append(ratios, t10/t1)
	}
	return row{workload: workload, judge: fmt.Sprintf("1×: %s, 10×: %s", dur(median(t1s)), dur(median(t10s))), peer: "— (judge only)", ratio: ratio(median(ratios)),
		meaning: "time at 10× / at 1× (10 = linear); median of 3 alternating rounds", command: "go run ./bench/run" + e.flag() + " -row grow"}, nil
}

// uniqueSchema returns an op validating doc against schema made new by a
// $comment at every op, so that the schema is compiled every time.
func uniqueSchema(ctx context.Context, eng *judge.Engine, schema, doc json.RawMessage) func(int) error {
	body := strings.TrimSpace(string(schema))[1:]
	return func(i int) error {
		s := json.RawMessage(fmt.Sprintf(`{"$comment": "grow %d", %s`, i, body))
		return validator(ctx, eng, []*judge.Request{{Output: doc, ExpectedSchema: s}}, []bool{true})(0)
	}
}

// summEdits returns SummEdits' distinct documents and an output of about
// 100 claims made of its summaries.
func summEdits() (docs []string, output string, err error) {
	files, _ := filepath.Glob("../shared/testdata/summedits-dev/summedits_*.json")
	if len(files) == 0 {
		return nil, "", fmt.Errorf("../shared/testdata/summedits-dev is absent")
	}
	docs, output, _, err = groundeval.BenchSet(files)
	return docs, output, err
}

// factsOp checks output against sources with the facts layer through eng;
// the engine keeps the sources' index, as a server does between requests.
func factsOp(ctx context.Context, eng *judge.Engine, output string, sources []layer.Source) func(int) error {
	out, _ := json.Marshal(output)
	req := &judge.Request{Output: out, Sources: sources, ValidationTypes: []string{"facts"}}
	return func(int) error {
		r, err := eng.Validate(ctx, req)
		if err != nil {
			return err
		}
		for _, is := range r.Issues {
			if is.Type == result.LayerFailed {
				return fmt.Errorf("facts layer failed: %s", is.Message)
			}
		}
		return nil
	}
}

// growRows: how judge's cost grows when the schema, the output, the
// sources and the registry grow 10×.
func growRows(ctx context.Context, e *env) ([]row, error) {
	eng, done, err := newEngine(ctx)
	if err != nil {
		return nil, err
	}
	defer done()
	var rows []row
	add := func(workload string, at1, at10 func(int) error) error {
		r, err := growRow(e, workload, at1, at10)
		if err == nil {
			rows = append(rows, r)
		}
		return err
	}
	s1, d1 := sharedtest.ObjectSchema(20)
	s10, d10 := sharedtest.ObjectSchema(200)
	if err := add("schema ×10: an object of 20 → 200 properties, valid document, schema compiled once",
		validator(ctx, eng, []*judge.Request{{Output: d1, ExpectedSchema: s1}}, []bool{true}),
		validator(ctx, eng, []*judge.Request{{Output: d10, ExpectedSchema: s10}}, []bool{true})); err != nil {
		return nil, err
	}
	if err := add("schema ×10: the same, a new schema every request (compile included)",
		uniqueSchema(ctx, eng, s1, d1), uniqueSchema(ctx, eng, s10, d10)); err != nil {
		return nil, err
	}

	var items []json.RawMessage
	if err := json.Unmarshal([]byte(e.corpus.Large.Valid), &items); err != nil || len(items) < 500 {
		return nil, fmt.Errorf("the corpus's large document is not an array of 500 records: %v", err)
	}
	part := func(n int) json.RawMessage {
		b, _ := json.Marshal(items[:n])
		return b
	}
	ls := e.corpus.Large.Schema
	if err := add("output ×10: 50 → 500 records of the corpus's large document (11 → 110 KB), valid",
		validator(ctx, eng, []*judge.Request{{Output: part(50), ExpectedSchema: ls}}, []bool{true}),
		validator(ctx, eng, []*judge.Request{{Output: part(500), ExpectedSchema: ls}}, []bool{true})); err != nil {
		return nil, err
	}

	docs, output, err := summEdits()
	if err != nil {
		return nil, err
	}
	if err := add("sources ×10: ~100 claims (SummEdits summaries) against 100 KB → 1 MB of SummEdits documents, facts layer, index kept",
		factsOp(ctx, eng, output, groundeval.Sources(docs, 100<<10)), factsOp(ctx, eng, output, groundeval.Sources(docs, 1<<20))); err != nil {
		return nil, err
	}

	r100, err := writeRegistry(e, 100)
	if err != nil {
		return nil, err
	}
	r1000, err := writeRegistry(e, 1000)
	if err != nil {
		return nil, err
	}
	if err := add("registry ×10: load + lint of 100 → 1,000 MCP tools (github-mcp-server schemas)",
		linter(ctx, r100, 101), linter(ctx, r1000, 1010)); err != nil {
		return nil, err
	}
	d117, c117, err := definitions(e, 1)
	if err != nil {
		return nil, err
	}
	d1170, c1170, err := definitions(e, 10)
	if err != nil {
		return nil, err
	}
	op1, err := checker(ctx, d117, c117)
	if err != nil {
		return nil, err
	}
	op10, err := checker(ctx, d1170, c1170)
	if err != nil {
		return nil, err
	}
	if err := add("registry ×10: one pre-execution check in a toolset of 117 → 1,170 tools", op1, op10); err != nil {
		return nil, err
	}
	return rows, nil
}
