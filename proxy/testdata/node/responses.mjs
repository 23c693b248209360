// Drives judge proxy's Responses API with the official openai npm client:
// reads a Responses request (JSON) on stdin, sends it to $PROXY_URL/v1
// with the key $OPENAI_API_KEY, streaming when it says so, and prints
// what the client made of the answer as one JSON object on stdout.
import OpenAI from "openai";

const chunks = [];
for await (const c of process.stdin) chunks.push(c);
const body = JSON.parse(Buffer.concat(chunks).toString("utf8"));

const client = new OpenAI({ baseURL: process.env.PROXY_URL + "/v1", apiKey: process.env.OPENAI_API_KEY, maxRetries: 0, timeout: 20000 });
const out = { types: [], text: "", calls: {}, status: "", reason: "", judge: null, error: null };
try {
  if (body.stream) {
    const stream = await client.responses.create(body);
    for await (const ev of stream) {
      out.types.push(ev.type);
      if (ev.type === "response.output_text.delta") out.text += ev.delta;
      if (ev.type === "response.output_item.done" && ev.item.type === "function_call") out.calls[ev.output_index] = ev.item.arguments;
      if (ev.type === "response.completed" || ev.type === "response.incomplete") {
        out.status = ev.response.status;
        out.reason = ev.response.incomplete_details?.reason ?? "";
      }
      if (ev.type === "judge.validation") out.judge = ev.judge;
    }
  } else {
    const res = await client.responses.create(body);
    out.text = res.output_text;
    res.output.forEach((it, i) => { if (it.type === "function_call") out.calls[i] = it.arguments; });
    out.status = res.status;
    out.reason = res.incomplete_details?.reason ?? "";
    out.judge = res.judge ?? null;
  }
} catch (e) {
  out.error = { status: e.status ?? null, message: String(e.message ?? e), name: e.constructor?.name ?? "" };
}
process.stdout.write(JSON.stringify(out) + "\n");
