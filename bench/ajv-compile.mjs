// The peer of judge's lint of 1,000 tools in bench/run: compiles every
// schema of a JSON file (an array of schemas) with a fresh Ajv instance
// per round, for about SECONDS, and prints "compile <ns per round>" and
// the number of schemas. What judge's lint does besides compiling (reading
// the manifests, checking every field and reference) Ajv does not do.
// With SECONDS 0 it compiles every schema once, with no warm-up.
// Usage: node bench/ajv-compile.mjs schemas.json SECONDS
import fs from "node:fs";
import Ajv from "ajv";

const schemas = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const seconds = Number(process.argv[3] || 2);

function round() {
  const ajv = new Ajv({ allErrors: true, strict: false, validateFormats: false });
  // A fresh instance has an empty cache (keyed by the schema object), so
  // every schema is compiled in every round.
  for (const s of schemas) ajv.compile(s);
}

if (seconds <= 0) {
  // One round, nothing else: for timing the whole process.
  const t0 = process.hrtime.bigint();
  round();
  console.log(`compile ${Number(process.hrtime.bigint() - t0)} ${schemas.length}`);
  process.exit(0);
}
round();
const budget = BigInt(Math.round(seconds * 1e9));
const start = process.hrtime.bigint();
let n = 0;
while (n === 0 || process.hrtime.bigint() - start < budget) {
  round();
  n++;
}
const ns = Number(process.hrtime.bigint() - start) / n;
console.log(`compile ${ns.toFixed(0)} ${schemas.length}`);
