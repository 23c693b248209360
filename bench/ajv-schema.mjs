// Validates the shared benchmark corpus with Ajv, the peer judge's schema
// layer is compared with, and prints one line per workload:
//   <workload> <ns per document> <CPU ns per document>
// The CPU time is the process's (all its threads, user and system), which
// waiting for a processor on a shared machine does not inflate.
// The work matches BenchmarkSchema* in ../bench_test.go: parse each document
// from its JSON text and validate it against a schema compiled once, with
// all errors collected (allErrors), as judge reports every error.
import fs from "node:fs";
import Ajv from "ajv";

const corpus = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const seconds = Number(process.argv[3] || 2);

function compile(schema) {
  const ajv = new Ajv({ allErrors: true, strict: false, validateFormats: false });
  return ajv.compile(schema);
}

function measure(name, docs) {
  // Warm up for as long as the measurement (and at least 50 rounds), then
  // run whole rounds until the time is spent. V8 optimises hot code on a
  // background thread: a warm-up of a few rounds measured Ajv still partly
  // unoptimised when a run is short or the machine loaded (1,293 ns/doc
  // with 0.23 s runs against 749 with 3 s, valid tool arguments, loaded),
  // which would favour judge (warmed for a fifth of its time, and compiled).
  const budget = BigInt(Math.round(seconds * 1e9));
  const warm = process.hrtime.bigint();
  for (let i = 0; i < 50 || process.hrtime.bigint() - warm < budget; i++) {
    for (const [v, text] of docs) v(JSON.parse(text));
  }
  const cpu0 = process.cpuUsage();
  const start = process.hrtime.bigint();
  let n = 0;
  let bad = 0;
  while (process.hrtime.bigint() - start < budget) {
    for (const [v, text, want] of docs) {
      if (v(JSON.parse(text)) !== want) bad++;
      n++;
    }
  }
  const ns = Number(process.hrtime.bigint() - start) / n;
  const cpu = process.cpuUsage(cpu0);
  const cpuNs = ((cpu.user + cpu.system) * 1000) / n;
  if (bad) console.error(`${name}: ${bad} verdicts disagree with the corpus labels`);
  console.log(`${name} ${ns.toFixed(0)} ${cpuNs.toFixed(0)}`);
}

const large = compile(corpus.large.schema);
measure("large/valid", [[large, corpus.large.valid, true]]);
measure("large/invalid", [[large, corpus.large.invalid, false]]);
const args = [];
for (const c of corpus.cases) {
  const v = compile(c.schema);
  args.push([v, c.valid, true], [v, c.invalid, false]);
}
measure("tool-arguments", args);
measure("tool-arguments-valid", args.filter(([, , want]) => want));
