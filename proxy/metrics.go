package proxy

import (
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Metric names, all in the proxy's own registry.
const (
	MetricRequests         = "judge_http_requests_total"
	MetricRequestDuration  = "judge_http_request_duration_seconds"
	MetricRequestsInFlight = "judge_http_requests_in_flight"
	// MetricChecks counts the documents checked, by kind (content,
	// tool_call), validity and whether the verdict came before the
	// document ended.
	MetricChecks = "judge_proxy_checks_total"
	// MetricStops counts the answers the stop mode ended.
	MetricStops = "judge_proxy_stops_total"
	// MetricTokensAfterViolation counts completion tokens generated after
	// judge was certain of a violation, by mode (see Tokens).
	MetricTokensAfterViolation = "judge_proxy_tokens_after_violation_total"
	// MetricTokensSaved counts the upper bounds of the tokens the stop
	// mode saved (see Tokens.Saved).
	MetricTokensSaved = "judge_proxy_tokens_saved_total"
	// MetricUpstreamErrors counts upstream answers that were errors or
	// broke the protocol, by kind (status, protocol, unreachable).
	MetricUpstreamErrors = "judge_proxy_upstream_errors_total"
)

type metrics struct {
	requests       *prometheus.CounterVec
	duration       *prometheus.HistogramVec
	inFlight       prometheus.Gauge
	checks         *prometheus.CounterVec
	stops          prometheus.Counter
	afterViolation *prometheus.CounterVec
	saved          *prometheus.CounterVec
	upstreamErrors *prometheus.CounterVec
	handler        http.Handler
}

func newMetrics() *metrics {
	m := &metrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{Name: MetricRequests,
			Help: "HTTP requests answered, by route, method and status code."}, []string{"route", "method", "code"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: MetricRequestDuration,
			Help:    "Time to answer an HTTP request (a whole stream), by route, in seconds.",
			Buckets: []float64{.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60, 120, 300}}, []string{"route"}),
		inFlight: prometheus.NewGauge(prometheus.GaugeOpts{Name: MetricRequestsInFlight, Help: "HTTP requests being answered."}),
		checks: prometheus.NewCounterVec(prometheus.CounterOpts{Name: MetricChecks,
			Help: "Documents of answers checked (content, tool_call arguments), by kind, validity and whether the verdict came before the document ended."},
			[]string{"kind", "valid", "early"}),
		stops: prometheus.NewCounter(prometheus.CounterOpts{Name: MetricStops, Help: "Answers the stop mode ended at a violation."}),
		afterViolation: prometheus.NewCounterVec(prometheus.CounterOpts{Name: MetricTokensAfterViolation,
			Help: "Completion tokens generated after judge was certain of a violation, by mode (in pass and annotate, what stop would have saved)."}, []string{"mode"}),
		saved: prometheus.NewCounterVec(prometheus.CounterOpts{Name: MetricTokensSaved,
			Help: "Completion tokens the stop mode saved, by bound: exact (the model had finished, its usage read after the cut) or upper (the request's token cap less those generated)."},
			[]string{"bound"}),
		upstreamErrors: prometheus.NewCounterVec(prometheus.CounterOpts{Name: MetricUpstreamErrors,
			Help: "Upstream answers that were errors or broke the protocol, by kind."}, []string{"kind"}),
	}
	reg := prometheus.NewRegistry()
	reg.MustRegister(m.requests, m.duration, m.inFlight, m.checks, m.stops, m.afterViolation, m.saved, m.upstreamErrors,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	m.handler = promhttp.HandlerFor(reg, promhttp.HandlerOpts{ErrorHandling: promhttp.ContinueOnError, Registry: reg})
	return m
}

// Begin counts a request being answered.
func (m *metrics) Begin() { m.inFlight.Inc() }

// End counts one answered request.
func (m *metrics) End(route, method string, status int, d time.Duration) {
	m.inFlight.Dec()
	if method != http.MethodGet && method != http.MethodPost {
		method = "OTHER"
	}
	m.requests.WithLabelValues(route, method, strconv.Itoa(status)).Inc()
	m.duration.WithLabelValues(route).Observe(d.Seconds())
}

// observe counts the report of one answer.
func (m *metrics) observe(r *Report) {
	for _, v := range r.Checks {
		m.checks.WithLabelValues(v.Kind, strconv.FormatBool(v.Result.Valid), strconv.FormatBool(v.Early)).Inc()
	}
	if r.Stopped {
		m.stops.Inc()
	}
	m.afterViolation.WithLabelValues(string(r.Mode)).Add(float64(r.Tokens.AfterViolation))
	if r.Tokens.Saved != nil {
		bound := "upper"
		if r.Tokens.SavedExact {
			bound = "exact"
		}
		m.saved.WithLabelValues(bound).Add(float64(*r.Tokens.Saved))
	}
}
