package console

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/accessibility"
	"github.com/chromedp/cdproto/dom"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/agentjudge/judge/trace"
)

var screenshots = flag.Bool("screenshots", false, "write screenshots of the reports to ../docs/img")

// chromiumPath finds a Chromium to drive; the test skips without one.
func chromiumPath(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "headless-shell"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skip("no Chromium on PATH: install Debian's chromium (scripts/test does, as root) to run the browser tests")
	return ""
}

// browser is a headless Chromium tab, with what the page did: the
// requests it sent and the errors it met (exceptions, console errors,
// log entries such as a Content-Security-Policy violation, dialogs).
type browser struct {
	ctx      context.Context
	mu       sync.Mutex
	requests []string
	errs     []string
}

// newBrowser starts a headless Chromium with one tab that records its
// requests and errors.
func newBrowser(t *testing.T) *browser {
	t.Helper()
	path := chromiumPath(t)
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(path), chromedp.NoSandbox, chromedp.WindowSize(1280, 900))
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancelAlloc)
	ctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(cancel)
	b := &browser{ctx: ctx}
	if err := chromedp.Listen(ctx, func(ev any) {
		b.mu.Lock()
		defer b.mu.Unlock()
		switch ev := ev.(type) {
		case *network.EventRequestWillBeSent:
			b.requests = append(b.requests, ev.Request.URL)
		case *runtime.EventExceptionThrown:
			b.errs = append(b.errs, "exception: "+ev.ExceptionDetails.Text+" "+exceptionText(ev.ExceptionDetails))
		case *runtime.EventConsoleAPICalled:
			if ev.Type == runtime.ConsoleAPICalledTypeError || ev.Type == runtime.ConsoleAPICalledTypeWarning {
				b.errs = append(b.errs, fmt.Sprintf("console %s", ev.Type))
			}
		case *cdplog.EventEntryAdded:
			if ev.Entry.Level == cdplog.EntryLevelError || ev.Entry.Level == cdplog.EntryLevelWarning {
				b.errs = append(b.errs, fmt.Sprintf("log %s: %s", ev.Entry.Level, ev.Entry.Text))
			}
		case *cdppage.EventJavascriptDialogOpening:
			b.errs = append(b.errs, "dialog: "+ev.Message)
		}
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(ctx, network.Enable, network.EnableParams{}); err != nil {
		t.Fatalf("network.enable: %v", err)
	}
	if _, err := chromedp.Call(ctx, cdplog.Enable, struct{}{}); err != nil {
		t.Fatalf("log.enable: %v", err)
	}
	return b
}

func exceptionText(d *runtime.ExceptionDetails) string {
	if d.Exception != nil {
		return d.Exception.Description
	}
	return ""
}

// open loads the file path and returns how long it took, to the load
// event.
func (b *browser) open(t *testing.T, path string) time.Duration {
	t.Helper()
	start := time.Now()
	if err := chromedp.Do(b.ctx, chromedp.Navigate(fileURL(t, path))); err != nil {
		t.Fatalf("opening %s: %v", path, err)
	}
	return time.Since(start)
}

// check fails the test for every request that is not the page itself and
// every error the page met.
func (b *browser) check(t *testing.T, pageURL string) {
	t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.requests) == 0 {
		t.Error("no request recorded at all, not even the page's: the network listener saw nothing")
	}
	for _, u := range b.requests {
		if u != pageURL {
			t.Errorf("the page sent a request: %s", u)
		}
	}
	for _, e := range b.errs {
		t.Errorf("the page met an error: %s", e)
	}
}

func fileURL(t *testing.T, path string) string {
	t.Helper()
	abs, err := filepath.Abs(path)
	if err != nil {
		t.Fatal(err)
	}
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String()
}

// axTree is the page's accessibility tree.
type axTree map[accessibility.NodeID]*accessibility.Node

func (b *browser) axTree(t *testing.T) axTree {
	t.Helper()
	res, err := chromedp.Call(b.ctx, accessibility.GetFullAXTree, accessibility.GetFullAXTreeParams{})
	if err != nil {
		t.Fatalf("accessibility tree: %v", err)
	}
	tree := axTree{}
	for _, n := range res.Nodes {
		tree[n.NodeID] = n
	}
	return tree
}

// axString is the string of an accessibility value.
func axString(v *accessibility.Value) string {
	if v == nil {
		return ""
	}
	var s string
	if json.Unmarshal(v.Value, &s) != nil {
		return strings.Trim(string(v.Value), `"`)
	}
	return s
}

// find returns the nodes of role named name.
func (tr axTree) find(role, name string) []*accessibility.Node {
	var out []*accessibility.Node
	for _, n := range tr {
		if !n.Ignored && axString(n.Role) == role && axString(n.Name) == name {
			out = append(out, n)
		}
	}
	return out
}

// walk calls fn on n and every node under it, in order.
func (tr axTree) walk(n *accessibility.Node, fn func(*accessibility.Node)) {
	fn(n)
	for _, id := range n.ChildIDs {
		if c := tr[id]; c != nil {
			tr.walk(c, fn)
		}
	}
}

// rows reads a table as a person hears it: each row's header and the
// name of its first cell.
func (tr axTree) rows(table *accessibility.Node) map[string]string {
	out := map[string]string{}
	tr.walk(table, func(row *accessibility.Node) {
		if axString(row.Role) != "row" {
			return
		}
		var header, cell string
		tr.walk(row, func(n *accessibility.Node) {
			switch axString(n.Role) {
			case "rowheader":
				header = axString(n.Name)
			case "cell", "gridcell":
				if cell == "" {
					cell = axString(n.Name)
				}
			}
		})
		if header != "" {
			out[header] = cell
		}
	})
	return out
}

// control returns the DOM id of the one control of role whose accessible
// name is name: the label names it, or the test fails.
func (b *browser) control(t *testing.T, role, name string) string {
	t.Helper()
	nodes := b.axTree(t).find(role, name)
	if len(nodes) != 1 {
		t.Fatalf("%d controls of role %s named %q, want 1", len(nodes), role, name)
	}
	res, err := chromedp.Call(b.ctx, dom.DescribeNode, dom.DescribeNodeParams{BackendNodeID: nodes[0].BackendDOMNodeID})
	if err != nil {
		t.Fatal(err)
	}
	attrs := res.Node.Attributes
	for i := 0; i+1 < len(attrs); i += 2 {
		if attrs[i] == "id" {
			return attrs[i+1]
		}
	}
	t.Fatalf("the %s %q has no id", role, name)
	return ""
}

// status is the text of the page's one status region.
func (b *browser) status(t *testing.T) string {
	t.Helper()
	var texts []string
	tr := b.axTree(t)
	for _, n := range tr {
		if axString(n.Role) == "status" && !n.Ignored {
			var sb strings.Builder
			tr.walk(n, func(c *accessibility.Node) {
				if axString(c.Role) == "StaticText" {
					sb.WriteString(axString(c.Name))
				}
			})
			texts = append(texts, sb.String())
		}
	}
	if len(texts) != 1 {
		t.Fatalf("%d status regions, want 1: %q", len(texts), texts)
	}
	return texts[0]
}

// choose selects value in the select of DOM id as a person's choice
// does: the value changes and a change event follows.
func (b *browser) choose(t *testing.T, id, value string) {
	t.Helper()
	if err := chromedp.Do(b.ctx,
		chromedp.SetValue(chromedp.ID(id), value),
		chromedp.Evaluate[chromedp.Void](`document.getElementById(`+strconv.Quote(id)+`).dispatchEvent(new Event('change', {bubbles: true}))`),
	); err != nil {
		t.Fatal(err)
	}
}

// TestBrowserTraceReport opens the HTML report of the 100 recorded
// tau-bench conversations from disk in headless Chromium, reads the
// summary through the accessibility tree and finds the numbers of the
// JSON report, uses the filters through their labels, and checks that the
// page sent no request and met no error (a script blocked by the policy
// would be one).
func TestBrowserTraceReport(t *testing.T) {
	b := newBrowser(t)
	tr := tauBench(t)
	path := filepath.Join(t.TempDir(), "report.html")
	if err := os.WriteFile(path, renderTrace(t, tr), 0o644); err != nil {
		t.Fatal(err)
	}
	took := b.open(t, path)
	info, _ := os.Stat(path)
	load, err := chromedp.Run(b.ctx, chromedp.Evaluate[float64](`performance.getEntriesByType('navigation')[0].loadEventEnd`))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("report of %d conversations: %d bytes, opened in %v (navigation to load event; the page's own timing: %.0f ms)", len(tr.Reports), info.Size(), took.Round(time.Millisecond), load)

	// The summary, as the JSON report writes it.
	raw, err := json.Marshal(tr.Summary)
	if err != nil {
		t.Fatal(err)
	}
	var js map[string]any
	if err := json.Unmarshal(raw, &js); err != nil {
		t.Fatal(err)
	}
	ax := b.axTree(t)
	tables := ax.find("table", "Summary")
	if len(tables) != 1 {
		t.Fatalf("%d tables named Summary, want 1", len(tables))
	}
	rows := ax.rows(tables[0])
	for label, key := range map[string]string{
		"Conversations": "conversations", "Calls": "calls", "Invalid calls": "invalid_calls",
		"Failed results": "failed_results", "Loops": "loops", "Rule violations": "rule_violations",
		"Flagged conversations": "flagged",
	} {
		if want := fmt.Sprint(js[key]); rows[label] != want {
			t.Errorf("summary row %q = %q, the JSON report's %s is %s", label, rows[label], key, want)
		}
	}
	for _, name := range []string{"Findings by type", "Rules broken most", "Findings by recorded outcome"} {
		if len(ax.find("image", name))+len(ax.find("img", name)) != 1 {
			t.Errorf("no chart named %q", name)
		}
	}

	total := len(tr.Reports)
	shown := func(n int) string { return fmt.Sprintf("Showing %d of %d conversations", n, total) }
	if got := b.status(t); got != shown(total) {
		t.Errorf("status %q, want %q", got, shown(total))
	}
	// Flagged only, by its label.
	flagged := b.control(t, "checkbox", "Flagged only")
	if err := chromedp.Do(b.ctx, chromedp.Click(chromedp.ID(flagged))); err != nil {
		t.Fatal(err)
	}
	if got := b.status(t); got != shown(tr.Summary.Flagged) {
		t.Errorf("flagged only: status %q, want %q", got, shown(tr.Summary.Flagged))
	}
	visible, err := chromedp.Run(b.ctx, chromedp.Evaluate[int](`document.querySelectorAll('article.conv:not([hidden])').length`))
	if err != nil || visible != tr.Summary.Flagged {
		t.Errorf("flagged only: %d conversations visible (%v), want %d", visible, err, tr.Summary.Flagged)
	}
	if err := chromedp.Do(b.ctx, chromedp.Click(chromedp.ID(flagged))); err != nil {
		t.Fatal(err)
	}
	// By rule: the conversations that broke it, as the summary counts them.
	rule := slices.MaxFunc(tr.Summary.Rules, func(a, b2 trace.RuleCount) int { return a.Conversations - b2.Conversations })
	b.choose(t, b.control(t, "combobox", "Rule broken"), rule.Rule)
	if got := b.status(t); got != shown(rule.Conversations) {
		t.Errorf("rule %s: status %q, want %q", rule.Rule, got, shown(rule.Conversations))
	}
	b.choose(t, b.control(t, "combobox", "Rule broken"), "")
	// By tool: the conversations that called it.
	const tool = "cancel_reservation"
	want := 0
	for _, r := range tr.Reports {
		if slices.ContainsFunc(r.Calls, func(c trace.CallReport) bool { return c.Tool == tool }) {
			want++
		}
	}
	b.choose(t, b.control(t, "combobox", "Tool called"), tool)
	if got := b.status(t); got != shown(want) || want == 0 {
		t.Errorf("tool %s: status %q, want %q", tool, got, shown(want))
	}
	b.choose(t, b.control(t, "combobox", "Tool called"), "")

	if *screenshots {
		shoot(t, b, "trace-report.png", "")
		shoot(t, b, "trace-report-conversation.png", firstFlaggedWithCallFinding(tr))
	}
	b.check(t, fileURL(t, path))
}

// firstFlaggedWithCallFinding is the DOM id of the first conversation
// with a finding beside a call.
func firstFlaggedWithCallFinding(tr Trace) string {
	for i, r := range tr.Reports {
		if r.Counts.Flagged > 0 && r.Counts.FailedResults > 0 && r.Counts.RuleViolations > 0 {
			return fmt.Sprintf("conv-%d", i)
		}
	}
	return "conv-0"
}

// shoot writes a screenshot of the viewport to ../docs/img/name, with the
// conversation of DOM id conv opened at its first finding when given.
func shoot(t *testing.T, b *browser, name, conv string) {
	t.Helper()
	steps := []chromedp.Action[chromedp.Void]{chromedp.EmulateViewport(1280, 1000)}
	if conv != "" {
		steps = append(steps,
			chromedp.Evaluate[chromedp.Void](`(function(){var a=document.getElementById(`+strconv.Quote(conv)+`);a.querySelector('details.timeline-box').open=true;var f=a.querySelector('.call .findings')||a;f.closest('.call').scrollIntoView();window.scrollBy(0,-120);})()`))
	} else {
		steps = append(steps, chromedp.Evaluate[chromedp.Void](`window.scrollTo(0,0)`))
	}
	if err := chromedp.Do(b.ctx, steps...); err != nil {
		t.Fatal(err)
	}
	png, err := chromedp.Run(b.ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join("..", "docs", "img", name)
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(out, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s", out)
}

// TestBrowserHostile opens the report of the hostile conversation: no
// script of it runs (the page's own does: its status line is written),
// no dialog opens, no request leaves.
func TestBrowserHostile(t *testing.T) {
	b := newBrowser(t)
	data, err := os.ReadFile(filepath.Join("testdata", "hostile.json"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "hostile.html")
	if err := os.WriteFile(path, renderTrace(t, checkTraces(t, "hostile.json", data)), 0o644); err != nil {
		t.Fatal(err)
	}
	b.open(t, path)
	// Open every folded part and hover and focus everything, so that any
	// handler smuggled in would fire.
	if err := chromedp.Do(b.ctx, chromedp.Evaluate[chromedp.Void](`document.querySelectorAll('details').forEach(function(d){d.open=true});
document.querySelectorAll('*').forEach(function(e){['mouseover','focus','click','load','error'].forEach(function(n){e.dispatchEvent(new Event(n))})})`)); err != nil {
		t.Fatal(err)
	}
	pwned, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](`String(window.pwned)`))
	if err != nil || pwned != "undefined" {
		t.Errorf("window.pwned = %q (%v): a script of the conversation ran", pwned, err)
	}
	if got := b.status(t); got != "Showing 1 of 1 conversations" {
		t.Errorf("status %q: the page's own script did not run", got)
	}
	n, err := chromedp.Run(b.ctx, chromedp.Evaluate[int](`document.scripts.length + document.querySelectorAll('img,iframe,svg [onload],base,link,a[href^="javascript"]').length`))
	if err != nil || n != 1 {
		t.Errorf("%d scripts and hostile elements in the DOM (%v), want the page's one script", n, err)
	}
	b.check(t, fileURL(t, path))
}

// TestBrowserLintReport opens the lint page of testdata/lint from disk:
// its summary, read through the accessibility tree, is the lint's, each
// tool is a heading, and no request leaves nor error occurs.
func TestBrowserLintReport(t *testing.T) {
	b := newBrowser(t)
	rep := lintReport(t)
	var sb strings.Builder
	if err := WriteLint(&sb, Lint{Title: "testdata/lint", Report: rep}); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "lint.html")
	if err := os.WriteFile(path, []byte(sb.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	b.open(t, path)
	ax := b.axTree(t)
	tables := ax.find("table", "Summary")
	if len(tables) != 1 {
		t.Fatalf("%d tables named Summary, want 1", len(tables))
	}
	rows := ax.rows(tables[0])
	s := rep.Summary
	for label, n := range map[string]int{"Tools": s.Tools, "Valid tools": s.Valid, "Invalid tools": s.Invalid, "Errors": s.Errors, "Warnings": s.Warnings, "Notes": s.Infos} {
		if rows[label] != strconv.Itoa(n) {
			t.Errorf("summary row %q = %q, the lint's is %d", label, rows[label], n)
		}
	}
	headings := 0
	for _, n := range ax {
		if axString(n.Role) == "heading" && strings.Contains(axString(n.Name), ":") {
			for _, key := range rep.Keys() {
				if strings.HasSuffix(axString(n.Name), " "+key) {
					headings++
				}
			}
		}
	}
	if headings != len(rep.Keys()) {
		t.Errorf("%d tool headings, want %d", headings, len(rep.Keys()))
	}
	if *screenshots {
		shoot(t, b, "lint-report.png", "")
	}
	b.check(t, fileURL(t, path))
}
