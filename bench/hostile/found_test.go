//go:build hostile

package hostile

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// intTool is a tool with one integer parameter n, as a request's "tools".
const intTool = `[{"name": "t", "description": "Takes a count.", "inputSchema": {"type": "object", "properties": {"n": {"type": "integer"}}}}]`

// TestFoundInputs holds the inputs of issue 14's "Found, to fix" list,
// with the behaviour the issue asks for. They are fixed on other branches
// (s2-input, s2-server); until those are merged some of these fail here.
func TestFoundInputs(t *testing.T) {
	runCases(t, []hostileCase{
		{name: "1e400 for an integer is not normalized silently", path: "/v1/calls/check",
			body: str(`{"tool": "t", "arguments": {"n": 1e400}, "tools": ` + intTool + `}`),
			check: func(t *testing.T, a answer) {
				if a.status == http.StatusBadRequest {
					return
				}
				if a.status != http.StatusOK || !strings.Contains(a.body, `"valid": false`) || !strings.Contains(a.body, `"location": "n"`) || strings.Contains(a.body, "1.797") {
					t.Errorf("want 400, or 200 with n reported invalid and not normalized to 1.797…e308; got %d:\n%.1500s", a.status, a.body)
				}
				// The gateway sends this answer as structuredContent: an
				// MCP client (go-sdk) cannot decode a number beyond float64.
				var v any
				if err := json.Unmarshal([]byte(a.body), &v); err != nil {
					t.Errorf("the answer does not decode as JSON numbers: %v", err)
				}
			}},
		{name: "duplicate key in the output", path: "/validate", body: str(`{"output": {"a": 1, "a": 2}}`),
			status: 200, want: []string{`"type": "duplicate_key"`, `"severity": "warning"`, `"location": "a"`}},
		{name: "duplicate key in the arguments", path: "/v1/calls/check", body: str(`{"tool": "t", "arguments": {"n": 1, "n": 2}, "tools": ` + intTool + `}`),
			status: 200, want: []string{`"type": "duplicate_key"`, `"location": "n"`}},
		{name: "duplicate top-level field", path: "/validate", body: str(`{"output": 1, "output": 2}`),
			status: 400, want: []string{`field \"output\" is given twice`, "line 1, column"}},
		{name: "invalid UTF-8 is refused with its byte offset", path: "/validate",
			body:   str("{\"output\": \"a\xffb\", \"expected_schema\": {\"maxLength\": 3}}"),
			status: 400, want: []string{"UTF-8", "13"}},
		{name: "a byte-order mark is skipped", path: "/validate", body: str("\xef\xbb\xbf{\"output\": {\"a\": 1}}"),
			status: 200, want: []string{`"valid": true`}},
		{name: "a huge number is quoted with an ellipsis", path: "/validate",
			body:   str(`{"output": {"n": ` + repeat("1234567890", 200) + `}}`),
			status: 400, want: []string{"is beyond what judge accepts", "1234567890…"}},
	})
	t.Run("slow uploads do not shut the POST routes", slowUploads)
	t.Run("overload answers 503, never a verdict", overload)
}

// slowUploads opens 64 connections that send a request body one byte a
// second, then sends an ordinary /validate: it must be answered, not
// refused with 503, while the slow bodies are still arriving.
func slowUploads(t *testing.T) {
	addr := strings.TrimPrefix(judgeServe.url, "http://")
	var conns []net.Conn
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	for range 64 {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
		fmt.Fprintf(c, "POST /validate HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{", addr)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(time.Second)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
				for _, c := range conns {
					_, _ = c.Write([]byte(" "))
				}
			}
		}
	}()
	defer func() { cancel(); wg.Wait() }()
	// Let the server take in every slow request's headers: wait until a
	// request sent after them has been answered once.
	_ = send(t, "/validate", strings.NewReader(`{"output": 1}`))
	a := send(t, "/validate", strings.NewReader(`{"output": {"name": 7}, "expected_schema": {"properties": {"name": {"type": "string"}}}}`))
	if a.status != http.StatusOK || !strings.Contains(a.body, `"valid": false`) {
		t.Errorf("with 64 slow uploads open, an ordinary /validate answers %d:\n%.1000s", a.status, a.body)
	}
	resp, err := http.Get(judgeServe.url + "/readyz")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	t.Logf("with 64 slow uploads open: /validate %d, /readyz %d", a.status, resp.StatusCode)
}

// overload starts a judge serve whose layers must start within a
// second, keeps its engine busy with 24 requests of a second of CEL work
// each, and meanwhile sends ordinary requests whose rule fails: each must
// be found invalid, or refused with 503 and Retry-After; a 200 that calls
// it valid because its layers could not start is a check never run passed
// as a verdict.
func overload(t *testing.T) {
	p, err := serve("--timeout", "1s")
	if err != nil {
		t.Fatal(err)
	}
	defer p.stop()
	heavy := `{"output": [` + strings.TrimSuffix(repeat("1,", 1000), ",") + `], "acceptance_criteria": [{"id": "bomb", "rule": "output.all(a, output.all(b, output.all(c, a + b + c > 0)))"}]}`
	var wg sync.WaitGroup
	for range 24 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			req, _ := http.NewRequest(http.MethodPost, p.url+"/validate", strings.NewReader(heavy))
			req.Header.Set("Content-Type", "application/json")
			if resp, err := http.DefaultClient.Do(req); err == nil {
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
		}()
	}
	counts := map[int]int{}
	for range 10 {
		a := sendTo(t, p, "/validate", strings.NewReader(`{"output": {"n": 7}, "acceptance_criteria": [{"id": "small", "rule": "output.n < 5"}]}`))
		counts[a.status]++
		switch {
		case a.status == http.StatusServiceUnavailable:
			if a.header.Get("Retry-After") == "" {
				t.Errorf("503 without Retry-After:\n%.500s", a.body)
			}
		case a.status != http.StatusOK || !strings.Contains(a.body, `"valid": false`):
			t.Errorf("under load, an output failing its rule answered %d:\n%.1500s", a.status, a.body)
		}
	}
	wg.Wait()
	t.Logf("under load, 10 ordinary requests: statuses %v", counts)
}
