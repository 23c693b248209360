package manifest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/agentjudge/judge/result"
)

// Limits of loading.
const (
	// MaxFiles is how many files one load looks at, over all roots.
	MaxFiles = 20_000
	// MaxDirDepth is how deeply tool directories are searched below a root.
	MaxDirDepth = 8
)

// DefaultDir is the tool directory the CLI lints when given none.
const DefaultDir = ".ai/tools"

// LoadError is a root that cannot be loaded at all: a directory that does
// not exist or cannot be read, or a load over a limit. Problems of single
// files are not LoadErrors: they are issues of the tool in the lint.
type LoadError struct {
	Path string
	Msg  string
	Err  error
}

// Error renders the error with its location.
func (e *LoadError) Error() string { return "manifest: " + e.Path + ": " + e.Msg }

// Unwrap returns the underlying error, if any.
func (e *LoadError) Unwrap() error { return e.Err }

// File is one file given by content rather than read from disk, as the HTTP
// API receives manifests.
type File struct {
	// Path is the file's slash-separated path; tools in directories are
	// given as DIR/tool.yaml plus DIR/main.py and so on.
	Path    string `json:"path"`
	Content string `json:"content"`
}

// root is one place tools are loaded from.
type root struct {
	name string // prefix of every Path: the directory as given, or ""
	fsys fs.FS
}

// LoadDirs loads every tool below the directories dirs (see the package
// documentation for what counts as a tool). It returns a *LoadError when a
// directory cannot be read; every problem inside a file becomes an issue
// of its tool instead. Symbolic links are never followed out of a tool's
// directory.
func LoadDirs(ctx context.Context, dirs ...string) (*Registry, error) {
	return LoadDirsWith(ctx, Conventions{}, dirs...)
}

// LoadDirsWith is [LoadDirs] with conventions the caller declares (from
// judge's configuration), merged with those of each root's [RegistryFile]:
// primitives and fields are the union of both, and a type declared in both
// takes the registry file's declaration, which travels with the registry.
// conv must pass [Conventions.Check].
func LoadDirsWith(ctx context.Context, conv Conventions, dirs ...string) (*Registry, error) {
	if err := conv.Check(); err != nil {
		return nil, err
	}
	roots := make([]root, 0, len(dirs))
	for _, d := range dirs {
		st, err := os.Stat(d)
		if err != nil {
			return nil, &LoadError{Path: d, Msg: "the tool directory cannot be read: " + errText(err), Err: err}
		}
		if !st.IsDir() {
			return nil, &LoadError{Path: d, Msg: "not a directory; give the directory that holds the tools"}
		}
		roots = append(roots, root{name: d, fsys: os.DirFS(d)})
	}
	return load(ctx, roots, conv)
}

// LoadFiles loads tools from files given by content, as if they were the
// files of one directory. Paths must be local and slash-separated. It
// returns a *LoadError for a bad path or a duplicate one.
func LoadFiles(ctx context.Context, files []File) (*Registry, error) {
	return LoadFilesWith(ctx, Conventions{}, files)
}

// LoadFilesWith is [LoadFiles] with conventions the caller declares,
// merged with those of a [RegistryFile] among files as [LoadDirsWith]
// merges them. conv must pass [Conventions.Check].
func LoadFilesWith(ctx context.Context, conv Conventions, files []File) (*Registry, error) {
	if err := conv.Check(); err != nil {
		return nil, err
	}
	if len(files) > MaxFiles {
		return nil, &LoadError{Path: "manifests", Msg: fmt.Sprintf("%d files are more than the limit of %d", len(files), MaxFiles)}
	}
	m := map[string][]byte{}
	for i, f := range files {
		p := strings.TrimPrefix(f.Path, "./")
		if !fs.ValidPath(p) || p == "." {
			return nil, &LoadError{Path: fmt.Sprintf("manifests[%d].path", i),
				Msg: fmt.Sprintf("%q is not a local slash-separated path (no leading /, no .., no empty element)", f.Path)}
		}
		if _, dup := m[p]; dup {
			return nil, &LoadError{Path: fmt.Sprintf("manifests[%d].path", i), Msg: fmt.Sprintf("%q is given twice", f.Path)}
		}
		if len(f.Content) > MaxFileBytes {
			return nil, &LoadError{Path: fmt.Sprintf("manifests[%d].content", i), Msg: fmt.Sprintf("the content is larger than %d bytes", MaxFileBytes)}
		}
		m[p] = []byte(f.Content)
	}
	return load(ctx, []root{{name: "", fsys: newMemFS(m)}}, conv)
}

func errText(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// loader walks the roots.
type loader struct {
	ctx   context.Context
	conv  *Conventions // what the registries declare: their data folders are not walked
	files int
	tools []*Tool
}

func load(ctx context.Context, roots []root, conv Conventions) (*Registry, error) {
	l := &loader{ctx: ctx}
	names := make([]string, len(roots))
	fsys := make([]fs.FS, len(roots))
	// The caller's declarations first, so that a registry file's
	// declaration of the same type replaces it.
	var all Conventions
	all.merge(conv)
	for _, r := range roots {
		c, err := readConventions(r)
		if err != nil {
			return nil, err
		}
		all.merge(c)
	}
	l.conv = &all
	for i, r := range roots {
		names[i], fsys[i] = r.name, r.fsys
		if err := l.walk(i, r, ".", 0); err != nil {
			return nil, err
		}
	}
	sort.SliceStable(l.tools, func(a, b int) bool { return l.tools[a].Path < l.tools[b].Path })
	if all.Required == nil {
		// A kind definition shipped among the tools: data with a
		// required_metadata list declares the fields a tool must carry.
		for _, t := range l.tools {
			if req, ok := kindRequired(t.doc); ok && t.notTool != "" {
				all.Required, all.RequiredFrom = req, t.Path
				break
			}
		}
	}
	// Or one beside a tools directory on disk (.ai/kinds/tool.yaml
	// beside .ai/tools).
	for _, r := range roots {
		if all.Required != nil || r.name == "" {
			break
		}
		all.Required, all.RequiredFrom = findKindSchema(r.name)
	}
	for _, t := range l.tools {
		t.Env = envRefs(t.Config)
	}
	return newRegistry(names, fsys, l.tools, all), nil
}

// display is the path of rel in r as the user gave it.
func (r root) display(rel string) string {
	if r.name == "" {
		return rel
	}
	return filepath.Join(r.name, filepath.FromSlash(rel))
}

func (l *loader) walk(ri int, r root, dir string, depth int) error {
	if err := l.ctx.Err(); err != nil {
		return err
	}
	entries, err := fs.ReadDir(r.fsys, dir)
	if err != nil {
		return &LoadError{Path: r.display(dir), Msg: "the directory cannot be read: " + errText(err), Err: err}
	}
	for _, name := range []string{"tool.yaml", "tool.yml"} {
		for _, e := range entries {
			if e.Name() == name && e.Type().IsRegular() {
				l.files++
				l.tools = append(l.tools, l.loadToolDir(ri, r, dir, path.Join(dir, name)))
				return nil
			}
		}
	}
	for _, e := range entries {
		name := e.Name()
		if strings.HasPrefix(name, ".") || e.IsDir() && (name == "__pycache__" || name == "node_modules") {
			continue
		}
		rel := path.Join(dir, name)
		if l.conv.dataDir(rel) {
			continue
		}
		l.files++
		if l.files > MaxFiles {
			return &LoadError{Path: r.display(dir), Msg: fmt.Sprintf("more than %d files below the tool directories", MaxFiles)}
		}
		switch {
		case e.Type()&fs.ModeSymlink != 0:
			l.tools = append(l.tools, &Tool{Path: r.display(rel), rel: rel, root: ri, Form: FormFile,
				issues: []result.Issue{{Severity: result.Warning, Type: result.SecurityIssue, Rule: "manifest.symlink",
					Location:   r.display(rel) + ":1:1",
					Message:    fmt.Sprintf("%s is a symbolic link; links are not followed, so it was not loaded as a tool", r.display(rel)),
					Suggestion: "Replace the link with the file or directory itself"}}})
		case e.IsDir():
			if depth+1 > MaxDirDepth {
				continue
			}
			if err := l.walk(ri, r, rel, depth+1); err != nil {
				return err
			}
		case e.Type().IsRegular():
			if t := l.loadFile(ri, r, rel); t != nil {
				l.tools = append(l.tools, t)
			}
		}
	}
	return nil
}

// errTooLarge is the error of readFile for a file over MaxFileBytes.
var errTooLarge = fmt.Errorf("the file is larger than %d bytes", MaxFileBytes)

// readFile reads rel within the size limit.
func readFile(fsys fs.FS, rel string) ([]byte, error) {
	f, err := fsys.Open(rel)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxFileBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxFileBytes {
		return nil, errTooLarge
	}
	return data, nil
}

func (l *loader) newTool(ri int, r root, rel string, form Form) *Tool {
	return &Tool{Path: r.display(rel), rel: rel, root: ri, Form: form}
}

// readIssue turns an unreadable file into its tool's issue.
func (t *Tool) readIssue(err error) {
	t.issues = append(t.issues, result.Issue{Severity: result.Error, Type: result.FileMissing, Rule: "manifest.read",
		Location:   t.Path + ":1:1",
		Message:    fmt.Sprintf("%s cannot be read: %s", t.Path, errText(err)),
		Suggestion: "Make the file readable, or remove it from the tool directory"})
}

func (l *loader) loadToolDir(ri int, r root, dir, rel string) *Tool {
	t := l.newTool(ri, r, rel, FormDir)
	t.Dir = dir
	return t.readYAML(r.fsys, rel)
}

// readYAML reads the YAML manifest rel of fsys into t and returns t; a file
// that cannot be read leaves t with the read issue.
func (t *Tool) readYAML(fsys fs.FS, rel string) *Tool {
	src, err := readFile(fsys, rel)
	if err != nil {
		t.readIssue(err)
		return t
	}
	t.sig, src = findSignature(src)
	t.parseYAML(src, 0, 0)
	return t
}

// scriptExts are the extensions of files searched for embedded metadata.
var scriptExts = map[string]bool{".py": true, ".sh": true, ".bash": true, ".js": true, ".mjs": true, ".cjs": true, ".ts": true, ".go": true, ".rb": true, ".pl": true}

func (l *loader) loadFile(ri int, r root, rel string) *Tool {
	ext := strings.ToLower(path.Ext(rel))
	switch ext {
	case ".yaml", ".yml":
		return l.newTool(ri, r, rel, FormFile).readYAML(r.fsys, rel)
	case ".md", ".markdown":
		src, err := readFile(r.fsys, rel)
		if err != nil {
			t := l.newTool(ri, r, rel, FormMarkdown)
			t.readIssue(err)
			return t
		}
		return l.loadMarkdown(ri, r, rel, src)
	case ".xml":
		t := l.newTool(ri, r, rel, FormXML)
		src, err := readFile(r.fsys, rel)
		if err != nil {
			t.readIssue(err)
			return t
		}
		t.parseDirective(src, 0)
		return t
	}
	src, err := readFile(r.fsys, rel)
	if err != nil {
		if !scriptExts[ext] {
			return nil
		}
		t := l.newTool(ri, r, rel, FormEmbedded)
		t.readIssue(err)
		return t
	}
	if !scriptExts[ext] && !bytes.HasPrefix(src, []byte("#!")) {
		return nil
	}
	t := l.newTool(ri, r, rel, FormEmbedded)
	t.Dir = path.Dir(rel)
	t.sig, src = findSignature(src)
	if !t.parseEmbedded(src) {
		if !scriptExts[ext] {
			return nil
		}
		t.issues = append(t.issues, result.Issue{Severity: result.Info, Type: result.NotChecked, Rule: "manifest.no_metadata",
			Location:   t.Path + ":1:1",
			Message:    fmt.Sprintf("%s is a script without embedded tool metadata, so it was not loaded as a tool", t.Path),
			Suggestion: "Add a tool.yaml beside it, or a metadata block (tool_id, tool_type, version, executor) at its top"})
	}
	return t
}

func (l *loader) loadMarkdown(ri int, r root, rel string, src []byte) *Tool {
	if fm, body, bodyAt, ok := frontmatter(src); ok {
		t := l.newTool(ri, r, rel, FormMarkdown)
		t.Type = Knowledge
		t.body, t.bodyAt = body, bodyAt
		t.parseKnowledge(fm)
		return t
	}
	if block, at, ok := xmlFence(src); ok {
		t := l.newTool(ri, r, rel, FormMarkdown)
		t.parseDirective(block, at)
		return t
	}
	if first, _, _ := bytes.Cut(bytes.TrimPrefix(src, []byte("\ufeff")), []byte("\n")); string(bytes.TrimRight(first, " \r")) == "---" {
		t := l.newTool(ri, r, rel, FormMarkdown)
		t.Type = Knowledge
		t.broken = true
		t.report(result.Error, result.SyntaxError, "manifest.knowledge.frontmatter", Pos{1, 1},
			"Close the frontmatter with a line holding only ---",
			"The YAML frontmatter opened on line 1 is never closed with a --- line")
		return t
	}
	return nil
}

// frontmatter splits a Markdown file that starts with a "---" line into
// its YAML frontmatter and body; bodyAt is the body's line offset.
func frontmatter(src []byte) (fm, body []byte, bodyAt int, ok bool) {
	s := bytes.TrimPrefix(src, []byte("\ufeff"))
	first, rest, found := bytes.Cut(s, []byte("\n"))
	if !found || string(bytes.TrimRight(first, " \r")) != "---" {
		return nil, nil, 0, false
	}
	line := 1
	off := 0
	for off <= len(rest) {
		end := bytes.IndexByte(rest[off:], '\n')
		var ln []byte
		if end < 0 {
			ln = rest[off:]
		} else {
			ln = rest[off : off+end]
		}
		line++
		if t := string(bytes.TrimRight(ln, " \r")); t == "---" || t == "..." {
			if end < 0 {
				return rest[:off], nil, line, true
			}
			return rest[:off], rest[off+end+1:], line, true
		}
		if end < 0 {
			break
		}
		off += end + 1
	}
	return nil, nil, 0, false
}

// xmlFence finds the first ```xml fence of a Markdown file that holds a
// <directive element; at is the line offset of its content.
func xmlFence(src []byte) (block []byte, at int, ok bool) {
	lines := bytes.Split(src, []byte("\n"))
	for i := 0; i < len(lines); i++ {
		if strings.TrimSpace(string(lines[i])) != "```xml" {
			continue
		}
		for j := i + 1; j < len(lines); j++ {
			if strings.TrimSpace(string(lines[j])) == "```" {
				b := bytes.Join(lines[i+1:j], []byte("\n"))
				if bytes.Contains(b, []byte("<directive")) {
					return b, i + 1, true
				}
				i = j
				break
			}
		}
	}
	return nil, 0, false
}
