package server

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// scrape reads /metrics and parses it.
func scrape(t *testing.T, r response) map[string]*dto.MetricFamily {
	t.Helper()
	if r.status != http.StatusOK {
		t.Fatalf("GET /metrics: %d %s", r.status, r.body)
	}
	if ct := r.header.Get("Content-Type"); !strings.HasPrefix(ct, "text/plain") {
		t.Errorf("Content-Type %q", ct)
	}
	p := expfmt.NewTextParser(model.UTF8Validation)
	mfs, err := p.TextToMetricFamilies(strings.NewReader(string(r.body)))
	if err != nil {
		t.Fatalf("parsing the exposition: %v\n%s", err, r.body)
	}
	return mfs
}

// find returns the metric of family name whose labels include want.
func find(mfs map[string]*dto.MetricFamily, name string, want map[string]string) *dto.Metric {
	mf := mfs[name]
	if mf == nil {
		return nil
	}
next:
	for _, m := range mf.GetMetric() {
		got := map[string]string{}
		for _, lp := range m.GetLabel() {
			got[lp.GetName()] = lp.GetValue()
		}
		for k, v := range want {
			if got[k] != v {
				continue next
			}
		}
		return m
	}
	return nil
}

func TestMetrics(t *testing.T) {
	t.Parallel()
	_, ts := newTestServer(t, Options{})
	// Series are counted again once cached: three and two of the same.
	for range 3 {
		mustResult(t, do(t, ts, http.MethodPost, "/validate", `{"output": {"name": "Ada"}, "expected_schema": `+personSchema+`}`, nil))
	}
	for range 2 {
		mustResult(t, do(t, ts, http.MethodPost, "/v1/validate", `{"output": {"name": "Ada", "age": 3}, "expected_schema": `+personSchema+`}`, nil))
	}
	do(t, ts, http.MethodPost, "/validate", `{`, nil)
	do(t, ts, http.MethodGet, "/no/such/route", "", nil)
	do(t, ts, "BREW", "/healthz", "", nil)
	mfs := scrape(t, do(t, ts, http.MethodGet, "/metrics", "", nil))

	counters := []struct {
		name   string
		labels map[string]string
		want   float64
	}{
		{MetricRequests, map[string]string{"route": "/validate", "method": "POST", "code": "200"}, 3},
		{MetricRequests, map[string]string{"route": "/v1/validate", "method": "POST", "code": "200"}, 2},
		{MetricRequests, map[string]string{"route": "/validate", "method": "POST", "code": "400"}, 1},
		{MetricRequests, map[string]string{"route": unmatched, "method": "GET", "code": "404"}, 1},
		{MetricRequests, map[string]string{"route": "/healthz", "method": "OTHER", "code": "405"}, 1},
		{MetricValidations, map[string]string{"valid": "false"}, 3},
		{MetricValidations, map[string]string{"valid": "true"}, 2},
		{MetricIssues, map[string]string{"type": "missing_field", "severity": "error"}, 3},
	}
	for _, c := range counters {
		m := find(mfs, c.name, c.labels)
		if m == nil {
			t.Errorf("no %s%v", c.name, c.labels)
			continue
		}
		if got := m.GetCounter().GetValue(); got != c.want {
			t.Errorf("%s%v = %v, want %v", c.name, c.labels, got, c.want)
		}
	}
	h := find(mfs, MetricRequestDuration, map[string]string{"route": "/validate"})
	if h == nil || h.GetHistogram().GetSampleCount() != 4 {
		t.Errorf("%s{route=/validate} = %v, want 4 samples", MetricRequestDuration, h)
	}
	if mfs[MetricRequestsInFlight] == nil || mfs["go_goroutines"] == nil {
		t.Errorf("in-flight gauge or Go collector missing")
	}
}

// TestMetricsPerServer checks that two servers in one process keep their
// own counts.
func TestMetricsPerServer(t *testing.T) {
	t.Parallel()
	_, a := newTestServer(t, Options{})
	_, b := newTestServer(t, Options{})
	do(t, a, http.MethodGet, "/healthz", "", nil)
	do(t, a, http.MethodGet, "/healthz", "", nil)
	do(t, b, http.MethodGet, "/healthz", "", nil)
	for _, c := range []struct {
		ts   *httptest.Server
		want float64
	}{{a, 2}, {b, 1}} {
		m := find(scrape(t, do(t, c.ts, http.MethodGet, "/metrics", "", nil)), MetricRequests, map[string]string{"route": "/healthz", "code": "200"})
		if m.GetCounter().GetValue() != c.want {
			t.Errorf("healthz count %v, want %v", m.GetCounter().GetValue(), c.want)
		}
	}
}
