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

	"github.com/agentjudge/judge/internal/claim"
	"github.com/agentjudge/judge/internal/code"
	"github.com/agentjudge/judge/internal/location"
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
	AppliesOn:        layer.NamedOnly,
}

func applies(in *layer.Input) bool {
	if strings.TrimSpace(in.Text) != "" {
		return true
	}
	if s, ok := in.Output.(string); ok {
		return strings.TrimSpace(s) != ""
	}
	// Every string of a JSON output is reviewed: as code, as prose or for
	// placeholders.
	return slices.ContainsFunc(claim.Texts(in.Output), func(t claim.Text) bool { return strings.TrimSpace(t.Text) != "" })
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
	// the output text (or of the field's string).
	lineOffset int
	// prefix starts every location: "" or a JSON path and ":".
	prefix string
	// indent is, for code taken out of an indented block or fence, how
	// many characters each of its lines moved left when its indentation
	// was removed, which syntax error columns add back.
	indent []int
	// end is set on prose that ends its text: only there can the text be
	// cut off mid-sentence.
	end bool
	// oneLine is set on prose from a JSON string of one line: its
	// locations are the field's path alone.
	oneLine bool
	// short is set on a JSON string too short to read as prose: only
	// placeholders are looked for.
	short bool
}

// field returns " in field PATH" for a piece of a JSON string, else "",
// for messages.
func (pc piece) field() string {
	if pc.prefix == "" {
		return ""
	}
	return " in field " + strings.TrimSuffix(pc.prefix, ":")
}

func run(ctx context.Context, p *layer.Pass) error {
	cfg, err := newConfig(p.Input.Options.Quality)
	if err != nil {
		return err
	}
	found := find(ctx, p.Input)
	for _, u := range found.notes {
		undecided(p, u.location, u.message, u.suggestion)
	}
	for _, u := range found.open {
		p.Report(result.Issue{Severity: result.Warning, Type: result.ReadabilityIssue, Rule: "prose.unclosed_fence", Location: u.location, Message: u.message, Suggestion: u.suggestion,
			Dimension: dimensionOf("prose.unclosed_fence")})
	}
	blocks := 0
	for _, pc := range found.pieces {
		if err := ctx.Err(); err != nil {
			return err
		}
		if pc.lang == "" {
			checkProse(p, pc)
			p.Decided(1)
			continue
		}
		// Past maxBlocks pieces of code, the rest of the code is noted
		// once and skipped; the prose after it is still reviewed.
		blocks++
		if blocks > maxBlocks {
			if blocks == maxBlocks+1 {
				undecided(p, pc.loc("", 1), fmt.Sprintf("The output holds more than %d pieces of code; this one and the rest were not reviewed", maxBlocks),
					"Split the output, or validate the pieces of code one by one")
			}
			continue
		}
		if err := checkCode(ctx, p, pc, cfg); err != nil {
			if errors.Is(err, code.ErrCanceled) {
				return err
			}
			if errors.Is(err, code.ErrNoCgo) {
				undecided(p, pc.loc("", 1), fmt.Sprintf("The %s code was not reviewed: %v", pc.label, err),
					"Build judge with a C compiler installed (CGO_ENABLED=1) so that it can parse code")
				continue
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
// 1-based; 0 for none) or both. A one-line JSON string's lines are the
// field itself.
func (pc piece) loc(fn string, line int) string {
	var parts []string
	if fn != "" {
		parts = append(parts, "function:"+fn)
	}
	if line > 0 && !pc.oneLine {
		parts = append(parts, "line:"+strconv.Itoa(line+pc.lineOffset))
	}
	if len(parts) == 0 {
		return strings.TrimSuffix(pc.prefix, ":")
	}
	return pc.prefix + strings.Join(parts, ":")
}

// note is a finding made while finding the pieces, with where it is.
type note struct{ location, message, suggestion string }

// found is what find found in an output.
type found struct {
	pieces []piece
	// notes are pieces that could not be reviewed (not_checked).
	notes []note
	// open are code fences never closed.
	open []note
}

func (f *found) add(g found) {
	f.pieces = append(f.pieces, g.pieces...)
	f.notes = append(f.notes, g.notes...)
	f.open = append(f.open, g.open...)
}

// fence matches the opening or closing line of a Markdown code fence.
var fence = regexp.MustCompile("^ {0,3}(`{3,}|~{3,})\\s*([^`\\s]*)")

// hasFence reports a text with a line that opens or closes a code fence.
func hasFence(s string) bool {
	return slices.ContainsFunc(strings.SplitAfter(s, "\n"), fence.MatchString)
}

// proseLabels are fence info strings that hold no code to review.
var proseLabels = map[string]bool{
	"": true, "text": true, "txt": true, "plain": true, "plaintext": true, "markdown": true, "md": true,
	"output": true, "console": true, "log": true, "json": true, "jsonc": true, "yaml": true, "yml": true,
	"toml": true, "ini": true, "csv": true, "xml": true, "html": true, "diff": true, "mermaid": true,
}

// find splits the output into pieces of code and prose.
func find(ctx context.Context, in *layer.Input) found {
	text := in.Text
	if text == "" {
		if s, ok := in.Output.(string); ok {
			text = s
		}
	}
	if text == "" {
		return jsonPieces(ctx, in.Output)
	}
	return splitText(ctx, text, "")
}

// splitText finds the fenced and indented code blocks of a text; the
// rest is prose, unless the whole text is code. prefix starts every
// location: "" for an output text, a JSON path and ":" for a string field.
func splitText(ctx context.Context, text, prefix string) found {
	lines := strings.SplitAfter(text, "\n")
	var out found
	indented := 0
	var prose strings.Builder
	proseStart := 0
	flushProse := func(next int) {
		if strings.TrimSpace(prose.String()) != "" {
			out.pieces = append(out.pieces, piece{text: prose.String(), lineOffset: proseStart, prefix: prefix, end: next == len(lines)})
		}
		prose.Reset()
		proseStart = next
	}
	// md tracks the Markdown blocks that decide where an indented code
	// block may start.
	var md markdown
	fences := 0
	for i := 0; i < len(lines); i++ {
		// A fence may be indented as far as the content of the list item
		// that holds it, and three columns more.
		fl, base := md.container(lines[i])
		m := fence.FindStringSubmatch(fl)
		if m == nil {
			if end, pc, ok := md.indentedCode(lines, i); ok {
				indented++
				flushProse(i)
				// A block is code as an unlabelled fenced block is: in
				// the language detected, else neither code nor prose. A
				// fence shown indented is Markdown source, not code.
				if lang, ok := code.Detect(ctx, pc.text); ok && !hasFence(pc.text) {
					pc.lang, pc.label, pc.prefix = lang, string(lang), prefix
					out.pieces = append(out.pieces, pc)
				}
				i = end - 1
				proseStart = end
				continue
			}
			prose.WriteString(lines[i])
			continue
		}
		fences++
		flushProse(i)
		marker, info := m[1], strings.ToLower(m[2])
		// The body loses as much indentation as the fence has, as
		// CommonMark reads it: code in a list item parses as code.
		cols := indentation(lines[i])
		md.fence(cols)
		var body strings.Builder
		var indent []int
		j := i + 1
		closed := false
		for ; j < len(lines); j++ {
			cl, _ := dedent(lines[j], base)
			if c := fence.FindStringSubmatch(cl); c != nil && c[2] == "" && strings.HasPrefix(c[1], marker[:1]) && len(c[1]) >= len(marker) {
				closed = true
				break
			}
			rest, n := dedent(lines[j], cols)
			body.WriteString(rest)
			indent = append(indent, n)
		}
		pc := piece{label: info, text: body.String(), lineOffset: i + 1, prefix: prefix, indent: indent}
		if !closed {
			out.open = append(out.open, note{
				location:   prefix + "line:" + strconv.Itoa(i+1),
				message:    fmt.Sprintf("The code fence opened on line %d%s is never closed: the output looks cut off", i+1, pc.field()),
				suggestion: "Close the code block with a matching fence line, and check that the output is complete",
			})
		}
		switch lang, ok := code.LookupLanguage(info); {
		case ok:
			pc.lang = lang
			out.pieces = append(out.pieces, pc)
		case info == "" || info == "sh-session":
			if lang, ok := code.Detect(ctx, pc.text); ok && strings.TrimSpace(pc.text) != "" {
				pc.lang, pc.label = lang, string(lang)
				out.pieces = append(out.pieces, pc)
			}
		case proseLabels[info]:
		default:
			out.notes = append(out.notes, note{
				location:   prefix + "line:" + strconv.Itoa(i+1),
				message:    fmt.Sprintf("The code block in %q%s was not reviewed: the quality layer parses Python, JavaScript, TypeScript, Go and Bash", info, pc.field()),
				suggestion: "Review the code by hand or with a linter for its language",
			})
		}
		i = j
		proseStart = j + 1
	}
	flushProse(len(lines))
	if fences == 0 {
		if lang, ok := code.Detect(ctx, text); ok && wholeIsCode(ctx, lang, text, out.pieces, indented > 0) {
			return found{pieces: []piece{{lang: lang, label: string(lang), text: text, prefix: prefix}}}
		}
	}
	return out
}

// wholeIsCode tells a text without fences that is code in lang from prose,
// which pieces split it into. Without indented blocks, the text must look
// like code (looksLikeCode). With them, code's own indented lines are no
// Markdown: the text must parse, or its lines outside the blocks must be
// code in lang too ("Example:" above indented code is prose).
func wholeIsCode(ctx context.Context, lang code.Language, text string, pieces []piece, indented bool) bool {
	if !indented {
		return looksLikeCode(ctx, lang, text)
	}
	if f, err := code.Parse(ctx, lang, []byte(text)); err == nil && f.Syntax == nil {
		return true
	}
	var rest strings.Builder
	for _, pc := range pieces {
		if pc.lang == "" {
			rest.WriteString(pc.text)
		}
	}
	l, ok := code.Detect(ctx, rest.String())
	return ok && l == lang && looksLikeCode(ctx, lang, rest.String())
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

// maxDepth bounds how deep codeFields descends into a JSON value, as deep
// as claim.Texts reads its strings.
const maxDepth = 512

// codeFields finds code in the string fields of a decoded JSON value, and
// records in paths the path of every string field that holds code, those
// over the limit of maxBlocks+1 pieces included.
func codeFields(ctx context.Context, v any, notes *[]note, paths map[string]bool) []piece {
	var out []piece
	var walk func(v any, tokens []string, arrays []bool)
	walk = func(v any, tokens []string, arrays []bool) {
		if len(tokens) > maxDepth {
			return
		}
		switch v := v.(type) {
		case map[string]any:
			byName, named := fileLanguage(v)
			for _, k := range slices.Sorted(maps.Keys(v)) {
				s, ok := v[k].(string)
				isCode := codeKeys[strings.ToLower(k)] || named && contentKeys[strings.ToLower(k)]
				if !ok || !isCode || strings.TrimSpace(s) == "" {
					walk(v[k], append(tokens, k), append(arrays, false))
					continue
				}
				arr := append(arrays, false)
				p := location.Path(append(tokens, k), func(i int) bool { return arr[i] })
				paths[p] = true
				if len(out) >= maxBlocks+1 {
					continue // run reports the pieces over maxBlocks
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
				if pc.lang == "" {
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
				walk(e, append(tokens, strconv.Itoa(i)), append(arrays, true))
			}
		}
	}
	walk(v, nil, nil)
	return out
}

// Which JSON strings read as prose: at least minProseWords words in two
// sentences or more, or proseFieldWords in one. Shorter strings are names,
// labels, identifiers, enums, URLs or titles.
const (
	minProseWords   = 6
	proseFieldWords = 10
)

// jsonPieces finds the code and the prose of a decoded JSON value: code in
// code fields (codeFields), prose in every other string field long enough
// to read as prose, which is reviewed as an output text would be (with its
// own fenced and indented code blocks); a shorter string is looked at for
// placeholders only.
func jsonPieces(ctx context.Context, v any) found {
	var out found
	codePaths := map[string]bool{}
	out.pieces = codeFields(ctx, v, &out.notes, codePaths)
	for _, t := range claim.Texts(v) {
		if codePaths[t.Path] || t.Path == "" || strings.TrimSpace(t.Text) == "" {
			continue
		}
		prefix := t.Path + ":"
		oneLine := !strings.Contains(strings.TrimSpace(t.Text), "\n")
		if !readsAsProse(t.Text) {
			out.pieces = append(out.pieces, piece{text: t.Text, prefix: prefix, oneLine: oneLine, short: true})
			continue
		}
		g := splitText(ctx, t.Text, prefix)
		for i := range g.pieces {
			g.pieces[i].oneLine = oneLine && g.pieces[i].lang == ""
		}
		out.add(g)
	}
	return out
}

// readsAsProse reports a string that holds a code fence or reads as
// prose: enough words (runs of characters between spaces with a letter,
// not a URL) in enough sentences.
func readsAsProse(s string) bool {
	if hasFence(s) {
		return true
	}
	n := 0
	for _, w := range strings.Fields(s) {
		if strings.ContainsFunc(w, unicode.IsLetter) && !strings.Contains(w, "://") {
			n++
		}
	}
	return n >= proseFieldWords || n >= minProseWords && len(splitSentences(s)) >= 2
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
	r.p.Report(result.Issue{Severity: sev, Type: typ, Rule: rule, Location: r.pc.loc(fn, line), Message: msg, Suggestion: suggestion,
		Dimension: dimensionOf(rule)})
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

// completenessRules are rules of types that name another dimension but
// say the output is unfinished.
var completenessRules = []string{"prose.placeholder", "prose.unfinished", "prose.unclosed_fence", "prose.unclosed_bracket"}

// dimensionOf is the quality dimension an issue of rule counts against
// when its type would say another (see result.DimensionOf), or "":
// unfinished output and placeholders count against completeness, a long
// function against maintainability, a style rule against style.
func dimensionOf(rule string) string {
	switch {
	case slices.Contains(completenessRules, rule):
		return result.Completeness
	case rule == "readability.function_length":
		return result.Maintainability
	case strings.HasPrefix(rule, "style."):
		return result.Style
	}
	return ""
}
