package layer_test

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestImportSeams checks the import rules of DESIGN.md with go list -deps:
// no layer knows another, and the packages below the layers (claims,
// sources, locations) know no layer. A rule names a package and the
// packages that must not be among its dependencies.
func TestImportSeams(t *testing.T) {
	t.Parallel()
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
			deps := map[string]bool{}
			for _, d := range goList(t, "-deps", "-f", "{{.ImportPath}}", mod+pkg) {
				deps[d] = true
			}
			if !deps[mod+pkg] {
				t.Fatalf("go list did not list %s itself", pkg)
			}
			for _, b := range banned {
				if deps[mod+b] {
					t.Errorf("%s depends on %s", pkg, b)
				}
			}
		})
	}
}

// TestLayerImportsOnlyResult checks the rule of the package doc and
// DESIGN.md: package layer imports only result and the standard library,
// so that what a layer needs beyond them is declared on the layer, not
// known to the package (as the source indexes once were).
func TestLayerImportsOnlyResult(t *testing.T) {
	t.Parallel()
	const mod = "github.com/agentjudge/judge/"
	imports := goList(t, "-f", `{{join .Imports "\n"}}`, mod+"layer")
	if len(imports) == 0 {
		t.Fatal("go list found no import of package layer")
	}
	lines := goList(t, append([]string{"-f", "{{.ImportPath}} {{.Standard}}"}, imports...)...)
	sawResult := false
	for _, line := range lines {
		path, std, _ := strings.Cut(line, " ")
		switch {
		case path == mod+"result":
			sawResult = true
		case std != "true":
			t.Errorf("package layer imports %s, which is neither result nor the standard library", path)
		}
	}
	if !sawResult {
		t.Errorf("package layer does not import result, so this test no longer lists what it should: %q", lines)
	}
}

// TestCoreKnowsNoDriver checks the rule of STYLE.md §5 and DESIGN.md: the
// core (the root package, result, layer/..., manifest, toolcall, trace)
// and every package of this module it depends on import neither net/http
// nor cobra nor the MCP SDK. The one exception is internal/llm, the client
// of the model's API, which speaks HTTP to it; cobra and the MCP SDK are
// not allowed anywhere below the core, even through a third party.
func TestCoreKnowsNoDriver(t *testing.T) {
	t.Parallel()
	const mod = "github.com/agentjudge/judge"
	core := []string{mod, mod + "/result", mod + "/layer/...", mod + "/manifest", mod + "/toolcall", mod + "/trace"}
	lines := goList(t, append([]string{"-deps", "-f", `{{.ImportPath}} {{join .Imports ","}}`}, core...)...)
	driver := func(imp string) bool {
		return imp == "net/http" || strings.HasPrefix(imp, "github.com/spf13/cobra") ||
			strings.HasPrefix(imp, "github.com/modelcontextprotocol/")
	}
	sawToolcall := false
	for _, line := range lines {
		pkg, imports, _ := strings.Cut(line, " ")
		sawToolcall = sawToolcall || pkg == mod+"/toolcall"
		if strings.HasPrefix(pkg, "github.com/spf13/cobra") || strings.HasPrefix(pkg, "github.com/modelcontextprotocol/") {
			t.Errorf("the core depends on %s", pkg)
		}
		if pkg != mod && !strings.HasPrefix(pkg, mod+"/") || pkg == mod+"/internal/llm" {
			continue
		}
		for _, imp := range strings.Split(imports, ",") {
			if driver(imp) {
				t.Errorf("%s, in the core or below it, imports %s", pkg, imp)
			}
		}
	}
	if !sawToolcall {
		t.Fatalf("go list did not list toolcall, so this test no longer lists what it should: %q", lines)
	}
}

// TestGatewayKnowsNoServer checks that the gateway, a front end beside the
// HTTP server, reaches the core without the server: neither server nor
// server/api is among its dependencies (the wire types both decode live in
// the core, as toolcall.CheckRequest).
func TestGatewayKnowsNoServer(t *testing.T) {
	t.Parallel()
	const mod = "github.com/agentjudge/judge/"
	deps := goList(t, "-deps", "-f", "{{.ImportPath}}", mod+"gateway")
	if !slices.Contains(deps, mod+"gateway") {
		t.Fatalf("go list did not list gateway itself: %q", deps)
	}
	for _, d := range deps {
		if d == mod+"server" || strings.HasPrefix(d, mod+"server/") {
			t.Errorf("gateway depends on %s", d)
		}
	}
}

// goList runs go list with args and returns its lines; t is skipped when
// the go command is not on PATH and fails when go list does.
func goList(t *testing.T, args ...string) []string {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("the go command is not on PATH, so the import graph cannot be listed")
	}
	out, err := exec.Command("go", append([]string{"list"}, args...)...).Output()
	if err != nil {
		t.Fatalf("go list %v: %v", args, err)
	}
	var lines []string
	for _, l := range strings.Split(string(out), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	return lines
}
