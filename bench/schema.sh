#!/usr/bin/env bash
# Runs judge's schema validation and Ajv side by side on the same corpus
# (../shared/testdata/mcp-tools/bench-corpus.json) in one run and prints the
# time per document of each and the ratio Ajv/judge: judge's throughput in
# multiples of Ajv's (above 1: judge faster). Two judge rows per workload:
# "engine" is Engine.Validate on a request (decode, schema, result), "compiled"
# is the compile-once library API (schema.Compile, Validator.Validate).
# Decoding the document's text is timed on both sides. Installs Ajv into
# bench/node_modules when missing. Usage: bash bench/schema.sh [seconds]
set -euo pipefail
cd "$(dirname "$0")/.."
corpus=../shared/testdata/mcp-tools/bench-corpus.json
secs=${1:-2}
[ -f "$corpus" ] || { echo "bench/schema.sh: $corpus is absent" >&2; exit 2; }
[ -d bench/node_modules/ajv ] || (cd bench && npm ci --no-audit --no-fund --silent >/dev/null)

go_out=$(go test -run '^$' -bench 'BenchmarkSchema(Large|ToolArguments|Compiled)' -benchtime "${secs}s" . )
ajv_out=$(node bench/ajv-schema.mjs "$corpus" "$secs")

judge_ns() { # bench workload -> ns per document
	local name
	case $2 in
	large/*) [ "$1" = engine ] && name="BenchmarkSchemaLarge/${2#large/}" || name="BenchmarkSchemaCompiled/$2" ;;
	tool-arguments) [ "$1" = engine ] && name="BenchmarkSchemaToolArguments/all" || name="BenchmarkSchemaCompiled/tool-arguments" ;;
	tool-arguments-valid) [ "$1" = engine ] && name="BenchmarkSchemaToolArguments/valid" || name="BenchmarkSchemaCompiled/tool-arguments-valid" ;;
	esac
	echo "$go_out" | awk -v n="$name" '$1 ~ "^"n"(-[0-9]+)?$" {
		for (i = 1; i <= NF; i++) if ($(i+1) == "ns/doc") { print $i; exit }
		print $3; exit }'
}
printf "machine: %s cores, %s, %s\n" "$(nproc)" "$(uname -m)" "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
printf "%-22s %-9s %14s %14s %10s\n" workload judge "judge ns/doc" "ajv ns/doc" "ajv/judge"
echo "$ajv_out" | while read -r name ajv; do
	for bench in engine compiled; do
		j=$(judge_ns "$bench" "$name")
		awk -v n="$name" -v b="$bench" -v j="$j" -v a="$ajv" 'BEGIN { printf "%-22s %-9s %14.0f %14.0f %9.2fx\n", n, b, j, a, a / j }'
	done
done
