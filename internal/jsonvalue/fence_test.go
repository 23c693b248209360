package jsonvalue

import (
	"errors"
	"testing"
)

func TestFindInString(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		in       string
		how      Embedding
		line     int
		dupLines []int
	}{
		{"plain text", "hello", NoJSON, 0, nil},
		{"whole object", ` {"a": 1, "a": 2} `, Whole, 0, []int{1}},
		{"whole broken", `{"a": }`, Broken, 0, nil},
		{"json fence", "Here:\n```json\n{\"a\": 1,\n \"a\": 2}\n```\nThanks", Fenced, 2, []int{4}},
		{"bare fence", "```\n[1]\n```", Fenced, 1, nil},
		{"python fence", "```python\n{\"a\": 1}\n```", NoJSON, 0, nil},
		{"fenced scalar", "```json\n42\n```", NoJSON, 0, nil},
		{"broken json fence", "x\n```json\n{\"a\": }\n```", Broken, 2, nil},
		{"broken bare fence passed over", "```\n{x}\n```\n```json\n{}\n```", Fenced, 4, nil},
		{"unclosed", "Sure:\n```json\n{\"a\": 1", Unclosed, 2, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := FindInString(tc.in, 64)
			if err != nil {
				t.Fatal(err)
			}
			if got.How != tc.how || got.Line != tc.line {
				t.Fatalf("How %d Line %d, want %d %d", got.How, got.Line, tc.how, tc.line)
			}
			if len(got.Dups) != len(tc.dupLines) {
				t.Fatalf("dups %+v, want lines %v", got.Dups, tc.dupLines)
			}
			for i, d := range got.Dups {
				if d.Line != tc.dupLines[i] {
					t.Errorf("dup %d at line %d, want %d", i, d.Line, tc.dupLines[i])
				}
			}
			if (got.How == Broken) != (got.Err != nil) {
				t.Errorf("Err %v for How %d", got.Err, got.How)
			}
		})
	}
}

func TestFindInStringRejects(t *testing.T) {
	t.Parallel()
	for _, in := range []string{"[[[[1]]]]", "```json\n[[[[1]]]]\n```", `{"n": 1e400}`} {
		_, err := FindInString(in, 3)
		if !errors.Is(err, ErrTooDeep) && !errors.Is(err, ErrNumberTooLarge) {
			t.Errorf("FindInString(%q): %v, want ErrTooDeep or ErrNumberTooLarge", in, err)
		}
	}
}

func FuzzFindInString(f *testing.F) {
	for _, s := range []string{"", "{}", "```json\n{\"a\":1}\n```", "```\n[1,2]\n```", "```json\n{", "x\n```json\n{]\n```", "  [1, {\"a\": [2]}]"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := FindInString(s, 32)
		if err != nil {
			return
		}
		switch got.How {
		case Whole, Fenced:
			if !isContainer(got.Value) {
				t.Fatalf("%d found a %T", got.How, got.Value)
			}
		case Broken:
			if got.Err == nil {
				t.Fatal("Broken without an error")
			}
		}
		if got.Line < 0 || got.Line > len(s) {
			t.Fatalf("line %d out of the string", got.Line)
		}
	})
}
