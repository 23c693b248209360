package manifest

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/agentjudge/judge/result"
)

// ToolType is what kind of tool a manifest defines. Validation depends on
// it, never on a file's extension.
type ToolType string

// The eight tool types.
const (
	Primitive ToolType = "primitive"  // built into the executor: subprocess, http_client
	Runtime   ToolType = "runtime"    // runs scripts: python_runtime, node_runtime
	MCPServer ToolType = "mcp_server" // an MCP server reached over stdio or the network
	MCPTool   ToolType = "mcp_tool"   // one tool of an MCP server
	Script    ToolType = "script"     // a program with files, run by a runtime
	API       ToolType = "api"        // an HTTP call, run by http_client
	Directive ToolType = "directive"  // a workflow the agent follows, in XML
	Knowledge ToolType = "knowledge"  // a Markdown entry with YAML frontmatter
)

// ToolTypes returns the eight tool types in documentation order.
func ToolTypes() []ToolType {
	return []ToolType{Primitive, Runtime, MCPServer, MCPTool, Script, API, Directive, Knowledge}
}

// Valid reports whether t is one of the eight tool types.
func (t ToolType) Valid() bool { return slices.Contains(ToolTypes(), t) }

// The built-in primitives: every registry has them, whether or not a
// manifest declares them.
const (
	Subprocess = "subprocess"
	HTTPClient = "http_client"
)

// Form is how a tool is written down.
type Form string

// The forms of a tool.
const (
	FormDir      Form = "dir"      // a directory with tool.yaml and other files
	FormFile     Form = "file"     // a single NAME.yaml that is the whole tool
	FormEmbedded Form = "embedded" // a script carrying its own metadata
	FormMarkdown Form = "markdown" // a Markdown file: knowledge, or a directive in an xml fence
	FormXML      Form = "xml"      // a directive as an .xml file
	FormBuiltin  Form = "builtin"  // a built-in primitive no file declares
	FormMCP      Form = "mcp"      // an MCP tool definition (tools/list entry)
)

// Parameter is one entry of a manifest's parameters list.
type Parameter struct {
	Name        string   `json:"name"`
	Type        string   `json:"type,omitempty"`
	Required    bool     `json:"required,omitempty"`
	Description string   `json:"description,omitempty"`
	Enum        []any    `json:"enum,omitempty"`
	Default     any      `json:"default,omitempty"`
	Minimum     *float64 `json:"minimum,omitempty"`
	Maximum     *float64 `json:"maximum,omitempty"`
	Pattern     string   `json:"pattern,omitempty"`
	Items       any      `json:"items,omitempty"`
	// Intent says what the value is for, and AntiPatterns the values or
	// uses to avoid: usage guidance a model reads with the parameter.
	Intent       string   `json:"intent,omitempty"`
	AntiPatterns []string `json:"anti_patterns,omitempty"`
}

// Tool is one loaded tool: its manifest fields, where it was found, and
// its parameters as one JSON Schema. A Tool is read-only once its
// [Registry] is built and safe for concurrent reads.
type Tool struct {
	ID          string
	Type        ToolType
	Version     string
	Description string
	// Guidance is the tool's usage guidance: the manifest's when_to_use
	// and when_not_to_use, else the x-when-to-use and x-when-not-to-use
	// keywords at the root of its input schema.
	Guidance Guidance
	// Executor is the tool_id of the tool that runs this one ("executor"
	// or "executor_id" in the manifest); empty for primitives and
	// knowledge.
	Executor string
	// Config is the type-specific config mapping, decoded as JSON values.
	Config map[string]any
	// Parameters are the manifest's parameters list as given.
	Parameters []Parameter
	// Env lists the environment variables the tool's config references as
	// ${NAME}, sorted, once each.
	Env []string
	// Path is the file that defines the tool, as the loader was given it
	// (the directory joined with the path inside it).
	Path string
	// Dir is the tool's directory for FormDir and FormEmbedded (the script's
	// directory); empty otherwise.
	Dir  string
	Form Form

	schema     map[string]any // parameters or input_schema as one JSON Schema
	schemaBase []pathElem     // where the schema is written in the manifest
	fromParams bool           // the schema was built from parameters
	rel        string         // Path inside its root file system
	root       int            // index of the root it came from
	doc        *node          // the manifest's YAML, for positions
	xml        *directiveDoc  // a directive's parsed XML
	body       []byte         // Markdown or XML body, for knowledge and directives
	bodyAt     int            // line offset of body in the file
	issues     []result.Issue // found while loading
	broken     bool           // the file could not be parsed: only its load issues count
	kind       ToolType       // the base kind whose rules apply: Type, or a declared type's base
	idFromPath bool           // the id comes from the path (or category), not from tool_id or name
	notTool    string         // why a YAML file is data, not a tool ("" for a tool)
	nullExec   bool           // executor or executor_id is given as null
	sig        *signature     // the signature header line, if any
	// Where an embedded script's metadata is: the 0-based lines
	// [metaFrom, metaTo) of its block, and its module constants' lines.
	metaFrom, metaTo int
	metaConsts       []int
}

// Kind is the base kind whose rules the tool follows and that says how it
// runs: its type for the eight built-in types, the declared base for a
// type the registry declares, "" for a type nobody declared.
func (t *Tool) Kind() ToolType { return t.kind }

// Schema returns the tool's parameters as one JSON Schema (an object
// schema, decoded as JSON values), or nil when the tool declares none. The
// map is shared: do not modify it.
func (t *Tool) Schema() map[string]any { return t.schema }

// SchemaJSON returns [Tool.Schema] encoded as JSON; a tool that declares
// no parameters gives {"properties":{},"type":"object"}.
func (t *Tool) SchemaJSON() ([]byte, error) {
	s := t.schema
	if s == nil {
		s = map[string]any{"type": "object", "properties": map[string]any{}}
	}
	b, err := json.Marshal(s)
	if err != nil {
		return nil, fmt.Errorf("manifest: schema of %s: %w", t.ID, err)
	}
	return b, nil
}

// key is the tool's key in a lint report: its tool_id, or its file path
// when the tool_id is missing or shared with another tool (unique is
// false).
func (t *Tool) key(unique bool) string {
	if t.ID != "" && unique {
		return t.ID
	}
	return t.Path
}

// Registry is a set of loaded tools, looked up by tool_id. It holds the
// built-in primitives too. A Registry is read-only once loaded and safe
// for concurrent use.
type Registry struct {
	tools []*Tool            // every tool loaded, by path; built-ins last
	byID  map[string][]*Tool // tools by tool_id; more than one is a duplicate
	roots []string           // the directories or names given to the loader
	fsys  []fs.FS            // the file system of each root
	// byPath indexes tools by their path under the tools root without the
	// extension, so that executors may name them by path.
	byPath   map[string][]*Tool
	conv     Conventions      // what the registry declares
	declared map[string]*Tool // the declared host primitives
}

// Lookup returns the tool with tool_id id. When several tools share the id
// it returns the first by path (a lint reports the duplicate).
func (r *Registry) Lookup(id string) (*Tool, bool) {
	ts := r.byID[id]
	if len(ts) == 0 {
		return nil, false
	}
	return ts[0], true
}

// Tools returns every tool loaded from files, sorted by path, without the
// built-in primitives no file declares.
func (r *Registry) Tools() []*Tool {
	out := make([]*Tool, 0, len(r.tools))
	for _, t := range r.tools {
		if t.Form != FormBuiltin {
			out = append(out, t)
		}
	}
	return out
}

// IDs returns the tool_ids of the registry, built-ins included, sorted.
func (r *Registry) IDs() []string {
	ids := make([]string, 0, len(r.byID))
	for id := range r.byID {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

// newRegistry indexes tools and adds the built-in primitives no tool
// declares.
func newRegistry(roots []string, fsys []fs.FS, tools []*Tool, conv Conventions) *Registry {
	r := &Registry{tools: tools, byID: map[string][]*Tool{}, roots: roots, fsys: fsys,
		byPath: map[string][]*Tool{}, conv: conv, declared: map[string]*Tool{}}
	for _, t := range tools {
		t.kind = conv.kind(t.Type)
		if t.ID == "" && !t.broken && t.doc != nil && t.xml == nil && t.Type != Knowledge && t.notTool == "" {
			// Identity from the path: the category plus the file name,
			// or the path under the tools root.
			if cat, ok := t.doc.field("category").str(); ok && strings.Trim(cat, "/") != "" {
				stem := path.Base(t.pathID())
				if n, ok := t.doc.field("name").str(); ok && n != "" {
					stem = n
				}
				t.ID = strings.Trim(cat, "/") + "/" + stem
			} else if t.registryStyle(conv) {
				t.ID = t.pathID()
			}
			t.idFromPath = t.ID != ""
		}
		if t.ID != "" {
			r.byID[t.ID] = append(r.byID[t.ID], t)
		}
		if t.rel != "" && t.notTool == "" && !t.broken {
			p := t.pathID()
			r.byPath[p] = append(r.byPath[p], t)
		}
	}
	for _, name := range conv.Primitives {
		if len(r.byID[name]) == 0 && len(r.byPath[name]) == 0 {
			r.declared[name] = &Tool{ID: name, Type: Primitive, kind: Primitive, Version: "1.0.0", Form: FormBuiltin,
				Path: "(declared primitive " + name + ")", Description: "host primitive " + name + " declared in " + RegistryFile}
		}
	}
	for _, id := range []string{Subprocess, HTTPClient} {
		if len(r.byID[id]) == 0 {
			b := &Tool{ID: id, Type: Primitive, kind: Primitive, Version: "1.0.0", Form: FormBuiltin, Path: "(built-in " + id + ")",
				Description: "built-in primitive " + id}
			r.tools = append(r.tools, b)
			r.byID[id] = []*Tool{b}
		}
	}
	return r
}
