package main

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentjudge/judge/internal/sharedtest"
)

// The telemetry tests run judge against a real trace backend: Jaeger v2,
// which scripts/test builds from the Go module proxy into the user's cache
// (telemetry/testdata/jaeger pins it in a module of its own). They send
// requests with a known traceparent, read the trace back from Jaeger's
// query API and check the spans' parents, names and attributes.

// jaegerVersion is the Jaeger scripts/test builds.
const jaegerVersion = "v1.76.0"

// jaegerBin is the Jaeger binary: $JUDGE_JAEGER_BIN, else the one
// scripts/test builds into the user's cache; the test is skipped without
// it.
func jaegerBin(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("JUDGE_JAEGER_BIN"); p != "" {
		return p
	}
	dir, err := os.UserCacheDir()
	if err != nil {
		t.Skipf("no cache directory for the Jaeger binary: %v", err)
	}
	p := filepath.Join(dir, "judge", "jaeger-"+jaegerVersion)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("Jaeger %s is not built (scripts/test builds it into %s from telemetry/testdata/jaeger): %v", jaegerVersion, p, err)
	}
	return p
}

// jaeger is a Jaeger process on loopback.
type jaeger struct {
	otlp, query string // base URLs of the OTLP/HTTP receiver and the query API
}

// freePort returns a loopback port free at the time of the call.
func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// startJaeger runs Jaeger with in-memory storage, its OTLP/HTTP receiver
// and query API on free loopback ports, until t ends.
func startJaeger(t *testing.T) *jaeger {
	t.Helper()
	bin := jaegerBin(t)
	otlp, query, grpc := freePort(t), freePort(t), freePort(t)
	cfg := fmt.Sprintf(`service:
  extensions: [jaeger_storage, jaeger_query]
  pipelines:
    traces:
      receivers: [otlp]
      exporters: [jaeger_storage_exporter]
  telemetry:
    metrics:
      level: none
    logs:
      level: warn
extensions:
  jaeger_query:
    storage:
      traces: mem
    http:
      endpoint: 127.0.0.1:%d
    grpc:
      endpoint: 127.0.0.1:%d
  jaeger_storage:
    backends:
      mem:
        memory:
          max_traces: 10000
receivers:
  otlp:
    protocols:
      http:
        endpoint: 127.0.0.1:%d
exporters:
  jaeger_storage_exporter:
    trace_storage: mem
`, query, grpc, otlp)
	file := filepath.Join(t.TempDir(), "jaeger.yaml")
	if err := os.WriteFile(file, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	var logs sharedtest.SyncBuffer
	cmd := exec.Command(bin, "--config", "file:"+file)
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() {
		cmd.Wait()
		close(exited)
	}()
	t.Cleanup(func() {
		cmd.Process.Signal(os.Interrupt)
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-exited
		}
	})
	j := &jaeger{otlp: fmt.Sprintf("http://127.0.0.1:%d", otlp), query: fmt.Sprintf("http://127.0.0.1:%d", query)}
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	deadline := time.After(60 * time.Second)
	for {
		if resp, err := http.Get(j.query + "/api/services"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK && otlpReady(j.otlp) {
				return j
			}
		}
		select {
		case <-tick.C:
		case <-exited:
			t.Fatalf("jaeger exited:\n%s", logs.String())
		case <-deadline:
			t.Fatalf("jaeger did not answer within 60s:\n%s", logs.String())
		}
	}
}

// otlpReady reports whether the OTLP receiver accepts connections.
func otlpReady(base string) bool {
	c, err := net.DialTimeout("tcp", strings.TrimPrefix(base, "http://"), time.Second)
	if err == nil {
		c.Close()
	}
	return err == nil
}

// jspan is a span as Jaeger's query API answers it.
type jspan struct {
	TraceID       string `json:"traceID"`
	SpanID        string `json:"spanID"`
	OperationName string `json:"operationName"`
	References    []struct {
		RefType string `json:"refType"`
		TraceID string `json:"traceID"`
		SpanID  string `json:"spanID"`
	} `json:"references"`
	Tags []struct {
		Key   string `json:"key"`
		Value any    `json:"value"`
	} `json:"tags"`
	Logs []struct {
		Fields []struct {
			Key   string `json:"key"`
			Value any    `json:"value"`
		} `json:"fields"`
	} `json:"logs"`
	ProcessID string `json:"processID"`
	Duration  int64  `json:"duration"`
}

func (s jspan) tag(k string) any {
	for _, t := range s.Tags {
		if t.Key == k {
			return t.Value
		}
	}
	return nil
}

// parent is the span's CHILD_OF parent, or "".
func (s jspan) parent() string {
	for _, r := range s.References {
		if r.RefType == "CHILD_OF" {
			return r.SpanID
		}
	}
	return ""
}

// jref is a span's reference: its trace and span.
type jref struct{ TraceID, SpanID string }

// links are the span's FOLLOWS_FROM references (OpenTelemetry links).
func (s jspan) links() []jref {
	var out []jref
	for _, r := range s.References {
		if r.RefType == "FOLLOWS_FROM" {
			out = append(out, jref{r.TraceID, r.SpanID})
		}
	}
	return out
}

// jtrace is one trace as Jaeger answers it.
type jtrace struct {
	Spans     []jspan `json:"spans"`
	Processes map[string]struct {
		ServiceName string `json:"serviceName"`
	} `json:"processes"`
}

// render draws the trace as a tree under root (a span id): each span's
// name, kind, duration and tags, for the test's log and the docs.
func (tr jtrace) render(root string) string {
	var sb strings.Builder
	var walk func(parent string, depth int)
	walk = func(parent string, depth int) {
		for _, s := range tr.Spans {
			if s.parent() != parent {
				continue
			}
			fmt.Fprintf(&sb, "%s%s  [%v, %dµs, span %s]\n", strings.Repeat("    ", depth), s.OperationName, s.tag("span.kind"), s.Duration, s.SpanID)
			for _, t := range s.Tags {
				if t.Key != "span.kind" && t.Key != "otel.scope.name" {
					fmt.Fprintf(&sb, "%s    %s = %v\n", strings.Repeat("    ", depth), t.Key, t.Value)
				}
			}
			walk(s.SpanID, depth+1)
		}
	}
	fmt.Fprintf(&sb, "(caller's span %s, in the MCP request's _meta)\n", root)
	walk(root, 1)
	return sb.String()
}

// byName returns the trace's span named name; the test fails without one.
func (tr jtrace) byName(t *testing.T, name string) jspan {
	t.Helper()
	for _, s := range tr.Spans {
		if s.OperationName == name {
			return s
		}
	}
	var names []string
	for _, s := range tr.Spans {
		names = append(names, s.OperationName)
	}
	t.Fatalf("no span %q in the trace; spans: %v", name, names)
	return jspan{}
}

// names returns a readiness test: the trace holds a span of each name,
// as many as the name is given.
func names(want ...string) func(jtrace) bool {
	return func(tr jtrace) bool {
		have := map[string]int{}
		for _, s := range tr.Spans {
			have[s.OperationName]++
		}
		for _, n := range want {
			if have[n]--; have[n] < 0 {
				return false
			}
		}
		return true
	}
}

// trace reads trace id back from Jaeger until ready accepts it (spans
// arrive in batches), within 30s.
func (j *jaeger) trace(t *testing.T, id string, ready func(jtrace) bool) jtrace {
	t.Helper()
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	deadline := time.After(30 * time.Second)
	var last string
	for {
		resp, err := http.Get(j.query + "/api/traces/" + id)
		if err == nil {
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			last = string(body)
			var ans struct {
				Data []jtrace `json:"data"`
			}
			if resp.StatusCode == http.StatusOK && json.Unmarshal(body, &ans) == nil && len(ans.Data) == 1 && ready(ans.Data[0]) {
				return ans.Data[0]
			}
		}
		select {
		case <-tick.C:
		case <-deadline:
			t.Fatalf("trace %s was not complete within 30s; last answer: %.3000s", id, last)
		}
	}
}

// newTraceparent returns a sampled W3C traceparent with random ids, and
// its trace and span ids.
func newTraceparent() (tp, traceID, spanID string) {
	var b [24]byte
	_, _ = rand.Read(b[:])
	traceID, spanID = hex.EncodeToString(b[:16]), hex.EncodeToString(b[16:])
	return "00-" + traceID + "-" + spanID + "-01", traceID, spanID
}

// otelEnv is the environment of a judge exporting to j.
func otelEnv(j *jaeger) []string {
	return append(os.Environ(), "OTEL_EXPORTER_OTLP_ENDPOINT="+j.otlp, "OTEL_SERVICE_NAME=", "OTEL_RESOURCE_ATTRIBUTES=",
		"OTEL_TRACES_SAMPLER=", "OTEL_SDK_DISABLED=", "OTEL_TRACES_EXPORTER=", "OTEL_EXPORTER_OTLP_PROTOCOL=", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT=")
}

// TestOtelServeJaeger sends POST /validate with a traceparent to a real
// judge serve exporting to Jaeger, and reads the trace back: the HTTP
// server span under the caller's span, judge.validate under it with the
// verdict, the schema layer's span under that; the request's log line
// carries the trace id.
func TestOtelServeJaeger(t *testing.T) {
	t.Parallel()
	j := startJaeger(t)
	cmd := exec.Command(judgeBin(t), "serve", "--addr", "127.0.0.1:0")
	cmd.Env = otelEnv(j)
	pr, pw := io.Pipe()
	cmd.Stderr = pw
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := make(chan string, 100)
	go func() {
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			select {
			case lines <- sc.Text():
			default:
			}
		}
	}()
	exited := false
	t.Cleanup(func() {
		if !exited {
			cmd.Process.Signal(os.Interrupt)
			cmd.Wait()
		}
		pw.Close()
	})
	var url string
	deadline := time.After(60 * time.Second)
	for url == "" {
		select {
		case l := <-lines:
			var rec struct{ URL string }
			if json.Unmarshal([]byte(l), &rec) == nil {
				url = rec.URL
			}
		case <-deadline:
			t.Fatal("judge serve logged no URL within 60s")
		}
	}
	tp, traceID, callerSpan := newTraceparent()
	req, _ := http.NewRequest(http.MethodPost, url+"/validate", strings.NewReader(`{"output":{"name":"Ada"},"expected_schema":{"type":"object","required":["email"]},`+
		`"acceptance_criteria":[{"id":"named","description":"The output names someone","rule":"has(output.name)"}]}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("traceparent", tp)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("POST /validate: %d %s", resp.StatusCode, body)
	}
	// Stop the server at once: the spans must be flushed on shutdown.
	cmd.Process.Signal(os.Interrupt)
	if err := cmd.Wait(); err != nil {
		t.Fatalf("judge serve exited with %v", err)
	}
	exited = true
	pw.Close()
	logged := false
	for len(lines) > 0 {
		l := <-lines
		if strings.Contains(l, `"msg":"request"`) && strings.Contains(l, `"trace_id":"`+traceID+`"`) {
			logged = true
		}
	}
	if !logged {
		t.Errorf("no request log line carries trace_id %s", traceID)
	}

	// With criteria the request takes the layers' path (a schema alone may
	// be answered by the engine's fast path, without layer spans).
	tr := j.trace(t, traceID, names("POST /validate", "judge.validate", "judge.layer schema", "judge.layer criteria"))
	httpSpan, validate, layer := tr.byName(t, "POST /validate"), tr.byName(t, "judge.validate"), tr.byName(t, "judge.layer schema")
	if crit := tr.byName(t, "judge.layer criteria"); crit.parent() != validate.SpanID || crit.tag("judge.issue_count") != 0.0 {
		t.Errorf("judge.layer criteria: parent %s (want %s), issues %v", crit.parent(), validate.SpanID, crit.tag("judge.issue_count"))
	}
	if httpSpan.parent() != callerSpan {
		t.Errorf("POST /validate's parent is %q, want the traceparent's span %s", httpSpan.parent(), callerSpan)
	}
	if validate.parent() != httpSpan.SpanID || layer.parent() != validate.SpanID {
		t.Errorf("parents: judge.validate under %s (want %s), judge.layer schema under %s (want %s)", validate.parent(), httpSpan.SpanID, layer.parent(), validate.SpanID)
	}
	for _, c := range []struct {
		span jspan
		key  string
		want any
	}{
		{httpSpan, "span.kind", "server"},
		{httpSpan, "http.route", "/validate"},
		{httpSpan, "http.response.status_code", 200.0},
		{validate, "judge.valid", false},
		{validate, "judge.confidence", 1.0},
		{validate, "judge.error_count", 1.0},
		{validate, "judge.issue_types", `["missing_field"]`},
		{layer, "judge.layer", "schema"},
		{layer, "judge.issue_count", 1.0},
	} {
		if got := c.span.tag(c.key); got != c.want {
			t.Errorf("%s: %s = %v (%T), want %v", c.span.OperationName, c.key, got, got, c.want)
		}
	}
	if svc := tr.Processes[httpSpan.ProcessID].ServiceName; svc != "judge" {
		t.Errorf("service.name = %q, want the default judge", svc)
	}
}

// metaEchoRegistry writes a tool registry holding meta-echo.mjs, an MCP
// server made with the official TypeScript SDK that answers the _meta its
// tools/call request carried; the test is skipped without node or the SDK
// (scripts/test installs it in executor/testdata/node).
func metaEchoRegistry(t *testing.T) string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	modules, _ := filepath.Abs("../../executor/testdata/node/node_modules")
	if _, err := os.Stat(filepath.Join(modules, "@modelcontextprotocol", "sdk", "package.json")); err != nil {
		t.Skipf("@modelcontextprotocol/sdk is not installed (scripts/test runs npm ci in executor/testdata/node): %v", err)
	}
	dir := t.TempDir()
	script, err := os.ReadFile(filepath.Join("testdata", "otel", "meta-echo.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "meta-echo.mjs"), script, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(modules, filepath.Join(dir, "node_modules")); err != nil {
		t.Fatal(err)
	}
	manifest := fmt.Sprintf(`tool_id: echoer
tool_type: mcp_server
version: "1.0.0"
executor: subprocess
description: An MCP server that answers the _meta of the request it received
config:
  transport: stdio
  command: %s
  args: [%q]
  startup_timeout: 60
`, node, filepath.Join(dir, "meta-echo.mjs"))
	reg := filepath.Join(dir, "registry")
	if err := os.Mkdir(reg, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(reg, "echoer.yaml"), []byte(manifest), 0o600); err != nil {
		t.Fatal(err)
	}
	return reg
}

// TestOtelGatewayJaeger calls a tool through judge gateway, over stdio
// and over streamable HTTP, with the caller's traceparent in the request's
// params._meta (SEP-414). The trace read back from Jaeger holds the
// gateway's "tools/call meta_echo" SERVER span under the caller's span,
// with the MCP and GenAI attributes and judge's verdict, and the CLIENT
// span of the upstream call under it; the upstream received that CLIENT
// span's context in its own request's _meta.
func TestOtelGatewayJaeger(t *testing.T) {
	t.Parallel()
	j := startJaeger(t)
	reg := metaEchoRegistry(t)
	for _, transport := range []string{"pipe", "tcp"} {
		t.Run(transport, func(t *testing.T) {
			cmd := exec.Command(judgeBin(t), "gateway", "--tools", reg)
			// Gzipped, so that Jaeger reads judge's own exporter's
			// compressed requests too.
			cmd.Env = append(otelEnv(j), "OTEL_EXPORTER_OTLP_COMPRESSION=gzip")
			var cs *mcp.ClientSession
			if transport == "pipe" {
				var errs sharedtest.SyncBuffer
				cmd.Stderr = &errs
				ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
				defer cancel()
				var err error
				cs, err = mcp.NewClient(&mcp.Implementation{Name: "otel-test", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
				if err != nil {
					t.Fatalf("connect: %v\n%s", err, errs.String())
				}
			} else {
				cs = connectGatewayHTTP(t, cmd)
			}
			tp, traceID, callerSpan := newTraceparent()
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "meta_echo", Arguments: map[string]any{"note": "traced"},
				Meta: mcp.Meta{"traceparent": tp, "judge": map[string]any{"tool_call_id": "call_42"}}})
			if err != nil {
				t.Fatal(err)
			}
			sid := cs.ID()
			cs.Close()
			if res.IsError || len(res.Content) != 1 {
				t.Fatalf("meta_echo: isError %v, %d contents", res.IsError, len(res.Content))
			}
			var echoed struct {
				Note string         `json:"note"`
				Meta map[string]any `json:"meta"`
			}
			if err := json.Unmarshal([]byte(res.Content[0].(*mcp.TextContent).Text), &echoed); err != nil || echoed.Note != "traced" {
				t.Fatalf("meta_echo answered %q: %v", res.Content[0].(*mcp.TextContent).Text, err)
			}
			upTP, _ := echoed.Meta["traceparent"].(string)
			parts := strings.Split(upTP, "-")
			if len(parts) != 4 || parts[1] != traceID || parts[2] == callerSpan {
				t.Fatalf("the upstream received traceparent %q, want one of trace %s from the gateway's own span", upTP, traceID)
			}

			server, client := "tools/call meta_echo", "tools/call meta_echo"
			tr := j.trace(t, traceID, names(server, client, "judge.check", "judge.outcome"))
			var srv, cli jspan
			for _, s := range tr.Spans {
				switch s.tag("span.kind") {
				case "server":
					if s.OperationName == server {
						srv = s
					}
				case "client":
					if s.OperationName == client {
						cli = s
					}
				}
			}
			if srv.SpanID == "" || cli.SpanID == "" {
				t.Fatalf("the trace lacks the gateway's server or client span: %+v", tr.Spans)
			}
			if srv.parent() != callerSpan {
				t.Errorf("%s's parent is %q, want the caller's span %s from _meta", server, srv.parent(), callerSpan)
			}
			if cli.parent() != srv.SpanID {
				t.Errorf("the upstream call's span is under %q, want the server span %s", cli.parent(), srv.SpanID)
			}
			if parts[2] != cli.SpanID {
				t.Errorf("the upstream received parent span %s, want the client span %s", parts[2], cli.SpanID)
			}
			want := map[string]any{
				"mcp.method.name":       "tools/call",
				"gen_ai.operation.name": "execute_tool",
				"gen_ai.tool.name":      "meta_echo",
				"gen_ai.tool.call.id":   "call_42",
				"network.transport":     transport,
				"judge.valid":           true,
				"judge.confidence":      1.0,
				"judge.status":          "SATISFIED",
				"mcp.protocol.version":  cs.InitializeResult().ProtocolVersion,
			}
			if transport == "tcp" {
				want["network.protocol.name"] = "http"
			}
			// The JSON-RPC id of the client's tools/call: the SDK's client
			// numbers its requests, so it is digits.
			if id, _ := srv.tag("jsonrpc.request.id").(string); id == "" || strings.Trim(id, "0123456789") != "" {
				t.Errorf("%s: jsonrpc.request.id = %v, want the request's numeric id", server, srv.tag("jsonrpc.request.id"))
			}
			for _, step := range []string{"judge.check", "judge.outcome"} {
				if s := tr.byName(t, step); s.parent() != srv.SpanID {
					t.Errorf("%s is under %q, want the call's span %s", step, s.parent(), srv.SpanID)
				}
			}
			if sid != "" {
				want["mcp.session.id"] = sid // streamable HTTP's session id
			} else if id, _ := srv.tag("mcp.session.id").(string); id == "" {
				t.Errorf("%s has no mcp.session.id", server)
			}
			for k, v := range want {
				if got := srv.tag(k); got != v {
					t.Errorf("%s: %s = %v, want %v", server, k, got, v)
				}
			}
			t.Logf("trace %s as Jaeger answers it:\n%s", traceID, tr.render(callerSpan))
			if srv.tag("gen_ai.tool.call.arguments") != nil {
				t.Errorf("the arguments were recorded without OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT")
			}
			if transport == "tcp" {
				// The HTTP request's span, of a trace of its own (the
				// client sent no traceparent header), is linked.
				links := srv.links()
				if len(links) != 1 || links[0].TraceID == traceID {
					t.Fatalf("%s links %+v, want the HTTP request's span", server, links)
				}
				ht := j.trace(t, links[0].TraceID, func(tr jtrace) bool { return len(tr.Spans) > 0 })
				if s := ht.byName(t, "POST /mcp"); s.SpanID != links[0].SpanID {
					t.Errorf("the link names span %s, the HTTP request's is %s", links[0].SpanID, s.SpanID)
				}
			}
		})
	}
}

// TestGatewayPassesTraceparent calls a tool through judge gateway with
// no OTEL_* variable set: the gateway records no span, and the upstream
// receives the caller's traceparent, tracestate and baggage as they came,
// so that the caller's trace goes on past it.
func TestGatewayPassesTraceparent(t *testing.T) {
	t.Parallel()
	reg := metaEchoRegistry(t)
	cmd := exec.Command(judgeBin(t), "gateway", "--tools", reg)
	cmd.Env = append(os.Environ(), "OTEL_EXPORTER_OTLP_ENDPOINT=", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT=", "OTEL_TRACES_EXPORTER=")
	var errs sharedtest.SyncBuffer
	cmd.Stderr = &errs
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "otel-test", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v\n%s", err, errs.String())
	}
	defer cs.Close()
	tp, _, _ := newTraceparent()
	want := map[string]any{"traceparent": tp, "tracestate": "vendor=abc", "baggage": "user=ada"}
	meta := mcp.Meta{}
	for k, v := range want {
		meta[k] = v
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "meta_echo", Arguments: map[string]any{"note": "untraced"}, Meta: meta})
	if err != nil || res.IsError {
		t.Fatalf("meta_echo: %v %+v", err, res)
	}
	var echoed struct {
		Meta map[string]any `json:"meta"`
	}
	if err := json.Unmarshal([]byte(res.Content[0].(*mcp.TextContent).Text), &echoed); err != nil {
		t.Fatal(err)
	}
	for k, v := range want {
		if echoed.Meta[k] != v {
			t.Errorf("the upstream received %s = %v, want the caller's %v", k, echoed.Meta[k], v)
		}
	}
	if strings.Contains(errs.String(), "exporting traces") {
		t.Errorf("the gateway exports traces without the variables:\n%s", errs.String())
	}
}

// connectGatewayHTTP starts the gateway with --http on a loopback port
// and connects over streamable HTTP once it logs where it listens.
func connectGatewayHTTP(t *testing.T, cmd *exec.Cmd) *mcp.ClientSession {
	t.Helper()
	cmd.Args = append(cmd.Args, "--http", "127.0.0.1:0")
	pr, pw := io.Pipe()
	cmd.Stderr = pw
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Signal(os.Interrupt)
		cmd.Wait()
		pw.Close()
	})
	urls := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			var rec struct{ Msg, URL string }
			if json.Unmarshal(sc.Bytes(), &rec) == nil && rec.Msg == "listening" && rec.URL != "" {
				select {
				case urls <- rec.URL:
				default:
				}
			}
		}
	}()
	var url string
	select {
	case url = <-urls:
	case <-time.After(2 * time.Minute):
		t.Fatal("the gateway logged no URL within 2 minutes")
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "otel-test", Version: "1"}, nil).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return cs
}
