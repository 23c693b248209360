package quality

import (
	"fmt"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/agentjudge/judge/layer"
	"github.com/agentjudge/judge/result"
)

// Thresholds of the prose checks.
const (
	// maxSentenceWords is the longest sentence, in words, not reported.
	maxSentenceWords = 40
	// maxMeanSentenceWords and maxMeanWordLetters bound the averages over
	// a text of at least minProseSentences sentences.
	maxMeanSentenceWords = 25.0
	maxMeanWordLetters   = 6.5
	minProseSentences    = 3
	// minRepeatWords is the shortest sentence whose repetition is reported.
	minRepeatWords = 5
)

// sentenceEnd splits prose into sentences: after . ! ? followed by space,
// or at blank lines and list items.
var sentenceEnd = regexp.MustCompile(`([.!?])["')\]]*\s+|\n\s*\n|\n\s*(?:[-*+]|\d+[.)])\s+`)

// placeholders are the marks of text left unfinished. In a short JSON
// string (a name, a label, an enum) short applies instead of re: a marker
// alone there is as likely a value ("status": "TODO") or a mask
// ("XXX-XX-1234") as text left to write, so it must lead a note; and a
// template variable alone ("host": "{{ inventory_host }}") is as likely
// meant for a template engine.
var placeholders = []struct {
	re, short *regexp.Regexp
	sev       result.Severity
	label     string
	// quote is the submatch a message quotes: 0 for the whole match.
	quote int
}{
	{regexp.MustCompile(`(?i)\blorem ipsum\b`), nil, result.Error, "lorem ipsum filler text", 0},
	{
		regexp.MustCompile(`(?i)\[(insert|add|your|put|enter|todo|placeholder)\b[^\]]{0,80}\]|<(insert|your|placeholder)\b[^>]{0,80}>|\{\{\s*\w+\s*\}\}`),
		regexp.MustCompile(`(?i)\[(insert|add|your|put|enter|todo|placeholder)\b[^\]]{0,80}\]|<(insert|your|placeholder)\b[^>]{0,80}>`),
		result.Error, "a placeholder to fill in", 0,
	},
	{regexp.MustCompile(`\b(TODO|FIXME|TBD|XXX)\b`), regexp.MustCompile(`\b(TODO|FIXME|TBD|XXX)(:\s*|\s+)\pL`), result.Warning, "a TODO marker", 1},
}

// sentence is a sentence of prose with its 1-based line in the piece.
type sentence struct {
	text string
	line int
}

// splitSentences splits text into sentences, counting lines as it goes
// (not from the start of text for each sentence, which is quadratic).
func splitSentences(text string) []sentence {
	var out []sentence
	start := 0
	// line is the line of text[at].
	line, at := 1, 0
	add := func(end int) {
		s := strings.TrimSpace(text[start:end])
		if s != "" {
			lead := len(text[start:end]) - len(strings.TrimLeft(text[start:end], " \t\r\n"))
			line += strings.Count(text[at:start+lead], "\n")
			at = start + lead
			out = append(out, sentence{text: s, line: line})
		}
	}
	for _, m := range sentenceEnd.FindAllStringSubmatchIndex(text, -1) {
		end := m[1]
		if m[2] >= 0 {
			end = m[3] // keep the punctuation
		}
		add(end)
		start = m[1]
	}
	add(len(text))
	return out
}

func words(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\'' && r != '-' })
}

// checkProse reviews a piece of prose, or a short JSON string for
// placeholders only.
func checkProse(p *layer.Pass, pc piece) {
	r := newReporter(p, pc)
	defer r.flush()
	if pc.short {
		placeholderText(r, pc.text)
		return
	}
	sentences := splitSentences(pc.text)

	var totalWords, totalLetters, counted int
	firstSeen := map[string]int{}
	for _, s := range sentences {
		ws := words(s.text)
		if isStructural(s.text) {
			continue
		}
		counted++
		totalWords += len(ws)
		for _, w := range ws {
			totalLetters += utf8.RuneCountInString(w)
		}
		if len(ws) > maxSentenceWords {
			r.report(result.Warning, result.ReadabilityIssue, "prose.long_sentence", "", s.line,
				fmt.Sprintf("A sentence of %d words%s is hard to follow (recommended max: %d)", len(ws), pc.field(), maxSentenceWords),
				"Split the sentence into shorter ones, one idea each")
		}
		if len(ws) >= minRepeatWords {
			key := strings.ToLower(strings.Join(ws, " "))
			if line, ok := firstSeen[key]; ok {
				where := fmt.Sprintf("the one on line %d%s", line+pc.lineOffset, pc.field())
				if pc.oneLine {
					where = "an earlier one" + pc.field()
				}
				r.report(result.Warning, result.ReadabilityIssue, "prose.repeated_sentence", "", s.line,
					fmt.Sprintf("The sentence %q repeats %s", result.Clip(s.text, 80), where),
					"Remove the repeated sentence, or say what is new in it")
			} else {
				firstSeen[key] = s.line
			}
		}
	}
	if counted >= minProseSentences && totalWords > 0 {
		if mean := float64(totalWords) / float64(counted); mean > maxMeanSentenceWords {
			r.report(result.Info, result.ReadabilityIssue, "prose.sentence_length", "", 0,
				fmt.Sprintf("Sentences%s average %.1f words (recommended at most %.0f)", pc.field(), mean, maxMeanSentenceWords),
				"Shorten sentences: split long ones and cut filler words")
		}
		if mean := float64(totalLetters) / float64(totalWords); mean > maxMeanWordLetters {
			r.report(result.Info, result.ReadabilityIssue, "prose.word_length", "", 0,
				fmt.Sprintf("Words%s average %.1f letters (recommended at most %.1f): the text reads as dense", pc.field(), mean, maxMeanWordLetters),
				"Prefer short, common words to long or technical ones where they say the same")
		}
	}
	placeholderText(r, pc.text)
	// A JSON string of one sentence without a full stop is a title or a
	// label as often as it is cut off; of two or more, it is cut off. A
	// piece past the start of its string (after a code block) is not the
	// string's only sentence.
	if pc.end && (pc.prefix == "" || counted >= 2 || pc.lineOffset > 0) {
		cutOff(r, pc.text)
	}
	unclosed(r, pc.text)
}

// placeholderText reports the first placeholder of each line of text.
func placeholderText(r *reporter, text string) {
	for i, line := range strings.Split(text, "\n") {
		for _, ph := range placeholders {
			re := ph.re
			if r.pc.short && ph.short != nil {
				re = ph.short
			}
			if m := re.FindStringSubmatch(line); m != nil {
				mark := m[ph.quote]
				what := "The output holds"
				if r.pc.prefix != "" {
					what = "Field " + strings.TrimSuffix(r.pc.prefix, ":") + " holds"
				}
				r.report(ph.sev, result.ReadabilityIssue, "prose.placeholder", "", i+1,
					fmt.Sprintf("%s %s (%q): it is not finished", what, ph.label, mark),
					"Replace the placeholder with the real content before using the output")
				break
			}
		}
	}
}

// isStructural reports lines that are not sentences: headings, table rows.
func isStructural(s string) bool {
	return strings.HasPrefix(s, "#") || strings.HasPrefix(s, "|") || strings.HasPrefix(s, ">")
}

// cutOff reports a text that ends mid-sentence.
func cutOff(r *reporter, text string) {
	trimmed := strings.TrimRight(text, " \t\r\n")
	if trimmed == "" {
		return
	}
	if e := strings.TrimRight(trimmed, "("); len(e) < len(trimmed) && (strings.HasSuffix(e, ":") || strings.HasSuffix(e, ";")) {
		return // an emoticon ends the sentence: ":(", ";(("
	}
	lastLine := trimmed[strings.LastIndexByte(trimmed, '\n')+1:]
	line := strings.Count(trimmed, "\n") + 1
	last, _ := utf8.DecodeLastRuneInString(trimmed)
	ws := words(lastLine)
	structural := isStructural(strings.TrimSpace(lastLine)) || listItem.MatchString(lastLine)
	if !structural && len(ws) >= 4 && !strings.ContainsRune(".!?:;)\"'`*_]}>…", last) && !unicode.IsDigit(last) && !unicode.IsSymbol(last) {
		r.report(result.Warning, result.ReadabilityIssue, "prose.unfinished", "", line,
			fmt.Sprintf("The %s ends mid-sentence (%q): it looks cut off", r.what(), result.Clip(strings.TrimSpace(lastLine), 60)),
			"Check that the whole output was produced (a token limit is the usual cause) and complete the last sentence")
	}
}

// what names the text of the piece in messages: the output or a field.
func (r *reporter) what() string {
	if r.pc.prefix == "" {
		return "output"
	}
	return "field " + strings.TrimSuffix(r.pc.prefix, ":")
}

// unclosed reports the first bracket of a text left open.
func unclosed(r *reporter, text string) {
	var stack []struct {
		r    rune
		line int
	}
	ln := 1
	pairs := map[rune]rune{')': '(', ']': '[', '}': '{'}
	// smiley is set in an emoticon, ":(" or ";(((", whose brackets open
	// nothing.
	var prev rune
	smiley := false
	for _, c := range text {
		smiley = c == '(' && (prev == ':' || prev == ';' || smiley && prev == '(')
		prev = c
		switch {
		case c == '\n':
			ln++
		case smiley:
		case c == '(' || c == '[' || c == '{':
			stack = append(stack, struct {
				r    rune
				line int
			}{c, ln})
		case c == ')' || c == ']' || c == '}':
			if len(stack) > 0 && stack[len(stack)-1].r == pairs[c] {
				stack = stack[:len(stack)-1]
			}
		}
	}
	if len(stack) > 0 {
		open := stack[0]
		where := fmt.Sprintf("opened on line %d%s", open.line+r.pc.lineOffset, r.pc.field())
		whole := "output"
		if r.pc.oneLine {
			where = "opened" + r.pc.field()
		}
		if r.pc.prefix != "" {
			whole = "text"
		}
		r.report(result.Warning, result.ReadabilityIssue, "prose.unclosed_bracket", "", open.line,
			fmt.Sprintf("The '%c' %s is never closed: the %s may be cut off", open.r, where, whole),
			"Close the bracket, and check that the output is complete")
	}
}

// listItem matches a Markdown list item.
var listItem = regexp.MustCompile(`^\s*([-*+]|\d+[.)])\s`)
