// The peer of judge serve's POST /validate in bench/run: a minimal
// validation service in Node's http module. It parses the request body,
// finds the validator compiled for the request's expected_schema (cached
// by the schema's JSON text, compiled with Ajv on a miss, allErrors as
// judge reports every error) and answers {"valid", "errors"}.
// Prints "listening http://127.0.0.1:PORT" when ready.
// Usage: node bench/ajv-server.mjs
import http from "node:http";
import Ajv from "ajv";

const cache = new Map();
const ajv = new Ajv({ allErrors: true, strict: false, validateFormats: false });

function validator(schema) {
  const key = JSON.stringify(schema);
  let v = cache.get(key);
  if (!v) {
    v = ajv.compile(schema);
    cache.set(key, v);
  }
  return v;
}

const server = http.createServer((req, res) => {
  if (req.method !== "POST" || req.url !== "/validate") {
    res.writeHead(404).end();
    return;
  }
  const chunks = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", () => {
    let body;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    } catch (e) {
      res.writeHead(400, { "Content-Type": "application/json" }).end(JSON.stringify({ error: String(e) }));
      return;
    }
    const v = validator(body.expected_schema);
    const valid = v(body.output);
    res.writeHead(200, { "Content-Type": "application/json" });
    res.end(JSON.stringify({ valid, errors: v.errors || [] }));
  });
});
server.keepAliveTimeout = 60000;
server.listen(0, "127.0.0.1", () => {
  console.log(`listening http://127.0.0.1:${server.address().port}`);
});
