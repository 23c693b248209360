package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// TestSchemaGolden runs judge schema strict and response-format on the
// schema of testdata/schema.txtar and compares stdout and stderr with its
// sections; -update rewrites them.
func TestSchemaGolden(t *testing.T) {
	t.Parallel()
	const file = "testdata/schema.txtar"
	ar, err := txtar.ParseFile(file)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	schema := filepath.Join(dir, "schema.json")
	for _, f := range ar.Files {
		if f.Name == "schema.json" {
			if err := os.WriteFile(schema, f.Data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	got := map[string][]byte{}
	for _, sub := range []string{"strict", "response-format"} {
		var out, errOut bytes.Buffer
		params := newSchemaParams()
		params.name = "ticket"
		run := runSchemaStrict
		if sub == "response-format" {
			run = runSchemaResponseFormat
		}
		if err := run(context.Background(), params, []string{schema}, &out, &errOut); err != nil {
			t.Fatalf("%s: %v", sub, err)
		}
		if !json.Valid(out.Bytes()) {
			t.Errorf("%s: stdout is not JSON", sub)
		}
		got[sub+".stdout"] = out.Bytes()
		got[sub+".stderr"] = []byte(strings.ReplaceAll(errOut.String(), schema, "schema.json"))
	}
	changed := false
	for i, f := range ar.Files {
		g, ok := got[f.Name]
		if !ok {
			continue
		}
		if *update {
			ar.Files[i].Data, changed = g, true
		} else if !bytes.Equal(g, f.Data) {
			t.Errorf("%s differs (run with -update to accept):\ngot:\n%s\nwant:\n%s", f.Name, g, f.Data)
		}
	}
	if changed {
		if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestSchemaErrors(t *testing.T) {
	t.Parallel()
	dir := writeFiles(t, map[string]string{
		"array.json":  `[1]`,
		"string.json": `{"type": "string"}`,
		"bad.json":    `{"type": `,
		"ok.json":     `{"type": "object"}`,
	})
	tests := []struct {
		name  string
		rf    bool
		param string // --name
		file  string
		stdin string
		want  string
	}{
		{"not an object", false, "", "array.json", "", "array.json: strict schema: #: the schema is an array, not a JSON object"},
		{"root not an object schema", false, "", "string.json", "", `string.json: strict schema: #: the root of a strict schema must be an object schema`},
		{"not JSON", false, "", "bad.json", "", "bad.json:1:10: the schema file is not valid JSON"},
		{"no such file", false, "", "missing.json", "", "missing.json: no such schema file"},
		{"stdin not JSON", false, "", "-", "nope", "<stdin>:1:2: the schema file is not valid JSON"},
		{"no name", true, "", "ok.json", "", "--name is required"},
		{"bad name", true, "a b", "ok.json", "", `--name: strict schema: response format name "a b" is not 1 to 64`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			params := newSchemaParams()
			params.name = tt.param
			params.stdin = strings.NewReader(tt.stdin)
			file := tt.file
			if file != "-" {
				file = filepath.Join(dir, file)
			}
			run := runSchemaStrict
			if tt.rf {
				run = runSchemaResponseFormat
			}
			var out bytes.Buffer
			err := run(context.Background(), params, []string{file}, &out, new(bytes.Buffer))
			if exitCode(err) != exitBadInput || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v (exit %d), want exit 2 with %q", err, exitCode(err), tt.want)
			}
			if out.Len() != 0 {
				t.Errorf("wrote %q to stdout on an error", out.String())
			}
		})
	}
}

// TestSchemaResult checks that judge schema result prints the schema every
// result is checked against, and that it goes through response-format as
// the pipe does: the strict form keeps every top-level field of
// the ValidationResult required.
func TestSchemaResult(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	if err := runSchemaResult(&out); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Required []string `json:"required"`
	}
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatalf("judge schema result printed no JSON: %v", err)
	}
	for _, f := range []string{"valid", "confidence", "issues"} {
		if !slices.Contains(doc.Required, f) {
			t.Errorf("the printed schema does not require %q: %v", f, doc.Required)
		}
	}

	params := newSchemaParams()
	params.name = "validation_result"
	params.stdin = bytes.NewReader(out.Bytes())
	var rf, errOut bytes.Buffer
	if err := runSchemaResponseFormat(context.Background(), params, []string{"-"}, &rf, &errOut); err != nil {
		t.Fatalf("response-format of the result schema: %v", err)
	}
	var got struct {
		Type       string `json:"type"`
		JSONSchema struct {
			Name   string `json:"name"`
			Strict bool   `json:"strict"`
			Schema struct {
				Required             []string `json:"required"`
				AdditionalProperties *bool    `json:"additionalProperties"`
			} `json:"schema"`
		} `json:"json_schema"`
	}
	if err := json.Unmarshal(rf.Bytes(), &got); err != nil {
		t.Fatalf("response-format printed no JSON: %v\n%s", err, rf.String())
	}
	if got.Type != "json_schema" || got.JSONSchema.Name != "validation_result" || !got.JSONSchema.Strict {
		t.Errorf("response_format = %s", rf.String())
	}
	if ap := got.JSONSchema.Schema.AdditionalProperties; ap == nil || *ap {
		t.Errorf("strict result schema allows additional properties: %s", rf.String())
	}
	for _, f := range doc.Required {
		if !slices.Contains(got.JSONSchema.Schema.Required, f) {
			t.Errorf("strict result schema dropped required field %q", f)
		}
	}
}

// judge schema explain says which path a schema takes and, for the slow
// one, which keyword sends it there; a schema that is not valid is an
// error naming the file.
func TestSchemaExplain(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, tc := range []struct {
		name, schema string
		assertFormat bool
		want         string // a regexp of the output, or of the error
		wantErr      bool
	}{
		{"fast", `{"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"]}`, false,
			`^fast\.json: fast path: compiled into checks of 2 \(sub\)schemas that run on the document's bytes; .*\n$`, false},
		{"slow", `{"$schema": "https://json-schema.org/draft/2020-12/schema", "properties": {"a": {"unevaluatedProperties": false}}}`, false,
			`^slow\.json: slow path: expected_schema/properties/a uses unevaluatedProperties or unevaluatedItems, which the fast path does not cover, so every document is decoded and checked by the full validator\n$`, false},
		{"format", `{"$schema": "https://json-schema.org/draft/2020-12/schema", "format": "email"}`, true,
			`^format\.json: fast path: compiled into checks of 1 `, false},
		{"invalid", `{"type": 3}`, false, `^invalid\.json: `, true},
	} {
		path := filepath.Join(dir, tc.name+".json")
		if err := os.WriteFile(path, []byte(tc.schema), 0o600); err != nil {
			t.Fatal(err)
		}
		params := newSchemaParams()
		params.assertFormat = tc.assertFormat
		var out bytes.Buffer
		err := runSchemaExplain(context.Background(), params, []string{path}, &out)
		got := out.String()
		if tc.wantErr {
			if err == nil {
				t.Errorf("%s: no error, printed %q", tc.name, got)
				continue
			}
			got = strings.TrimPrefix(err.Error(), dir+"/")
		} else if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		got = strings.ReplaceAll(got, dir+"/", "")
		if !regexp.MustCompile(tc.want).MatchString(got) {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
}
