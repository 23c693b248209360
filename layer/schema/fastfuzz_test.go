package schema_test

import (
	"regexp"
	"testing"

	"github.com/agentjudge/judge/internal/sharedtest"
	"github.com/agentjudge/judge/layer/schema"
)

// FuzzFastPath mutates documents for the bench corpus's schemas (the
// fuzzer picks the schema by number) and compares the two paths: wherever
// the fast path is sure, its verdict must be the slow path's.
func FuzzFastPath(f *testing.F) {
	c := sharedtest.LoadBenchCorpus(f)
	var vs []*schema.Validator
	for i, tc := range c.Cases {
		v, err := schema.Compile(tc.Schema, schema.Options{})
		if err != nil {
			f.Fatal(err)
		}
		vs = append(vs, v)
		f.Add(uint(i), []byte(tc.Valid))
		f.Add(uint(i), []byte(tc.Invalid))
	}
	f.Add(uint(0), []byte(`{"a": 1, "a": 2}`))
	// Duplicates inside values no keyword reads, which the fast path
	// skips: the agreement check in verdicts fails on a valid verdict.
	f.Add(uint(0), []byte(`{"owner": "o", "repo": "r", "extra": {"x": 1, "y": {"z": 1, "z": 2}}}`))
	f.Add(uint(0), []byte(`{"owner": "o", "repo": "r", "extra": [{"k": 1, "\u006b": 2}]}`))
	f.Add(uint(1), []byte("{\"owner\": \"\xff\"}"))
	f.Add(uint(2), []byte(`{"owner": "o", "repo": "r", "perPage": 1e2, "page": 1.0}`))
	f.Fuzz(func(t *testing.T, which uint, doc []byte) {
		v := vs[which%uint(len(vs))]
		fast, sure, slow := verdicts(t, v, doc)
		if sure && fast != slow {
			t.Fatalf("schema %d, document %q: fast path valid = %v, slow path %v", which%uint(len(vs)), doc, fast, slow)
		}
	})
}

// FuzzSimplePattern compares the fast path's simple pattern matcher with
// Go's regexp on any pattern and string, wherever the pattern gets one.
func FuzzSimplePattern(f *testing.F) {
	for _, p := range []string{`^[a-z0-9.]+@[a-z0-9.]+$`, `^[A-Z]{2}-[0-9]+$`, `^v?[0-9]+\.[0-9]+$`, `^é+[^é]$`, `^a*a$`} {
		for _, in := range []string{"", "a", "user@example.com", "AB-12", "v1.2", "éé!", "\xff"} {
			f.Add(p, in)
		}
	}
	f.Fuzz(func(t *testing.T, pattern, in string) {
		re, err := regexp.Compile(pattern)
		if err != nil {
			return
		}
		if got, simple := schema.SimpleMatch(re, in); simple && got != re.MatchString(in) {
			t.Fatalf("%q on %q: %v, the regexp %v", pattern, in, got, !got)
		}
	})
}
