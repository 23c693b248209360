package quality

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/agentjudge/judge/internal/code"
	"github.com/agentjudge/judge/layer"
	"github.com/agentjudge/judge/result"
)

//go:embed doc.go
var docGo string

// Defaults of the thresholds, each overridden by options.quality.
const (
	DefaultMaxComplexity     = 10
	DefaultMaxFunctionLength = 50
	// DefaultMaxLineLength is for every language but Python, whose limit
	// is PEP 8's (as black sets it) PythonMaxLineLength.
	DefaultMaxLineLength = 100
	PythonMaxLineLength  = 88
)

// Limits on the work of one run.
const (
	// maxBlocks is how many pieces of code one output may hold; the rest
	// are reported as not checked.
	maxBlocks = 50
	// maxIssuesPerRule caps the issues of one rule in one piece of code;
	// one more issue counts the rest.
	maxIssuesPerRule = 10
)

// Layer reviews the code and prose of an output; see the package
// documentation. It runs only when validation_types names it, and then
// needs an output that holds text or code.
var Layer = &layer.Layer{
	Name: "quality",
	Doc:  layer.MustExtractDoc(docGo, "quality"),
	// Never by default: every output has text, and reviewing it unasked
	// would add findings to requests that asked for other checks.
	Applies:          func(*layer.Input) bool { return false },
	AppliesOnRequest: applies,
	Run:              run,
}

func applies(in *layer.Input) bool {
	if strings.TrimSpace(in.Text) != "" {
		return true
	}
	if s, ok := in.Output.(string); ok {
		return strings.TrimSpace(s) != ""
	}
	return len(codeFields(context.Background(), in.Output, false, new([]note))) > 0
}

// config is a run's thresholds.
type config struct {
	maxComplexity, maxLine, maxFunction int
}

func newConfig(o layer.QualityOptions) (config, error) {
	c := config{maxComplexity: DefaultMaxComplexity, maxLine: 0, maxFunction: DefaultMaxFunctionLength}
	for _, v := range []struct {
		name string
		val  int
		dst  *int
	}{
		{"max_complexity", o.MaxComplexity, &c.maxComplexity},
		{"max_line_length", o.MaxLineLength, &c.maxLine},
		{"max_function_length", o.MaxFunctionLength, &c.maxFunction},
	} {
		switch {
		case v.val < 0:
			return c, &layer.InputError{Layer: "quality", Location: "options.quality." + v.name, Msg: fmt.Sprintf("%s %d is negative", v.name, v.val)}
		case v.val > 0:
			*v.dst = v.val
		}
	}
	return c, nil
}

func (c config) lineLimit(lang code.Language) int {
	switch {
	case c.maxLine > 0:
		return c.maxLine
	case lang == code.Python:
		return PythonMaxLineLength
	}
	return DefaultMaxLineLength
}

// piece is one piece of the output to review: code or prose.
type piece struct {
	// lang is the code's language, "" for prose.
	lang code.Language
	// label is the language as the output named it, for messages.
	label string
	text  string
	// lineOffset is added to the piece's 1-based lines to give lines of
	// the output text.
	lineOffset int
	// prefix starts every location: "" or a JSON path and ":".
	prefix string
}

func run(ctx context.Context, p *layer.Pass) error {
	cfg, err := newConfig(p.Input.Options.Quality)
	if err != nil {
		return err
	}
	pieces, notes, unclosed := find(ctx, p.Input)
	for _, u := range notes {
		undecided(p, u.location, u.message, u.suggestion)
	}
	for _, line := range unclosed {
		p.Report(result.Issue{Severity: result.Warning, Type: result.ReadabilityIssue, Rule: "prose.unclosed_fence", Location: "line:" + strconv.Itoa(line),
			Message:    fmt.Sprintf("The code fence opened on line %d is never closed: the output looks cut off", line),
			Suggestion: "Close the code block with a matching fence line, and check that the output is complete"})
	}
	blocks := 0
	for _, pc := range pieces {
		if err := ctx.Err(); err != nil {
			return err
		}
		if pc.lang == "" {
			checkProse(p, pc)
			p.Decided(1)
			continue
		}
		blocks++
		if blocks > maxBlocks {
			undecided(p, pc.loc("", 1), fmt.Sprintf("The output holds more than %d pieces of code; this one and the rest were not reviewed", maxBlocks),
				"Split the output, or validate the pieces of code one by one")
			break
		}
		if err := checkCode(ctx, p, pc, cfg); err != nil {
			if errors.Is(err, code.ErrCanceled) {
				return err
			}
			var le *code.LimitError
			if errors.As(err, &le) {
				undecided(p, pc.loc("", max(le.Line, 1)), fmt.Sprintf("The %s code was not reviewed: %s", pc.label, le.Msg),
					"Shorten or flatten the code, or review it in smaller parts")
				continue
			}
			return err
		}
		p.Decided(1)
	}
	return nil
}

// undecided records a piece that could not be reviewed: a not_checked
// issue that lowers the confidence, never a pass.
func undecided(p *layer.Pass, location, message, suggestion string) {
	p.Report(result.Issue{Severity: result.Info, Type: result.NotChecked, Rule: "quality.not_checked", Location: location, Message: message, Suggestion: suggestion})
	p.Decided(0)
}

// loc renders a location within the piece: function, line (of the piece,
// 1-based; 0 for none) or both.
func (pc piece) loc(fn string, line int) string {
	var parts []string
	if fn != "" {
		parts = append(parts, "function:"+fn)
	}
	if line > 0 {
		parts = append(parts, "line:"+strconv.Itoa(line+pc.lineOffset))
	}
	if len(parts) == 0 {
		return strings.TrimSuffix(pc.prefix, ":")
	}
	return pc.prefix + strings.Join(parts, ":")
}

// note is a check that could not be decided.
type note struct{ location, message, suggestion string }

// fence matches the opening or closing line of a Markdown code fence.
var fence = regexp.MustCompile("^ {0,3}(`{3,}|~{3,})\\s*([^`\\s]*)")

// proseLabels are fence info strings that hold no code to review.
var proseLabels = map[string]bool{
	"": true, "text": true, "txt": true, "plain": true, "plaintext": true, "markdown": true, "md": true,
	"output": true, "console": true, "log": true, "json": true, "jsonc": true, "yaml": true, "yml": true,
	"toml": true, "ini": true, "csv": true, "xml": true, "html": true, "diff": true, "mermaid": true,
}

// find splits the output into pieces of code and prose, and returns the
// lines of fences that are never closed.
func find(ctx context.Context, in *layer.Input) ([]piece, []note, []int) {
	text := in.Text
	if text == "" {
		if s, ok := in.Output.(string); ok {
			text = s
		}
	}
	if text == "" {
		var notes []note
		pieces := codeFields(ctx, in.Output, true, &notes)
		return pieces, notes, nil
	}
	return splitText(ctx, text)
}

// splitText finds the fenced blocks of a text; the rest is prose, unless
// the whole text is code.
func splitText(ctx context.Context, text string) ([]piece, []note, []int) {
	lines := strings.SplitAfter(text, "\n")
	var pieces []piece
	var notes []note
	var prose strings.Builder
	proseStart := 0
	flushProse := func(next int) {
		if strings.TrimSpace(prose.String()) != "" {
			pieces = append(pieces, piece{text: prose.String(), lineOffset: proseStart})
		}
		prose.Reset()
		proseStart = next
	}
	fences := 0
	var unclosed []int
	for i := 0; i < len(lines); i++ {
		m := fence.FindStringSubmatch(lines[i])
		if m == nil {
			prose.WriteString(lines[i])
			continue
		}
		fences++
		// Blank the fence lines in the prose so that line numbers hold.
		flushProse(i)
		marker, info := m[1], strings.ToLower(m[2])
		var body strings.Builder
		j := i + 1
		closed := false
		for ; j < len(lines); j++ {
			if c := fence.FindStringSubmatch(lines[j]); c != nil && c[2] == "" && strings.HasPrefix(c[1], marker[:1]) && len(c[1]) >= len(marker) {
				closed = true
				break
			}
			body.WriteString(lines[j])
		}
		pc := piece{label: info, text: body.String(), lineOffset: i + 1}
		if !closed {
			unclosed = append(unclosed, i+1)
		}
		switch lang, ok := code.LookupLanguage(info); {
		case ok:
			pc.lang = lang
			pieces = append(pieces, pc)
		case info == "" || info == "sh-session":
			if lang, ok := code.Detect(ctx, pc.text); ok && strings.TrimSpace(pc.text) != "" {
				pc.lang, pc.label = lang, string(lang)
				pieces = append(pieces, pc)
			}
		case proseLabels[info]:
		default:
			notes = append(notes, note{
				location:   "line:" + strconv.Itoa(i+1),
				message:    fmt.Sprintf("The code block in %q was not reviewed: the quality layer parses Python, JavaScript, TypeScript, Go and Bash", info),
				suggestion: "Review the code by hand or with a linter for its language",
			})
		}
		i = j
		proseStart = j + 1
	}
	flushProse(len(lines))
	if fences == 0 {
		if lang, ok := code.Detect(ctx, text); ok && looksLikeCode(ctx, lang, text) {
			return []piece{{lang: lang, label: string(lang), text: text}}, nil, nil
		}
	}
	return pieces, notes, unclosed
}

// looksLikeCode tells an output that is code from prose around code that
// is not fenced: the text parses as lang without error, or no line of it
// reads as a sentence.
func looksLikeCode(ctx context.Context, lang code.Language, text string) bool {
	if f, err := code.Parse(ctx, lang, []byte(text)); err == nil && f.Syntax == nil {
		return true
	}
	for _, l := range strings.Split(text, "\n") {
		if proseLine(l) {
			return false
		}
	}
	return true
}

// proseLine reports a line that reads as a sentence: four words or more,
// made almost only of letters and spaces, not a comment.
func proseLine(l string) bool {
	l = strings.TrimSpace(l)
	if strings.HasPrefix(l, "#") || strings.HasPrefix(l, "//") || strings.HasPrefix(l, "*") || len(strings.Fields(l)) < 4 {
		return false
	}
	letters, others := 0, 0
	for _, r := range l {
		switch {
		case unicode.IsLetter(r) || r == ' ' || r == '\'':
			letters++
		case strings.ContainsRune("=(){}[];<>$|&", r):
			others += 3
		default:
			others++
		}
	}
	return letters >= 9*others
}

// codeKeys are the JSON object keys whose string values are code.
var codeKeys = map[string]bool{
	"code": true, "source": true, "source_code": true, "sourcecode": true, "snippet": true, "script": true,
	"program": true, "implementation": true, "solution": true, "function": true, "patch_code": true,
}

// contentKeys hold a file's text in an object that names the file:
// {"path": "app.py", "content": "…"}.
var contentKeys = map[string]bool{"content": true, "contents": true, "text": true, "body": true, "data": true}

// fileLanguage returns the language of the file an object names under
// "path", "file", "filename" or "name", by its extension.
func fileLanguage(obj map[string]any) (code.Language, bool) {
	for _, k := range []string{"path", "file", "filename", "file_name", "name"} {
		if name, ok := obj[k].(string); ok {
			if lang, ok := code.ByExtension(name); ok {
				return lang, true
			}
		}
	}
	return "", false
}

// codeFields finds code in the string fields of a decoded JSON value.
// Without detect, a field whose language is not named counts as code
// without looking: enough to tell whether there is anything to review.
func codeFields(ctx context.Context, v any, detect bool, notes *[]note) []piece {
	var out []piece
	var walk func(v any, path string, depth int)
	walk = func(v any, path string, depth int) {
		if depth > 64 || len(out) >= maxBlocks+1 {
			return
		}
		switch v := v.(type) {
		case map[string]any:
			keys := make([]string, 0, len(v))
			for k := range v {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			for _, k := range keys {
				p := k
				if path != "" {
					p = path + "." + k
				}
				s, ok := v[k].(string)
				byName, named := fileLanguage(v)
				isCode := codeKeys[strings.ToLower(k)] || named && contentKeys[strings.ToLower(k)]
				if !ok || !isCode || strings.TrimSpace(s) == "" {
					walk(v[k], p, depth+1)
					continue
				}
				pc := piece{text: s, prefix: p + ":"}
				if named {
					pc.lang, pc.label = byName, string(byName)
				}
				for _, lk := range []string{"language", "lang"} {
					if name, ok := v[lk].(string); ok {
						if lang, ok := code.LookupLanguage(name); ok {
							pc.lang, pc.label = lang, name
						}
					}
				}
				if pc.lang == "" && !detect {
					pc.label = "unknown"
				}
				if pc.lang == "" && detect {
					lang, ok := code.Detect(ctx, s)
					if !ok {
						*notes = append(*notes, note{
							location:   p,
							message:    fmt.Sprintf("The code in field %s was not reviewed: its language could not be told, and no \"language\" field names it", p),
							suggestion: "Add a \"language\" field beside the code (python, javascript, typescript, go or bash)",
						})
						continue
					}
					pc.lang, pc.label = lang, string(lang)
				}
				out = append(out, pc)
			}
		case []any:
			for i, e := range v {
				walk(e, fmt.Sprintf("%s[%d]", path, i), depth+1)
			}
		}
	}
	walk(v, "", 0)
	return out
}

// reporter reports the findings of one piece, capping each rule.
type reporter struct {
	p      *layer.Pass
	pc     piece
	counts map[string]int
}

func newReporter(p *layer.Pass, pc piece) *reporter {
	return &reporter{p: p, pc: pc, counts: map[string]int{}}
}

// report records a finding at function fn (or "") and line (of the piece,
// or 0).
func (r *reporter) report(sev result.Severity, typ result.Type, rule, fn string, line int, msg, suggestion string) {
	r.counts[rule]++
	if r.counts[rule] > maxIssuesPerRule {
		return
	}
	r.p.Report(result.Issue{Severity: sev, Type: typ, Rule: rule, Location: r.pc.loc(fn, line), Message: msg, Suggestion: suggestion})
}

// flush reports, for each capped rule, how many findings were left out.
func (r *reporter) flush() {
	for _, rule := range slices.Sorted(maps.Keys(r.counts)) {
		if n := r.counts[rule] - maxIssuesPerRule; n > 0 {
			r.p.Report(result.Issue{Severity: result.Info, Type: result.NotChecked, Rule: "quality.truncated", Location: r.pc.loc("", 0),
				Message:    fmt.Sprintf("%d more findings of rule %s in this piece were left out", n, rule),
				Suggestion: "Fix the findings listed, then validate again to see the rest"})
		}
	}
}
