// Package toolscan finds tool poisoning in MCP tool definitions: text in a
// tool's name, description or schemas that is aimed at the model rather
// than at the user, as docs/gateway.md describes. The scan is
// deterministic and local: no definition leaves the machine.
//
// It reports, each as a security_issue with a rule id and the location of
// the text in the definition ("tools[3].description",
// "tools[3].inputSchema.properties.path.description"):
//
//   - toolscan.hidden_block: an <IMPORTANT>, <SYSTEM>-style block or an
//     HTML comment, the classic carrier of hidden instructions;
//   - toolscan.override: "ignore previous instructions" and the like;
//   - toolscan.concealment: "do not tell the user", "silently";
//   - toolscan.sensitive_path: a credential file (~/.ssh, id_rsa,
//     mcp.json, .aws/credentials) named in a definition;
//   - toolscan.pre_invocation: "before using this tool, read …";
//   - toolscan.exfiltration: send or pass contents to a URL, an address
//     or a phone number, or contents smuggled into a parameter;
//   - toolscan.shadowing: a description that instructs about another tool
//     ("when send_email is called, …");
//   - toolscan.invisible and toolscan.bidi: invisible or bidirectional
//     control characters;
//   - toolscan.padding: long runs of whitespace that push text off screen.
//
// A Scanner holds no state; Scan is safe for concurrent use.
package toolscan

import (
	"cmp"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/agentjudge/judge/internal/jsonvalue"
	"github.com/agentjudge/judge/internal/location"
	"github.com/agentjudge/judge/result"
)

// ValidationType is the name the scan adds to metadata.validation_types_run.
const ValidationType = "poisoning"

// Limits of the scan.
const (
	// MaxBytes is the largest definitions document Decode reads.
	MaxBytes = 16 << 20
	// MaxDepth is how deep a schema is walked; deeper parts are not scanned.
	MaxDepth = 64
	// maxFindings caps the findings of one string per rule.
	maxSnippet = 80
)

// Definition is one MCP tool definition as the scan sees it: the decoded
// JSON object of a tools/list entry.
type Definition struct {
	// Name is the tool's name.
	Name string
	// Fields is the whole decoded definition (name, title, description,
	// inputSchema, outputSchema, annotations, …).
	Fields map[string]any
}

// DecodeError is a definitions document that cannot be scanned.
type DecodeError struct {
	Msg string
	Err error
}

func (e *DecodeError) Error() string { return "toolscan: " + e.Msg }

// Unwrap returns the cause.
func (e *DecodeError) Unwrap() error { return e.Err }

// Decode reads MCP tool definitions from a JSON document: a tools/list
// result ({"tools": [...]}), a JSON-RPC response holding one, a list of
// definitions or one definition. Entries that are not objects are kept as
// empty definitions, so indexes match the document.
func Decode(data []byte) ([]Definition, error) {
	if len(data) > MaxBytes {
		return nil, &DecodeError{Msg: fmt.Sprintf("the document is larger than %d bytes", MaxBytes)}
	}
	v, err := jsonvalue.Decode(data, 0)
	if err != nil {
		return nil, &DecodeError{Msg: "not a JSON document: " + err.Error(), Err: err}
	}
	var list []any
	switch x := v.(type) {
	case []any:
		list = x
	case map[string]any:
		if r, ok := x["result"].(map[string]any); ok {
			x = r
		}
		if ts, ok := x["tools"].([]any); ok {
			list = ts
		} else if _, ok := x["name"]; ok {
			list = []any{x}
		}
	}
	if list == nil {
		return nil, &DecodeError{Msg: `no tool definitions: expected {"tools": [...]}, a list of definitions, or one definition`}
	}
	defs := make([]Definition, len(list))
	for i, e := range list {
		m, _ := e.(map[string]any)
		defs[i] = DefinitionOf(m)
	}
	return defs, nil
}

// DefinitionOf makes a Definition of a decoded tool definition; a nil map
// is an empty definition.
func DefinitionOf(m map[string]any) Definition {
	if m == nil {
		m = map[string]any{}
	}
	name, _ := m["name"].(string)
	return Definition{Name: name, Fields: m}
}

// DefinitionFromJSON makes a Definition from a tool's parts as JSON: the
// gateway's view of an upstream tool.
func DefinitionFromJSON(name, description string, inputSchema, outputSchema json.RawMessage) Definition {
	m := map[string]any{"name": name, "description": description}
	for k, raw := range map[string]json.RawMessage{"inputSchema": inputSchema, "outputSchema": outputSchema} {
		if len(raw) == 0 {
			continue
		}
		if v, err := jsonvalue.Decode(raw, 0); err == nil && v != nil {
			m[k] = v
		}
	}
	return Definition{Name: name, Fields: m}
}

// Scan scans every definition of a list and returns each one's issues,
// located from the list ("tools[3].description"). Other tools' names are
// known to the shadowing rule.
func Scan(defs []Definition) [][]result.Issue {
	names := make([]string, 0, len(defs))
	for _, d := range defs {
		if d.Name != "" {
			names = append(names, d.Name)
		}
	}
	out := make([][]result.Issue, len(defs))
	for i, d := range defs {
		out[i] = ScanTool(d, names, "tools["+strconv.Itoa(i)+"]")
	}
	return out
}

// ScanTool scans one definition. others names the tools beside it (its own
// name among them is ignored); where prefixes each location ("tools[3]",
// or "" for locations relative to the tool: "description").
func ScanTool(d Definition, others []string, where string) []result.Issue {
	s := &scan{tool: d.Name, where: where}
	for _, o := range others {
		if o != d.Name && len(o) >= 3 {
			s.others = append(s.others, o)
		}
	}
	keys := make([]string, 0, len(d.Fields))
	for k := range d.Fields {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		s.walk(d.Fields[k], location.Append(s.where, []string{k}, nil), 0)
	}
	return s.issues
}

type scan struct {
	tool   string
	where  string
	others []string
	issues []result.Issue
}

// walk visits every string of v (keys and values) at loc, a location
// rendered by internal/location.
func (s *scan) walk(v any, loc string, depth int) {
	if depth > MaxDepth {
		return
	}
	switch x := v.(type) {
	case string:
		s.text(x, loc)
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			p := location.Append(loc, []string{k}, nil)
			s.chars(k, p, true)
			s.walk(x[k], p, depth+1)
		}
	case []any:
		for i, e := range x {
			s.walk(e, location.Append(loc, []string{strconv.Itoa(i)}, func(int) bool { return true }), depth+1)
		}
	}
}

// report adds an issue at loc ("" for the root).
func (s *scan) report(rule string, sev result.Severity, loc string, suggestion, format string, args ...any) {
	subject := "Tool definition"
	if s.tool != "" {
		subject = "Tool '" + result.Clip(s.tool, 60) + "'"
	}
	s.issues = append(s.issues, result.Issue{
		Severity:   sev,
		Type:       result.SecurityIssue,
		Rule:       rule,
		Location:   cmp.Or(loc, "root"),
		Message:    subject + " " + fmt.Sprintf(format, args...),
		Suggestion: suggestion,
	})
}

const distrust = "; do not give this tool to a model until its server's author explains it"

// chars reports invisible and bidirectional characters in t.
func (s *scan) chars(t string, loc string, key bool) {
	what := "text"
	if key {
		what = "key"
	}
	var bidi, invisible []rune
	for _, r := range t {
		switch {
		case isBidi(r):
			bidi = append(bidi, r)
		case isInvisible(r):
			invisible = append(invisible, r)
		}
	}
	if len(bidi) > 0 {
		s.report("toolscan.bidi", result.Error, loc, "Remove the bidirectional control characters"+distrust,
			"has %d bidirectional control character(s) (%s) in its %s, which can make text read differently than it runs", len(bidi), codepoints(bidi), what)
	}
	if len(invisible) > 0 {
		s.report("toolscan.invisible", result.Error, loc, "Remove the invisible characters"+distrust,
			"has %d invisible character(s) (%s) in its %s, which can hide instructions from a reviewer", len(invisible), codepoints(invisible), what)
	}
}

func isBidi(r rune) bool {
	return r == 0x061C || r == 0x200E || r == 0x200F || (r >= 0x202A && r <= 0x202E) || (r >= 0x2066 && r <= 0x2069)
}

func isInvisible(r rune) bool {
	switch {
	case r >= 0xE0000 && r <= 0xE007F: // tag characters
		return true
	case r >= 0x200B && r <= 0x200D, r >= 0x2060 && r <= 0x2064, r == 0xFEFF, r == 0x00AD, r == 0x180E, r == 0x2028, r == 0x2029:
		return true
	case r >= 0xFE00 && r <= 0xFE0E, r >= 0xE0100 && r <= 0xE01EF: // variation selectors (FE0F, emoji style, is common)
		return true
	case r == utf8.RuneError:
		return false
	}
	return unicode.Is(unicode.Cf, r)
}

func codepoints(rs []rune) string {
	seen := map[rune]bool{}
	var out []string
	for _, r := range rs {
		if !seen[r] && len(out) < 4 {
			seen[r] = true
			out = append(out, fmt.Sprintf("U+%04X", r))
		}
	}
	if len(seen) < len(rs) || len(out) == 4 {
		return strings.Join(out, ", ") + ", …"
	}
	return strings.Join(out, ", ")
}

// textRule is a pattern over a definition's text.
type textRule struct {
	id, what, suggestion string
	sev                  result.Severity
	re                   *regexp.Regexp
}

// The patterns are compiled once; they are read-only afterwards.
var textRules = []textRule{
	{"toolscan.hidden_block", "hides instructions for the model in %s", "Remove the hidden block" + distrust, result.Error,
		regexp.MustCompile(`(?i)<\s*/?\s*(important|system|instructions?|critical|secret|hidden|admin|assistant|ai|llm|model|prompt|context)\s*>|<!--|\[(system|inst|important)\]`)},
	{"toolscan.override", "tries to override the model's instructions: %s", "Remove the text that addresses the model's instructions" + distrust, result.Error,
		regexp.MustCompile(`(?i)\b(ignore|disregard|forget|override)\s+(all\s+|any\s+)?(the\s+|your\s+)?(previous|prior|above|earlier|other|system)\s+(instructions|rules|directions|prompts?)\b|\byou\s+are\s+now\b|\bnew\s+instructions\s*:`)},
	{"toolscan.concealment", "tells the model to hide something from the user: %s", "Remove the instruction to keep the user uninformed" + distrust, result.Error,
		regexp.MustCompile(`(?i)\b(do\s+not|don'?t|never|must\s+not|should\s+not)\s+(tell|mention|inform|notify|reveal|disclose|show|alert|let)\b[^.\n]{0,60}\b(user|human|anyone)\b|\bwithout\s+(telling|informing|notifying|alerting|asking)\s+(the\s+)?user\b|\b(silently|secretly|covertly|quietly)\s+(post|send|read|call|include|forward|upload|copy|pass|add|change|replace)\b|\b(mere|just\s+an?)\s+implementation\s+detail\b|\b(hide|conceal)\s+(this|it)\s+from\s+the\s+user\b`)},
	{"toolscan.sensitive_path", "names a credential file, %s, which no tool's description needs", "Remove the reference to the credential file" + distrust, result.Error,
		regexp.MustCompile(`(?i)~/\.ssh\b|\.ssh/|\bid_(rsa|ed25519|ecdsa|dsa)\b|\.aws/credentials|\bmcp\.json\b|\.cursor/|claude_desktop_config\.json|/etc/(passwd|shadow)\b|\.netrc\b|\.git-credentials\b|\.kube/config\b|\.gnupg\b|\.docker/config\.json`)},
	{"toolscan.pre_invocation", "tells the model to fetch something before using it: %s", "Remove the instruction to read or send data before the call" + distrust, result.Error,
		regexp.MustCompile(`(?i)\bbefore\s+(using|calling|invoking|running|executing)\s+(this|the)\s+tool\b[^.\n]{0,40}\b(read|open|cat|access|load|upload|send|include|attach|pass)\b`)},
	{"toolscan.exfiltration", "tells the model to send data out: %s", "Remove the instruction to send data to an address or a parameter" + distrust, result.Error,
		regexp.MustCompile(`(?i)\b(send|post|forward|upload|transmit|copy|bcc|leak|exfiltrate|report)\b[^\n]{0,120}?\b(to|at)\s+(https?://\S+|[\w.+-]+@[\w-]+\.[\w.]+|\+\d[\d\s-]{6,})|\b(pass|include|put|append|add|insert)\s+(its|their|the|all|full)\s+(full\s+|entire\s+|whole\s+)?(contents?|text|data|messages|history)\b[^.\n]{0,40}\b(as|in|into|to)\s+['"` + "`" + `]?\w+['"` + "`" + `]?\s*(parameter|argument|field)?`)},
	{"toolscan.shadowing", "instructs the model about another tool: %s", "Describe only what this tool does; a tool must not change how other tools are used" + distrust, result.Error,
		regexp.MustCompile(`(?i)\b(also\s+present|previously\s+(declared|defined))\b[^.\n]{0,40}\btools?\b|\bside\s+effect\s+on\s+(the\s+)?(also\s+present\s+|other\s+|another\s+)?\S+\s+tool\b|\b(when|whenever|every\s+time|each\s+time|if)\s+(the\s+|any\s+|another\s+)?(\(?\w+\)?\s+)?` + "`?" + `[\w.\-]+` + "`?" + `(\s+tool)?\s+(is|gets|has\s+been)\s+(called|invoked|used|run|executed)\b[^.\n]{0,80}\b(must|always|make\s+sure|ensure|change|replace|redirect|instead|override|never)\b`)},
}

// selfWords are what a when-clause names when it speaks of the tool
// itself, which is no shadowing.
var selfWords = regexp.MustCompile(`(?i)\b(when|whenever|every\s+time|each\s+time|if)\s+(this|it|the)\s+(tool\s+)?(is|gets|has)`)

// text scans one string value at loc.
func (s *scan) text(t string, loc string) {
	s.chars(t, loc, false)
	if pad := longestBlank(t); pad >= 40 {
		s.report("toolscan.padding", result.Warning, loc, "Remove the run of blank characters, which can push text out of a reviewer's view",
			"has a run of %d blank characters in its text, which can hide what follows from a reviewer", pad)
	}
	for _, r := range textRules {
		at := r.re.FindStringIndex(t)
		if at == nil {
			continue
		}
		m := t[at[0]:at[1]]
		if r.id == "toolscan.shadowing" && selfWords.MatchString(m) {
			continue
		}
		s.report(r.id, r.sev, loc, r.suggestion, r.what, snippet(m))
	}
	// A named other tool with a directive in the same sentence.
	if len(s.others) > 0 {
		for _, sent := range sentences(t) {
			if !directive.MatchString(sent) {
				continue
			}
			for _, o := range s.others {
				if mentions(sent, o) && whenCalled.MatchString(sent) {
					s.report("toolscan.shadowing", result.Error, loc, "Describe only what this tool does; a tool must not change how other tools are used"+distrust,
						"instructs the model about tool '%s': %s", result.Clip(o, 60), snippet(sent))
					return
				}
			}
		}
	}
}

var (
	sentenceEnd = regexp.MustCompile(`[.!?](\s+|$)|\n+`)
	directive   = regexp.MustCompile(`(?i)\b(must|always|make\s+sure|ensure|change|replace|redirect|instead|override|never)\b`)
	whenCalled  = regexp.MustCompile(`(?i)\b(when|whenever|every\s+time|each\s+time|if|before|after)\b[^.\n]{0,60}\b(called|invoked|used|run|executed|calls?|invokes?|uses?)\b`)
)

// mentions reports whether sent names tool as a word.
func mentions(sent, tool string) bool {
	i := 0
	for {
		j := strings.Index(sent[i:], tool)
		if j < 0 {
			return false
		}
		a, b := i+j, i+j+len(tool)
		before, _ := utf8.DecodeLastRuneInString(sent[:a])
		after, _ := utf8.DecodeRuneInString(sent[b:])
		if !wordRune(before) && !wordRune(after) {
			return true
		}
		i = b
	}
}

func wordRune(r rune) bool {
	return r != utf8.RuneError && (unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_')
}

// sentences splits t at sentence ends and line breaks.
func sentences(t string) []string {
	return sentenceEnd.Split(t, -1)
}

// longestBlank is the longest run of blank characters in t.
func longestBlank(t string) int {
	best, cur := 0, 0
	for _, r := range t {
		if r == ' ' || r == '\t' || r == '\u00a0' || r == '\u3000' || (r >= 0x2000 && r <= 0x200A) {
			cur++
			best = max(best, cur)
		} else {
			cur = 0
		}
	}
	return best
}

// snippet quotes m for a message, shortened.
func snippet(m string) string {
	return strconv.Quote(result.ClipText(m, maxSnippet))
}
