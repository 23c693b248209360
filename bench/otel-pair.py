#!/usr/bin/env python3
"""Span export's cost in two builds of judge serve, measured at once.

Starts four `judge serve` processes: the --main and --new binaries, each
with span export on (OTLP http/protobuf to a loopback receiver in this
process, which reads and discards the requests) and off. The load
(bench/load, 4 connections, the bench corpus's 234 tool-argument
documents: the engine's fast path, 2 spans a request) goes to the four in
turn, in rotated order, --rounds rounds of --duration each; each server's
CPU a request (user + system, every thread, /proc/PID/stat) and context
switches a request (/proc/PID/task/*/status) are taken per round. Prints
every round, each build's medians and on/off ratios, and the new build's
export-on CPU less main's, round by round: on a shared machine both
builds see the same neighbours, which the bench row's runs one after the
other do not. docs/observability.md ("Recording, fifth pass") has figures.

Run from the repository root (the corpus is ../shared/testdata/mcp-tools/bench-corpus.json):
  go build -o /tmp/judge-new ./cmd/judge && go build -o /tmp/load ./bench/load
  (cd ../main-worktree && go build -o /tmp/judge-main ./cmd/judge)
  python3 bench/otel-pair.py --main /tmp/judge-main --new /tmp/judge-new --load /tmp/load
"""
import argparse, os, statistics

import otelserve

ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
ap.add_argument("--main", required=True, help="the judge binary to compare against")
ap.add_argument("--new", required=True, help="the judge binary measured")
otelserve.add_load_args(ap, 10)
args = ap.parse_args()

bodies = otelserve.write_bodies(args.corpus)
sink_url, exports = otelserve.start_sink()
cpu = otelserve.cpu


def start(binary, export):
    return otelserve.start_serve(binary, sink_url, export)


def switches(pid):
    n = 0
    for t in os.listdir("/proc/%d/task" % pid):
        try:
            for line in open("/proc/%d/task/%s/status" % (pid, t)):
                if line.startswith(("voluntary_ctxt_switches", "nonvoluntary_ctxt_switches")):
                    n += int(line.split()[1])
        except OSError:
            pass
    return n

def load(url, d):
    return otelserve.load(args.load, url, bodies, d)


servers = {}
for name, binary, export in [("main-on", args.main, True), ("main-off", args.main, False),
                             ("new-on", args.new, True), ("new-off", args.new, False)]:
    servers[name] = start(binary, export)
for name, (p, url) in servers.items():  # compile every schema
    load(url, "1s")
res = {name: [] for name in servers}
sw = {name: [] for name in servers}
names = list(servers)
try:
    for r in range(args.rounds):
        order = names[r % 4:] + names[:r % 4]
        for name in order:
            p, url = servers[name]
            c0, s0 = cpu(p.pid), switches(p.pid)
            n = load(url, args.duration)
            c1, s1 = cpu(p.pid), switches(p.pid)
            res[name].append((c1 - c0) / n * 1e6)
            sw[name].append((s1 - s0) / n)
        print("round %d (load %s): %s" % (r + 1, open("/proc/loadavg").read().split()[0],
              "  ".join("%s %.1f" % (k, res[k][-1]) for k in names)), flush=True)
finally:
    for p, _ in servers.values():
        p.kill()
    os.unlink(bodies)
med = {k: statistics.median(v) for k, v in res.items()}
for b in ("main", "new"):
    ratios = [a / o for a, o in zip(res[b + "-on"], res[b + "-off"])]
    adds = [a - o for a, o in zip(res[b + "-on"], res[b + "-off"])]
    print("%s: on %.1f us, off %.1f us (medians); on/off per round %s, median %.3f; on - off per round %s, median %.1f us" % (
        b, med[b + "-on"], med[b + "-off"], " ".join("%.2f" % x for x in ratios), statistics.median(ratios),
        " ".join("%.1f" % x for x in adds), statistics.median(adds)))
d = [n - m for n, m in zip(res["new-on"], res["main-on"])]
print("new-on - main-on per round: %s, median %.1f us" % (" ".join("%.1f" % x for x in d), statistics.median(d)))
print("context switches a request (median): " + "  ".join("%s %.3f" % (k, statistics.median(v)) for k, v in sw.items()))
print("exports %d, %.1f MB" % (exports[0], exports[1] / 1e6))
