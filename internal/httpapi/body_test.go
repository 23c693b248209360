package httpapi

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestCheckMediaType covers what clients send and what is refused, the
// types taken without parsing among them.
func TestCheckMediaType(t *testing.T) {
	t.Parallel()
	tests := []struct {
		ct, ce string
		ok     bool
	}{
		{"", "", true},
		{"application/json", "", true},
		{"application/json; charset=utf-8", "", true},
		{"application/json;charset=UTF-8", "", true},
		{"Application/JSON", "", true},
		{"application/problem+json", "", true},
		{"application/json; charset=latin1", "", false},
		{"application/x-www-form-urlencoded", "", false},
		{"text/plain", "", false},
		{"application/json;", "", true},
		{"application/json; charset", "", false},
		{"application/json", "gzip", false},
		{"application/json", "identity", true},
	}
	for _, tt := range tests {
		h := http.Header{}
		if tt.ct != "" {
			h.Set("Content-Type", tt.ct)
		}
		if tt.ce != "" {
			h.Set("Content-Encoding", tt.ce)
		}
		err := CheckMediaType(h)
		if (err == nil) != tt.ok {
			t.Errorf("Content-Type %q, Content-Encoding %q: err %v, want ok %v", tt.ct, tt.ce, err, tt.ok)
		}
		var mte *MediaTypeError
		if err != nil && !errors.As(err, &mte) {
			t.Errorf("Content-Type %q: %T, want *MediaTypeError", tt.ct, err)
		}
	}
}

// FuzzCheckMediaType holds that the types accepted without parsing are
// accepted by the parse too, and that any other type gets the parse's
// answer.
func FuzzCheckMediaType(f *testing.F) {
	for _, s := range []string{"application/json", "application/json; charset=utf-8", "application/json;charset=utf-8",
		"application/vnd.api+json", "text/plain", "application/json; charset=\"utf-8\"", "application/json; charset=utf-16", ";", "application/"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, ct string) {
		err := CheckMediaType(http.Header{"Content-Type": {ct}})
		if ct == "" {
			if err != nil {
				t.Fatalf("no Content-Type: %v", err)
			}
			return
		}
		parsed := checkContentType(ct)
		if (err == nil) != (parsed == nil) {
			t.Fatalf("Content-Type %q: CheckMediaType %v, the parse %v", ct, err, parsed)
		}
	})
}

// TestReadBody reads bodies over a real loopback connection, written raw:
// an announced length (read in one buffer of that size), chunked (no
// length), over the limit either way, and cut short by the client (an
// announced length it does not send, the connection closed): each the
// same body, or the error that says which.
func TestReadBody(t *testing.T) {
	t.Parallel()
	const limit = 100
	type got struct {
		body []byte
		err  error
	}
	results := make(chan got, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, err := ReadBody(w, r, limit, time.Second)
		results <- got{b, err}
	}))
	defer srv.Close()
	chunked := func(s string) string { return fmt.Sprintf("%x\r\n%s\r\n0\r\n\r\n", len(s), s) }
	tooLarge := func(err error) bool { var e *http.MaxBytesError; return errors.As(err, &e) }
	for _, c := range []struct {
		name, head, body, want string
		err                    func(error) bool // the error wanted, nil for none
	}{
		{"length", "Content-Length: 13\r\n", `{"output": 1}`, `{"output": 1}`, nil},
		{"length at the limit", "Content-Length: 100\r\n", strings.Repeat("x", limit), strings.Repeat("x", limit), nil},
		{"chunked", "Transfer-Encoding: chunked\r\n", chunked(`{"output": 2}`), `{"output": 2}`, nil},
		{"empty", "Content-Length: 0\r\n", "", "", nil},
		{"length over the limit", "Content-Length: 101\r\n", strings.Repeat("x", limit+1), "", tooLarge},
		{"chunked over the limit", "Transfer-Encoding: chunked\r\n", chunked(strings.Repeat("x", limit+1)), "", tooLarge},
		{"cut short", "Content-Length: 50\r\n", `{"output": 3}`, "", func(err error) bool { return errors.Is(err, context.Canceled) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			conn, err := net.Dial("tcp", srv.Listener.Addr().String())
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			if _, err := io.WriteString(conn, "POST / HTTP/1.1\r\nHost: x\r\n"+c.head+"\r\n"+c.body); err != nil {
				t.Fatal(err)
			}
			if c.name == "cut short" {
				_ = conn.(*net.TCPConn).CloseWrite()
			}
			g := <-results
			if c.err == nil {
				if g.err != nil || string(g.body) != c.want {
					t.Fatalf("body %q, %v; want %q", g.body, g.err, c.want)
				}
				return
			}
			if g.body != nil || !c.err(g.err) {
				t.Fatalf("body %q, error %T %v", g.body, g.err, g.err)
			}
		})
	}
}
