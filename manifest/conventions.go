package manifest

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"sort"
	"strings"
)

// RegistryFile is the file at the top of a tools root where a registry
// declares its conventions: the host primitives it knows, its own tool
// types and the extra fields its manifests carry. Its name starts with a
// dot, so it is never loaded as a tool.
const RegistryFile = ".judge-registry.yaml"

// configKind is the base kind of a declared type that is configuration
// read by another tool: no executor, nothing to call.
const configKind ToolType = "config"

// Executor rules of a declared type.
const (
	ExecRequired = "required" // the tool must name an executor
	ExecNone     = "none"     // the tool's executor is null: it is configuration
	ExecOptional = "optional" // either
)

// TypeDecl declares a registry's own tool type as an alias of a base kind
// whose rules it takes.
type TypeDecl struct {
	// Base is one of the eight tool types, or "config" for configuration
	// read by another tool (no executor, no checks of its own).
	Base ToolType `json:"base"`
	// Executor is ExecRequired, ExecNone or ExecOptional; empty takes the
	// base's rule.
	Executor string `json:"executor,omitempty"`
	// Requires lists config keys every tool of the type must set.
	Requires []string `json:"requires,omitempty"`
}

// Conventions are what a registry declares about itself (see
// [RegistryFile] and docs/manifests.md). The zero value declares nothing:
// the spec's eight types, the primitives subprocess and http_client, the
// spec's fields.
type Conventions struct {
	// Primitives are host primitives beyond subprocess and http_client,
	// named as executors by bare name, by @name or by path.
	Primitives []string `json:"primitives,omitempty"`
	// Types are the registry's own tool types by name.
	Types map[string]TypeDecl `json:"types,omitempty"`
	// Fields are top-level and config fields the registry's manifests
	// carry; they are not reported as unknown.
	Fields []string `json:"fields,omitempty"`
}

// merge adds o's declarations to c.
func (c *Conventions) merge(o Conventions) {
	for _, p := range o.Primitives {
		if !slices.Contains(c.Primitives, p) {
			c.Primitives = append(c.Primitives, p)
		}
	}
	for _, f := range o.Fields {
		if !slices.Contains(c.Fields, f) {
			c.Fields = append(c.Fields, f)
		}
	}
	for k, v := range o.Types {
		if c.Types == nil {
			c.Types = map[string]TypeDecl{}
		}
		c.Types[k] = v
	}
}

// primitive reports whether ref (with any @ removed) names a host
// primitive: a built-in or a declared one, by name or by declared path.
func (c *Conventions) primitive(ref string) (string, bool) {
	name := strings.TrimPrefix(ref, "@")
	if name == Subprocess || name == HTTPClient || slices.Contains(c.Primitives, name) {
		return name, true
	}
	return "", false
}

// decl returns the declaration of type t, if the registry has one.
func (c *Conventions) decl(t ToolType) (TypeDecl, bool) {
	d, ok := c.Types[string(t)]
	return d, ok
}

// kind is the base kind whose rules a tool of type t follows: t itself
// for the eight types, the declared base for a declared type, "" when t
// is unknown.
func (c *Conventions) kind(t ToolType) ToolType {
	if t.Valid() {
		return t
	}
	if d, ok := c.decl(t); ok {
		return d.Base
	}
	return ""
}

// ParseConventions decodes a registry file (see [RegistryFile]); name is
// used in error locations.
func ParseConventions(name string, src []byte) (Conventions, error) {
	var c Conventions
	doc, err := decodeYAML(name, src, 0, 0)
	if err != nil {
		return c, &LoadError{Path: name, Msg: err.Error(), Err: err}
	}
	if doc.kind == kindNull {
		return c, nil
	}
	bad := func(n *node, format string, args ...any) error {
		return &LoadError{Path: fmt.Sprintf("%s:%d:%d", name, n.pos.Line, n.pos.Col), Msg: fmt.Sprintf(format, args...)}
	}
	if doc.kind != kindMap {
		return c, bad(doc, "the registry file is %s, not a mapping with primitives, types and fields", doc.describe())
	}
	strs := func(key string) ([]string, error) {
		n := doc.field(key)
		if n == nil || n.kind == kindNull {
			return nil, nil
		}
		if n.kind != kindSeq {
			return nil, bad(n, "%s must be a list of names, not %s", key, n.describe())
		}
		var out []string
		for _, it := range n.items {
			s, ok := it.str()
			if !ok || strings.TrimSpace(s) == "" {
				return nil, bad(it, "each entry of %s must be a non-empty string, not %s", key, it.describe())
			}
			out = append(out, strings.TrimPrefix(s, "@"))
		}
		return out, nil
	}
	for _, k := range doc.keys {
		if !slices.Contains([]string{"primitives", "types", "fields"}, k) {
			return c, bad(doc.fields[k], "unknown key %q; the keys are primitives, types and fields", k)
		}
	}
	if c.Primitives, err = strs("primitives"); err != nil {
		return c, err
	}
	if c.Fields, err = strs("fields"); err != nil {
		return c, err
	}
	types := doc.field("types")
	if types == nil || types.kind == kindNull {
		return c, nil
	}
	if types.kind != kindMap {
		return c, bad(types, "types must be a mapping of type name to {base, executor, requires}, not %s", types.describe())
	}
	c.Types = map[string]TypeDecl{}
	bases := declBases()
	for _, name := range types.keys {
		n := types.fields[name]
		if ToolType(name).Valid() {
			return c, bad(n, "type %q is one of the eight built-in types and cannot be redeclared", name)
		}
		if n.kind != kindMap {
			return c, bad(n, "type %q must be a mapping with base (one of %s), not %s", name, strings.Join(bases, ", "), n.describe())
		}
		var d TypeDecl
		for _, k := range n.keys {
			v := n.fields[k]
			switch k {
			case "base":
				s, _ := v.str()
				if !slices.Contains(bases, s) {
					return c, bad(v, "base of type %q must be one of %s", name, strings.Join(bases, ", "))
				}
				d.Base = ToolType(s)
			case "executor":
				s, _ := v.str()
				if !slices.Contains([]string{ExecRequired, ExecNone, ExecOptional}, s) {
					return c, bad(v, "executor of type %q must be required, none or optional", name)
				}
				d.Executor = s
			case "requires":
				if v.kind != kindSeq {
					return c, bad(v, "requires of type %q must be a list of config keys", name)
				}
				for _, it := range v.items {
					s, ok := it.str()
					if !ok || s == "" {
						return c, bad(it, "each entry of requires must be a config key")
					}
					d.Requires = append(d.Requires, s)
				}
			default:
				return c, bad(v, "unknown key %q in type %q; the keys are base, executor and requires", k, name)
			}
		}
		if d.Base == "" {
			return c, bad(n, "type %q has no base; give base: one of %s", name, strings.Join(bases, ", "))
		}
		c.Types[name] = d
	}
	return c, nil
}

// declBases are the base kinds a declared type may take.
func declBases() []string { return append(typeStrings(), string(configKind)) }

// Check reports what is wrong with d as the declaration of the type name,
// in the words of a registry file's errors; nil when d is well formed.
func (d TypeDecl) Check(name string) error {
	bases := declBases()
	switch {
	case strings.TrimSpace(name) == "":
		return errors.New("a declared type needs a name")
	case ToolType(name).Valid():
		return fmt.Errorf("type %q is one of the eight built-in types and cannot be redeclared", name)
	case d.Base == "":
		return fmt.Errorf("type %q has no base; give base: one of %s", name, strings.Join(bases, ", "))
	case !slices.Contains(bases, string(d.Base)):
		return fmt.Errorf("base of type %q must be one of %s", name, strings.Join(bases, ", "))
	case d.Executor != "" && !slices.Contains([]string{ExecRequired, ExecNone, ExecOptional}, d.Executor):
		return fmt.Errorf("executor of type %q must be required, none or optional", name)
	}
	for _, k := range d.Requires {
		if strings.TrimSpace(k) == "" {
			return fmt.Errorf("each entry of requires of type %q must be a config key", name)
		}
	}
	return nil
}

// Check reports the first malformed declaration of c (an empty primitive
// or field name, a type that [TypeDecl.Check] refuses), or nil.
func (c Conventions) Check() error {
	for _, p := range c.Primitives {
		if strings.TrimSpace(strings.TrimPrefix(p, "@")) == "" {
			return errors.New("manifest: declared conventions: a primitive's name is empty")
		}
	}
	for _, f := range c.Fields {
		if strings.TrimSpace(f) == "" {
			return errors.New("manifest: declared conventions: a field's name is empty")
		}
	}
	names := make([]string, 0, len(c.Types))
	for name := range c.Types {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if err := c.Types[name].Check(name); err != nil {
			return fmt.Errorf("manifest: declared conventions: %w", err)
		}
	}
	return nil
}

// readConventions reads the registry file of a root, if it has one.
func readConventions(r root) (Conventions, error) {
	src, err := readFile(r.fsys, RegistryFile)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return Conventions{}, nil
		}
		return Conventions{}, &LoadError{Path: r.display(RegistryFile), Msg: "the registry file cannot be read: " + errText(err), Err: err}
	}
	return ParseConventions(r.display(RegistryFile), src)
}

// pathID is the identity a tool has by its path under the tools root: the
// path without its extension, and for a tool directory the directory.
func (t *Tool) pathID() string {
	rel := t.rel
	if t.Form == FormDir {
		return t.Dir
	}
	if ext := path.Ext(rel); ext != "" {
		rel = strings.TrimSuffix(rel, ext)
	}
	return rel
}

// closestIDs returns up to three ids of the registry nearest to ref: by
// edit distance, then those sharing its last path element.
func (r *Registry) closestIDs(ref string) []string {
	type cand struct {
		id string
		d  int
	}
	var cs []cand
	base := path.Base(ref)
	seen := map[string]bool{}
	add := func(id string, d int) {
		if !seen[id] {
			seen[id] = true
			cs = append(cs, cand{id, d})
		}
	}
	for _, id := range r.allIDs() {
		if d := editDistance(strings.ToLower(ref), strings.ToLower(id), 4); d < 4 {
			add(id, d)
		} else if path.Base(id) == base || editDistance(base, path.Base(id), 3) < 3 {
			add(id, 4+editDistance(base, path.Base(id), 3))
		}
	}
	sort.Slice(cs, func(a, b int) bool {
		if cs[a].d != cs[b].d {
			return cs[a].d < cs[b].d
		}
		return cs[a].id < cs[b].id
	})
	var out []string
	for i := 0; i < len(cs) && i < 3; i++ {
		out = append(out, cs[i].id)
	}
	return out
}

// allIDs returns every id and path id of the registry, sorted.
func (r *Registry) allIDs() []string {
	ids := r.IDs()
	for p := range r.byPath {
		if _, ok := r.byID[p]; !ok {
			ids = append(ids, p)
		}
	}
	sort.Strings(ids)
	return ids
}

// Resolve finds the tool ref names: by tool_id, by path under the tools
// root, or as @name for a host primitive. ok is false when nothing
// matches.
func (r *Registry) Resolve(ref string) (*Tool, bool) {
	if t, ok := r.Lookup(ref); ok {
		return t, true
	}
	if ts := r.byPath[ref]; len(ts) > 0 {
		return ts[0], true
	}
	if name, ok := r.conv.primitive(ref); ok {
		if t, ok := r.Lookup(name); ok && t.Form == FormBuiltin {
			return t, true
		}
		if slices.Contains(r.conv.Primitives, strings.TrimPrefix(ref, "@")) {
			return r.declaredPrimitive(name), true
		}
	}
	return nil, false
}

// declaredPrimitive is the built-in entry of a primitive the registry
// declares.
func (r *Registry) declaredPrimitive(name string) *Tool {
	return r.declared[name]
}

// Conventions returns what the registry declares about itself.
func (r *Registry) Conventions() Conventions { return r.conv }

// empty reports whether c declares nothing.
func (c *Conventions) empty() bool {
	return len(c.Primitives) == 0 && len(c.Types) == 0 && len(c.Fields) == 0
}

// registryStyle reports whether a YAML manifest without tool_id follows
// the registry convention (identity from its path) rather than the
// spec's: the registry declares conventions, or the manifest references
// executors by path or @name, gives config_schema, or a null executor.
func (t *Tool) registryStyle(conv Conventions) bool {
	if t.doc == nil || t.doc.field("tool_id") != nil || t.Form == FormEmbedded || t.Form == FormMarkdown || t.Form == FormXML {
		return false
	}
	if !conv.empty() || t.nullExec || t.doc.field("config_schema") != nil || t.doc.field("category") != nil || t.sig != nil {
		return true
	}
	return strings.HasPrefix(t.Executor, "@") || strings.Contains(t.Executor, "/")
}
