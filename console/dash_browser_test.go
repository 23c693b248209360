package console

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/accessibility"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"

	"github.com/agentjudge/judge"
	"github.com/agentjudge/judge/internal/sharedtest"
	"github.com/agentjudge/judge/server"
	"github.com/agentjudge/judge/server/history"
)

// serveDash serves the API of a real engine with the dashboard and the
// trace viewer mounted, as judge serve does, on loopback until t ends,
// and returns its origin.
func serveDash(t *testing.T, token string, every time.Duration, maxUpload int64) string {
	t.Helper()
	e, err := judge.New()
	if err != nil {
		t.Fatal(err)
	}
	hist := history.New(nil)
	page, panels, err := Dashboard(DashboardOptions{Snapshot: hist.Snapshot, Every: every})
	if err != nil {
		t.Fatal(err)
	}
	tpage, upload, err := Traces(TracesOptions{MaxBytes: maxUpload})
	if err != nil {
		t.Fatal(err)
	}
	srv := server.New(e, server.Options{Token: token, History: hist},
		server.Mount{Pattern: "GET /dashboard", Handler: page, Public: true},
		server.Mount{Pattern: "GET /dashboard/panels", Handler: panels},
		server.Mount{Pattern: "GET /traces", Handler: tpage, Public: true},
		server.Mount{Pattern: "POST /traces", Handler: upload})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, ln) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve: %v", err)
		}
		_ = e.Close(context.Background())
	})
	return "http://" + ln.Addr().String()
}

// post sends body to origin's path with the bearer token and fails the
// test on any status but 200.
func post(t *testing.T, origin, path, token, body string) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, origin+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("POST %s: %d", path, resp.StatusCode)
	}
}

// waitFor waits until the JavaScript expression cond is true in the page.
func (b *browser) waitFor(t *testing.T, what, cond string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 60*time.Second)
	defer cancel()
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](cond, chromedp.WithPollingInterval(100*time.Millisecond))); err != nil {
		t.Fatalf("waiting for %s: %v", what, err)
	}
}

// tableRows reads the rows, header and first cell, of the one table whose
// accessible name starts with prefix.
func tableRows(t *testing.T, ax axTree, prefix string) map[string]string {
	t.Helper()
	var tables []*accessibility.Node
	for _, n := range ax {
		if !n.Ignored && axString(n.Role) == "table" && strings.HasPrefix(axString(n.Name), prefix) {
			tables = append(tables, n)
		}
	}
	if len(tables) != 1 {
		t.Fatalf("%d tables named %q…, want 1", len(tables), prefix)
	}
	return ax.rows(tables[0])
}

// TestBrowserDashboard opens the dashboard of a real server with an API
// key, gives the key when the page asks for it, sends validations and
// tool-call checks to the server and waits until the dashboard, refreshing
// by itself, counts them; then pauses it. No request leaves the origin.
func TestBrowserDashboard(t *testing.T) {
	b := newBrowser(t)
	const token = "dash-key"
	origin := serveDash(t, token, 2*time.Second, 0)
	b.visit(t, origin, "/dashboard")
	// The panels need the key: the dialog asks for it.
	b.waitFor(t, "the key dialog", `document.getElementById('judge-key').open === true`)
	key := b.control(t, "textbox", "API key")
	if err := chromedp.Do(b.ctx, chromedp.SendKeys(chromedp.ID(key), token+"\r")); err != nil {
		t.Fatal(err)
	}
	b.waitFor(t, "the first panels", `document.querySelector('#panels .panels') !== null`)

	schema := `{"type": "object", "required": ["name", "age"], "properties": {"name": {"type": "string"}, "age": {"type": "integer"}}}`
	post(t, origin, "/validate", token, `{"output": {"name": "Ada", "age": 3}, "expected_schema": `+schema+`}`)
	post(t, origin, "/validate", token, `{"output": {"name": "Ada"}, "expected_schema": `+schema+`}`)
	post(t, origin, "/v1/validate", token, `{"output": {"age": "x"}, "expected_schema": `+schema+`}`)
	defs, err := os.ReadFile(filepath.Join("..", "examples", "call-tools.json"))
	if err != nil {
		t.Fatal(err)
	}
	post(t, origin, "/v1/calls/check", token, `{"tool": "home_assistant", "arguments": {"action": "call_tool"}, "tools": `+string(defs)+`}`)
	post(t, origin, "/v1/calls/check", token, `{"tool": "get_events", "arguments": {"action": "by_ids", "ids": ["e1"]}, "tools": `+string(defs)+`}`)
	post(t, origin, "/v1/calls/outcome", token, `{"tool": "get_events", "arguments": {"action": "by_ids", "ids": ["e1"]}, "result": {"content": [{"type": "text", "text": "calendar offline"}], "isError": true}, "tools": `+string(defs)+`}`)

	// The page refreshes by itself: wait until it shows the three.
	b.waitFor(t, "the dashboard to count the validations",
		`Array.from(document.querySelectorAll('#panels table.stats tr')).some(function(r){return r.querySelector('th').textContent==='Tool calls checked' && r.querySelector('td').textContent==='2'})`)
	rows := tableRows(t, b.axTree(t), "Since ")
	for label, want := range map[string]string{
		"Validations": "3", "Valid": "1", "Valid share": "33.3 %", "Tool calls checked": "2", "Invalid calls": "1", "Outcomes": "1", "Failed outcomes": "1",
	} {
		if rows[label] != want {
			t.Errorf("row %q = %q, want %q", label, rows[label], want)
		}
	}
	if !strings.HasSuffix(rows["Latency p95"], " ms") {
		t.Errorf("Latency p95 = %q, want a number of ms", rows["Latency p95"])
	}
	ax := b.axTree(t)
	for _, name := range []string{"Validations per minute", "Errors per minute", "Tool calls per minute", "Issues by type", "Issues by layer", "Tools that fail most"} {
		found := false
		for _, n := range ax {
			if axString(n.Role) == "image" || axString(n.Role) == "img" {
				if strings.HasPrefix(axString(n.Name), name) {
					found = true
				}
			}
		}
		if !found {
			t.Errorf("no chart named %q…", name)
		}
	}
	types := tableRows(t, ax, "Issues by type and severity")
	if types["missing_field"] == "" || types["missing_field"] == "0" {
		t.Errorf("the types table has no missing_field errors: %v", types)
	}
	layers := tableRows(t, ax, "Layers:")
	if layers["schema"] != "3" {
		t.Errorf("schema layer runs %q, want 3", layers["schema"])
	}
	first, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](`document.querySelector('#c-tools table tbody th').textContent`))
	if err != nil || first != "get_events" {
		t.Errorf("the tool that fails most is %q (%v), want get_events", first, err)
	}
	status := b.status(t)
	if !strings.HasPrefix(status, "Last updated ") {
		t.Errorf("status %q", status)
	}
	if *screenshots {
		shootPage(t, b, "console-dashboard.png", 1280, 1500)
	}

	// Pause: the button is pressed and the status says so.
	pause := b.control(t, "button", "Pause updates")
	if err := chromedp.Do(b.ctx, chromedp.Click(chromedp.ID(pause))); err != nil {
		t.Fatal(err)
	}
	b.waitFor(t, "the pause", `document.getElementById('dash-pause').getAttribute('aria-pressed') === 'true' && /paused/.test(document.getElementById('dash-updated').textContent)`)
	b.checkOrigin(t, origin, http.StatusUnauthorized)
}

// shootPage writes a screenshot of the page's top, w by h, to
// ../docs/img/name.
func shootPage(t *testing.T, b *browser, name string, w, h int64) {
	t.Helper()
	if err := chromedp.Do(b.ctx, chromedp.EmulateViewport(w, h), chromedp.Evaluate[chromedp.Void](`window.scrollTo(0,0)`)); err != nil {
		t.Fatal(err)
	}
	shootView(t, b, name)
}

// shootView writes a screenshot of the viewport as it is to
// ../docs/img/name.
func shootView(t *testing.T, b *browser, name string) {
	t.Helper()
	png, err := chromedp.Run(b.ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join("..", "docs", "img", name)
	if err := os.WriteFile(out, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s", out)
}

// labelled is the DOM id of the control the label whose text is text
// names.
func (b *browser) labelled(t *testing.T, text string) string {
	t.Helper()
	id, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](`(function(){var l=Array.from(document.querySelectorAll('label')).filter(function(l){return l.textContent.trim()===`+strconv.Quote(text)+`});return l.length===1&&l[0].control?l[0].control.id:''})()`))
	if err != nil || id == "" {
		t.Fatalf("no one control labelled %q (%v)", text, err)
	}
	return id
}

// TestBrowserTraces uploads the 100 recorded tau-bench conversations with
// their tools and rules to /traces of a real server, through the form's
// labels, and finds in the report the server renders the numbers of the
// JSON report judge trace writes; a file over the limit gets a message
// naming the limit. No request leaves the origin.
func TestBrowserTraces(t *testing.T) {
	b := newBrowser(t)
	origin := serveDash(t, "", 0, 0)
	dir := sharedtest.Dir(t, "agent-traces")
	conv := filepath.Join(dir, "tau-bench-airline-gpt-4o.dev.json")
	tools := filepath.Join(dir, "tau-bench-airline-tools.json")
	rules, _ := filepath.Abs(filepath.Join("..", "examples", "traces", "airline.rules.json"))
	b.visit(t, origin, "/traces")
	for label, file := range map[string]string{"Conversations": conv, "Tool definitions (optional)": tools, "Rules (optional)": rules} {
		if err := chromedp.Do(b.ctx, chromedp.SetUploadFiles(chromedp.ID(b.labelled(t, label)), []string{file})); err != nil {
			t.Fatal(err)
		}
	}
	start := time.Now()
	if err := chromedp.Do(b.ctx, chromedp.Click(chromedp.ID(b.control(t, "button", "Check")))); err != nil {
		t.Fatal(err)
	}
	b.waitFor(t, "the report", `/^Checked /.test(document.getElementById('trace-status').textContent)`)
	t.Logf("/traces: 100 conversations uploaded, checked, rendered and shown in %v", time.Since(start).Round(time.Millisecond))

	if *screenshots {
		if err := chromedp.Do(b.ctx, chromedp.EmulateViewport(1280, 1100), chromedp.Evaluate[chromedp.Void](`document.getElementById('trace-status').scrollIntoView()`)); err != nil {
			t.Fatal(err)
		}
		shootView(t, b, "console-traces.png")
	}
	// The JSON report's summary, as judge trace computes it.
	want := tauBench(t)
	raw, err := json.Marshal(want.Summary)
	if err != nil {
		t.Fatal(err)
	}
	var js map[string]any
	if err := json.Unmarshal(raw, &js); err != nil {
		t.Fatal(err)
	}
	// The report is in the sandboxed frame: read its summary table.
	rows := b.frameRows(t)
	for label, key := range map[string]string{
		"Conversations": "conversations", "Calls": "calls", "Invalid calls": "invalid_calls",
		"Failed results": "failed_results", "Loops": "loops", "Rule violations": "rule_violations",
		"Flagged conversations": "flagged",
	} {
		if w := fmt.Sprint(js[key]); rows[label] != w {
			t.Errorf("summary row %q = %q, the JSON report's %s is %s", label, rows[label], key, w)
		}
	}
	b.checkOrigin(t, origin, http.StatusUnauthorized)
}

// frameRows reads the summary table of the report in the page's frame.
// The frame is sandboxed (an opaque origin), so Chromium runs it as a
// target of its own: the test attaches to it.
func (b *browser) frameRows(t *testing.T) map[string]string {
	t.Helper()
	targets, err := chromedp.Targets(b.ctx)
	if err != nil {
		t.Fatal(err)
	}
	var frames []*target.Info
	for _, ti := range targets {
		if ti.Type == "iframe" {
			frames = append(frames, ti)
		}
	}
	if len(frames) != 1 {
		t.Fatalf("%d frame targets, want the report's", len(frames))
	}
	fctx, cancelF := chromedp.NewContext(b.ctx, chromedp.WithTargetID(frames[0].TargetID))
	defer cancelF()
	ctx, cancel := context.WithTimeout(fctx, 30*time.Second)
	defer cancel()
	rows, err := chromedp.Run(ctx, chromedp.Evaluate[map[string]string](`(function(){var o={};document.querySelectorAll('table.stats tbody tr').forEach(function(r){o[r.querySelector('th').textContent.trim()]=r.querySelector('td').textContent.trim()});return o})()`))
	if err != nil {
		t.Fatalf("the report's summary in the frame: %v", err)
	}
	pwned, err := chromedp.Run(ctx, chromedp.Evaluate[string](`String(window.pwned)`))
	if err != nil || pwned != "undefined" {
		t.Errorf("window.pwned = %q in the frame (%v)", pwned, err)
	}
	return rows
}

// TestBrowserTracesHostile drops the hostile conversation on /traces:
// the report shows it, and no script of it runs, in the frame or the
// page (no dialog, no window.pwned), and no request leaves the origin.
func TestBrowserTracesHostile(t *testing.T) {
	b := newBrowser(t)
	origin := serveDash(t, "", 0, 0)
	tools := filepath.Join(sharedtest.Dir(t, "agent-traces"), "tau-bench-airline-tools.json")
	hostile, _ := filepath.Abs(filepath.Join("testdata", "hostile.json"))
	b.visit(t, origin, "/traces")
	if err := chromedp.Do(b.ctx, chromedp.SetUploadFiles(chromedp.ID(b.labelled(t, "Tool definitions (optional)")), []string{tools})); err != nil {
		t.Fatal(err)
	}
	// The conversation is dropped on the form, as a person drags a file.
	data, err := os.ReadFile(hostile)
	if err != nil {
		t.Fatal(err)
	}
	text, _ := json.Marshal(string(data))
	if err := chromedp.Do(b.ctx, chromedp.Evaluate[chromedp.Void](`(function(){var dt=new DataTransfer();dt.items.add(new File([`+string(text)+`],'hostile.json',{type:'application/json'}));
document.getElementById('trace-form').dispatchEvent(new DragEvent('drop',{dataTransfer:dt,bubbles:true,cancelable:true}))})()`)); err != nil {
		t.Fatal(err)
	}
	b.waitFor(t, "the dropped file", `/hostile\.json\. Press Check\./.test(document.getElementById('trace-status').textContent) && document.getElementById('tr-conv').files.length === 1`)
	if err := chromedp.Do(b.ctx, chromedp.Click(chromedp.ID(b.control(t, "button", "Check")))); err != nil {
		t.Fatal(err)
	}
	b.waitFor(t, "the report", `/^Checked 1 conversations/.test(document.getElementById('trace-status').textContent)`)
	pwned, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](`String(window.pwned)`))
	if err != nil || pwned != "undefined" {
		t.Errorf("window.pwned = %q in the page (%v)", pwned, err)
	}
	// Last: reading the frame detaches the tab's session.
	rows := b.frameRows(t) // also checks window.pwned in the frame
	if rows["Conversations"] != "1" {
		t.Errorf("summary %v, want 1 conversation", rows)
	}
	b.checkOrigin(t, origin)
}
