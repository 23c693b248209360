package criteria_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/agentjudge/judge/layer/criteria"
)

func TestEnvCompile(t *testing.T) {
	t.Parallel()
	env, err := criteria.NewEnv("args")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name      string
		expr      string
		line, col int
		msg       string // substring of the error; "" = compiles
	}{
		{name: "ok", expr: `has(args.a) || args.b == "x"`},
		{name: "syntax", expr: "args.a ==", line: 1, col: 10, msg: "Syntax error"},
		{name: "second line", expr: "true &&\n  args.a +", line: 2, col: 11, msg: "Syntax error"},
		{name: "not bool", expr: `"a" + "b"`, line: 1, col: 5, msg: "must yield a bool"},
		{name: "other variable", expr: `output.a == 1`, line: 1, col: 1, msg: "undeclared reference to 'output'"},
		{name: "undeclared", expr: `nope == 1`, line: 1, col: 1, msg: "undeclared reference to 'nope'"},
		{name: "empty", expr: "  ", line: 1, col: 1, msg: "empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := env.Compile(tt.expr)
			if tt.msg == "" {
				if err != nil {
					t.Fatalf("Compile: %v", err)
				}
				return
			}
			var ee *criteria.ExprError
			if !errors.As(err, &ee) {
				t.Fatalf("Compile(%q) = %v, want *ExprError", tt.expr, err)
			}
			if ee.Line != tt.line || ee.Col != tt.col || !strings.Contains(ee.Msg, tt.msg) {
				t.Errorf("Compile(%q) = %d:%d %q, want %d:%d containing %q", tt.expr, ee.Line, ee.Col, ee.Msg, tt.line, tt.col, tt.msg)
			}
		})
	}
}

func TestExprEval(t *testing.T) {
	t.Parallel()
	env, err := criteria.NewEnv("args")
	if err != nil {
		t.Fatal(err)
	}
	args := map[string]any{"n": json.Number("3"), "s": "x"}
	tests := []struct {
		expr    string
		want    bool
		wantErr string
		wantKey string // the key of a *MissingKeyError
	}{
		{expr: "args.n == 3", want: true},
		{expr: "args.n > 3", want: false},
		{expr: "has(args.missing)", want: false},
		{expr: "args.missing == 1", wantErr: "no such key", wantKey: "missing"},
		{expr: "args.n == 3 && args['other'] > 1", wantErr: "no such key", wantKey: "other"},
		{expr: "args.s.startsWith('x') && args.n < 10", want: true},
		{expr: "lists.range(100000).all(i, lists.range(100000).all(j, i + j >= 0))", wantErr: "evaluation stopped"},
	}
	for _, tt := range tests {
		x, err := env.Compile(tt.expr)
		if err != nil {
			t.Fatalf("Compile(%q): %v", tt.expr, err)
		}
		got, err := x.Eval(context.Background(), map[string]any{"args": args})
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("Eval(%q) = %v, %v; want error containing %q", tt.expr, got, err, tt.wantErr)
			}
			var mk *criteria.MissingKeyError
			if errors.As(err, &mk) != (tt.wantKey != "") || mk != nil && mk.Key != tt.wantKey {
				t.Errorf("Eval(%q) = %#v; want a *MissingKeyError only for the key %q", tt.expr, err, tt.wantKey)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("Eval(%q) = %v, %v; want %v", tt.expr, got, err, tt.want)
		}
	}
}
