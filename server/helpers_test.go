package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"github.com/agentjudge/judge/internal/httpapi"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentjudge/judge"
	"github.com/agentjudge/judge/layer"
	"github.com/agentjudge/judge/result"
	"github.com/agentjudge/judge/server/api"
)

// newEngine returns an engine with the default layers.
func newEngine(t testing.TB, opts ...judge.Option) *judge.Engine {
	t.Helper()
	e, err := judge.New(opts...)
	if err != nil {
		t.Fatalf("judge.New: %v", err)
	}
	return e
}

// newTestServer serves a Server over the default engine on loopback.
func newTestServer(t testing.TB, opts Options) (*Server, *httptest.Server) {
	t.Helper()
	s := New(newEngine(t), opts)
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(ts.Close)
	return s, ts
}

// response is an answer read whole.
type response struct {
	status int
	header http.Header
	body   []byte
}

// do sends one request to ts and reads the whole answer.
func do(t testing.TB, ts *httptest.Server, method, path, body string, header map[string]string) response {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequestWithContext(context.Background(), method, ts.URL+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range header {
		if v == "" {
			req.Header.Del(k)
		} else {
			req.Header.Set(k, v)
		}
	}
	resp, err := ts.Client().Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s %s: reading body: %v", method, path, err)
	}
	return response{resp.StatusCode, resp.Header, b}
}

// mustResult checks that r is a 200 ValidationResult conforming to the
// specification's schema, and decodes it.
func mustResult(t testing.TB, r response) *result.ValidationResult {
	t.Helper()
	if r.status != http.StatusOK {
		t.Fatalf("status %d, want 200; body:\n%s", r.status, r.body)
	}
	if ct := r.header.Get("Content-Type"); ct != api.MediaTypeJSON {
		t.Errorf("Content-Type %q, want %q", ct, api.MediaTypeJSON)
	}
	if err := result.CheckJSON(r.body); err != nil {
		t.Fatalf("body breaks the ValidationResult schema: %v\n%s", err, r.body)
	}
	var res result.ValidationResult
	if err := json.Unmarshal(r.body, &res); err != nil {
		t.Fatalf("decoding the result: %v", err)
	}
	return &res
}

// mustProblem checks that r is a problem document of the given status for
// path, and decodes it.
func mustProblem(t testing.TB, r response, status int, path string) api.Problem {
	t.Helper()
	if r.status != status {
		t.Fatalf("status %d, want %d; body:\n%s", r.status, status, r.body)
	}
	if err := checkProblem(r.header, r.body, status); err != nil {
		t.Fatal(err)
	}
	var p api.Problem
	_ = json.Unmarshal(r.body, &p)
	if p.Instance != path {
		t.Errorf("instance %q, want %q", p.Instance, path)
	}
	if id := r.header.Get(HeaderRequestID); id == "" || p.RequestID != id {
		t.Errorf("request_id %q, header %q: want equal and not empty", p.RequestID, id)
	}
	return p
}

// checkProblem reports whether body is a well-formed problem document of
// the given status.
func checkProblem(h http.Header, body []byte, status int) error {
	if ct := h.Get("Content-Type"); ct != api.MediaTypeProblem {
		return fmt.Errorf("Content-Type %q, want %q; body:\n%s", ct, api.MediaTypeProblem, body)
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	var p api.Problem
	if err := dec.Decode(&p); err != nil {
		return fmt.Errorf("problem does not decode: %v\n%s", err, body)
	}
	switch {
	case p.Status != status:
		return fmt.Errorf("problem status %d, want %d", p.Status, status)
	case p.Code == "" || p.Type != p.Code.TypeURI():
		return fmt.Errorf("problem type %q and code %q do not agree", p.Type, p.Code)
	case p.Title == "" || httpapi.Title(p.Code) != p.Title:
		return fmt.Errorf("problem title %q, want %q", p.Title, httpapi.Title(p.Code))
	case p.Detail == "":
		return fmt.Errorf("problem has no detail")
	}
	return nil
}

// issueTypes lists the types of r's issues.
func issueTypes(r *result.ValidationResult) []result.Type {
	var ts []result.Type
	for _, is := range r.Issues {
		ts = append(ts, is.Type)
	}
	return ts
}

// logBuffer is a concurrency-safe buffer for a JSON slog handler.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
	// written, when not nil, is signalled without blocking after each
	// write (give it room for one signal), for a test to wait on a line.
	written chan struct{}
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	n, err := b.buf.Write(p)
	if b.written != nil {
		select {
		case b.written <- struct{}{}:
		default:
		}
	}
	return n, err
}

// lines returns the logged records, decoded.
func (b *logBuffer) lines(t testing.TB) []map[string]any {
	t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []map[string]any
	for line := range strings.Lines(b.buf.String()) {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("log line is not JSON: %v: %s", err, line)
		}
		out = append(out, m)
	}
	return out
}

func newLogger(b *logBuffer) *slog.Logger {
	return slog.New(slog.NewJSONHandler(b, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

// gate is a layer that blocks until released or cancelled, to hold a
// request in flight.
type gate struct {
	started  chan struct{}
	release  chan struct{}
	canceled chan struct{}
}

func newGate() *gate {
	return &gate{started: make(chan struct{}, 16), release: make(chan struct{}), canceled: make(chan struct{}, 16)}
}

func (g *gate) layer() *layer.Layer {
	return &layer.Layer{
		Name: "gate",
		Doc:  "gate: block until the test releases the request",
		Run: func(ctx context.Context, p *layer.Pass) error {
			g.started <- struct{}{}
			select {
			case <-g.release:
				p.Decided(1)
				return nil
			case <-ctx.Done():
				g.canceled <- struct{}{}
				return ctx.Err()
			}
		},
	}
}

// wait receives from c or fails after a while.
func wait(t testing.TB, c <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-c:
	case <-time.After(10 * time.Second):
		t.Fatalf("timed out waiting for %s", what)
	}
}
