package code_test

import (
	"context"
	"fmt"

	"github.com/agentjudge/judge/internal/code"
)

func ExampleParse() {
	src := []byte(`def average(values):
    if not values:
        return 0
    return sum(v for v in values if v is not None) / len(values)
`)
	f, err := code.Parse(context.Background(), code.Python, src)
	if err != nil {
		panic(err)
	}
	for _, fn := range f.Functions() {
		fmt.Printf("%s line %d: complexity %d, %d lines\n", fn.Name, fn.Line, fn.Complexity, fn.Length())
	}
	// Output:
	// average line 1: complexity 4, 4 lines
}

func ExampleDetect() {
	lang, ok := code.Detect(context.Background(), "package main\n\nfunc main() {}\n")
	fmt.Println(lang, ok)
	// Output: go true
}
