package server

import (
	"bytes"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/agentjudge/judge/result"
)

// qualityOutput is an answer with a Python block that has a complex
// function, shell=True and a hard-coded password.
const qualityOutput = "Here is the script:\n\n```python\nimport subprocess\n\nDB_PASSWORD = \"s3cr3t-Pa55w0rd\"\n\n\ndef run(cmd: str) -> None:\n    \"\"\"Run cmd.\"\"\"\n    subprocess.run(cmd, shell=True)\n```\n"

func TestValidateQuality(t *testing.T) {
	t.Parallel()
	_, ts := newTestServer(t, Options{})
	body, _ := json.Marshal(map[string]any{
		"output":           qualityOutput,
		"validation_types": []string{"quality"},
		"options":          map[string]any{"quality": map[string]any{"max_complexity": 5, "max_line_length": 120}},
	})
	r := mustResult(t, do(t, ts, http.MethodPost, "/validate", string(body), nil))
	byRule := map[string]result.Issue{}
	for _, is := range r.Issues {
		byRule[is.Rule] = is
	}
	if is := byRule["security.shell_true"]; is.Location != "function:run:line:11" || is.Severity != result.Warning {
		t.Errorf("shell=True: %+v", is)
	}
	if is := byRule["security.secret"]; is.Location != "line:6" || is.Severity != result.Error {
		t.Errorf("secret: %+v", is)
	}
	if r.Valid || r.Confidence != 1 || r.Metadata.ValidationTypesRun[0] != "quality" {
		t.Errorf("valid %v, confidence %v, ran %v", r.Valid, r.Confidence, r.Metadata.ValidationTypesRun)
	}
	var raw struct {
		Metadata struct {
			Dimensions map[string]float64 `json:"quality_dimensions"`
		} `json:"metadata"`
	}
	do := do(t, ts, http.MethodPost, "/validate", string(body), nil)
	if err := json.Unmarshal(do.body, &raw); err != nil {
		t.Fatal(err)
	}
	if d := raw.Metadata.Dimensions; d["security"] >= 0.8 || d["style"] != 1 || len(d) != 7 {
		t.Errorf("quality_dimensions %v", d)
	}
}

// A JSON output's prose fields and indented code are reviewed, each
// finding located by field path; short fields are not prose.
func TestValidateQualityJSONProse(t *testing.T) {
	t.Parallel()
	_, ts := newTestServer(t, Options{})
	tests := []struct {
		name   string
		output any
		want   []string // "location severity rule", sorted
	}{
		{
			name:   "cut-off summary and a placeholder",
			output: map[string]any{"id": "job-7", "state": "TBD", "summary": "The job ran twice. Fill in [insert owner] and then the"},
			want:   []string{"summary error prose.placeholder", "summary warning prose.unfinished"},
		},
		{
			name:   "cut-off text over lines",
			output: map[string]any{"items": []any{map[string]any{"note": "The job ran twice.\nIt stopped when the disk filled and then the"}}},
			want:   []string{"items[0].note:line:2 warning prose.unfinished"},
		},
		{
			name: "indented code in a prose field",
			output: map[string]any{"answer": "Use this helper to run the job.\n\n    import subprocess\n\n    def run(cmd: str) -> None:\n" +
				"        \"\"\"Run cmd.\"\"\"\n        subprocess.run(cmd, shell=True)\n\nIt runs the job once."},
			want: []string{"answer:function:run:line:7 warning security.shell_true"},
		},
		{
			name:   "titles, labels and enums",
			output: map[string]any{"title": "How to restart the worker on a Linux host", "status": "TODO", "url": "https://example.com/TODO"},
			want:   []string{},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			body := string(mustJSON(t, map[string]any{"output": tt.output, "validation_types": []string{"quality"}}))
			r := mustResult(t, do(t, ts, http.MethodPost, "/validate", body, nil))
			got := []string{}
			for _, is := range r.Issues {
				got = append(got, is.Location+" "+string(is.Severity)+" "+is.Rule)
			}
			slices.Sort(got)
			if !slices.Equal(got, tt.want) || r.Confidence != 1 || len(r.Metadata.QualityDimensions) != 7 {
				t.Errorf("issues %v, want %v; confidence %v, dimensions %v", got, tt.want, r.Confidence, r.Metadata.QualityDimensions)
			}
		})
	}
}

func TestValidateQualityOptionsErrors(t *testing.T) {
	t.Parallel()
	_, ts := newTestServer(t, Options{})
	for body, detail := range map[string]string{
		`{"output": "x = 1", "validation_types": ["quality"], "options": {"quality": {"max_complexity": -1}}}`: "max_complexity",
		`{"output": "x = 1", "options": {"quality": {"max_depth": 3}}}`:                                        "max_depth",
	} {
		p := mustProblem(t, do(t, ts, http.MethodPost, "/validate", body, nil), http.StatusBadRequest, "/validate")
		if !strings.Contains(p.Detail+string(mustJSON(t, p.Errors)), detail) {
			t.Errorf("%s: problem %+v does not name %s", body, p, detail)
		}
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// The OpenAPI document describes options.quality: a request using it is
// valid, an unknown threshold is not.
func TestOpenAPIQualityOptions(t *testing.T) {
	t.Parallel()
	_, _, raw := getOpenAPI(t, Options{})
	c := jsonschema.NewCompiler()
	whole, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	const base = "https://agentjudge.dev/openapi.json"
	if err := c.AddResource(base, whole); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile(base + "#/components/schemas/ValidateRequest")
	if err != nil {
		t.Fatal(err)
	}
	for body, ok := range map[string]bool{
		`{"output": "x", "validation_types": ["quality"], "options": {"quality": {"max_complexity": 15, "max_line_length": 120, "max_function_length": 80}}}`: true,
		`{"output": "x", "options": {"quality": {"max_depth": 3}}}`:       false,
		`{"output": "x", "options": {"quality": {"max_complexity": -1}}}`: false,
	} {
		v, err := jsonschema.UnmarshalJSON(strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		if err := sch.Validate(v); (err == nil) != ok {
			t.Errorf("%s: validation error %v, want ok=%v", body, err, ok)
		}
	}
}
