package judge

import (
	"fmt"
	"io/fs"
	"maps"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/agentjudge/judge/internal/jsonvalue"
)

// MaxSchemaFileBytes is the largest schema file LoadSchemaDir reads.
const MaxSchemaFileBytes = 8 << 20

// SchemaFile is one schema document read from a directory.
type SchemaFile struct {
	// URI is how $ref names it: its absolute "$id" (or draft-4 "id"), else
	// its path relative to the directory with forward slashes
	// ("common.json", "defs/address.json"), which a relative $ref in the
	// expected schema resolves to.
	URI  string
	Path string // the file's path
	Data []byte // the file's bytes, to point errors at lines
	Doc  any    // the decoded document
}

// ReadSchemaDir reads every *.json file under dir as a schema document for
// $ref. Files over MaxSchemaFileBytes, files that are not JSON, and two
// files with the same URI are errors naming the files.
func ReadSchemaDir(dir string) ([]SchemaFile, error) {
	var files []SchemaFile
	byURI := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || !strings.EqualFold(filepath.Ext(path), ".json") {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		if info.Size() > MaxSchemaFileBytes {
			return fmt.Errorf("%s: %d bytes is over the %d-byte limit for a schema", path, info.Size(), MaxSchemaFileBytes)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		doc, err := jsonvalue.Decode(data, 0)
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		uri := schemaID(doc)
		if uri == "" {
			rel, err := filepath.Rel(dir, path)
			if err != nil {
				return err
			}
			uri = filepath.ToSlash(rel)
		}
		if prev, dup := byURI[uri]; dup {
			return fmt.Errorf("%s and %s are both %q", prev, path, uri)
		}
		byURI[uri] = path
		files = append(files, SchemaFile{URI: uri, Path: path, Data: data, Doc: doc})
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("schemas directory: %w", err)
	}
	return files, nil
}

// LoadSchemaDir reads the schemas under dir (see [ReadSchemaDir]) keyed by
// URI, ready for [WithSchemas].
func LoadSchemaDir(dir string) (map[string]any, error) {
	files, err := ReadSchemaDir(dir)
	if err != nil {
		return nil, err
	}
	schemas := make(map[string]any, len(files))
	for _, f := range files {
		schemas[f.URI] = f.Doc
	}
	return schemas, nil
}

// WithSchemaDir reads the schemas under dir once, when the Engine is made
// (see [ReadSchemaDir]), as documents every request's $ref may name, keyed
// by URI as [WithSchemas] takes them; a request's own schemas take
// precedence. A directory that cannot be read, or a file in it that is
// not a schema judge can read, fails New.
func WithSchemaDir(dir string) Option {
	return func(e *Engine) error {
		schemas, err := LoadSchemaDir(dir)
		if err != nil {
			return fmt.Errorf("judge: %w", err)
		}
		maps.Copy(e.schemas, schemas)
		return nil
	}
}

func schemaID(doc any) string {
	m, ok := doc.(map[string]any)
	if !ok {
		return ""
	}
	for _, k := range []string{"$id", "id"} {
		if s, ok := m[k].(string); ok {
			u, err := url.Parse(s)
			if err == nil && u.IsAbs() {
				u.Fragment = ""
				return u.String()
			}
		}
	}
	return ""
}
