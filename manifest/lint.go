package manifest

import (
	"context"
	"fmt"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/agentjudge/judge/result"
)

// Report is the answer of a lint: one ValidationResult per tool, keyed by
// tool_id (or by file path for a tool whose tool_id is missing or shared),
// and a summary.
type Report struct {
	Results map[string]*result.ValidationResult `json:"results"`
	Summary Summary                             `json:"summary"`
}

// Summary counts a lint's tools and issues.
type Summary struct {
	Tools    int `json:"tools"`
	Valid    int `json:"valid"`
	Invalid  int `json:"invalid"`
	Errors   int `json:"errors"`
	Warnings int `json:"warnings"`
	Infos    int `json:"infos"`
	// ByType counts the tools of each tool_type; a tool without a valid
	// tool_type counts as "unknown".
	ByType map[string]int `json:"by_type"`
}

// add records the result of one tool of tool_type typ under key and counts
// it in the summary.
func (r *Report) add(key, typ string, res *result.ValidationResult) {
	r.Results[key] = res
	r.Summary.Tools++
	if res.Valid {
		r.Summary.Valid++
	} else {
		r.Summary.Invalid++
	}
	r.Summary.Errors += res.Metadata.ErrorCount
	r.Summary.Warnings += res.Metadata.WarningCount
	r.Summary.Infos += res.Metadata.InfoCount
	r.Summary.ByType[typ]++
}

// Keys returns the report's keys, sorted.
func (r *Report) Keys() []string {
	keys := make([]string, 0, len(r.Results))
	for k := range r.Results {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// Lint validates every tool of reg: layer 1 (the universal fields), layer
// 2 (the rules of the tool's type), the executor graph, and the tool's
// parameters against their meta-schema and the providers' rules. It
// returns an error only when ctx is done.
func Lint(ctx context.Context, reg *Registry) (*Report, error) {
	return LintWith(ctx, reg, LintOptions{})
}

// LintOptions change how [LintWith] reports.
type LintOptions struct {
	// Strict reports fields the registry does not declare as warnings in
	// every convention; otherwise a manifest in the registry convention
	// (identity from its path) gets an info note for each.
	Strict bool
	// Checks run on every tool whose manifest could be read, after the
	// manifest's own rules (toolscan's poisoning scan is one).
	Checks []Check
}

// Check is a check [LintWith] runs on a tool beside the manifest rules.
// Run gets the tool and the fields of its manifest a model is shown (its
// name, description and parameters; not its config) and returns issues whose Location is a path into the
// manifest in the spec's notation ("description",
// "parameters[0].description"); the lint turns each into the file, line
// and column of that value. Name goes into validation_types_run.
type Check struct {
	Name string
	Run  func(t *Tool, fields map[string]any) []result.Issue
}

// modelFields are the manifest fields whose text reaches a model that is
// shown the tool: its name and description, and its parameters in
// whichever form the manifest writes them. Config (commands, URLs,
// environment) stays with the executor and is not among them.
var modelFields = [...]string{"tool_id", "name", "description", "parameters", "input_schema", "config_schema", "output_schema"}

// LintWith is [Lint] with options.
func LintWith(ctx context.Context, reg *Registry, opts LintOptions) (*Report, error) {
	rep := &Report{Results: map[string]*result.ValidationResult{}, Summary: Summary{ByType: map[string]int{}}}
	run := &lintRun{ctx: ctx, strict: opts.Strict}
	run.survey(reg)
	for _, t := range reg.Tools() {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("manifest: lint: %w", err)
		}
		start := time.Now()
		c := &checker{Tool: t, run: run, reg: reg, issues: slices.Clone(t.issues)}
		c.check()
		c.extra(opts.Checks)
		b := result.NewBuilder().Add(c.issues...).Ran(c.ran...).Duration(time.Since(start))
		conf := 1.0
		for _, is := range c.issues {
			if is.Type == result.NotChecked {
				conf -= 0.1
			}
		}
		b.Confidence(max(conf, 0.5))
		res := b.Build()
		key := t.key(len(reg.byID[t.ID]) == 1)
		if _, taken := rep.Results[key]; taken {
			key = t.Path
		}
		typ := "unknown"
		if t.Type.Valid() || t.kind != "" {
			typ = string(t.Type)
		}
		rep.add(key, typ, res)
	}
	return rep, nil
}

// checker lints one tool. It shadows the Tool's report so that a lint
// never changes the registry.
type checker struct {
	*Tool
	run    *lintRun
	reg    *Registry
	issues []result.Issue
	ran    []string
}

// extra runs the checks beyond the manifest rules on a tool whose YAML
// manifest could be read, placing each issue at its value in the file.
func (c *checker) extra(checks []Check) {
	if len(checks) == 0 || c.broken || c.doc == nil || c.doc.kind != kindMap {
		return
	}
	fields := map[string]any{}
	for _, k := range modelFields {
		if n := c.doc.field(k); n != nil {
			fields[k] = n.toAny()
		}
	}
	for _, ch := range checks {
		for _, is := range ch.Run(c.Tool, fields) {
			is.Location = c.loc(c.posOf(locationPath(is.Location)...))
			c.issues = append(c.issues, is)
		}
		c.ran = append(c.ran, ch.Name)
	}
}

// locationPath reads a location in the spec's notation (a.b[0]["x y"])
// as a path into the manifest; what it cannot read ends the path there.
func locationPath(loc string) []pathElem {
	var path []pathElem
	for loc != "" && loc != "root" {
		switch {
		case strings.HasPrefix(loc, "."):
			loc = loc[1:]
		case strings.HasPrefix(loc, `["`):
			end := strings.Index(loc, `"]`)
			if end < 0 {
				return path
			}
			k, err := strconv.Unquote(loc[1 : end+1])
			if err != nil {
				return path
			}
			path, loc = append(path, k), loc[end+2:]
		case strings.HasPrefix(loc, "["):
			end := strings.IndexByte(loc, ']')
			i, err := strconv.Atoi(loc[1:max(end, 1)])
			if end < 0 || err != nil {
				return path
			}
			path, loc = append(path, i), loc[end+1:]
		default:
			end := strings.IndexAny(loc, ".[")
			if end < 0 {
				end = len(loc)
			}
			path, loc = append(path, loc[:end]), loc[end:]
		}
	}
	return path
}

// lintRun is the state one lint shares between its tools.
type lintRun struct {
	ctx      context.Context
	strict   bool
	compiler *jsonschema.Compiler
	n        int // schemas added to compiler
	// noVersion and versioned count the registry's tools that omit and
	// that may carry a version (see checker.version).
	noVersion, versioned int
	// sigOK counts, per signature scheme, the files whose header's hash
	// is the SHA-256 of what follows the header line.
	sigOK map[string]int
}

// survey counts, over the registry's tools, those that omit version and
// the signature headers that verify, for the rules that depend on what
// the registry evidently does.
func (run *lintRun) survey(reg *Registry) {
	run.sigOK = map[string]int{}
	for _, t := range reg.Tools() {
		if s := t.sig; s != nil && hexHash.MatchString(s.hash) && s.hash == s.actual {
			run.sigOK[s.name]++
		}
		if t.broken || t.notTool != "" || t.doc == nil || t.xml != nil || t.Type == Knowledge {
			continue
		}
		run.versioned++
		if t.Version == "" {
			run.noVersion++
		}
	}
}

func (c *checker) report(sev result.Severity, typ result.Type, rule string, p Pos, suggestion, format string, args ...any) {
	c.issues = append(c.issues, result.Issue{Severity: sev, Type: typ, Rule: rule, Location: c.loc(p),
		Message: fmt.Sprintf(format, args...), Suggestion: suggestion})
}

func (c *checker) check() {
	if c.broken || (c.doc == nil && c.xml == nil && c.Type == "") {
		// Nothing more can be read: the load issues say why.
		if len(c.issues) == 0 {
			c.report(result.Error, result.MissingField, "manifest.empty", Pos{1, 1}, "Write the tool's manifest", "The file defines no tool")
		}
		return
	}
	if c.notTool != "" {
		c.report(result.Info, result.NotChecked, "manifest.not_a_tool", c.startPos(),
			"Nothing to do if another tool reads it (list its folder under data: in "+RegistryFile+" to skip it); add tool_type and executor_id to make it a tool",
			"%s is not read as a tool manifest: %s", c.Path, c.notTool)
		return
	}
	c.ran = append(c.ran, "universal")
	c.universal()
	c.required()
	c.checkSignature()
	if c.kind != "" && c.kind != configKind {
		c.ran = append(c.ran, string(c.kind))
		switch c.kind {
		case Primitive:
			c.primitive()
		case Runtime:
			c.runtime()
		case MCPServer:
			c.mcpServer()
		case MCPTool:
			c.mcpTool()
		case Script:
			c.script()
		case API:
			c.api()
		case Directive:
			c.directive()
		case Knowledge:
			c.knowledge()
		}
	}
	if d, ok := c.reg.conv.decl(c.Type); ok {
		for _, k := range d.Requires {
			c.requireConfig(k, "manifest.declared_type.requires",
				fmt.Sprintf("Add config.%s: %s declares it required for type %s", k, RegistryFile, c.Type))
		}
	}
	c.ran = append(c.ran, "executor_graph")
	c.graph()
	if c.schema != nil {
		c.ran = append(c.ran, "parameters")
		c.checkSchema()
		c.provider()
	}
}

// version reports a missing version as the registry in front of judge
// evidently treats it: an error when its declaration of required fields
// names version; nothing when it declares them without version; with no
// declaration, the spec's error, or a warning when at least a quarter of
// the registry's tools omit version too (the registry does not use it).
func (c *checker) version() {
	reg := c.reg.conv
	sugg := "Add " + c.fieldName("version") + ": a semantic version such as \"1.0.0\""
	switch {
	case reg.Required != nil && slices.Contains(reg.Required, "version"):
		c.report(result.Error, result.MissingField, "manifest.version", c.fieldPos("version"), sugg,
			"Required field '%s' is missing (%s declares it required)", c.fieldName("version"), reg.requiredFrom())
	case reg.Required != nil:
	case c.xml == nil && c.run.versioned > 0 && c.run.noVersion*4 >= c.run.versioned:
		c.report(result.Warning, result.MissingField, "manifest.version", c.fieldPos("version"), sugg+
			", or declare the fields the registry requires (required: in "+RegistryFile+")",
			"Field '%s' is missing; the spec requires it, but %d of the registry's %d tools omit it, so it is not an error here",
			c.fieldName("version"), c.run.noVersion, c.run.versioned)
	default:
		c.report(result.Error, result.MissingField, "manifest.version", c.fieldPos("version"), sugg,
			"Required field '%s' is missing", c.fieldName("version"))
	}
}

// required reports each field the registry declares required (see
// Conventions.Required) that the manifest does not carry; tool_id,
// tool_type, version and description have rules of their own.
func (c *checker) required() {
	if c.reg.conv.Required == nil || c.doc == nil || c.xml != nil || c.Type == Knowledge {
		return
	}
	for _, f := range c.reg.conv.Required {
		switch f {
		case "tool_id", "tool_type", "version", "description":
			continue
		case "executor", "executor_id":
			if c.doc.field("executor") != nil || c.doc.field("executor_id") != nil {
				continue
			}
		}
		if c.doc.field(f) != nil {
			continue
		}
		c.report(result.Error, result.MissingField, "manifest.required", c.startPos(),
			"Add "+f+", or remove it from the fields "+c.reg.conv.requiredFrom()+" requires",
			"Required field '%s' is missing (%s declares it required)", f, c.reg.conv.requiredFrom())
	}
}

// idPattern is the rule for tool_ids: a letter, then letters, digits, '_'
// and '-', at most 64 characters in all, so that every tool_id is also a
// valid function name for the model providers.
var idPattern = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_-]{0,63}$`)

// semverPattern is Semantic Versioning 2.0.0's own regular expression.
var semverPattern = regexp.MustCompile(`^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$`)

// fieldPos is where the universal field name (tool_id, tool_type, version,
// description, executor) is written, whatever the form.
func (t *Tool) fieldPos(name string) Pos {
	if t.xml != nil {
		if p, ok := t.xml.pos[name]; ok {
			return p
		}
		return t.xml.pos["directive"]
	}
	path := name
	if t.Form == FormMCP && name == "tool_id" {
		path = "name"
	}
	if name == "tool_id" && t.doc.field("tool_id") == nil {
		// The id came from name, or from the category and the path.
		for _, k := range []string{"name", "category"} {
			if t.doc.field(k) != nil {
				path = k
				break
			}
		}
	}
	if t.Type == Knowledge && t.Form == FormMarkdown {
		switch name {
		case "tool_id":
			path = "id"
		case "description":
			path = "title"
		}
	}
	if name == "executor" && t.doc.field("executor") == nil && t.doc.field("executor_id") != nil {
		path = "executor_id"
	}
	if n, _ := t.lookup(path); n != nil {
		return n.pos
	}
	return t.startPos()
}

// fieldName is how the form spells the universal field name.
func (t *Tool) fieldName(name string) string {
	switch {
	case t.xml != nil && name == "tool_id":
		return "<directive name>"
	case t.xml != nil && name == "version":
		return "<directive version>"
	case t.xml != nil && name == "description":
		return "<metadata><description>"
	case t.Type == Knowledge && t.Form == FormMarkdown && name == "tool_id":
		return "id"
	case t.Type == Knowledge && t.Form == FormMarkdown && name == "description":
		return "title"
	}
	return name
}

// universal is layer 1: the fields every tool has, and its executor rule.
func (c *checker) universal() {
	c.checkID()
	c.checkType()
	switch {
	case c.Version == "" && c.Type != Knowledge:
		c.version()
	case c.Version != "" && !semverPattern.MatchString(c.Version):
		c.report(result.Error, result.ConstraintViolation, "manifest.version", c.fieldPos("version"),
			"Write a semantic version MAJOR.MINOR.PATCH, such as \"1.0.0\"",
			"Version '%s' is not a semantic version (MAJOR.MINOR.PATCH)", result.Clip(c.Version, 60))
	}
	if strings.TrimSpace(c.Description) == "" {
		c.report(result.Error, result.MissingField, "manifest.description", c.fieldPos("description"),
			"Add "+c.fieldName("description")+": one sentence saying what the tool does",
			"Required field '%s' is missing or empty", c.fieldName("description"))
	}
	if callable(c.Tool) || c.kind == Directive {
		if f, ok := descriptionFinding(c.ID, c.Description, c.Guidance); ok {
			c.report(result.Warning, result.ReadabilityIssue, f.rule, c.fieldPos("description"), f.sugg, "%s", f.msg)
		}
	}
	c.checkExecutorRule()
	if c.doc != nil && c.Form != FormMarkdown && c.Form != FormMCP {
		c.checkUnknown(topFields, "a tool manifest")
	}
}

// checkID checks tool_id: present, well formed, and defined once.
func (c *checker) checkID() {
	switch {
	case c.ID == "":
		c.report(result.Error, result.MissingField, "manifest.tool_id", c.fieldPos("tool_id"),
			"Add "+c.fieldName("tool_id")+": a unique snake_case identifier such as weather_forecast",
			"Required field '%s' is missing", c.fieldName("tool_id"))
	case strings.Contains(c.ID, "/") || c.idFromPath:
		if !pathIDPattern.MatchString(c.ID) {
			c.report(result.Error, result.ConstraintViolation, "manifest.tool_id", c.fieldPos("tool_id"),
				"Name the file and its directories with letters, digits, '_', '-' and '.'",
				"Tool id '%s' (from its path) is not a path of names of letters, digits, '_', '-' and '.'", result.Clip(c.ID, 120))
		}
	case !idPattern.MatchString(c.ID):
		c.report(result.Error, result.ConstraintViolation, "manifest.tool_id", c.fieldPos("tool_id"),
			"Use a letter, then letters, digits, '_' or '-', at most 64 characters",
			"tool_id '%s' does not match ^[A-Za-z][A-Za-z0-9_-]{0,63}$", result.Clip(c.ID, 80))
	}
	if dups := c.reg.byID[c.ID]; c.ID != "" && len(dups) > 1 {
		var others []string
		for _, o := range dups {
			if o != c.Tool {
				others = append(others, o.loc(o.fieldPos("tool_id")))
			}
		}
		c.report(result.Error, result.DuplicateID, "manifest.duplicate_id", c.fieldPos("tool_id"),
			"Rename one of the tools, or remove the stale copy",
			"tool_id '%s' is also defined in %s", c.ID, strings.Join(others, ", "))
	}
}

// checkType checks tool_type: present, and one of the built-in types or
// a type the registry declares.
func (c *checker) checkType() {
	switch {
	case c.Type == "" && c.idFromPath:
		c.report(result.Info, result.NotChecked, "manifest.tool_type", c.startPos(),
			"Add tool_type (one of "+typeList()+", or a type "+RegistryFile+" declares) to have its rules checked",
			"The manifest has no tool_type, so only the universal fields, the executor chain and the parameters were checked")
	case c.Type == "":
		c.report(result.Error, result.MissingField, "manifest.tool_type", c.fieldPos("tool_type"),
			"Add tool_type: one of "+typeList(),
			"Required field 'tool_type' is missing")
	case c.kind != "":
	case closest(string(c.Type), typeStrings()) != "":
		c.report(result.Error, result.ConstraintViolation, "manifest.tool_type", c.fieldPos("tool_type"),
			fmt.Sprintf("Use tool_type: %s", closest(string(c.Type), typeStrings())),
			"tool_type '%s' is not one of %s", result.Clip(string(c.Type), 60), typeList())
	default:
		c.report(result.Warning, result.ConstraintViolation, "manifest.tool_type_undeclared", c.fieldPos("tool_type"),
			fmt.Sprintf("Declare the type in %s at the top of the tools directory, as an alias of the kind it is: types: {%s: {base: %s}}",
				RegistryFile, result.Clip(string(c.Type), 40), guessBase(c.Tool)),
			"tool_type '%s' is neither one of %s nor declared by the registry, so only the universal fields, the executor chain and the parameters were checked",
			result.Clip(string(c.Type), 60), typeList())
	}
}

// checkExecutorRule checks that the tool has an executor exactly when its
// type, built in or declared, wants one.
func (c *checker) checkExecutorRule() {
	decl, declared := c.reg.conv.decl(c.Type)
	switch {
	case declared && decl.Executor == ExecOptional:
	case declared && decl.Executor == ExecRequired && c.Executor == "":
		c.report(result.Error, result.MissingField, "manifest.executor_required", c.fieldPos("executor"),
			"Add executor_id: the tool that runs it",
			"Tool type '%s' requires an executor (%s declares it so), and none is given", c.Type, RegistryFile)
	case declared && (decl.Executor == ExecNone || decl.Base == configKind) && c.Executor != "":
		c.report(result.Error, result.ExecutorInvalid, "manifest.executor_forbidden", c.fieldPos("executor"),
			"Set executor_id: null",
			"Tool type '%s' is configuration with no executor (%s declares it so), but executor '%s' is given", c.Type, RegistryFile, result.Clip(c.Executor, 60))
	}
	switch c.kind {
	case configKind:
	case Primitive, Knowledge:
		if c.Executor != "" {
			c.report(result.Error, result.ExecutorInvalid, "manifest.executor_forbidden", c.fieldPos("executor"),
				"Remove the executor field",
				"%s has no executor, but executor '%s' is given", capitalize(withArticle(c.Type)), result.Clip(c.Executor, 60))
		}
	case Directive, "":
	default:
		switch {
		case declared && decl.Executor != "":
		case c.kind == MCPServer && c.nullExec:
			// A server configuration a runtime reads: valid as such.
		case c.Executor == "":
			c.report(result.Error, result.MissingField, "manifest.executor_required", c.fieldPos("executor"),
				"Add executor: the tool_id of "+wantExecutor(c.kind)+" that runs it",
				"Tool type '%s' requires an executor, and none is given", c.Type)
		}
	}
}

// checkUnknown is Tool.checkUnknown reporting through the checker: fields
// the registry declares are known, and an unknown field of a manifest in
// the registry convention is an info note unless the lint is strict.
func (c *checker) checkUnknown(known []string, what string, path ...pathElem) {
	if len(c.reg.conv.Fields) > 0 {
		known = append(slices.Clone(known), c.reg.conv.Fields...)
	}
	sev := result.Warning
	if c.idFromPath && !c.run.strict {
		sev = result.Info
	}
	c.warnUnknown(func(_ result.Severity, typ result.Type, rule string, p Pos, sugg, format string, args ...any) {
		if sev == result.Info {
			sugg += "; or list it under fields: in " + RegistryFile
		}
		c.report(sev, typ, rule, p, sugg, format, args...)
	}, known, what, path...)
}

// guessBase names the base kind a tool of an undeclared type most likely
// is, for the declaration a warning suggests.
func guessBase(t *Tool) ToolType {
	switch {
	case t.Executor == "" || t.nullExec:
		return configKind
	case t.Config["server"] != nil:
		return MCPTool
	case t.Config["command"] != nil:
		return Runtime
	}
	return Script
}

// pathIDPattern is the rule for ids that come from paths: names of
// letters, digits, '_', '-' and '.', separated by '/'.
var pathIDPattern = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9_.-]*(/[A-Za-z0-9_][A-Za-z0-9_.-]*)*$`)

func typeStrings() []string {
	var s []string
	for _, t := range ToolTypes() {
		s = append(s, string(t))
	}
	return s
}

func typeList() string { return strings.Join(typeStrings(), ", ") }

// wantExecutor names, with its article, what a tool of type t is run by.
func wantExecutor(t ToolType) string {
	switch t {
	case Script:
		return "a runtime"
	case API:
		return "the http_client primitive"
	case MCPTool:
		return "an mcp_server"
	case MCPServer:
		return "the subprocess or http_client primitive"
	case Runtime:
		return "a primitive (subprocess or http_client)"
	}
	return "a tool"
}

// executorOK reports whether a tool of kind t may be run by ex; server is
// whether an MCP tool's config.server names its server.
func executorOK(t ToolType, ex *Tool, server bool) bool {
	switch t {
	case Script:
		return ex.kind == Runtime
	case API:
		return ex.kind == Primitive && path.Base(ex.ID) == HTTPClient
	case MCPTool:
		// The spec's shape runs the tool by its server; the registries'
		// shape runs it by a runtime that reads config.server.
		return ex.kind == MCPServer || ex.kind == Runtime && server
	case MCPServer:
		return ex.kind == Primitive
	case Runtime:
		return ex.kind == Primitive
	case Directive:
		return true
	}
	return false
}

// MaxChain is the longest executor chain followed.
const MaxChain = 32

// resolveRef resolves an executor or tool reference of the tool being
// linted, reporting an undeclared @primitive (a warning: the chain ends
// there) and a reference to nothing (an error with the closest ids). ok
// is false when nothing was found.
func (c *checker) resolveRef(ref, field string, at Pos) (*Tool, bool) {
	if t, ok := c.reg.Resolve(ref); ok {
		return t, true
	}
	if name, isAt := strings.CutPrefix(ref, "@"); isAt {
		c.report(result.Warning, result.ExecutorInvalid, "manifest.primitive_undeclared", at,
			fmt.Sprintf("Declare the host primitive in %s at the top of the tools directory: primitives: [%s]", RegistryFile, result.Clip(name, 60)),
			"%s '%s' names a host primitive judge does not know (it knows subprocess and http_client), so the chain was not followed further",
			field, result.Clip(ref, 60))
		return nil, false
	}
	sugg := "Add a tool with this id or path, or name one of the registry's tools"
	if cl := c.reg.closestIDs(ref); len(cl) > 0 {
		sugg = "Did you mean '" + strings.Join(cl, "', '") + "'?"
	}
	c.report(result.Error, result.ExecutorInvalid, "manifest.executor_missing", at, sugg,
		"%s '%s' of tool '%s' is not a tool in the registry (by id, by path, or as @primitive)", field, result.Clip(ref, 80), c.ID)
	return nil, false
}

// mcpServerRef resolves an MCP tool's config.server, when given, and
// reports a reference to nothing or to a tool that is not a server.
func (c *checker) mcpServerRef() {
	ref, ok := c.Config["server"].(string)
	if !ok || ref == "" {
		return
	}
	t, ok := c.resolveRef(ref, "config.server", c.posOf("config", "server"))
	if ok && t.kind != MCPServer {
		c.report(result.Error, result.ExecutorInvalid, "manifest.mcp_tool.server_type", c.posOf("config", "server"),
			"Point config.server at an mcp_server", "config.server '%s' is %s, not an mcp_server", result.Clip(ref, 80), kindOf(t.kind))
	}
}

// graph follows the tool's executor chain to a primitive: a missing link
// names the tool that refers to it, a cycle is printed, and each step's
// types must fit.
func (c *checker) graph() {
	server := false
	if c.kind == MCPTool {
		c.mcpServerRef()
		_, server = c.Config["server"].(string)
	}
	if c.Executor == "" || c.kind == Primitive || c.kind == Knowledge {
		return
	}
	at := c.fieldPos("executor")
	chain := []string{c.ID}
	seen := map[*Tool]int{c.Tool: 0}
	cur := c.Tool
	for range MaxChain {
		ex := cur.Executor
		if ex == "" {
			if cur.kind != Primitive && cur != c.Tool {
				c.report(result.Error, result.ExecutorInvalid, "manifest.executor_chain", at,
					fmt.Sprintf("Give %s an executor, or point this tool at one whose chain ends in a primitive", cur.ID),
					"Executor chain %s does not reach a primitive: %s has no executor", strings.Join(chain, " -> "), cur.ID)
			}
			return
		}
		var next *Tool
		if cur == c.Tool {
			n, ok := c.resolveRef(ex, "Executor", at)
			if !ok {
				return
			}
			next = n
		} else {
			n, ok := c.reg.Resolve(ex)
			if !ok {
				if strings.HasPrefix(ex, "@") {
					return // reported on that tool
				}
				c.report(result.Error, result.ExecutorInvalid, "manifest.executor_chain", at,
					fmt.Sprintf("Fix the executor of %s", cur.ID),
					"Executor chain %s -> %s breaks: '%s', the executor of %s, is not in the registry",
					strings.Join(chain, " -> "), ex, ex, cur.ID)
				return
			}
			next = n
		}
		if cur == c.Tool && c.kind != "" && c.kind != configKind && !executorOK(c.kind, next, server) {
			c.report(result.Error, result.ExecutorInvalid, "manifest."+string(c.kind)+".executor_type", at,
				fmt.Sprintf("Point executor at %s", wantExecutor(c.kind)),
				"Executor '%s' is %s, but %s must be run by %s", ex, kindOf(next.kind), withArticle(c.kind), wantExecutor(c.kind))
		}
		if i, loop := seen[next]; loop {
			cycle := append(slices.Clone(chain[i:]), next.ID)
			if i == 0 {
				c.report(result.Error, result.ExecutorInvalid, "manifest.executor_cycle", at,
					"Break the cycle: one tool of it must be run by a primitive (subprocess or http_client)",
					"Executor chain forms a cycle: %s", strings.Join(cycle, " -> "))
			} else {
				c.report(result.Error, result.ExecutorInvalid, "manifest.executor_cycle", at,
					"Break the cycle so that the chain ends in a primitive (subprocess or http_client)",
					"Executor chain %s never reaches a primitive: it enters the cycle %s",
					strings.Join(chain[:i+1], " -> "), strings.Join(cycle, " -> "))
			}
			return
		}
		chain = append(chain, next.ID)
		seen[next] = len(chain) - 1
		cur = next
		if cur.kind == Primitive || cur.kind == configKind && cur.Executor == "" {
			return
		}
	}
	c.report(result.Error, result.ExecutorInvalid, "manifest.executor_chain", at,
		"Shorten the executor chain", "Executor chain %s is longer than %d steps", strings.Join(chain, " -> "), MaxChain)
}

// withArticle names a tool of type t with its article: "an mcp_server",
// "a runtime", "a knowledge entry".
func withArticle(t ToolType) string {
	switch {
	case !t.Valid():
		return "a tool of unknown type"
	case t == Knowledge:
		return "a knowledge entry"
	case t == Primitive:
		return "a primitive"
	}
	return withArticleText(string(t)) + " tool"
}

// kindOf names the type t with its article: "a runtime", "an
// mcp_server", "a knowledge entry".
func kindOf(t ToolType) string {
	switch {
	case !t.Valid():
		return "a tool of unknown type"
	case t == Knowledge:
		return "a knowledge entry"
	}
	return withArticleText(string(t))
}

// withArticleText puts "a" or "an" before s, as it is read aloud:
// "an mcp_server", "an api", "a runtime".
func withArticleText(s string) string {
	if strings.HasPrefix(s, "mcp") {
		return "an " + s
	}
	switch {
	case s == "":
		return s
	case strings.ContainsRune("aeiou", rune(s[0])):
		return "an " + s
	}
	return "a " + s
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// provider reports what model providers would reject in the tool's
// definition.
func (c *checker) provider() {
	c.ran = append(c.ran, "provider")
	for _, f := range providerFindings(c.ID, c.Description, c.schema) {
		if f.rule == "provider.name" && (!idPattern.MatchString(c.ID) || c.idFromPath) {
			continue // already an error of the tool_id, or a path judge tools export renames
		}
		if f.rule == "provider.description" {
			continue // already an error of layer 1
		}
		p := c.schemaPos(f.ptr)
		if f.onToolName {
			p = c.fieldPos("tool_id")
		}
		c.report(result.Warning, result.ProviderIncompatible, f.rule, p, f.sugg, "%s", f.msg)
	}
}
