package schema

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// quickNumber decides a number against bounds exactly as parseDecimal and
// numberCheck do, whenever it decides.
func TestQuickNumber(t *testing.T) {
	t.Parallel()
	schemas := []string{
		`{"minimum": 1}`,
		`{"minimum": 0, "maximum": 100}`,
		`{"exclusiveMinimum": 0.1, "exclusiveMaximum": 99.99}`,
		`{"maximum": -2.5}`,
		`{"minimum": 0.30000000000000004}`,       // not short: left to numberCheck
		`{"minimum": 1, "multipleOf": 0.5}`,      // multipleOf: left to numberCheck
		`{"maximum": 123456789012345}`,           // the largest 15-digit bound
		`{"exclusiveMinimum": -0, "maximum": 0}`, // zero of either sign
	}
	numbers := []string{"0", "-0", "0.0", "-0.0", "1", "0.1", "0.10", "0.1000", "0.09999", "100", "100.0", "100.00000000001",
		"99.99", "99.990", "99.989999", "-2.5", "-2.50", "-2.4999999999999", "123456789012345", "123456789012346",
		"1234567890123456", "0.30000000000000004", "0.3", "1e2", "1E-1", "-1", "7", "0.000000000000001", "-123456789012345"}
	decided := 0
	for _, src := range schemas {
		var doc any
		if err := json.Unmarshal([]byte(src), &doc); err != nil {
			t.Fatal(err)
		}
		c := jsonschema.NewCompiler()
		if err := c.AddResource("s.json", doc); err != nil {
			t.Fatal(err)
		}
		sch, err := c.Compile("s.json")
		if err != nil {
			t.Fatal(err)
		}
		n, _, why := compileFast(sch)
		if n == nil {
			t.Fatalf("%s: no fast path: %s", src, why)
		}
		for _, num := range numbers {
			valid, ok := quickNumber(n, []byte(num))
			if !ok {
				continue
			}
			decided++
			d, dok := parseDecimal([]byte(num))
			var sc *scanner
			if want := dok && sc.numberCheck(n, []byte(num), d); valid != want {
				t.Errorf("%s, %s: quickNumber %v, numberCheck %v", src, num, valid, want)
			}
		}
	}
	if decided < 100 {
		t.Errorf("quickNumber decided only %d cases", decided)
	}
}

// props finds every declared name, through the key table or the map, and
// nothing else.
func TestPropsFind(t *testing.T) {
	t.Parallel()
	var many []string
	for i := range 100 {
		many = append(many, fmt.Sprint("field_", i))
	}
	for _, names := range [][]string{{"owner", "repo", "page"}, {"axxb", "ayxb"}, many} {
		var list []prop
		for _, n := range names {
			list = append(list, prop{name: n})
		}
		var ps props
		ps.set(list)
		for i, n := range names {
			pr := ps.find([]byte(n))
			switch {
			case pr == nil || pr.name != n:
				t.Errorf("find(%q) = %v", n, pr)
			case i < maxTracked && pr.idx != i, i >= maxTracked && pr.idx != -1:
				t.Errorf("find(%q).idx = %d, want %d", n, pr.idx, i)
			}
		}
		for _, other := range []string{"owner2", "x", "repO", "field_100", "azxb", ""} {
			if pr := ps.find([]byte(other)); pr != nil {
				t.Errorf("find(%q) = %q, want nothing", other, pr.name)
			}
		}
	}
}
