// Command mcptest is a small MCP server for the executor's tests: over
// stdio by default, or over streamable HTTP on -http ADDR, or over the
// older HTTP+SSE transport with -sse too (it prints "listening on URL"
// once it accepts connections). MCPTEST_DELAY (a Go
// duration) delays its start, to test startup timeouts.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type echoIn struct {
	Message string `json:"message" jsonschema:"what to echo"`
}

type addIn struct {
	A float64 `json:"a"`
	B float64 `json:"b"`
}

type addOut struct {
	Sum float64 `json:"sum"`
}

type empty struct{}

type spawnOut struct {
	Pid      int `json:"pid"`
	ChildPid int `json:"child_pid"`
}

func main() {
	name := flag.String("name", "mcptest", "server name")
	addr := flag.String("http", "", "serve streamable HTTP on this address instead of stdio")
	sse := flag.Bool("sse", false, "with -http, serve the HTTP+SSE transport instead of streamable HTTP")
	flag.Parse()
	if d, err := time.ParseDuration(os.Getenv("MCPTEST_DELAY")); err == nil {
		time.Sleep(d)
	}
	s := mcp.NewServer(&mcp.Implementation{Name: *name, Version: "1.0.0"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "echo", Description: "Echo the message back"},
		func(_ context.Context, _ *mcp.CallToolRequest, in echoIn) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: in.Message}}}, nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "add", Description: "Add two numbers"},
		func(_ context.Context, _ *mcp.CallToolRequest, in addIn) (*mcp.CallToolResult, addOut, error) {
			return nil, addOut{Sum: in.A + in.B}, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "fail", Description: "Always fails"},
		func(_ context.Context, _ *mcp.CallToolRequest, _ empty) (*mcp.CallToolResult, any, error) {
			return nil, nil, fmt.Errorf("the upstream failed on purpose")
		})
	mcp.AddTool(s, &mcp.Tool{Name: "crash", Description: "Exits the server process"},
		func(_ context.Context, _ *mcp.CallToolRequest, _ empty) (*mcp.CallToolResult, any, error) {
			os.Exit(3)
			return nil, nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "spawn", Description: "Starts a child process that sleeps, and reports both pids"},
		func(_ context.Context, _ *mcp.CallToolRequest, _ empty) (*mcp.CallToolResult, spawnOut, error) {
			cmd := exec.Command("sleep", "300")
			if err := cmd.Start(); err != nil {
				return nil, spawnOut{}, err
			}
			go func() { _ = cmd.Wait() }()
			return nil, spawnOut{Pid: os.Getpid(), ChildPid: cmd.Process.Pid}, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "pid", Description: "The server's process id"},
		func(_ context.Context, _ *mcp.CallToolRequest, _ empty) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strconv.Itoa(os.Getpid())}}}, nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "grow", Description: "Adds a tool named late, which changes the tools list"},
		func(_ context.Context, _ *mcp.CallToolRequest, _ empty) (*mcp.CallToolResult, any, error) {
			mcp.AddTool(s, &mcp.Tool{Name: "late", Description: "A tool added after the start"},
				func(_ context.Context, _ *mcp.CallToolRequest, _ empty) (*mcp.CallToolResult, any, error) {
					return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "late"}}}, nil, nil
				})
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "grown"}}}, nil, nil
		})
	if *addr != "" {
		ln, err := net.Listen("tcp", *addr)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("listening on http://%s/mcp\n", ln.Addr())
		var h http.Handler = mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil)
		if *sse {
			h = mcp.NewSSEHandler(func(*http.Request) *mcp.Server { return s }, nil)
		}
		log.Fatal(http.Serve(ln, h))
	}
	// Stdin through the runtime's poller, not a blocking read(2), as in
	// gateway/testdata/upstream: see docs/gateway.md, "An upstream that stops".
	in := os.Stdin
	if syscall.SetNonblock(0, true) == nil {
		in = os.NewFile(0, "/dev/stdin")
	}
	if err := s.Run(context.Background(), &mcp.IOTransport{Reader: in, Writer: os.Stdout}); err != nil {
		log.Print(err)
	}
}
