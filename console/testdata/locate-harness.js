// The harness of FuzzLocate: it loads locate.js (the path in argv[2]) and
// answers each line {"text", "locs"} of stdin with the line of
// judgeLocate.valueAt(text, loc) for each loc.
'use strict';
require(process.argv[2]);
const rl = require('readline').createInterface({input: process.stdin});
rl.on('line', (line) => {
  const a = JSON.parse(line);
  process.stdout.write(JSON.stringify(a.locs.map((l) => globalThis.judgeLocate.valueAt(a.text, l))) + '\n');
});
