package load

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"
)

// A run against a real server on loopback counts every request, its
// status and the classes its check gives, and stops at MaxRequests.
func TestRunCounts(t *testing.T) {
	t.Parallel()
	var served atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		served.Add(1)
		body, _ := io.ReadAll(r.Body)
		if string(body) == "bad" {
			w.WriteHeader(http.StatusServiceUnavailable)
		}
		_, _ = w.Write([]byte(`{"valid": true}`))
	}))
	defer srv.Close()
	rep, err := Run(context.Background(), Options{URL: srv.URL, Conns: 4, MaxRequests: 100, Duration: time.Minute,
		Next: func(conn, i int) Request {
			body := "good"
			if i%4 == 0 {
				body = "bad"
			}
			return Request{Path: "/x", Kind: "k", Body: []byte(body), Check: func(code int, b []byte) string {
				if code != http.StatusOK {
					return "not-ok"
				}
				return ""
			}}
		}})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Requests != 100 || served.Load() != 100 || rep.Kinds["k"] != 100 {
		t.Fatalf("requests %d, served %d, kinds %v; want 100 each", rep.Requests, served.Load(), rep.Kinds)
	}
	if rep.Status[503] != rep.Classes["not-ok"] || rep.Status[503] == 0 || rep.Status[200]+rep.Status[503] != 100 {
		t.Fatalf("status %v, classes %v", rep.Status, rep.Classes)
	}
	if rep.Count5xx() != rep.Status[503] || rep.P50 <= 0 || rep.P99 < rep.P50 || rep.Max < rep.P99 {
		t.Fatalf("5xx %d, p50 %v, p99 %v, max %v", rep.Count5xx(), rep.P50, rep.P99, rep.Max)
	}
	if len(rep.Samples["not-ok"]) == 0 {
		t.Fatal("no sample of the not-ok answers")
	}
}

// A server that is gone gives answers counted as transport errors, not a
// hang or a panic.
func TestRunNoServer(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close()
	rep, err := Run(context.Background(), Options{URL: url, MaxRequests: 3, Next: func(int, int) Request { return Request{Path: "/"} }})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Errors != 3 || rep.Requests != 0 {
		t.Fatalf("errors %d, requests %d; want 3 and 0", rep.Errors, rep.Requests)
	}
}

func TestRunOptions(t *testing.T) {
	t.Parallel()
	if _, err := Run(context.Background(), Options{URL: "http://127.0.0.1:1", Next: func(int, int) Request { return Request{} }}); err == nil {
		t.Fatal("no bound: want an error")
	}
	if _, err := Run(context.Background(), Options{MaxRequests: 1}); err == nil {
		t.Fatal("no URL and Next: want an error")
	}
}

func TestQuantile(t *testing.T) {
	t.Parallel()
	var d []time.Duration
	for i := 1; i <= 100; i++ {
		d = append(d, time.Duration(i))
	}
	for _, tc := range []struct {
		q    float64
		want time.Duration
	}{{0.5, 50}, {0.99, 99}, {1, 100}, {0.001, 1}} {
		if got := Quantile(d, tc.q); got != tc.want {
			t.Errorf("Quantile(%v) = %v, want %v", tc.q, got, tc.want)
		}
	}
	if Quantile(nil, 0.5) != 0 {
		t.Error("Quantile of none is not 0")
	}
}
