#!/usr/bin/env bash
# A bisection over a history shaped like a release (issue 46): 60 commits
# in 3 topic branches merged in turn (tests/fixture/release-history.sh),
# most of them on files this kernel never compiles, two on headers a few
# dozen objects include, one that does not build and its fix, and the
# demo's readahead cut inside a branch. iobisect names the cut, says how
# many commits can change the kernel, and builds, boots and names none of
# the others: every commit it probed touches a file outside the paths the
# generator keeps for files no x86 build reads (checked here with git, not
# with iobisect's own list). With IOBISECT_LONG=1 (bench/long-repeats.sh)
# the same history is bisected again with the filter off, and through a
# one-node Slurm cluster: the same answer.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

eval "$("$IOB_ROOT/tests/fixture/release-history.sh" --commits 60 --branches 3)"
[ -n "${CULPRIT:-}" ] && [ -n "${BAD:-}" ] || fail "release-history.sh printed no culprit"

tmp=$(mktemp -d /tmp/iobisect-54.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
demo_job release "$tmp/release.json"
sed -i "s|\"bad\": \"iobisect-demo-large\"|\"bad\": \"$BAD\"|" "$tmp/release.json"
grep -q "\"bad\": \"$BAD\"" "$tmp/release.json" || fail "tests/jobs/demo.json changed shape"

timed_bisect "$tmp/release.json" "$tmp/release"
[ "$rc" = 0 ] || { tail -20 "$tmp/release.err" >&2; fail "bisect exited $rc"; }
[ "$named" = "$CULPRIT" ] || fail "named '$named', the culprit is $CULPRIT"

line=$(grep -o '\[bisect\] [0-9]* commits, [0-9]* can change this kernel' "$tmp/release.err" | head -1)
[ -n "$line" ] || { grep '\[bisect\]' "$tmp/release.err" | head -5 >&2; fail "no line says how many commits can change the kernel"; }
echo "$line"
all=$(awk '{ print $2 }' <<<"$line")
can=$(awk '{ print $4 }' <<<"$line")
[ "$all" = "$COMMITS" ] || fail "the range has $COMMITS commits, the line says $all"
[ "$can" -le $((COMPILED_COMMITS + MERGES + 1)) ] ||
	fail "$can commits can change the kernel, at most $((COMPILED_COMMITS + MERGES + 1)) touch compiled files"

# Every commit probed but the endpoints (the answer's pairs included)
# touches a compiled file: not all of its paths are in the never-compiled
# families.
never='^(Documentation/|arch/(arm64|sparc|powerpc|mips|riscv|s390)/|drivers/gpu/drm/amd/|sound/soc/|drivers/net/wireless/|drivers/staging/)'
iob bisect "$tmp/release.json" --results "$tmp/results" --log >"$tmp/release.log"
probed=$(sed -n 's/^git bisect \(good\|bad\|skip\) \([0-9a-f]\{40\}\)$/\2/p' "$tmp/release.log" | sort -u)
[ -n "$probed" ] || { cat "$tmp/release.log"; fail "--log names no commit"; }
n=0
for c in $probed; do
	n=$((n + 1))
	[ "$c" = "$(git -C "$REPO" rev-parse "v6.1^{commit}")" ] || [ "$c" = "$BAD_COMMIT" ] && continue
	files=$(git -C "$REPO" diff --name-only "$c^1" "$c")
	grep -Evq "$never" <<<"$files" ||
		fail "$c was probed, but it touches only files no x86 build reads: $(head -3 <<<"$files" | tr '\n' ' ')"
done
builds=$(grep -o '"builds": [0-9]*' "$tmp/results/release/summary.json" | head -1 | awk '{ print $2 }')
echo "release: $n commits probed of $COMMITS (log2 $(awk -v n="$COMMITS" 'BEGIN { printf "%.1f", log(n) / log(2) }')); $can can change the kernel (log2 $(awk -v n="$can" 'BEGIN { printf "%.1f", log(n) / log(2) }')); ${builds:-?} builds"

# --- a fixed line (the job a user who knows the figures writes): the
# first step shown below it stands in for bad, which this answer-only job
# then never builds; a step above it gives way to bad. Either way the
# same answer, and every commit probed can change the kernel.
sed 's|"threshold": "auto"|"threshold": "25%"|; s|"name": "release"|"name": "release-line"|' \
	"$tmp/release.json" >"$tmp/line.json"
grep -q '"threshold": "25%"' "$tmp/line.json" || fail "demo.json changed shape"
timed_bisect "$tmp/line.json" "$tmp/line"
[ "$rc" = 0 ] && [ "$named" = "$CULPRIT" ] || { tail -20 "$tmp/line.err" >&2; fail "under a 25% line: exit $rc, named '$named'"; }
state="$tmp/results/release-line/bisect-state.json"
stand=$(jq -r '.stand_in // ""' "$state")
bad_probes=$(jq '[.probes[] | select(.role == "bad")] | length' "$state")
if [ -n "$stand" ]; then
	grep -q "stands in for bad" "$tmp/line.err" || fail "the state has a step standing in, the log does not say so"
	[ "$bad_probes" = 0 ] || fail "a step stood in for bad, and bad was measured anyway ($bad_probes probes)"
	files=$(git -C "$REPO" diff --name-only "$stand^1" "$stand")
	grep -Evq "$never" <<<"$files" || fail "the step standing in, $stand, touches only files no x86 build reads"
	echo "under a 25% line: $stand stood in for bad, which was never built nor booted"
else
	grep -q "is built$" "$tmp/line.err" || fail "no step stood in, and the log does not say bad is built"
	[ "$bad_probes" = 1 ] || fail "no step stood in, and bad has $bad_probes probes"
	echo "under a 25% line: the first step was above it, and bad was built"
fi

[ -n "${IOBISECT_LONG:-}" ] || exit 0

# --- the filter off: every commit a candidate, the same answer
sed 's|"threshold": "auto"|"threshold": "auto", "inputs_only": false|' "$tmp/release.json" >"$tmp/all.json"
sed -i 's|"name": "release"|"name": "release-all"|' "$tmp/all.json"
grep -q '"inputs_only": false' "$tmp/all.json" || fail "demo.json changed shape"
timed_bisect "$tmp/all.json" "$tmp/all"
[ "$rc" = 0 ] && [ "$named" = "$CULPRIT" ] || fail "with every commit a candidate: exit $rc, named '$named'"
grep -q 'can change this kernel' "$tmp/all.err" && fail "inputs_only false still narrowed the range"
echo "every commit a candidate: $(grep -o '"builds": [0-9]*' "$tmp/results/release-all/summary.json" | head -1)"

# --- through Slurm (scripts/slurm-local.sh, as 46-slurm)
slurm_local="$IOB_ROOT/scripts/slurm-local.sh"
IOBISECT_SLURM_DIR=$(mktemp -d /tmp/iobisect-slurm.XXXXXX)
IOBISECT_SLURM_PORT=$((20000 + RANDOM % 20000 * 2))
export IOBISECT_SLURM_DIR IOBISECT_SLURM_PORT
trap '"$slurm_local" stop >/dev/null 2>&1 || true; rm -rf "$tmp" "$IOBISECT_SLURM_DIR"' EXIT
"$slurm_local" start >"$tmp/slurm-start.out" || fail "the local Slurm cluster did not start"
# Slurm's commands find this cluster by SLURM_CONF, which start writes
# there (without it sbatch looks up a controller in DNS, and fails).
. "$IOBISECT_SLURM_DIR/env"
sed 's|"name": "release"|"name": "release-slurm"|' "$tmp/release.json" >"$tmp/slurm.json"
start=$(date +%s)
rc=0
iob bisect "$tmp/slurm.json" --results "$tmp/results" --executor slurm >"$tmp/slurm.out" 2>"$tmp/slurm.err" || rc=$?
echo "slurm: exit $rc in $(( $(date +%s) - start ))s"
named=$(awk '$1 == "commit" { print $2; exit }' "$tmp/slurm.out")
[ "$rc" = 0 ] && [ "$named" = "$CULPRIT" ] || { tail -20 "$tmp/slurm.err" >&2; fail "through Slurm: exit $rc, named '$named'"; }
grep -o '\[bisect\] [0-9]* commits, [0-9]* can change this kernel' "$tmp/slurm.err" | head -1
