package manifest

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/agentjudge/judge/internal/spell"
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
	// Required, when declared, are the top-level fields every tool
	// manifest of the registry must carry, replacing the spec's rule for
	// version: a missing version is reported only when Required names it.
	// RequiredFrom says where the declaration was read.
	Required     []string `json:"required,omitempty"`
	RequiredFrom string   `json:"-"`
	// Data are folders under the tools root (slash-separated, relative to
	// it) that hold data the registry's own code reads: their files are
	// not loaded as tools.
	Data []string `json:"data,omitempty"`
	// KindSchema is the path, relative to the tools root, of the
	// registry's own kind definition for tools: a YAML file whose
	// required_metadata lists the fields a tool must carry.
	KindSchema string `json:"kind_schema,omitempty"`
}

// registryKeys are the keys of a registry file.
var registryKeys = []string{"primitives", "types", "fields", "required", "data", "kind_schema"}

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
	if o.Required != nil {
		c.Required, c.RequiredFrom = o.Required, o.RequiredFrom
	}
	for _, d := range o.Data {
		if !slices.Contains(c.Data, d) {
			c.Data = append(c.Data, d)
		}
	}
	if o.KindSchema != "" {
		c.KindSchema = o.KindSchema
	}
}

// requiredFrom names where Required was declared: a file, or the
// caller's declarations.
func (c *Conventions) requiredFrom() string {
	if c.RequiredFrom == "" {
		return "judge's configuration"
	}
	return c.RequiredFrom
}

// dataDir reports whether rel, a slash path under the tools root, is a
// data folder the registry declares or lies inside one.
func (c *Conventions) dataDir(rel string) bool {
	for _, d := range c.Data {
		if rel == d || strings.HasPrefix(rel, d+"/") {
			return true
		}
	}
	return false
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
		if !slices.Contains(registryKeys, k) {
			return c, bad(doc.fields[k], "unknown key %q; the keys are %s", k, strings.Join(registryKeys, ", "))
		}
	}
	if c.Primitives, err = strs("primitives"); err != nil {
		return c, err
	}
	if c.Fields, err = strs("fields"); err != nil {
		return c, err
	}
	if c.Required, err = strs("required"); err != nil {
		return c, err
	}
	if n := doc.field("required"); n != nil && n.kind == kindSeq {
		c.Required = append([]string{}, c.Required...) // declared, if empty
		c.RequiredFrom = name
	}
	if c.Data, err = strs("data"); err != nil {
		return c, err
	}
	for i, d := range c.Data {
		d = strings.Trim(d, "/")
		if !fs.ValidPath(d) || d == "." {
			return c, bad(doc.field("data").items[i], "data folder %q is not a slash-separated path inside the tools directory", d)
		}
		c.Data[i] = d
	}
	if n := doc.field("kind_schema"); n != nil && n.kind != kindNull {
		s, ok := n.str()
		if !ok || strings.TrimSpace(s) == "" {
			return c, bad(n, "kind_schema must be the path of the registry's kind definition for tools, not %s", n.describe())
		}
		c.KindSchema = s
	}
	types := doc.field("types")
	if types == nil || types.kind == kindNull {
		return c, nil
	}
	c.Types, err = parseTypes(types, bad)
	return c, err
}

// parseTypes reads types, the registry's declared types: each a mapping of
// base, executor and requires. bad words an error at a node.
func parseTypes(types *node, bad func(n *node, format string, args ...any) error) (map[string]TypeDecl, error) {
	if types.kind != kindMap {
		return nil, bad(types, "types must be a mapping of type name to {base, executor, requires}, not %s", types.describe())
	}
	out := map[string]TypeDecl{}
	bases := declBases()
	for _, name := range types.keys {
		n := types.fields[name]
		if ToolType(name).Valid() {
			return nil, bad(n, "type %q is one of the eight built-in types and cannot be redeclared", name)
		}
		if n.kind != kindMap {
			return nil, bad(n, "type %q must be a mapping with base (one of %s), not %s", name, strings.Join(bases, ", "), n.describe())
		}
		var d TypeDecl
		for _, k := range n.keys {
			v := n.fields[k]
			switch k {
			case "base":
				s, _ := v.str()
				if !slices.Contains(bases, s) {
					return nil, bad(v, "base of type %q must be one of %s", name, strings.Join(bases, ", "))
				}
				d.Base = ToolType(s)
			case "executor":
				s, _ := v.str()
				if !slices.Contains([]string{ExecRequired, ExecNone, ExecOptional}, s) {
					return nil, bad(v, "executor of type %q must be required, none or optional", name)
				}
				d.Executor = s
			case "requires":
				if v.kind != kindSeq {
					return nil, bad(v, "requires of type %q must be a list of config keys", name)
				}
				for _, it := range v.items {
					s, ok := it.str()
					if !ok || s == "" {
						return nil, bad(it, "each entry of requires must be a config key")
					}
					d.Requires = append(d.Requires, s)
				}
			default:
				return nil, bad(v, "unknown key %q in type %q; the keys are base, executor and requires", k, name)
			}
		}
		if d.Base == "" {
			return nil, bad(n, "type %q has no base; give base: one of %s", name, strings.Join(bases, ", "))
		}
		out[name] = d
	}
	return out, nil
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
	for _, f := range c.Required {
		if strings.TrimSpace(f) == "" {
			return errors.New("manifest: declared conventions: a required field's name is empty")
		}
	}
	for _, d := range c.Data {
		if d = strings.Trim(d, "/"); !fs.ValidPath(d) || d == "." {
			return fmt.Errorf("manifest: declared conventions: data folder %q is not a slash-separated path inside the tools directory", d)
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

// readConventions reads the registry file of a root, if it has one, and
// the kind definition it names.
func readConventions(r root) (Conventions, error) {
	src, err := readFile(r.fsys, RegistryFile)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return Conventions{}, nil
		}
		return Conventions{}, &LoadError{Path: r.display(RegistryFile), Msg: "the registry file cannot be read: " + errText(err), Err: err}
	}
	c, err := ParseConventions(r.display(RegistryFile), src)
	if err != nil || c.KindSchema == "" {
		return c, err
	}
	// A kind definition named by the registry file: in the tools
	// directory, or beside it on disk (../kinds/tool.yaml).
	p := path.Clean(c.KindSchema)
	var data []byte
	switch {
	case fs.ValidPath(p):
		data, err = readFile(r.fsys, p)
	case r.name != "" && !path.IsAbs(p):
		dir, base := filepath.Split(filepath.Join(r.name, filepath.FromSlash(p)))
		data, err = readFile(os.DirFS(dir), base)
	default:
		err = fs.ErrNotExist
	}
	at := r.display(p)
	if err != nil {
		return c, &LoadError{Path: r.display(RegistryFile), Msg: fmt.Sprintf("the kind definition %s that kind_schema names cannot be read: %s", at, errText(err)), Err: err}
	}
	doc, err := decodeYAML(at, data, 0, 0)
	if err != nil {
		return c, &LoadError{Path: at, Msg: err.Error(), Err: err}
	}
	req, ok := kindRequired(doc)
	if !ok {
		return c, &LoadError{Path: at, Msg: "the kind definition that kind_schema names has no required_metadata list of field names"}
	}
	if c.Required == nil {
		c.Required, c.RequiredFrom = req, at
	}
	return c, nil
}

// kindSearchEntries bounds the entries the search for a kind definition
// beside a tools directory looks at.
const kindSearchEntries = 500

// findKindSchema looks beside the tools directory dir for the registry's
// kind definition for tools: in a folder kinds (or kind) of dir's parent,
// at most two levels down, a YAML file with a required_metadata list that
// says it is about tools (named tool.yaml or tools.yaml, in a folder so
// named, or with kind, name or type tool). It returns the fields the first
// one in lexical order lists and its path.
func findKindSchema(dir string) ([]string, string) {
	parent := filepath.Dir(filepath.Clean(dir))
	if parent == filepath.Clean(dir) {
		return nil, ""
	}
	fsys := os.DirFS(parent)
	seen := 0
	var walk func(rel string, depth int) ([]string, string)
	walk = func(rel string, depth int) ([]string, string) {
		entries, err := fs.ReadDir(fsys, rel)
		if err != nil {
			return nil, ""
		}
		for _, e := range entries {
			if seen++; seen > kindSearchEntries {
				return nil, ""
			}
			name := e.Name()
			p := path.Join(rel, name)
			switch {
			case e.IsDir():
				if depth >= 2 || strings.HasPrefix(name, ".") {
					continue
				}
				if req, from := walk(p, depth+1); req != nil {
					return req, from
				}
			case e.Type().IsRegular() && (path.Ext(name) == ".yaml" || path.Ext(name) == ".yml"):
				data, err := readFile(fsys, p)
				if err != nil || !bytes.Contains(data, []byte("required_metadata")) {
					continue
				}
				doc, err := decodeYAML(p, data, 0, 0)
				if err != nil {
					continue
				}
				if req, ok := kindRequired(doc); ok && aboutTools(p, doc) {
					return req, filepath.Join(parent, filepath.FromSlash(p))
				}
			}
		}
		return nil, ""
	}
	for _, k := range []string{"kinds", "kind"} {
		if st, err := fs.Stat(fsys, k); err == nil && st.IsDir() {
			if req, from := walk(k, 0); req != nil {
				return req, from
			}
		}
	}
	return nil, ""
}

// aboutTools reports whether the kind definition at p describes tools.
func aboutTools(p string, doc *node) bool {
	isTool := func(s string) bool { s = strings.ToLower(s); return s == "tool" || s == "tools" }
	stem := strings.TrimSuffix(path.Base(p), path.Ext(p))
	if isTool(stem) || isTool(path.Base(path.Dir(p))) {
		return true
	}
	for _, k := range []string{"kind", "name", "type"} {
		if s, ok := doc.field(k).str(); ok && isTool(s) {
			return true
		}
	}
	return false
}

// kindRequired reads the required_metadata list of a registry's kind
// definition for tools: a YAML mapping whose required_metadata (at the
// top, or under schema or metadata) lists field names.
func kindRequired(doc *node) ([]string, bool) {
	if doc == nil || doc.kind != kindMap {
		return nil, false
	}
	n := doc.field("required_metadata")
	for _, k := range []string{"schema", "metadata"} {
		if sub := doc.field(k); n == nil && sub != nil && sub.kind == kindMap {
			n = sub.field("required_metadata")
		}
	}
	if n == nil || n.kind != kindSeq {
		return nil, false
	}
	out := []string{}
	for _, it := range n.items {
		s, ok := it.str()
		if !ok || strings.TrimSpace(s) == "" {
			return nil, false
		}
		out = append(out, s)
	}
	return out, true
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
		if d := spell.Distance(strings.ToLower(ref), strings.ToLower(id), 4); d < 4 {
			add(id, d)
		} else if path.Base(id) == base || spell.Distance(base, path.Base(id), 3) < 3 {
			add(id, 4+spell.Distance(base, path.Base(id), 3))
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
	return len(c.Primitives) == 0 && len(c.Types) == 0 && len(c.Fields) == 0 && c.Required == nil && len(c.Data) == 0 && c.KindSchema == ""
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
