package manifest

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/agentjudge/judge/internal/code"
	"github.com/agentjudge/judge/internal/jsonvalue"
	"github.com/agentjudge/judge/result"
)

// contractConfig are the config fields of a callable tool that the
// tool-call checks read (package toolcall, docs/toolcall.md).
var contractConfig = []string{"rules", "applies_when", "next_tools", "allow_unknown_parameters", "tier"}

// Known config fields per tool type.
var (
	scriptConfig    = append([]string{"entrypoint", "requires", "language", "args", "timeout", "env", "working_dir"}, contractConfig...)
	apiConfig       = append([]string{"method", "url", "url_template", "headers", "body", "query", "response_transform", "timeout", "auth"}, contractConfig...)
	mcpToolConfig   = append([]string{"mcp_tool_name", "tool_name", "server", "timeout"}, contractConfig...)
	mcpServerConfig = []string{"transport", "command", "args", "env", "url", "headers", "startup_timeout", "cwd", "timeout"}
	runtimeConfig   = []string{"command", "args", "url", "env", "language", "version", "extensions", "timeout", "input"}
)

// configString reads config.key as a string; absent is "", false.
func (c *checker) configString(key string) (string, bool) {
	n, _ := c.lookup("config", key)
	if n == nil || n.kind == kindNull {
		return "", false
	}
	s, ok := n.str()
	if !ok {
		c.report(result.Error, result.InvalidType, "manifest.type", n.pos, "Write config."+key+" as a string",
			"Field 'config.%s' must be a string, not %s", key, n.describe())
		return "", false
	}
	return s, true
}

// requireConfig reports a missing config.key.
func (c *checker) requireConfig(key, rule, sugg string) (string, bool) {
	s, ok := c.configString(key)
	if !ok || strings.TrimSpace(s) == "" {
		if n, _ := c.lookup("config", key); n == nil || n.kind == kindNull || n.kind == kindScalar {
			c.report(result.Error, result.MissingField, rule, c.posOf("config", key), sugg,
				"%s requires config.%s, and it is missing or empty", capitalize(withArticle(c.Type)), key)
		}
		return "", false
	}
	return s, true
}

// singleFile reports a tool that should be one NAME.yaml but is not.
func (c *checker) singleFile() {
	if c.Form != FormFile {
		c.report(result.Error, result.ConstraintViolation, "manifest."+string(c.Type)+".single_file", c.startPos(),
			"Write the whole tool as one NAME.yaml file beside the other tools",
			"%s is a single manifest file with no other files, but this one is a %s", capitalize(withArticle(c.Type)), formName(c.Form))
	}
}

func formName(f Form) string {
	switch f {
	case FormDir:
		return "directory with tool.yaml"
	case FormEmbedded:
		return "script with embedded metadata"
	case FormMarkdown:
		return "Markdown file"
	case FormXML:
		return "XML file"
	}
	return "single file"
}

func (c *checker) primitive() {
	if c.idFromPath {
		// A registry names its primitives by path: rye/core/primitives/subprocess.
		if _, ok := c.reg.conv.primitive(path.Base(c.ID)); ok || slices.Contains(c.reg.conv.Primitives, c.ID) {
			return
		}
		c.report(result.Warning, result.ConstraintViolation, "manifest.primitive_undeclared", c.startPos(),
			fmt.Sprintf("Declare the host primitive in %s at the top of the tools directory: primitives: [%s]", RegistryFile, result.Clip(c.ID, 80)),
			"Primitive '%s' is not one judge knows (subprocess, http_client) nor one the registry declares", result.Clip(c.ID, 80))
		return
	}
	if _, ok := c.reg.conv.primitive(c.ID); !ok && c.ID != "" {
		c.report(result.Error, result.ConstraintViolation, "manifest.primitive.builtin", c.fieldPos("tool_id"),
			"Declare this tool as a runtime run by subprocess or http_client",
			"Primitive '%s' is not one of the built-in primitives (subprocess, http_client)", result.Clip(c.ID, 60))
	}
}

func (c *checker) runtime() {
	c.checkUnknown(runtimeConfig, "a runtime's config", "config")
	cmd, hasCmd := c.configString("command")
	u, hasURL := c.configString("url")
	if (!hasCmd || cmd == "") && (!hasURL || u == "") {
		c.report(result.Error, result.MissingField, "manifest.runtime.command", c.posOf("config"),
			"Add config.command (the interpreter, such as python3) or config.url",
			"A runtime requires config.command or config.url, and neither is given")
	}
	if hasURL && u != "" {
		c.checkURL("url", u, []string{"http", "https"})
	}
	c.checkArgs()
}

// checkArgs checks that config.args is a list of strings.
func (c *checker) checkArgs() {
	n, _ := c.lookup("config", "args")
	if n == nil || n.kind == kindNull {
		return
	}
	if n.kind != kindSeq {
		c.report(result.Error, result.InvalidType, "manifest.type", n.pos, "Write args as a list of strings, one argument each",
			"Field 'config.args' must be a list of strings, not %s", n.describe())
		return
	}
	for i, it := range n.items {
		if lit := it.field("literal"); it.kind == kindMap && len(it.keys) == 1 && lit != nil && lit.kind == kindScalar {
			continue // a literal block argument, as registries write long ones
		}
		if it.kind != kindScalar {
			c.report(result.Error, result.InvalidType, "manifest.type", it.pos, "Write each argument as a string",
				"Field 'config.args[%d]' must be a string, not %s", i, it.describe())
		}
	}
}

// checkURL checks that config.key holds an absolute URL with one of
// schemes, after {var} and ${ENV} placeholders are filled.
func (c *checker) checkURL(key, raw string, schemes []string) {
	p := c.posOf("config", key)
	filled, err := fillTemplate(raw)
	if err != nil {
		c.report(result.Error, result.SyntaxError, "manifest.url_template", p, "Close every '{' with '}' and do not nest them",
			"config.%s '%s' is not a valid template: %v", key, result.Clip(raw, 120), err)
		return
	}
	u, err := url.Parse(filled)
	if err != nil || !u.IsAbs() || u.Host == "" || !slices.Contains(schemes, strings.ToLower(u.Scheme)) {
		c.report(result.Error, result.ConstraintViolation, "manifest.url", p,
			fmt.Sprintf("Write an absolute %s URL such as %s://api.example.com/v1", strings.Join(schemes, " or "), schemes[0]),
			"config.%s '%s' is not an absolute %s URL", key, result.Clip(raw, 120), strings.Join(schemes, "/"))
	}
}

// templateVar matches a {var}; templateVars drops ${ENV} references.
var templateVar = regexp.MustCompile(`\{([^{}]*)\}`)

// templateVars returns the names of the {var} placeholders of a template,
// without its ${ENV} references.
func templateVars(tmpl string) []string {
	var out []string
	for _, m := range templateVar.FindAllStringSubmatchIndex(tmpl, -1) {
		if m[0] > 0 && tmpl[m[0]-1] == '$' {
			continue
		}
		out = append(out, strings.TrimSpace(tmpl[m[2]:m[3]]))
	}
	return out
}

// fillTemplate replaces ${ENV} and {var} with a placeholder, and rejects
// unbalanced braces.
func fillTemplate(s string) (string, error) {
	var sb strings.Builder
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '{':
			if depth > 0 {
				return "", fmt.Errorf("'{' at offset %d opens inside another placeholder", i)
			}
			depth++
			if sb.Len() > 0 && strings.HasSuffix(sb.String(), "$") {
				str := sb.String()
				sb.Reset()
				sb.WriteString(str[:len(str)-1])
			}
			sb.WriteString("x")
		case '}':
			if depth == 0 {
				return "", fmt.Errorf("'}' at offset %d closes nothing", i)
			}
			depth--
		default:
			if depth == 0 {
				sb.WriteByte(s[i])
			}
		}
	}
	if depth > 0 {
		return "", errors.New("a '{' is never closed")
	}
	return sb.String(), nil
}

func (c *checker) api() {
	c.singleFile()
	c.checkUnknown(apiConfig, "an api tool's config", "config")
	method, ok := c.requireConfig("method", "manifest.api.method", "Add config.method: GET, POST, PUT, PATCH or DELETE")
	if ok {
		methods := []string{"GET", "POST", "PUT", "PATCH", "DELETE"}
		if !slices.Contains(methods, method) {
			sugg := "Use one of GET, POST, PUT, PATCH, DELETE"
			if slices.Contains(methods, strings.ToUpper(method)) {
				sugg = "Write the method in capitals: " + strings.ToUpper(method)
			}
			c.report(result.Error, result.ConstraintViolation, "manifest.api.method", c.posOf("config", "method"), sugg,
				"HTTP method '%s' is not one of GET, POST, PUT, PATCH, DELETE", result.Clip(method, 40))
		}
	}
	tmpl, hasTmpl := c.configString("url_template")
	u, hasURL := c.configString("url")
	key, raw := "url_template", tmpl
	switch {
	case hasTmpl && hasURL:
		c.report(result.Warning, result.ConstraintViolation, "manifest.api.url", c.keyPosOf("config", "url"),
			"Keep one of url and url_template", "Both config.url and config.url_template are given; url_template is used")
	case hasURL:
		key, raw = "url", u
	case !hasTmpl:
		c.report(result.Error, result.MissingField, "manifest.api.url", c.posOf("config"),
			"Add config.url_template, such as https://api.example.com/v1/items/{id}",
			"An api tool requires config.url or config.url_template, and neither is given")
	}
	params := c.paramNames()
	if raw != "" {
		c.checkURL(key, raw, []string{"http", "https"})
		for _, name := range templateVars(raw) {
			if _, ok := params[name]; !ok {
				c.report(result.Error, result.ConstraintViolation, "manifest.api.template_var", c.posOf("config", key),
					fmt.Sprintf("Declare a parameter named '%s', or remove {%s} from the template", name, name),
					"Template variable {%s} in config.%s is not a declared parameter", result.Clip(name, 60), key)
			}
		}
	}
	// Every required parameter must reach the request somewhere.
	var used strings.Builder
	for _, k := range []string{"url", "url_template", "body", "query", "headers"} {
		collectStrings(c.Config[k], &used, 0)
	}
	for _, name := range sortedKeys(params) {
		if !params[name] {
			continue
		}
		if strings.Contains(used.String(), "{"+name+"}") || queryNames(c.Config["query"], name) || bodyNames(c.Config["body"], name) {
			continue
		}
		c.report(result.Error, result.ConstraintViolation, "manifest.api.unused_parameter", c.paramPos(name),
			fmt.Sprintf("Use {%s} in url_template, body or query, or make the parameter optional", name),
			"Required parameter '%s' is used nowhere in the request (url_template, body or query)", name)
	}
	c.checkEnvRefs()
	if rt, ok := c.configString("response_transform"); ok {
		if _, err := ParseJSONPath(rt); err != nil {
			var pe *JSONPathError
			col := 0
			if errors.As(err, &pe) {
				col = pe.Offset
			}
			p := c.posOf("config", "response_transform")
			c.report(result.Error, result.SyntaxError, "manifest.api.response_transform", p,
				"Write a JSONPath such as $.data.items[0:10] or $.results[*].name",
				"config.response_transform '%s' is not a valid JSONPath (at character %d): %v", result.Clip(rt, 120), col+1, err)
		}
	}
	if h := c.doc.field("config").field("headers"); h != nil && h.kind != kindNull {
		if h.kind != kindMap {
			c.report(result.Error, result.InvalidType, "manifest.type", h.pos, "Write headers as a mapping of name: value",
				"Field 'config.headers' must be a mapping, not %s", h.describe())
		} else {
			for _, k := range h.keys {
				if _, ok := h.fields[k].str(); !ok {
					c.report(result.Error, result.InvalidType, "manifest.type", h.fields[k].pos, "Write the header value as a string",
						"Header '%s' must be a string, not %s", k, h.fields[k].describe())
				}
			}
		}
	}
}

// paramNames maps each declared parameter to whether it is required.
func (c *checker) paramNames() map[string]bool {
	out := map[string]bool{}
	if c.schema == nil {
		return out
	}
	props, _ := c.schema["properties"].(map[string]any)
	for k := range props {
		out[k] = false
	}
	if req, ok := c.schema["required"].([]any); ok {
		for _, r := range req {
			if s, ok := r.(string); ok {
				out[s] = true
			}
		}
	}
	return out
}

// paramPos is where the parameter name is declared.
func (c *checker) paramPos(name string) Pos {
	return c.schemaPos([]string{"properties", name})
}

func collectStrings(v any, sb *strings.Builder, depth int) {
	if depth > MaxDepth {
		return
	}
	switch x := v.(type) {
	case string:
		sb.WriteString(x)
		sb.WriteByte('\n')
	case map[string]any:
		for k, e := range x {
			sb.WriteString(k)
			sb.WriteByte('\n')
			collectStrings(e, sb, depth+1)
		}
	case []any:
		for _, e := range x {
			collectStrings(e, sb, depth+1)
		}
	}
}

// queryNames reports whether a query list or mapping names the parameter.
func queryNames(q any, name string) bool {
	switch x := q.(type) {
	case []any:
		return slices.Contains(x, any(name))
	case map[string]any:
		_, ok := x[name]
		return ok
	}
	return false
}

// bodyNames reports whether a body given as a list of parameter names
// names it.
func bodyNames(b any, name string) bool {
	if x, ok := b.([]any); ok {
		return slices.Contains(x, any(name))
	}
	return false
}

// envRef matches ${NAME} references; envOpen finds every "${".
var envRef = regexp.MustCompile(`\$\{([^}]*)\}`)

var envName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// envRefs returns the environment variables config references, sorted,
// once each.
func envRefs(config map[string]any) []string {
	var sb strings.Builder
	collectStrings(config, &sb, 0)
	var out []string
	for _, m := range envRef.FindAllStringSubmatch(sb.String(), -1) {
		if envName.MatchString(m[1]) && !slices.Contains(out, m[1]) {
			out = append(out, m[1])
		}
	}
	slices.Sort(out)
	return out
}

// checkEnvRefs reports malformed ${ENV} references in config.
func (c *checker) checkEnvRefs() {
	cfg := c.doc.field("config")
	if cfg == nil {
		return
	}
	var walk func(n *node, path []pathElem, depth int)
	walk = func(n *node, path []pathElem, depth int) {
		if n == nil || depth > MaxDepth {
			return
		}
		switch n.kind {
		case kindMap:
			for _, k := range n.keys {
				walk(n.fields[k], append(slices.Clone(path), k), depth+1)
			}
		case kindSeq:
			for i, it := range n.items {
				walk(it, append(slices.Clone(path), i), depth+1)
			}
		case kindScalar:
			s, ok := n.str()
			if !ok {
				return
			}
			for i := 0; i < len(s); i++ {
				if !strings.HasPrefix(s[i:], "${") {
					continue
				}
				end := strings.IndexByte(s[i:], '}')
				if end < 0 {
					c.report(result.Error, result.SyntaxError, "manifest.env_ref", n.pos, "Close the reference: ${NAME}",
						"Environment reference in config.%s is never closed: '%s'", dotted(path...), result.Clip(s[i:], 60))
					return
				}
				name := s[i+2 : i+end]
				if !envName.MatchString(name) {
					c.report(result.Error, result.SyntaxError, "manifest.env_ref", n.pos,
						"Name the variable with letters, digits and '_', not starting with a digit",
						"Environment reference '${%s}' in config.%s is not a valid variable name", result.Clip(name, 60), dotted(path...))
				}
				i += end
			}
		}
	}
	walk(cfg, nil, 0)
}

func (c *checker) mcpTool() {
	c.singleFile()
	c.checkUnknown(mcpToolConfig, "an mcp_tool's config", "config")
	if s, ok := c.configString("tool_name"); ok && s != "" {
		return // the registries' name of mcp_tool_name
	}
	c.requireConfig("mcp_tool_name", "manifest.mcp_tool.name", "Add config.mcp_tool_name: the tool's name in the server's tools/list")
}

func (c *checker) mcpServer() {
	c.checkUnknown(mcpServerConfig, "an mcp_server's config", "config")
	c.checkEnvRefs()
	tr, ok := c.requireConfig("transport", "manifest.mcp_server.transport", "Add config.transport: stdio, sse, streamable-http or websocket")
	if !ok {
		return
	}
	if tr == "http" {
		tr = "streamable-http" // the common name of streamable HTTP
	}
	switch tr {
	case "stdio":
		cmd, ok := c.requireConfig("command", "manifest.mcp_server.command", "Add config.command: the program that starts the server, such as npx")
		if ok && strings.ContainsAny(strings.TrimSpace(cmd), " \t") {
			c.report(result.Warning, result.SecurityIssue, "manifest.mcp_server.shell_command", c.posOf("config", "command"),
				"Put the program alone in command and each argument in args",
				"config.command '%s' holds spaces; it is run as one program name, never through a shell", result.Clip(cmd, 80))
		}
		c.checkArgs()
		if c.Executor != "" && c.Executor != Subprocess {
			if ex, ok := c.reg.Lookup(c.Executor); ok && ex.ID == HTTPClient {
				c.report(result.Error, result.ExecutorInvalid, "manifest.mcp_server.transport_executor", c.fieldPos("executor"),
					"Use executor: subprocess for a stdio server", "A stdio MCP server is spawned as a process, so its executor must be subprocess, not http_client")
			}
		}
	case "sse", "streamable-http", "websocket":
		schemes := []string{"http", "https"}
		if tr == "websocket" {
			schemes = []string{"ws", "wss"}
		}
		if u, ok := c.requireConfig("url", "manifest.mcp_server.url", "Add config.url: the server's endpoint"); ok {
			c.checkURL("url", u, schemes)
		}
		if ex, ok := c.reg.Lookup(c.Executor); ok && ex.ID == Subprocess {
			c.report(result.Error, result.ExecutorInvalid, "manifest.mcp_server.transport_executor", c.fieldPos("executor"),
				"Use executor: http_client for a server reached by URL",
				"An MCP server reached over %s is called over the network, so its executor must be http_client, not subprocess", tr)
		}
	default:
		sugg := "Use one of stdio, sse, streamable-http, websocket"
		if strings.Contains(strings.ToLower(tr), "http") {
			sugg = "Use transport: streamable-http"
		}
		c.report(result.Error, result.ConstraintViolation, "manifest.mcp_server.transport", c.posOf("config", "transport"), sugg,
			"Transport '%s' is not one of stdio, sse, streamable-http, websocket", result.Clip(tr, 40))
	}
	if n, _ := c.lookup("config", "startup_timeout"); n != nil && n.kind != kindNull {
		if f, ok := n.number(); !ok || f <= 0 {
			c.report(result.Error, result.ConstraintViolation, "manifest.mcp_server.startup_timeout", n.pos,
				"Give the startup timeout as a positive number of seconds, such as 10",
				"config.startup_timeout must be a positive number of seconds, not %s", result.Clip(n.text, 40))
		}
	}
}

func (c *checker) script() {
	if c.Form == FormFile {
		c.report(result.Error, result.ConstraintViolation, "manifest.script.files", c.startPos(),
			"Move the manifest to DIR/tool.yaml beside the entrypoint, or embed the metadata in the script",
			"A script tool has files, but this one is a single manifest with no directory")
		return
	}
	c.checkUnknown(scriptConfig, "a script's config", "config")
	var ep string
	epPos := c.posOf("config", "entrypoint")
	if c.Form == FormEmbedded {
		ep, epPos = path.Base(c.rel), Pos{1, 1}
		if s, ok := c.configString("entrypoint"); ok && s != "" {
			ep = s
		}
	} else {
		s, ok := c.requireConfig("entrypoint", "manifest.script.entrypoint", "Add config.entrypoint: the file that runs, such as main.py")
		if !ok {
			c.checkRequirements()
			return
		}
		ep = s
	}
	if c.checkEntrypoint(ep, epPos) {
		c.syntax(ep, epPos)
	}
	c.checkRequirements()
}

// checkEntrypoint checks that ep is inside the tool's directory and is a
// file there; it reports true when the file can be read.
func (c *checker) checkEntrypoint(ep string, p Pos) bool {
	if path.IsAbs(ep) || strings.HasPrefix(ep, `\`) || (len(ep) > 1 && ep[1] == ':') {
		c.report(result.Error, result.SecurityIssue, "manifest.script.entrypoint_escape", p,
			"Give the entrypoint relative to the tool's directory, such as main.py",
			"Entrypoint '%s' is an absolute path; it must be inside the tool's directory", result.Clip(ep, 120))
		return false
	}
	clean := path.Clean(strings.ReplaceAll(ep, `\`, "/"))
	if clean == ".." || strings.HasPrefix(clean, "../") || slices.Contains(strings.Split(ep, "/"), "..") {
		c.report(result.Error, result.SecurityIssue, "manifest.script.entrypoint_escape", p,
			"Move the file into the tool's directory and name it relative to it",
			"Entrypoint '%s' uses '..'; it must stay inside the tool's directory", result.Clip(ep, 120))
		return false
	}
	if c.reg.fsys == nil || c.root >= len(c.reg.fsys) {
		return false
	}
	fsys := c.reg.fsys[c.root]
	full := path.Join(c.Dir, clean)
	// No component of the path may be a link that leads out.
	parts := strings.Split(clean, "/")
	for i := range parts {
		sub := path.Join(c.Dir, path.Join(parts[:i+1]...))
		st, err := fs.Lstat(fsys, sub)
		if err != nil {
			break
		}
		if st.Mode()&fs.ModeSymlink == 0 {
			continue
		}
		target, err := fs.ReadLink(fsys, sub)
		if err != nil || path.IsAbs(target) || !inside(c.Dir, path.Join(path.Dir(sub), target)) {
			c.report(result.Error, result.SecurityIssue, "manifest.script.entrypoint_escape", p,
				"Replace the link with the file itself",
				"Entrypoint '%s' passes through the symbolic link %s, which points outside the tool's directory", result.Clip(ep, 120), path.Base(sub))
			return false
		}
	}
	st, err := fs.Stat(fsys, full)
	if err != nil {
		c.report(result.Error, result.FileMissing, "manifest.script.entrypoint_missing", p,
			"Add the file, or correct config.entrypoint",
			"Entrypoint '%s' does not exist in %s", result.Clip(ep, 120), c.dirName())
		return false
	}
	if st.IsDir() {
		c.report(result.Error, result.FileMissing, "manifest.script.entrypoint_missing", p,
			"Name the file inside the directory, such as "+path.Join(ep, "main.py"),
			"Entrypoint '%s' is a directory, not a file", result.Clip(ep, 120))
		return false
	}
	return true
}

func (c *checker) dirName() string {
	return path.Dir(c.Path)
}

// inside reports whether p (cleaned) is dir or below it.
func inside(dir, p string) bool {
	dir, p = path.Clean(dir), path.Clean(p)
	if dir == "." {
		return p != ".." && !strings.HasPrefix(p, "../")
	}
	return p == dir || strings.HasPrefix(p, dir+"/")
}

// syntax parses the entrypoint with tree-sitter (internal/code) and
// reports its first syntax error at the script's own line and column. A
// language without a parser, or a script over the parser's limits, is
// reported as not checked rather than passed.
func (c *checker) syntax(ep string, p Pos) {
	clean := path.Clean(ep)
	full := path.Join(c.Dir, clean)
	file := c.Path
	if c.Form == FormDir {
		file = c.Path[:len(c.Path)-len(path.Base(c.rel))] + filepath.FromSlash(clean)
	}
	src, err := readFile(c.reg.fsys[c.root], full)
	if err != nil {
		c.report(result.Info, result.NotChecked, "manifest.script.syntax", p,
			"Make the entrypoint readable so that its syntax can be checked",
			"The syntax of entrypoint '%s' was not checked: %v", result.Clip(ep, 120), errText(err))
		return
	}
	lang, ok := scriptLanguage(c.configStringQuiet("language"), clean, src)
	if !ok {
		c.report(result.Info, result.NotChecked, "manifest.script.syntax", p,
			"Set config.language to python, javascript, typescript, go or bash when the script is one of them",
			"The syntax of entrypoint '%s' was not checked: judge parses Python, JavaScript, TypeScript, Go and Bash, and this is none of them by its extension, shebang or config.language", result.Clip(ep, 120))
		return
	}
	f, err := code.Parse(c.run.ctx, lang, src)
	if err != nil {
		c.report(result.Info, result.NotChecked, "manifest.script.syntax", p,
			"Check the script with its own linter", "The syntax of entrypoint '%s' was not checked: %v", result.Clip(ep, 120), err)
		return
	}
	if f.Syntax != nil {
		c.issues = append(c.issues, result.Issue{Severity: result.Error, Type: result.SyntaxError, Rule: "manifest.script.syntax",
			Location:   fmt.Sprintf("%s:%d:%d", file, f.Syntax.Line, f.Syntax.Col),
			Message:    fmt.Sprintf("Entrypoint '%s' is not valid %s: %s", result.Clip(ep, 120), lang, f.Syntax.Msg),
			Suggestion: "Correct the code at this line and column"})
	}
}

// configStringQuiet reads config.key as a string without reporting.
func (c *checker) configStringQuiet(key string) string {
	n, _ := c.lookup("config", key)
	s, _ := n.str()
	return s
}

// scriptLanguage is the language of a script: config.language, else its
// extension, else its shebang.
func scriptLanguage(declared, name string, src []byte) (code.Language, bool) {
	if declared != "" {
		return code.LookupLanguage(declared)
	}
	if l, ok := code.ByExtension(name); ok {
		return l, true
	}
	first, _, _ := strings.Cut(string(src[:min(len(src), 200)]), "\n")
	if !strings.HasPrefix(first, "#!") {
		return "", false
	}
	fields := strings.Fields(strings.TrimPrefix(first, "#!"))
	if len(fields) == 0 {
		return "", false
	}
	interp := path.Base(fields[0])
	if interp == "env" && len(fields) > 1 {
		interp = fields[len(fields)-1]
	}
	interp = strings.TrimRight(interp, "0123456789.")
	switch interp {
	case "sh", "bash", "dash", "zsh", "ksh":
		return code.Bash, true
	}
	return code.LookupLanguage(interp)
}

// pep508Name is a Python distribution name (PEP 508).
const pep508Name = `[A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?`

// requirementLine is a PEP 508 requirement without URL: a name, extras,
// version specifiers and markers.
var requirementLine = regexp.MustCompile(`^` + pep508Name + `\s*(\[\s*[A-Za-z0-9._-]+(\s*,\s*[A-Za-z0-9._-]+)*\s*\])?\s*(\(?\s*(===|==|!=|~=|<=|>=|<|>)\s*[A-Za-z0-9.*+!_-]+(\s*,\s*(===|==|!=|~=|<=|>=|<|>)\s*[A-Za-z0-9.*+!_-]+)*\s*\)?)?\s*(;\s*\S.*)?$`)

// urlRequirement is "name @ url".
var urlRequirement = regexp.MustCompile(`^` + pep508Name + `\s*(\[[^\]]*\])?\s*@\s*\S+(\s*;\s*\S.*)?$`)

// requirementOptions are the pip options a requirements file may hold.
var requirementOptions = []string{"-r", "-c", "-e", "-i", "-f", "--requirement", "--constraint", "--editable", "--index-url",
	"--extra-index-url", "--find-links", "--no-index", "--pre", "--prefer-binary", "--trusted-host", "--only-binary", "--no-binary", "--hash"}

// validRequirement reports whether a line of a requirements file is well
// formed; the empty string (a blank or comment line) is.
func validRequirement(line string) bool {
	if i := strings.Index(line, " #"); i >= 0 {
		line = line[:i]
	}
	line = strings.TrimSpace(line)
	if line == "" || strings.HasPrefix(line, "#") {
		return true
	}
	if strings.HasPrefix(line, "-") {
		opt, _, _ := strings.Cut(line, " ")
		opt, _, _ = strings.Cut(opt, "=")
		return slices.Contains(requirementOptions, opt)
	}
	if i := strings.Index(line, " --hash"); i >= 0 {
		line = line[:i]
	}
	return pep508(line)
}

// pep508 reports whether s, blanks around it aside, is one PEP 508
// requirement: no pip option, comment or --hash, which only a line of a
// requirements file may hold.
func pep508(s string) bool {
	s = strings.TrimSpace(s)
	return requirementLine.MatchString(s) || urlRequirement.MatchString(s)
}

// checkRequirements checks config.requires and the dependency files of a
// script's directory (requirements.txt, package.json, pyproject.toml,
// go.mod).
func (c *checker) checkRequirements() {
	if n, _ := c.lookup("config", "requires"); n != nil && n.kind != kindNull {
		if n.kind != kindSeq {
			c.report(result.Error, result.InvalidType, "manifest.type", n.pos, "Write requires as a list of requirements, such as httpx>=0.24",
				"Field 'config.requires' must be a list, not %s", n.describe())
		} else {
			for i, it := range n.items {
				s, ok := it.str()
				if !ok || !validRequirement(s) || strings.TrimSpace(s) == "" {
					c.report(result.Error, result.SyntaxError, "manifest.script.requirement", it.pos,
						"Write a requirement as NAME, NAME==1.2 or NAME>=1.0,<2",
						"config.requires[%d] '%s' is not a well-formed requirement", i, result.Clip(it.text, 80))
				}
			}
		}
	}
	if c.reg.fsys == nil || c.root >= len(c.reg.fsys) || c.Form != FormDir {
		return
	}
	if data, file, ok := c.depFile("requirements.txt"); ok {
		for i, line := range strings.Split(string(data), "\n") {
			if !validRequirement(strings.TrimRight(line, "\r")) {
				c.issues = append(c.issues, result.Issue{Severity: result.Error, Type: result.SyntaxError, Rule: "manifest.script.requirement",
					Location:   fmt.Sprintf("%s:%d:1", file, i+1),
					Message:    fmt.Sprintf("Line %d of requirements.txt is not a well-formed requirement: '%s'", i+1, result.Clip(strings.TrimSpace(line), 80)),
					Suggestion: "Write a requirement as NAME, NAME==1.2 or NAME>=1.0,<2, or a pip option such as -r other.txt"})
			}
		}
	}
	if data, file, ok := c.depFile("package.json"); ok {
		// npm reads a package.json that starts with a byte-order mark.
		data = jsonvalue.TrimBOM(data)
		var v map[string]any
		err := json.Unmarshal(data, &v)
		if err == nil && v == nil {
			err = errors.New("it is null")
		}
		bad := invalidUTF8(data)
		if err == nil && bad >= 0 {
			// encoding/json would read U+FFFD in its place; judge refuses
			// invalid UTF-8 everywhere rather than change the input.
			err = fmt.Errorf("invalid UTF-8 (byte 0x%02x) at byte offset %d", data[bad], bad)
		}
		if err != nil {
			line, col := 1, 1
			var se *json.SyntaxError
			switch {
			case errors.As(err, &se):
				line, col = lineCol(data, int(se.Offset))
			case bad >= 0:
				line, col = lineCol(data, bad)
			}
			c.issues = append(c.issues, result.Issue{Severity: result.Error, Type: result.SyntaxError, Rule: "manifest.script.package_json",
				Location: fmt.Sprintf("%s:%d:%d", file, line, col), Message: "package.json is not a valid JSON object: " + err.Error(),
				Suggestion: "Correct the JSON at this position"})
		}
	}
	if data, file, ok := c.depFile("pyproject.toml"); ok {
		c.addDepFindings(file, pyprojectFindings(data))
	}
	if data, file, ok := c.depFile("go.mod"); ok {
		c.addDepFindings(file, goModFindings(data))
	}
}

// depFile reads the dependency file name of the script's directory and
// returns its contents and its path as issues name it. ok is false when
// the file is absent or unreadable; a file over MaxFileBytes is not read
// (nor parsed) and is reported as not checked.
func (c *checker) depFile(name string) (data []byte, file string, ok bool) {
	file = c.Path[:len(c.Path)-len(path.Base(c.rel))] + name
	data, err := readFile(c.reg.fsys[c.root], path.Join(c.Dir, name))
	if errors.Is(err, errTooLarge) {
		c.issues = append(c.issues, result.Issue{Severity: result.Info, Type: result.NotChecked, Rule: "manifest.script.dependencies",
			Location:   file + ":1:1",
			Message:    fmt.Sprintf("%s is larger than %d bytes, so its dependencies were not checked", name, MaxFileBytes),
			Suggestion: "Shorten the file, or check it with its own tools"})
	}
	return data, file, err == nil
}

// addDepFindings reports the findings of the dependency file file.
func (c *checker) addDepFindings(file string, fs []depFinding) {
	for _, f := range fs {
		c.issues = append(c.issues, result.Issue{Severity: f.sev, Type: f.typ, Rule: f.rule,
			Location: fmt.Sprintf("%s:%d:%d", file, max(f.pos.Line, 1), max(f.pos.Col, 1)), Message: f.msg, Suggestion: f.sugg})
	}
}

// lineCol converts a byte offset of data to a 1-based line and column.
func lineCol(data []byte, off int) (int, int) {
	off = min(max(off, 0), len(data))
	line, col := 1, 1
	for _, b := range data[:off] {
		if b == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return line, col
}

// knowledgeFields are the frontmatter keys of a knowledge entry.
var knowledgeFields = []string{"id", "title", "entry_type", "category", "tags", "version", "description", "author",
	"created_at", "updated_at", "references", "name", "executor", "executor_id"}

func (c *checker) knowledge() {
	if c.Form != FormMarkdown {
		c.report(result.Error, result.ConstraintViolation, "manifest.knowledge.markdown", c.startPos(),
			"Write the entry as NAME.md with YAML frontmatter (id, title, entry_type) and a Markdown body",
			"A knowledge entry is a Markdown file with YAML frontmatter, but this one is a %s", formName(c.Form))
		return
	}
	c.checkUnknown(knowledgeFields, "knowledge frontmatter")
	if s, ok := c.stringOf("entry_type"); !ok || strings.TrimSpace(s) == "" {
		c.report(result.Error, result.MissingField, "manifest.knowledge.entry_type", c.posOf("entry_type"),
			"Add entry_type: such as reference, pattern or learning", "Required frontmatter field 'entry_type' is missing or empty")
	}
	if c.ID != "" {
		stem := strings.TrimSuffix(path.Base(c.rel), path.Ext(c.rel))
		if stem != c.ID {
			c.report(result.Error, result.ConstraintViolation, "manifest.knowledge.id_file", c.fieldPos("tool_id"),
				fmt.Sprintf("Rename the file to %s%s, or set id: %s", c.ID, path.Ext(c.rel), stem),
				"Frontmatter id '%s' does not match the file name '%s'", result.Clip(c.ID, 60), path.Base(c.rel))
		}
	}
	if n := c.doc.field("tags"); n != nil && n.kind != kindNull {
		ok := n.kind == kindSeq
		for _, it := range n.items {
			if _, isStr := it.str(); !isStr {
				ok = false
			}
		}
		if !ok {
			c.report(result.Error, result.InvalidType, "manifest.type", n.pos, "Write tags as a list of strings: [a, b]",
				"Frontmatter field 'tags' must be a list of strings, not %s", n.describe())
		}
	}
	if n := c.doc.field("category"); n != nil && n.kind != kindNull {
		if _, ok := n.str(); !ok {
			c.report(result.Error, result.InvalidType, "manifest.type", n.pos, "Write category as a string",
				"Frontmatter field 'category' must be a string, not %s", n.describe())
		}
	}
	if len(strings.TrimSpace(string(c.body))) == 0 {
		c.report(result.Warning, result.MissingField, "manifest.knowledge.body", Pos{c.bodyAt, 1},
			"Write the entry's content below the frontmatter", "The knowledge entry has frontmatter but no content")
	}
}

// stringOf reads a top-level string without reporting its type.
func (c *checker) stringOf(key string) (string, bool) {
	return c.doc.field(key).str()
}

// invalidUTF8 is the offset of the first byte of data that is not valid
// UTF-8, or -1.
func invalidUTF8(data []byte) int {
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && size == 1 {
			return i
		}
		i += size
	}
	return -1
}
