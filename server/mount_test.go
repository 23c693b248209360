package server

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// TestMounts serves handlers from outside beside the API: a public mount
// answers without the token, a private one only with it, an API route
// keeps its own handler and its token whatever a mount at "/" matches,
// and a mount's requests are counted under its pattern.
func TestMounts(t *testing.T) {
	t.Parallel()
	text := func(s string) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, s) })
	}
	s := New(newEngine(t), Options{Token: "sesame"},
		Mount{Pattern: "GET /", Handler: text("page"), Public: true},
		Mount{Pattern: "GET /private/", Handler: text("secret")})
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(ts.Close)
	auth := map[string]string{"Authorization": "Bearer sesame"}
	tests := []struct {
		method, path string
		header       map[string]string
		status       int
		body         string
	}{
		{http.MethodGet, "/", nil, http.StatusOK, "page"},
		{http.MethodGet, "/traces", nil, http.StatusOK, "page"},
		{http.MethodGet, "/private/x", nil, http.StatusUnauthorized, ""},
		{http.MethodGet, "/private/x", auth, http.StatusOK, "secret"},
		{http.MethodPost, "/validate", nil, http.StatusUnauthorized, ""},
		{http.MethodGet, "/metrics", nil, http.StatusUnauthorized, ""},
		{http.MethodGet, "/capabilities", auth, http.StatusOK, `"validation_types"`},
	}
	for _, tc := range tests {
		r := do(t, ts, tc.method, tc.path, "", tc.header)
		if r.status != tc.status || !strings.Contains(string(r.body), tc.body) {
			t.Errorf("%s %s = %d %.80q, want %d with %q", tc.method, tc.path, r.status, r.body, tc.status, tc.body)
		}
	}
	mfs := scrape(t, do(t, ts, http.MethodGet, "/metrics", "", auth))
	if m := find(mfs, MetricRequests, map[string]string{"route": "GET /", "method": "GET", "code": "200"}); m == nil || m.GetCounter().GetValue() != 2 {
		t.Errorf("requests of the mount GET / = %v, want 2", m)
	}
}

// TestMountConflict refuses, when serving, a mount that takes an API
// route's pattern or is no pattern at all, instead of panicking in New.
func TestMountConflict(t *testing.T) {
	t.Parallel()
	ok := http.NotFoundHandler()
	for _, m := range []Mount{
		{Pattern: "POST /validate", Handler: ok},
		{Pattern: "GET", Handler: ok},
		{Pattern: "GET /x"},
	} {
		s := New(newEngine(t), Options{}, m)
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		err = s.Serve(context.Background(), ln)
		if err == nil || !strings.Contains(err.Error(), m.Pattern) {
			t.Errorf("Serve with mount %q = %v, want an error naming it", m.Pattern, err)
		}
		if _, err := ln.Accept(); !errors.Is(err, net.ErrClosed) {
			t.Errorf("Serve with mount %q left its listener open: %v", m.Pattern, err)
		}
	}
}

// TestMountAdmission: a mounted handler's request with a body counts
// against the API's in-flight limit like the API's own routes: while one
// upload is being answered at --max-in-flight 1, a second upload and a
// POST /validate are refused with 503, and a GET of a page is not.
func TestMountAdmission(t *testing.T) {
	t.Parallel()
	entered, leave := make(chan struct{}), make(chan struct{})
	var calls atomic.Int32
	upload := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) > 1 {
			io.WriteString(w, "admitted beside the first") // the test then fails, without waiting
			return
		}
		entered <- struct{}{}
		<-leave
		io.WriteString(w, "done")
	})
	page := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "page") })
	s := New(newEngine(t), Options{MaxInFlight: 1},
		Mount{Pattern: "POST /upload", Handler: upload},
		Mount{Pattern: "GET /page", Handler: page, Public: true})
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(ts.Close)
	type answer struct {
		status int
		body   string
		err    error
	}
	first := make(chan answer, 1)
	go func() {
		resp, err := ts.Client().Post(ts.URL+"/upload", "text/plain", strings.NewReader("conversations"))
		if err != nil {
			first <- answer{err: err}
			return
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		first <- answer{resp.StatusCode, string(b), err}
	}()
	<-entered
	for _, tc := range []struct{ method, path, body string }{
		{http.MethodPost, "/upload", "more"},
		{http.MethodPost, "/validate", `{"output": "{}"}`},
	} {
		if r := do(t, ts, tc.method, tc.path, tc.body, nil); r.status != http.StatusServiceUnavailable {
			t.Errorf("%s %s while an upload is answered = %d %.80q, want 503", tc.method, tc.path, r.status, r.body)
		}
	}
	if r := do(t, ts, http.MethodGet, "/page", "", nil); r.status != http.StatusOK {
		t.Errorf("GET /page while an upload is answered = %d, want 200", r.status)
	}
	close(leave)
	if r := <-first; r.err != nil || r.status != http.StatusOK || r.body != "done" {
		t.Errorf("the first upload = %d %q %v, want 200 done", r.status, r.body, r.err)
	}
}
