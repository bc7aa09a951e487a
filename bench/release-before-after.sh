#!/usr/bin/env bash
# release-before-after.sh: two builds of iobisect on one release-shaped
# history (tests/fixture/release-history.sh, as release-bisect.sh makes
# it), side by side (both at once: whatever else loads the host loads
# both), on the same footing: each a fresh XDG_CACHE_HOME (no
# source tree, build folders or images) and its own copy of one seed
# ccache (--ccache: a host's cache that holds v6.1's objects, as a
# machine that builds kernels has; the history's own commits are new to
# it). One table: builds, objects compiled (ccache hits + misses, the
# misses in brackets), boots, commits probed, wall, the commit named.
# --set-before/--set-after JQ change that run's job (a jq filter on the
# demo job, e.g. '.threshold = "25%" | .stand_in = false'): one binary,
# two settings. An hour or more on 2 cores.
#
# usage: bench/release-before-after.sh --before BIN --after BIN --ccache DIR
#            [--set-before JQ] [--set-after JQ]
#            [--commits N] [--branches B] [--seed S] [--out DIR]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
commits=400 branches=8 seed=1 before= after= seedcc= set_before=. set_after=.
out=/tmp/iobisect-before-after-$(date +%Y%m%d-%H%M%S)
usage() {
	echo "usage: bench/release-before-after.sh --before BIN --after BIN --ccache DIR [--set-before JQ] [--set-after JQ] [--commits N] [--branches B] [--seed S] [--out DIR]" >&2
	exit 2
}
while [ $# -gt 0 ]; do
	[ $# -ge 2 ] || usage
	case $1 in
	--before) before=$2 ;;
	--after) after=$2 ;;
	--ccache) seedcc=$2 ;;
	--set-before) set_before=$2 ;;
	--set-after) set_after=$2 ;;
	--commits) commits=$2 ;;
	--branches) branches=$2 ;;
	--seed) seed=$2 ;;
	--out) out=$2 ;;
	*) usage ;;
	esac
	shift 2
done
[ -n "$before" ] && [ -n "$after" ] && [ -n "$seedcc" ] || usage
for b in "$before" "$after"; do
	[ -x "$b" ] || { echo "release-before-after: '$b' is not an executable" >&2; exit 2; }
done
[ -d "$seedcc" ] || { echo "release-before-after: --ccache '$seedcc': no such folder" >&2; exit 2; }
mkdir -p "$out"
out=$(cd "$out" && pwd)
note() { printf '%s  %s  (load %s)\n' "$(date +%H:%M:%S)" "$*" "$(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$out/log"; }

# shellcheck source=/dev/null
. "$root/tests/integration/lib.sh"
repo=$(fixture_repo)
"$root/tests/fixture/release-history.sh" --repo "$repo" --commits "$commits" \
	--branches "$branches" --seed "$seed" >"$out/history.env"
branch=$(sed -n 's/^BAD=//p' "$out/history.env")
culprit=$(sed -n 's/^CULPRIT=//p' "$out/history.env")
[ -n "$branch" ] && [ -n "$culprit" ] || { echo "release-before-after: the history printed no branch or culprit" >&2; exit 1; }
for name in before after; do
	set=$set_before
	[ "$name" = after ] && set=$set_after
	jq --arg repo "$repo" --arg bad "$branch" \
		".name = \"release\" | .repo = \$repo | .bad = \$bad | $set" \
		"$root/tests/jobs/demo.json" >"$out/job-$name.json" ||
		{ echo "release-before-after: --set-$name '$set' is not a jq filter of the job" >&2; exit 2; }
done

run() { # NAME BIN
	local name=$1 bin=$2 rc=0 t0 t1
	rm -rf "$out/$name-cache" "$out/$name-ccache" "$out/$name-results"
	mkdir -p "$out/$name-cache"
	cp -a "$seedcc" "$out/$name-ccache"
	CCACHE_DIR=$out/$name-ccache ccache --zero-stats >/dev/null
	note "$name: $bin"
	t0=$(date +%s)
	XDG_CACHE_HOME=$out/$name-cache CCACHE_DIR=$out/$name-ccache \
		"$bin" bisect "$out/job-$name.json" --results "$out/$name-results" \
		>"$out/$name.out" 2>"$out/$name.err" || rc=$?
	t1=$(date +%s)
	CCACHE_DIR=$out/$name-ccache ccache --print-stats >"$out/$name.ccache"
	echo "$((t1 - t0)) $rc" >"$out/$name.wall"
	rm -rf "$out/$name-cache" "$out/$name-ccache"
	note "$name: exit $rc in $((t1 - t0)) s"
}
run after "$after" &
run before "$before" &
wait

{
	echo "# $branch, culprit ${culprit:0:12}; $(grep -ho '\[bisect\] [0-9]* commits, [0-9]* can change this kernel' "$out/after.err" | head -1)"
	echo "| run | builds | objects compiled (misses) | boots | probed | wall | named |"
	echo "|---|---:|---:|---:|---:|---:|---|"
	for name in after before; do
		read -r secs rc <"$out/$name.wall"
		s=$out/$name-results/release/summary.json
		cc=$(awk -F'\t' '$1 ~ /^(direct|preprocessed)_cache_hit$/ { h += $2 } $1 == "cache_miss" { m = $2 } END { printf "%d (%d)", h + m, m }' "$out/$name.ccache")
		probed=$(jq '[.probes[] | select(.role != "good" and .role != "bad") | .commit] | unique | length' \
			"$out/$name-results/release/bisect-state.json" 2>/dev/null || echo "?")
		named=$(awk '$1 == "commit" { print $2; exit }' "$out/$name.out")
		verdict=wrong
		[ -z "$named" ] && verdict="none (exit $rc)"
		[ "$named" = "$culprit" ] && verdict=right
		printf '| %s | %s (%s cached) | %s | %s | %s | %dm%02ds | %s %s |\n' "$name" \
			"$(jq -r '.builds // "?"' "$s" 2>/dev/null)" "$(jq -r '.builds_cached // 0' "$s" 2>/dev/null)" \
			"$cc" "$(jq -r '.boots // "?"' "$s" 2>/dev/null)" "$probed" $((secs / 60)) $((secs % 60)) "${named:0:12}" "$verdict"
	done
	echo
	grep -h '^\[bisect\] step' "$out/after.err" | sed 's/^/after:  /' || true
	grep -h '^\[bisect\] step' "$out/before.err" | sed 's/^/before: /' || true
} | tee "$out/table.txt"
