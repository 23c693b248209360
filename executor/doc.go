// Package executor runs the tools of a registry (package manifest): the
// middle of the tool-call pipeline, between the check before a call and the
// outcome after it (package toolcall).
//
// # Chains
//
// A script runs through its runtime and the subprocess primitive: the
// runtime's command and args, the entrypoint, the script's args, in the
// tool's directory, with an allowlisted environment plus the variables the
// manifests declare, the arguments as JSON on stdin (or as arguments when
// the runtime says input: args), in its own process group that is killed
// when the call ends or times out. An api tool runs through the
// http_client primitive: url_template with every value URL-escaped,
// headers with ${ENV}, a JSON body, retries on 429 and 5xx only, a size
// cap, response_transform; loopback, link-local and private addresses are
// refused at dial time unless allowed. An mcp_tool calls a named tool of
// its mcp_server, which the [Runner] starts (stdio) or connects to
// (streamable HTTP) with the official MCP Go SDK, restarts after a crash,
// and stops on Close.
//
// Only tools whose manifests lint without errors run; the others are
// listed by [Runner.Skipped] with the reason. See docs/executors.md.
package executor
