#!/usr/bin/env node
// An MCP server made with the official TypeScript SDK
// (@modelcontextprotocol/sdk, from executor/testdata/node) whose one tool,
// meta_echo, answers the params._meta of the tools/call request it
// received, as JSON text: the telemetry test (otel_test.go) reads from it
// the traceparent judge gateway passed on to its upstream.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const server = new McpServer({ name: "meta-echo", version: "1.0.0" });
server.registerTool(
  "meta_echo",
  {
    description: "Answer the _meta of the request that called this tool, as JSON text",
    inputSchema: { note: z.string().describe("Any text; it is echoed back beside the _meta") },
  },
  async ({ note }, extra) => ({
    content: [{ type: "text", text: JSON.stringify({ note, meta: extra._meta ?? null }) }],
  }),
);
await server.connect(new StdioServerTransport());
