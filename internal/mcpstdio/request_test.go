package mcpstdio

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// An Answerer's context tells the request's JSON-RPC id, a number or a
// string, and the protocol version the session's initialize answer gave.
func TestRequestInfo(t *testing.T) {
	t.Parallel()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	srv := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, nil)
	tr := &Transport{Reader: inR, Writer: outW, Answer: func(method string, _ json.RawMessage, initialized bool) Answerer {
		if method != "tools/call" || !initialized {
			return nil
		}
		return func(ctx context.Context) (json.RawMessage, error) {
			ri, ok := Request(ctx)
			b, err := json.Marshal(map[string]any{"ok": ok, "id": ri.ID.Raw(), "version": ri.ProtocolVersion})
			return b, err
		}
	}}
	done := make(chan struct{})
	go func() {
		_ = srv.Run(context.Background(), tr)
		close(done)
	}()
	t.Cleanup(func() {
		inW.Close()
		outR.Close()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Error("the server did not stop")
		}
	})
	r := bufio.NewReader(outR)
	send(t, inW, initReq)
	readLine(t, r)
	send(t, inW, initialized)
	if _, ok := Request(context.Background()); ok {
		t.Error("a context outside an Answerer has request info")
	}
	for _, c := range []struct{ id, want string }{{`7`, "7"}, {`"call-a"`, "call-a"}} {
		send(t, inW, `{"jsonrpc":"2.0","id":`+c.id+`,"method":"tools/call","params":{"name":"x"}}`)
		res, _ := readLine(t, r)["result"].(map[string]any)
		if res["ok"] != true || jsonString(res["id"]) != c.want || res["version"] != "2025-06-18" {
			t.Errorf("id %s: the Answerer saw %v, want id %s and version 2025-06-18", c.id, res, c.want)
		}
	}
}

func jsonString(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case float64:
		b, _ := json.Marshal(x)
		return string(b)
	}
	return ""
}
