#!/usr/bin/env bash
# bench/wrk.sh: bench/run's http row measured by a second instrument, wrk,
# so that anyone can check it. POST /validate of the same 234 bodies
# (`go run ./bench/run -bodies`) against `judge serve` and against Ajv
# behind Node's http (bench/ajv-server.mjs), both started as bench/run
# starts them (no pinning: each inherits this environment, Go's default
# GOMAXPROCS). After a warm-up, a pass at one connection checks that every
# answer is a 200 with the right verdict; then ROUNDS rounds at 1, 16 and
# 64 connections, alternating judge and Node, SECS seconds each. Prints
# requests/s, the ratio Node's / judge's (below 1: judge faster), each
# server's CPU time per request (from /proc: steadier than requests/s on a
# loaded machine) and the ratio judge's / Node's, and the medians.
# docs/performance.md has its figures and how they differ from bench/run's.
#
#	bash bench/wrk.sh            # ROUNDS=3 SECS=2 by default, about 1½ min
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${ROUNDS:-3} secs=${SECS:-2}

if ! command -v wrk >/dev/null; then
	if [ "$(id -u)" = 0 ] && { apt-get install -y wrk >/dev/null 2>&1 ||
		{ apt-get update -qq >/dev/null 2>&1 && apt-get install -y wrk >/dev/null 2>&1; }; }; then
		:
	else
		echo "bench/wrk.sh: skipped: wrk is not installed and apt-get install wrk failed" >&2
		exit 0
	fi
fi
command -v node >/dev/null || { echo "bench/wrk.sh: node is not installed" >&2; exit 1; }
[ -d bench/node_modules/ajv ] || (cd bench && npm ci --no-audit --no-fund --silent)

tmp=$(mktemp -d)
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	rm -rf "$tmp"
}
trap cleanup EXIT
go build -o "$tmp/judge" ./cmd/judge
go run ./bench/run -bodies "$tmp/bodies.jsonl"

# start LOG CMD...: starts a server and sets url from the first
# http://127.0.0.1:PORT it prints.
start() {
	local log=$1
	shift
	"$@" >"$log" 2>&1 &
	pids+=("$!")
	for _ in $(seq 600); do
		url=$(grep -som1 'http://127\.0\.0\.1:[0-9]*' "$log" || true)
		[ -n "$url" ] && return 0
		kill -0 "$!" 2>/dev/null || break
		sleep 0.1
	done
	echo "bench/wrk.sh: $* did not start: $(tail -5 "$log")" >&2
	exit 1
}
start "$tmp/judge.log" "$tmp/judge" serve --addr 127.0.0.1:0
judge=$url jpid=$!
start "$tmp/node.log" node bench/ajv-server.mjs
node=$url npid=$!

# cpu PID: the process's CPU time so far (user + system), in clock ticks.
cpu() { awk '{print $14 + $15}' "/proc/$1/stat"; }

# run CONNS URL PID: one timed wrk run; prints its requests/s and the
# server's CPU µs per request; fails on any 4xx or 5xx answer (wrk's
# "Non-2xx or 3xx responses").
run() {
	local out c0 c1
	c0=$(cpu "$3")
	out=$(wrk -t"$(($1 < $(nproc) ? $1 : $(nproc)))" -c"$1" -d"${secs}s" -s bench/wrk.lua "$2" -- "$tmp/bodies.jsonl")
	c1=$(cpu "$3")
	if grep -q 'Non-2xx' <<<"$out" || ! grep -q 'Requests/sec' <<<"$out"; then
		echo "bench/wrk.sh: $2 at $1 connections: $out" >&2
		exit 1
	fi
	grep 'Socket errors' <<<"$out" >&2 || true
	awk -v c="$((c1 - c0))" -v hz="$(getconf CLK_TCK)" '/requests in/ {n = $1} /Requests\/sec/ {r = $2} END {print r, c / hz / n * 1e6}' <<<"$out"
}
median() { sort -g | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }

n=$(wc -l <"$tmp/bodies.jsonl")
# A first pass compiles every schema on both servers (as bench/run's), the
# second checks every answer.
for u in "$judge" "$node"; do
	wrk -t2 -c4 -d2s -s bench/wrk.lua "$u" -- "$tmp/bodies.jsonl" >/dev/null
	v=$(WRK_VERIFY=1 wrk -t1 -c1 -d5s -s bench/wrk.lua "$u" -- "$tmp/bodies.jsonl" | grep '^verify:')
	read -r _ checked _ wrong _ <<<"$v"
	if [ "$checked" -lt "$n" ] || [ "$wrong" -ne 0 ]; then
		echo "bench/wrk.sh: $u: $v (want at least $n checked, none wrong)" >&2
		exit 1
	fi
	echo "$u: $v"
done

printf 'bench/wrk.sh, %s UTC, commit %s, %s; %s rounds of %ss alternating judge and Node, %s bodies\n' \
	"$(date -u '+%F %H:%M')" "$(git rev-parse --short HEAD)" "$(wrk -v 2>&1 | head -1 | cut -d' ' -f1-2)" "$rounds" "$secs" "$n"
printf 'machine: %s cores (%s), %s; load average before %s\n' "$(nproc)" \
	"$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')" "$(uname -m)" "$(cut -d' ' -f1-3 /proc/loadavg)"
echo "conns  round  judge/s  node/s  node/judge  judge µs  node µs  judge/node  (µs: the server's CPU per request)"
for c in 1 16 64; do
	: >"$tmp/rounds"
	for r in $(seq "$rounds"); do
		j=$(run "$c" "$judge" "$jpid")
		o=$(run "$c" "$node" "$npid")
		echo "$j $o" | awk '{print $1, $3, $2, $4, $3 / $1, $2 / $4}' >>"$tmp/rounds"
		tail -1 "$tmp/rounds" | awk -v c="$c" -v r="$r" '{printf "%5s  %5s  %7.0f  %6.0f  %9.2fx  %8.1f  %7.1f  %9.2fx\n", c, r, $1, $2, $5, $3, $4, $6}'
	done
	for k in 1 2 5 3 4 6; do median < <(cut -d' ' -f"$k" "$tmp/rounds"); done | xargs |
		awk -v c="$c" '{printf "%5s  median %7.0f  %6.0f  %9.2fx  %8.1f  %7.1f  %9.2fx (ratios: the median of the rounds'"'"')\n", c, $1, $2, $3, $4, $5, $6}'
done
echo "load average after $(cut -d' ' -f1-3 /proc/loadavg)"
