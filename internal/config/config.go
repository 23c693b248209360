// Package config reads judge's configuration file: a small YAML document
// with an llm section (the model, as the JUDGE_LLM_* variables configure
// it), a serve section (the defaults of judge serve's flags) and a
// registry section (declarations added to every tool registry).
//
// [Find] says which file applies (--config, else JUDGE_CONFIG, else
// $XDG_CONFIG_HOME/judge/config.yaml when it exists), [Load] reads it
// strictly — an unknown key, a value of the wrong type or a file over
// [MaxBytes] is an [*Error] with file:line:column — and [File.LLMConfig]
// merges it with the environment, which wins. See docs/config.md.
package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"
)

// Limits on a config file.
const (
	// MaxBytes is the largest config file read: a real one takes well
	// under a kilobyte.
	MaxBytes = 64 << 10
	// maxNesting bounds flow brackets and "- " chains before the YAML
	// parser sees them: its time grows far faster than linearly with them
	// (64 KiB of '[' take a minute), and a config file needs two levels.
	maxNesting = 8
)

// EnvConfig names the environment variable that names the config file when
// no --config flag does.
const EnvConfig = "JUDGE_CONFIG"

// Pos is a 1-based line and column in a file; the zero Pos means the key
// is absent.
type Pos struct {
	Line, Col int
}

// String is a string value of the file and where it stands.
type String struct {
	Value string
	Pos   Pos // of the value; zero when the key is absent
}

// Set reports whether the file gives the key.
func (s String) Set() bool { return s.Pos.Line > 0 }

// LLM is the llm section: the model that judges plain-language criteria.
type LLM struct {
	// BaseURL is the OpenAI-compatible API's base URL, with its /v1
	// (base_url; JUDGE_LLM_BASE_URL overrides it).
	BaseURL String
	// Model is the model's name (model; JUDGE_LLM_MODEL overrides it).
	Model String
	// APIKey is the bearer token (api_key; JUDGE_LLM_API_KEY overrides
	// it). At most one of APIKey and APIKeyEnv is set.
	APIKey String
	// APIKeyEnv names the environment variable that holds the bearer
	// token (api_key_env), so that the key need not sit in the file.
	APIKeyEnv String
	// Timeout bounds one HTTP call to the model (timeout, a Go duration
	// such as "30s"); 0 means the llm package's default (60s).
	Timeout    time.Duration
	TimeoutPos Pos
	// CacheDir is a directory that keeps the model's answers across runs
	// (cache_dir; JUDGE_LLM_CACHE_DIR overrides it). A relative path is
	// resolved against the file's directory, as the serve section's are.
	CacheDir String
}

// Serve is the serve section: defaults of judge serve's flags, which
// override them. Paths are resolved against the file's directory.
type Serve struct {
	Addr    String   // addr: TCP address to listen on (--addr)
	Schemas String   // schemas: directory of schemas for $ref (--schemas)
	Sources String   // sources: directory of trusted sources (--sources)
	Tools   []String // tools: tool manifest directories (--tools)
	// Limits under load (see docs/api.md); each a positive integer, the
	// timeout a Go duration.
	CacheBytes       Int      // cache_bytes: the engine caches' byte budget (--cache-bytes)
	MaxInFlight      Int      // max_in_flight: requests answered at once (--max-in-flight)
	MaxInFlightBytes Int      // max_in_flight_bytes: their bodies' bytes together (--max-in-flight-bytes)
	MaxBodyBytes     Int      // max_body_bytes: the largest body (--max-body-bytes)
	ReadTimeout      Duration // read_timeout: to read a request's header and body (--read-timeout)
	// NoUI serves the API only, without the web console (no_ui, a
	// boolean; --no-ui).
	NoUI Bool
}

// Gateway is the gateway section: defaults of judge gateway's flags,
// which override them.
type Gateway struct {
	// CompactBudget is the character budget of the JSON a model reads of
	// a result (compact_budget, a non-negative integer; 0 turns
	// compaction off; --compact-budget).
	CompactBudget Int
}

// Int is an integer value of the file and where it stands.
type Int struct {
	Value int64
	Pos   Pos // of the value; zero when the key is absent
}

// Set reports whether the file gives the key.
func (i Int) Set() bool { return i.Pos.Line > 0 }

// Bool is a boolean value of the file and where it is.
type Bool struct {
	Value bool
	Pos   Pos // of the value; zero when the key is absent
}

// Set reports whether the file gives the key.
func (b Bool) Set() bool { return b.Pos.Line > 0 }

// Duration is a duration value of the file and where it stands.
type Duration struct {
	Value time.Duration
	Pos   Pos // of the value; zero when the key is absent
}

// Set reports whether the file gives the key.
func (d Duration) Set() bool { return d.Pos.Line > 0 }

// Registry is the registry section: declarations judge adds to every
// tool registry it lints or serves, as a registry's own
// .judge-registry.yaml makes them (host primitives, tool types as aliases
// of a base kind, extra fields). The values are checked here for shape
// only; what a base or an executor rule may be is the manifest package's
// to say (manifest.TypeDecl.Check), at the positions kept here.
type Registry struct {
	// Primitives are host primitives beyond subprocess and http_client
	// (primitives; a leading @ is dropped).
	Primitives []String
	// Types are the declared tool types, in file order (types).
	Types []RegistryType
	// Fields are extra manifest fields that are not unknown (fields).
	Fields []String
	// Required are the top-level fields every tool manifest must carry
	// (required); RequiredSet is true when the key is given, an empty
	// list included (then version is not required either).
	Required    []String
	RequiredSet bool
	// Data are folders under the tools root whose files are data, not
	// tools (data).
	Data []String
}

// RegistryType is one declared tool type of the registry section.
type RegistryType struct {
	Name     String   // the type's name, the key under types
	Base     String   // base: the kind whose rules the type takes
	Executor String   // executor: required, none or optional; unset takes the base's rule
	Requires []String // requires: config keys every tool of the type sets
}

// Empty reports whether the section declares nothing.
func (r Registry) Empty() bool {
	return len(r.Primitives) == 0 && len(r.Types) == 0 && len(r.Fields) == 0 && !r.RequiredSet && len(r.Data) == 0
}

// File is a parsed config file.
type File struct {
	// Path is the file's name as given.
	Path     string
	LLM      LLM
	Serve    Serve
	Gateway  Gateway
	Registry Registry
	// Warnings are problems that do not stop judge, such as a file that
	// holds an API key and is readable by others.
	Warnings []string
}

// Error is a config file that cannot be read or used: missing, too large,
// not YAML, an unknown key or a value of the wrong type. Pos is zero when
// the error concerns the whole file.
type Error struct {
	File string
	Pos  Pos
	Msg  string
	Err  error
}

// Error renders the error as "FILE:LINE:COL: message", or "FILE: message"
// without a position.
func (e *Error) Error() string {
	if e.Pos.Line == 0 {
		return fmt.Sprintf("%s: %s", e.File, e.Msg)
	}
	return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Pos.Line, e.Pos.Col, e.Msg)
}

// Unwrap returns the underlying error, if any.
func (e *Error) Unwrap() error { return e.Err }

// Find returns the config file that applies and whether it was named:
// flag (the --config flag) when not empty, else the file that JUDGE_CONFIG
// names, else $XDG_CONFIG_HOME/judge/config.yaml (XDG_CONFIG_HOME
// defaulting to $HOME/.config) when that file exists. It returns "" when
// none applies. The environment is read through getenv (os.Getenv in a
// program). A named file is returned whether or not it exists: [Load]
// reports it missing.
func Find(flag string, getenv func(string) string) (path string, named bool) {
	if flag != "" {
		return flag, true
	}
	if p := strings.TrimSpace(getenv(EnvConfig)); p != "" {
		return p, true
	}
	p := DefaultPath(getenv)
	if p == "" {
		return "", false
	}
	if _, err := os.Stat(p); err != nil {
		return "", false
	}
	return p, false
}

// DefaultPath is the config file read when none is named:
// $XDG_CONFIG_HOME/judge/config.yaml, with XDG_CONFIG_HOME $HOME/.config
// when unset or not absolute. It is "" when neither variable helps.
func DefaultPath(getenv func(string) string) string {
	dir := getenv("XDG_CONFIG_HOME")
	if !filepath.IsAbs(dir) {
		home := getenv("HOME")
		if !filepath.IsAbs(home) {
			return ""
		}
		dir = filepath.Join(home, ".config")
	}
	return filepath.Join(dir, "judge", "config.yaml")
}

// Load reads and parses the config file at path. A file that holds
// api_key and that group or others may read gets a warning in
// File.Warnings, as ssh warns of a readable private key.
func Load(path string) (*File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, &Error{File: path, Msg: openMsg(err), Err: err}
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, &Error{File: path, Msg: err.Error(), Err: err}
	}
	if !fi.Mode().IsRegular() {
		return nil, &Error{File: path, Msg: "is not a regular file"}
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxBytes+1))
	if err != nil {
		return nil, &Error{File: path, Msg: err.Error(), Err: err}
	}
	cfg, err := Decode(path, data)
	if err != nil {
		return nil, err
	}
	if cfg.LLM.APIKey.Value != "" && fi.Mode().Perm()&0o077 != 0 && runtime.GOOS != "windows" {
		cfg.Warnings = append(cfg.Warnings, fmt.Sprintf(
			"%s: the file holds llm.api_key and its permissions %04o let others read it; run chmod 600 %s, or put the key in an environment variable named by llm.api_key_env",
			path, fi.Mode().Perm(), path))
	}
	return cfg, nil
}

// openMsg says why a config file could not be opened.
func openMsg(err error) string {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "no such config file"
	case errors.Is(err, fs.ErrPermission):
		return "permission denied reading the config file"
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// Decode parses data, the content of the config file name (used in
// errors only). An empty file, or one of comments only, configures
// nothing. Relative paths (llm.cache_dir, the serve section's) are resolved
// against the directory of name.
func Decode(name string, data []byte) (*File, error) {
	if len(data) > MaxBytes {
		return nil, &Error{File: name, Pos: Pos{1, 1}, Msg: fmt.Sprintf("the file is larger than %d bytes, the most a config file may hold", MaxBytes)}
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")) // a byte-order mark; columns count from after it
	if p, msg, ok := prescan(data); !ok {
		return nil, &Error{File: name, Pos: p, Msg: msg}
	}
	astf, err := parser.ParseBytes(data, 0)
	if err != nil {
		pos, msg := Pos{1, 1}, err.Error()
		var se *yaml.SyntaxError
		if errors.As(err, &se) {
			msg = se.GetMessage()
			if t := se.GetToken(); t != nil && t.Position != nil {
				pos = Pos{t.Position.Line, t.Position.Column}
			}
		}
		return nil, &Error{File: name, Pos: pos, Msg: "YAML syntax error: " + msg, Err: err}
	}
	d := &decoder{file: name, cfg: &File{Path: name}}
	var body ast.Node
	for _, doc := range astf.Docs {
		if doc == nil || isEmpty(doc.Body) {
			continue
		}
		if body != nil {
			return nil, d.fail(doc.Body, "the file holds more than one YAML document; a config file is one")
		}
		body = doc.Body
	}
	if body == nil {
		return d.cfg, nil
	}
	if err := d.top(body); err != nil {
		return nil, err
	}
	d.resolvePaths(filepath.Dir(name))
	return d.cfg, nil
}

// isEmpty reports whether n holds no value: absent, null or comments.
func isEmpty(n ast.Node) bool {
	switch n.(type) {
	case nil, *ast.NullNode, *ast.CommentGroupNode, *ast.CommentNode:
		return true
	}
	return false
}

// prescan bounds the nesting of src in one linear pass: flow brackets
// (counted inside strings too) and "- " chains on one line.
func prescan(src []byte) (Pos, string, bool) {
	depth, line, col, atStart, dashes := 0, 1, 1, true, 0
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch c {
		case '\r':
			if i+1 < len(src) && src[i+1] == '\n' {
				continue
			}
			line, col, atStart, dashes = line+1, 1, true, 0 // a line break, as YAML has it
			continue
		case '\n':
			line, col, atStart, dashes = line+1, 1, true, 0
			continue
		case '[', '{':
			depth++
			if depth > maxNesting {
				return Pos{line, col}, fmt.Sprintf("brackets nest deeper than %d levels, more than a config file needs", maxNesting), false
			}
		case ']', '}':
			depth = max(depth-1, 0)
		}
		if atStart {
			switch {
			case c == ' ' || c == '\t':
			case (c == '-' || c == '?') && i+1 < len(src) && (src[i+1] == ' ' || src[i+1] == '\t'):
				dashes++
				if dashes > maxNesting {
					return Pos{line, col}, fmt.Sprintf("a line opens more than %d nested lists, more than a config file needs", maxNesting), false
				}
			default:
				atStart = false
			}
		}
		col++
	}
	return Pos{}, "", true
}

// decoder walks the YAML tree into a File.
type decoder struct {
	file string
	cfg  *File
}

func (d *decoder) pos(n ast.Node) Pos {
	if n == nil {
		return Pos{1, 1}
	}
	if t := n.GetToken(); t != nil && t.Position != nil {
		return Pos{t.Position.Line, t.Position.Column}
	}
	return Pos{1, 1}
}

func (d *decoder) fail(n ast.Node, format string, args ...any) error {
	return &Error{File: d.file, Pos: d.pos(n), Msg: fmt.Sprintf(format, args...)}
}

// field is one key of a mapping with its handler.
type field struct {
	name string
	set  func(key, value ast.Node) error
}

// mapping decodes a mapping whose keys must be among fields; where names
// the mapping in messages ("the file", "llm").
func (d *decoder) mapping(n ast.Node, where string, fields []field) error {
	mn, err := d.asMapping(n, where)
	if err != nil || mn == nil {
		return err
	}
	seen := map[string]Pos{}
	for _, kv := range mn.Values {
		if err := d.plain(kv.Key); err != nil {
			return err
		}
		ks, ok := kv.Key.(ast.ScalarNode)
		if !ok {
			return d.fail(kv.Key, "a key of %s is not a plain name", where)
		}
		key := fmt.Sprint(ks.GetValue())
		var f *field
		names := make([]string, len(fields))
		for i := range fields {
			names[i] = fields[i].name
			if fields[i].name == key {
				f = &fields[i]
			}
		}
		if f == nil {
			sort.Strings(names)
			return d.fail(kv.Key, "unknown key %q in %s; the keys are %s", key, where, strings.Join(names, ", "))
		}
		if p, dup := seen[key]; dup {
			return d.fail(kv.Key, "key %q of %s is given twice (first at line %d)", key, where, p.Line)
		}
		seen[key] = d.pos(kv.Key)
		if err := d.plain(kv.Value); err != nil {
			return err
		}
		if err := f.set(kv.Key, kv.Value); err != nil {
			return err
		}
	}
	return nil
}

// asMapping returns n as a mapping, nil for an empty section, or an
// error naming what n is instead.
func (d *decoder) asMapping(n ast.Node, where string) (*ast.MappingNode, error) {
	switch v := n.(type) {
	case *ast.MappingNode:
		return v, nil
	case *ast.MappingValueNode:
		return &ast.MappingNode{Values: []*ast.MappingValueNode{v}}, nil
	}
	if isEmpty(n) {
		return nil, nil
	}
	return nil, d.fail(n, "%s is %s, not a mapping of keys to values", where, describe(n))
}

// plain rejects anchors, aliases, tags and merge keys: a config file has
// no use for them, and refusing them keeps what a key means plain.
func (d *decoder) plain(n ast.Node) error {
	switch n.(type) {
	case *ast.AnchorNode, *ast.AliasNode:
		return d.fail(n, "anchors and aliases are not allowed in a config file")
	case *ast.TagNode:
		return d.fail(n, "tags are not allowed in a config file")
	case *ast.MergeKeyNode:
		return d.fail(n, "merge keys (<<) are not allowed in a config file")
	}
	return nil
}

// top decodes the document's body.
func (d *decoder) top(n ast.Node) error {
	return d.mapping(n, "the file", []field{
		{"llm", func(_, v ast.Node) error { return d.llm(v) }},
		{"serve", func(_, v ast.Node) error { return d.serve(v) }},
		{"gateway", func(_, v ast.Node) error { return d.gateway(v) }},
		{"registry", func(_, v ast.Node) error { return d.registry(v) }},
	})
}

// registry decodes the registry section.
func (d *decoder) registry(n ast.Node) error {
	r := &d.cfg.Registry
	return d.mapping(n, "registry", []field{
		{"primitives", d.names("registry.primitives", &r.Primitives, true)},
		{"fields", d.names("registry.fields", &r.Fields, false)},
		{"required", func(k, v ast.Node) error {
			r.RequiredSet = true
			return d.names("registry.required", &r.Required, false)(k, v)
		}},
		{"data", d.names("registry.data", &r.Data, false)},
		{"types", func(_, v ast.Node) error {
			mn, err := d.asMapping(v, "registry.types")
			if err != nil || mn == nil {
				return err
			}
			seen := map[string]int{}
			for _, kv := range mn.Values {
				if err := d.plain(kv.Key); err != nil {
					return err
				}
				var name String
				if err := d.str("a type name of registry.types", &name)(nil, kv.Key); err != nil {
					return err
				}
				if line, dup := seen[name.Value]; dup {
					return d.fail(kv.Key, "type %q of registry.types is given twice (first at line %d)", name.Value, line)
				}
				seen[name.Value] = name.Pos.Line
				if err := d.plain(kv.Value); err != nil {
					return err
				}
				where := "registry.types." + name.Value
				t := RegistryType{Name: name}
				err := d.mapping(kv.Value, where, []field{
					{"base", d.str(where+".base", &t.Base)},
					{"executor", d.str(where+".executor", &t.Executor)},
					{"requires", d.names(where+".requires", &t.Requires, false)},
				})
				if err != nil {
					return err
				}
				if !t.Base.Set() {
					return d.fail(kv.Key, "type %q of registry.types has no base; give base: the tool type whose rules it takes (script, mcp_tool, config, …)", name.Value)
				}
				r.Types = append(r.Types, t)
			}
			return nil
		}},
	})
}

// names returns a handler that appends a list of non-empty names to dst;
// at drops a leading @ (a primitive named as an executor names it).
func (d *decoder) names(name string, dst *[]String, at bool) func(_, v ast.Node) error {
	return func(_, v ast.Node) error {
		if isEmpty(v) {
			return nil
		}
		seq, ok := v.(*ast.SequenceNode)
		if !ok {
			return d.fail(v, "%s is %s, not a list of names", name, describe(v))
		}
		for i, it := range seq.Values {
			if err := d.plain(it); err != nil {
				return err
			}
			var one String
			if err := d.str(fmt.Sprintf("%s[%d]", name, i), &one)(nil, it); err != nil {
				return err
			}
			if at {
				one.Value = strings.TrimSpace(strings.TrimPrefix(one.Value, "@"))
				if one.Value == "" {
					return d.fail(it, "%s[%d] is empty; remove the key or give a value", name, i)
				}
			}
			*dst = append(*dst, one)
		}
		return nil
	}
}

func (d *decoder) llm(n ast.Node) error {
	l := &d.cfg.LLM
	err := d.mapping(n, "llm", []field{
		{"base_url", d.str("llm.base_url", &l.BaseURL)},
		{"model", d.str("llm.model", &l.Model)},
		{"api_key", d.str("llm.api_key", &l.APIKey)},
		{"api_key_env", d.str("llm.api_key_env", &l.APIKeyEnv)},
		{"cache_dir", d.str("llm.cache_dir", &l.CacheDir)},
		{"timeout", func(_, v ast.Node) error {
			var s String
			if err := d.str("llm.timeout", &s)(nil, v); err != nil {
				return err
			}
			t, err := time.ParseDuration(s.Value)
			if err != nil || t <= 0 {
				return d.fail(v, "llm.timeout %q is not a positive duration such as \"30s\" or \"2m\"", s.Value)
			}
			l.Timeout, l.TimeoutPos = t, s.Pos
			return nil
		}},
	})
	if err != nil {
		return err
	}
	if l.APIKey.Set() && l.APIKeyEnv.Set() {
		return &Error{File: d.file, Pos: l.APIKeyEnv.Pos, Msg: fmt.Sprintf("llm.api_key_env is given with llm.api_key (line %d); give one of them", l.APIKey.Pos.Line)}
	}
	if l.APIKeyEnv.Set() && !isEnvName(l.APIKeyEnv.Value) {
		// The value is not repeated: it may be the key itself, put here by mistake.
		return &Error{File: d.file, Pos: l.APIKeyEnv.Pos, Msg: "llm.api_key_env is not an environment variable's name such as OPENAI_API_KEY (letters, digits and _); it names the variable that holds the key, not the key"}
	}
	return nil
}

func (d *decoder) serve(n ast.Node) error {
	s := &d.cfg.Serve
	return d.mapping(n, "serve", []field{
		{"addr", d.str("serve.addr", &s.Addr)},
		{"schemas", d.str("serve.schemas", &s.Schemas)},
		{"sources", d.str("serve.sources", &s.Sources)},
		{"cache_bytes", d.positive("serve.cache_bytes", &s.CacheBytes)},
		{"max_in_flight", d.positive("serve.max_in_flight", &s.MaxInFlight)},
		{"max_in_flight_bytes", d.positive("serve.max_in_flight_bytes", &s.MaxInFlightBytes)},
		{"max_body_bytes", d.positive("serve.max_body_bytes", &s.MaxBodyBytes)},
		{"no_ui", d.boolean("serve.no_ui", &s.NoUI)},
		{"read_timeout", func(_, v ast.Node) error {
			var str String
			if err := d.str("serve.read_timeout", &str)(nil, v); err != nil {
				return err
			}
			t, err := time.ParseDuration(str.Value)
			if err != nil || t <= 0 {
				return d.fail(v, "serve.read_timeout %q is not a positive duration such as \"15s\"", str.Value)
			}
			s.ReadTimeout = Duration{Value: t, Pos: str.Pos}
			return nil
		}},
		{"tools", func(_, v ast.Node) error {
			if isEmpty(v) {
				return nil
			}
			seq, ok := v.(*ast.SequenceNode)
			if !ok {
				var one String
				if err := d.str("serve.tools", &one)(nil, v); err != nil {
					return d.fail(v, "serve.tools is %s, not a directory or a list of directories", describe(v))
				}
				s.Tools = append(s.Tools, one)
				return nil
			}
			for i, it := range seq.Values {
				if err := d.plain(it); err != nil {
					return err
				}
				var one String
				if err := d.str(fmt.Sprintf("serve.tools[%d]", i), &one)(nil, it); err != nil {
					return err
				}
				s.Tools = append(s.Tools, one)
			}
			return nil
		}},
	})
}

func (d *decoder) gateway(n ast.Node) error {
	g := &d.cfg.Gateway
	return d.mapping(n, "gateway", []field{
		{"compact_budget", d.integer("gateway.compact_budget", &g.CompactBudget, 0)},
	})
}

// positive returns a handler that stores a positive integer value into
// dst.
func (d *decoder) positive(name string, dst *Int) func(_, v ast.Node) error {
	return d.integer(name, dst, 1)
}

// integer returns a handler that stores an integer value of at least least
// (0 or 1) into dst.
func (d *decoder) integer(name string, dst *Int, least int64) func(_, v ast.Node) error {
	what := "a positive integer"
	if least == 0 {
		what = "a non-negative integer"
	}
	return func(_, v ast.Node) error {
		n, ok := v.(*ast.IntegerNode)
		if !ok {
			return d.fail(v, "%s is %s, not %s", name, describe(v), what)
		}
		i, err := strconv.ParseInt(strings.ReplaceAll(n.GetToken().Value, "_", ""), 0, 64)
		if err != nil || i < least {
			return d.fail(v, "%s %s is not %s", name, n.GetToken().Value, what)
		}
		*dst = Int{Value: i, Pos: d.pos(v)}
		return nil
	}
}

// boolean returns a handler that stores a boolean value (true or false,
// not quoted) into dst.
func (d *decoder) boolean(name string, dst *Bool) func(_, v ast.Node) error {
	return func(_, v ast.Node) error {
		n, ok := v.(*ast.BoolNode)
		if !ok {
			return d.fail(v, "%s is %s, not a boolean (true or false, not quoted)", name, describe(v))
		}
		*dst = Bool{Value: n.Value, Pos: d.pos(v)}
		return nil
	}
}

// str returns a handler that stores a non-empty string value into dst.
func (d *decoder) str(name string, dst *String) func(_, v ast.Node) error {
	return func(_, v ast.Node) error {
		var s string
		switch n := v.(type) {
		case *ast.StringNode:
			s = n.Value
		case *ast.LiteralNode:
			s = n.Value.Value
		default:
			what := describe(v)
			if what == "a number" || what == "a boolean" {
				return d.fail(v, "%s is %s, not a string; quote it to mean the text", name, what)
			}
			return d.fail(v, "%s is %s, not a string", name, what)
		}
		if strings.TrimSpace(s) == "" {
			return d.fail(v, "%s is empty; remove the key or give a value", name)
		}
		*dst = String{Value: strings.TrimSpace(s), Pos: d.pos(v)}
		return nil
	}
}

// describe names what a node is, for messages: "a number", "a list".
func describe(n ast.Node) string {
	switch n.(type) {
	case nil, *ast.NullNode:
		return "null"
	case *ast.IntegerNode, *ast.FloatNode, *ast.InfinityNode, *ast.NanNode:
		return "a number"
	case *ast.BoolNode:
		return "a boolean"
	case *ast.StringNode, *ast.LiteralNode:
		return "a string"
	case *ast.SequenceNode:
		return "a list"
	case *ast.MappingNode, *ast.MappingValueNode:
		return "a mapping"
	}
	return "not a plain value"
}

// isEnvName reports whether s is a portable environment variable name.
func isEnvName(s string) bool {
	if s == "" || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	for _, c := range s {
		if !(c == '_' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// resolvePaths makes the relative paths of the file (llm.cache_dir and the
// serve section's) relative to dir, the config file's directory.
func (d *decoder) resolvePaths(dir string) {
	abs := func(s *String) {
		if s.Set() && !filepath.IsAbs(s.Value) {
			s.Value = filepath.Join(dir, s.Value)
		}
	}
	abs(&d.cfg.LLM.CacheDir)
	abs(&d.cfg.Serve.Schemas)
	abs(&d.cfg.Serve.Sources)
	for i := range d.cfg.Serve.Tools {
		abs(&d.cfg.Serve.Tools[i])
	}
}
