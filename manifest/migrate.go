package manifest

import (
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/goccy/go-yaml"
)

// Migration turns one script with embedded metadata into manifest form: a
// directory holding tool.yaml and the script, its metadata removed.
type Migration struct {
	// Tool is the tool_id, the same before and after.
	Tool string `json:"tool"`
	// Root is the index of the root (of [Registry]'s directories) the
	// paths are relative to.
	Root int `json:"root"`
	// From is the script's path inside its root.
	From string `json:"from"`
	// Dir is the new tool directory; Manifest and Script are its files.
	Dir      string `json:"dir"`
	Manifest File   `json:"manifest"`
	Script   File   `json:"script"`
	// Mode is the script's file mode, to keep it executable.
	Mode fs.FileMode `json:"-"`
	// Removed are the 1-based lines of the script that held metadata.
	Removed []int `json:"removed"`
	// Old is the script as it was, for the diff.
	Old string `json:"-"`
}

// Diff renders m as a unified diff: the new tool.yaml, and the script
// moved into the directory with its metadata lines removed.
func (m *Migration) Diff() string {
	var sb strings.Builder
	y := strings.Split(strings.TrimSuffix(m.Manifest.Content, "\n"), "\n")
	fmt.Fprintf(&sb, "--- /dev/null\n+++ b/%s\n@@ -0,0 +1,%d @@\n", m.Manifest.Path, len(y))
	for _, l := range y {
		sb.WriteString("+" + l + "\n")
	}
	old := strings.Split(strings.TrimSuffix(m.Old, "\n"), "\n")
	fmt.Fprintf(&sb, "--- a/%s\n+++ b/%s\n", m.From, m.Script.Path)
	removed := map[int]bool{}
	for _, r := range m.Removed {
		removed[r-1] = true
	}
	// One hunk per run of removed lines, with three lines of context.
	const ctx = 3
	before := func(k int) int { // removed lines before index k
		n := 0
		for _, r := range m.Removed {
			if r-1 < k {
				n++
			}
		}
		return n
	}
	for i := 0; i < len(old); i++ {
		if !removed[i] {
			continue
		}
		last := i
		for j := i + 1; j < len(old) && j <= last+2*ctx; j++ {
			if removed[j] {
				last = j
			}
		}
		start, end := max(i-ctx, 0), min(last+ctx+1, len(old))
		var body strings.Builder
		newN := 0
		for k := start; k < end; k++ {
			if removed[k] {
				body.WriteString("-" + old[k] + "\n")
			} else {
				body.WriteString(" " + old[k] + "\n")
				newN++
			}
		}
		fmt.Fprintf(&sb, "@@ -%d,%d +%d,%d @@\n%s", start+1, end-start, start-before(start)+1, newN, body.String())
		i = end - 1
	}
	return sb.String()
}

// PlanMigrations returns the migration of every script with embedded
// metadata in reg, by path. A script whose metadata cannot be read (a YAML
// error) or whose directory would collide with an existing file is
// skipped with a reason in skipped.
func PlanMigrations(reg *Registry) (plans []Migration, skipped []string, err error) {
	for _, t := range reg.Tools() {
		if t.Form != FormEmbedded || t.doc == nil {
			continue
		}
		if t.broken || t.ID == "" {
			skipped = append(skipped, t.Path+": its metadata cannot be read; run judge tools lint")
			continue
		}
		fsys := reg.fsys[t.root]
		base := path.Base(t.rel)
		stem := strings.TrimSuffix(base, path.Ext(base))
		dir := path.Join(path.Dir(t.rel), stem)
		if _, err := fs.Stat(fsys, dir); err == nil {
			skipped = append(skipped, t.Path+": "+dir+" already exists")
			continue
		}
		src, err := readFile(fsys, t.rel)
		if err != nil {
			return nil, nil, fmt.Errorf("manifest: migrate %s: %w", t.Path, err)
		}
		st, err := fs.Stat(fsys, t.rel)
		if err != nil {
			return nil, nil, fmt.Errorf("manifest: migrate %s: %w", t.Path, err)
		}
		manifestYAML, err := t.manifestYAML(base)
		if err != nil {
			return nil, nil, fmt.Errorf("manifest: migrate %s: %w", t.Path, err)
		}
		lines := strings.Split(string(src), "\n")
		drop := map[int]bool{}
		for i := t.metaFrom; i < t.metaTo && t.metaTo > 0; i++ {
			drop[i] = true
		}
		for _, i := range t.metaConsts {
			drop[i] = true
		}
		var kept []string
		var removed []int
		for i, l := range lines {
			if drop[i] {
				removed = append(removed, i+1)
				continue
			}
			kept = append(kept, l)
		}
		plans = append(plans, Migration{Tool: t.ID, Root: t.root, From: t.rel, Dir: dir, Mode: st.Mode().Perm(),
			Manifest: File{Path: path.Join(dir, "tool.yaml"), Content: manifestYAML},
			Script:   File{Path: path.Join(dir, base), Content: strings.Join(kept, "\n")},
			Removed:  removed, Old: string(src)})
	}
	return plans, skipped, nil
}

// manifestYAML writes t's embedded metadata as a tool.yaml, the fields in
// the order the spec lists them, with config.entrypoint set to the script.
func (t *Tool) manifestYAML(entry string) (string, error) {
	var ms yaml.MapSlice
	add := func(k string, v any) { ms = append(ms, yaml.MapItem{Key: k, Value: v}) }
	add("tool_id", t.ID)
	if t.Type != "" {
		add("tool_type", string(t.Type))
	}
	if t.Version != "" {
		add("version", t.Version)
	}
	if t.Description != "" {
		add("description", t.Description)
	}
	if t.Executor != "" {
		add("executor", t.Executor)
	}
	cfg := yaml.MapSlice{{Key: "entrypoint", Value: entry}}
	if n := t.doc.field("config"); n != nil && n.kind == kindMap {
		for _, k := range n.keys {
			if k != "entrypoint" {
				cfg = append(cfg, yaml.MapItem{Key: k, Value: ordered(n.fields[k], 0)})
			}
		}
	}
	add("config", cfg)
	done := []string{"tool_id", "tool_type", "version", "description", "executor", "executor_id", "config"}
	for _, k := range t.doc.keys {
		if !slices.Contains(done, k) {
			add(k, ordered(t.doc.fields[k], 0))
		}
	}
	b, err := yaml.MarshalWithOptions(ms, yaml.IndentSequence(true))
	if err != nil {
		return "", err
	}
	return string(b), nil
}

// ordered converts n for the YAML encoder keeping the mapping keys in
// their written order.
func ordered(n *node, depth int) any {
	if n == nil || depth > MaxDepth {
		return nil
	}
	switch n.kind {
	case kindMap:
		ms := make(yaml.MapSlice, 0, len(n.keys))
		for _, k := range n.keys {
			ms = append(ms, yaml.MapItem{Key: k, Value: ordered(n.fields[k], depth+1)})
		}
		return ms
	case kindSeq:
		out := make([]any, 0, len(n.items))
		for _, it := range n.items {
			out = append(out, ordered(it, depth+1))
		}
		return out
	}
	return n.toAny()
}
