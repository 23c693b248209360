package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// startServeBinary runs the judge binary's serve on a free loopback port
// with the token tok and the extra args until t ends, and returns its URL.
func startServeBinary(t *testing.T, tok string, args ...string) string {
	t.Helper()
	serve := exec.Command(judgeBin(t), append([]string{"serve", "--addr", "127.0.0.1:0"}, args...)...)
	serve.Env = append(os.Environ(), "JUDGE_API_TOKEN="+tok, "JUDGE_CONFIG=", "JUDGE_REDIS_URL=")
	logs, err := serve.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := serve.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = serve.Process.Kill(); _ = serve.Wait() })
	urlc := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(logs)
		for sc.Scan() {
			var rec struct{ URL string }
			if json.Unmarshal(sc.Bytes(), &rec) == nil && rec.URL != "" {
				urlc <- rec.URL
			}
		}
	}()
	select {
	case u := <-urlc:
		return u
	case <-time.After(30 * time.Second):
		t.Fatal("judge serve logged no address within 30s")
		return ""
	}
}

// TestServeConsole runs the binary: the playground is served at / without
// the token (it holds no data) while the API still requires it, and
// --no-ui takes the page away (404) and leaves the API working.
func TestServeConsole(t *testing.T) {
	t.Parallel()
	const tok = "console-test-token"
	do := consoleRequest
	t.Run("ui", func(t *testing.T) {
		t.Parallel()
		base := startServeBinary(t, tok)
		resp, page := do(t, http.MethodGet, base+"/", "", "")
		if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") ||
			!strings.Contains(resp.Header.Get("Content-Security-Policy"), "default-src 'none'") || !strings.Contains(page, `<label for="f-output">Output</label>`) {
			t.Errorf("GET / without the token: %d %q, want the playground", resp.StatusCode, resp.Header)
		}
		for _, path := range []string{"/validate", "/metrics", "/nothing-here"} {
			method := http.MethodGet
			if path == "/validate" {
				method = http.MethodPost
			}
			if resp, _ := do(t, method, base+path, "", consoleValidate); resp.StatusCode != http.StatusUnauthorized {
				t.Errorf("%s %s without the token: %d, want 401", method, path, resp.StatusCode)
			}
		}
		if resp, _ := do(t, http.MethodPost, base+"/validate", tok, consoleValidate); resp.StatusCode != http.StatusOK {
			t.Errorf("POST /validate with the token: %d", resp.StatusCode)
		}
	})
	for _, off := range []struct {
		name string
		args func(t *testing.T) []string
	}{
		{"no-ui", func(*testing.T) []string { return []string{"--no-ui"} }},
		{"config no_ui", func(t *testing.T) []string {
			return []string{"--config", writeConfig(t, "serve:\n  no_ui: true\n", 0o600)}
		}},
	} {
		t.Run(off.name, func(t *testing.T) {
			t.Parallel()
			noUI(t, startServeBinary(t, tok, off.args(t)...), tok)
		})
	}
	t.Run("config no_ui false, --no-ui given", func(t *testing.T) {
		t.Parallel()
		noUI(t, startServeBinary(t, tok, "--no-ui", "--config", writeConfig(t, "serve:\n  no_ui: false\n", 0o600)), tok)
	})
}

// noUI checks a judge serve at base, with the token tok, that serves no
// console: / is 404 with the token, 401 without, and the API still
// answers.
func noUI(t *testing.T, base, tok string) {
	t.Helper()
	do := consoleRequest
	if resp, body := do(t, http.MethodGet, base+"/", tok, ""); resp.StatusCode != http.StatusNotFound || strings.Contains(body, "<html") {
		t.Errorf("GET / with --no-ui: %d %.120q, want 404", resp.StatusCode, body)
	}
	if resp, _ := do(t, http.MethodGet, base+"/", "", ""); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("GET / with --no-ui, without the token: %d, want 401 as every API path", resp.StatusCode)
	}
	if resp, body := do(t, http.MethodPost, base+"/validate", tok, consoleValidate); resp.StatusCode != http.StatusOK || !strings.Contains(body, `"valid": false`) {
		t.Errorf("POST /validate with --no-ui: %d %s", resp.StatusCode, body)
	}
}

// consoleValidate is a request body of POST /validate with one error.
const consoleValidate = `{"output": {"a": 1}, "expected_schema": {"type": "object", "required": ["b"]}}`

// consoleRequest sends one JSON request to a judge serve, with auth as
// its bearer token when not empty, and reads the whole answer.
func consoleRequest(t *testing.T, method, url, auth, body string) (*http.Response, string) {
	t.Helper()
	ctype := ""
	if body != "" {
		ctype = "application/json"
	}
	return serveRequest(t, method, url, auth, ctype, []byte(body))
}

// serveRequest sends one request to a judge serve, with auth as its
// bearer token and ctype as its Content-Type when not empty, and reads
// the whole answer.
func serveRequest(t *testing.T, method, url, auth, ctype string, body []byte) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(method, url, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if auth != "" {
		req.Header.Set("Authorization", "Bearer "+auth)
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	resp, err := (&http.Client{Timeout: 60 * time.Second}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, string(data)
}
