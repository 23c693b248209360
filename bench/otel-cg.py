#!/usr/bin/env python3
"""Span export's cost in instructions a request, which load does not change.

Runs the server package's BenchmarkTelemetryRecord/off and /serve (a
fast-path POST /validate through the handler, 2 spans a request, judge's
own recorder exporting over OTLP/HTTP to a loopback receiver in the same
process) under `valgrind --tool=cachegrind --cache-sim=no`, with GOGC=off
and one processor (-test.cpu=1), at two request counts; a request's
instructions are the slope between them, so that the setup (the schemas'
compilation, the exporter's start) drops out. With the collector off and
one processor the count repeats to within a few hundred instructions a
request, where the CPU time of `judge serve` on this shared machine swings
by microseconds; what the collector costs is read from the allocations
(B/op, allocs/op) instead. Instructions are not time: cache misses and
the kernel's share are not in them (bench/otel-gap.py has those).

For each test binary given (--bin, old first), alternated --reps times:
the instructions a request off and serve, and serve less off, split into
"code" (every function but the Go scheduler's and the collector's, whose
counts depend on timing under valgrind) and "sched+gc"; then, for the
last binary against the first, the functions whose count a request
changed most.

Build the binaries (from each worktree):
  go test -c -o /tmp/server-new.test ./server
Run from the server directory (the benchmark reads ../../shared):
  cd server && python3 ../bench/otel-cg.py --bin /tmp/server-old.test --bin /tmp/server-new.test
"""
import argparse, collections, os, re, statistics, subprocess, tempfile

ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
ap.add_argument("--bin", action="append", required=True, help="a server package test binary (go test -c ./server)")
ap.add_argument("--n", type=int, nargs=2, default=[1000, 5000], help="the two request counts")
ap.add_argument("--reps", type=int, default=2)
ap.add_argument("--top", type=int, default=25)
args = ap.parse_args()

SCHED = re.compile(r"^(runtime\.(?!mallocgc|memmove|memclr|growslice|newobject|makeslice|mapaccess|memequal|rand|nextFreeFast|"
                   r"heapSetType|publicationBarrier|(\(\*mspan\)\.writeHeapBits)|(\(\*mcache\)\.nextFree)|efaceeq|concatstring|slicebytetostring|"
                   r"stringtoslicebyte|convT|assertE2I|typeAssert|getitab|cmpstring|duffzero|duffcopy|memhash|strhash|aeshash)"
                   r"|internal/runtime/(atomic|syscall)|gogo|gosave|runtime·|syscall\.|internal/runtime/maps\.\(\*Map\)\.clear)")


def run(binary, part, n):
    out = tempfile.NamedTemporaryFile(delete=False).name
    env = dict(os.environ, GOGC="off")
    res = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=" + out, binary,
                          "-test.run=^$", "-test.bench=BenchmarkTelemetryRecord/%s$" % part, "-test.benchtime=%dx" % n, "-test.cpu=1"],
                         capture_output=True, text=True, env=env)
    m = re.search(r"(\d+) B/op\s+(\d+) allocs/op", res.stdout)
    fn, cur = collections.Counter(), None
    for ln in open(out):
        if ln.startswith("fn="):
            cur = ln[3:].strip()
        elif ln[:1].isdigit() and cur:
            f = ln.split()
            if len(f) > 1:
                fn[cur] += int(f[1])
    os.unlink(out)
    if not m or not fn:
        raise SystemExit("%s %s: %s" % (binary, part, res.stdout[-500:] + res.stderr[-500:]))
    return fn, int(m.group(1)), int(m.group(2))


def split(fn):
    sched = sum(v for k, v in fn.items() if SCHED.match(k))
    return sum(fn.values()) - sched, sched


per = {}  # (bin, part) -> list of per-request function counters
allocs = collections.defaultdict(list)
for rep in range(args.reps):
    for b in args.bin:
        for part in ("off", "serve"):
            (f1, _, _), (f2, by, al) = run(b, part, args.n[0]), run(b, part, args.n[1])
            d = collections.Counter({k: (f2[k] - f1[k]) / (args.n[1] - args.n[0]) for k in set(f1) | set(f2)})
            per.setdefault((b, part), []).append(d)
            allocs[b, part].append((by, al))
            c, s = split(d)
            print("rep %d %s %s: %.0f instructions a request (code %.0f, sched+gc %.0f); at %d requests %d B/op, %d allocs/op" % (
                rep + 1, os.path.basename(b), part, c + s, c, s, args.n[1], by, al), flush=True)

print("medians, instructions a request (code | sched+gc); serve less off:")
for b in args.bin:
    cs = {p: [split(d) for d in per[b, p]] for p in ("off", "serve")}
    med = {p: (statistics.median(x[0] for x in cs[p]), statistics.median(x[1] for x in cs[p])) for p in cs}
    diffs = [s[0] - o[0] for s, o in zip(cs["serve"], cs["off"])]
    print("  %s: off %.0f | %.0f, serve %.0f | %.0f; code serve - off %.0f (reps: %s)" % (
        os.path.basename(b), med["off"][0], med["off"][1], med["serve"][0], med["serve"][1],
        statistics.median(diffs), ", ".join("%.0f" % x for x in diffs)))


def mean(ds):
    keys = set().union(*ds)
    return {k: statistics.median(d.get(k, 0) for d in ds) for k in keys}


def changed(o, n, label):
    rows = sorted(((n.get(k, 0) - o.get(k, 0), k) for k in set(o) | set(n) if not SCHED.match(k)), key=lambda r: r[0])
    print(label + ", code functions changed most (instructions a request):")
    for v, k in rows[:args.top // 3] + rows[-args.top:]:
        if abs(v) >= 5:
            print("  %+8.0f %s" % (v, re.sub(r"^github.com/agentjudge/judge/", "", k)[:140]))


b = args.bin[-1]
changed(mean(per[b, "off"]), mean(per[b, "serve"]), "%s, serve less off" % os.path.basename(b))
if len(args.bin) > 1:
    old = args.bin[0]
    changed(mean(per[old, "serve"]), mean(per[b, "serve"]), "serve, %s less %s" % (os.path.basename(b), os.path.basename(old)))
