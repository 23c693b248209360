package mcpstdio

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// answering runs an SDK server with an add tool on a transport whose
// Answer takes tools/call of the tool "fast" (and counts it), over pipes,
// and returns the client's ends. block, when not nil, holds "fast" calls
// (not "fast-now") until their context ends, and reports that end on it.
func answering(t *testing.T, taken *atomic.Int32, block chan error) (io.WriteCloser, *bufio.Reader) {
	t.Helper()
	return serveWith(t, 0, func(method string, params json.RawMessage, initialized bool) Answerer {
		var p struct {
			Name string `json:"name"`
		}
		if method != "tools/call" || !initialized || json.Unmarshal(params, &p) != nil || !strings.HasPrefix(p.Name, "fast") {
			return nil
		}
		taken.Add(1)
		return func(ctx context.Context) (json.RawMessage, error) {
			switch p.Name {
			case "fast-error":
				return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "bad params"}
			case "fast-plain-error":
				return nil, errors.New("plain")
			}
			if block != nil && p.Name != "fast-now" {
				<-ctx.Done()
				block <- ctx.Err()
				return nil, ctx.Err()
			}
			return json.RawMessage("{\n  \"content\": [],\n  \"fast\": true\n}"), nil
		}
	})
}

func send(t *testing.T, w io.Writer, msgs ...string) {
	t.Helper()
	for _, m := range msgs {
		if _, err := io.WriteString(w, m+"\n"); err != nil {
			t.Fatal(err)
		}
	}
}

func readLine(t *testing.T, r *bufio.Reader) map[string]any {
	t.Helper()
	line, err := r.ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(line), &m); err != nil {
		t.Fatalf("%q: %v", line, err)
	}
	return m
}

const (
	initReq     = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`
	initialized = `{"jsonrpc":"2.0","method":"notifications/initialized"}`
)

// Answer takes tools/call only once initialize was answered; before, the
// SDK answers (with its error); the SDK keeps every other request; an
// answered result is one line however it was formatted, and errors are
// answered as the SDK answers a handler's.
func TestAnswer(t *testing.T) {
	t.Parallel()
	var taken atomic.Int32
	w, r := answering(t, &taken, nil)

	send(t, w, `{"jsonrpc":"2.0","id":0,"method":"tools/call","params":{"name":"fast"}}`)
	if m := readLine(t, r); m["error"] == nil || taken.Load() != 0 {
		t.Fatalf("a call before initialize: %v (taken %d), want the SDK's error", m, taken.Load())
	}
	send(t, w, initReq)
	if m := readLine(t, r); m["result"] == nil {
		t.Fatalf("initialize: %v", m)
	}
	send(t, w, initialized, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"fast"}}`)
	m := readLine(t, r)
	res, _ := m["result"].(map[string]any)
	if m["id"] != 2.0 || res["fast"] != true || taken.Load() != 1 {
		t.Fatalf("answered call: %v (taken %d)", m, taken.Load())
	}
	send(t, w, `{"jsonrpc":"2.0","id":"x","method":"tools/call","params":{"name":"add","arguments":{"a":2,"b":3}}}`)
	m = readLine(t, r)
	res, _ = m["result"].(map[string]any)
	if sc, _ := res["structuredContent"].(map[string]any); m["id"] != "x" || sc["sum"] != 5.0 || taken.Load() != 1 {
		t.Fatalf("the SDK's call: %v (taken %d)", m, taken.Load())
	}
	send(t, w, `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"fast-error"}}`)
	m = readLine(t, r)
	if e, _ := m["error"].(map[string]any); e["code"] != float64(jsonrpc.CodeInvalidParams) || e["message"] != "bad params" {
		t.Fatalf("an error: %v", m)
	}
	send(t, w, `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"fast-plain-error"}}`)
	m = readLine(t, r)
	if e, _ := m["error"].(map[string]any); e["code"] != 0.0 || e["message"] != "plain" {
		t.Fatalf("a plain error: %v", m)
	}
}

// notifications/cancelled ends the context of the answered request it
// names.
func TestAnswerCancelled(t *testing.T) {
	t.Parallel()
	var taken atomic.Int32
	ended := make(chan error, 1)
	w, r := answering(t, &taken, ended)
	send(t, w, initReq)
	readLine(t, r)
	send(t, w, initialized, `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"fast"}}`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7,"reason":"user"}}`)
	cancelled(t, ended)
}

// cancelled waits for a held call to report its end, which must be a
// cancellation.
func cancelled(t *testing.T, ended chan error) {
	t.Helper()
	select {
	case err := <-ended:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("the call ended with %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the cancelled call's context did not end")
	}
}

// Answers run at once however many are in flight: with more calls held
// than workers are kept idle, another call is answered; once they are
// cancelled, each reports its end (and is not answered, as the MCP spec
// asks) and the workers left serve the next calls.
func TestAnswerConcurrent(t *testing.T) {
	t.Parallel()
	var taken atomic.Int32
	const held = 2*maxIdleWorkers + 1
	ended := make(chan error, held)
	w, r := answering(t, &taken, ended)
	send(t, w, initReq)
	readLine(t, r)
	send(t, w, initialized)
	for i := range held {
		send(t, w, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"fast"}}`, 100+i))
	}
	send(t, w, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"fast-now"}}`)
	if m := readLine(t, r); m["id"] != 1.0 || m["result"] == nil {
		t.Fatalf("with %d calls held: %v, want the answer to call 1", held, m)
	}
	for i := range held {
		send(t, w, fmt.Sprintf(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":%d}}`, 100+i))
	}
	for range held {
		cancelled(t, ended)
	}
	// A cancelled call gets no answer (the MCP spec): the next message
	// is the answer to the next call.
	for i := range 3 * maxIdleWorkers {
		send(t, w, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"fast-now"}}`, 200+i))
		if m := readLine(t, r); m["id"] != float64(200+i) || m["result"] == nil {
			t.Fatalf("call %d after the cancellations: %v", 200+i, m)
		}
	}
	if n := taken.Load(); n != held+1+3*maxIdleWorkers {
		t.Errorf("%d calls taken, want %d", n, held+1+3*maxIdleWorkers)
	}
}

// upstream is a raw server on pipes for Transport.Call: it reads the
// requests the transport writes and answers each with answer(request).
func upstream(t *testing.T, answer func(req map[string]any) string) *Transport {
	t.Helper()
	toUp, upIn := io.Pipe()
	upOut, fromUp := io.Pipe()
	go func() {
		br := bufio.NewReader(toUp)
		for {
			line, err := br.ReadString('\n')
			if err != nil {
				return
			}
			var req map[string]any
			if json.Unmarshal([]byte(line), &req) != nil {
				continue
			}
			if a := answer(req); a != "" {
				if _, err := io.WriteString(fromUp, a+"\n"); err != nil {
					return
				}
			}
		}
	}()
	tr := &Transport{Reader: upOut, Writer: upIn}
	conn, err := tr.Connect(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(); fromUp.Close() })
	return tr
}

// Call's requests carry ids of judge's own and their answers never reach
// the SDK's Read; concurrent calls each get their own answer; an error
// answer is a *jsonrpc.Error; the SDK's messages still reach Read.
func TestCall(t *testing.T) {
	t.Parallel()
	tr := upstream(t, func(req map[string]any) string {
		id, _ := json.Marshal(req["id"])
		p, _ := req["params"].(map[string]any)
		if p["name"] == "bad" {
			return `{"jsonrpc":"2.0","id":` + string(id) + `,"error":{"code":-32602,"message":"no such tool"}}`
		}
		n, _ := json.Marshal(p["n"])
		return `{"jsonrpc":"2.0","method":"notifications/message","params":{}}` + "\n" +
			`{"jsonrpc":"2.0","id":` + string(id) + `,"result":{"n":` + string(n) + `}}`
	})
	ctx := context.Background()
	// The SDK's side reads all along, as the SDK's reader does.
	c := tr.conn.Load()
	read := make(chan jsonrpc.Message, 64)
	go func() {
		for {
			msg, err := c.Read(ctx)
			if err != nil {
				close(read)
				return
			}
			read <- msg
		}
	}()
	errs := make(chan error, 20)
	for i := range 20 {
		go func() {
			res, err := tr.Call(ctx, "tools/call", json.RawMessage(`{"n":"`+strings.Repeat("1", i+1)+`"}`))
			if err == nil && string(res) != `{"n":"`+strings.Repeat("1", i+1)+`"}` {
				err = errors.New("call " + strings.Repeat("1", i+1) + " got " + string(res))
			}
			errs <- err
		}()
	}
	for range 20 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	_, err := tr.Call(ctx, "tools/call", json.RawMessage(`{"name":"bad"}`))
	var we *jsonrpc.Error
	if !errors.As(err, &we) || we.Code != -32602 {
		t.Fatalf("an error answer: %v", err)
	}
	// The notifications went to the SDK's side; the answers did not.
	for range 20 {
		msg := <-read
		if req, ok := msg.(*jsonrpc.Request); !ok || req.Method != "notifications/message" {
			t.Fatalf("Read gave %#v, want only the notifications", msg)
		}
	}
	select {
	case msg := <-read:
		t.Fatalf("Read gave %#v after the 20 notifications", msg)
	default:
	}
}

// A call whose context ends tells the server (notifications/cancelled with
// its id); a call on a stream that ends fails instead of waiting.
func TestCallCancelledAndClosed(t *testing.T) {
	t.Parallel()
	cancelled := make(chan any, 1)
	tr := upstream(t, func(req map[string]any) string {
		if req["method"] == "notifications/cancelled" {
			p, _ := req["params"].(map[string]any)
			cancelled <- p["requestId"]
		}
		return ""
	})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := tr.Call(ctx, "tools/call", json.RawMessage(`{}`))
		done <- err
	}()
	// The request is out once the pending map holds it.
	for {
		c := tr.conn.Load()
		c.pendingMu.Lock()
		n := len(c.pending)
		c.pendingMu.Unlock()
		if n == 1 {
			break
		}
		select {
		case <-done:
			t.Fatal("the call returned before it was cancelled")
		case <-time.After(time.Millisecond):
		}
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled call: %v", err)
	}
	select {
	case id := <-cancelled:
		if s, _ := id.(string); !strings.HasPrefix(s, ownIDPrefix) {
			t.Fatalf("cancelled request id %v", id)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the server was not told of the cancellation")
	}

	closedUp := upstream(t, func(map[string]any) string { return "" })
	go func() {
		done <- func() error {
			_, err := closedUp.Call(context.Background(), "tools/call", json.RawMessage(`{}`))
			return err
		}()
	}()
	closedUp.conn.Load().Close()
	if err := <-done; err == nil {
		t.Fatal("a call on a closed connection returned no error")
	}
}

// In the sessionless protocol, Call copies the per-request _meta of the
// SDK's own last request into its params.
func TestCallCopiesRequestMeta(t *testing.T) {
	t.Parallel()
	got := make(chan map[string]any, 1)
	tr := upstream(t, func(req map[string]any) string {
		if id, _ := req["id"].(string); strings.HasPrefix(id, ownIDPrefix) {
			got <- req
			return `{"jsonrpc":"2.0","id":"` + id + `","result":{}}`
		}
		return ""
	})
	c := tr.conn.Load()
	sdkReq, _ := jsonrpc.MakeID(float64(1))
	if err := c.Write(context.Background(), &jsonrpc.Request{ID: sdkReq, Method: "tools/list", Params: json.RawMessage(
		`{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"progressToken":3}}`)}); err != nil {
		t.Fatal(err)
	}
	if !tr.RequestMeta() {
		t.Fatal("RequestMeta is false after an SDK request with the sessionless _meta")
	}
	if _, err := tr.Call(context.Background(), "tools/call", json.RawMessage(`{"name":"x"}`)); err != nil {
		t.Fatal(err)
	}
	req := <-got
	p, _ := req["params"].(map[string]any)
	meta, _ := p["_meta"].(map[string]any)
	if p["name"] != "x" || meta["io.modelcontextprotocol/protocolVersion"] != "2026-07-28" || meta["io.modelcontextprotocol/clientCapabilities"] == nil || meta["progressToken"] != nil {
		t.Fatalf("params %v", p)
	}
}
