#!/usr/bin/env node
// The TypeScript SDK side of the gateway's differential test
// (gateway/sdk_diff_test.go): connects the official client of
// @modelcontextprotocol/sdk to one server, directly or through judge
// gateway, runs that server's feature table, and prints one JSON line per
// feature:
//
//   {"feature": "...", "accepted": bool, "answer": ..., "notifications": [...], "errors": [...]}
//
// accepted is false when the client threw (its error is then the answer);
// notifications are what the client received while the feature ran;
// errors are what the client reported through its onerror (a response to
// a request it no longer waits for, a progress notification for an
// unknown token). Every answer is normalized (see normalize) so that a
// direct run and a run through the gateway compare equal exactly when a
// client could not tell them apart but for judge's own _meta.judge.
//
// Usage: node diff.mjs SPEC, SPEC a JSON object:
//   {"server": "everything"|"filesystem"|"memory",
//    "stdio": {"command": "...", "args": [...], "env": {...}}  or  "url": "http://.../mcp",
//    "roots": ["/dir", ...],           // the client's roots (file:// URIs are made of them)
//    "inside": "/dir/file", "outside": "/other/file", "image": "/dir/tiny.png"}  // filesystem only
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";

const spec = JSON.parse(process.argv[2]);

// ---- normalization -------------------------------------------------------
//
// What is dropped or rewritten, and why:
// - _meta.judge: judge's own block, the one thing the gateway adds.
// - _meta["io.modelcontextprotocol/serverInfo"] and ".../related-task":
//   they describe the hop that answered (the server, or the gateway that
//   replaces it), not the answer.
// - an empty _meta left by the above: a client cannot tell {} from none.
// - UUIDs and "session undefined": server-everything writes its transport's
//   session id into texts; over stdio it has none ("undefined"), over
//   streamable HTTP a fresh UUID, and through the gateway the upstream is
//   always reached over stdio, so a gateway over HTTP shows "undefined"
//   where the direct HTTP run shows a UUID.
// - clock times ("11:35:20 PM"): server-everything's dynamic resources say
//   when they were made, also inside base64 blobs, which are decoded first.
// - progress tokens: each client request picks its own.
// - the level and text of server-everything's simulated log messages:
//   drawn at random for each message.
// - for refusals (invalid arguments), only isError, the kinds of content
//   and whether structuredContent is there: the repair text judge writes is
//   meant to differ from the server's own validation message.
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const TIME = /\b\d{1,2}:\d{2}:\d{2}(\s?[AP]M)?/g;

function normString(s) {
  return s.replace(UUID, "<session>").replace(/session undefined/g, "session <session>").replace(TIME, "<time>");
}

function normalize(v) {
  if (Array.isArray(v)) return v.map(normalize);
  if (v === null || typeof v !== "object") return typeof v === "string" ? normString(v) : v;
  const out = {};
  for (const k of Object.keys(v).sort()) {
    let x = v[k];
    if (k === "_meta" && x && typeof x === "object") {
      x = { ...x };
      delete x.judge;
      delete x["io.modelcontextprotocol/serverInfo"];
      delete x["io.modelcontextprotocol/related-task"];
      if (Object.keys(x).length === 0) continue;
    }
    if (k === "progressToken") {
      out[k] = "<token>";
      continue;
    }
    if (k === "blob" && typeof x === "string") {
      const text = Buffer.from(x, "base64").toString("utf8");
      if (/^[\x20-\x7e]*$/.test(text) && TIME.test(text)) {
        TIME.lastIndex = 0;
        out[k] = "base64:" + normString(text);
        continue;
      }
      TIME.lastIndex = 0;
    }
    out[k] = normalize(x);
  }
  return out;
}

function normalizeNotification(n) {
  const out = normalize({ method: n.method, params: n.params ?? {} });
  if (n.method === "notifications/message" && typeof n.params?.data === "string" && /level.?message/i.test(n.params.data)) {
    out.params = { ...out.params, level: "<random>", data: "<simulated log message>" };
  }
  return out;
}

// A refusal's answer: what every client must see the same way.
function refusalShape(res) {
  return {
    isError: res.isError === true,
    content: (res.content ?? []).map((c) => c.type),
    structuredContent: res.structuredContent !== undefined,
  };
}

// ---- the client ------------------------------------------------------------

const roots = (spec.roots ?? []).map((p, i) => ({ uri: "file://" + p, name: `root ${i + 1}` }));
let notifications = [];
let clientErrors = [];
let rootsRequests = 0;
let samplingRequests = [];
let elicitationRequests = [];

const client = new Client(
  { name: "judge-sdk-diff", version: "1.0.0" },
  { capabilities: { roots: { listChanged: true }, sampling: {}, elicitation: {} } },
);
client.setRequestHandler(ListRootsRequestSchema, async () => {
  rootsRequests++;
  // Wake the waiters once the answer is on its way.
  setImmediate(() => {
    for (const w of waiters) w();
  });
  return { roots };
});
client.setRequestHandler(CreateMessageRequestSchema, async (req) => {
  samplingRequests.push(normalize(req.params));
  return { model: "judge-test-model", role: "assistant", stopReason: "endTurn", content: { type: "text", text: "a deterministic answer" } };
});
client.setRequestHandler(ElicitRequestSchema, async (req) => {
  elicitationRequests.push(normalize({ message: req.params.message, mode: req.params.mode }));
  return { action: "decline" };
});
// Two kinds of notification come at times of the server's choosing, not
// during the feature that caused them, and are kept for the features that
// report them (list-changed, roots) instead of the feature that happened to
// be running: list-changed notifications (server-everything sends them as
// it registers its client-dependent tools after initialize) and
// server-everything's "Roots updated" log message (sent 350 ms after
// initialize, when it has asked for the roots).
const listChanged = new Set();
let rootsLogged = false;
client.fallbackNotificationHandler = async (n) => {
  if (n.method.endsWith("/list_changed")) {
    listChanged.add(n.method);
    for (const w of waiters) w();
    return;
  }
  if (n.method === "notifications/message" && typeof n.params?.data === "string" && n.params.data.startsWith("Roots updated")) {
    rootsLogged = true;
    for (const w of waiters) w();
    return;
  }
  notifications.push(normalizeNotification(n));
  for (const w of waiters) w();
};
// A cancelled request's server may go on sending progress for it (the
// client reports them as for an unknown token): how many come before the
// next answer is a matter of timing, so those reports are dropped. A
// response to a cancelled request is kept: the spec says it must not come.
// Over streamable HTTP the client closes a request's stream when it aborts
// it, so whether it still reads an answer sent there is a matter of timing:
// those reports are dropped too, and the late answer is checked over stdio.
client.onerror = (err) => {
  const msg = String(err?.message ?? err);
  if (msg.includes("progress notification for an unknown token")) return;
  if (spec.url && msg.includes("response for an unknown message ID")) return;
  clientErrors.push(normString(msg));
};

let transport;
if (spec.url) {
  transport = new StreamableHTTPClientTransport(new URL(spec.url));
} else {
  transport = new StdioClientTransport({
    command: spec.stdio.command,
    args: spec.stdio.args ?? [],
    env: { ...process.env, ...(spec.stdio.env ?? {}) },
    stderr: "ignore",
  });
}

function emit(obj) {
  process.stdout.write(JSON.stringify(obj) + "\n");
}

function errorAnswer(err) {
  return { error: { code: err?.code ?? null, message: normString(String(err?.message ?? err)) } };
}

// run runs one feature: fn returns its answer; a throw is a refusal the
// client did not accept.
async function run(feature, fn) {
  notifications = [];
  clientErrors = [];
  let accepted = true;
  let answer;
  try {
    answer = await fn();
  } catch (err) {
    accepted = false;
    answer = errorAnswer(err);
  }
  emit({ feature, accepted, answer: normalize(answer), notifications: dedupe(notifications), errors: [...new Set(clientErrors)].sort() });
}

// dedupe keeps each distinct notification once, sorted: how many
// list-changed notifications a server sends for one change is its own
// business (the SDK sends one per registration).
function dedupe(list) {
  const seen = new Map();
  for (const n of list) seen.set(JSON.stringify(n), n);
  return [...seen.keys()].sort().map((k) => seen.get(k));
}

const call = (name, args, opts) => client.callTool({ name, arguments: args }, undefined, opts);

async function toolsList() {
  const res = await client.listTools();
  const tools = [...res.tools].sort((a, b) => a.name.localeCompare(b.name));
  return { tools, nextCursor: res.nextCursor };
}

// waitFor resolves when cond() holds, checked at every notification the
// client receives, or after ms milliseconds (when the answer is that it
// never came).
const waiters = new Set();
function waitFor(cond, ms) {
  return new Promise((resolve) => {
    if (cond()) return resolve(true);
    const done = (ok) => {
      clearTimeout(timer);
      waiters.delete(check);
      resolve(ok);
    };
    const check = () => cond() && done(true);
    const timer = setTimeout(() => done(false), ms);
    waiters.add(check);
  });
}

async function polling(name, args) {
  const out = [];
  for (let i = 0; i < 6; i++) {
    const res = await call(name, args);
    out.push({ isError: res.isError === true, content: res.content, structuredContent: res.structuredContent });
  }
  return out;
}

// cancellation: a long-running call aborted by the client after its first
// progress notification (or after a second, when no progress comes), then a
// call on the same session. The client must see its own abort, no late
// answer to the cancelled request (the SDK reports one through onerror),
// and a working session.
async function cancellation(name, args, after) {
  const ac = new AbortController();
  const timer = setTimeout(() => ac.abort("cancelled by the test"), 1000);
  let aborted = "";
  try {
    await call(name, args, { signal: ac.signal, onprogress: () => ac.abort("cancelled by the test") });
    aborted = "completed";
  } catch (err) {
    aborted = ac.signal.aborted ? "aborted" : "error: " + String(err?.message ?? err);
  }
  clearTimeout(timer);
  const next = await call(after.name, after.args);
  return { cancelled: aborted, next };
}

await client.connect(transport);

await run("initialize", async () => {
  const caps = client.getServerCapabilities() ?? {};
  return { capabilities: caps, instructions: client.getInstructions() ?? null };
});
await run("tools/list", toolsList);

if (spec.server === "everything") {
  await run("call/text", () => call("echo", { message: "through judge" }));
  await run("call/image", () => call("get-tiny-image", {}));
  await run("call/annotated", () => call("get-annotated-message", { messageType: "success", includeImage: true }));
  await run("call/embedded-resource", () => call("get-resource-reference", { resourceType: "Text", resourceId: 2 }));
  let links = [];
  await run("call/resource-link", async () => {
    const res = await call("get-resource-links", { count: 2 });
    links = res.content.filter((c) => c.type === "resource_link");
    return res;
  });
  await run("call/structured", () => call("get-structured-content", { location: "Chicago" }));
  await run("call/upstream-error", () => call("get-resource-reference", { resourceType: "Text", resourceId: -1 }));
  await run("call/invalid-args", async () => refusalShape(await call("echo", { msg: "the wrong name" })));
  await run("call/invalid-args-output-schema", async () => refusalShape(await call("get-structured-content", { location: "Paris" })));
  await run("progress", async () => {
    const seen = [];
    const res = await call("trigger-long-running-operation", { duration: 0.3, steps: 3 }, { onprogress: (p) => seen.push(p) });
    // How many of the progress notifications the client handles before the
    // answer is a matter of timing (the last may come with it): what must
    // hold is that progress came, rising, with the server's total.
    const rising = seen.every((p, i) => i === 0 || p.progress > seen[i - 1].progress);
    return { result: res, progress: seen.length > 0, rising, totals: [...new Set(seen.map((p) => p.total))] };
  });
  await run("logging", async () => {
    await client.setLoggingLevel("debug");
    const on = await call("toggle-simulated-logging", {});
    const got = await waitFor(() => notifications.some((n) => n.method === "notifications/message"), 1500);
    const off = await call("toggle-simulated-logging", {});
    return { on, off, message: got };
  });
  await run("resources/list", () => client.listResources());
  await run("resources/templates", () => client.listResourceTemplates());
  await run("resources/read", () => client.readResource({ uri: "demo://resource/dynamic/text/1" }));
  await run("resources/read-link", async () => {
    if (links.length === 0) throw new Error("no resource link to read");
    return client.readResource({ uri: links[0].uri });
  });
  await run("prompts/list", () => client.listPrompts());
  await run("prompts/get", () => client.getPrompt({ name: "args-prompt", arguments: { city: "Paris", state: "Texas" } }));
  await run("completion", () =>
    client.complete({ ref: { type: "ref/prompt", name: "completable-prompt" }, argument: { name: "department", value: "E" } }),
  );
  await run("roots", async () => {
    // server-everything asks for the roots 350 ms after initialize and
    // then logs "Roots updated": wait for that (or 2 s, when it never comes).
    await waitFor(() => rootsLogged, 2000);
    return { result: await call("get-roots-list", {}), requests: rootsRequests > 0, logged: rootsLogged };
  });
  await run("sampling", async () => {
    samplingRequests = [];
    const res = await call("trigger-sampling-request", { prompt: "Say hi", maxTokens: 20 });
    return { result: res, requests: samplingRequests };
  });
  await run("elicitation", async () => {
    elicitationRequests = [];
    const res = await call("trigger-elicitation-request", {});
    return { result: res, requests: elicitationRequests };
  });
  await run("cancellation", () =>
    cancellation("trigger-long-running-operation", { duration: 2, steps: 4 }, { name: "echo", args: { message: "after the cancel" } }),
  );
  // list-changed: a tool that registers a resource for the session (the
  // gzip of a data: URI, so nothing is fetched), after which the server
  // sends notifications/resources/list_changed; then the new resource read
  // through the link the tool returned. (The tools/list_changed that
  // server-everything sends right after initialize is not compared: over
  // streamable HTTP it goes to the client's standalone stream, which may not
  // be open yet.)
  await run("list-changed", async () => {
    listChanged.clear();
    const res = await call("gzip-file-as-resource", { name: "hello.txt.gz", data: "data:text/plain,hello", outputType: "resourceLink" });
    const received = await waitFor(() => listChanged.has("notifications/resources/list_changed"), 1500);
    const link = (res.content ?? []).find((c) => c.type === "resource_link");
    const read = link ? await client.readResource({ uri: link.uri }) : null;
    return { result: res, received, read };
  });
  await run("polling", () => polling("get-sum", { a: 1, b: 2 }));
} else if (spec.server === "filesystem") {
  // server-filesystem asks for the client's roots once the session is
  // initialized and then narrows its directories to them: wait until the
  // client has answered (or 2 s, when it is never asked) before calling.
  await waitFor(() => rootsRequests > 0, 2000);
  await run("call/text", () => call("read_text_file", { path: spec.inside }));
  await run("call/image", () => call("read_media_file", { path: spec.image }));
  await run("call/structured", () => call("list_allowed_directories", {}));
  await run("call/upstream-error", () => call("read_text_file", { path: spec.inside + ".missing" }));
  await run("call/invalid-args-output-schema", async () => refusalShape(await call("read_text_file", { file: spec.inside })));
  await run("roots", async () => ({
    requested: rootsRequests > 0,
    allowed: await call("list_allowed_directories", {}),
    outside: await call("read_text_file", { path: spec.outside }),
  }));
  await run("polling", () => polling("read_text_file", { path: spec.inside }));
} else if (spec.server === "memory") {
  await run("call/structured", () =>
    call("create_entities", { entities: [{ name: "Ada", entityType: "person", observations: ["wrote the first program"] }] }),
  );
  await run("call/text", () => call("open_nodes", { names: ["Ada"] }));
  await run("call/upstream-error", () => call("add_observations", { observations: [{ entityName: "Nobody", contents: ["x"] }] }));
  await run("call/invalid-args-output-schema", async () => refusalShape(await call("create_entities", { entity: "Ada" })));
  await run("polling", () => polling("read_graph", {}));
}

await client.close();
process.exit(0);
