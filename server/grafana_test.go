package server

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// grafanaMetric matches the metric names a query of the Grafana
// dashboard uses: judge's own and the Go and process collectors'.
var grafanaMetric = regexp.MustCompile(`\b(?:judge|process|go)_[a-z0-9_]+\b`)

// TestGrafanaDashboard parses docs/grafana/judge-dashboard.json and
// checks that every metric name its queries and variables use is one
// that /metrics exports after a validation, a tool-call check and an
// outcome; a histogram's _bucket, _sum and _count series count as its
// family.
func TestGrafanaDashboard(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(filepath.Join("..", "docs", "grafana", "judge-dashboard.json"))
	if err != nil {
		t.Fatal(err)
	}
	var dash struct {
		Title  string `json:"title"`
		Panels []struct {
			Title   string `json:"title"`
			Targets []struct {
				Expr string `json:"expr"`
			} `json:"targets"`
		} `json:"panels"`
		Templating struct {
			List []struct {
				Query any `json:"query"`
			} `json:"list"`
		} `json:"templating"`
	}
	if err := json.Unmarshal(data, &dash); err != nil {
		t.Fatalf("the dashboard is not JSON: %v", err)
	}
	if dash.Title == "" || len(dash.Panels) < 10 {
		t.Fatalf("dashboard %q has %d panels", dash.Title, len(dash.Panels))
	}
	var queries []string
	for _, p := range dash.Panels {
		if len(p.Targets) == 0 {
			t.Errorf("panel %q has no query", p.Title)
		}
		for _, tg := range p.Targets {
			queries = append(queries, tg.Expr)
		}
	}
	for _, v := range dash.Templating.List {
		if q, ok := v.Query.(string); ok {
			queries = append(queries, q)
		}
	}

	_, ts := newTestServer(t, Options{})
	mustResult(t, do(t, ts, http.MethodPost, "/validate", `{"output": {"name": "Ada"}, "expected_schema": `+personSchema+`}`, nil))
	tools := specTools(t)
	checkAnswer(t, do(t, ts, http.MethodPost, "/v1/calls/check", `{"tool": "home_assistant", "arguments": {"action": "call_tool"}, "tools": `+tools+`}`, nil))
	checkAnswer(t, do(t, ts, http.MethodPost, "/v1/calls/outcome", `{"tool": "get_events", "arguments": {"action": "by_ids", "ids": ["e1"]}, "result": {"content": [{"type": "text", "text": "calendar offline"}], "isError": true}, "tools": `+tools+`}`, nil))
	do(t, ts, http.MethodPost, "/validate", `{`, nil)
	mfs := scrape(t, do(t, ts, http.MethodGet, "/metrics", "", nil))

	used := map[string]bool{}
	for _, q := range queries {
		for _, name := range grafanaMetric.FindAllString(q, -1) {
			used[name] = true
		}
	}
	if len(used) < 8 {
		t.Fatalf("only %d metric names in the queries: %v", len(used), used)
	}
	for name := range used {
		family := name
		if mfs[family] == nil {
			for _, suffix := range []string{"_bucket", "_sum", "_count"} {
				if base, ok := strings.CutSuffix(name, suffix); ok && mfs[base] != nil {
					family = base
				}
			}
		}
		if mfs[family] == nil {
			var have []string
			for k := range mfs {
				have = append(have, k)
			}
			slices.Sort(have)
			t.Errorf("the dashboard queries %s, which /metrics does not export; it exports %v", name, have)
		}
	}
}
