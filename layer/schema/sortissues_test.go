package schema

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"

	"github.com/agentjudge/judge/result"
)

// sortIssues orders issues as slices.SortFunc with result.CompareIssues
// does, by insertion up to smallSort issues and by the sort past it:
// shuffled lists of every length up to twice that, with equal locations
// told apart by the other fields, numbers in locations, and equal issues.
func TestSortIssues(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	locs := []string{"root", "owner", "items[2]", "items[10]", "a.b", "a", ""}
	types := []result.Type{result.InvalidType, result.MissingField, result.SchemaViolation}
	for n := range 2*smallSort + 1 {
		for round := range 50 {
			issues := make([]result.Issue, n)
			for i := range issues {
				issues[i] = result.Issue{
					Severity: result.Error, Type: types[rng.IntN(len(types))],
					Message:  fmt.Sprint("message ", rng.IntN(3)),
					Location: locs[rng.IntN(len(locs))],
				}
			}
			want := slices.Clone(issues)
			slices.SortStableFunc(want, result.CompareIssues)
			got := slices.Clone(issues)
			sortIssues(got)
			if !slices.Equal(got, want) {
				t.Fatalf("%d issues, round %d: sortIssues gave\n%v\nwant\n%v", n, round, got, want)
			}
		}
	}
}

// A parent of errors that are all nil (issues written directly) leaves
// one nil in their place, as pop and an appended nil did, and one of
// real errors keeps them as its causes.
func TestAddParentOfNils(t *testing.T) {
	t.Parallel()
	v, err := Compile([]byte(`{"type": "object"}`), Options{})
	if err != nil {
		t.Fatal(err)
	}
	n := v.c.fast
	s := &scanner{}
	real := newErr(s, n, kind.Type{Got: "string", Want: []string{"object"}})
	for _, tc := range []struct {
		name   string
		errs   []*jsonschema.ValidationError
		want   int
		causes int
	}{
		{"two nils", []*jsonschema.ValidationError{nil, nil}, 2, 0},
		{"three nils", []*jsonschema.ValidationError{nil, nil, nil}, 2, 0},
		{"nil and error", []*jsonschema.ValidationError{nil, real}, 2, 1},
		{"errors", []*jsonschema.ValidationError{real, real}, 2, 2},
	} {
		s.errs = append(s.errs[:0], real) // an error before start, kept
		s.errs = append(s.errs, tc.errs...)
		addParent(s, n, 1, kind.Group{})
		if len(s.errs) != tc.want || s.errs[0] != real {
			t.Errorf("%s: %d errors, first %v; want %d, the one before start", tc.name, len(s.errs), s.errs[0], tc.want)
			continue
		}
		last := s.errs[1]
		switch {
		case tc.causes == 0 && last != nil:
			t.Errorf("%s: parent %v, want nil", tc.name, last)
		case tc.causes > 0 && (last == nil || len(last.Causes) != tc.causes):
			t.Errorf("%s: parent %v, want %d causes", tc.name, last, tc.causes)
		}
		if c := s.errs[:cap(s.errs)]; len(c) > 2 && slices.ContainsFunc(c[2:], func(e *jsonschema.ValidationError) bool { return e != nil }) {
			t.Errorf("%s: an error left past the end: %v", tc.name, c[2:])
		}
	}
}
