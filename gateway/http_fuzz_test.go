package gateway

import (
	"net"
	"net/url"
	"strings"
	"testing"
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
