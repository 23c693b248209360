#!/usr/bin/env python3
"""Where span export's cost goes in judge serve, by counts beside the CPU.

Starts, for each --judge binary, two `judge serve` processes (span export
on, OTLP http/protobuf to a loopback receiver in this process, and off),
each with GODEBUG=gctrace=1, and sends them the bench row's load
(bench/load, 4 connections, the bench corpus's 234 tool-argument
documents: 2 spans a request) in turn, rotated, --rounds rounds of
--duration each. Per round and server, a request's:
  cpu   the server's CPU time (every thread's run time, ns, from
        /proc/PID/task/*/schedstat; the bench row reads /proc/PID/stat)
  usr, sys  the same in user and kernel mode (/proc/PID/stat, 10 ms ticks)
  gc/k  garbage collections per 1,000 requests (gctrace lines)
  gcµs  the collector's CPU (gctrace's cpu terms: assist, background and
        idle marking, both pauses) per request
  cs    context switches (voluntary and not, every thread)
  sink  this process's CPU (the receiver: 0 when export is off) per request
  load  bench/load's CPU per request (with --together: every load's, over
        the requests of all)
  idle  the machine's idle share over the round (both cores)
Prints each server's medians, and for each binary export on less off,
round by round paired (the adjacent rounds of the two): median, the
spread of the pairs (quartiles) and a 90 % bootstrap interval of the
median, so that one can tell whether a difference is beyond the rounds'
noise. With two binaries, also the second's export on less the first's.

Run from the repository root (the corpus is ../shared/testdata/mcp-tools/bench-corpus.json):
  go build -o /tmp/judge ./cmd/judge && go build -o /tmp/load ./bench/load
  python3 bench/otel-gap.py --judge /tmp/judge --load /tmp/load --rounds 20 --duration 2s
"""
import argparse, glob, os, random, re, resource, statistics, threading

import otelserve

ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
ap.add_argument("--judge", action="append", required=True, help="a judge binary (give two to compare them)")
otelserve.add_load_args(ap, 20)
ap.add_argument("--together", action="store_true",
                help="load every server at once each round (each its own bench/load), not in turn: the pairs share their neighbours")
ap.add_argument("--variant", action="append", default=[], metavar="NAME=VAR=VALUE,...",
                help="one more export-on server of the first binary, with these variables (e.g. small=OTEL_BSP_MAX_EXPORT_BATCH_SIZE=128)")
args = ap.parse_args()

bodies = otelserve.write_bodies(args.corpus)
sink_url, exports = otelserve.start_sink()
GC = re.compile(r"^gc \d+ @\S+ \d+%: \S+ ms clock, ([\d.]+)\+([\d.]+)/([\d.]+)/([\d.]+)\+([\d.]+) ms cpu")


class Server:
    def __init__(self, name, binary, export, env=None):
        self.name, self.gcs, self.gc_ms, self.lock = name, 0, 0.0, threading.Lock()
        self.p, self.url = otelserve.start_serve(binary, sink_url, export, dict(env or {}, GODEBUG="gctrace=1"), self.line)
        self.rounds = []

    def line(self, ln):
        m = GC.match(ln)
        if m:
            with self.lock:
                self.gcs += 1
                self.gc_ms += sum(float(x) for x in m.groups())

    def counters(self):
        run, cs = 0, 0
        for t in glob.glob("/proc/%d/task/*" % self.p.pid):
            try:
                run += int(open(t + "/schedstat").read().split()[0])
                for ln in open(t + "/status"):
                    if ln.startswith(("voluntary_ctxt_switches", "nonvoluntary_ctxt_switches")):
                        cs += int(ln.split()[1])
            except OSError:
                pass
        with self.lock:
            gcs, gc_ms = self.gcs, self.gc_ms
        own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
        st = [int(x) for x in open("/proc/stat").readline().split()[1:]]
        f = open("/proc/%d/stat" % self.p.pid).read().rsplit(")", 1)[1].split()
        return [run / 1e3, int(f[11]) * 1e4, int(f[12]) * 1e4, gcs * 1e3, gc_ms * 1e3, cs, (own.ru_utime + own.ru_stime) * 1e6,
                (kids.ru_utime + kids.ru_stime) * 1e6, st[3] + st[4], sum(st)]


KEYS = ["cpu", "usr", "sys", "gc/k", "gcµs", "cs", "sink", "load"]
servers = []
for i, b in enumerate(args.judge):
    for export in (True, False):
        servers.append(Server("%s%d-%s" % ("judge", i + 1, "on" if export else "off"), b, export))
for v in args.variant:
    name, _, kvs = v.partition("=")
    servers.append(Server(name, args.judge[0], True, dict(kv.split("=", 1) for kv in kvs.split(","))))
try:
    for s in servers:  # compile every schema
        otelserve.load(args.load, s.url, bodies, "1s")
    for r in range(args.rounds):
        k = r % len(servers)
        groups = [servers] if args.together else [[s] for s in servers[k:] + servers[:k]]
        for g in groups:
            c0 = [s.counters() for s in g]
            ns = otelserve.load_all(args.load, [s.url for s in g], bodies, args.duration)
            c1 = [s.counters() for s in g]
            for s, a0, a1, n in zip(g, c0, c1, ns):
                d = [b - a for a, b in zip(a0, a1)]
                per = [x / n for x in d[:6]] + [x / sum(ns) for x in d[6:8]]  # this process's and the loads' over all
                s.rounds.append(dict(zip(KEYS, per), idle=d[8] / d[9]))
        print("round %d (load %s): %s" % (r + 1, open("/proc/loadavg").read().split()[0],
              "  ".join("%s %.1f" % (s.name, s.rounds[-1]["cpu"]) for s in servers)), flush=True)
finally:
    for s in servers:
        s.p.kill()
    os.unlink(bodies)


def med(xs):
    return statistics.median(xs)


def spread(diffs):
    """Median, quartiles and a 90 % bootstrap interval of the median."""
    q = statistics.quantiles(diffs, n=4) if len(diffs) > 1 else [diffs[0]] * 3
    boot = sorted(med(random.choices(diffs, k=len(diffs))) for _ in range(2000))
    return "%+.2f (quartiles %+.2f..%+.2f; 90%% interval of the median %+.2f..%+.2f)" % (
        med(diffs), q[0], q[2], boot[100], boot[1899])


print("medians a request (µs; gc/k per 1,000 requests; idle share of both cores):")
print("  %-10s %s" % ("", " ".join("%9s" % k for k in KEYS + ["idle"])))
for s in servers:
    print("  %-10s %s" % (s.name, " ".join("%9.3f" % med([r[k] for r in s.rounds]) for k in KEYS + ["idle"])))
print("exports: %d, %.1f MB" % (exports[0], exports[1] / 2**20))


def paired(a, b, label):
    print(label)
    for k in KEYS:
        print("  %-5s %s" % (k, spread([x[k] - y[k] for x, y in zip(a.rounds, b.rounds)])))
    print("  cpu ratio: median %.3f" % med([x["cpu"] / y["cpu"] for x, y in zip(a.rounds, b.rounds)]))


for i in range(0, 2 * len(args.judge), 2):
    paired(servers[i], servers[i + 1], "%s less %s, paired rounds:" % (servers[i].name, servers[i + 1].name))
for s in servers[2 * len(args.judge):]:
    paired(s, servers[1], "%s less %s, paired rounds:" % (s.name, servers[1].name))
    paired(s, servers[0], "%s less %s, paired rounds:" % (s.name, servers[0].name))
if len(args.judge) == 2:
    paired(servers[2], servers[0], "judge2-on less judge1-on, paired rounds:")
    paired(servers[3], servers[1], "judge2-off less judge1-off, paired rounds:")
