package console

import (
	"cmp"
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/agentjudge/judge/server/api"
)

//go:embed assets/dashboard.html
var dashboardHTML string

//go:embed assets/dashboard.js
var dashboardJS string

//go:embed assets/dash.css
var dashCSS string

// DashboardOptions configure the dashboard.
type DashboardOptions struct {
	// Snapshot returns what the server has seen (its history, as GET
	// /v1/dashboard answers it); required.
	Snapshot func() api.Dashboard
	// Every is how often the page refreshes its panels; 0 means 10 s.
	Every time.Duration
}

// Dashboard returns the mounts of the dashboard: GET /dashboard, the page
// (public: it holds no data), and GET /dashboard/panels, its panels
// rendered from Snapshot, which the page fetches with the API key and
// again every Every (guarded by the key like the API).
func Dashboard(opts DashboardOptions) (page, panels http.Handler, err error) {
	if opts.Snapshot == nil {
		return nil, nil, fmt.Errorf("console: the dashboard needs a Snapshot")
	}
	if opts.Every <= 0 {
		opts.Every = 10 * time.Second
	}
	t, err := parseShell(dashboardHTML)
	if err != nil {
		return nil, nil, err
	}
	sh := newShell("/dashboard", "Dashboard", dashCSS, dashboardJS)
	html, err := renderPage(t, "dashboard", dashboardPage{Shell: sh, Every: int(opts.Every / time.Second)})
	if err != nil {
		return nil, nil, err
	}
	page = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writePage(w, r, sh.HeaderCSP, html)
	})
	panels = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var sb strings.Builder
		if err := t.ExecuteTemplate(&sb, "panels", buildDashboard(opts.Snapshot())); err != nil {
			http.Error(w, "the panels could not be rendered", http.StatusInternalServerError)
			return
		}
		h := w.Header()
		h.Set("Content-Type", "text/html; charset=utf-8")
		h.Set("Content-Security-Policy", "default-src 'none'")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Cache-Control", "no-store")
		_, _ = w.Write([]byte(sb.String()))
	})
	return page, panels, nil
}

// WriteDashboard writes the panels of d, as GET /dashboard/panels does.
func WriteDashboard(w io.Writer, d api.Dashboard) error {
	t, err := parseShell(dashboardHTML)
	if err != nil {
		return err
	}
	return execute(w, t, "panels", buildDashboard(d))
}

// dashboardPage is the page's data.
type dashboardPage struct {
	Shell shell
	// Every is the refresh period in seconds.
	Every int
}

// dashView is the panels' data.
type dashView struct {
	Updated string
	From    string
	Stats   []stat
	Series  []series
	Charts  []chart
	Layers  []layerRow
	Types   []typeRow
	Calls   bool
}

// layerRow is one layer of the layers table.
type layerRow struct {
	Layer                string
	Runs, Failed         int
	MeanMS               string
	Error, Warning, Info int
}

// typeRow is one issue type of the types table.
type typeRow struct {
	Type                 string
	Error, Warning, Info int
	Total                int
}

// series is a chart of one number per minute over the window, drawn as
// columns, with the table of its non-zero minutes.
type series struct {
	ID, Title, Unit string
	// Summary says in words what the chart shows: the total and the peak.
	Summary string
	Cols    []col
	// Max is the top of the scale as written.
	Max   string
	Ticks []tick
}

// col is one minute's column.
type col struct {
	X, Y, H float64
	Minute  string
	Text    string
}

// tick is a label of the time axis.
type tick struct {
	X     float64
	Label string
}

// Dimensions of a series chart, in SVG user units.
const (
	seriesLeft  = 44.0
	seriesColW  = 2.0
	seriesH     = 110.0
	seriesTop   = 8.0
	seriesTotal = seriesLeft + 360*seriesColW + 24
)

// newSeries lays out the values of the minutes of d (value returns a
// minute's number and whether it has one) as a series chart.
func newSeries(d api.Dashboard, id, title, unit string, value func(api.Counts) (float64, bool), format func(float64) string) series {
	s := series{ID: id, Title: title, Unit: unit}
	var total, peak float64
	peakAt := ""
	type point struct {
		i int
		v float64
		m time.Time
	}
	var pts []point
	for _, m := range d.Minutes {
		v, ok := value(m.Counts)
		if !ok || v == 0 {
			continue
		}
		i := int(m.Start.Sub(d.Start) / time.Minute)
		if i < 0 || i >= d.Window {
			continue
		}
		pts = append(pts, point{i, v, m.Start})
		total += v
		if v > peak {
			peak, peakAt = v, m.Start.Format("15:04")
		}
	}
	s.Max = format(peak)
	for _, p := range pts {
		h := seriesH * p.v / peak
		s.Cols = append(s.Cols, col{X: seriesLeft + float64(p.i)*seriesColW, Y: seriesTop + seriesH - h, H: h, Minute: p.m.Format("15:04"), Text: format(p.v)})
	}
	for h := 0; h <= d.Window; h += 60 {
		s.Ticks = append(s.Ticks, tick{X: seriesLeft + float64(h)*seriesColW, Label: d.Start.Add(time.Duration(h) * time.Minute).Format("15:04")})
	}
	switch {
	case len(pts) == 0:
		s.Summary = "Nothing in the last 6 hours."
	case unit == "ms":
		s.Summary = fmt.Sprintf("%d %s with validations; the highest, %s ms, at %s UTC.", len(pts), minutes(len(pts)), format(peak), peakAt)
	default:
		s.Summary = fmt.Sprintf("%s in %d %s; the most, %s, at %s UTC.", format(total), len(pts), minutes(len(pts)), format(peak), peakAt)
	}
	return s
}

// minutes is "minute" or "minutes" for n.
func minutes(n int) string {
	if n == 1 {
		return "minute"
	}
	return "minutes"
}

func count(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

func millis(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }

// buildDashboard lays out the panels of d.
func buildDashboard(d api.Dashboard) dashView {
	v := dashView{Updated: d.Now.Format("15:04:05"), From: d.Start.Format("15:04")}
	v.Stats = totalStats(d.Totals)
	v.addRateSeries(d)
	v.addTypePanels(d)
	v.addLayerPanels(d)
	if c := d.Totals.Calls; c != nil {
		v.Calls = true
		v.addCallPanels(d, c)
	}
	return v
}

// totalStats is the table of the whole window's figures.
func totalStats(t api.Counts) []stat {
	share, lat := "–", api.Percentiles{}
	if t.ValidShare != nil {
		share = strconv.FormatFloat(100**t.ValidShare, 'f', 1, 64) + " %"
	}
	if t.LatencyMS != nil {
		lat = *t.LatencyMS
	}
	var sev api.Severities
	for _, s := range t.Issues {
		sev.Error += s.Error
		sev.Warning += s.Warning
		sev.Info += s.Info
	}
	ms := func(x float64) string {
		if t.LatencyMS == nil {
			return "–"
		}
		return millis(x) + " ms"
	}
	stats := []stat{
		{Label: "Validations", N: strconv.Itoa(t.Validations), Note: "POST /validate and /v1/validate answered"},
		{Label: "Valid", N: strconv.Itoa(t.Valid), Note: "results whose output was valid"},
		{Label: "Valid share", N: share, Note: "valid results among the validations"},
		{Label: "Latency p50", N: ms(lat.P50), Note: "half of the validations took less"},
		{Label: "Latency p95", N: ms(lat.P95), Note: "95 in 100 took less"},
		{Label: "Latency p99", N: ms(lat.P99), Note: "99 in 100 took less"},
		{Label: "Errors", N: strconv.Itoa(sev.Error), Note: "issues of severity error, in every result"},
		{Label: "Warnings", N: strconv.Itoa(sev.Warning), Note: "issues of severity warning"},
		{Label: "Notes", N: strconv.Itoa(sev.Info), Note: "issues of severity info"},
	}
	if c := t.Calls; c != nil {
		failed := c.Outcomes["FAILED"]
		outcomes := 0
		for _, n := range c.Outcomes {
			outcomes += n
		}
		stats = append(stats,
			stat{Label: "Tool calls checked", N: strconv.Itoa(c.Checks), Note: "POST /v1/calls/check"},
			stat{Label: "Invalid calls", N: strconv.Itoa(c.Invalid), Note: "calls whose arguments broke the tool's contract"},
			stat{Label: "Outcomes", N: strconv.Itoa(outcomes), Note: "POST /v1/calls/outcome"},
			stat{Label: "Failed outcomes", N: strconv.Itoa(failed), Note: "results classified FAILED"})
	}
	return stats
}

// addRateSeries adds the per-minute charts of validations, latency and
// issues by severity.
func (v *dashView) addRateSeries(d api.Dashboard) {
	v.Series = append(v.Series, newSeries(d, "s-validations", "Validations per minute", "validations", func(c api.Counts) (float64, bool) {
		return float64(c.Validations), true
	}, count))
	v.Series = append(v.Series, newSeries(d, "s-invalid", "Invalid outputs per minute", "validations", func(c api.Counts) (float64, bool) {
		return float64(c.Validations - c.Valid), true
	}, count))
	v.Series = append(v.Series, newSeries(d, "s-p95", "Latency p95 per minute", "ms", func(c api.Counts) (float64, bool) {
		if c.LatencyMS == nil {
			return 0, false
		}
		return c.LatencyMS.P95, true
	}, millis))
	for _, sv := range []struct {
		id, name string
		pick     func(api.Severities) int
	}{{"s-errors", "Errors", func(s api.Severities) int { return s.Error }}, {"s-warnings", "Warnings", func(s api.Severities) int { return s.Warning }}, {"s-info", "Notes", func(s api.Severities) int { return s.Info }}} {
		v.Series = append(v.Series, newSeries(d, sv.id, sv.name+" per minute", "issues", func(c api.Counts) (float64, bool) {
			n := 0
			for _, s := range c.Issues {
				n += sv.pick(s)
			}
			return float64(n), true
		}, count))
	}
}

// addTypePanels adds the table of all issue types and a chart per minute
// of the most frequent.
func (v *dashView) addTypePanels(d api.Dashboard) {
	for name, s := range d.Totals.Issues {
		v.Types = append(v.Types, typeRow{Type: name, Error: s.Error, Warning: s.Warning, Info: s.Info, Total: s.Error + s.Warning + s.Info})
	}
	slices.SortFunc(v.Types, func(a, b typeRow) int { return cmp.Or(b.Total-a.Total, strings.Compare(a.Type, b.Type)) })
	var bars []bar
	for i, tr := range v.Types {
		bars = append(bars, bar{Label: tr.Type, N: float64(tr.Total)})
		if i < 4 {
			name := tr.Type
			v.Series = append(v.Series, newSeries(d, "s-type-"+strconv.Itoa(i), "Issues of type "+name+" per minute", "issues", func(c api.Counts) (float64, bool) {
				s := c.Issues[name]
				return float64(s.Error + s.Warning + s.Info), true
			}, count))
		}
	}
	v.Charts = append(v.Charts, newChart("c-types", "Issues by type", "issues", bars))
}

// addLayerPanels adds the per-layer table and charts, and a chart per
// minute of the layers that reported most.
func (v *dashView) addLayerPanels(d api.Dashboard) {
	var layerBars, timeBars []bar
	for name, l := range d.Totals.Layers {
		v.Layers = append(v.Layers, layerRow{Layer: name, Runs: l.Runs, Failed: l.Failed, MeanMS: millis(l.MeanMS), Error: l.Error, Warning: l.Warning, Info: l.Info})
	}
	slices.SortFunc(v.Layers, func(a, b layerRow) int { return strings.Compare(a.Layer, b.Layer) })
	for _, l := range v.Layers {
		layerBars = append(layerBars, bar{Label: l.Layer, N: float64(l.Error + l.Warning + l.Info)})
		ms, _ := strconv.ParseFloat(l.MeanMS, 64)
		timeBars = append(timeBars, bar{Label: l.Layer, N: ms, Text: l.MeanMS + " ms"})
	}
	v.Charts = append(v.Charts, newChart("c-layers", "Issues by layer", "issues", layerBars), newChart("c-layer-time", "Mean run time by layer", "mean run time", timeBars))
	// The layers that reported most, per minute.
	byIssues := slices.Clone(v.Layers)
	slices.SortStableFunc(byIssues, func(a, b layerRow) int { return (b.Error + b.Warning + b.Info) - (a.Error + a.Warning + a.Info) })
	for i, l := range byIssues {
		if i == 3 || l.Error+l.Warning+l.Info == 0 {
			break
		}
		name := l.Layer
		v.Series = append(v.Series, newSeries(d, "s-layer-"+strconv.Itoa(i), "Issues of the "+name+" layer per minute", "issues", func(c api.Counts) (float64, bool) {
			lc := c.Layers[name]
			return float64(lc.Error + lc.Warning + lc.Info), true
		}, count))
	}
}

// addCallPanels adds the charts of /v1/calls/*: statuses, the tools that
// fail most, and calls per minute.
func (v *dashView) addCallPanels(d api.Dashboard, c *api.CallCounts) {
	var st []bar
	for _, name := range []string{"SATISFIED", "NEEDS_MORE_TOOLS", "NEED_USER_INPUT", "FAILED", "other"} {
		if n, ok := c.Outcomes[name]; ok {
			st = append(st, bar{Label: name, N: float64(n)})
		}
	}
	st = append([]bar{{Label: "valid (checked)", N: float64(c.Checks - c.Invalid)}, {Label: "invalid (checked)", N: float64(c.Invalid)}}, st...)
	var tb []bar
	for _, tc := range c.Tools {
		if tc.Failures == 0 || len(tb) == 10 {
			break
		}
		tb = append(tb, bar{Label: tc.Tool, N: float64(tc.Failures), Text: fmt.Sprintf("%d of %d", tc.Failures, tc.Calls)})
	}
	v.Charts = append(v.Charts, newChart("c-status", "Tool calls by status", "calls", st), newChart("c-tools", "Tools that fail most", "failed calls", tb))
	v.Series = append(v.Series, newSeries(d, "s-calls", "Tool calls per minute", "calls", func(c api.Counts) (float64, bool) {
		if c.Calls == nil {
			return 0, false
		}
		n := c.Calls.Checks
		for _, o := range c.Calls.Outcomes {
			n += o
		}
		return float64(n), true
	}, count))
}

// seriesFuncs are the template functions of the series charts.
func seriesFuncs() template.FuncMap {
	return template.FuncMap{
		"seriesLeft":  func() float64 { return seriesLeft },
		"seriesTotal": func() float64 { return seriesTotal },
		"seriesBase":  func() float64 { return seriesTop + seriesH },
		"seriesTop":   func() float64 { return seriesTop },
		"seriesColW":  func() float64 { return seriesColW - 0.3 },
	}
}
