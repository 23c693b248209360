package main

import (
	"bytes"
	"encoding/json"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestServeDashboardAndTraces runs the binary: the dashboard and the
// trace viewer pages are served without the token, their data (the
// panels, an upload) and GET /v1/dashboard only with it; an upload over
// --max-body-bytes gets 413 naming the limit; --no-ui takes the pages
// away and leaves GET /v1/dashboard.
func TestServeDashboardAndTraces(t *testing.T) {
	t.Parallel()
	const tok = "dash-test-token"
	do := serveRequest
	form := func(t *testing.T, files map[string]string) (string, []byte) {
		t.Helper()
		var buf bytes.Buffer
		mw := multipart.NewWriter(&buf)
		for field, path := range files {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			w, err := mw.CreateFormFile(field, filepath.Base(path))
			if err != nil {
				t.Fatal(err)
			}
			_, _ = w.Write(data)
		}
		_ = mw.Close()
		return mw.FormDataContentType(), buf.Bytes()
	}
	const validate = `{"output": {"a": 1}, "expected_schema": {"type": "object", "required": ["b"]}}`
	hostile := map[string]string{"conversations": filepath.Join("..", "..", "console", "testdata", "hostile.json"),
		"definitions": filepath.Join("..", "..", "..", "shared", "testdata", "agent-traces", "tau-bench-airline-tools.json")}
	t.Run("ui", func(t *testing.T) {
		t.Parallel()
		base := startServeBinary(t, tok, "--max-body-bytes", "65536")
		for _, path := range []string{"/dashboard", "/traces"} {
			if resp, page := do(t, http.MethodGet, base+path, "", "", nil); resp.StatusCode != http.StatusOK || !strings.Contains(page, "<h1>") {
				t.Errorf("GET %s without the token: %d, want the page", path, resp.StatusCode)
			}
		}
		for _, path := range []string{"/dashboard/panels", "/v1/dashboard"} {
			if resp, _ := do(t, http.MethodGet, base+path, "", "", nil); resp.StatusCode != http.StatusUnauthorized {
				t.Errorf("GET %s without the token: %d, want 401", path, resp.StatusCode)
			}
		}
		if resp, _ := do(t, http.MethodPost, base+"/validate", tok, "application/json", []byte(validate)); resp.StatusCode != http.StatusOK {
			t.Fatalf("POST /validate: %d", resp.StatusCode)
		}
		resp, body := do(t, http.MethodGet, base+"/v1/dashboard", tok, "", nil)
		var d struct {
			Totals struct{ Validations, Valid int }
		}
		if resp.StatusCode != http.StatusOK || json.Unmarshal([]byte(body), &d) != nil || d.Totals.Validations != 1 || d.Totals.Valid != 0 {
			t.Errorf("GET /v1/dashboard: %d %s, want one invalid validation", resp.StatusCode, body)
		}
		if resp, panels := do(t, http.MethodGet, base+"/dashboard/panels", tok, "", nil); resp.StatusCode != http.StatusOK ||
			!strings.Contains(panels, `<th scope="row">Validations</th><td class="num">1</td>`) {
			t.Errorf("GET /dashboard/panels: %d, want one validation counted:\n%s", resp.StatusCode, panels)
		}
		ctype, up := form(t, hostile)
		if resp, _ := do(t, http.MethodPost, base+"/traces", "", ctype, up); resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("POST /traces without the token: %d, want 401", resp.StatusCode)
		}
		resp, report := do(t, http.MethodPost, base+"/traces", tok, ctype, up)
		if resp.StatusCode != http.StatusOK || !strings.Contains(report, "Showing 1 of 1 conversations") ||
			strings.Contains(report, "<script>window.pwned") || !strings.Contains(resp.Header.Get("Content-Security-Policy"), "default-src 'none'") {
			t.Errorf("POST /traces: %d %q, want the escaped report", resp.StatusCode, resp.Header)
		}
		big := map[string]string{"conversations": filepath.Join("..", "..", "..", "shared", "testdata", "agent-traces", "tau-bench-airline-gpt-4o.dev.json")}
		ctype, up = form(t, big)
		if resp, msg := do(t, http.MethodPost, base+"/traces", tok, ctype, up); resp.StatusCode != http.StatusRequestEntityTooLarge || !strings.Contains(msg, "limit of 64 KiB (65536 bytes)") {
			t.Errorf("POST /traces of %d bytes: %d %q, want 413 naming the limit", len(up), resp.StatusCode, msg)
		}
	})
	t.Run("no-ui", func(t *testing.T) {
		t.Parallel()
		base := startServeBinary(t, tok, "--no-ui")
		for _, path := range []string{"/dashboard", "/dashboard/panels", "/traces"} {
			if resp, _ := do(t, http.MethodGet, base+path, tok, "", nil); resp.StatusCode != http.StatusNotFound {
				t.Errorf("GET %s with --no-ui: %d, want 404", path, resp.StatusCode)
			}
		}
		if resp, _ := do(t, http.MethodGet, base+"/v1/dashboard", tok, "", nil); resp.StatusCode != http.StatusOK {
			t.Errorf("GET /v1/dashboard with --no-ui: %d, want 200", resp.StatusCode)
		}
	})
}
