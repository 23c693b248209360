#!/usr/bin/env bash
# ablate.sh: what each grounding rule of internal/ablate does on each half of
# WiCE dev and on SummEdits, measured by turning it off alone.
#
#   bash bench/wice/ablate.sh [RULE...]
#
# For each rule (default: every one internal/ablate names) it builds the
# benches with -tags ablate once, runs `wice -half a`, `wice -half b` and
# `summedits` with JUDGE_ABLATE=RULE, and prints one Markdown row: per half,
# the supported and not_supported claims flagged with the rule on and off,
# and the ids of the claims whose verdict the rule changes (+id: the rule
# keeps a supported claim from being flagged, or flags a not_supported one;
# -id: the rule flags a supported claim, or loses a not_supported one).
# A rule holds on held-out claims when it helps on both halves.
set -euo pipefail
cd "$(dirname "$0")/../.."
wice_file=${WICE_FILE:-../shared/testdata/wice-dev/wice-claim-dev.jsonl}
se_files=(${SUMMEDITS_FILES:-../shared/testdata/summedits-dev/summedits_news.json ../shared/testdata/summedits-dev/summedits_podcast.json ../shared/testdata/summedits-dev/summedits_samsum.json})
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -tags ablate -o "$tmp/wice" ./bench/wice
go build -tags ablate -o "$tmp/summedits" ./bench/summedits
rules=("$@")
if [ ${#rules[@]} -eq 0 ]; then
	mapfile -t rules < <(sed -n 's/^\t[A-Za-z]* *= "\([a-z-]*\)"$/\1/p' internal/ablate/doc.go)
fi

# run NAME RULE: the reports and flagged claim ids of both halves and SummEdits.
run() {
	for h in a b; do
		JUDGE_ABLATE=$2 "$tmp/wice" -v -half "$h" "$wice_file" >"$tmp/$1.$h.txt" 2>"$tmp/$1.$h.v"
		for l in supported not_supported; do
			sed -n "s/^\([^ ]*\) $l: .*/\1/p" "$tmp/$1.$h.v" | sort >"$tmp/$1.$h.$l"
		done
	done
	JUDGE_ABLATE=$2 "$tmp/summedits" "${se_files[@]}" >"$tmp/$1.se.txt" 2>/dev/null
}
# rate FILE LABEL: "flagged/claims" of that label in a wice report.
rate() { awk -F'|' -v l="$2" '$2 == " " l " " { split($4, f, " "); printf "%s/%s", f[1], $3 }' "$1" | tr -d ' '; }
# ba FILE: SummEdits balanced accuracy and consistent recall, overall.
ba() { awk -F'|' '$2 == " all " { gsub(/ /, ""); printf "%s, consistent %s", $5, $7 }' "$1"; }

run on ""
echo "| rule | half a supported flagged on / off | half a not_supported on / off | half a claims changed | half b supported on / off | half b not_supported on / off | half b claims changed | SummEdits BA off (on: $(ba "$tmp/on.se.txt")) |"
echo "|---|---|---|---|---|---|---|---|"
for r in "${rules[@]}"; do
	run "$r" "$r"
	row="| $r"
	for h in a b; do
		# Supported: flagged only with the rule off is a false flag it
		# prevents (+), flagged only with it on one it causes (-).
		# not_supported: the other way round.
		ch=$( { comm -13 "$tmp/on.$h.supported" "$tmp/$r.$h.supported" | sed 's/^/+/'
			comm -23 "$tmp/on.$h.supported" "$tmp/$r.$h.supported" | sed 's/^/-/'
			comm -23 "$tmp/on.$h.not_supported" "$tmp/$r.$h.not_supported" | sed 's/^/+/'
			comm -13 "$tmp/on.$h.not_supported" "$tmp/$r.$h.not_supported" | sed 's/^/-/'; } | tr '\n' ' ')
		row+=" | $(rate "$tmp/on.$h.txt" supported) / $(rate "$tmp/$r.$h.txt" supported) | $(rate "$tmp/on.$h.txt" not_supported) / $(rate "$tmp/$r.$h.txt" not_supported) | ${ch:-none}"
	done
	echo "$row | $(ba "$tmp/$r.se.txt") |"
done
