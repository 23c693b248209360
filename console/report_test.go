package console

import (
	"bytes"
	"errors"
	"fmt"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/agentjudge/judge/trace"
)

// TestTraceGolden renders the example conversation of examples/traces
// (a cancellation refused, then transferred) as it is locked in
// testdata/trace.golden.html; -update rewrites it.
func TestTraceGolden(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(filepath.Join("..", "examples", "traces", "airline-cancel.json"))
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "trace.golden.html", renderTrace(t, checkTraces(t, "airline-cancel.json", data)))
}

// TestLintGolden renders the lint of testdata/lint as locked in
// testdata/lint.golden.html; -update rewrites it.
func TestLintGolden(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	if err := WriteLint(&buf, Lint{Title: "testdata/lint", Report: lintReport(t)}); err != nil {
		t.Fatal(err)
	}
	golden(t, "lint.golden.html", buf.Bytes())
}

// TestLintIssuesInPlace: each issue of the lint is written under its
// tool, at its file and line.
func TestLintIssuesInPlace(t *testing.T) {
	t.Parallel()
	rep := lintReport(t)
	var buf bytes.Buffer
	if err := WriteLint(&buf, Lint{Report: rep}); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	n := 0
	for _, key := range rep.Keys() {
		start := strings.Index(page, " "+key+"</h3>")
		if start < 0 {
			t.Fatalf("no heading for tool %q", key)
		}
		section := page[start:]
		section = section[:strings.Index(section, "</article>")]
		for _, is := range rep.Results[key].Issues {
			n++
			if !strings.Contains(section, "at "+is.Location+"<") {
				t.Errorf("tool %q: issue at %q is not under it", key, is.Location)
			}
			if !regexp.MustCompile(`:\d+:\d+$`).MatchString(is.Location) {
				t.Errorf("tool %q: issue location %q has no line and column", key, is.Location)
			}
		}
	}
	if n == 0 || rep.Summary.Errors == 0 {
		t.Fatalf("testdata/lint gave %d issues, %d errors: the test lints nothing", n, rep.Summary.Errors)
	}
	if want := fmt.Sprintf(`<th scope="row">Errors</th><td class="num">%d</td>`, rep.Summary.Errors); !strings.Contains(page, want) {
		t.Errorf("summary lacks %s", want)
	}
}

// TestTraceFindingsInPlace: on the 100 tau-bench conversations, every
// issue of every report is written once in the page, its message and
// suggestion inside the block of the call it concerns (or of its result),
// and the summary says the JSON report's numbers.
func TestTraceFindingsInPlace(t *testing.T) {
	t.Parallel()
	tr := tauBench(t)
	page := string(renderTrace(t, tr))
	for _, want := range []struct {
		label string
		n     int
	}{
		{"Conversations", tr.Summary.Conversations},
		{"Calls", tr.Summary.Calls},
		{"Invalid calls", tr.Summary.InvalidCalls},
		{"Failed results", tr.Summary.FailedResults},
		{"Loops", tr.Summary.Loops},
		{"Rule violations", tr.Summary.RuleViolations},
		{"Flagged conversations", tr.Summary.Flagged},
	} {
		if s := fmt.Sprintf(`<th scope="row">%s</th><td class="num">%d</td>`, want.label, want.n); !strings.Contains(page, s) {
			t.Errorf("summary lacks %s", s)
		}
	}
	checked, total := 0, 0
	for i, r := range tr.Reports {
		art := article(t, page, i)
		total += len(r.Result.Issues)
		for _, is := range r.Result.Issues {
			where := art
			for _, cr := range r.Calls {
				if is.Location == cr.Location || is.Location == cr.ResultAt {
					where = callBlock(t, art, cr.Location)
				}
			}
			if !strings.Contains(where, escape(is.Message)) {
				t.Fatalf("conversation %d: the finding %q at %s is not in place", i, is.Message, is.Location)
			}
			if is.Suggestion != "" && !strings.Contains(where, escape(is.Suggestion)) {
				t.Fatalf("conversation %d: the suggestion %q at %s is not in place", i, is.Suggestion, is.Location)
			}
			checked++
		}
	}
	if checked != total || checked < tr.Summary.RuleViolations {
		t.Errorf("checked %d of %d findings in place (%d rule violations)", checked, total, tr.Summary.RuleViolations)
	}
}

// article is the HTML of conversation i of page.
func article(t *testing.T, page string, i int) string {
	t.Helper()
	start := strings.Index(page, fmt.Sprintf(`id="conv-%d"`, i))
	if start < 0 {
		t.Fatalf("no conversation %d", i)
	}
	end := strings.Index(page[start:], "</article>")
	return page[start : start+end]
}

// callBlock is the HTML of the call at loc in the conversation art.
func callBlock(t *testing.T, art, loc string) string {
	t.Helper()
	start := strings.Index(art, `<span class="loc">`+loc+`</span></p>`)
	if start < 0 {
		t.Fatalf("no call at %s", loc)
	}
	end := strings.Index(art[start:], "\n</div>\n")
	return art[start : start+end]
}

// escape is s as html/template writes it in text.
func escape(s string) string {
	r := strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&#34;", "'", "&#39;", "\x00", "\uFFFD")
	return r.Replace(s)
}

// TestTraceSize: the report of the 100 recorded conversations stays under
// 8 MB, and the page makes no request: no URL of a scheme that loads, no
// src, no link to a style sheet.
func TestTraceSize(t *testing.T) {
	t.Parallel()
	page := renderTrace(t, tauBench(t))
	t.Logf("100 conversations: %d bytes", len(page))
	if len(page) >= 8<<20 {
		t.Errorf("the report of 100 conversations is %d bytes, not under 8 MB", len(page))
	}
	for _, bad := range []string{"http://", "https://", " src=", "<link", "@import", "url("} {
		if bytes.Contains(page, []byte(bad)) {
			t.Errorf("the page holds %q", bad)
		}
	}
}

// tagRE matches one tag as html/template writes them: attribute values
// quoted, with no quote, '<' or '>' inside.
var tagRE = regexp.MustCompile(`^<(/?)([a-zA-Z][a-zA-Z0-9]*)((?:\s+[a-zA-Z-]+(?:="[^"<>]*")?)*)\s*>`)

// attrRE matches one attribute of a tag.
var attrRE = regexp.MustCompile(`([a-zA-Z-]+)(?:="([^"]*)")?`)

// The elements and attributes the report templates write: anything else
// in a page came from its data.
var (
	allowedTags  = strings.Fields("html head meta title style body a header h1 h2 h3 p main section table thead tbody tr th td div figure figcaption svg text rect details summary form label input select option article span ul ol li pre code dl dt dd script caption")
	allowedAttrs = strings.Fields("lang charset http-equiv content name class href id aria-labelledby aria-label scope role viewBox preserveAspectRatio x y width height text-anchor type tabindex for data-flagged data-rules data-tools value")
)

// checkMarkup fails unless every '<' of page starts a tag of the
// templates with their attributes only, hrefs are fragments, and the only
// script is the embedded one.
func checkMarkup(t *testing.T, page string) {
	t.Helper()
	page = strings.TrimPrefix(page, "<!DOCTYPE html>")
	scripts := 0
	for i := strings.IndexByte(page, '<'); i >= 0; i = nextTag(page, i) {
		m := tagRE.FindStringSubmatch(page[i:])
		if m == nil {
			t.Fatalf("a '<' that starts no tag of the templates: %q", page[i:min(i+80, len(page))])
		}
		if !slices.Contains(allowedTags, m[2]) {
			t.Errorf("element <%s> is none of the templates'", m[2])
		}
		if m[2] == "script" && m[1] == "" {
			scripts++
			body := page[i+len(m[0]):]
			if !strings.HasPrefix(body, reportJS+"</script>") {
				t.Errorf("a script that is not the embedded one: %q", body[:min(80, len(body))])
			}
		}
		for _, a := range attrRE.FindAllStringSubmatch(m[3], -1) {
			if !slices.Contains(allowedAttrs, a[1]) {
				t.Errorf("attribute %s=%q of <%s> is none of the templates'", a[1], a[2], m[2])
			}
			if a[1] == "href" && !strings.HasPrefix(a[2], "#") {
				t.Errorf("href %q is not a fragment of the page", a[2])
			}
		}
	}
	if scripts != 1 {
		t.Errorf("%d scripts, want the page's own one", scripts)
	}
}

// nextTag returns the index of the '<' after the tag at i, skipping the
// embedded style and script (which hold '<' of their own language).
func nextTag(page string, i int) int {
	for _, raw := range []string{"<style>", "<script>"} {
		if strings.HasPrefix(page[i:], raw) {
			end := strings.Index(page[i:], "</"+raw[1:])
			if end < 0 {
				return -1
			}
			return i + end
		}
	}
	j := strings.IndexByte(page[i+1:], '<')
	if j < 0 {
		return -1
	}
	return i + 1 + j
}

// TestHostileEscaped renders a conversation whose every text tries to
// break out (script elements, attribute breaks, javascript: URLs, a base
// URL, a template action) and checks that none became markup: every tag
// is one of the templates', with their attributes only, the only script
// is the page's own, and each hostile text is there, escaped.
func TestHostileEscaped(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(filepath.Join("testdata", "hostile.json"))
	if err != nil {
		t.Fatal(err)
	}
	tr := checkTraces(t, "hostile.json\"><script>window.pwned=0</script>", data)
	page := string(renderTrace(t, tr))
	checkMarkup(t, page)
	if n := strings.Count(page, "window.pwned"); n < 12 {
		t.Errorf("the hostile texts are missing from the page (%d found): escaped text must still be shown", n)
	}
	for _, want := range []string{
		"&lt;/style&gt;&lt;script&gt;window.pwned = 1",
		"&lt;script&gt;window.pwned=8&lt;/script&gt;",
		"{{.CSP}}",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks the escaped text %q", want)
		}
	}
	if !strings.Contains(html.UnescapeString(page), hash(reportJS)) {
		t.Error("the page's script is not allowed by its hash")
	}
}

// TestGoldenMarkup: the golden pages pass the markup check too, so that
// the check knows every tag and attribute the templates write.
func TestGoldenMarkup(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"trace.golden.html", "lint.golden.html"} {
		data, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		checkMarkup(t, string(data))
	}
}

// TestCSP: the policy forbids everything by default and allows exactly the
// page's inline style and script by their hashes.
func TestCSP(t *testing.T) {
	t.Parallel()
	page := string(renderTrace(t, tauBench(t)))
	m := regexp.MustCompile(`<meta http-equiv="Content-Security-Policy" content="([^"]*)">`).FindStringSubmatch(page)
	if m == nil {
		t.Fatal("no Content-Security-Policy meta")
	}
	policy := html.UnescapeString(m[1])
	css := page[strings.Index(page, "<style>")+len("<style>") : strings.Index(page, "</style>")]
	js := page[strings.Index(page, "<script>")+len("<script>") : strings.Index(page, "</script>")]
	for _, want := range []string{"default-src 'none'", "style-src '" + hash(css) + "'", "script-src '" + hash(js) + "'", "base-uri 'none'", "form-action 'none'"} {
		if !strings.Contains(policy, want) {
			t.Errorf("policy %q lacks %q", policy, want)
		}
	}
	if strings.Contains(policy, "unsafe") {
		t.Errorf("policy %q allows something unsafe", policy)
	}
}

// TestWriteTraceErrors: reports that do not match their conversations are
// refused, and nothing is written.
func TestWriteTraceErrors(t *testing.T) {
	t.Parallel()
	for name, tr := range map[string]Trace{
		"fewer reports": {Conversations: make([]trace.Conversation, 2), Reports: make([]*trace.Report, 1)},
		"nil report":    {Conversations: make([]trace.Conversation, 1), Reports: make([]*trace.Report, 1)},
	} {
		var buf bytes.Buffer
		if err := WriteTrace(&buf, tr); err == nil || buf.Len() != 0 {
			t.Errorf("%s: err %v, wrote %d bytes", name, err, buf.Len())
		}
	}
	var buf bytes.Buffer
	if err := WriteLint(&buf, Lint{}); err == nil || buf.Len() != 0 {
		t.Errorf("no lint report: err %v, wrote %d bytes", err, buf.Len())
	}
	if err := WriteTrace(failWriter{}, Trace{}); !errors.Is(err, errWrite) {
		t.Errorf("a failing writer: %v, want errWrite", err)
	}
}

var errWrite = errors.New("write failed")

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errWrite }
