package quality

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentjudge/judge/internal/jsonvalue"
	"github.com/agentjudge/judge/internal/sharedtest"
	"github.com/agentjudge/judge/layer"
	"github.com/agentjudge/judge/result"
)

// summary renders issues as "severity type rule location" lines, sorted,
// for comparing a run's whole list of findings.
func summary(issues []result.Issue) []string {
	out := make([]string, 0, len(issues))
	for _, is := range issues {
		out = append(out, fmt.Sprintf("%s %s %s %s", is.Severity, is.Type, is.Rule, is.Location))
	}
	slices.Sort(out)
	return out
}

// decode parses a JSON output as the engine does.
func decode(t *testing.T, s string) any {
	t.Helper()
	v, err := jsonvalue.Decode([]byte(s), jsonvalue.DefaultMaxDepth)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// requireIssues runs the layer over in and requires exactly the findings
// want (as summary renders them), each with a message and a suggestion.
func requireIssues(t *testing.T, in *layer.Input, want []string) layer.Findings {
	t.Helper()
	f := check(t, in)
	got := summary(f.Issues)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("issues:\n\t%s\nwant:\n\t%s", strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
		for _, is := range f.Issues {
			t.Logf("%s: %s", is.Location, is.Message)
		}
	}
	for _, is := range f.Issues {
		if len(is.Message) < 10 || len(is.Message) > 500 || len(is.Suggestion) < 10 {
			t.Errorf("%s at %s: message %q, suggestion %q", is.Rule, is.Location, is.Message, is.Suggestion)
		}
	}
	return f
}

// TestJSONProse reviews the string fields of JSON outputs that hold prose,
// and every string field for placeholders.
func TestJSONProse(t *testing.T) {
	t.Parallel()
	long := strings.TrimSpace(strings.Repeat("the service keeps every request in a queue and ", 5)) + " then stops."
	tests := []struct {
		name string
		out  string
		want []string
		// message, when set, is a part of the first finding's message.
		message string
	}{
		{
			name:    "cut-off summary of two sentences",
			out:     `{"summary": "The service restarts in ten seconds. It then waits for the"}`,
			want:    []string{"warning readability_issue prose.unfinished summary"},
			message: `The field summary ends mid-sentence ("The service restarts in ten seconds. It then waits for the")`,
		},
		{
			name: "a sentence without a full stop is a title, not cut off",
			out:  `{"title": "How to install the package on a Linux machine", "description": "Returns the list of users for the given account and region"}`,
		},
		{
			name: "identifiers, URLs, enums, labels, masks and template variables",
			out: `{"id": "user_42", "url": "https://example.com/docs/install?step=2#todo", "status": "TODO", "state": "TBD",
				"kind": "IN_PROGRESS", "label": "Open issues (3", "ssn": "XXX-XX-1234", "path": "src/TODO.md", "tags": ["a", "b"], "host": "{{ inventory_host }}"}`,
		},
		{
			name: "placeholders in short fields",
			out:  `{"contact": {"email": "[insert email]", "phone": "<your phone number>", "note": "TODO: add the phone", "greeting": "Hello {{name}}", "filler": "Lorem ipsum"}}`,
			want: []string{
				"error readability_issue prose.placeholder contact.email",
				"error readability_issue prose.placeholder contact.filler",
				"error readability_issue prose.placeholder contact.phone",
				"warning readability_issue prose.placeholder contact.note",
			},
			message: `Field contact.email holds a placeholder to fill in ("[insert email]")`,
		},
		{
			name:    "repeated sentence in an array element",
			out:     `{"items": [{"text": "Short one."}, {"text": "This sentence repeats five words here. This sentence repeats five words here."}]}`,
			want:    []string{"warning readability_issue prose.repeated_sentence items[1].text"},
			message: `repeats an earlier one in field items[1].text`,
		},
		{
			name:    "long sentence and unclosed bracket",
			out:     `{"explanation": "` + long + ` (see the runbook for the details of it."}`,
			want:    []string{"warning readability_issue prose.long_sentence explanation", "warning readability_issue prose.unclosed_bracket explanation"},
			message: `A sentence of 47 words in field explanation is hard to follow`,
		},
		{
			name:    "a template variable in prose is a gap",
			out:     `{"body": "Dear {{name}}, your order has shipped and will arrive on Monday."}`,
			want:    []string{"error readability_issue prose.placeholder body"},
			message: `Field body holds a placeholder to fill in ("{{name}}")`,
		},
		{
			name: "lines of a multi-line string",
			out:  `{"answer": "The first line is fine.\nThe second line is lorem ipsum text.\nThe third line has [insert link] in it.\n"}`,
			want: []string{
				"error readability_issue prose.placeholder answer:line:2",
				"error readability_issue prose.placeholder answer:line:3",
			},
		},
		{
			name: "code fields are code, not prose",
			out: `{"solution": {"language": "python", "code": "def double(value: int) -> int:\n    \"\"\"Double value (TODO: [insert check]).\"\"\"\n    return (value * 2\n"},
				"explanation": "The function doubles its argument. It has no checks yet."}`,
			want: []string{"error syntax_error syntax.error solution.code:line:3:column:5"},
		},
		{
			name: "fences in a prose field are code, located in the field",
			out:  `{"answer": "Here is the fix you asked for\n\n` + "```python\\ndef f(:\\n    pass\\n```" + `\n\nIt works now.\n\n` + "```js\\nlet value = 1;\\n" + `"}`,
			want: []string{
				"error syntax_error syntax.error answer:line:4:column:7",
				"info optimization readability.type_hints answer:function:f",
				"warning readability_issue readability.missing_docstring answer:function:f",
				"warning readability_issue prose.unclosed_fence answer:line:10",
			},
			message: "The code fence opened on line 10 in field answer is never closed",
		},
		{
			name:    "cut off after a code block",
			out:     `{"answer": "Here is the fix. It works.\n\n` + "```python\\nvalue = 1\\n```" + `\n\nAfter this the service restarts and then the"}`,
			want:    []string{"warning readability_issue prose.unfinished answer:line:7"},
			message: `The field answer ends mid-sentence ("After this the service restarts and then the")`,
		},
		{
			name:    "keys that are not identifiers",
			out:     `{"release notes": ["Fixed the crash on start. Added a setting for the [insert name] option."]}`,
			want:    []string{`error readability_issue prose.placeholder ["release notes"][0]`},
			message: `Field ["release notes"][0] holds a placeholder`,
		},
		{
			name: "emoticons open no bracket",
			out:  `{"chat": "Joyce: They only use us for our big screen TVs :( and that is all. Joyce: Don't we mean anything to you anymore? ;((("}`,
		},
		{
			name: "a top-level array of strings",
			out:  `["Done. The queue is drained and the workers were stopped in the", "Fine."]`,
			want: []string{"warning readability_issue prose.unfinished [0]"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := requireIssues(t, &layer.Input{Output: decode(t, tt.out)}, tt.want)
			if tt.message != "" && (len(f.Issues) == 0 || !strings.Contains(f.Issues[0].Message, tt.message)) {
				t.Errorf("first message %q does not hold %q", firstIssue(f.Issues).Message, tt.message)
			}
			if f.Confidence != 1 {
				t.Errorf("confidence %v", f.Confidence)
			}
		})
	}
}

func firstIssue(issues []result.Issue) result.Issue {
	if len(issues) == 0 {
		return result.Issue{}
	}
	return issues[0]
}

// TestJSONProsePastCodeLimit: past the limit on pieces of code, the other
// fields are still reviewed for prose and placeholders.
func TestJSONProsePastCodeLimit(t *testing.T) {
	t.Parallel()
	out := map[string]any{"note": "[insert name]"}
	for i := range maxBlocks + 2 {
		out[fmt.Sprintf("f%02d", i)] = map[string]any{"language": "python", "code": "value = 1\n"}
	}
	requireIssues(t, &layer.Input{Output: out}, []string{
		"error readability_issue prose.placeholder note",
		"info not_checked quality.not_checked f50.code:line:1",
	})
}

// TestJSONProseScoresAsText: a prose field gets the findings, and so the
// quality sub-scores, that the same prose as a text output gets.
func TestJSONProseScoresAsText(t *testing.T) {
	t.Parallel()
	prose := "The report is ready. The report is ready and it is fine. See [insert link here]. TODO fix this.\n" +
		"This sentence repeats five words here. This sentence repeats five words here.\n(An aside that never closes.\nAnd the output stops in the middle of"
	asText := check(t, text(prose)).Issues
	asField := check(t, &layer.Input{Output: map[string]any{"answer": prose}}).Issues
	strip := func(issues []result.Issue) []string {
		out := summary(issues)
		for i, s := range out {
			out[i] = strings.Replace(s, " answer:", " ", 1)
		}
		slices.Sort(out)
		return out
	}
	if a, b := strip(asText), strip(asField); !slices.Equal(a, b) {
		t.Fatalf("as text:\n\t%s\nas a field:\n\t%s", strings.Join(a, "\n\t"), strings.Join(b, "\n\t"))
	}
	if len(asText) != 4 {
		t.Errorf("%d findings: %v", len(asText), summary(asText))
	}
	dt, df := result.QualityDimensions(asText), result.QualityDimensions(asField)
	if fmt.Sprint(dt) != fmt.Sprint(df) || result.QualityScore(asText) != result.QualityScore(asField) || dt[result.Completeness] >= 1 || dt[result.Readability] >= 1 {
		t.Errorf("dimensions as text %v, as a field %v", dt, df)
	}
}

// TestIndentedCode finds CommonMark indented code blocks, and fences
// indented in list items, maps their lines and columns back to the
// output's and leaves indented text in list items as prose.
func TestIndentedCode(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		out  string
		want []string
	}{
		{
			name: "between paragraphs",
			out: "Try this:\n\n    import os\n\n    def list_dir(path: str) -> list:\n        \"\"\"List path.\"\"\"\n" +
				"        os.system(\"ls \" + path)\n        return os.listdir(path)\n\nIt lists the files of the directory.\n",
			want: []string{"warning security_issue security.shell_string function:list_dir:line:7"},
		},
		{
			name: "indented by a tab",
			out:  "Try this:\n\n\timport os\n\n\tdef listDir(path: str) -> list:\n\t    \"\"\"List path.\"\"\"\n\t    return os.listdir(path)\n",
			want: []string{"warning style_issue style.naming function:listDir"},
		},
		{
			name: "syntax error columns count the indentation",
			out:  "Intro.\n\n    def f(x):\n        return (x\n",
			want: []string{
				"error syntax_error syntax.error line:4:column:9",
				"info optimization readability.type_hints function:f",
				"warning readability_issue readability.missing_docstring function:f",
				"warning readability_issue readability.short_name function:f:line:3",
			},
		},
		{
			name: "text indented under a list item is the item's text",
			out:  "Steps:\n\n1. Install the package.\n\n    Then fill in [insert token] and run it.\n\n2. Run it.\n",
			want: []string{"error readability_issue prose.placeholder line:5"},
		},
		{
			name: "code in a list item is indented past the item's content",
			out: "Steps:\n\n- Install the package:\n\n      import os\n\n      def run(cmd: str) -> None:\n          \"\"\"Run cmd.\"\"\"\n" +
				"          eval(cmd)\n- Done.\n",
			want: []string{"warning security_issue security.eval function:run:line:9"},
		},
		{
			name: "an indented line continues a paragraph",
			out:  "Here is what to run now:\n    eval(user_input) [insert value]\nand nothing else.\n",
			want: []string{"error readability_issue prose.placeholder line:2"},
		},
		{
			name: "an indented fence is Markdown source",
			out:  "Write it like this:\n\n    ```python\n    eval(x)\n    ```\n\nThat is all.\n",
		},
		{
			name: "a fence below an indented block's first line is Markdown source too",
			out:  "Write it like this in your README:\n\n    Run the helper:\n    ```python\n    def f(x):\n        return eval(x)\n    ```\n\nThat is all.\n",
		},
		{
			name: "code's own indentation is not Markdown",
			out:  "import os\n\n\ndef run(cmd: str) -> None:\n    \"\"\"Run cmd.\"\"\"\n\n    os.system(cmd)\n",
			want: []string{"warning security_issue security.shell_string function:run:line:7"},
		},
		{
			name: "a fence in a list item, its body indented as the fence",
			out: "Steps:\n\n1. Run this:\n\n    ```python\n    def run(cmd: str) -> None:\n        \"\"\"Run cmd (TODO: [insert check]).\"\"\"\n" +
				"        eval(cmd)\n    ```\n2. Done.\n",
			want: []string{"warning security_issue security.eval function:run:line:8"},
		},
		{
			name: "syntax error columns in an indented fence",
			out:  "Intro.\n\n  ```python\n  def f(:\n  ```\n",
			want: []string{
				"error syntax_error syntax.error line:4:column:9",
				"info optimization readability.type_hints function:f",
				"warning readability_issue readability.missing_docstring function:f",
			},
		},
		{
			name: "syntax error columns past a tab the fence's indentation splits",
			out:  "Intro.\n\n  ```python\n\tdef f(:\n  ```\n",
			want: []string{
				"error syntax_error syntax.error line:4:column:8",
				"info optimization readability.type_hints function:f",
				"warning readability_issue readability.missing_docstring function:f",
			},
		},
		{
			name: "prose before a code block is not cut off",
			out:  "Here is the fix you asked for\n\n```python\nvalue = 1\n```\n\nThat is all.\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			requireIssues(t, text(tt.out), tt.want)
		})
	}
}

// TestNoFalsePositivesOnSummaries runs the layer over the human-written
// and edited summaries of SummEdits (shared/testdata/summedits-dev), each
// as the "summary" field of a JSON output: ordinary prose holds no
// placeholder and is not cut off. (Their long sentences are reported, as
// they are in a text output.)
func TestNoFalsePositivesOnSummaries(t *testing.T) {
	t.Parallel()
	dir := sharedtest.Dir(t, "summedits-dev")
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no summaries in %s: %v", dir, err)
	}
	n := 0
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var docs []struct {
			Summary string `json:"summary"`
		}
		if err := json.Unmarshal(b, &docs); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		for i, d := range docs {
			n++
			for _, is := range check(t, &layer.Input{Output: map[string]any{"summary": d.Summary}}).Issues {
				if is.Rule != "prose.long_sentence" {
					t.Errorf("%s[%d]: %s %s: %s", filepath.Base(file), i, is.Rule, is.Location, is.Message)
				}
			}
		}
	}
	if n < 1000 {
		t.Errorf("only %d summaries", n)
	}
}

// TestSplitSentencesLines: each sentence's line is that of its first
// character, counted as splitSentences goes.
func TestSplitSentencesLines(t *testing.T) {
	t.Parallel()
	text := "One.\n\nTwo is here. Three\nspans lines!\n  - Four\n5. Five? Six.\n\n\n  Seven"
	got := splitSentences(text)
	var lines []string
	for _, s := range got {
		lines = append(lines, fmt.Sprintf("%d %s", s.line, s.text))
		if want := strings.Count(text[:strings.Index(text, s.text)], "\n") + 1; s.line != want {
			t.Errorf("%q on line %d, want %d", s.text, s.line, want)
		}
	}
	if len(got) != 7 {
		t.Errorf("sentences %q", lines)
	}
}
