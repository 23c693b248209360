#!/usr/bin/env bash
# Runs judge's schema layer and Ajv side by side on the same corpus
# (../shared/testdata/mcp-tools/bench-corpus.json) in one run and prints the
# time per document of each and the ratio judge/Ajv (below 1: judge faster).
# Installs Ajv into bench/node_modules when missing. Usage: bash bench/schema.sh [seconds]
set -euo pipefail
cd "$(dirname "$0")/.."
corpus=../shared/testdata/mcp-tools/bench-corpus.json
secs=${1:-2}
[ -f "$corpus" ] || { echo "bench/schema.sh: $corpus is absent" >&2; exit 2; }
[ -d bench/node_modules/ajv ] || (cd bench && npm ci --no-audit --no-fund --silent >/dev/null)

go_out=$(go test -run '^$' -bench 'BenchmarkSchema(Large|ToolArguments)' -benchtime "${secs}s" . )
ajv_out=$(node bench/ajv-schema.mjs "$corpus" "$secs")

judge_ns() { # workload -> ns per document
	case $1 in
	large/*) echo "$go_out" | awk -v n="BenchmarkSchemaLarge/${1#large/}" '$1 ~ "^"n"(-[0-9]+)?$" {print $3}' ;;
	tool-arguments) echo "$go_out" | awk '$1 ~ /^BenchmarkSchemaToolArguments/ {for (i=1;i<=NF;i++) if ($(i+1)=="ns/doc") print $i}' ;;
	esac
}
printf "machine: %s cores, %s\n" "$(nproc)" "$(uname -m)"
printf "%-16s %14s %14s %8s\n" workload "judge ns/doc" "ajv ns/doc" ratio
echo "$ajv_out" | while read -r name ajv; do
	j=$(judge_ns "$name")
	awk -v n="$name" -v j="$j" -v a="$ajv" 'BEGIN { printf "%-16s %14.0f %14.0f %8.2f\n", n, j, a, j / a }'
done
