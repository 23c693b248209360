package console

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf16"

	"github.com/chromedp/cdproto/accessibility"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/agentjudge/judge"
	"github.com/agentjudge/judge/examples"
	"github.com/agentjudge/judge/internal/jsonpos"
	"github.com/agentjudge/judge/internal/location"
	"github.com/agentjudge/judge/internal/sharedtest"
	"github.com/agentjudge/judge/server"
)

// serveConsole serves the API of a real engine with the playground
// mounted at "/", as judge serve does, on loopback until t ends, and
// returns its origin.
func serveConsole(t *testing.T, token string) string {
	t.Helper()
	return serveConsoleLimit(t, token, server.DefaultMaxBodyBytes)
}

// serveConsoleLimit is serveConsole with a server taking bodies of up to
// maxBody bytes.
func serveConsoleLimit(t *testing.T, token string, maxBody int64) string {
	t.Helper()
	e, err := judge.New()
	if err != nil {
		t.Fatal(err)
	}
	play, err := Playground(PlaygroundOptions{Types: e.Types(), MaxBodyBytes: maxBody})
	if err != nil {
		t.Fatal(err)
	}
	srv := server.New(e, server.Options{Token: token, MaxBodyBytes: maxBody}, server.Mount{Pattern: "GET /{$}", Handler: play, Public: true})
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

// sent is one request the tab sent.
type sent struct {
	url, method, auth string
}

// recordRequests records every request of b's tab with its method and
// the Authorization header it was sent with (which Chromium reports in
// the request's extra info).
func recordRequests(t *testing.T, b *browser) func() []sent {
	t.Helper()
	mu := &b.mu
	var order []network.RequestID
	byID := map[network.RequestID]*sent{}
	get := func(id network.RequestID) *sent {
		if byID[id] == nil {
			byID[id] = &sent{}
			order = append(order, id)
		}
		return byID[id]
	}
	if err := chromedp.Listen(b.ctx, func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch ev := ev.(type) {
		case *network.EventRequestWillBeSent:
			r := get(ev.RequestID)
			r.url, r.method = ev.Request.URL, ev.Request.Method
		case *network.EventRequestWillBeSentExtraInfo:
			r := get(ev.RequestID)
			for k, v := range ev.Headers {
				if strings.EqualFold(k, "Authorization") {
					r.auth, _ = v.(string)
				}
			}
		}
	}); err != nil {
		t.Fatal(err)
	}
	return func() []sent {
		mu.Lock()
		defer mu.Unlock()
		var out []sent
		for _, id := range order {
			out = append(out, *byID[id])
		}
		return out
	}
}

// visit loads origin's page at path.
func (b *browser) visit(t *testing.T, origin, path string) {
	t.Helper()
	if err := chromedp.Do(b.ctx, chromedp.Navigate(origin+path)); err != nil {
		t.Fatalf("opening %s: %v", origin+path, err)
	}
}

// checkOrigin fails the test for every request that left origin and for
// every error the page met but those that say so of the statuses allowed.
func (b *browser) checkOrigin(t *testing.T, origin string, allowed ...int) {
	t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.requests) == 0 {
		t.Error("no request recorded at all, not even the page's: the network listener saw nothing")
	}
	for _, u := range b.requests {
		if !strings.HasPrefix(u, origin+"/") {
			t.Errorf("the page sent a request out of its origin: %s", u)
		}
	}
next:
	for _, e := range b.errs {
		for _, st := range allowed {
			if strings.HasSuffix(e, fmt.Sprintf("the server responded with a status of %d (%s)", st, http.StatusText(st))) {
				continue next
			}
		}
		t.Errorf("the page met an error: %s", e)
	}
}

// node returns the one node of role named name, as a person finds it, or
// fails the test.
func (b *browser) node(t *testing.T, role, name string) *accessibility.Node {
	t.Helper()
	nodes := b.axTree(t).find(role, name)
	if len(nodes) != 1 {
		t.Fatalf("%d nodes of role %s named %q, want 1", len(nodes), role, name)
	}
	return nodes[0]
}

// click clicks the middle of the node of role named name with the mouse.
func (b *browser) click(t *testing.T, role, name string) {
	t.Helper()
	id := b.node(t, role, name).BackendDOMNodeID
	if _, err := chromedp.Call(b.ctx, dom.ScrollIntoViewIfNeeded, dom.ScrollIntoViewIfNeededParams{BackendNodeID: id}); err != nil {
		t.Fatal(err)
	}
	box, err := chromedp.Call(b.ctx, dom.GetBoxModel, dom.GetBoxModelParams{BackendNodeID: id})
	if err != nil {
		t.Fatal(err)
	}
	q := box.Model.Content
	x, y := (q[0]+q[2]+q[4]+q[6])/4, (q[1]+q[3]+q[5]+q[7])/4
	for _, typ := range []input.DispatchMouseEventType{input.DispatchMouseEventTypeMousePressed, input.DispatchMouseEventTypeMouseReleased} {
		if _, err := chromedp.Call(b.ctx, input.DispatchMouseEvent, input.DispatchMouseEventParams{Type: typ, X: x, Y: y, Button: input.MouseButtonLeft, ClickCount: 1}); err != nil {
			t.Fatal(err)
		}
	}
}

// focus moves the keyboard focus to the node of role named name.
func (b *browser) focus(t *testing.T, role, name string) {
	t.Helper()
	if _, err := chromedp.Call(b.ctx, dom.Focus, dom.FocusParams{BackendNodeID: b.node(t, role, name).BackendDOMNodeID}); err != nil {
		t.Fatal(err)
	}
}

// typeInto focuses the text box labelled label, empties it and types text.
func (b *browser) typeInto(t *testing.T, label, text string) {
	t.Helper()
	b.focus(t, "textbox", label)
	if err := chromedp.Do(b.ctx, chromedp.Evaluate[chromedp.Void](`document.activeElement.select()`)); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(b.ctx, input.InsertText, input.InsertTextParams{Text: text}); err != nil {
		t.Fatal(err)
	}
}

// wait waits until the expression is true.
func (b *browser) wait(t *testing.T, expr string) {
	t.Helper()
	if _, err := chromedp.Run(b.ctx, chromedp.Poll[bool](expr, chromedp.WithPollingTimeout(30*time.Second))); err != nil {
		t.Fatalf("waiting for %s: %v", expr, err)
	}
}

// eval evaluates expr in the page.
func eval[T any](t *testing.T, b *browser, expr string) T {
	t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	return v
}

// activeID is the DOM id of the element that has the focus.
func (b *browser) activeID(t *testing.T) string {
	t.Helper()
	return eval[string](t, b, `document.activeElement ? document.activeElement.id : ''`)
}

// listItems are the accessible names of the items of the list labelled
// by the heading named heading.
func (b *browser) listItems(t *testing.T, heading string) []string {
	t.Helper()
	tr := b.axTree(t)
	lists := tr.find("list", heading)
	if len(lists) != 1 {
		t.Fatalf("%d lists named %q, want 1", len(lists), heading)
	}
	var items []string
	tr.walk(lists[0], func(n *accessibility.Node) {
		if axString(n.Role) == "listitem" {
			var sb strings.Builder
			tr.walk(n, func(c *accessibility.Node) {
				if axString(c.Role) == "StaticText" {
					sb.WriteString(axString(c.Name))
				}
			})
			items = append(items, sb.String())
		}
	})
	return items
}

// TestBrowserPlayground loads the ticket example with one click, presses
// Validate and reads the result as a person would: the verdict, the
// three errors with their locations marked (each mark and its issue link
// to each other, by keyboard), the criteria, the raw JSON, the same
// request as curl; no request leaves the origin and the page meets no
// error. It times the result's rendering (click to result drawn).
func TestBrowserPlayground(t *testing.T) {
	origin := serveConsole(t, "")
	b := newBrowser(t)
	reqs := recordRequests(t, b)
	b.visit(t, origin, "/")
	t.Logf("playground loaded in %.0f ms (navigation start to load event, the page's own timing)",
		eval[float64](t, b, `performance.getEntriesByType('navigation')[0].loadEventEnd`))
	for _, label := range []string{"Output", "Schema", "Criteria", "Sources"} {
		b.node(t, "textbox", label)
	}
	for _, layer := range []string{"schema", "criteria", "facts", "hallucination", "quality"} {
		b.node(t, "checkbox", layer)
	}
	b.click(t, "button", "Ticket triage: schema and rules")
	ticket, err := os.ReadFile(filepath.Join("..", "examples", "ticket.json"))
	if err != nil {
		t.Fatal(err)
	}
	if got := eval[string](t, b, `document.getElementById(`+"'"+b.control(t, "textbox", "Output")+"'"+`).value`); got != string(ticket) {
		t.Fatalf("Output after loading the example is not examples/ticket.json:\n%s", got)
	}
	b.click(t, "button", "Validate")
	b.wait(t, `document.getElementById('result').hasAttribute('data-elapsed-ms')`)
	t.Logf("ticket example: result rendered %s ms after Validate (the page's own timing, request included)", eval[string](t, b, `document.getElementById('result').getAttribute('data-elapsed-ms')`))

	if v := eval[string](t, b, `document.getElementById('verdict').textContent`); v != "✗ Not valid" {
		t.Errorf("verdict %q, want ✗ Not valid", v)
	}
	errs := b.listItems(t, "Errors (3)")
	want := []string{"Field 'priority' is \"urgent\"", "Missing required field 'assignee_team'", "An outage ticket must set needs_human to true"}
	if len(errs) != 3 {
		t.Fatalf("errors %q, want 3", errs)
	}
	for _, w := range want {
		if !slices.ContainsFunc(errs, func(s string) bool { return strings.Contains(s, w) }) {
			t.Errorf("no error says %q in %q", w, errs)
		}
	}
	for _, loc := range []struct{ location, where, marked string }{
		{"priority", "the output", `"urgent"`},
		{"root", "the output", `{`},
		{"acceptance_criteria[1]", "the failed criteria", "Outages are escalated to a human"},
	} {
		b.focus(t, "link", "Location "+loc.location+", marked in "+loc.where)
		from := eval[string](t, b, `document.activeElement.closest('li').id`)
		if err := chromedp.Do(b.ctx, chromedp.KeyEvent("\r")); err != nil {
			t.Fatal(err)
		}
		mark := b.activeID(t)
		if !strings.HasPrefix(mark, "mark-") || "issue-"+strings.TrimPrefix(mark, "mark-") != from {
			t.Fatalf("Enter on the location of %s (in %s) focused %q, want its mark", loc.location, from, mark)
		}
		if got := eval[string](t, b, `document.activeElement.previousElementSibling.textContent`); got != loc.marked {
			t.Errorf("the mark of %s holds %q, want %q", loc.location, got, loc.marked)
		}
		if err := chromedp.Do(b.ctx, chromedp.KeyEvent("\r")); err != nil {
			t.Fatal(err)
		}
		if back := b.activeID(t); back != from {
			t.Errorf("Enter on the mark of %s focused %q, want its issue %q", loc.location, back, from)
		}
	}
	if got := b.listItems(t, "Failed (1)"); len(got) != 1 || !strings.Contains(got[0], "Outages are escalated to a human") {
		t.Errorf("failed criteria %q", got)
	}
	if got := b.listItems(t, "Passed (1)"); len(got) != 1 || got[0] != "✓ Every tag is lower case, without spaces" {
		t.Errorf("passed criteria %q", got)
	}
	b.click(t, "DisclosureTriangle", "Raw JSON")
	raw := eval[string](t, b, `document.querySelector('#raw pre').textContent`)
	if !strings.Contains(raw, `"quality_score": 0.512`) || !strings.Contains(raw, `"location": "acceptance_criteria[1]"`) {
		t.Errorf("raw JSON:\n%s", raw)
	}

	if *screenshots {
		shootPlayground(t, b)
	}
	b.click(t, "button", "Copy as curl")
	b.wait(t, `document.getElementById('copy-text').value !== ''`)
	curl := eval[string](t, b, `document.getElementById('copy-text').value`)
	if !strings.HasPrefix(curl, "curl -sS -X POST '"+origin+"/validate'") || !strings.Contains(curl, `"output": {`) || !strings.Contains(curl, `"outage-needs-human"`) {
		t.Errorf("copy as curl:\n%s", curl)
	}
	// The command, run by a shell, sends the same request: its answer is
	// the page's, but for the time it took.
	if sh, err := exec.LookPath("sh"); err != nil {
		t.Log("no sh: the curl command is not run")
	} else if _, err := exec.LookPath("curl"); err != nil {
		t.Log("no curl: the curl command is not run")
	} else {
		cmd := exec.Command(sh, "-c", curl)
		cmd.Env = append(os.Environ(), "JUDGE_API_TOKEN=")
		got, err := cmd.Output()
		if err != nil {
			t.Fatalf("running copy as curl: %v", err)
		}
		if a, b := withoutDuration(t, got), withoutDuration(t, []byte(raw)); a != b {
			t.Errorf("copy as curl answered\n%s\nthe page showed\n%s", a, b)
		}
	}
	b.click(t, "button", "Copy as judge validate")
	b.wait(t, `document.getElementById('copy-text').value.indexOf('judge validate') >= 0`)
	cli := eval[string](t, b, `document.getElementById('copy-text').value`)
	for _, w := range []string{`--schema "$dir/schema.json"`, `--rules "$dir/rules.json"`, `judge validate "$dir/output.json"`} {
		if !strings.Contains(cli, w) {
			t.Errorf("copy as judge validate lacks %s:\n%s", w, cli)
		}
	}
	// The script, run by a shell with judge built from this tree, gives
	// the result the page shows (exit 1: not valid).
	if testing.Short() {
		t.Log("-short: the judge validate script is not run")
	} else if sh, err := exec.LookPath("sh"); err == nil {
		bin := filepath.Join(t.TempDir(), "bin")
		build := exec.Command("go", "build", "-o", filepath.Join(bin, "judge"), "../cmd/judge")
		if out, err := build.CombinedOutput(); err != nil {
			t.Fatalf("go build: %v\n%s", err, out)
		}
		cmd := exec.Command(sh, "-c", cli)
		cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
		got, err := cmd.Output()
		if ee := (*exec.ExitError)(nil); !errors.As(err, &ee) || ee.ExitCode() != 1 {
			t.Fatalf("running copy as judge validate: %v, want exit 1\n%s", err, got)
		}
		if a, b := withoutDuration(t, got), withoutDuration(t, []byte(raw)); a != b {
			t.Errorf("copy as judge validate answered\n%s\nthe page showed\n%s", a, b)
		}
	}
	posts := 0
	for _, r := range reqs() {
		if r.method == http.MethodPost {
			posts++
			if r.url != origin+"/validate" {
				t.Errorf("posted to %s, want %s/validate", r.url, origin)
			}
		}
	}
	if posts != 1 {
		t.Errorf("%d POSTs, want 1", posts)
	}
	b.checkOrigin(t, origin)
}

// withoutDuration is the ValidationResult data, as JSON, without its
// duration.
func withoutDuration(t *testing.T, data []byte) string {
	t.Helper()
	var r map[string]any
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatalf("%v: %s", err, data)
	}
	if md, ok := r["metadata"].(map[string]any); ok {
		delete(md, "duration_ms")
	}
	out, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// shootPlayground writes a screenshot of the playground with the ticket
// example's result to ../docs/img.
func shootPlayground(t *testing.T, b *browser) {
	t.Helper()
	for name, scroll := range map[string]string{
		"console-playground.png":       `window.scrollTo(0,0)`,
		"console-playground-marks.png": `document.getElementById('sev-error').scrollIntoView(); window.scrollBy(0,-10)`,
	} {
		if err := chromedp.Do(b.ctx, chromedp.EmulateViewport(1280, 1100), chromedp.Evaluate[chromedp.Void](scroll)); err != nil {
			t.Fatal(err)
		}
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
}

// TestBrowserPlaygroundKey runs the API key flow against a server with a
// token: the page loads without it; Validate answers 401, so the page
// asks for the key in a dialog; a wrong key is refused and asked for
// again; the right one is kept in the tab's sessionStorage and sent as
// the bearer, also with the next request, which asks nothing; no cookie
// is set.
func TestBrowserPlaygroundKey(t *testing.T) {
	const key = "s3cret-console-key"
	origin := serveConsole(t, key)
	b := newBrowser(t)
	reqs := recordRequests(t, b)
	b.visit(t, origin, "/")
	b.click(t, "button", "Ticket triage: schema and rules")
	b.click(t, "button", "Validate")
	b.wait(t, `document.getElementById('judge-key').open`)
	b.node(t, "dialog", "API key")
	b.typeInto(t, "API key", "wrong-key")
	b.click(t, "button", "Use key")
	b.wait(t, `document.getElementById('judge-key').open && document.getElementById('judge-key-err').textContent !== ''`)
	if msg := eval[string](t, b, `document.getElementById('judge-key-err').textContent`); !strings.Contains(msg, "refused") {
		t.Errorf("after a wrong key the dialog says %q", msg)
	}
	b.typeInto(t, "API key", key)
	b.click(t, "button", "Use key")
	b.wait(t, `document.getElementById('result').hasAttribute('data-elapsed-ms')`)
	if v := eval[string](t, b, `document.getElementById('verdict').textContent`); v != "✗ Not valid" {
		t.Errorf("verdict %q after giving the key", v)
	}
	if got := eval[string](t, b, `sessionStorage.getItem('judge.apiKey')`); got != key {
		t.Errorf("sessionStorage holds %q, want the key", got)
	}
	// Validate again: the key is sent at once, nothing is asked.
	if err := chromedp.Do(b.ctx, chromedp.Evaluate[chromedp.Void](`document.getElementById('result').removeAttribute('data-elapsed-ms')`)); err != nil {
		t.Fatal(err)
	}
	b.click(t, "button", "Validate")
	b.wait(t, `document.getElementById('result').hasAttribute('data-elapsed-ms')`)
	if eval[bool](t, b, `document.getElementById('judge-key').open`) {
		t.Error("the key dialog opened again though the tab holds the key")
	}
	var auths []string
	for _, r := range reqs() {
		if r.method == http.MethodPost {
			auths = append(auths, r.auth)
		}
	}
	want := []string{"", "Bearer wrong-key", "Bearer " + key, "Bearer " + key}
	if !slices.Equal(auths, want) {
		t.Errorf("Authorization of the POSTs %q, want %q", auths, want)
	}
	for _, r := range reqs() {
		if r.method == http.MethodGet && r.auth != "" {
			t.Errorf("GET %s carried %q: the page is served without the key", r.url, r.auth)
		}
	}
	cookies, err := chromedp.Call(b.ctx, network.GetCookies, network.GetCookiesParams{URLs: []string{origin + "/"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(cookies.Cookies) != 0 || eval[string](t, b, `document.cookie`) != "" {
		t.Errorf("cookies set: %v", cookies.Cookies)
	}
	b.checkOrigin(t, origin, http.StatusUnauthorized)
}

// TestBrowserPlaygroundHostile validates an output made to run script
// when inserted as markup: its values reach the page in the issues, the
// marked output and the raw JSON, and none runs (no element made from
// them, no dialog, no error); the page's own script does run.
func TestBrowserPlaygroundHostile(t *testing.T) {
	origin := serveConsole(t, "")
	b := newBrowser(t)
	b.visit(t, origin, "/")
	const output = `{"name": "<script>window.pwned=1</script>", "note": "\"><img src=x onerror=window.pwned=2>", "<b onmouseover=window.pwned=3>": 1}`
	b.typeInto(t, "Output", output)
	b.typeInto(t, "Schema", `{"type": "object", "additionalProperties": false, "properties": {"name": {"maxLength": 3}, "note": {"enum": ["ok"]}}}`)
	b.typeInto(t, "Criteria", `[{"id": "<img src=y onerror=window.pwned=4>", "rule": "output.name == '</pre><script>window.pwned=5</script>'"}]`)
	b.click(t, "button", "Validate")
	b.wait(t, `document.getElementById('result').hasAttribute('data-elapsed-ms')`)
	if err := chromedp.Do(b.ctx, chromedp.Evaluate[chromedp.Void](`document.querySelectorAll('details').forEach(function(d){d.open=true});
document.querySelectorAll('#result *').forEach(function(e){['mouseover','focus','load','error'].forEach(function(n){e.dispatchEvent(new Event(n))})})`)); err != nil {
		t.Fatal(err)
	}
	if n := eval[int](t, b, `document.getElementById('result').querySelectorAll('li.issue').length`); n < 3 {
		t.Errorf("%d issues shown, want the schema's and the rule's", n)
	}
	if pwned := eval[string](t, b, `String(window.pwned)`); pwned != "undefined" {
		t.Errorf("window.pwned = %s: a script of the output ran", pwned)
	}
	if n := eval[int](t, b, `document.querySelectorAll('#result script, #result img, #result b, #result iframe').length + document.scripts.length`); n != 3 {
		t.Errorf("%d scripts and hostile elements in the page, want its own 3 scripts", n)
	}
	marked := eval[string](t, b, `document.getElementById('marked-output').textContent`)
	if !strings.Contains(marked, "<script>window.pwned=1</script>") || !strings.Contains(marked, `\"><img src=x onerror=window.pwned=2>`) {
		t.Errorf("the output is not shown as its text:\n%s", marked)
	}
	b.checkOrigin(t, origin)
}

// TestBrowserLocator compares where the playground finds each location
// in a JSON text with judge's own locator (internal/jsonpos), for every
// value of the examples' JSON files, of the shared MCP tool corpus and of
// a document of keys that need quoting, escapes and characters outside
// the BMP: the locations are written by internal/location, as the layers
// write them.
func TestBrowserLocator(t *testing.T) {
	origin := serveConsole(t, "")
	b := newBrowser(t)
	b.visit(t, origin, "/")
	docs := map[string][]byte{
		"odd keys": []byte(`{"a.b": {"": [1, {"q\u200d": "x"}]}, "2024": true, "café": {"prix": 3.5e2},
  "k\"ey": ["🙂 emoji", {"🙂": null}], "sp ace": [[[]], {}], "x": "\"><img src=x>"}`),
	}
	names, err := fs.Glob(examples.FS, "*.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range names {
		data, err := fs.ReadFile(examples.FS, name)
		if err != nil {
			t.Fatal(err)
		}
		if json.Valid(data) { // broken.schema.json is not, on purpose
			docs[name] = data
		}
	}
	corpus := filepath.Join(sharedtest.Dir(t, "mcp-tools"), "bench-corpus.json")
	if docs["bench-corpus.json"], err = os.ReadFile(corpus); err != nil {
		t.Fatal(err)
	}
	type probe struct {
		Loc  string `json:"loc"`
		Want int    `json:"want"`
	}
	total := 0
	for name, data := range docs {
		var doc any
		if err := json.Unmarshal(data, &doc); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var probes []probe
		walkPaths(doc, nil, func(tokens []string) {
			off, ok := jsonpos.Offset(data, tokens)
			if !ok {
				t.Fatalf("%s: jsonpos finds no %q", name, tokens)
			}
			// The page indexes the text in UTF-16 code units.
			probes = append(probes, probe{location.Instance(doc, tokens), len(utf16.Encode([]rune(string(data[:off]))))})
		})
		arg, err := json.Marshal(map[string]any{"text": string(data), "probes": probes})
		if err != nil {
			t.Fatal(err)
		}
		got := eval[[]int](t, b, `(function(a){return a.probes.map(function(p){return judgeLocate.valueAt(a.text, p.loc)})})(`+string(arg)+`)`)
		for i, p := range probes {
			if got[i] != p.Want {
				t.Errorf("%s: %s found at %d, judge's locator says %d", name, p.Loc, got[i], p.Want)
			}
		}
		total += len(probes)
	}
	t.Logf("%d locations in %d documents found where judge's locator finds them", total, len(docs))
	b.checkOrigin(t, origin)
}

// walkPaths calls fn with the JSON Pointer tokens of v and of every value
// under it.
func walkPaths(v any, tokens []string, fn func([]string)) {
	fn(tokens)
	switch v := v.(type) {
	case map[string]any:
		for k, c := range v {
			walkPaths(c, append(slices.Clip(tokens), k), fn)
		}
	case []any:
		for i, c := range v {
			walkPaths(c, append(slices.Clip(tokens), strconv.Itoa(i)), fn)
		}
	}
}

// TestBrowserPlaygroundExamples validates every example of the page as
// loaded by its button: each answers a result (no problem), with the
// verdict the examples' README documents, and every issue's location is
// marked (a field of the output, a line of code, a function's line, a
// criterion of the request).
func TestBrowserPlaygroundExamples(t *testing.T) {
	origin := serveConsole(t, "")
	b := newBrowser(t)
	b.visit(t, origin, "/")
	verdicts := map[string]string{
		"Ticket triage: schema and rules": "✗ Not valid",
		"Ticket triage, fixed":            "✓ Valid",
		"Answer with a JSON fence":        "✓ Valid",
		"Facts against a source":          "✗ Not valid",
		"Code quality":                    "✓ Valid",
	}
	for _, ex := range playgroundExamples() {
		b.click(t, "button", ex.Label)
		if err := chromedp.Do(b.ctx, chromedp.Evaluate[chromedp.Void](`document.getElementById('result').removeAttribute('data-elapsed-ms')`)); err != nil {
			t.Fatal(err)
		}
		b.click(t, "button", "Validate")
		b.wait(t, `document.getElementById('result').hasAttribute('data-elapsed-ms')`)
		verdict := eval[string](t, b, `(document.getElementById('verdict') || document.getElementById('result')).textContent`)
		if verdict != verdicts[ex.Label] {
			t.Errorf("%s: verdict %q, want %q", ex.Label, verdict, verdicts[ex.Label])
			continue
		}
		issues := eval[int](t, b, `document.querySelectorAll('#result li.issue').length`)
		marked := eval[int](t, b, `document.querySelectorAll('#result a.mark-link').length`)
		unmarked := eval[[]string](t, b, `Array.prototype.map.call(document.querySelectorAll('#result li.issue code.loc'), function(c){return c.parentNode.textContent})`)
		t.Logf("%s: %s, %d issues, %d marked", ex.Label, verdict, issues, marked)
		if marked != issues || len(unmarked) != 0 {
			t.Errorf("%s: %d of %d issues marked; not marked: %q", ex.Label, marked, issues, unmarked)
		}
		if *screenshots && ex.Label == "Code quality" {
			if err := chromedp.Do(b.ctx, chromedp.EmulateViewport(1280, 1000), chromedp.Evaluate[chromedp.Void](`document.getElementById('marked-output').scrollIntoView()`)); err != nil {
				t.Fatal(err)
			}
			png, err := chromedp.Run(b.ctx, chromedp.CaptureScreenshot())
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join("..", "docs", "img", "console-playground-code.png"), png, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	b.checkOrigin(t, origin)
}

// TestBrowserPlaygroundLimits: a request over the server's body limit is
// refused on the page and never sent; a malformed field is named and
// focused; a request the server refuses (a rule that does not compile)
// shows its problem with the field's location.
func TestBrowserPlaygroundLimits(t *testing.T) {
	origin := serveConsoleLimit(t, "", 2048)
	b := newBrowser(t)
	reqs := recordRequests(t, b)
	b.visit(t, origin, "/")
	b.typeInto(t, "Output", `{"text": "`+strings.Repeat("a", 3000)+`"}`)
	b.click(t, "button", "Validate")
	b.wait(t, `document.querySelector('#result .problem') !== null`)
	if msg := eval[string](t, b, `document.querySelector('#result .problem').textContent`); !strings.Contains(msg, "over the server's limit of 2048 bytes") {
		t.Errorf("over the limit: %q", msg)
	}
	b.typeInto(t, "Output", `{"a": 1}`)
	b.typeInto(t, "Schema", `{"type": "object",}`)
	b.click(t, "button", "Validate")
	b.wait(t, `document.querySelector('#result .problem').textContent.indexOf('Schema is not valid JSON') === 0`)
	if id := b.activeID(t); id != "f-schema" {
		t.Errorf("focus on %q after a malformed schema, want the Schema field", id)
	}
	b.typeInto(t, "Schema", `{"type": "object"}`)
	b.typeInto(t, "Criteria", `[{"id": "bad", "rule": "output.a >"}]`)
	b.click(t, "button", "Validate")
	b.wait(t, `document.getElementById('result').hasAttribute('data-elapsed-ms')`)
	msg := eval[string](t, b, `document.querySelector('#result .problem').textContent`)
	if !strings.Contains(msg, "400") || !strings.Contains(msg, "acceptance_criteria[0].rule") {
		t.Errorf("a rule that does not compile: %q", msg)
	}
	posts := 0
	for _, r := range reqs() {
		if r.method == http.MethodPost {
			posts++
		}
	}
	if posts != 1 {
		t.Errorf("%d POSTs, want only the last request's", posts)
	}
	b.checkOrigin(t, origin, http.StatusBadRequest)
}
