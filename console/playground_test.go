package console

import (
	"html"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/agentjudge/judge/examples"
)

// playgroundPage serves the playground with fixed options and returns
// its answer and its body.
func playgroundPage(t *testing.T, method string) (*http.Response, string) {
	t.Helper()
	h, err := Playground(PlaygroundOptions{Types: []string{"schema", "criteria", "facts", "hallucination", "quality"}, MaxBodyBytes: 10 << 20})
	if err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(method, "/", nil))
	resp := rec.Result()
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, string(body)
}

// TestPlaygroundGolden locks the page's HTML.
func TestPlaygroundGolden(t *testing.T) {
	t.Parallel()
	_, page := playgroundPage(t, http.MethodGet)
	golden(t, "playground.golden.html", []byte(page))
}

// TestPlaygroundPolicy: the page's inline styles and scripts, and only
// they, are allowed by their hashes, in the meta element and in the
// header (which also forbids framing); nothing else loads, requests go
// to the server itself only; the headers forbid caching and sniffing,
// and a HEAD gets them with no body.
func TestPlaygroundPolicy(t *testing.T) {
	t.Parallel()
	resp, page := playgroundPage(t, http.MethodGet)
	m := regexp.MustCompile(`<meta http-equiv="Content-Security-Policy" content="([^"]*)">`).FindStringSubmatch(page)
	if m == nil {
		t.Fatal("no Content-Security-Policy meta")
	}
	meta := html.UnescapeString(m[1])
	if got := resp.Header.Get("Content-Security-Policy"); got != meta+"; frame-ancestors 'none'" {
		t.Errorf("header policy %q, want the meta's %q and frame-ancestors 'none'", got, meta)
	}
	var styles, scripts []string
	for _, b := range regexp.MustCompile(`(?s)<style>(.*?)</style>`).FindAllStringSubmatch(page, -1) {
		styles = append(styles, "'"+hash(b[1])+"'")
	}
	for _, b := range regexp.MustCompile(`(?s)<script>(.*?)</script>`).FindAllStringSubmatch(page, -1) {
		scripts = append(scripts, "'"+hash(b[1])+"'")
	}
	if len(scripts) != 3 || strings.Count(page, "<script") != 3 {
		t.Errorf("%d inline scripts, want api.js, locate.js and playground.js", len(scripts))
	}
	want := "default-src 'none'; style-src " + strings.Join(styles, " ") + "; script-src " + strings.Join(scripts, " ") +
		"; connect-src 'self'; img-src data:; base-uri 'none'; form-action 'none'"
	if meta != want {
		t.Errorf("policy\n%s\nwant\n%s", meta, want)
	}
	for k, v := range map[string]string{"Content-Type": "text/html; charset=utf-8", "X-Content-Type-Options": "nosniff", "Cache-Control": "no-store", "Referrer-Policy": "no-referrer"} {
		if got := resp.Header.Get(k); got != v {
			t.Errorf("%s: %q, want %q", k, got, v)
		}
	}
	head, body := playgroundPage(t, http.MethodHead)
	if body != "" || head.Header.Get("Content-Security-Policy") == "" {
		t.Errorf("HEAD: %d bytes of body, policy %q", len(body), head.Header.Get("Content-Security-Policy"))
	}
}

// TestPlaygroundExamples: every example's files are those of examples/,
// carried by its button as they are on disk, and the fields are
// labelled as the API names them.
func TestPlaygroundExamples(t *testing.T) {
	t.Parallel()
	_, page := playgroundPage(t, http.MethodGet)
	buttons := regexp.MustCompile(`<button type="button" class="example" data-output="([^"]*)" data-schema="([^"]*)" data-criteria="([^"]*)" data-sources="([^"]*)" data-types="([^"]*)" title="([^"]*)">([^<]*)</button>`).FindAllStringSubmatch(page, -1)
	exs := playgroundExamples()
	if len(buttons) != len(exs) {
		t.Fatalf("%d example buttons, want %d", len(buttons), len(exs))
	}
	for i, ex := range exs {
		b := buttons[i]
		if html.UnescapeString(b[7]) != ex.Label {
			t.Errorf("button %d is %q, want %q", i, b[7], ex.Label)
		}
		for j, name := range []string{ex.Output, ex.Schema, ex.Criteria, ex.Source} {
			want := ""
			if name != "" {
				data, err := fs.ReadFile(examples.FS, name)
				if err != nil {
					t.Fatal(err)
				}
				want = string(data)
				if !strings.Contains(html.UnescapeString(b[6]), "examples/"+name) {
					t.Errorf("%s: the title %q does not name examples/%s", ex.Label, b[6], name)
				}
			}
			if got := html.UnescapeString(b[1+j]); got != want {
				t.Errorf("%s: field %d carries %q, want examples/%s", ex.Label, j, got, name)
			}
		}
		if got := html.UnescapeString(b[5]); got != strings.Join(ex.Types, ",") {
			t.Errorf("%s: types %q", ex.Label, got)
		}
	}
	for _, label := range []string{`<label for="f-output">Output</label>`, `<label for="f-schema">Schema</label>`, `<label for="f-criteria">Criteria</label>`, `<label for="f-sources">Sources</label>`, `id="validate">Validate</button>`} {
		if !strings.Contains(page, label) {
			t.Errorf("the page lacks %s", label)
		}
	}
}

// TestLoadExamplesMissing: an example whose file is not there is an
// error naming it, not a page with an empty field.
func TestLoadExamplesMissing(t *testing.T) {
	t.Parallel()
	sub, err := fs.Sub(examples.FS, "sources")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := loadExamples(sub); err == nil || !strings.Contains(err.Error(), "ticket.json") {
		t.Errorf("loadExamples without the files: %v, want an error naming ticket.json", err)
	}
}
