package result

import (
	"fmt"
	"testing"
)

func TestCheckLocation(t *testing.T) {
	t.Parallel()
	tests := []struct {
		loc string
		ok  bool
	}{
		// The specification's format examples.
		{"user.profile.email", true},
		{"tasks[2].status", true},
		{"function:calculate_average", true},
		{"line:42", true},
		{"file:auth.py:line:87", true},
		{"root", true},
		{"N/A", true},
		// Its Example 3: an attribute stated in a field's text.
		{"summary:cvss_score", true},
		{"line:3:discoverer", true},
		// Code in a field, a function's line, a column.
		{"solution.code:function:run:line:3", true},
		{"steps[0]:line:7", true},
		{"line:2:column:5", true},
		{"acceptance_criteria[2]", true},
		{`["odd key"].x`, true},
		{`a["b]c"]`, true},
		{"", true},
		// Not the grammar.
		{"options.quality.", false},
		{"expected_schema/type", false},
		{"line:0", false},
		{"line:x", false},
		{"function:", false},
		{"a..b", false},
		{"a[x]", false},
		{"customer:Email", false},
		{"tools/x.yaml:3:5", false},
		{"file:a.py", false},
	}
	for _, tc := range tests {
		if err := CheckLocation(tc.loc); (err == nil) != tc.ok {
			t.Errorf("CheckLocation(%q) = %v, want ok %v", tc.loc, err, tc.ok)
		}
	}
}

func ExampleCheckLocation() {
	for _, loc := range []string{"tasks[2].status", "solution.code:function:run:line:3", "customer.email:", "line:0"} {
		fmt.Println(loc, CheckLocation(loc) == nil)
	}
	// Output:
	// tasks[2].status true
	// solution.code:function:run:line:3 true
	// customer.email: false
	// line:0 false
}
