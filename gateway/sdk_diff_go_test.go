// Roots, sampling and logging are deprecated by SEP-2577 (protocol
// 2026-07-28) but remain in the protocol for at least a year, and the
// gateway must carry them while servers use them (issue 24).
//
//lint:file-ignore SA1019 the differential test exercises the deprecated roots, sampling and logging features on purpose

package gateway_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The Go SDK side of the differential test: the same feature table as
// testdata/sdkclient/diff.mjs, run by go-sdk's mcp.Client, with the same
// normalization (written down in diff.mjs, and below where Go differs).

var (
	uuidRE = regexp.MustCompile(`(?i)[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)
	timeRE = regexp.MustCompile(`\b\d{1,2}:\d{2}:\d{2}(\s?[AP]M)?`)
	// simulatedLogRE matches server-everything's simulated log messages,
	// whose level and text are drawn at random.
	simulatedLogRE = regexp.MustCompile(`(?i)level.?message`)
)

func normString(s string) string {
	s = uuidRE.ReplaceAllString(s, "<session>")
	s = strings.ReplaceAll(s, "session undefined", "session <session>")
	return timeRE.ReplaceAllString(s, "<time>")
}

// normalizeJSON is diff.mjs's normalize on a decoded JSON value.
func normalizeJSON(v any) any {
	switch x := v.(type) {
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = normalizeJSON(e)
		}
		return out
	case string:
		return normString(x)
	case map[string]any:
		out := map[string]any{}
		for k, e := range x {
			if k == "_meta" {
				if m, ok := e.(map[string]any); ok {
					m2 := map[string]any{}
					for mk, mv := range m {
						if mk != "judge" && mk != "io.modelcontextprotocol/serverInfo" && mk != "io.modelcontextprotocol/related-task" {
							m2[mk] = mv
						}
					}
					if len(m2) == 0 {
						continue
					}
					e = m2
				}
			}
			if k == "progressToken" {
				out[k] = "<token>"
				continue
			}
			if s, ok := e.(string); k == "blob" && ok {
				if b, err := base64.StdEncoding.DecodeString(s); err == nil && isPrintable(b) && timeRE.Match(b) {
					out[k] = "base64:" + normString(string(b))
					continue
				}
			}
			out[k] = normalizeJSON(e)
		}
		return out
	}
	return v
}

func isPrintable(b []byte) bool {
	for _, c := range b {
		if c < 0x20 || c > 0x7e {
			return false
		}
	}
	return true
}

// asJSON is v encoded, decoded and normalized.
func asJSON(v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		return map[string]any{"marshal_error": err.Error()}
	}
	var out any
	_ = json.Unmarshal(b, &out)
	return normalizeJSON(out)
}

// goClient runs the feature table with go-sdk's client on one session.
type goClient struct {
	mu            sync.Mutex
	notifications []any
	changed       map[string]bool
	rootsLogged   bool
	rootsAsked    int
	sampling      []any
	elicitation   []any
	wake          chan struct{} // poked at every notification
	progress      chan *mcp.ProgressNotificationParams
	cs            *mcp.ClientSession
}

func (g *goClient) note(method string, params any) {
	n := map[string]any{"method": method, "params": asJSON(params)}
	g.mu.Lock()
	switch {
	case strings.HasSuffix(method, "/list_changed"):
		g.changed[method] = true
	default:
		if lm, ok := params.(*mcp.LoggingMessageParams); ok {
			if s, ok := lm.Data.(string); ok && strings.HasPrefix(s, "Roots updated") {
				g.rootsLogged = true
				break
			} else if ok && simulatedLogRE.MatchString(s) {
				p := n["params"].(map[string]any)
				p["level"], p["data"] = "<random>", "<simulated log message>"
			}
		}
		g.notifications = append(g.notifications, n)
	}
	g.mu.Unlock()
	g.poke()
}

// poke wakes a waitFor.
func (g *goClient) poke() {
	select {
	case g.wake <- struct{}{}:
	default:
	}
}

// waitFor returns when cond holds, checked at every notification, or
// false after d.
func (g *goClient) waitFor(cond func() bool, d time.Duration) bool {
	deadline := time.NewTimer(d)
	defer deadline.Stop()
	for {
		g.mu.Lock()
		ok := cond()
		g.mu.Unlock()
		if ok {
			return true
		}
		select {
		case <-g.wake:
		case <-deadline.C:
			return false
		}
	}
}

// connectGo connects go-sdk's client, with roots, sampling and
// elicitation, over a stdio command or a streamable HTTP URL.
func (f *sdkFixture) connectGo(ctx context.Context, stdio []string, env map[string]string, url string) (*goClient, error) {
	g := &goClient{changed: map[string]bool{}, wake: make(chan struct{}, 1), progress: make(chan *mcp.ProgressNotificationParams, 64)}
	client := mcp.NewClient(&mcp.Implementation{Name: "judge-sdk-diff-go", Version: "1.0.0"}, &mcp.ClientOptions{
		CreateMessageHandler: func(_ context.Context, req *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
			g.mu.Lock()
			g.sampling = append(g.sampling, asJSON(req.Params))
			g.mu.Unlock()
			return &mcp.CreateMessageResult{Model: "judge-test-model", Role: "assistant", StopReason: "endTurn", Content: &mcp.TextContent{Text: "a deterministic answer"}}, nil
		},
		ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			g.mu.Lock()
			g.elicitation = append(g.elicitation, asJSON(map[string]any{"message": req.Params.Message}))
			g.mu.Unlock()
			return &mcp.ElicitResult{Action: "decline"}, nil
		},
		LoggingMessageHandler: func(_ context.Context, req *mcp.LoggingMessageRequest) {
			g.note("notifications/message", req.Params)
		},
		ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
			select {
			case g.progress <- req.Params:
			default:
			}
		},
		ToolListChangedHandler: func(_ context.Context, req *mcp.ToolListChangedRequest) {
			g.note("notifications/tools/list_changed", req.Params)
		},
		ResourceListChangedHandler: func(_ context.Context, req *mcp.ResourceListChangedRequest) {
			g.note("notifications/resources/list_changed", req.Params)
		},
		PromptListChangedHandler: func(_ context.Context, req *mcp.PromptListChangedRequest) {
			g.note("notifications/prompts/list_changed", req.Params)
		},
	})
	client.AddRoots(&mcp.Root{URI: "file://" + f.rootA, Name: "root 1"})
	client.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			res, err := next(ctx, method, req)
			if method == "roots/list" {
				g.mu.Lock()
				g.rootsAsked++
				g.mu.Unlock()
				g.poke()
			}
			return res, err
		}
	})
	var t mcp.Transport
	if url != "" {
		t = &mcp.StreamableClientTransport{Endpoint: url}
	} else {
		cmd := exec.Command(stdio[0], stdio[1:]...)
		cmd.Env = os.Environ()
		for k, v := range env {
			cmd.Env = append(cmd.Env, k+"="+v)
		}
		t = &mcp.CommandTransport{Command: cmd}
	}
	cs, err := client.Connect(ctx, t, nil)
	if err != nil {
		return nil, err
	}
	g.cs = cs
	return g, nil
}

// run runs one feature into a featureLine.
func (g *goClient) run(feature string, fn func() (any, error)) featureLine {
	g.mu.Lock()
	g.notifications = nil
	g.mu.Unlock()
	ans, err := fn()
	line := featureLine{Feature: feature, Accepted: err == nil, Errors: json.RawMessage("[]")}
	if err != nil {
		// go-sdk's errors carry the JSON-RPC code in their text.
		ans = map[string]any{"error": map[string]any{"message": normString(err.Error())}}
	}
	line.Answer, _ = json.Marshal(asJSON(ans))
	g.mu.Lock()
	seen := map[string]any{}
	for _, n := range g.notifications {
		b, _ := json.Marshal(n)
		seen[string(b)] = n
	}
	g.mu.Unlock()
	keys := make([]string, 0, len(seen))
	for k := range seen {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	list := make([]any, 0, len(keys))
	for _, k := range keys {
		list = append(list, seen[k])
	}
	line.Notifications, _ = json.Marshal(list)
	return line
}

func (g *goClient) call(ctx context.Context, name string, args any) (*mcp.CallToolResult, error) {
	return g.cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
}

func refusalShape(res *mcp.CallToolResult) map[string]any {
	var kinds []string
	for _, c := range res.Content {
		b, _ := json.Marshal(c)
		var k struct{ Type string }
		_ = json.Unmarshal(b, &k)
		kinds = append(kinds, k.Type)
	}
	return map[string]any{"isError": res.IsError, "content": kinds, "structuredContent": res.StructuredContent != nil}
}

func (g *goClient) polling(ctx context.Context, name string, args any) (any, error) {
	var out []any
	for range 6 {
		res, err := g.call(ctx, name, args)
		if err != nil {
			return nil, err
		}
		out = append(out, map[string]any{"isError": res.IsError, "content": res.Content, "structuredContent": res.StructuredContent})
	}
	return out, nil
}

// features runs the server's feature table, in diff.mjs's order.
func (g *goClient) features(ctx context.Context, server string, f *sdkFixture) ([]featureLine, error) {
	var lines []featureLine
	run := func(feature string, fn func() (any, error)) { lines = append(lines, g.run(feature, fn)) }
	call := func(name string, args any) func() (any, error) {
		return func() (any, error) { return g.call(ctx, name, args) }
	}
	refusal := func(name string, args any) func() (any, error) {
		return func() (any, error) {
			res, err := g.call(ctx, name, args)
			if err != nil {
				return nil, err
			}
			return refusalShape(res), nil
		}
	}
	run("initialize", func() (any, error) {
		ir := g.cs.InitializeResult()
		return map[string]any{"capabilities": ir.Capabilities, "instructions": ir.Instructions}, nil
	})
	run("tools/list", func() (any, error) {
		res, err := g.cs.ListTools(ctx, nil)
		if err != nil {
			return nil, err
		}
		tools := slices.Clone(res.Tools)
		slices.SortFunc(tools, func(a, b *mcp.Tool) int { return strings.Compare(a.Name, b.Name) })
		return map[string]any{"tools": tools, "nextCursor": res.NextCursor}, nil
	})
	switch server {
	case "everything":
		run("call/text", call("echo", map[string]any{"message": "through judge"}))
		run("call/image", call("get-tiny-image", map[string]any{}))
		run("call/annotated", call("get-annotated-message", map[string]any{"messageType": "success", "includeImage": true}))
		run("call/embedded-resource", call("get-resource-reference", map[string]any{"resourceType": "Text", "resourceId": 2}))
		var link string
		run("call/resource-link", func() (any, error) {
			res, err := g.call(ctx, "get-resource-links", map[string]any{"count": 2})
			if err == nil {
				for _, c := range res.Content {
					if rl, ok := c.(*mcp.ResourceLink); ok && link == "" {
						link = rl.URI
					}
				}
			}
			return res, err
		})
		run("call/structured", call("get-structured-content", map[string]any{"location": "Chicago"}))
		run("call/upstream-error", call("get-resource-reference", map[string]any{"resourceType": "Text", "resourceId": -1}))
		run("call/invalid-args", refusal("echo", map[string]any{"msg": "the wrong name"}))
		run("call/invalid-args-output-schema", refusal("get-structured-content", map[string]any{"location": "Paris"}))
		run("progress", func() (any, error) {
			for len(g.progress) > 0 {
				<-g.progress
			}
			p := &mcp.CallToolParams{Name: "trigger-long-running-operation", Arguments: map[string]any{"duration": 0.3, "steps": 3}}
			p.SetProgressToken("progress-1")
			res, err := g.cs.CallTool(ctx, p)
			var seen []*mcp.ProgressNotificationParams
			for len(g.progress) > 0 {
				seen = append(seen, <-g.progress)
			}
			rising, totals := true, map[float64]bool{}
			for i, s := range seen {
				if i > 0 && s.Progress <= seen[i-1].Progress {
					rising = false
				}
				totals[s.Total] = true
			}
			var ts []float64
			for t := range totals {
				ts = append(ts, t)
			}
			slices.Sort(ts)
			return map[string]any{"result": res, "progress": len(seen) > 0, "rising": rising, "totals": ts}, err
		})
		run("logging", func() (any, error) {
			if err := g.cs.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: "debug"}); err != nil {
				return nil, err
			}
			on, err := g.call(ctx, "toggle-simulated-logging", map[string]any{})
			if err != nil {
				return nil, err
			}
			got := g.waitFor(func() bool {
				return slices.ContainsFunc(g.notifications, func(n any) bool { return n.(map[string]any)["method"] == "notifications/message" })
			}, 1500*time.Millisecond)
			off, err := g.call(ctx, "toggle-simulated-logging", map[string]any{})
			return map[string]any{"on": on, "off": off, "message": got}, err
		})
		run("resources/list", func() (any, error) { return g.cs.ListResources(ctx, nil) })
		run("resources/templates", func() (any, error) { return g.cs.ListResourceTemplates(ctx, nil) })
		run("resources/read", func() (any, error) {
			return g.cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "demo://resource/dynamic/text/1"})
		})
		run("resources/read-link", func() (any, error) {
			if link == "" {
				return nil, errors.New("no resource link to read")
			}
			return g.cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: link})
		})
		run("prompts/list", func() (any, error) { return g.cs.ListPrompts(ctx, nil) })
		run("prompts/get", func() (any, error) {
			return g.cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "args-prompt", Arguments: map[string]string{"city": "Paris", "state": "Texas"}})
		})
		run("completion", func() (any, error) {
			return g.cs.Complete(ctx, &mcp.CompleteParams{Ref: &mcp.CompleteReference{Type: "ref/prompt", Name: "completable-prompt"},
				Argument: mcp.CompleteParamsArgument{Name: "department", Value: "E"}})
		})
		run("roots", func() (any, error) {
			// server-everything asks for the roots 350 ms after
			// initialize and then logs "Roots updated": wait for that
			// (or 2 s, when it never comes).
			g.waitFor(func() bool { return g.rootsLogged }, 2*time.Second)
			res, err := g.call(ctx, "get-roots-list", map[string]any{})
			g.mu.Lock()
			defer g.mu.Unlock()
			return map[string]any{"result": res, "requests": g.rootsAsked > 0, "logged": g.rootsLogged}, err
		})
		run("sampling", func() (any, error) {
			g.mu.Lock()
			g.sampling = nil
			g.mu.Unlock()
			res, err := g.call(ctx, "trigger-sampling-request", map[string]any{"prompt": "Say hi", "maxTokens": 20})
			g.mu.Lock()
			defer g.mu.Unlock()
			return map[string]any{"result": res, "requests": g.sampling}, err
		})
		run("elicitation", func() (any, error) {
			g.mu.Lock()
			g.elicitation = nil
			g.mu.Unlock()
			res, err := g.call(ctx, "trigger-elicitation-request", map[string]any{})
			g.mu.Lock()
			defer g.mu.Unlock()
			return map[string]any{"result": res, "requests": g.elicitation}, err
		})
		run("cancellation", func() (any, error) {
			for len(g.progress) > 0 {
				<-g.progress
			}
			cctx, cancel := context.WithCancel(ctx)
			done := make(chan error, 1)
			go func() {
				p := &mcp.CallToolParams{Name: "trigger-long-running-operation", Arguments: map[string]any{"duration": 2, "steps": 4}}
				p.SetProgressToken("cancel-1")
				_, err := g.cs.CallTool(cctx, p)
				done <- err
			}()
			// Cancel at the first progress notification, or after a
			// second when none comes (the gateway's case today).
			select {
			case <-g.progress:
			case <-time.After(time.Second):
			}
			cancel()
			err := <-done
			cancelled := "completed"
			if errors.Is(err, context.Canceled) {
				cancelled = "aborted"
			} else if err != nil {
				cancelled = "error: " + err.Error()
			}
			next, err := g.call(ctx, "echo", map[string]any{"message": "after the cancel"})
			return map[string]any{"cancelled": cancelled, "next": next}, err
		})
		run("list-changed", func() (any, error) {
			g.mu.Lock()
			clear(g.changed)
			g.mu.Unlock()
			res, err := g.call(ctx, "gzip-file-as-resource", map[string]any{"name": "hello.txt.gz", "data": "data:text/plain,hello", "outputType": "resourceLink"})
			if err != nil {
				return nil, err
			}
			received := g.waitFor(func() bool { return g.changed["notifications/resources/list_changed"] }, 1500*time.Millisecond)
			var read any
			for _, c := range res.Content {
				if rl, ok := c.(*mcp.ResourceLink); ok {
					r, err := g.cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: rl.URI})
					if err != nil {
						return nil, err
					}
					read = r
					break
				}
			}
			return map[string]any{"result": res, "received": received, "read": read}, nil
		})
		run("polling", func() (any, error) { return g.polling(ctx, "get-sum", map[string]any{"a": 1, "b": 2}) })
	case "filesystem":
		// server-filesystem asks for the client's roots once the session is
		// initialized and then narrows its directories to them: wait until
		// the client has answered (or 2 s, when it is never asked).
		g.waitFor(func() bool { return g.rootsAsked > 0 }, 2*time.Second)
		run("call/text", call("read_text_file", map[string]any{"path": f.inside}))
		run("call/image", call("read_media_file", map[string]any{"path": f.image}))
		run("call/structured", call("list_allowed_directories", map[string]any{}))
		run("call/upstream-error", call("read_text_file", map[string]any{"path": f.inside + ".missing"}))
		run("call/invalid-args-output-schema", refusal("read_text_file", map[string]any{"file": f.inside}))
		run("roots", func() (any, error) {
			allowed, err := g.call(ctx, "list_allowed_directories", map[string]any{})
			if err != nil {
				return nil, err
			}
			outside, err := g.call(ctx, "read_text_file", map[string]any{"path": f.outside})
			g.mu.Lock()
			defer g.mu.Unlock()
			return map[string]any{"requested": g.rootsAsked > 0, "allowed": allowed, "outside": outside}, err
		})
		run("polling", func() (any, error) { return g.polling(ctx, "read_text_file", map[string]any{"path": f.inside}) })
	case "memory":
		run("call/structured", call("create_entities", map[string]any{"entities": []any{map[string]any{"name": "Ada", "entityType": "person", "observations": []string{"wrote the first program"}}}}))
		run("call/text", call("open_nodes", map[string]any{"names": []string{"Ada"}}))
		run("call/upstream-error", call("add_observations", map[string]any{"observations": []any{map[string]any{"entityName": "Nobody", "contents": []string{"x"}}}}))
		run("call/invalid-args-output-schema", refusal("create_entities", map[string]any{"entity": "Ada"}))
		run("polling", func() (any, error) { return g.polling(ctx, "read_graph", map[string]any{}) })
	default:
		return nil, fmt.Errorf("no feature table for %s", server)
	}
	return lines, nil
}

// runGo connects the Go client over a transport and runs the table.
func (f *sdkFixture) runGo(ctx context.Context, server string, stdio []string, env map[string]string, url string) (map[string]featureLine, []string, error) {
	g, err := f.connectGo(ctx, stdio, env, url)
	if err != nil {
		return nil, nil, fmt.Errorf("connect %s: %w", server, err)
	}
	defer g.cs.Close()
	lines, err := g.features(ctx, server, f)
	if err != nil {
		return nil, nil, err
	}
	out := map[string]featureLine{}
	var order []string
	for _, l := range lines {
		out[l.Feature] = l
		order = append(order, l.Feature)
	}
	return out, order, nil
}

// TestSDKDiffGo runs the Go SDK client's feature table against the three
// reference servers, directly and through judge gateway, over stdio and
// streamable HTTP, and compares feature by feature.
func TestSDKDiffGo(t *testing.T) {
	t.Parallel()
	f := needSDKClient(t)
	runDiff(t, f, "go", f.runGo)
}
