package console

import (
	"crypto/sha256"
	_ "embed"
	"encoding/base64"
	"fmt"
	"html/template"
	"io"
	"strings"
)

//go:embed assets/report.css
var reportCSS string

//go:embed assets/report.js
var reportJS string

//go:embed assets/common.html
var commonHTML string

//go:embed assets/trace.html
var traceHTML string

//go:embed assets/lint.html
var lintHTML string

// page is what every report page carries besides its content: its title,
// its inlined style and script, and the policy that allows just them.
type page struct {
	Title string
	CSP   string
	CSS   template.CSS
	JS    template.JS
}

// newPage returns the page parts of a report titled title.
func newPage(title string) page {
	return page{Title: title, CSP: csp(reportCSS, reportJS), CSS: template.CSS(reportCSS), JS: template.JS(reportJS)}
}

// csp is the Content-Security-Policy of a page whose only style and
// script are the inline css and js: nothing else loads, nothing is sent,
// no form posts, no frame, no base URL.
func csp(css, js string) string {
	return fmt.Sprintf("default-src 'none'; style-src '%s'; script-src '%s'; img-src data:; base-uri 'none'; form-action 'none'", hash(css), hash(js))
}

// hash is a CSP source for an inline element whose text is s.
func hash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return "sha256-" + base64.StdEncoding.EncodeToString(sum[:])
}

// execute renders the template name of t with data to w, through a buffer
// so that a template error leaves w untouched.
func execute(w io.Writer, t *template.Template, name string, data any) error {
	var sb strings.Builder
	if err := t.ExecuteTemplate(&sb, name, data); err != nil {
		return fmt.Errorf("console: %w", err)
	}
	if _, err := io.WriteString(w, sb.String()); err != nil {
		return fmt.Errorf("console: %w", err)
	}
	return nil
}

// bar is one bar of a horizontal bar chart.
type bar struct {
	Label string
	N     float64
	// Text is N as written beside the bar.
	Text string
	// Y is the bar's top and W its width, in the chart's units.
	Y, W float64
}

// chart is a horizontal bar chart drawn in SVG, with the table of its
// numbers for those who do not see it.
type chart struct {
	ID, Title string
	// Unit names what N counts, for the table's header.
	Unit   string
	Bars   []bar
	Height float64
}

// Dimensions of a chart, in SVG user units (the SVG scales to its box).
const (
	chartLabelW = 230.0
	chartBarW   = 180.0
	chartRowH   = 22.0
)

// newChart lays out bars (their Label, N and Text set) as a chart.
func newChart(id, title, unit string, bars []bar) chart {
	maxN := 0.0
	for _, b := range bars {
		maxN = max(maxN, b.N)
	}
	for i := range bars {
		bars[i].Y = float64(i) * chartRowH
		if maxN > 0 {
			bars[i].W = chartBarW * bars[i].N / maxN
		}
		if bars[i].Text == "" {
			bars[i].Text = fmt.Sprint(bars[i].N)
		}
	}
	return chart{ID: id, Title: title, Unit: unit, Bars: bars, Height: max(float64(len(bars))*chartRowH, chartRowH)}
}

// parse parses the common templates and text, a report's own.
func parse(text string) (*template.Template, error) {
	t, err := template.New("common").Funcs(funcs()).Parse(commonHTML)
	if err != nil {
		return nil, fmt.Errorf("console: %w", err)
	}
	if t, err = t.Parse(text); err != nil {
		return nil, fmt.Errorf("console: %w", err)
	}
	return t, nil
}

// funcs are the template functions of the reports.
func funcs() template.FuncMap {
	m := template.FuncMap{
		"add":         func(a, b float64) float64 { return a + b },
		"addi":        func(a, b int) int { return a + b },
		"chartLabelW": func() float64 { return chartLabelW },
		"chartBarW":   func() float64 { return chartBarW },
		"textY":       func(y float64) float64 { return y + chartRowH*0.68 },
		"barH":        func() float64 { return chartRowH - 6 },
		"barY":        func(y float64) float64 { return y + 3 },
		"plural": func(n int, one, many string) string {
			if n == 1 {
				return one
			}
			return many
		},
	}
	for k, f := range seriesFuncs() {
		m[k] = f
	}
	return m
}
