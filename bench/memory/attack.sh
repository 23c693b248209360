#!/usr/bin/env bash
# attack.sh sends judge serve N /validate requests, each with a different
# set of sources of MB megabytes (real text: the SummEdits documents of
# ../shared/testdata, rotated so that no two sets are alike), C at a time,
# and prints the status codes, the peak and final RSS of the server and the
# live heap at the first garbage collection after the attack (GODEBUG
# gctrace). It measures the memory the engine's caches keep (issue 14).
#
#   bench/memory/attack.sh [JUDGE_BINARY] [N] [MB] [C] [-- extra judge serve flags]
#   bench/memory/attack.sh ./judge 16 1 2
#
# The layer deadline is raised to 10 minutes (--timeout), so that every set
# is indexed: at about 0.25 MB/s, an 8 MB set takes half a minute of one
# core, so that sixteen of them take minutes, and a request over the
# server's 60 s write timeout is cut (its index is still built and cached).
set -euo pipefail
judge=${1:-./judge}; n=${2:-16}; mb=${3:-8}; c=${4:-2}
shift $(( $# < 4 ? $# : 4 )) || true
[[ ${1:-} == -- ]] && shift
here=$(cd "$(dirname "$0")" && pwd)
shared=$(cd "$here/../../../shared" 2>/dev/null && pwd) || { echo "attack.sh: ../shared is absent" >&2; exit 2; }
work=$(mktemp -d)
trap 'kill $pid 2>/dev/null || true; wait $pid 2>/dev/null || true; rm -rf "$work"' EXIT

python3 - "$shared/testdata/summedits-dev" "$work" "$n" "$mb" <<'PY'
import json, sys, os
src, out, n, mb = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
docs, seen = [], set()
for name in ("news", "podcast", "samsum"):
    for row in json.load(open(os.path.join(src, f"summedits_{name}.json"))):
        if row["doc"] not in seen:
            seen.add(row["doc"]); docs.append(row["doc"])
size = mb << 20
for i in range(n):
    # Each set: the documents from the i-th on, round and round, to size.
    parts, total, k = [], 0, i * 7
    while total < size:
        d = docs[k % len(docs)]; parts.append(d); total += len(d) + 2; k += 1
    text = "\n\n".join(parts)[:size]
    body = {"output": "The protest took place on February 23, 2023, and 170 litres of paint were used.",
            "sources": [{"id": f"set-{i}", "content": text}]}
    with open(os.path.join(out, f"req-{i}.json"), "w") as f:
        json.dump(body, f)
PY

GODEBUG=gctrace=1 "$judge" serve --addr 127.0.0.1:0 --timeout 10m --max-body-bytes $(( (mb + 2) << 20 )) "$@" \
  >"$work/serve.log" 2>&1 &
pid=$!
for _ in $(seq 100); do
  url=$(grep -o '"url":"[^"]*"' "$work/serve.log" | head -1 | cut -d'"' -f4 || true)
  [[ -n $url ]] && break
  sleep 0.1
done
[[ -n ${url:-} ]] || { echo "attack.sh: judge serve did not start:" >&2; cat "$work/serve.log" >&2; exit 1; }
rss() { awk -v k="$1" '$1 == k":" {print int($2/1024) " MB"}' /proc/$pid/status; }
echo "judge serve at $url; $n requests of $mb MB of sources, $c at a time"
start=$(date +%s)
# curl prints 000 for a request whose answer never came (the server's
# 60 s write timeout cuts a request that takes longer).
{ seq 0 $((n - 1)) | xargs -P "$c" -I{} curl -s -o /dev/null -w '%{http_code}\n' -H 'Expect:' \
  -H 'Content-Type: application/json' --data-binary @"$work/req-{}.json" "$url/validate" || true; } | sort | uniq -c
echo "attack took $(( $(date +%s) - start )) s"
echo "peak RSS $(rss VmHWM), RSS now $(rss VmRSS)"
gcs=$(grep -c '^gc ' "$work/serve.log" || true)
# The first collection after the attack (the runtime forces one within two
# minutes): its live heap is what the server keeps.
for _ in $(seq 1300); do
  [[ $(grep -c '^gc ' "$work/serve.log") -gt $gcs ]] && break
  sleep 0.1
done
echo "live heap after the attack (gctrace, MB marked): $(grep '^gc ' "$work/serve.log" | tail -1 | grep -o '[0-9]*->[0-9]*->[0-9]* MB')"
curl -s "$url/metrics" | grep -E '^judge_cache_(bytes|budget_bytes)' || true
