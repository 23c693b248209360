package toolcall

import (
	"regexp"
	"strings"
)

// Failures written as text. A tool that fails often says so in words
// rather than in a flag: "Error: payment method not found", a Python
// traceback, git's "fatal: not a git repository", an HTTP status line, or
// just "Permission denied". textFailure recognises these where they are
// the answer — at the start of the text, or as the whole of a short
// one-line answer — and never where a failure word is only mentioned among
// real data ("3 results; one with error: none").

// maxFailureSentence is the longest text read as a whole-answer failure
// ("User not found"): a longer text carries data, not just a verdict.
const maxFailureSentence = 160

// failureLead matches a text that opens with an error marker: Error:,
// ERROR, Exception, a Python or Java exception class, fatal:, a traceback,
// an HTTP status line.
var failureLead = []struct {
	rule string
	re   *regexp.Regexp
}{
	{"error_text", regexp.MustCompile(`^(?:\[?(?:ERROR|Error|error)\]?(?::|\s*-|\s+\d{3}\b|$)|ERROR\b)`)},
	{"exception_text", regexp.MustCompile(`^(?:(?:[A-Za-z_][\w.]*\.)?[A-Z]\w*(?:Error|Exception)(?::|$)|Exception\b|Uncaught\s+\w*(?:Error|Exception))`)},
	{"traceback_text", regexp.MustCompile(`^Traceback \(most recent call last\):`)},
	{"fatal_text", regexp.MustCompile(`^(?:fatal|FATAL|panic|error\[E\d+\]):\s`)},
	{"http_status_text", regexp.MustCompile(`^(?:HTTP/\d(?:\.\d)?\s+[45]\d\d\b|[45]\d\d\s+(?:Bad Request|Unauthorized|Payment Required|Forbidden|Not Found|Method Not Allowed|Not Acceptable|Request Timeout|Conflict|Gone|Precondition Failed|Payload Too Large|Unprocessable (?:Entity|Content)|Too Many Requests|Internal Server Error|Not Implemented|Bad Gateway|Service Unavailable|Gateway Timeout)\b)`)},
}

// failureSentence matches a short one-line answer that is only a failure
// verdict: "User not found", "Permission denied", "flight HAT030 not
// available on date 2024-05-13", "Access denied.".
var failureSentence = regexp.MustCompile(`(?i)^[\w .:'"/#@-]{0,80}?\b(not found|not available|unavailable|permission denied|access denied|does not exist|doesn't exist|unauthori[sz]ed|forbidden)\b[\w .:'"/#@-]{0,80}$`)

// textFailure reports whether a text result is a failure, with the text
// that says so and the rule that matched; "" when it is not.
func textFailure(text string) (matched, rule string) {
	s := strings.TrimSpace(text)
	if s == "" {
		return "", ""
	}
	first, _, _ := strings.Cut(s, "\n")
	first = strings.TrimSpace(first)
	for _, l := range failureLead {
		if loc := l.re.FindStringIndex(first); loc != nil {
			if l.rule == "traceback_text" {
				return lastLine(s), l.rule
			}
			return first, l.rule
		}
	}
	if len(s) <= maxFailureSentence && !strings.Contains(s, "\n") && !strings.Contains(s, ". ") && !strings.ContainsAny(s, ";?") {
		if failureSentence.MatchString(strings.TrimRight(s, ".!")) && !noResults.MatchString(s) {
			return s, "failure_text"
		}
	}
	return "", ""
}

// lastLine is the last non-blank line of a text: the exception of a
// traceback.
func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}

// errorEnvelope reports whether an object is an API's error envelope
// rather than data: FastAPI's {"detail": …} alone (or with status and
// title, as RFC 9457 problem details), {"message": …, "code": 4xx|5xx},
// GitHub's {"message": …, "documentation_url": …}. It returns the error
// text and the key it sits at.
func errorEnvelope(m map[string]any) (text, at string) {
	only := func(allowed ...string) bool {
		for k := range m {
			ok := false
			for _, a := range allowed {
				if k == a {
					ok = true
					break
				}
			}
			if !ok {
				return false
			}
		}
		return true
	}
	if d, ok := m["detail"]; ok && !isEmpty(d) && only("detail", "status", "title", "type", "instance", "code") {
		return errorText(d), "detail"
	}
	msg, ok := m["message"].(string)
	if !ok || strings.TrimSpace(msg) == "" {
		return "", ""
	}
	for _, k := range []string{"code", "status", "statusCode", "status_code"} {
		if n, ok := codeOf(m[k]); ok && n >= 400 && n < 600 && only("message", "code", "status", "statusCode", "status_code", "error", "errors", "details", "documentation_url", "request_id", "requestId", "type", "name") {
			return msg, "message"
		}
	}
	if _, ok := m["documentation_url"].(string); ok && only("message", "documentation_url", "errors", "status") {
		return msg, "message"
	}
	return "", ""
}

// codeOf reads a status code written as a number or as digits.
func codeOf(v any) (int64, bool) {
	if n, ok := intOf(v); ok {
		return n, true
	}
	s, ok := v.(string)
	if !ok || len(s) != 3 {
		return 0, false
	}
	var n int64
	for _, r := range s {
		if r < '0' || r > '9' {
			return 0, false
		}
		n = n*10 + int64(r-'0')
	}
	return n, true
}
