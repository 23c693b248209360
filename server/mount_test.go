package server

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
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
