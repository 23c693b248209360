package mcpstdio

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type addArgs struct {
	A int `json:"a"`
	B int `json:"b"`
}

// serve runs an SDK server with an add tool on the transport's server
// side, over pipes, and returns the client's ends: what it writes to the
// server and what it reads from it.
func serve(t *testing.T, limit int) (toServer io.WriteCloser, fromServer *bufio.Reader) {
	t.Helper()
	return serveWith(t, limit, nil)
}

// serveWith is serve with the transport's Answer hook.
func serveWith(t *testing.T, limit int, answer func(string, json.RawMessage, bool) Answerer) (toServer io.WriteCloser, fromServer *bufio.Reader) {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	srv := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "add", Description: "adds"}, func(_ context.Context, _ *mcp.CallToolRequest, in addArgs) (*mcp.CallToolResult, map[string]int, error) {
		return nil, map[string]int{"sum": in.A + in.B}, nil
	})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- srv.Run(ctx, &Transport{Reader: inR, Writer: outW, MaxLineLength: limit, SessionID: "s1", Answer: answer})
	}()
	t.Cleanup(func() {
		cancel()
		inW.Close()
		outR.Close()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Error("the server did not stop")
		}
	})
	return inW, bufio.NewReader(outR)
}

// An SDK client and server, each on this transport, initialize and call a
// tool with its structured result, both ways over pipes.
func TestClientAndServer(t *testing.T) {
	t.Parallel()
	toServer, fromServer := serve(t, 0)
	client := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil)
	ctx := context.Background()
	sess, err := client.Connect(ctx, &Transport{Reader: io.NopCloser(fromServer), Writer: toServer}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	for i := range 3 {
		res, err := sess.CallTool(ctx, &mcp.CallToolParams{Name: "add", Arguments: map[string]any{"a": i, "b": 40}})
		if err != nil {
			t.Fatal(err)
		}
		raw, _ := json.Marshal(res.StructuredContent)
		var got map[string]int
		if err := json.Unmarshal(raw, &got); err != nil || got["sum"] != i+40 {
			t.Errorf("call %d: structured content %s, want sum %d", i, raw, i+40)
		}
	}
}

// Raw frames as a client could write them: one message on several lines,
// blank lines, a batch answered as one array, trailing data and an
// over-long message refused.
func TestFrames(t *testing.T) {
	t.Parallel()
	const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`
	// roundTrip writes the frames and reads want answers, or all until
	// the server closes its side when want is -1.
	roundTrip := func(t *testing.T, limit, want int, frames ...string) []string {
		t.Helper()
		toServer, fromServer := serve(t, limit)
		go func() {
			for _, f := range frames {
				if _, err := io.WriteString(toServer, f); err != nil {
					return
				}
			}
		}()
		var lines []string
		for want < 0 || len(lines) < want {
			line, err := fromServer.ReadString('\n')
			if err != nil {
				break
			}
			lines = append(lines, strings.TrimSpace(line))
		}
		return lines
	}
	t.Run("multi-line message and blank lines", func(t *testing.T) {
		t.Parallel()
		lines := roundTrip(t, 0, 2, "\n\n"+strings.ReplaceAll(initialize, ",", ",\n  ")+"\n",
			`{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n",
			"\r\n"+`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"add","arguments":{"a":2,"b":3}}}`+"\n")
		if len(lines) != 2 || !strings.Contains(lines[0], `"id":1`) || !strings.Contains(lines[1], `"sum":5`) {
			t.Fatalf("answers %q", lines)
		}
	})
	t.Run("batch", func(t *testing.T) {
		t.Parallel()
		lines := roundTrip(t, 0, 2, initialize+"\n", `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n",
			`[{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"add","arguments":{"a":1,"b":1}}},`+
				`{"jsonrpc":"2.0","id":"b","method":"tools/call","params":{"name":"add","arguments":{"a":2,"b":2}}}]`+"\n")
		if len(lines) != 2 || !strings.HasPrefix(lines[1], "[") {
			t.Fatalf("answers %q", lines)
		}
		var batch []struct {
			ID     string `json:"id"`
			Result struct {
				StructuredContent map[string]int `json:"structuredContent"`
			} `json:"result"`
		}
		if err := json.Unmarshal([]byte(lines[1]), &batch); err != nil {
			t.Fatal(err)
		}
		if len(batch) != 2 || batch[0].ID != "a" || batch[0].Result.StructuredContent["sum"] != 2 || batch[1].Result.StructuredContent["sum"] != 4 {
			t.Fatalf("batch answer %s", lines[1])
		}
	})
	t.Run("trailing data", func(t *testing.T) {
		t.Parallel()
		lines := roundTrip(t, 0, -1, initialize+` {"jsonrpc":"2.0","id":5,"method":"ping"}`+"\n")
		if len(lines) != 0 {
			t.Fatalf("answers %q to a line with two messages", lines)
		}
	})
	t.Run("too long", func(t *testing.T) {
		t.Parallel()
		lines := roundTrip(t, 100, -1, initialize+"\n")
		if len(lines) != 0 {
			t.Fatalf("answers %q to a message over the limit", lines)
		}
	})
}
