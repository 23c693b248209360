#!/usr/bin/env bash
# Measures the grounding layers on real text from ../shared/testdata/summedits-dev:
#  1. BenchmarkFacts: about 100 claims checked against 100 KB, 1 MB and 10 MB of
#     sources whose index is cached (a server after the first request);
#  2. BenchmarkIndex: building that index (once per set of sources);
#  3. the SummEdits evaluation: balanced accuracy overall and per edit type.
# Usage: bash bench/grounding.sh [benchtime, default 3x]
set -euo pipefail
cd "$(dirname "$0")/.."
data=../shared/testdata/summedits-dev
[ -d "$data" ] || { echo "bench/grounding.sh: $data is absent" >&2; exit 2; }
printf "machine: %s cores, %s, %s\n\n" "$(nproc)" "$(uname -m)" "$(go env GOVERSION)"
go test -run '^$' -bench 'BenchmarkFacts|BenchmarkIndex' -benchtime "${1:-3x}" ./layer/facts | grep -E '^Benchmark'
echo
go run ./bench/summedits "$data"/summedits_*.json
