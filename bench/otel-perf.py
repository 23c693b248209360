#!/usr/bin/env python3
"""Where span export's CPU goes in judge serve: perf profiles of export on and off.

Starts two `judge serve` processes of one binary, one exporting every span
over OTLP http/protobuf to a loopback receiver in this process (which
reads and discards the requests), one with export off; sends them the
bench row's load (bench/load, 4 connections, the bench corpus's 234
tool-argument documents: the engine's fast path, 2 spans a request) in
turn, --rounds rounds of --duration each, while `perf record -g` samples
each process (every thread). Each process's CPU a request comes from
/proc/PID/stat, and every sample is counted at that rate, so that the
two profiles compare per request: what export on adds, function by
function (--top, self time) and by part of the request (telemetry, the
access log, the response's write, the request's read, the scheduler,
the collector, the engine, the rest of net/http), the kernel's share of
each. docs/observability.md ("Recording, seventh pass") has figures.

Needs perf (perf_event_paranoid at most 2 for one's own processes).
Run from the repository root (the corpus is ../shared/testdata/mcp-tools/bench-corpus.json):
  go build -o /tmp/judge ./cmd/judge && go build -o /tmp/load ./bench/load
  python3 bench/otel-perf.py --judge /tmp/judge --load /tmp/load --out /tmp/otel-perf
"""
import argparse, collections, os, re, signal, subprocess

import otelserve

ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
ap.add_argument("--judge", required=True, help="the judge binary")
ap.add_argument("--out", required=True, help="a directory for the perf data")
otelserve.add_load_args(ap, 8)
ap.add_argument("--top", type=int, default=30, help="functions listed")
args = ap.parse_args()
os.makedirs(args.out, exist_ok=True)

bodies = otelserve.write_bodies(args.corpus)
sink_url, _ = otelserve.start_sink()
cpu = otelserve.cpu


def start(export):
    return otelserve.start_serve(args.judge, sink_url, export)


def load(url, d):
    return otelserve.load(args.load, url, bodies, d)


servers = {"on": start(True), "off": start(False)}
perfs = {}
try:
    for p, url in servers.values():  # compile every schema
        load(url, "1s")
    for k, (p, _) in servers.items():
        perfs[k] = subprocess.Popen(["perf", "record", "-F", "1999", "-g", "-p", str(p.pid), "-o", os.path.join(args.out, k + ".data")],
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    tot = {k: [0, 0.0] for k in servers}
    for r in range(args.rounds):
        for k in (["on", "off"] if r % 2 == 0 else ["off", "on"]):
            p, url = servers[k]
            c0 = cpu(p.pid)
            n = load(url, args.duration)
            tot[k][0] += n
            tot[k][1] += cpu(p.pid) - c0
finally:
    for q in perfs.values():
        q.send_signal(signal.SIGINT)
        q.wait()
    for p, _ in servers.values():
        p.kill()
    os.unlink(bodies)

# Parts of a request, by the first of their frames met from the leaf up.
PARTS = [("telemetry", ["agentjudge/judge/telemetry.", "otel/trace.", "otelattr"]), ("collector", ["gcBgMarkWorker"]),
         ("access log", ["log/slog."]), ("response write", ["checkConnErrorWriter.Write"]),
         ("request read", ["connReader", "(*conn).readRequest", "bufio.(*Reader)"]),
         ("scheduler", ["runtime.schedule", "runtime.mcall", "runtime.park_m", "findRunnable"]),
         ("engine", ["agentjudge/judge.(*Engine)"]), ("net/http, rest", ["net/http.(*conn).serve"])]


def profile(k):
    """Per request (us): self time by function, and time by part (with its kernel share)."""
    out = subprocess.run(["perf", "script", "-i", os.path.join(args.out, k + ".data"), "-F", "ip,sym"], capture_output=True, text=True).stdout
    fn, part, kern = collections.Counter(), collections.Counter(), collections.Counter()
    n = 0
    for sample in out.split("\n\n"):
        frames = [ln.strip().split(None, 1) for ln in sample.splitlines() if ln.strip()]
        frames = [(f[0], f[1] if len(f) > 1 else "?") for f in frames]
        if not frames:
            continue
        n += 1
        fn[frames[0][1]] += 1
        in_kernel = frames[0][0].startswith("ffffffff")
        name = "other"
        for _, sym in frames:
            hit = next((pn for pn, pats in PARTS if any(x in sym for x in pats)), None)
            if hit:
                name = hit
                break
        part[name] += 1
        kern[name] += in_kernel
    scale = tot[k][1] / tot[k][0] * 1e6 / max(n, 1)
    return ({s: v * scale for s, v in fn.items()}, {s: v * scale for s, v in part.items()}, {s: v * scale for s, v in kern.items()})


(fon, pon, kon), (foff, poff, koff) = profile("on"), profile("off")
print("CPU a request: export on %.2f us, off %.2f us (%d and %d requests, under perf)" % (
    tot["on"][1] / tot["on"][0] * 1e6, tot["off"][1] / tot["off"][0] * 1e6, tot["on"][0], tot["off"][0]))
print("by part (us a request): on - off, on, off; the kernel's share of on - off")
for name in [p for p, _ in PARTS] + ["other"]:
    print("  %-15s %+7.3f %7.3f %7.3f   kernel %+6.3f" % (name, pon.get(name, 0) - poff.get(name, 0), pon.get(name, 0), poff.get(name, 0),
                                                       kon.get(name, 0) - koff.get(name, 0)))
print("by function, self time (us a request), the largest differences:")
rows = sorted(((fon.get(s, 0) - foff.get(s, 0), s) for s in set(fon) | set(foff)), reverse=True)
for d, s in rows[:args.top]:
    print("  %+7.3f  %s" % (d, re.sub(r"^github.com/agentjudge/judge/", "", s)[:150]))
