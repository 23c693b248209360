package console

// The shell of the pages judge serve serves (the playground, the
// dashboard, the traces page). A page is made of:
//
//   - its template, parsed with parseShell, that writes
//     {{template "shell-head" .Shell}} (doctype, head, policy, styles),
//     {{template "shell-top" .Shell}} (body, skip link, header, nav),
//     its own <main id="main"> and {{template "shell-end" .Shell}} (the API
//     key dialog, the scripts, the end of the document);
//   - its shell, newShell(path, title, css, js...): the page's own style and
//     script are inlined after report.css, console.css and api.js, each
//     allowed by its hash, nothing else (connect-src 'self' for the API);
//   - renderPage, which renders it, and writePage, which answers with it
//     and its headers (the shell's HeaderCSP among them).
//
// The page's script calls the API through judgeAPI (assets/api.js: the
// bearer key asked for on a 401 and kept in the tab's sessionStorage).
// Pages hold no data: they are served without the key, every data call
// carries it.

import (
	_ "embed"
	"fmt"
	"html/template"
	"net/http"
	"strings"
)

//go:embed assets/shell.html
var shellHTML string

//go:embed assets/console.css
var consoleCSS string

//go:embed assets/api.js
var apiJS string

// navItem is one link of the console's nav.
type navItem struct {
	Path, Label string
	Current     bool
}

// navItems are the links of the console's nav, in order, the one to the
// page at path marked current.
func navItems(path string) []navItem {
	items := []navItem{{Path: "/", Label: "Playground"}, {Path: "/dashboard", Label: "Dashboard"}, {Path: "/traces", Label: "Traces"}}
	for i := range items {
		items[i].Current = items[i].Path == path
	}
	return items
}

// shell is what every page served by judge serve carries besides its
// content: its title, the nav with the page's own link marked, its
// inlined styles and scripts (report.css, console.css and the page's;
// api.js and the page's) and the policy that allows just them, plus
// requests to the server itself (connect-src 'self').
type shell struct {
	Title string
	// CSP is the policy of the page's meta element; HeaderCSP, sent as a
	// header, adds frame-ancestors (which a meta element cannot carry).
	CSP, HeaderCSP string
	CSS            []template.CSS
	JS             []template.JS
	Nav            []navItem
}

// newShell returns the shell of the page at path titled title, with its
// own style css (may be empty) and scripts js, in order.
func newShell(path, title, css string, js ...string) shell {
	s := shell{Title: title}
	var styles, scripts []string
	for _, c := range []string{reportCSS, consoleCSS, css} {
		if c != "" {
			s.CSS = append(s.CSS, template.CSS(c))
			styles = append(styles, "'"+hash(c)+"'")
		}
	}
	for _, j := range append([]string{apiJS}, js...) {
		if j != "" {
			s.JS = append(s.JS, template.JS(j))
			scripts = append(scripts, "'"+hash(j)+"'")
		}
	}
	s.Nav = navItems(path)
	s.CSP = fmt.Sprintf("default-src 'none'; style-src %s; script-src %s; connect-src 'self'; img-src data:; base-uri 'none'; form-action 'none'",
		strings.Join(styles, " "), strings.Join(scripts, " "))
	s.HeaderCSP = s.CSP + "; frame-ancestors 'none'"
	return s
}

// parseShell parses the shell's templates, the reports' common ones and
// text, a page's own.
func parseShell(text string) (*template.Template, error) {
	t, err := parse(shellHTML)
	if err != nil {
		return nil, err
	}
	if t, err = t.Parse(text); err != nil {
		return nil, fmt.Errorf("console: %w", err)
	}
	return t, nil
}

// renderPage renders the page of template name of t with data.
func renderPage(t *template.Template, name string, data any) ([]byte, error) {
	var sb strings.Builder
	if err := t.ExecuteTemplate(&sb, name, data); err != nil {
		return nil, fmt.Errorf("console: %w", err)
	}
	return []byte(sb.String()), nil
}

// writePage answers r with page, whose policy is csp (a shell's
// HeaderCSP): the policy is sent as a header too (where frame-ancestors
// takes effect), nothing is cached, and the page is never framed or
// sniffed. A HEAD gets the headers only.
func writePage(w http.ResponseWriter, r *http.Request, csp string, page []byte) {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Security-Policy", csp)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cache-Control", "no-store")
	h.Set("Cross-Origin-Opener-Policy", "same-origin")
	if r.Method == http.MethodHead {
		return
	}
	_, _ = w.Write(page)
}
