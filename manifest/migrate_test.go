package manifest_test

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/agentjudge/judge/manifest"
)

// snapshot is what a migration must keep of each tool.
type snapshot struct {
	Executor string
	Type     manifest.ToolType
	Version  string
	Schema   map[string]any
}

func snapshots(t *testing.T, dir string) map[string]snapshot {
	t.Helper()
	reg, err := manifest.LoadDirs(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]snapshot{}
	for _, tool := range reg.Tools() {
		if tool.ID != "" {
			out[tool.ID] = snapshot{tool.Executor, tool.Type, tool.Version, tool.Schema()}
		}
	}
	return out
}

// TestMigrateRoundTrip migrates the scripts with embedded metadata of the
// valid fixture tree into manifest form, applies the plans as the CLI's
// --write does, and checks that the tree lints with the same tool ids,
// executors, types, versions and parameter schemas, and still clean.
func TestMigrateRoundTrip(t *testing.T) {
	t.Parallel()
	dir := copyTree(t)
	before := snapshots(t, dir)
	reg, err := manifest.LoadDirs(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	plans, skipped, err := manifest.PlanMigrations(reg)
	if err != nil {
		t.Fatal(err)
	}
	if len(skipped) > 0 {
		t.Errorf("skipped: %v", skipped)
	}
	var ids []string
	for _, p := range plans {
		ids = append(ids, p.Tool)
		for _, f := range []manifest.File{p.Manifest, p.Script} {
			writeFile(t, dir, f.Path, []byte(f.Content))
		}
		if err := os.Remove(filepath.Join(dir, filepath.FromSlash(p.From))); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(p.Script.Content, "tool_id:") || strings.Contains(p.Script.Content, "__tool_id__") {
			t.Errorf("%s: metadata left in the script:\n%s", p.Tool, p.Script.Content)
		}
		if d := p.Diff(); !strings.Contains(d, "+++ b/"+p.Manifest.Path) || !strings.Contains(d, "\n-") {
			t.Errorf("%s: diff does not show the new manifest and the removed lines:\n%s", p.Tool, d)
		}
	}
	if want := []string{"cleanup_tmp", "slugify", "word_count"}; !reflect.DeepEqual(ids, want) {
		t.Errorf("migrated %v, want %v", ids, want)
	}
	after := snapshots(t, dir)
	if !reflect.DeepEqual(before, after) {
		for id := range before {
			if !reflect.DeepEqual(before[id], after[id]) {
				t.Errorf("%s: before %+v, after %+v", id, before[id], after[id])
			}
		}
	}
	if got := findings(lintDir(t, dir), dir); len(got) > 0 {
		t.Errorf("migrated tree has findings:\n%s", strings.Join(got, "\n"))
	}
	reg, err = manifest.LoadDirs(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	if plans, _, _ := manifest.PlanMigrations(reg); len(plans) != 0 {
		t.Errorf("a second migration plans %d more", len(plans))
	}
}
