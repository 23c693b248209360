package gateway

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"
)

// FuzzOriginAllowed: any Origin header value is decided without a panic;
// with no allowed origins and loopback off, none is allowed; an origin
// allowed only through loopback has a loopback host; a listed origin is
// allowed.
func FuzzOriginAllowed(f *testing.F) {
	for _, s := range []string{"http://localhost:6274", "https://127.0.0.1", "http://[::1]:3000", "http://evil.example",
		"null", "http://localhost.evil.example", "http://127.0.0.1.nip.io", "file://", "http://user@localhost", "HTTP://LOCALHOST", "http://[::ffff:127.0.0.1]", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, origin string) {
		if OriginAllowed(origin, nil, false) {
			t.Fatalf("%q allowed with nothing allowed", origin)
		}
		if OriginAllowed(origin, nil, true) {
			u, err := url.Parse(strings.ToLower(origin))
			if err != nil {
				t.Fatalf("%q allowed but does not parse: %v", origin, err)
			}
			h := u.Hostname()
			if ip := net.ParseIP(h); h != "localhost" && (ip == nil || !ip.IsLoopback()) {
				t.Fatalf("%q allowed as loopback with host %q", origin, h)
			}
		}
		if !OriginAllowed(origin, []string{strings.ToLower(origin)}, false) {
			t.Fatalf("%q not allowed when listed", origin)
		}
	})
}

// FuzzCancelledSet: any POST body and any event data are read without a
// panic; a request id a notifications/cancelled names (a number or a
// string) is dropped from the answers once, in its session only.
func FuzzCancelledSet(f *testing.F) {
	f.Add([]byte(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":5}}`), []byte(`{"jsonrpc":"2.0","id":5,"error":{"code":0,"message":"context canceled"}}`), "5")
	f.Add([]byte(`[{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"a"}},{"id":1}]`), []byte(`{"id":"a","result":{}}`), `"a"`)
	f.Add([]byte(`{"method":"notifications/cancelled","params":{"requestId":1.5}}`), []byte(`{"id":1.5,"result":{}}`), "x")
	f.Fuzz(func(t *testing.T, body, data []byte, id string) {
		c := &cancelledSet{ids: map[string]map[string]time.Time{}}
		c.note("s", body)
		c.answered("s", data)
		var v any
		if json.Unmarshal([]byte(id), &v) != nil {
			return
		}
		if _, ok := idKey(v); !ok {
			return
		}
		note := fmt.Sprintf(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":%s}}`, id)
		resp := []byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{}}`, id))
		c = &cancelledSet{ids: map[string]map[string]time.Time{}}
		c.note("s", []byte(note))
		if c.answered("other", resp) {
			t.Fatalf("id %s cancelled in session s dropped in another", id)
		}
		if !c.answered("s", resp) {
			t.Fatalf("id %s cancelled, its answer %s not dropped", id, resp)
		}
		if c.answered("s", resp) {
			t.Fatalf("id %s: a second answer dropped too", id)
		}
	})
}

// FuzzAnswerHTTP: any POST body in an initialized streamable HTTP session
// is answered without a panic or a server error, by the fast path or the
// SDK's, and an event the answer carries holds one JSON value on one line.
func FuzzAnswerHTTP(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"add","arguments":{"a":1,"b":2}}}`,
		`{"jsonrpc":"2.0","id":"x","method":"tools/call","params":{"name":"add","arguments":{"a":"one"},"_meta":{"judge":{"goal":"sum"}}}}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"nope"}}`,
		`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"add","arguments":{"a":1,"b":2},"_meta":{"progressToken":1}}}`,
		`[{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"add"}}]`,
		`{"jsonrpc":"2.0","id":null,"method":"tools/call","params":{}}`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2}}`,
	} {
		f.Add([]byte(s))
	}
	ctx := context.Background()
	g, err := New(ctx, &addBackend{}, Options{})
	if err != nil {
		f.Fatal(err)
	}
	srv := httptest.NewServer(g.HTTPHandler(HTTPOptions{Loopback: true}))
	f.Cleanup(srv.Close)
	post := func(sid, body string) (*http.Response, error) {
		req, _ := http.NewRequest("POST", srv.URL+HTTPPath, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if sid != "" {
			req.Header.Set("Mcp-Session-Id", sid)
			req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
		}
		return srv.Client().Do(req)
	}
	resp, err := post("", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"fuzz","version":"1"}}}`)
	if err != nil {
		f.Fatal(err)
	}
	_, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	sid := resp.Header.Get("Mcp-Session-Id")
	if resp, err = post(sid, `{"jsonrpc":"2.0","method":"notifications/initialized"}`); err != nil {
		f.Fatal(err)
	}
	resp.Body.Close()
	f.Fuzz(func(t *testing.T, body []byte) {
		resp, err := post(sid, string(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		out, _ := io.ReadAll(resp.Body)
		if resp.StatusCode >= 500 {
			t.Fatalf("%q: %d %s", body, resp.StatusCode, out)
		}
		for line := range strings.Lines(string(out)) {
			if data, ok := strings.CutPrefix(line, "data: "); ok && !json.Valid([]byte(data)) {
				t.Fatalf("%q: an event's data is not one JSON value: %q", body, data)
			}
		}
	})
}
