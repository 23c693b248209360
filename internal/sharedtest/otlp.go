package sharedtest

import (
	"bytes"
	"encoding/hex"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	coltracepb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	resourcepb "go.opentelemetry.io/proto/otlp/resource/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/encoding/prototext"
	"google.golang.org/protobuf/proto"
)

// OTLPSink is an OTLP/HTTP trace receiver on loopback: it decodes every
// export request (protobuf) with the official proto types and keeps it.
type OTLPSink struct {
	// URL is the traces endpoint (…/v1/traces).
	URL string

	mu   sync.Mutex
	reqs []*coltracepb.ExportTraceServiceRequest
}

// NewOTLPSink starts a sink, closed when tb ends. A request that does not
// decode fails tb.
func NewOTLPSink(tb testing.TB) *OTLPSink {
	tb.Helper()
	s := &OTLPSink{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			tb.Errorf("OTLP sink: %v", err)
			return
		}
		var req coltracepb.ExportTraceServiceRequest
		if err := proto.Unmarshal(body, &req); err != nil {
			tb.Errorf("OTLP sink: the request does not decode: %v", err)
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		s.mu.Lock()
		s.reqs = append(s.reqs, &req)
		s.mu.Unlock()
		w.Header().Set("Content-Type", "application/x-protobuf")
	}))
	tb.Cleanup(srv.Close)
	s.URL = srv.URL + "/v1/traces"
	return s
}

// NormSpan is one exported span with what differs from run to run taken
// out: its ids, its times and its events' times are cleared, and its
// parent is named instead (ParentName: "" for a root, the parent span's
// name within the trace, or "remote " and the hex span id of a parent
// that is not in the trace). Resource and Scope are those it was sent
// under.
type NormSpan struct {
	ParentName string
	Resource   *resourcepb.Resource
	Scope      *commonpb.InstrumentationScope
	Span       *tracepb.Span
}

// Equal reports whether a and b are the same in every field.
func (a NormSpan) Equal(b NormSpan) bool {
	return a.ParentName == b.ParentName && proto.Equal(a.Resource, b.Resource) && proto.Equal(a.Scope, b.Scope) && proto.Equal(a.Span, b.Span)
}

// String is the span in protobuf's text format, for messages.
func (a NormSpan) String() string {
	o := prototext.MarshalOptions{Multiline: true}
	return "parent: " + a.ParentName + "\nresource: " + o.Format(a.Resource) + "\nscope: " + o.Format(a.Scope) + "\nspan: " + o.Format(a.Span)
}

// Traces returns the spans received, trace by trace in the order of
// their first span's start, each trace's spans in the order of their
// parent's name, then their own. It fails tb when a span has no start or ends before
// it starts, or an event has no time.
func (s *OTLPSink) Traces(tb testing.TB) [][]NormSpan {
	tb.Helper()
	type raw struct {
		res   *resourcepb.Resource
		scope *commonpb.InstrumentationScope
		span  *tracepb.Span
	}
	byTrace := map[string][]raw{}
	s.mu.Lock()
	for _, req := range s.reqs {
		for _, rs := range req.GetResourceSpans() {
			for _, ss := range rs.GetScopeSpans() {
				for _, sp := range ss.GetSpans() {
					k := string(sp.GetTraceId())
					byTrace[k] = append(byTrace[k], raw{rs.GetResource(), ss.GetScope(), sp})
				}
			}
		}
	}
	s.mu.Unlock()
	var out [][]NormSpan
	var starts []uint64
	for _, spans := range byTrace {
		slices.SortFunc(spans, func(a, b raw) int {
			if c := cmpU64(a.span.GetStartTimeUnixNano(), b.span.GetStartTimeUnixNano()); c != 0 {
				return c
			}
			return strings.Compare(a.span.GetName(), b.span.GetName())
		})
		names := map[string]string{}
		for _, r := range spans {
			names[string(r.span.GetSpanId())] = r.span.GetName()
		}
		var tr []NormSpan
		for _, r := range spans {
			sp := proto.Clone(r.span).(*tracepb.Span)
			if sp.StartTimeUnixNano == 0 || sp.EndTimeUnixNano < sp.StartTimeUnixNano {
				tb.Errorf("span %q: start %d, end %d", sp.Name, sp.StartTimeUnixNano, sp.EndTimeUnixNano)
			}
			parent := ""
			if p := sp.GetParentSpanId(); len(p) > 0 {
				if n, ok := names[string(p)]; ok {
					parent = n
				} else {
					parent = "remote " + hex.EncodeToString(p)
				}
			}
			if len(sp.TraceId) != 16 || len(sp.SpanId) != 8 || bytes.Count(sp.SpanId, []byte{0}) == 8 {
				tb.Errorf("span %q: trace id %x, span id %x", sp.Name, sp.TraceId, sp.SpanId)
			}
			sp.TraceId, sp.SpanId, sp.ParentSpanId, sp.StartTimeUnixNano, sp.EndTimeUnixNano = nil, nil, nil, 0, 0
			for _, ev := range sp.Events {
				if ev.TimeUnixNano == 0 {
					tb.Errorf("span %q: event %q has no time", sp.Name, ev.Name)
				}
				ev.TimeUnixNano = 0
			}
			tr = append(tr, NormSpan{ParentName: parent, Resource: r.res, Scope: r.scope, Span: sp})
		}
		slices.SortStableFunc(tr, func(a, b NormSpan) int {
			if c := strings.Compare(a.ParentName, b.ParentName); c != 0 {
				return c
			}
			return strings.Compare(a.Span.GetName(), b.Span.GetName())
		})
		out = append(out, tr)
		starts = append(starts, spans[0].span.GetStartTimeUnixNano())
	}
	idx := make([]int, len(out))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int { return cmpU64(starts[a], starts[b]) })
	sorted := make([][]NormSpan, len(out))
	for i, j := range idx {
		sorted[i] = out[j]
	}
	return sorted
}

func cmpU64(a, b uint64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
