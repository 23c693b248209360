package server

import (
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/agentjudge/judge"
	"github.com/agentjudge/judge/layer"
	"github.com/agentjudge/judge/result"
)

// Metric names, all in the server's own registry.
const (
	MetricRequests         = "judge_http_requests_total"
	MetricRequestDuration  = "judge_http_request_duration_seconds"
	MetricRequestsInFlight = "judge_http_requests_in_flight"
	MetricIssues           = "judge_validation_issues_total"
	MetricValidations      = "judge_validations_total"
	// MetricCacheBytes and MetricCacheEntries give, by cache ("schema",
	// "criteria", "sources"), the bytes charged to its entries and their
	// number; MetricCacheBudget is their byte budget together
	// (judge.WithCacheBytes); MetricCacheEvictions counts the entries
	// dropped to stay within it.
	// MetricLayerRuns counts the validation layers' runs, by layer and
	// whether the run failed; MetricLayerDuration is their run time, by
	// layer; MetricLayerIssues counts the issues each layer reported, by
	// layer, type and severity.
	MetricLayerRuns     = "judge_layer_runs_total"
	MetricLayerDuration = "judge_layer_duration_seconds"
	MetricLayerIssues   = "judge_layer_issues_total"
	// MetricToolCalls counts the tool calls of /v1/calls/check (endpoint
	// "check", status "valid" or "invalid") and /v1/calls/outcome
	// (endpoint "outcome", status SATISFIED, NEEDS_MORE_TOOLS,
	// NEED_USER_INPUT or FAILED), by tool: the first
	// history.ToolLimit (50) tool names the server sees, every later one
	// as "other".
	MetricToolCalls      = "judge_tool_calls_total"
	MetricCacheBytes     = "judge_cache_bytes"
	MetricCacheEntries   = "judge_cache_entries"
	MetricCacheBudget    = "judge_cache_budget_bytes"
	MetricCacheEvictions = "judge_cache_evictions_total"
)

// unmatched is the route label of requests to a path no route serves, so
// that arbitrary paths cannot grow the label set.
const unmatched = "unmatched"

// metrics are one Server's Prometheus collectors and their registry.
type metrics struct {
	reg         *prometheus.Registry
	requests    *prometheus.CounterVec
	duration    *prometheus.HistogramVec
	inFlight    prometheus.Gauge
	issues      *prometheus.CounterVec
	validations *prometheus.CounterVec
	// layerRuns, layerDuration and layerIssues are the per-layer series;
	// toolCalls the tool-call series.
	layerRuns     *prometheus.CounterVec
	layerDuration *prometheus.HistogramVec
	layerIssues   *prometheus.CounterVec
	toolCalls     *prometheus.CounterVec
	handler       http.Handler
	// layers and layerIssueOf cache the children of the per-layer series
	// (keys are bounded like the labels), so that counting a layer run
	// does not hash its labels each time.
	layers       sync.Map // layer label → *layerSeries
	layerIssueOf sync.Map // layerIssueKey → prometheus.Counter
	// valid and invalid are judge_validations_total's two series;
	// series caches the children of the request and issue series as
	// layers does, in a map read under a lock (a sync.Map would box each
	// key it is asked for: an allocation a request).
	valid, invalid prometheus.Counter
	seriesMu       sync.RWMutex
	requestOf      map[requestKey]requestSeries
	issueOf        map[issueKey]prometheus.Counter
}

// requestKey are the labels of one request series (the status as a
// number, whose label strconv.Itoa makes once).
type requestKey struct {
	route, method string
	status        int
}

// requestSeries are the series of one requestKey.
type requestSeries struct {
	count    prometheus.Counter
	duration prometheus.Observer
}

// issueKey are the labels of one issue series.
type issueKey struct {
	typ result.Type
	sev result.Severity
}

// layerSeries are the series of one layer.
type layerSeries struct {
	ok, failed prometheus.Counter
	duration   prometheus.Observer
}

// layerIssueKey are the labels of one layer issue series.
type layerIssueKey struct {
	layer string
	typ   result.Type
	sev   result.Severity
}

// cacheCollector exports the engine's cache statistics when scraped.
type cacheCollector struct {
	stats                             func() ([]layer.CacheStats, int64)
	bytes, entries, budget, evictions *prometheus.Desc
}

func newCacheCollector(stats func() ([]layer.CacheStats, int64)) *cacheCollector {
	return &cacheCollector{
		stats:     stats,
		bytes:     prometheus.NewDesc(MetricCacheBytes, "Bytes charged to the entries of an engine cache (an estimate of the memory they hold), by cache.", []string{"cache"}, nil),
		entries:   prometheus.NewDesc(MetricCacheEntries, "Entries of an engine cache, by cache.", []string{"cache"}, nil),
		budget:    prometheus.NewDesc(MetricCacheBudget, "Byte budget of the engine's caches together.", nil, nil),
		evictions: prometheus.NewDesc(MetricCacheEvictions, "Entries evicted from an engine cache to stay within its budget or entry count, by cache.", []string{"cache"}, nil),
	}
}

func (c *cacheCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- c.bytes
	ch <- c.entries
	ch <- c.budget
	ch <- c.evictions
}

func (c *cacheCollector) Collect(ch chan<- prometheus.Metric) {
	caches, budget := c.stats()
	ch <- prometheus.MustNewConstMetric(c.budget, prometheus.GaugeValue, float64(budget))
	for _, s := range caches {
		ch <- prometheus.MustNewConstMetric(c.bytes, prometheus.GaugeValue, float64(s.Bytes), s.Name)
		ch <- prometheus.MustNewConstMetric(c.entries, prometheus.GaugeValue, float64(s.Entries), s.Name)
		ch <- prometheus.MustNewConstMetric(c.evictions, prometheus.CounterValue, float64(s.Evictions), s.Name)
	}
}

func newMetrics(cacheStats func() ([]layer.CacheStats, int64)) *metrics {
	m := &metrics{
		reg: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: MetricRequests,
			Help: "HTTP requests answered, by route, method and status code.",
		}, []string{"route", "method", "code"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    MetricRequestDuration,
			Help:    "Time to answer an HTTP request, by route, in seconds.",
			Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60},
		}, []string{"route"}),
		inFlight: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: MetricRequestsInFlight,
			Help: "HTTP requests being answered.",
		}),
		issues: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: MetricIssues,
			Help: "Issues reported in validation results, by issue type and severity.",
		}, []string{"type", "severity"}),
		validations: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: MetricValidations,
			Help: "Validation results returned, by whether the output was valid.",
		}, []string{"valid"}),
		layerRuns: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: MetricLayerRuns,
			Help: "Validation layer runs, by layer and whether the run failed (an error, a panic or its deadline).",
		}, []string{"layer", "failed"}),
		layerDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    MetricLayerDuration,
			Help:    "Run time of a validation layer, by layer, in seconds.",
			Buckets: []float64{.0001, .00025, .0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30},
		}, []string{"layer"}),
		layerIssues: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: MetricLayerIssues,
			Help: "Issues reported by validation layers, by layer, issue type and severity.",
		}, []string{"layer", "type", "severity"}),
		toolCalls: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: MetricToolCalls,
			Help: "Tool calls checked before execution (endpoint check, status valid or invalid) and outcomes classified after it (endpoint outcome, status SATISFIED, NEEDS_MORE_TOOLS, NEED_USER_INPUT or FAILED), by tool: the first 50 tool names seen, the rest as other.",
		}, []string{"endpoint", "tool", "status"}),
	}
	m.reg.MustRegister(m.requests, m.duration, m.inFlight, m.issues, m.validations, m.layerRuns, m.layerDuration, m.layerIssues, m.toolCalls, newCacheCollector(cacheStats),
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	// Both outcomes are exported from the start, at 0.
	m.valid = m.validations.WithLabelValues("true")
	m.invalid = m.validations.WithLabelValues("false")
	m.requestOf, m.issueOf = map[requestKey]requestSeries{}, map[issueKey]prometheus.Counter{}
	m.handler = promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{
		ErrorHandling: promhttp.ContinueOnError,
		Registry:      m.reg,
	})
	return m
}

// Begin counts a request being answered.
func (m *metrics) Begin() { m.inFlight.Inc() }

// End counts one answered request.
func (m *metrics) End(route, method string, status int, d time.Duration) {
	m.inFlight.Dec()
	key := requestKey{route, methodLabel(method), status}
	// route and method are bounded labels, and net/http writes only
	// three-digit statuses: the map is as bounded as the series.
	rs := seriesOf(&m.seriesMu, m.requestOf, key, func() requestSeries {
		return requestSeries{m.requests.WithLabelValues(route, key.method, strconv.Itoa(status)), m.duration.WithLabelValues(route)}
	})
	rs.count.Inc()
	rs.duration.Observe(d.Seconds())
}

// seriesOf returns of[key], made by mk and kept under mu the first time
// it is asked for.
func seriesOf[K comparable, V any](mu *sync.RWMutex, of map[K]V, key K, mk func() V) V {
	mu.RLock()
	v, ok := of[key]
	mu.RUnlock()
	if !ok {
		v = mk()
		mu.Lock()
		of[key] = v
		mu.Unlock()
	}
	return v
}

// observeResult counts one validation result and its issues.
func (m *metrics) observeResult(r *result.ValidationResult) {
	if r.Valid {
		m.valid.Inc()
	} else {
		m.invalid.Inc()
	}
	for _, is := range r.Issues {
		key := issueKey{result.Type(issueType(is.Type)), is.Severity}
		seriesOf(&m.seriesMu, m.issueOf, key, func() prometheus.Counter {
			return m.issues.WithLabelValues(string(key.typ), string(key.sev))
		}).Inc()
	}
}

// issueType is the type label of an issue: its type when registered,
// "other" otherwise.
func issueType(t result.Type) string {
	if _, ok := result.Lookup(t); !ok {
		return "other"
	}
	return string(t)
}

// observeLayer counts one layer run; layer is its bounded label.
func (m *metrics) observeLayer(layer string, run judge.LayerRun) {
	ls, ok := m.layers.Load(layer)
	if !ok {
		ls, _ = m.layers.LoadOrStore(layer, &layerSeries{
			ok:       m.layerRuns.WithLabelValues(layer, "false"),
			failed:   m.layerRuns.WithLabelValues(layer, "true"),
			duration: m.layerDuration.WithLabelValues(layer),
		})
	}
	l := ls.(*layerSeries)
	if run.Failed {
		l.failed.Inc()
	} else {
		l.ok.Inc()
	}
	l.duration.Observe(run.Duration.Seconds())
	for _, is := range run.Issues {
		typ := result.Type(issueType(is.Type))
		key := layerIssueKey{layer: layer, typ: typ, sev: is.Severity}
		c, ok := m.layerIssueOf.Load(key)
		if !ok {
			c, _ = m.layerIssueOf.LoadOrStore(key, m.layerIssues.WithLabelValues(layer, string(typ), string(is.Severity)))
		}
		c.(prometheus.Counter).Inc()
	}
}

// observeCall counts one tool call of endpoint ("check" or "outcome");
// tool is its bounded label.
func (m *metrics) observeCall(endpoint, tool, status string) {
	m.toolCalls.WithLabelValues(endpoint, tool, status).Inc()
}

// methodLabel bounds the method label to the standard methods; a client
// can send any token as a method.
func methodLabel(m string) string {
	switch m {
	case http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch,
		http.MethodDelete, http.MethodOptions, http.MethodConnect, http.MethodTrace:
		return m
	}
	return "OTHER"
}
