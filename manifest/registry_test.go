package manifest_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/agentjudge/judge/manifest"
	"github.com/agentjudge/judge/result"
)

// writeArchive writes the files of a txtar archive, but its want section,
// into a new temporary directory and returns the directory and the want
// lines.
func writeArchive(t *testing.T, file string) (string, *txtar.Archive, []string, int) {
	t.Helper()
	ar, err := txtar.ParseFile(file)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var want []string
	wantAt := -1
	for i, f := range ar.Files {
		if f.Name == "want" {
			wantAt = i
			for _, line := range strings.Split(string(f.Data), "\n") {
				if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
					want = append(want, line)
				}
			}
			continue
		}
		writeFile(t, dir, f.Name, f.Data)
	}
	return dir, ar, want, wantAt
}

// TestRegistries lints each registry of testdata/registries (manifests in
// the conventions of real public registries, rewritten) and compares its
// errors and warnings with the archive's want section: a registry with an
// empty want section must lint with none (no false error), and one with
// planted defects must report exactly them.
func TestRegistries(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("testdata/registries/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no registry archives: %v", err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			t.Parallel()
			dir, ar, want, wantAt := writeArchive(t, file)
			rep := lintDir(t, dir)
			got := findings(rep, dir)
			if *update {
				ar.Files[wantAt].Data = []byte(strings.Join(got, "\n") + "\n")
				if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			compareFindings(t, got, want)
			for key, r := range rep.Results {
				for _, is := range r.Issues {
					if is.Severity == result.Info {
						t.Logf("%s: info %s %s %s", key, is.Location, is.Rule, is.Message)
					}
				}
			}
		})
	}
}

// TestRegistryDetails checks what the fixture registries' want sections
// cannot: messages, strictness, duplicates by path identity and the
// registry file given through LoadFiles.
func TestRegistryDetails(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir, _, _, _ := writeArchive(t, "testdata/registries/rye_defects.txtar")
	rep := lintDir(t, dir)
	r := rep.Results["rye/core/runtimes/node_runtime"]
	if r == nil || len(r.Issues) == 0 || !strings.Contains(r.Issues[0].Suggestion, "'rye/core/primitives/subprocess'") {
		t.Errorf("unresolvable executor: want the closest id in the suggestion, got %+v", r)
	}
	r = rep.Results["rye/lilux/exec"]
	if r == nil || !slices.ContainsFunc(r.Issues, func(is result.Issue) bool {
		return is.Rule == "manifest.primitive_undeclared" && strings.Contains(is.Suggestion, "primitives: [lilux]")
	}) {
		t.Errorf("undeclared @lilux: want a warning naming the declaration, got %+v", r)
	}
	if r := rep.Results["rye/graph/walk"]; r == nil || !r.Valid || !slices.Contains(r.Metadata.ValidationTypesRun, "executor_graph") {
		t.Errorf("undeclared type: want valid with the executor chain still checked, got %+v", r)
	}

	// --strict makes the unknown fields of the registry convention warnings.
	dir, _, _, _ = writeArchive(t, "testdata/registries/ryeos_undeclared.txtar")
	reg, err := manifest.LoadDirs(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	count := func(opts manifest.LintOptions) (warn, info int) {
		rep, err := manifest.LintWith(ctx, reg, opts)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rep.Results {
			for _, is := range r.Issues {
				if is.Rule == "manifest.unknown_field" {
					if is.Severity == result.Warning {
						warn++
					} else {
						info++
					}
				}
			}
		}
		return warn, info
	}
	if w, i := count(manifest.LintOptions{}); w != 0 || i == 0 {
		t.Errorf("default: %d warnings, %d infos for unknown fields; want infos only", w, i)
	}
	if w, i := count(manifest.LintOptions{Strict: true}); w == 0 || i != 0 {
		t.Errorf("strict: %d warnings, %d infos for unknown fields; want warnings only", w, i)
	}

	// Path identity keeps duplicates errors; the registry file comes
	// through LoadFiles too.
	tool := "category: a/b\nname: x\nversion: \"1.0.0\"\ndescription: d\nexecutor_id: \"@gpu\"\ntool_type: job\n"
	reg, err = manifest.LoadFiles(ctx, []manifest.File{
		{Path: manifest.RegistryFile, Content: "primitives: [gpu]\ntypes:\n  job: {base: runtime, executor: required}\n"},
		{Path: "a/b/x.yaml", Content: tool},
		{Path: "c/x.yaml", Content: tool},
	})
	if err != nil {
		t.Fatal(err)
	}
	rep, err = manifest.Lint(ctx, reg)
	if err != nil {
		t.Fatal(err)
	}
	got := findings(rep, "")
	want := []string{
		"a/b/x.yaml a/b/x.yaml:1:1 missing_field manifest.runtime.command",
		"a/b/x.yaml a/b/x.yaml:2:7 duplicate_id manifest.duplicate_id",
		"c/x.yaml c/x.yaml:1:1 missing_field manifest.runtime.command",
		"c/x.yaml c/x.yaml:2:7 duplicate_id manifest.duplicate_id",
	}
	if !slices.Equal(got, want) {
		t.Errorf("findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestParseConventionsErrors(t *testing.T) {
	t.Parallel()
	tests := []struct{ src, want string }{
		{"types: [a]", "r.yaml:1:8: types must be a mapping"},
		{"types:\n  script: {base: runtime}", "r.yaml:2:11: type \"script\" is one of the eight"},
		{"types:\n  job: {base: nope}", "r.yaml:2:15: base of type \"job\" must be one of"},
		{"types:\n  job: {executor: none}", "r.yaml:2:8: type \"job\" has no base"},
		{"primitives: gpu", "r.yaml:1:13: primitives must be a list"},
		{"tpyes: {}", "r.yaml:1:8: unknown key \"tpyes\""},
		{"types: {a: [", "r.yaml"},
		{"required: executor_id", "r.yaml:1:11: required must be a list"},
		{"data: [../outside]", "r.yaml:1:8: data folder \"../outside\" is not a slash-separated path"},
		{"kind_schema: [a]", "r.yaml:1:14: kind_schema must be the path"},
	}
	for _, tt := range tests {
		_, err := manifest.ParseConventions("r.yaml", []byte(tt.src))
		var le *manifest.LoadError
		if !errors.As(err, &le) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%q: got %v, want a *LoadError containing %q", tt.src, err, tt.want)
		}
	}
}

// TestSignatureScript checks a signed script with a shebang: the hash
// covers what follows the header line, so the script as signed passes and
// an edit after signing is stale.
func TestSignatureScript(t *testing.T) {
	t.Parallel()
	body := "__version__ = \"1.0.0\"\n__tool_type__ = \"script\"\n__executor_id__ = \"python_runtime\"\n__description__ = \"Say hi to the user who runs the script\"\nprint('hi')\n"
	sum := sha256.Sum256([]byte(body))
	header := "#!/usr/bin/env python3\n# rye:signed:2026-02-15T07:11:41Z:" + hex.EncodeToString(sum[:]) + ":c2ln:440443d0858f0199\n"
	runtime := manifest.File{Path: "python_runtime.yaml", Content: "tool_id: python_runtime\ntool_type: runtime\nversion: \"1.0.0\"\ndescription: Python\nexecutor: subprocess\nconfig:\n  command: python3\n"}
	for _, tt := range []struct {
		content string
		stale   bool
	}{
		{header + body, false},
		{header + strings.Replace(body, "hi", "bye", 1), true},
	} {
		reg, err := manifest.LoadFiles(context.Background(), []manifest.File{runtime, {Path: "hi.py", Content: tt.content}})
		if err != nil {
			t.Fatal(err)
		}
		rep, err := manifest.Lint(context.Background(), reg)
		if err != nil {
			t.Fatal(err)
		}
		r := rep.Results["hi"]
		if r == nil {
			t.Fatalf("no result for hi: %v", rep.Keys())
		}
		stale := slices.ContainsFunc(r.Issues, func(is result.Issue) bool {
			return is.Rule == "manifest.signature_stale" && is.Location == "hi.py:2:1"
		})
		if stale != tt.stale || len(r.Issues) != map[bool]int{false: 0, true: 1}[tt.stale] {
			t.Errorf("stale=%v: issues %+v", tt.stale, r.Issues)
		}
	}
}

// TestCallerConventions checks declarations given by the caller (judge's
// config file) through LoadFilesWith and LoadDirsWith: alone they declare
// the types, primitives and fields; merged with a registry file the
// primitives and fields add up and the registry file's type wins.
func TestCallerConventions(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	tool := "category: a\nname: job\nversion: \"1.0.0\"\ndescription: d\nexecutor_id: \"@gpu\"\ntool_type: job\nanchor: x\nconfig: {command: run}\n"
	caller := manifest.Conventions{
		Primitives: []string{"gpu"},
		Types:      map[string]manifest.TypeDecl{"job": {Base: manifest.Runtime, Requires: []string{"start"}}},
		Fields:     []string{"anchor"},
	}
	rules := func(files []manifest.File, conv manifest.Conventions) []string {
		t.Helper()
		reg, err := manifest.LoadFilesWith(ctx, conv, files)
		if err != nil {
			t.Fatal(err)
		}
		rep, err := manifest.LintWith(ctx, reg, manifest.LintOptions{Strict: true})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, r := range rep.Results {
			for _, is := range r.Issues {
				out = append(out, string(is.Severity)+" "+is.Rule)
			}
		}
		slices.Sort(out)
		return out
	}
	files := []manifest.File{{Path: "a/job.yaml", Content: tool}}
	// Without declarations: an undeclared type, an undeclared @gpu and,
	// strict, an unknown field.
	none := rules(files, manifest.Conventions{})
	for _, want := range []string{"warning manifest.primitive_undeclared", "warning manifest.unknown_field"} {
		if !slices.Contains(none, want) {
			t.Errorf("no declarations: want %q among %v", want, none)
		}
	}
	// The caller's declarations alone: the type is a runtime that
	// requires config.start, the primitive and the field are known.
	got := rules(files, caller)
	if want := []string{"error manifest.declared_type.requires"}; !slices.Equal(got, want) {
		t.Errorf("caller's declarations: got %v, want %v", got, want)
	}
	// A registry file declaring the same type wins over the caller's;
	// the caller's primitive and field still count.
	withFile := append(slices.Clone(files), manifest.File{Path: manifest.RegistryFile, Content: "types:\n  job: {base: runtime}\n"})
	if got := rules(withFile, caller); len(got) != 0 {
		t.Errorf("registry file over caller: got %v, want no issue", got)
	}
	// The same through LoadDirsWith.
	dir := t.TempDir()
	writeFile(t, dir, "a/job.yaml", []byte(tool))
	reg, err := manifest.LoadDirsWith(ctx, caller, dir)
	if err != nil {
		t.Fatal(err)
	}
	if c := reg.Conventions(); !slices.Contains(c.Primitives, "gpu") || c.Types["job"].Base != manifest.Runtime {
		t.Errorf("LoadDirsWith conventions: %+v", c)
	}
	// Malformed declarations are refused before anything is read.
	for _, bad := range []manifest.Conventions{
		{Types: map[string]manifest.TypeDecl{"job": {Base: "nope"}}},
		{Types: map[string]manifest.TypeDecl{"script": {Base: manifest.Runtime}}},
		{Types: map[string]manifest.TypeDecl{"job": {Base: manifest.Runtime, Executor: "maybe"}}},
		{Primitives: []string{"@"}},
	} {
		if _, err := manifest.LoadFilesWith(ctx, bad, files); err == nil {
			t.Errorf("%+v: want an error", bad)
		}
		if _, err := manifest.LoadDirsWith(ctx, bad, dir); err == nil {
			t.Errorf("LoadDirsWith %+v: want an error", bad)
		}
	}
}

// TestRegistryDialect checks what the dialect archives' want sections
// cannot: the severity and words of each finding, that data among the
// tools is one note and nothing else, and the thresholds of the rules
// that depend on what the rest of the registry does.
func TestRegistryDialect(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir, _, _, _ := writeArchive(t, "testdata/registries/dialect.txtar")
	rep := lintDir(t, dir)
	for _, key := range []string{"ryeos/process/run", "ryeos/process/kill"} {
		r := rep.Results[key]
		if r == nil || !r.Valid || r.Metadata.WarningCount != 1 || r.Issues[0].Severity != result.Warning ||
			!strings.Contains(r.Issues[0].Message, "2 of the registry's 8 tools omit it") {
			t.Errorf("%s: want valid with one warning that 2 of 8 tools omit version, got %+v", key, r)
		}
	}
	r := rep.Results["ryeos/files/write_file"]
	if r == nil || r.Metadata.WarningCount != 1 || r.Issues[0].Severity != result.Warning || r.Issues[0].Rule != "manifest.signature_stale" ||
		!strings.Contains(r.Issues[0].Message, filepath.Join(dir, "ryeos/files/write_file.yaml")) || !strings.Contains(r.Issues[0].Message, "3 other files") {
		t.Errorf("write_file: want one stale-signature warning naming the file and the 3 files that verify, got %+v", r)
	}
	for _, name := range []string{"core", "aliases", "hierarchy"} {
		var r *result.ValidationResult
		for k, v := range rep.Results {
			if strings.HasSuffix(k, "/"+name+".yaml") || k == name {
				r = v
			}
		}
		if r == nil || !r.Valid || len(r.Issues) != 1 || r.Issues[0].Rule != "manifest.not_a_tool" || r.Issues[0].Severity != result.Info ||
			!strings.Contains(r.Issues[0].Message, "is not read as a tool manifest: it has none of the fields") {
			t.Errorf("capabilities/%s.yaml: want one not_a_tool note, got %+v (keys %v)", name, r, rep.Keys())
		}
	}

	// The declared registry: no capability list is loaded at all.
	dir, _, _, _ = writeArchive(t, "testdata/registries/dialect_declared.txtar")
	rep = lintDir(t, dir)
	for _, k := range rep.Keys() {
		if strings.Contains(k, "capabilities") || k == "core" || k == "aliases" {
			t.Errorf("a file of the data folder was loaded: %s", k)
		}
	}
	if r := rep.Results["ryeos/process/kill"]; r == nil || r.Valid || !strings.Contains(r.Issues[0].Message, "Required field 'executor_id' is missing ("+filepath.Join(dir, ".judge-registry.yaml")+" declares it required)") {
		t.Errorf("kill: want the declared executor_id missing, got %+v", r)
	}

	load := func(files ...manifest.File) *manifest.Report {
		t.Helper()
		reg, err := manifest.LoadFiles(ctx, files)
		if err != nil {
			t.Fatal(err)
		}
		rep, err := manifest.Lint(ctx, reg)
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
	tool := func(name string, version bool, extra string) manifest.File {
		v := "version: \"1.0.0\"\n"
		if !version {
			v = ""
		}
		return manifest.File{Path: "t/" + name + ".yaml", Content: "category: t\n" + v + "description: Say hello to the user who runs the tool\nexecutor_id: \"@subprocess\"\nconfig:\n  command: echo" + extra + "\n"}
	}
	issueOf := func(rep *manifest.Report, key, rule string) *result.Issue {
		for _, is := range rep.Results[key].Issues {
			if is.Rule == rule {
				return &is
			}
		}
		return nil
	}
	// Fewer than a quarter of the tools without version: the spec's error.
	files := []manifest.File{tool("a", false, "")}
	for _, n := range []string{"b", "c", "d", "e"} {
		files = append(files, tool(n, true, ""))
	}
	if is := issueOf(load(files...), "t/a", "manifest.version"); is == nil || is.Severity != result.Error {
		t.Errorf("1 of 5 without version: want an error, got %+v", is)
	}
	// A declaration that names version keeps it an error; the kind
	// definition named by kind_schema, beside the tools, declares too.
	decl := manifest.File{Path: manifest.RegistryFile, Content: "required: [version, executor_id]\n"}
	if is := issueOf(load(append(files[:2:2], decl, tool("x", false, ""))...), "t/a", "manifest.version"); is == nil || is.Severity != result.Error || !strings.Contains(is.Message, "declares it required") {
		t.Errorf("declared version: want an error naming the declaration, got %+v", is)
	}
	// Declared by the caller (judge's configuration) instead.
	reg, err := manifest.LoadFilesWith(ctx, manifest.Conventions{Required: []string{"executor_id", "license"}}, files)
	if err != nil {
		t.Fatal(err)
	}
	crep, err := manifest.Lint(ctx, reg)
	if err != nil {
		t.Fatal(err)
	}
	if is := issueOf(crep, "t/b", "manifest.required"); is == nil || is.Message != "Required field 'license' is missing (judge's configuration declares it required)" {
		t.Errorf("caller's declaration: got %+v", is)
	}
	if is := issueOf(crep, "t/a", "manifest.version"); is != nil {
		t.Errorf("caller's declaration without version: want no version finding, got %+v", is)
	}
	root := t.TempDir()
	writeFile(t, root, "kinds/tool.yaml", []byte("kind: tool\nrequired_metadata: [executor_id]\n"))
	writeFile(t, root, "tools/"+manifest.RegistryFile, []byte("kind_schema: ../kinds/tool.yaml\n"))
	writeFile(t, root, "tools/t/a.yaml", []byte(files[0].Content))
	writeFile(t, root, "tools/t/b.yaml", []byte(files[1].Content))
	writeFile(t, root, "tools/t/c.yaml", []byte(files[2].Content))
	writeFile(t, root, "tools/t/d.yaml", []byte(files[3].Content))
	writeFile(t, root, "tools/t/e.yaml", []byte(files[4].Content))
	if got := findings(lintDir(t, filepath.Join(root, "tools")), filepath.Join(root, "tools")); len(got) != 0 {
		t.Errorf("kind definition without version: want no finding, got %q", got)
	}
	// Without kind_schema, the kind definition beside the tools directory
	// is found; one about another kind is not taken for it.
	side := t.TempDir()
	writeFile(t, side, ".ai/kinds/knowledge.yaml", []byte("required_metadata: [version, title]\n"))
	writeFile(t, side, ".ai/kinds/tool/schema.yaml", []byte("schema:\n  required_metadata: [executor_id, license]\n"))
	for _, f := range files {
		writeFile(t, side, ".ai/tools/"+f.Path, []byte(f.Content))
	}
	srep := lintDir(t, filepath.Join(side, ".ai/tools"))
	if got := findings(srep, filepath.Join(side, ".ai/tools")); len(got) != 5 || !strings.HasSuffix(got[0], "missing_field manifest.required") {
		t.Errorf("kind definition beside the tools: want license missing on each of the 5 tools and no version finding, got %q", got)
	}
	if is := issueOf(srep, "t/a", "manifest.required"); is == nil || !strings.Contains(is.Message, filepath.Join(side, ".ai/kinds/tool/schema.yaml")+" declares it required") {
		t.Errorf("kind definition beside the tools: want the finding to name it, got %+v", is)
	}
	// A sibling registry's kind definition is not this one's.
	sib := t.TempDir()
	writeFile(t, sib, "other/kinds/tool.yaml", []byte("required_metadata: [executor_id]\n"))
	for _, f := range files {
		writeFile(t, sib, "mine/"+f.Path, []byte(f.Content))
	}
	if is := issueOf(lintDir(t, filepath.Join(sib, "mine")), "t/a", "manifest.version"); is == nil || is.Severity != result.Error {
		t.Errorf("sibling registry's kind definition: want the spec's version error, got %+v", is)
	}
	writeFile(t, root, "tools/"+manifest.RegistryFile, []byte("kind_schema: ../kinds/missing.yaml\n"))
	if _, err := manifest.LoadDirs(ctx, filepath.Join(root, "tools")); err == nil || !strings.Contains(err.Error(), "missing.yaml that kind_schema names cannot be read") {
		t.Errorf("missing kind definition: got %v", err)
	}

	// A scheme judge does not know is recomputed only on the proof of two
	// other files that verify; a known scheme always.
	sign := func(scheme string, f manifest.File, edit bool) manifest.File {
		sum := sha256.Sum256([]byte(f.Content))
		if edit {
			f.Content = strings.Replace(f.Content, "echo", "true", 1)
		}
		f.Content = "# " + scheme + ":signed:2026-09-01T10:00:00Z:" + hex.EncodeToString(sum[:]) + ":c2ln:k1\n" + f.Content
		return f
	}
	for _, tt := range []struct {
		scheme string
		ok     int
		want   string
	}{
		{"acme", 2, "manifest.signature_stale"},
		{"acme", 1, "manifest.signature"},
		{"rye", 0, "manifest.signature_stale"},
	} {
		files := []manifest.File{sign(tt.scheme, tool("a", true, ""), true)}
		for i := range tt.ok {
			files = append(files, sign(tt.scheme, tool(string(rune('b'+i)), true, ""), false))
		}
		rep := load(files...)
		if is := issueOf(rep, "t/a", tt.want); is == nil {
			t.Errorf("%s with %d others verified: want %s, got %+v", tt.scheme, tt.ok, tt.want, rep.Results["t/a"].Issues)
		}
		for k, r := range rep.Results {
			if k != "t/a" && (r.Metadata.WarningCount+r.Metadata.ErrorCount > 0 || slices.ContainsFunc(r.Issues, func(is result.Issue) bool { return strings.HasPrefix(is.Rule, "manifest.signature") })) {
				t.Errorf("%s: a file as signed gets %+v", k, r.Issues)
			}
		}
	}
}
