// Package clienttest drives judge proxy with the real OpenAI clients — the
// openai-go SDK and the official openai npm package — against the fake
// model of package proxytest on loopback. It lives apart from package
// proxy so that proxy's fuzz targets do not carry the SDK's coverage map.
package clienttest

import (
	"context"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/agentjudge/judge/proxy"
)

// startProxy serves a proxy in mode in front of the upstream at up on
// loopback until t ends, and returns it with its base URL.
func startProxy(t testing.TB, up string, mode proxy.Mode, opts ...func(*proxy.Options)) (*proxy.Proxy, string) {
	t.Helper()
	o := proxy.Options{Upstream: up + "/v1", Mode: mode}
	for _, f := range opts {
		f(&o)
	}
	p, err := proxy.New(o)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(p.Handler())
	t.Cleanup(func() {
		ts.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = p.Close(ctx)
	})
	return p, ts.URL
}
