#!/usr/bin/env node
// Makes the OTLP/JSON trace files of trace/testdata/otlp by running real
// instrumentation, not by hand: a small agent loop calls the openai client
// (openai 5.x from npm) against a loopback server speaking the OpenAI
// chat completions protocol, which asks for a get_weather tool call and
// then answers; the client is instrumented by
//
//   openinference  @arizeai/openinference-instrumentation-openai (llm.* attributes),
//                  the session id set with @arizeai/openinference-core's setSession
//   openllmetry    @traceloop/instrumentation-openai (gen_ai.prompt.N.* / gen_ai.completion.N.*)
//
// and the spans go through the OpenTelemetry JS SDK's OTLP/HTTP JSON
// exporter to a loopback receiver that writes each export request it gets
// as one line, as the OpenTelemetry Collector's file exporter does. The
// agent's own spans (a root span per conversation, and an execute_tool span
// per tool it runs, with the GenAI conventions' attributes) are made with
// the OpenTelemetry API by this script, as an application does.
//
// Two conversations each: one whose tool call is valid, one whose model
// asks for a unit the tool does not offer ("kelvin").
//
// Usage: npm ci && node gen.cjs    (writes ../openinference.jsonl, ../openllmetry.jsonl)
"use strict";
const http = require("node:http");
const fs = require("node:fs");
const path = require("node:path");
const { execFileSync } = require("node:child_process");

const which = process.argv[2];
if (!which) {
  for (const w of ["openinference", "openllmetry"]) {
    execFileSync(process.execPath, [__filename, w], { stdio: "inherit" });
  }
  process.exit(0);
}

const api = require("@opentelemetry/api");
const { NodeTracerProvider, BatchSpanProcessor } = require("@opentelemetry/sdk-trace-node");
const { OTLPTraceExporter } = require("@opentelemetry/exporter-trace-otlp-http");
const { AsyncLocalStorageContextManager } = require("@opentelemetry/context-async-hooks");

// listen starts a loopback HTTP server and resolves to its base URL.
function listen(handler) {
  return new Promise((resolve) => {
    const srv = http.createServer((req, res) => {
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", () => handler(req, body, res));
    });
    srv.listen(0, "127.0.0.1", () => resolve({ srv, url: `http://127.0.0.1:${srv.address().port}` }));
  });
}

// The model: asks for get_weather with the unit of the scenario, then
// answers from the tool's result.
let calls = 0;
function model(req, body, res) {
  const r = JSON.parse(body);
  const last = r.messages[r.messages.length - 1];
  const user = r.messages.find((m) => m.role === "user").content;
  const unit = user.includes("Kelvin") ? "kelvin" : "celsius";
  calls++;
  let message;
  let finish = "stop";
  if (last.role === "tool") {
    message = { role: "assistant", content: `It is ${JSON.parse(last.content).temperature} degrees in Paris (${unit}).` };
  } else {
    finish = "tool_calls";
    message = {
      role: "assistant",
      content: null,
      tool_calls: [{ id: `call_${calls}`, type: "function", function: { name: "get_weather", arguments: JSON.stringify({ city: "Paris", unit }) } }],
    };
  }
  res.setHeader("content-type", "application/json");
  res.end(JSON.stringify({
    id: `chatcmpl-${calls}`, object: "chat.completion", created: 1764200000 + calls, model: "gpt-4o-mini-2024-07-18",
    choices: [{ index: 0, message, finish_reason: finish, logprobs: null }],
    usage: { prompt_tokens: 50 + calls, completion_tokens: 12, total_tokens: 62 + calls },
  }));
}

const tools = [{
  type: "function",
  function: {
    name: "get_weather",
    description: "Get the current temperature in a city",
    parameters: {
      type: "object",
      properties: { city: { type: "string" }, unit: { type: "string", enum: ["celsius", "fahrenheit"] } },
      required: ["city"],
      additionalProperties: false,
    },
  },
}];

async function main() {
  const out = path.join(__dirname, "..", `${which}.jsonl`);
  const lines = [];
  const receiver = await listen((req, body, res) => {
    lines.push(JSON.stringify(JSON.parse(body)));
    res.setHeader("content-type", "application/json");
    res.end("{}");
  });
  const server = await listen(model);

  api.context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  const provider = new NodeTracerProvider({
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url: `${receiver.url}/v1/traces` }))],
  });
  const OpenAI = require("openai");
  let setSession = null;
  if (which === "openinference") {
    const { OpenAIInstrumentation } = require("@arizeai/openinference-instrumentation-openai");
    const inst = new OpenAIInstrumentation({ tracerProvider: provider });
    inst.manuallyInstrument(OpenAI);
    setSession = require("@arizeai/openinference-core").setSession;
  } else {
    const { OpenAIInstrumentation } = require("@traceloop/instrumentation-openai");
    const inst = new OpenAIInstrumentation({ traceContent: true, enrichTokens: false });
    inst.setTracerProvider(provider);
    inst.manuallyInstrument(OpenAI.OpenAI); // the class, whose Chat.Completions it patches
  }
  const tracer = provider.getTracer("judge-testdata-agent");
  const client = new OpenAI.OpenAI({ apiKey: "sk-loopback", baseURL: `${server.url}/v1` });

  const conversations = [
    { id: "weather-celsius", question: "What is the weather in Paris?" },
    { id: "weather-kelvin", question: "What is the temperature in Paris in Kelvin?" },
  ];
  for (const conv of conversations) {
    await tracer.startActiveSpan("invoke_agent weather-agent", { attributes: { "gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "weather-agent" } }, async (root) => {
      let ctx = api.context.active();
      if (setSession) ctx = setSession(ctx, { sessionId: conv.id });
      await api.context.with(ctx, async () => {
        const messages = [
          { role: "system", content: "You answer questions about the weather with the get_weather tool." },
          { role: "user", content: conv.question },
        ];
        for (let turn = 0; turn < 3; turn++) {
          const r = await client.chat.completions.create({ model: "gpt-4o-mini", messages, tools });
          const msg = r.choices[0].message;
          messages.push(msg);
          if (!msg.tool_calls) break;
          for (const tc of msg.tool_calls) {
            const args = JSON.parse(tc.function.arguments);
            await tracer.startActiveSpan(`execute_tool ${tc.function.name}`, {
              attributes: {
                "gen_ai.operation.name": "execute_tool",
                "gen_ai.tool.name": tc.function.name,
                "gen_ai.tool.call.id": tc.id,
                "gen_ai.tool.call.arguments": tc.function.arguments,
              },
            }, async (span) => {
              const result = JSON.stringify({ city: args.city, temperature: args.unit === "kelvin" ? 291.15 : 18 });
              span.setAttribute("gen_ai.tool.call.result", result);
              span.end();
              messages.push({ role: "tool", tool_call_id: tc.id, content: result });
            });
          }
        }
      });
      root.end();
    });
    await provider.forceFlush(); // one export request (one line) per conversation
  }
  await provider.forceFlush();
  await provider.shutdown();
  receiver.srv.close();
  server.srv.close();
  fs.writeFileSync(out, lines.join("\n") + "\n");
  console.error(`${which}: ${lines.length} export requests, ${calls} model calls -> ${out}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
