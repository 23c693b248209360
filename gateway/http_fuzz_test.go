package gateway

import (
	"encoding/json"
	"fmt"
	"net"
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
