package mcpstdio

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// held is a server whose calls wait: the SDK's tool "hold" and Answer's
// "fast-hold" each wait until release is closed (answering "released") or
// their context ends (reported on ended).
type held struct {
	tr      *Transport
	w       io.WriteCloser
	r       *bufio.Reader
	release chan struct{}
	ended   chan error
	started chan string   // a held call's name, once it waits
	done    chan struct{} // closed when Run returns
}

func newHeld(t *testing.T, drain time.Duration) *held {
	t.Helper()
	h := &held{release: make(chan struct{}), ended: make(chan error, 8), started: make(chan string, 8), done: make(chan struct{})}
	wait := func(ctx context.Context, name string) error {
		h.started <- name
		select {
		case <-h.release:
			return nil
		case <-ctx.Done():
			h.ended <- ctx.Err()
			return ctx.Err()
		}
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	srv := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "hold", Description: "waits"}, func(ctx context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
		if err := wait(ctx, "hold"); err != nil {
			return nil, nil, err
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "released"}}}, nil, nil
	})
	h.tr = &Transport{Reader: inR, Writer: outW, DrainTimeout: drain, Answer: func(method string, params json.RawMessage, initialized bool) Answerer {
		var p struct {
			Name string `json:"name"`
		}
		if method != "tools/call" || !initialized || json.Unmarshal(params, &p) != nil || p.Name != "fast-hold" {
			return nil
		}
		return func(ctx context.Context) (json.RawMessage, error) {
			if err := wait(ctx, "fast-hold"); err != nil {
				return nil, err
			}
			return json.RawMessage(`{"content":[{"type":"text","text":"released"}]}`), nil
		}
	}}
	go func() {
		_ = srv.Run(context.Background(), h.tr)
		close(h.done)
	}()
	t.Cleanup(func() {
		inW.Close()
		outR.Close()
		select {
		case <-h.done:
		case <-time.After(10 * time.Second):
			t.Error("the server did not stop")
		}
	})
	h.w, h.r = inW, bufio.NewReader(outR)
	send(t, h.w, initReq)
	readLine(t, h.r)
	send(t, h.w, initialized)
	return h
}

// waiting waits until n held calls wait.
func (h *held) waiting(t *testing.T, n int) {
	t.Helper()
	for range n {
		select {
		case <-h.started:
		case <-time.After(10 * time.Second):
			t.Fatal("a held call did not start")
		}
	}
}

// draining waits until the transport has begun to drain.
func (h *held) draining(t *testing.T) {
	t.Helper()
	select {
	case <-h.tr.conn.Load().drainStart:
	case <-time.After(10 * time.Second):
		t.Fatal("the transport did not begin to drain")
	}
}

// answers reads n answers and returns them by id.
func (h *held) answers(t *testing.T, n int) map[float64]map[string]any {
	t.Helper()
	out := map[float64]map[string]any{}
	for range n {
		m := readLine(t, h.r)
		id, _ := m["id"].(float64)
		out[id] = m
	}
	return out
}

func released(m map[string]any) bool {
	res, _ := m["result"].(map[string]any)
	c, _ := res["content"].([]any)
	first, _ := func() (map[string]any, bool) {
		if len(c) == 0 {
			return nil, false
		}
		f, ok := c[0].(map[string]any)
		return f, ok
	}()
	return first["text"] == "released"
}

// A request the client cancels gets no answer, on the SDK's path as on
// Answer's; its handler's context ends.
func TestCancelledGetsNoAnswer(t *testing.T) {
	t.Parallel()
	for _, tool := range []string{"hold", "fast-hold"} {
		t.Run(tool, func(t *testing.T) {
			t.Parallel()
			h := newHeld(t, time.Minute)
			send(t, h.w, `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"`+tool+`","arguments":{}}}`)
			h.waiting(t, 1)
			send(t, h.w, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":5,"reason":"user"}}`)
			select {
			case err := <-h.ended:
				if !errors.Is(err, context.Canceled) {
					t.Fatalf("the held call ended with %v", err)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("the cancelled call's context did not end")
			}
			send(t, h.w, `{"jsonrpc":"2.0","id":6,"method":"ping"}`)
			if m := readLine(t, h.r); m["id"] != 6.0 {
				t.Fatalf("after the cancellation: %v, want the answer to ping 6 (none to 5)", m)
			}
		})
	}
}

// When the input ends (or Drain is called), the calls in flight on both
// paths still get their answers before the server's Run returns.
func TestDrain(t *testing.T) {
	t.Parallel()
	for _, how := range []string{"eof", "Drain"} {
		t.Run(how, func(t *testing.T) {
			t.Parallel()
			h := newHeld(t, time.Minute)
			send(t, h.w, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"fast-hold","arguments":{}}}`,
				`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"hold","arguments":{}}}`)
			h.waiting(t, 2)
			if how == "eof" {
				h.w.Close()
			} else {
				h.tr.Drain()
			}
			h.draining(t)
			select {
			case <-h.done:
				t.Fatal("Run returned with two calls in flight")
			default:
			}
			close(h.release)
			got := h.answers(t, 2)
			if !released(got[2]) || !released(got[3]) {
				t.Fatalf("the answers after the end of input: %v", got)
			}
			select {
			case <-h.done:
			case <-time.After(10 * time.Second):
				t.Fatal("Run did not return once the calls were answered")
			}
		})
	}
}

// A drain is bounded: a call that outlives DrainTimeout is cancelled and
// Run returns.
func TestDrainBounded(t *testing.T) {
	t.Parallel()
	h := newHeld(t, 50*time.Millisecond)
	send(t, h.w, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"fast-hold","arguments":{}}}`)
	h.waiting(t, 1)
	h.w.Close()
	select {
	case <-h.done:
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not return after the drain timeout")
	}
	select {
	case err := <-h.ended:
		if err == nil {
			t.Fatal("the held call was not cancelled")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the held call's context did not end")
	}
}
