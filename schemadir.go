package judge

import (
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/agentjudge/judge/internal/jsonvalue"
)

// MaxSchemaFileBytes is the largest schema file LoadSchemaDir reads.
const MaxSchemaFileBytes = 8 << 20

// LoadSchemaDir reads every *.json file under dir as a schema document for
// $ref, keyed by its absolute "$id" (or "id" for draft 4). A file without an
// absolute id is an error naming the file, since nothing could refer to it.
// Give the result to [WithSchemas].
func LoadSchemaDir(dir string) (map[string]any, error) {
	schemas := map[string]any{}
	files := map[string]string{}
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
		id := schemaID(doc)
		if id == "" {
			return fmt.Errorf(`%s: the schema has no absolute "$id", so no $ref could name it; add one such as "https://example.com/schemas/%s"`, path, filepath.Base(path))
		}
		if prev, dup := files[id]; dup {
			return fmt.Errorf("%s and %s both have $id %q", prev, path, id)
		}
		files[id] = path
		schemas[id] = doc
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("schemas directory: %w", err)
	}
	return schemas, nil
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
