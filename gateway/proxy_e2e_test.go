package gateway_test

//lint:file-ignore SA1019 roots, sampling and logging are deprecated by protocol 2026-07-28 (SEP-2577) but live in every earlier version, which a proxy must carry (docs/gateway.md, "What MCP carries").

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentjudge/judge/internal/sharedtest"
)

// The gateway as an MCP proxy, against the real reference servers of
// npm (installed by scripts/test in executor/testdata/node): each feature
// asked of a server directly and through judge gateway gives the same
// answer but for _meta.judge and the calls judge refuses.

// refServer is one reference server: the command that runs it directly
// and the registry that puts judge gateway in front of it.
type refServer struct {
	name string
	argv []string // node and its arguments
	env  []string
}

// reference returns the reference server pkg (server-everything,
// server-filesystem, server-memory) run with args, skipping the test when
// it is not installed.
func reference(t *testing.T, pkg string, args ...string) refServer {
	t.Helper()
	js, _ := filepath.Abs(filepath.Join("../executor/testdata/node/node_modules/@modelcontextprotocol", pkg, "dist/index.js"))
	if _, err := os.Stat(js); err != nil {
		t.Skipf("@modelcontextprotocol/%s is not installed (scripts/test runs npm ci in executor/testdata/node): %v", pkg, err)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	return refServer{name: strings.TrimPrefix(pkg, "server-"), argv: append([]string{node, js}, args...)}
}

// direct is the command that runs the server itself.
func (s refServer) direct() *exec.Cmd {
	cmd := exec.Command(s.argv[0], s.argv[1:]...)
	cmd.Env = append(os.Environ(), s.env...)
	return cmd
}

// gateway is judge gateway in front of the server, with args.
func (s refServer) gateway(t *testing.T, args ...string) *exec.Cmd {
	t.Helper()
	dir := t.TempDir()
	q := func(l []string) string {
		b, _ := json.Marshal(l)
		return string(b)
	}
	env := map[string]string{}
	for _, kv := range s.env {
		k, v, _ := strings.Cut(kv, "=")
		env[k] = v
	}
	envJSON, _ := json.Marshal(env)
	manifest := fmt.Sprintf(`tool_id: %s
tool_type: mcp_server
version: "1.0.0"
executor: subprocess
description: The reference MCP server %s
config:
  transport: stdio
  command: %s
  args: %s
  env: %s
  startup_timeout: 60
`, s.name, s.name, s.argv[0], q(s.argv[1:]), envJSON)
	if err := os.WriteFile(filepath.Join(dir, s.name+".yaml"), []byte(manifest), 0o600); err != nil {
		t.Fatal(err)
	}
	return exec.Command(judgeBin, append([]string{"gateway", "--tools", dir}, args...)...)
}

// rawClient speaks JSON-RPC lines to a server's stdin and stdout, so that
// what the server sent is seen as it is (the SDK's types drop members
// they do not know).
type rawClient struct {
	t    *testing.T
	in   io.WriteCloser
	out  *bufio.Reader
	next int
}

func startRaw(t *testing.T, cmd *exec.Cmd, caps string) *rawClient {
	t.Helper()
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	errs := &sharedtest.SyncBuffer{}
	cmd.Stderr = errs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		in.Close()
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
	})
	c := &rawClient{t: t, in: in, out: bufio.NewReaderSize(out, 1<<20)}
	c.request("initialize", `{"protocolVersion":"2025-06-18","capabilities":`+caps+`,"clientInfo":{"name":"proxy-test","version":"1"}}`)
	c.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return c
}

func (c *rawClient) send(line string) {
	c.t.Helper()
	if _, err := io.WriteString(c.in, line+"\n"); err != nil {
		c.t.Fatal(err)
	}
}

// request sends a request and returns its result, answering the
// server's roots/list with no roots and skipping notifications.
func (c *rawClient) request(method, params string) json.RawMessage {
	c.t.Helper()
	c.next++
	id := c.next
	c.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q,"params":%s}`, id, method, params))
	for {
		line, err := c.out.ReadBytes('\n')
		if err != nil {
			c.t.Fatalf("%s: reading the answer: %v", method, err)
		}
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Result json.RawMessage `json:"result"`
			Error  json.RawMessage `json:"error"`
		}
		if err := json.Unmarshal(line, &msg); err != nil {
			c.t.Fatalf("%s: %v in %s", method, err, line)
		}
		switch {
		case msg.Method == "roots/list" && msg.ID != nil:
			c.send(`{"jsonrpc":"2.0","id":` + string(msg.ID) + `,"result":{"roots":[]}}`)
		case msg.Method != "":
		case string(msg.ID) == fmt.Sprint(id):
			if msg.Error != nil {
				c.t.Fatalf("%s: error %s", method, msg.Error)
			}
			return msg.Result
		}
	}
}

// rawTools is the tools of a tools/list result, decoded as JSON values.
func rawTools(t *testing.T, res json.RawMessage) []map[string]any {
	t.Helper()
	var r struct {
		Tools []map[string]any `json:"tools"`
	}
	if err := json.Unmarshal(res, &r); err != nil {
		t.Fatal(err)
	}
	return r.Tools
}

// TestProxyToolsList compares tools/list of each reference server, direct
// and through judge gateway, member by member and in order: title,
// annotations, execution, outputSchema, icons and _meta reach the client.
// The one difference allowed is a tool that requires tasks, which the
// gateway leaves out.
func TestProxyToolsList(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	servers := []refServer{
		reference(t, "server-everything", "stdio"),
		reference(t, "server-filesystem", root),
		reference(t, "server-memory"),
	}
	servers[2].env = []string{"MEMORY_FILE_PATH=" + filepath.Join(root, "memory.json")}
	for _, s := range servers {
		t.Run(s.name, func(t *testing.T) {
			t.Parallel()
			direct := rawTools(t, startRaw(t, s.direct(), `{}`).request("tools/list", `{}`))
			through := rawTools(t, startRaw(t, s.gateway(t), `{}`).request("tools/list", `{}`))
			var want []map[string]any
			var required []string
			for _, tool := range direct {
				if ex, _ := tool["execution"].(map[string]any); ex["taskSupport"] == "required" {
					required = append(required, tool["name"].(string))
					continue
				}
				want = append(want, tool)
			}
			if len(through) != len(want) {
				t.Fatalf("gateway lists %d tools, the server %d of which %d do not require tasks", len(through), len(direct), len(want))
			}
			members := 0
			for i := range want {
				if !reflect.DeepEqual(through[i], want[i]) {
					a, _ := json.Marshal(want[i])
					b, _ := json.Marshal(through[i])
					t.Errorf("tool %d differs:\n direct  %s\n gateway %s", i, a, b)
				}
				members += len(want[i])
			}
			t.Logf("%s: %d tools, %d members, the same direct and through the gateway; left out as requiring tasks: %v", s.name, len(want), members, required)
		})
	}
}

// proxyClient is a go-sdk client session with what the tests count.
type proxyClient struct {
	errs     *sharedtest.SyncBuffer // the server's stderr
	client   *mcp.Client
	cs       *mcp.ClientSession
	mu       sync.Mutex
	progress []*mcp.ProgressNotificationParams
	logs     []*mcp.LoggingMessageParams
	logged   chan struct{}
	updated  chan string // URIs of notifications/resources/updated
	sampled  int
	elicited int
}

// connectProxy connects a go-sdk client with roots (when roots is not nil),
// sampling and elicitation handlers (when caps says so) to cmd.
func connectProxy(t *testing.T, cmd *exec.Cmd, roots []string, sampling, elicitation bool) *proxyClient {
	t.Helper()
	pc := &proxyClient{logged: make(chan struct{}, 1), updated: make(chan string, 16)}
	opts := &mcp.ClientOptions{
		Capabilities: &mcp.ClientCapabilities{},
		ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
			pc.mu.Lock()
			pc.progress = append(pc.progress, req.Params)
			pc.mu.Unlock()
		},
		ResourceUpdatedHandler: func(_ context.Context, req *mcp.ResourceUpdatedNotificationRequest) {
			select {
			case pc.updated <- req.Params.URI:
			default:
			}
		},
		LoggingMessageHandler: func(_ context.Context, req *mcp.LoggingMessageRequest) {
			pc.mu.Lock()
			pc.logs = append(pc.logs, req.Params)
			pc.mu.Unlock()
			select {
			case pc.logged <- struct{}{}:
			default:
			}
		},
	}
	if roots != nil {
		opts.Capabilities.RootsV2 = &mcp.RootCapabilities{ListChanged: true}
	}
	if sampling {
		opts.CreateMessageHandler = func(_ context.Context, req *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
			pc.mu.Lock()
			pc.sampled++
			pc.mu.Unlock()
			return &mcp.CreateMessageResult{Model: "test-model", Role: "assistant", Content: &mcp.TextContent{Text: "sampled answer"}}, nil
		}
	}
	if elicitation {
		opts.ElicitationHandler = func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			pc.mu.Lock()
			pc.elicited++
			pc.mu.Unlock()
			return &mcp.ElicitResult{Action: "decline"}, nil
		}
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "proxy-test", Version: "1"}, opts)
	for _, r := range roots {
		client.AddRoots(&mcp.Root{URI: "file://" + r, Name: filepath.Base(r)})
	}
	errs := &sharedtest.SyncBuffer{}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var tr mcp.Transport = &mcp.CommandTransport{Command: cmd}
	if slices.Contains(cmd.Args, "--http") {
		tr = &mcp.StreamableClientTransport{Endpoint: startListening(t, cmd, errs, listeningURL)}
	} else {
		cmd.Stderr = errs
	}
	cs, err := client.Connect(ctx, tr, nil)
	if err != nil {
		t.Fatalf("connect: %v\nstderr:\n%s", err, errs)
	}
	t.Cleanup(func() { cs.Close() })
	pc.cs, pc.client, pc.errs = cs, client, errs
	return pc
}

// ways are the ways to reach a reference server: directly, through judge
// gateway over stdio, and through it over streamable HTTP.
var ways = []string{"direct", "gateway", "gateway-http"}

// command is the command that reaches s the way named.
func (s refServer) command(t *testing.T, way string, args ...string) *exec.Cmd {
	switch way {
	case "gateway":
		return s.gateway(t, args...)
	case "gateway-http":
		return s.gateway(t, append(args, "--http", "127.0.0.1:0")...)
	}
	return s.direct()
}

// callTool calls a tool and returns its result without judge's block.
func (pc *proxyClient) callTool(t *testing.T, params *mcp.CallToolParams) *mcp.CallToolResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := pc.cs.CallTool(ctx, params)
	if err != nil {
		t.Fatalf("%s: %v", params.Name, err)
	}
	delete(res.Meta, "judge")
	if len(res.Meta) == 0 {
		res.Meta = nil
	}
	return res
}

// TestProxyRoots reads a file outside the client's roots through
// server-filesystem, which is started with two directories: directly the
// server denies it (it takes the client's roots over its command line),
// and so must the gateway, which offers the server the client's roots
// capability and answers its roots/list with the client's roots.
func TestProxyRoots(t *testing.T) {
	t.Parallel()
	inside, outside := t.TempDir(), t.TempDir()
	for _, d := range []string{inside, outside} {
		if err := os.WriteFile(filepath.Join(d, "note.txt"), []byte("secret of "+filepath.Base(d)), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	fs := reference(t, "server-filesystem", inside, outside)
	for _, way := range ways {
		t.Run(way, func(t *testing.T) {
			t.Parallel()
			cmd := fs.command(t, way, "--log-level", "debug")
			pc := connectProxy(t, cmd, []string{inside}, false, false)
			// The server asks for the roots after initialization and
			// applies them asynchronously; its list_allowed_directories
			// says when it has. The same call is polled: judge never
			// refuses a repeated successful call (decision 24).
			deadline := time.Now().Add(60 * time.Second)
			for {
				res := pc.callTool(t, &mcp.CallToolParams{Name: "list_allowed_directories", Arguments: map[string]any{}})
				if got := text(res); !strings.Contains(got, outside) {
					break
				} else if time.Now().After(deadline) {
					t.Fatalf("the server still allows the directory outside the client's roots: %s", got)
				}
			}
			in := pc.callTool(t, &mcp.CallToolParams{Name: "read_text_file", Arguments: map[string]any{"path": filepath.Join(inside, "note.txt")}})
			if in.IsError || !strings.Contains(text(in), "secret of "+filepath.Base(inside)) {
				t.Errorf("the file inside the roots: isError %v, %q", in.IsError, text(in))
			}
			out := pc.callTool(t, &mcp.CallToolParams{Name: "read_text_file", Arguments: map[string]any{"path": filepath.Join(outside, "note.txt")}})
			if !out.IsError || strings.Contains(text(out), "secret") {
				t.Errorf("the file outside the client's roots was read %s: %q", way, text(out))
			}
			t.Logf("%s: inside the roots read, outside denied: %q", way, firstLine(text(out)))

			// The client adds the other directory to its roots: the
			// server hears of it (roots/list_changed) and reads it.
			pc.client.AddRoots(&mcp.Root{URI: "file://" + outside, Name: filepath.Base(outside)})
			for {
				res := pc.callTool(t, &mcp.CallToolParams{Name: "list_allowed_directories", Arguments: map[string]any{}})
				if got := text(res); strings.Contains(got, outside) {
					break
				} else if time.Now().After(deadline) {
					t.Fatalf("the server did not take the client's new root: %s\nstderr:\n%s", got, pc.errs)
				}
				pc.callTool(t, &mcp.CallToolParams{Name: "list_directory", Arguments: map[string]any{"path": inside}})
			}
			out = pc.callTool(t, &mcp.CallToolParams{Name: "read_text_file", Arguments: map[string]any{"path": filepath.Join(outside, "note.txt")}})
			if out.IsError || !strings.Contains(text(out), "secret of "+filepath.Base(outside)) {
				t.Errorf("the file in the new root: isError %v, %q", out.IsError, text(out))
			}
		})
	}
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}

// TestProxyEverything runs server-everything's features that need the
// client, direct and through the gateway, with a client that has roots,
// sampling and elicitation: the tools that use them are offered, their
// requests reach the client, the progress of a long operation arrives
// under the caller's token as often as directly, and the answers are the
// same.
func TestProxyEverything(t *testing.T) {
	t.Parallel()
	ev := reference(t, "server-everything", "stdio")
	root := t.TempDir()
	got := map[string]*everythingOutcome{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for _, way := range ways {
		wg.Go(func() {
			pc := connectProxy(t, ev.command(t, way), []string{root}, true, true)
			o := &everythingOutcome{tools: map[string]bool{}, results: map[string]string{}}
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			for tool, err := range pc.cs.Tools(ctx, nil) {
				if err != nil {
					t.Errorf("%s: tools/list: %v", way, err)
					return
				}
				o.tools[tool.Name] = true
			}
			calls := []*mcp.CallToolParams{
				{Name: "trigger-sampling-request", Arguments: map[string]any{"prompt": "say hi", "maxTokens": 10}},
				{Name: "trigger-elicitation-request", Arguments: map[string]any{}},
				{Name: "get-roots-list", Arguments: map[string]any{}},
			}
			for _, c := range calls {
				if !o.tools[c.Name] {
					continue
				}
				res := pc.callTool(t, c)
				b, _ := json.Marshal(res)
				o.results[c.Name] = string(b)
			}
			lr := &mcp.CallToolParams{Name: "trigger-long-running-operation", Arguments: map[string]any{"duration": 1, "steps": 4}}
			lr.SetProgressToken("caller-token-1")
			pc.callTool(t, lr)
			pc.mu.Lock()
			o.progress, o.sampled, o.elicited = len(pc.progress), pc.sampled, pc.elicited
			o.tokens = true
			for _, p := range pc.progress {
				if p.ProgressToken != "caller-token-1" {
					o.tokens = false
				}
			}
			pc.mu.Unlock()
			mu.Lock()
			got[way] = o
			mu.Unlock()
		})
	}
	wg.Wait()
	d := got["direct"]
	for _, way := range ways[1:] {
		g := got[way]
		if d == nil || g == nil {
			t.Fatal("a side did not finish")
		}
		t.Run(way, func(t *testing.T) { compareEverything(t, d, g) })
	}
}

// everythingOutcome is what TestProxyEverything saw one way.
type everythingOutcome struct {
	tools    map[string]bool
	results  map[string]string
	progress int
	tokens   bool
	sampled  int
	elicited int
}

func compareEverything(t *testing.T, d, g *everythingOutcome) {
	for _, name := range []string{"trigger-sampling-request", "trigger-elicitation-request", "get-roots-list"} {
		if !d.tools[name] {
			t.Errorf("directly, server-everything does not offer %s to a client with roots, sampling and elicitation", name)
		}
		if !g.tools[name] {
			t.Errorf("the gateway does not offer %s", name)
		}
		if d.results[name] != g.results[name] {
			t.Errorf("%s differs:\n direct  %s\n gateway %s", name, d.results[name], g.results[name])
		}
	}
	// server-everything sends its last progress notification without
	// waiting for it, so that it may come after the result: a client
	// gets 3 or 4 of the 4 steps directly, and must through the gateway.
	if d.progress < 3 || g.progress < 3 || g.progress > 4 || !g.tokens {
		t.Errorf("progress notifications of 4 steps: direct %d, gateway %d (all with the caller's token: %v)", d.progress, g.progress, g.tokens)
	}
	if g.sampled != d.sampled || g.elicited != d.elicited || d.sampled == 0 || d.elicited == 0 {
		t.Errorf("requests reaching the client: sampling direct %d gateway %d, elicitation direct %d gateway %d", d.sampled, g.sampled, d.elicited, g.elicited)
	}
	t.Logf("direct: %d tools, %d progress, %d sampling, %d elicitation; gateway: %d tools, %d progress, %d sampling, %d elicitation",
		len(d.tools), d.progress, d.sampled, d.elicited, len(g.tools), g.progress, g.sampled, g.elicited)
}

// TestProxyResourcesPrompts asks server-everything for its resources,
// resource templates and prompts, reads the resource links a tool returns,
// gets prompts, completes a prompt's argument and subscribes to a
// resource, direct and through the gateway: the answers are the same.
func TestProxyResourcesPrompts(t *testing.T) {
	t.Parallel()
	ev := reference(t, "server-everything", "stdio")
	answers := map[string]map[string]string{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for _, way := range ways {
		wg.Go(func() {
			pc := connectProxy(t, ev.command(t, way), nil, false, false)
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			a := map[string]string{}
			put := func(key string, v any, err error) {
				if err != nil {
					a[key] = "error: " + err.Error()
					return
				}
				b, _ := json.Marshal(v)
				a[key] = string(b)
			}
			var resources []*mcp.Resource
			var err error
			for r, e := range pc.cs.Resources(ctx, nil) {
				if e != nil {
					err = e
					break
				}
				resources = append(resources, r)
			}
			put("resources/list (every page)", resources, err)
			var templates []*mcp.ResourceTemplate
			err = nil
			for r, e := range pc.cs.ResourceTemplates(ctx, nil) {
				if e != nil {
					err = e
					break
				}
				templates = append(templates, r)
			}
			put("resources/templates/list", templates, err)
			prompts, err := pc.cs.ListPrompts(ctx, nil)
			put("prompts/list", prompts, err)
			for _, p := range []*mcp.GetPromptParams{
				{Name: "simple-prompt"},
				{Name: "completable-prompt", Arguments: map[string]string{"department": "Engineering", "name": "Alice"}},
				{Name: "no-such-prompt"},
			} {
				res, err := pc.cs.GetPrompt(ctx, p)
				put("prompts/get "+p.Name, res, err)
			}
			comp, err := pc.cs.Complete(ctx, &mcp.CompleteParams{Ref: &mcp.CompleteReference{Type: "ref/prompt", Name: "completable-prompt"},
				Argument: mcp.CompleteParamsArgument{Name: "department", Value: "S"}})
			put("completion/complete", comp, err)
			links := pc.callTool(t, &mcp.CallToolParams{Name: "get-resource-links", Arguments: map[string]any{"count": 3}})
			n := 0
			for _, c := range links.Content {
				if l, ok := c.(*mcp.ResourceLink); ok {
					res, err := pc.cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: l.URI})
					put(fmt.Sprintf("resources/read link %d", n), untimed(res), err)
					n++
				}
			}
			res, err := pc.cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "demo://no/such/resource"})
			put("resources/read of no resource", res, err)
			if len(resources) > 0 {
				uri := resources[0].URI
				err := pc.cs.Subscribe(ctx, &mcp.SubscribeParams{URI: uri})
				put("resources/subscribe", "", err)
				pc.callTool(t, &mcp.CallToolParams{Name: "toggle-subscriber-updates", Arguments: map[string]any{}})
				select {
				case got := <-pc.updated:
					a["notifications/resources/updated"] = got
				case <-ctx.Done():
					a["notifications/resources/updated"] = "none"
				}
			}
			a["links read"] = fmt.Sprint(n)
			mu.Lock()
			answers[way] = a
			mu.Unlock()
		})
	}
	wg.Wait()
	d := answers["direct"]
	for _, way := range ways[1:] {
		g := answers[way]
		if d == nil || g == nil {
			t.Fatal("a side did not finish")
		}
		t.Run(way, func(t *testing.T) { compareAnswers(t, d, g) })
	}
	if d["links read"] == "0" {
		t.Error("get-resource-links returned no resource link")
	}
}

func compareAnswers(t *testing.T, d, g map[string]string) {
	keys := make([]string, 0, len(d))
	for k := range d {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		same := d[k] == g[k]
		if !same {
			t.Errorf("%s differs:\n direct  %.600s\n gateway %.600s", k, d[k], g[k])
		}
		t.Logf("%-32s same: %v (%d bytes)", k, same, len(d[k]))
	}
}

// clock is the time of day server-everything writes in its dynamic
// resources ("created at 11:51:57 PM").
var clock = regexp.MustCompile(`\d{1,2}:\d{2}:\d{2} [AP]M`)

// untimed is a read result with the time of day in its contents (text,
// or text as a base64 blob) replaced, so that two reads a second apart
// compare equal.
func untimed(res *mcp.ReadResourceResult) *mcp.ReadResourceResult {
	if res == nil {
		return nil
	}
	out := *res
	out.Contents = nil
	for _, c := range res.Contents {
		cp := *c
		cp.Text = clock.ReplaceAllString(cp.Text, "TIME")
		if len(cp.Blob) > 0 {
			cp.Blob = clock.ReplaceAll(cp.Blob, []byte("TIME"))
		}
		out.Contents = append(out.Contents, &cp)
	}
	return &out
}

// TestProxyLogging sets a logging level and turns on server-everything's
// simulated logging, direct and through the gateway: the level reaches
// the server and its log messages reach the client.
func TestProxyLogging(t *testing.T) {
	t.Parallel()
	ev := reference(t, "server-everything", "stdio")
	for _, way := range ways {
		t.Run(way, func(t *testing.T) {
			t.Parallel()
			pc := connectProxy(t, ev.command(t, way), nil, false, false)
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			if err := pc.cs.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: "debug"}); err != nil {
				t.Fatalf("logging/setLevel: %v", err)
			}
			pc.callTool(t, &mcp.CallToolParams{Name: "toggle-simulated-logging", Arguments: map[string]any{}})
			select {
			case <-pc.logged:
			case <-ctx.Done():
				t.Fatal("no notifications/message reached the client")
			}
			pc.mu.Lock()
			defer pc.mu.Unlock()
			t.Logf("%s: %d log messages, the first %v %q", way, len(pc.logs), pc.logs[0].Level, pc.logs[0].Data)
		})
	}
}

// TestProxyRootsSharedHTTP puts two clients with different roots on one
// gateway over streamable HTTP (decision 48): server-filesystem, shared,
// gets the roots both share, so the first client, whose own roots hold
// both directories, can no longer read the one the second client lacks.
func TestProxyRootsSharedHTTP(t *testing.T) {
	t.Parallel()
	inside, outside := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "note.txt"), []byte("secret"), 0o600); err != nil {
		t.Fatal(err)
	}
	fs := reference(t, "server-filesystem", inside, outside)
	cmd := fs.command(t, "gateway-http")
	errs := &sharedtest.SyncBuffer{}
	url := startListening(t, cmd, errs, listeningURL)
	connect := func(roots ...string) *proxyClient {
		pc := &proxyClient{errs: errs}
		client := mcp.NewClient(&mcp.Implementation{Name: "proxy-test", Version: "1"}, &mcp.ClientOptions{
			Capabilities: &mcp.ClientCapabilities{RootsV2: &mcp.RootCapabilities{ListChanged: true}},
		})
		for _, r := range roots {
			client.AddRoots(&mcp.Root{URI: "file://" + r})
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url}, nil)
		if err != nil {
			t.Fatalf("connect: %v\n%s", err, errs)
		}
		t.Cleanup(func() { cs.Close() })
		pc.cs, pc.client = cs, client
		return pc
	}
	// waitAllowed polls list_allowed_directories (a repeated successful
	// call, which judge never refuses) until the server allows outside or
	// not, as want says.
	waitAllowed := func(pc *proxyClient, want bool) {
		t.Helper()
		deadline := time.Now().Add(60 * time.Second)
		for {
			got := text(pc.callTool(t, &mcp.CallToolParams{Name: "list_allowed_directories", Arguments: map[string]any{}}))
			if strings.Contains(got, outside) == want {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("the server's directories, waiting for outside allowed=%v: %s\n%s", want, got, errs)
			}
		}
	}
	first := connect(inside, outside)
	waitAllowed(first, true)
	read := func(pc *proxyClient) *mcp.CallToolResult {
		return pc.callTool(t, &mcp.CallToolParams{Name: "read_text_file", Arguments: map[string]any{"path": filepath.Join(outside, "note.txt")}})
	}
	if res := read(first); res.IsError {
		t.Fatalf("alone, the first client cannot read its own root: %s", text(res))
	}
	second := connect(inside)
	waitAllowed(second, false)
	for name, pc := range map[string]*proxyClient{"first": first, "second": second} {
		if res := read(pc); !res.IsError {
			t.Errorf("the %s client read a directory outside the roots both clients share: %s", name, text(res))
		}
	}
}

// TestProxyHTTPUpstream: an upstream reached over streamable HTTP is
// proxied as faithfully as a stdio one. server-everything serves its own
// streamable HTTP, judge gateway reaches it as a streamable-http
// mcp_server, and a raw client compares, with the same server over stdio
// directly: tools/list member by member (execution, which go-sdk's Tool
// lacks, included), resources/read and prompts/get as the server sent
// them, and a tools/call's answer but for _meta.judge.
func TestProxyHTTPUpstream(t *testing.T) {
	t.Parallel()
	ev := reference(t, "server-everything", "stdio")
	url := everythingHTTP(t, ev.argv[0], ev.argv[1])
	dir := t.TempDir()
	manifest := fmt.Sprintf("tool_id: everything\ntool_type: mcp_server\nversion: \"1.0.0\"\nexecutor: http_client\ndescription: server-everything over streamable HTTP\nconfig:\n  transport: streamable-http\n  url: %s\n  startup_timeout: 60\n", url)
	if err := os.WriteFile(filepath.Join(dir, "everything.yaml"), []byte(manifest), 0o600); err != nil {
		t.Fatal(err)
	}
	direct := startRaw(t, ev.direct(), `{}`)
	through := startRaw(t, exec.Command(judgeBin, "gateway", "--tools", dir, "--allow-loopback"), `{}`)

	var want []map[string]any
	for _, tool := range rawTools(t, direct.request("tools/list", `{}`)) {
		if ex, _ := tool["execution"].(map[string]any); ex["taskSupport"] != "required" {
			want = append(want, tool)
		}
	}
	got := rawTools(t, through.request("tools/list", `{}`))
	if !reflect.DeepEqual(got, want) {
		a, _ := json.Marshal(want)
		b, _ := json.Marshal(got)
		t.Errorf("tools/list differs:\n direct  %s\n gateway %s", a, b)
	}
	executions := 0
	for _, tool := range got {
		if tool["execution"] != nil {
			executions++
		}
	}
	if executions == 0 {
		t.Error("no tool listed through the gateway has its execution member")
	}
	for _, req := range []struct{ method, params string }{
		{"resources/read", `{"uri":"demo://resource/static/document/architecture.md"}`},
		{"prompts/get", `{"name":"args-prompt","arguments":{"city":"Paris","state":"Texas"}}`},
		{"prompts/get", `{"name":"simple-prompt"}`},
	} {
		d, g := direct.request(req.method, req.params), through.request(req.method, req.params)
		if !bytes.Equal(compactJSON(t, d), compactJSON(t, g)) {
			t.Errorf("%s %s differs:\n direct  %s\n gateway %s", req.method, req.params, d, g)
		}
	}
	call := `{"name":"get-structured-content","arguments":{"location":"New York"}}`
	d, g := direct.request("tools/call", call), through.request("tools/call", call)
	var gm map[string]any
	if err := json.Unmarshal(g, &gm); err != nil {
		t.Fatal(err)
	}
	meta, _ := gm["_meta"].(map[string]any)
	if j, _ := meta["judge"].(map[string]any); j["status"] != "SATISFIED" {
		t.Errorf("tools/call through the gateway: no SATISFIED judge block in %s", g)
	}
	delete(meta, "judge")
	if len(meta) == 0 {
		delete(gm, "_meta")
	}
	var dm map[string]any
	if err := json.Unmarshal(d, &dm); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(dm, gm) {
		t.Errorf("tools/call differs but for _meta.judge:\n direct  %s\n gateway %s", d, g)
	}
}

// compactJSON is b without insignificant white space.
func compactJSON(t *testing.T, b []byte) []byte {
	t.Helper()
	var out bytes.Buffer
	if err := json.Compact(&out, b); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}
