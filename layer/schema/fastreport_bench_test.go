package schema_test

import (
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentjudge/judge/internal/sharedtest"
	"github.com/agentjudge/judge/layer/schema"
)

// BenchmarkFastPath compares, on the bench corpus, the fast path's verdict
// alone (Check, which stops at the first failed keyword) with its issues
// (Issues, which reads the whole document once in report mode), for valid
// and invalid documents.
func BenchmarkFastPath(b *testing.B) {
	c := sharedtest.LoadBenchCorpus(b)
	large, err := schema.Compile(c.Large.Schema, schema.Options{})
	if err != nil {
		b.Fatal(err)
	}
	// The documents as bytes once: the loop measures the scan, not a
	// conversion's allocation and the collections it brings.
	small := make([]*schema.Validator, len(c.Cases))
	valid, invalid := make([][]byte, len(c.Cases)), make([][]byte, len(c.Cases))
	for i, tc := range c.Cases {
		if small[i], err = schema.Compile(tc.Schema, schema.Options{}); err != nil {
			b.Fatal(err)
		}
		valid[i], invalid[i] = []byte(tc.Valid), []byte(tc.Invalid)
	}
	largeValid, largeInvalid := []byte(c.Large.Valid), []byte(c.Large.Invalid)
	for _, tc := range []struct {
		name string
		run  func(issues bool)
	}{
		{"large/valid", func(issues bool) { one(large, largeValid, issues) }},
		{"large/invalid", func(issues bool) { one(large, largeInvalid, issues) }},
		{"small/valid", func(issues bool) {
			for i, doc := range valid {
				one(small[i], doc, issues)
			}
		}},
		{"small/invalid", func(issues bool) {
			for i, doc := range invalid {
				one(small[i], doc, issues)
			}
		}},
	} {
		for _, mode := range []string{"check", "issues"} {
			b.Run(tc.name+"/"+mode, func(b *testing.B) {
				b.ReportAllocs()
				start := cpuTime(b)
				for b.Loop() {
					tc.run(mode == "issues")
				}
				// CPU time per iteration: on a shared machine, a figure
				// that waiting for a processor does not inflate.
				b.ReportMetric(float64((cpuTime(b)-start).Nanoseconds())/float64(b.N), "cpu-ns/op")
			})
		}
	}
}

func one(v *schema.Validator, doc []byte, issues bool) {
	if issues {
		v.Issues(doc, 0)
	} else {
		v.Check(doc, 0)
	}
}

// cpuTime is the process's CPU time so far (user and system).
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkIssuesOverBudget is Validator.Issues on a document with far
// more issues than MaxIssues (200,001 integers against string items,
// 400 KB): the scan that writes issues directly stops at the budget.
func BenchmarkIssuesOverBudget(b *testing.B) {
	v, err := schema.Compile([]byte(`{"items": {"type": "string"}}`), schema.Options{})
	if err != nil {
		b.Fatal(err)
	}
	doc := []byte("[" + strings.Repeat("1,", 200000) + "1]")
	b.ReportAllocs()
	for range b.N {
		if _, sure := v.Issues(doc, 0); !sure {
			b.Fatal("not sure")
		}
	}
}

// BenchmarkIssuesEnum is Validator.Issues on a tool call's arguments
// whose one fault is a value outside its enum (a state the tool does not
// know), the same document every time, as an agent repeating a mistake
// sends it.
func BenchmarkIssuesEnum(b *testing.B) {
	benchOneFault(b, `{"type": "object", "properties": {"owner": {"type": "string"},
		"state": {"type": "string", "enum": ["open", "closed"], "description": "The state to set"}}, "required": ["owner"]}`,
		`{"owner": "octocat", "state": "merged"}`)
}

// BenchmarkIssuesAdditional is Validator.Issues on a tool call's
// arguments whose one fault is a field the schema does not declare
// (additionalProperties false), close to one it does.
func BenchmarkIssuesAdditional(b *testing.B) {
	benchOneFault(b, `{"type": "object", "properties": {"owner": {"type": "string"}, "repo": {"type": "string"},
		"perPage": {"type": "integer"}}, "required": ["owner", "repo"], "additionalProperties": false}`,
		`{"owner": "octocat", "repo": "hello", "per_page": 50}`)
}

// BenchmarkIssuesPattern is Validator.Issues on a tool call's arguments
// whose one fault is a string its pattern refuses (a branch name where a
// commit SHA is expected).
func BenchmarkIssuesPattern(b *testing.B) {
	benchOneFault(b, `{"type": "object", "properties": {"owner": {"type": "string"}, "repo": {"type": "string"},
		"sha": {"type": "string", "pattern": "^[0-9a-f]{40}$", "description": "The commit SHA"}}, "required": ["owner", "repo", "sha"]}`,
		`{"owner": "octocat", "repo": "hello", "sha": "main"}`)
}

// BenchmarkIssuesMaximum is Validator.Issues on a tool call's arguments
// whose one fault is a number over its maximum (a page size the tool
// caps).
func BenchmarkIssuesMaximum(b *testing.B) {
	benchOneFault(b, `{"type": "object", "properties": {"owner": {"type": "string"},
		"perPage": {"type": "integer", "minimum": 1, "maximum": 100, "description": "Results per page"}}, "required": ["owner"]}`,
		`{"owner": "octocat", "perPage": 500}`)
}

// benchOneFault is Validator.Issues on doc, which has exactly one fault
// against schema (checked before the loop).
func benchOneFault(b *testing.B, schemaText, doc string) {
	b.Helper()
	v, err := schema.Compile([]byte(schemaText), schema.Options{})
	if err != nil {
		b.Fatal(err)
	}
	d := []byte(doc)
	if issues, sure := v.Issues(d, 0); !sure || len(issues) != 1 {
		b.Fatalf("%d issues, sure %v", len(issues), sure)
	}
	b.ReportAllocs()
	for b.Loop() {
		v.Issues(d, 0)
	}
}
