#!/usr/bin/env bash
# Runs judge's schema validation and Ajv side by side on the same corpus
# (../shared/testdata/mcp-tools/bench-corpus.json) in one run and prints the
# time per document of each and the ratio Ajv/judge: judge's throughput in
# multiples of Ajv's (above 1: judge faster). Two judge rows per workload:
# "engine" is Engine.Validate on a request (decode, schema, result), "compiled"
# is the compile-once library API (schema.Compile, Validator.Validate).
# Decoding the document's text is timed on both sides. Installs Ajv into
# bench/node_modules when missing. Usage: bash bench/schema.sh [seconds [rounds]]
# With rounds above 1, judge and Ajv run alternately that many times, each
# for the seconds given, and each side's fastest round counts: on a shared
# machine, the round least disturbed by other work.
set -euo pipefail
cd "$(dirname "$0")/.."
corpus=../shared/testdata/mcp-tools/bench-corpus.json
secs=${1:-2}
rounds=${2:-1}
[ -f "$corpus" ] || { echo "bench/schema.sh: $corpus is absent" >&2; exit 2; }
[ -d bench/node_modules/ajv ] || (cd bench && npm ci --no-audit --no-fund --silent >/dev/null)

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go test -c -o "$tmp/judge.test" .
go_out= ajv_out=
for _ in $(seq "$rounds"); do
	go_out+=$'\n'$("$tmp/judge.test" -test.run '^$' -test.bench 'BenchmarkSchema(Large|ToolArguments|Compiled)' -test.benchtime "${secs}s")
	ajv_out+=$'\n'$(node bench/ajv-schema.mjs "$corpus" "$secs")
done
ajv_out=$(echo "$ajv_out" | awk 'NF == 3 { if (!($1 in m) || $2 < m[$1]) m[$1] = $2; if (!($1 in c) || $3 < c[$1]) c[$1] = $3
	if (!($1 in seen)) { seen[$1] = 1; order[++k] = $1 } }
	END { for (i = 1; i <= k; i++) print order[i], m[order[i]], c[order[i]] }')

judge_ns() { # bench workload unit -> ns per document (unit ns/doc: wall time, cpu-ns/doc: CPU time)
	local name
	case $2 in
	large/*) [ "$1" = engine ] && name="BenchmarkSchemaLarge/${2#large/}" || name="BenchmarkSchemaCompiled/$2" ;;
	tool-arguments) [ "$1" = engine ] && name="BenchmarkSchemaToolArguments/all" || name="BenchmarkSchemaCompiled/tool-arguments" ;;
	tool-arguments-valid) [ "$1" = engine ] && name="BenchmarkSchemaToolArguments/valid" || name="BenchmarkSchemaCompiled/tool-arguments-valid" ;;
	esac
	echo "$go_out" | awk -v n="$name" -v u="${3:-ns/doc}" '$1 ~ "^"n"(-[0-9]+)?$" {
		v = (u == "ns/doc") ? $3 : ""; for (i = 1; i <= NF; i++) if ($(i+1) == u) v = $i
		if (best == "" || v + 0 < best + 0) best = v }
		END { print best }'
}
printf "machine: %s cores, %s, %s; load average %s\n" "$(nproc)" "$(uname -m)" "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')" "$(cut -d' ' -f1-3 /proc/loadavg)"
[ "$rounds" -gt 1 ] && echo "rounds: $rounds, alternated, each side's fastest counts"
echo "ns/doc: wall time per document; cpu: the process's CPU time per document (all threads), which waiting for a processor does not inflate"
printf "%-22s %-9s %14s %14s %10s %14s %14s %10s\n" workload judge "judge ns/doc" "ajv ns/doc" "ajv/judge" "judge cpu" "ajv cpu" "ajv/judge"
echo "$ajv_out" | while read -r name ajv ajvcpu; do
	for bench in engine compiled; do
		j=$(judge_ns "$bench" "$name")
		jc=$(judge_ns "$bench" "$name" cpu-ns/doc)
		awk -v n="$name" -v b="$bench" -v j="$j" -v a="$ajv" -v jc="$jc" -v ac="$ajvcpu" \
			'BEGIN { printf "%-22s %-9s %14.0f %14.0f %9.2fx %14.0f %14.0f %9.2fx\n", n, b, j, a, a / j, jc, ac, ac / jc }'
	done
done
