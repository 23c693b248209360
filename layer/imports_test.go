package layer_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestImportSeams checks the import rules of DESIGN.md with go list -deps:
// no layer knows another, and the packages below the layers (claims,
// sources, locations) know no layer. A rule names a package and the
// packages that must not be among its dependencies.
func TestImportSeams(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("the go command is not on PATH, so the import graph cannot be listed")
	}
	const mod = "github.com/agentjudge/judge/"
	layers := []string{"layer/schema", "layer/criteria", "layer/facts", "layer/hallucination", "layer/quality"}
	rules := map[string][]string{
		"internal/claim":    append([]string{"layer"}, layers...),
		"internal/source":   append([]string{"layer"}, layers...),
		"internal/location": append([]string{"layer"}, layers...),
	}
	for _, l := range layers {
		for _, other := range layers {
			if other != l {
				rules[l] = append(rules[l], other)
			}
		}
	}
	for pkg, banned := range rules {
		t.Run(pkg, func(t *testing.T) {
			t.Parallel()
			out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}", mod+pkg).Output()
			if err != nil {
				t.Fatalf("go list -deps %s: %v", pkg, err)
			}
			deps := map[string]bool{}
			for _, d := range strings.Fields(string(out)) {
				deps[d] = true
			}
			if !deps[mod+pkg] {
				t.Fatalf("go list did not list %s itself:\n%s", pkg, out)
			}
			for _, b := range banned {
				if deps[mod+b] {
					t.Errorf("%s depends on %s", pkg, b)
				}
			}
		})
	}
}
