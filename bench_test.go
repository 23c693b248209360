package judge_test

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentjudge/judge"
	"github.com/agentjudge/judge/internal/sharedtest"
	"github.com/agentjudge/judge/layer/schema"
)

// The corpus's own labels agree with the engine: every valid document is
// valid, every invalid one is not.
func TestBenchCorpusVerdicts(t *testing.T) {
	t.Parallel()
	c := sharedtest.LoadBenchCorpus(t)
	e := mustEngine(t)
	check := func(name string, schema json.RawMessage, doc string, want bool) {
		r := validate(t, e, &judge.Request{Output: json.RawMessage(doc), ExpectedSchema: schema})
		if r.Valid != want {
			t.Errorf("%s: valid = %v, want %v: %+v", name, r.Valid, want, r.Issues)
		}
	}
	for _, tc := range c.Cases {
		check(tc.Name+"/valid", tc.Schema, tc.Valid, true)
		check(tc.Name+"/invalid", tc.Schema, tc.Invalid, false)
	}
	check("large/valid", c.Large.Schema, c.Large.Valid, true)
	check("large/invalid", c.Large.Schema, c.Large.Invalid, false)
}

// BenchmarkSchemaLarge validates the ~110 KB tool-output document (an array
// of user records) through the engine: decoding, the cached compiled
// schema, and building the result.
func BenchmarkSchemaLarge(b *testing.B) {
	c := sharedtest.LoadBenchCorpus(b)
	e := mustEngine(b)
	for _, tc := range []struct {
		name string
		doc  string
	}{{"valid", c.Large.Valid}, {"invalid", c.Large.Invalid}} {
		b.Run(tc.name, func(b *testing.B) {
			req := &judge.Request{Output: json.RawMessage(tc.doc), ExpectedSchema: c.Large.Schema}
			b.SetBytes(int64(len(tc.doc)))
			b.ReportAllocs()
			// The first request compiles the schema; the loop measures
			// the ones after, as Ajv's figure excludes its compile.
			if _, err := e.Validate(context.Background(), req); err != nil {
				b.Fatal(err)
			}
			cpu := cpuTime(b)
			for b.Loop() {
				if _, err := e.Validate(context.Background(), req); err != nil {
					b.Fatal(err)
				}
			}
			reportCPU(b, cpu, 1)
		})
	}
}

// BenchmarkSchemaToolArguments validates the 234 argument documents of the
// github-mcp-server tools, each against its own input schema.
func BenchmarkSchemaToolArguments(b *testing.B) {
	c := sharedtest.LoadBenchCorpus(b)
	e := mustEngine(b)
	var reqs []*judge.Request
	for _, tc := range c.Cases {
		reqs = append(reqs,
			&judge.Request{Output: json.RawMessage(tc.Valid), ExpectedSchema: tc.Schema},
			&judge.Request{Output: json.RawMessage(tc.Invalid), ExpectedSchema: tc.Schema})
	}
	run := func(b *testing.B, reqs []*judge.Request) {
		b.ReportAllocs()
		for _, req := range reqs { // compile every schema before the loop
			if _, err := e.Validate(context.Background(), req); err != nil {
				b.Fatal(err)
			}
		}
		validateEach(b, e, reqs)
	}
	var valid, invalid []*judge.Request
	for i := 0; i < len(reqs); i += 2 {
		valid = append(valid, reqs[i])
		invalid = append(invalid, reqs[i+1])
	}
	b.Run("all", func(b *testing.B) { run(b, reqs) })
	b.Run("valid", func(b *testing.B) { run(b, valid) })
	b.Run("invalid", func(b *testing.B) { run(b, invalid) })
}

// BenchmarkSchemaDuplicateKeys validates, through the engine, the
// corpus's valid argument documents each with its first key (in key order)
// sent twice, first with its own value: valid, with one duplicate_key
// warning each, which the fast path gives as the usual path does.
func BenchmarkSchemaDuplicateKeys(b *testing.B) {
	c := sharedtest.LoadBenchCorpus(b)
	e := mustEngine(b)
	var reqs []*judge.Request
	for _, tc := range c.Cases {
		var members map[string]json.RawMessage
		if err := json.Unmarshal([]byte(tc.Valid), &members); err != nil || len(members) == 0 {
			continue
		}
		k := slices.Sorted(maps.Keys(members))[0]
		name, _ := json.Marshal(k)
		doc := fmt.Sprintf(`{%s: %s, %s`, name, members[k], strings.TrimSpace(tc.Valid)[1:])
		reqs = append(reqs, &judge.Request{Output: json.RawMessage(doc), ExpectedSchema: tc.Schema})
	}
	for _, req := range reqs {
		r, err := e.Validate(context.Background(), req)
		if err != nil || !r.Valid || r.Metadata.WarningCount != 1 {
			b.Fatalf("%s: %v %+v", req.Output, err, r)
		}
	}
	b.ReportAllocs()
	validateEach(b, e, reqs)
}

// validateEach is the benchmark loop over reqs through e, reported per
// document in wall and CPU time.
func validateEach(b *testing.B, e *judge.Engine, reqs []*judge.Request) {
	cpu := cpuTime(b)
	for b.Loop() {
		for _, req := range reqs {
			if _, err := e.Validate(context.Background(), req); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(reqs)), "ns/doc")
	reportCPU(b, cpu, len(reqs))
}

// BenchmarkSchemaGrow validates, through the engine, a valid object of 20
// and of 200 required properties (sharedtest.ObjectSchema, the documents of
// bench/run's growth rows): "once" with the schema compiled before the
// loop, "compile" with a schema made new by a $comment at every request.
// Ten times the properties should cost at most ten times the time.
func BenchmarkSchemaGrow(b *testing.B) {
	e := mustEngine(b)
	for _, n := range []int{20, 200} {
		sch, doc := sharedtest.ObjectSchema(n)
		b.Run(fmt.Sprintf("once/%d", n), func(b *testing.B) {
			req := &judge.Request{Output: doc, ExpectedSchema: sch}
			b.ReportAllocs()
			cpu := cpuTime(b)
			for b.Loop() {
				if r, err := e.Validate(context.Background(), req); err != nil || !r.Valid {
					b.Fatal(err, r)
				}
			}
			reportCPU(b, cpu, 1)
		})
		b.Run(fmt.Sprintf("compile/%d", n), func(b *testing.B) {
			body := strings.TrimSpace(string(sch))[1:]
			b.ReportAllocs()
			cpu := cpuTime(b)
			i := 0
			for b.Loop() {
				i++
				req := &judge.Request{Output: doc, ExpectedSchema: json.RawMessage(fmt.Sprintf(`{"$comment": "grow %d", %s`, i, body))}
				if r, err := e.Validate(context.Background(), req); err != nil || !r.Valid {
					b.Fatal(err, r)
				}
			}
			reportCPU(b, cpu, 1)
		})
	}
}

// BenchmarkEngineOverhead validates, through the engine, documents whose
// scan costs next to nothing (an empty object, and the number 1, against
// {"type": "object"}), so that what it measures is what a call costs
// beside the schema layer: the request's checks, finding the compiled
// schema by its bytes, the clock, and building the result, valid (one
// allocation) or with one issue (the result and the issue, whose texts
// the schema's node keeps once built: two allocations).
func BenchmarkEngineOverhead(b *testing.B) {
	e := mustEngine(b)
	sch := json.RawMessage(`{"type": "object"}`)
	for _, tc := range []struct {
		name  string
		doc   string
		valid bool
	}{{"valid", `{}`, true}, {"invalid", `1`, false}} {
		b.Run(tc.name, func(b *testing.B) {
			req := &judge.Request{Output: json.RawMessage(tc.doc), ExpectedSchema: sch}
			if r, err := e.Validate(context.Background(), req); err != nil || r.Valid != tc.valid {
				b.Fatal(err, r)
			}
			b.ReportAllocs()
			cpu := cpuTime(b)
			for b.Loop() {
				if _, err := e.Validate(context.Background(), req); err != nil {
					b.Fatal(err)
				}
			}
			reportCPU(b, cpu, 1)
		})
	}
}

// BenchmarkSchemaCompiled validates the same documents through the
// compile-once library API, schema.Compile and Validator.Validate: what an
// agent framework calls per tool call, without a request or a result.
func BenchmarkSchemaCompiled(b *testing.B) {
	c := sharedtest.LoadBenchCorpus(b)
	compile := func(sch json.RawMessage) *schema.Validator {
		v, err := schema.Compile(sch, schema.Options{})
		if err != nil {
			b.Fatal(err)
		}
		return v
	}
	large := compile(c.Large.Schema)
	// An array schema that looks at nothing inside its items: the fast
	// path reads each record without checking it, as it reads every value
	// a schema says nothing of.
	skipped := compile(json.RawMessage(`{"type": "array"}`))
	for _, tc := range []struct {
		name string
		v    *schema.Validator
		doc  string
	}{{"large/valid", large, c.Large.Valid}, {"large/invalid", large, c.Large.Invalid}, {"large/unchecked", skipped, c.Large.Valid}} {
		b.Run(tc.name, func(b *testing.B) {
			doc := []byte(tc.doc)
			b.SetBytes(int64(len(doc)))
			b.ReportAllocs()
			cpu := cpuTime(b)
			for b.Loop() {
				if _, err := tc.v.Validate(doc); err != nil {
					b.Fatal(err)
				}
			}
			reportCPU(b, cpu, 1)
		})
	}
	type job struct {
		v   *schema.Validator
		doc []byte
	}
	var valid, all []job
	for _, tc := range c.Cases {
		v := compile(tc.Schema)
		valid = append(valid, job{v, []byte(tc.Valid)})
		all = append(all, job{v, []byte(tc.Valid)}, job{v, []byte(tc.Invalid)})
	}
	for _, set := range []struct {
		name string
		jobs []job
	}{{"tool-arguments", all}, {"tool-arguments-valid", valid}} {
		b.Run(set.name, func(b *testing.B) {
			b.ReportAllocs()
			cpu := cpuTime(b)
			for b.Loop() {
				for _, j := range set.jobs {
					if _, err := j.v.Validate(j.doc); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(set.jobs)), "ns/doc")
			reportCPU(b, cpu, len(set.jobs))
		})
	}
}

// cpuTime is the CPU time the process has used, all its threads (the
// garbage collector's too), user and system.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportCPU reports the CPU time per document since start, docs documents
// an iteration: on a machine shared with other work, a figure that waiting
// for a processor does not inflate, as it does the wall time of ns/op
// (bench/ajv-schema.mjs reports Ajv's the same way).
func reportCPU(b *testing.B, start time.Duration, docs int) {
	b.ReportMetric(float64((cpuTime(b)-start).Nanoseconds())/float64(b.N*docs), "cpu-ns/doc")
}
