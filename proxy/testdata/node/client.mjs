// Drives judge proxy with the official openai npm client: reads a chat
// completions request (JSON) on stdin, sends it to $PROXY_URL/v1 with the
// key $OPENAI_API_KEY, streaming when it says so, and prints what the
// client made of the answer as one JSON object on stdout.
import OpenAI from "openai";

const chunks = [];
for await (const c of process.stdin) chunks.push(c);
const body = JSON.parse(Buffer.concat(chunks).toString("utf8"));

const client = new OpenAI({ baseURL: process.env.PROXY_URL + "/v1", apiKey: process.env.OPENAI_API_KEY, maxRetries: 0, timeout: 20000 });
const out = { chunks: 0, content: {}, toolCalls: {}, finish: {}, judge: null, usage: null, error: null };
try {
  if (body.stream) {
    const stream = await client.chat.completions.create(body);
    for await (const chunk of stream) {
      out.chunks++;
      for (const ch of chunk.choices) {
        if (ch.delta?.content) out.content[ch.index] = (out.content[ch.index] ?? "") + ch.delta.content;
        for (const tc of ch.delta?.tool_calls ?? []) {
          const calls = (out.toolCalls[ch.index] ??= []);
          const call = (calls[tc.index] ??= { id: "", name: "", arguments: "" });
          if (tc.id) call.id = tc.id;
          if (tc.function?.name) call.name += tc.function.name;
          if (tc.function?.arguments) call.arguments += tc.function.arguments;
        }
        if (ch.finish_reason) out.finish[ch.index] = ch.finish_reason;
      }
      if (chunk.usage) out.usage = chunk.usage;
      if (chunk.judge) out.judge = chunk.judge;
    }
  } else {
    const res = await client.chat.completions.create(body);
    for (const ch of res.choices) {
      out.content[ch.index] = ch.message.content;
      out.toolCalls[ch.index] = (ch.message.tool_calls ?? []).map((tc) => ({ id: tc.id, name: tc.function.name, arguments: tc.function.arguments }));
      out.finish[ch.index] = ch.finish_reason;
    }
    out.usage = res.usage;
    out.judge = res.judge ?? null;
  }
} catch (e) {
  out.error = { status: e.status ?? null, message: String(e.message ?? e), name: e.constructor?.name ?? "" };
}
process.stdout.write(JSON.stringify(out) + "\n");
