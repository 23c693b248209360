#!/usr/bin/env bash
# Runs judge's complexity metrics (internal/code: parse with tree-sitter and
# count every function's complexity, what radon cc computes) and the whole
# quality layer side by side with radon's cc_visit on the same large real
# Python file, and prints the time per file of each and the ratio judge/radon
# (below 1: judge faster). radon runs in process, so Python's start-up is not
# counted; radon's own CLI start-up is printed for reference.
# Needs radon (apt-get install radon).
# Usage: bash bench/quality.sh [seconds] [file.py]
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-2}
file=${2:-$(ls /usr/lib/python3.*/_pydecimal.py 2>/dev/null | sort | tail -1)}
[ -n "$file" ] && [ -f "$file" ] || { echo "bench/quality.sh: give a Python file (no /usr/lib/python3.*/_pydecimal.py)" >&2; exit 2; }
command -v radon >/dev/null || { echo "bench/quality.sh: radon is not installed (apt-get install radon)" >&2; exit 2; }
python=/usr/bin/python3
[ -x "$python" ] || python=python3

go_out=$(JUDGE_BENCH_PY="$file" go test -run '^$' -bench 'Benchmark(Metrics|Layer)Large$' -benchtime "${secs}s" ./layer/quality/)
radon_ns=$("$python" bench/radon-cc.py "$secs" "$file" | awk '{print $2}')
cli_ms=$( { /usr/bin/time -f %e radon cc -j "$file" >/dev/null; } 2>&1 | awk '{printf "%.0f", $1 * 1000}')
ns() { echo "$go_out" | awk -v n="$1" '$1 ~ "^"n"(-[0-9]+)?$" {print $3}'; }
metrics=$(ns BenchmarkMetricsLarge)
layer=$(ns BenchmarkLayerLarge)

printf "machine: %s cores, %s; file: %s (%s lines, %s bytes)\n" "$(nproc)" "$(uname -m)" "$file" "$(wc -l <"$file")" "$(wc -c <"$file")"
printf "%-34s %14s %8s\n" workload "ms/file" "ratio"
awk -v r="$radon_ns" 'BEGIN { printf "%-34s %14.1f %8s\n", "radon cc_visit (in process)", r / 1e6, "1.00" }'
awk -v j="$metrics" -v r="$radon_ns" 'BEGIN { printf "%-34s %14.1f %8.2f\n", "judge metrics (parse + complexity)", j / 1e6, j / r }'
awk -v j="$layer" -v r="$radon_ns" 'BEGIN { printf "%-34s %14.1f %8.2f\n", "judge quality layer (all checks)", j / 1e6, j / r }'
printf "%-34s %14s\n" "radon cc -j (CLI, with start-up)" "$cli_ms"
