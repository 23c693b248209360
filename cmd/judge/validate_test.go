package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/agentjudge/judge/result"
)

const personSchema = `{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "type": "object",
  "required": ["name", "email"],
  "properties": {
    "name": {"type": "string"},
    "email": {"type": "string", "format": "email"},
    "age": {"type": "integer", "minimum": 0}
  }
}`

// writeFiles writes name → content into a new temporary directory and
// returns the directory.
func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestRunValidate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		files map[string]string
		stdin string
		// args and the flags are relative to the files' directory: a value
		// starting with "$/" is a file in it.
		args   []string
		params func(p *validateParams, dir string)
		code   int
		// wantErr matches the error message (exit statuses 1 with a
		// message and 2); wantOut matches stdout.
		wantErr string
		wantOut string
		// check inspects the decoded result.
		check func(t *testing.T, r *result.ValidationResult)
	}{
		{
			name:  "valid JSON output",
			files: map[string]string{"out.json": `{"name": "Ada", "email": "ada@example.com"}`, "s.json": personSchema},
			args:  []string{"$/out.json"},
			params: func(p *validateParams, dir string) {
				p.schema = filepath.Join(dir, "s.json")
			},
			code: 0,
			check: func(t *testing.T, r *result.ValidationResult) {
				if !r.Valid || len(r.Issues) != 0 || !slices.Contains(r.Metadata.ValidationTypesRun, "schema") {
					t.Errorf("want a valid result with no issues from the schema layer, got %+v", r)
				}
			},
		},
		{
			name:  "missing required field",
			files: map[string]string{"out.json": `{"name": "Ada"}`, "s.json": personSchema},
			args:  []string{"$/out.json"},
			params: func(p *validateParams, dir string) {
				p.schema = filepath.Join(dir, "s.json")
			},
			code: 1,
			check: func(t *testing.T, r *result.ValidationResult) {
				if r.Valid || !hasIssue(r, result.MissingField, "email") {
					t.Errorf("want a missing_field issue naming email, got %+v", r.Issues)
				}
			},
		},
		{
			name:  "text output with a json fence",
			files: map[string]string{"answer.md": "Here it is:\n\n```json\n{\"name\": \"Ada\", \"email\": \"ada@example.com\"}\n```\n", "s.json": personSchema},
			args:  []string{"$/answer.md"},
			params: func(p *validateParams, dir string) {
				p.schema = filepath.Join(dir, "s.json")
			},
			code: 0,
			check: func(t *testing.T, r *result.ValidationResult) {
				if !r.Valid || !hasIssue(r, result.OutputParsed, "fenced") {
					t.Errorf("want a valid result noting the fence, got %+v", r.Issues)
				}
			},
		},
		{
			name:  "output mode value keeps the text",
			files: map[string]string{"answer.md": "```json\n{\"name\": \"Ada\", \"email\": \"ada@example.com\"}\n```\n", "s.json": personSchema},
			args:  []string{"$/answer.md"},
			params: func(p *validateParams, dir string) {
				p.schema = filepath.Join(dir, "s.json")
				must(t, p.outputMode.Set("value"))
			},
			code: 1,
			check: func(t *testing.T, r *result.ValidationResult) {
				if r.Valid || !hasIssue(r, result.InvalidType, "") {
					t.Errorf("want an invalid_type issue, got %+v", r.Issues)
				}
			},
		},
		{
			name:  "stdin",
			stdin: `{"name": "Ada"}`,
			files: map[string]string{"s.json": personSchema},
			args:  []string{"-"},
			params: func(p *validateParams, dir string) {
				p.schema = filepath.Join(dir, "s.json")
			},
			code: 1,
		},
		{
			name:  "assert format",
			files: map[string]string{"out.json": `{"name": "Ada", "email": "ada at example.com"}`, "s.json": personSchema},
			args:  []string{"$/out.json"},
			params: func(p *validateParams, dir string) {
				p.schema = filepath.Join(dir, "s.json")
				p.assertFormat = true
			},
			code: 1,
			check: func(t *testing.T, r *result.ValidationResult) {
				if !hasIssue(r, "", "email") {
					t.Errorf("want an issue about the email format, got %+v", r.Issues)
				}
			},
		},
		{
			name:  "text format",
			files: map[string]string{"out.json": `{"name": "Ada"}`, "s.json": personSchema},
			args:  []string{"$/out.json"},
			params: func(p *validateParams, dir string) {
				p.schema = filepath.Join(dir, "s.json")
				must(t, p.format.Set("text"))
			},
			code:    1,
			wantOut: `(?s)^Validation Result: ❌ FAIL\n.*\[missing_field\]`,
		},
		{
			name: "failing and passing rules",
			files: map[string]string{
				"out.json": `{"status": "open", "items": [1, 2]}`,
				"rules.json": `[
  {"id": "has-items", "description": "There is at least one item", "rule": "size(output.items) > 0"},
  {"id": "closed", "description": "The ticket is closed", "rule": "output.status == 'closed'", "message": "The ticket must be closed"}
]`,
			},
			args: []string{"$/out.json"},
			params: func(p *validateParams, dir string) {
				p.rules = filepath.Join(dir, "rules.json")
			},
			code: 1,
			check: func(t *testing.T, r *result.ValidationResult) {
				if !slices.Equal(r.PassedCriteria, []string{"There is at least one item"}) || !slices.Equal(r.FailedCriteria, []string{"The ticket is closed"}) {
					t.Errorf("passed %q, failed %q", r.PassedCriteria, r.FailedCriteria)
				}
			},
		},
		{
			name: "rule reads the context",
			files: map[string]string{
				"out.json":   `{"total": 120}`,
				"ctx.json":   `{"limit": 100}`,
				"rules.json": `[{"description": "The total is within the limit", "rule": "output.total <= context.limit"}]`,
			},
			args: []string{"$/out.json"},
			params: func(p *validateParams, dir string) {
				p.rules = filepath.Join(dir, "rules.json")
				p.context = filepath.Join(dir, "ctx.json")
			},
			code: 1,
			check: func(t *testing.T, r *result.ValidationResult) {
				if !slices.Equal(r.FailedCriteria, []string{"The total is within the limit"}) {
					t.Errorf("failed %q", r.FailedCriteria)
				}
			},
		},
		{
			name:  "plain-language criterion is not counted as passed",
			files: map[string]string{"out.txt": "The refund was issued on Monday."},
			args:  []string{"$/out.txt"},
			params: func(p *validateParams, dir string) {
				p.criteria = []string{"The answer says when the refund was issued"}
			},
			code: 0,
			check: func(t *testing.T, r *result.ValidationResult) {
				if len(r.PassedCriteria) != 0 || !hasIssue(r, result.NotChecked, "") {
					t.Errorf("want a not_checked issue and nothing passed, got %+v", r)
				}
			},
		},
		{
			name: "schemas directory",
			files: map[string]string{
				"out.json":          `{"customer": {"name": "Ada"}}`,
				"s.json":            `{"properties": {"customer": {"$ref": "https://example.com/customer.json"}}}`,
				"dir/customer.json": `{"$id": "https://example.com/customer.json", "required": ["name", "email"]}`,
			},
			args: []string{"$/out.json"},
			params: func(p *validateParams, dir string) {
				p.schema = filepath.Join(dir, "s.json")
				p.schemasDir = filepath.Join(dir, "dir")
			},
			code: 1,
			check: func(t *testing.T, r *result.ValidationResult) {
				if !hasIssue(r, result.MissingField, "email") {
					t.Errorf("want email missing through the $ref, got %+v", r.Issues)
				}
			},
		},
		{
			name:  "sources directory",
			files: map[string]string{"out.txt": "ok", "src/a.md": "# A", "src/sub/b.txt": "B", "src/skip.bin": "x"},
			args:  []string{"$/out.txt"},
			params: func(p *validateParams, dir string) {
				p.sources = []string{filepath.Join(dir, "src")}
			},
			code: 0,
		},
		{
			name:  "types limit the layers",
			files: map[string]string{"out.json": `{}`, "s.json": personSchema, "rules.json": `[{"rule": "false"}]`},
			args:  []string{"$/out.json"},
			params: func(p *validateParams, dir string) {
				p.schema = filepath.Join(dir, "s.json")
				p.rules = filepath.Join(dir, "rules.json")
				p.types = []string{"criteria"}
			},
			code: 1,
			check: func(t *testing.T, r *result.ValidationResult) {
				if !slices.Equal(r.Metadata.ValidationTypesRun, []string{"criteria"}) {
					t.Errorf("ran %q, want only criteria", r.Metadata.ValidationTypesRun)
				}
			},
		},

		// Bad input: exit status 2.
		{
			name:    "missing output file",
			args:    []string{"$/nope.json"},
			code:    2,
			wantErr: `nope\.json: no such output file$`,
		},
		{
			name:  "malformed schema",
			files: map[string]string{"out.json": `{}`, "s.json": "{\n  \"type\": \"object\",\n  \"required\": [\"a\",]\n}"},
			args:  []string{"$/out.json"},
			params: func(p *validateParams, dir string) {
				p.schema = filepath.Join(dir, "s.json")
			},
			code:    2,
			wantErr: `s\.json:3:20: the schema file is not valid JSON: `,
		},
		{
			name:  "YAML schema file",
			files: map[string]string{"out.json": `{}`, "s.yaml": "type: object\n"},
			args:  []string{"$/out.json"},
			params: func(p *validateParams, dir string) {
				p.schema = filepath.Join(dir, "s.yaml")
			},
			code:    2,
			wantErr: `s\.yaml: the schema file must be JSON; YAML is not supported$`,
		},
		{
			name:  "YAML content in a .json schema",
			files: map[string]string{"out.json": `{}`, "s.json": "type: object\nrequired: [a]\n"},
			args:  []string{"$/out.json"},
			params: func(p *validateParams, dir string) {
				p.schema = filepath.Join(dir, "s.json")
			},
			code:    2,
			wantErr: `s\.json:1:\d+: .*YAML is not supported\)$`,
		},
		{
			name:  "a remote $ref: the core says what to give, the CLI names the flag",
			files: map[string]string{"out.json": `{}`, "s.json": `{"properties": {"a": {"$ref": "http://example.com/x.json"}}}`},
			args:  []string{"$/out.json"},
			params: func(p *validateParams, dir string) {
				p.schema = filepath.Join(dir, "s.json")
			},
			code:    2,
			wantErr: `is not among the local schemas; judge never fetches schemas \(give it in "schemas" or in the directory of schemas judge reads\); give that directory with --schemas DIR$`,
		},
		{
			name:  "a missing trusted source: the text names the flag",
			files: map[string]string{"out.json": `{"a": "The sky is green."}`},
			args:  []string{"$/out.json"},
			params: func(p *validateParams, dir string) {
				p.trusted = []string{"https://example.test/missing"}
				must(t, p.format.Set("text"))
			},
			code:    1,
			wantOut: `put it in the directory of sources judge reads \(--source\)`,
		},
		{
			name:  "schema that does not compile points into the file",
			files: map[string]string{"out.json": `{}`, "s.json": "{\n  \"properties\": {\n    \"age\": {\"type\": \"integr\"}\n  }\n}"},
			args:  []string{"$/out.json"},
			params: func(p *validateParams, dir string) {
				p.schema = filepath.Join(dir, "s.json")
			},
			code:    2,
			wantErr: `s\.json:3:\d+: /properties/age`,
		},
		{
			name: "schema of --schemas that does not compile points into its file",
			files: map[string]string{
				"out.json":   `{}`,
				"s.json":     `{"$ref": "https://example.com/c.json"}`,
				"dir/c.json": "{\n  \"$id\": \"https://example.com/c.json\",\n  \"properties\": {\"a\": {\"minLength\": -1}}\n}",
			},
			args: []string{"$/out.json"},
			params: func(p *validateParams, dir string) {
				p.schema = filepath.Join(dir, "s.json")
				p.schemasDir = filepath.Join(dir, "dir")
			},
			code:    2,
			wantErr: `c\.json:3:37: /properties/a/minLength: `,
		},
		{
			name:  "rule that does not compile points at the column in the file",
			files: map[string]string{"out.json": `{}`, "rules.json": "[\n  {\"id\": \"ok\", \"rule\": \"true\"},\n  {\"id\": \"bad\", \"rule\": \"output.a ==\"}\n]"},
			args:  []string{"$/out.json"},
			params: func(p *validateParams, dir string) {
				p.rules = filepath.Join(dir, "rules.json")
			},
			code:    2,
			wantErr: `rules\.json:3:37: criterion "bad": Syntax error`,
		},
		{
			name:  "rules file that is not an array",
			files: map[string]string{"out.json": `{}`, "rules.json": `{"rule": "true"}`},
			args:  []string{"$/out.json"},
			params: func(p *validateParams, dir string) {
				p.rules = filepath.Join(dir, "rules.json")
			},
			code:    2,
			wantErr: `rules\.json:1:1: the rules file must hold a JSON array of criteria`,
		},
		{
			name:  "unknown field in a rule",
			files: map[string]string{"out.json": `{}`, "rules.json": "[\n  {\"rule\": \"true\"},\n  {\"rule\": \"true\", \"severity\": \"warning\"}\n]"},
			args:  []string{"$/out.json"},
			params: func(p *validateParams, dir string) {
				p.rules = filepath.Join(dir, "rules.json")
			},
			code:    2,
			wantErr: `rules\.json:3:3: criterion 2: .*unknown field "severity"`,
		},
		{
			name:  "duplicate rule ids",
			files: map[string]string{"out.json": `{}`, "rules.json": `[{"id": "a", "rule": "true"}, {"id": "a", "rule": "false"}]`},
			args:  []string{"$/out.json"},
			params: func(p *validateParams, dir string) {
				p.rules = filepath.Join(dir, "rules.json")
			},
			code:    2,
			wantErr: `criterion 2 has the id "a" of criterion 1`,
		},
		{
			name:  "malformed context",
			files: map[string]string{"out.json": `{}`, "ctx.json": `{"a": }`},
			args:  []string{"$/out.json"},
			params: func(p *validateParams, dir string) {
				p.context = filepath.Join(dir, "ctx.json")
			},
			code:    2,
			wantErr: `ctx\.json:1:7: the context file is not valid JSON`,
		},
		{
			name:  "unknown validation type",
			files: map[string]string{"out.json": `{}`},
			args:  []string{"$/out.json"},
			params: func(p *validateParams, dir string) {
				p.types = []string{"schema", "spelling"}
			},
			code:    2,
			wantErr: `^--types: unknown validation type "spelling"`,
		},
		{
			name:  "min quality out of range",
			files: map[string]string{"out.json": `{}`},
			args:  []string{"$/out.json"},
			params: func(p *validateParams, dir string) {
				p.minQuality = 1.5
			},
			code:    2,
			wantErr: `--min-quality 1.5 is not in \[0, 1\]`,
		},
		{
			name:  "empty source directory",
			files: map[string]string{"out.json": `{}`, "src/x.bin": ""},
			args:  []string{"$/out.json"},
			params: func(p *validateParams, dir string) {
				p.sources = []string{filepath.Join(dir, "src")}
			},
			code:    2,
			wantErr: `src: the source directory holds no \.txt, \.md, \.json file`,
		},
		{
			name:  "schema file is a directory",
			files: map[string]string{"out.json": `{}`, "d/x": ""},
			args:  []string{"$/out.json"},
			params: func(p *validateParams, dir string) {
				p.schema = filepath.Join(dir, "d")
			},
			code:    2,
			wantErr: `d: the schema file is a directory`,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := writeFiles(t, tc.files)
			params := newValidateParams()
			must(t, params.format.Set("json"))
			params.stdin = strings.NewReader(tc.stdin)
			if tc.params != nil {
				tc.params(&params, dir)
			}
			var args []string
			for _, a := range tc.args {
				if rest, ok := strings.CutPrefix(a, "$/"); ok {
					a = filepath.Join(dir, rest)
				}
				args = append(args, a)
			}
			var out bytes.Buffer
			err := runValidate(context.Background(), params, args, &out)
			if code := exitCode(err); code != tc.code {
				t.Fatalf("exit status %d, want %d (error: %v)\nstdout:\n%s", code, tc.code, err, out.String())
			}
			if tc.wantErr != "" {
				if err == nil || !regexp.MustCompile(tc.wantErr).MatchString(err.Error()) {
					t.Fatalf("error %q does not match %q", err, tc.wantErr)
				}
				return
			}
			if tc.wantOut != "" {
				if !regexp.MustCompile(tc.wantOut).MatchString(out.String()) {
					t.Fatalf("stdout does not match %q:\n%s", tc.wantOut, out.String())
				}
				return
			}
			if err := result.CheckJSON(out.Bytes()); err != nil {
				t.Fatalf("%v\n%s", err, out.String())
			}
			var r result.ValidationResult
			if err := json.Unmarshal(out.Bytes(), &r); err != nil {
				t.Fatal(err)
			}
			if tc.check != nil {
				tc.check(t, &r)
			}
		})
	}
}

func TestOversizedInput(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "big.txt")
	if err := os.WriteFile(path, bytes.Repeat([]byte("a"), maxInputBytes+1), 0o644); err != nil {
		t.Fatal(err)
	}
	err := runValidate(context.Background(), newValidateParams(), []string{path}, new(bytes.Buffer))
	if exitCode(err) != 2 || !strings.Contains(err.Error(), "larger than the limit of 10 MiB") {
		t.Fatalf("got %v (exit status %d), want the size limit and status 2", err, exitCode(err))
	}
}

func TestVerdict(t *testing.T) {
	t.Parallel()
	warned := result.NewBuilder().Add(result.Issue{
		Severity: result.Warning, Type: result.StyleIssue, Location: "root",
		Message: "Function name uses camelCase instead of snake_case",
	}).Build()
	failed := result.NewBuilder().Add(result.Issue{
		Severity: result.Error, Type: result.MissingField, Location: "root",
		Message: "Missing required field 'email' in the output",
	}).Build()
	undecided := result.NewBuilder().Confidence(0.4).Build()
	tests := []struct {
		name    string
		res     *result.ValidationResult
		min     float64
		code    int
		wantMsg string
	}{
		{"valid, no threshold", warned, 0, 0, ""},
		{"valid, above threshold", warned, 0.9, 0, ""},
		{"valid, below threshold", warned, 0.95, 1, "quality score 0.9 is below --min-quality 0.95"},
		{"invalid is silent", failed, 0, 1, ""},
		{"valid but undecided", undecided, 0, 1, "confidence 0.40 is below --min-confidence 0.50: too few of the requested checks could be decided to pass the output (see the not_checked and layer_failed notes)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			err := verdict(tc.res, tc.min, DefaultMinConfidence)
			if exitCode(err) != tc.code {
				t.Fatalf("exit status %d, want %d", exitCode(err), tc.code)
			}
			var msg string
			if ee := (*exitError)(nil); err != nil && errors.As(err, &ee) && ee.err != nil {
				msg = ee.err.Error()
			}
			if msg != tc.wantMsg {
				t.Fatalf("message %q, want %q", msg, tc.wantMsg)
			}
		})
	}
}

// hasIssue reports whether r has an issue of type typ (any when empty)
// whose message contains text.
func hasIssue(r *result.ValidationResult, typ result.Type, text string) bool {
	return slices.ContainsFunc(r.Issues, func(is result.Issue) bool {
		return (typ == "" || is.Type == typ) && strings.Contains(is.Message, text)
	})
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
