#!/usr/bin/env bash
# End-to-end sweep on the kernel fixture (tests/fixture/demo-series.sh):
# `iobisect sweep` over v6.1..iobisect-demo-large with --every 3 measures
# v6.1, c3, c6 (does not build), c9 and c12, finds the step between c3 and
# c9, bisects it as a derived job and names the demo's culprit (c9); the
# sweep state lists the sample oldest first. Run again, it measures
# nothing new (the store is the cache: no new boot document anywhere) and
# gives the same answer. Over v6.1..iobisect-demo-faster with
# --bisect-improvements it also bisects the fix after the slowdown (f14)
# as a "direction": "faster" job.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

# IOBISECT_SWEEP_BIN: a binary to use instead of ./iobisect (for a tree
# whose dispatch table does not list sweep yet).
sweep() {
	if [ -n "${IOBISECT_SWEEP_BIN:-}" ]; then
		"$IOBISECT_SWEEP_BIN" sweep "$@"
	else
		iob sweep "$@"
	fi
}

demo_ids
broken=$(demo_field broken "")
base=$(git -C "$repo" rev-parse 'v6.1^{commit}')
[ "$c9" = "$culprit" ] || fail "the demo series changed: c9 $c9 is not the culprit $culprit"

tmp=$(mktemp -d /tmp/iobisect-45.XXXXXX)
# Kept when the test fails, for the logs (cold.err, the derived bisection).
trap 'if [ $? -eq 0 ]; then rm -rf "$tmp"; else echo "kept $tmp" >&2; fi' EXIT
demo_job e2e-sweep "$tmp/job.json"

boot_docs() { find "$tmp/results" -name 'boot-*.json' ! -name '*-sample-*' 2>/dev/null | wc -l; }

# --- cold
start=$(date +%s)
rc=0
sweep "$tmp/job.json" --range v6.1..iobisect-demo-large --every 3 \
	--results "$tmp/results" >"$tmp/cold.out" 2>"$tmp/cold.err" || rc=$?
echo "cold: exit $rc in $(( $(date +%s) - start ))s, $(boot_docs) boot documents"
cat "$tmp/cold.out"
[ $rc -eq 1 ] || { tail -30 "$tmp/cold.err" >&2; fail "the sweep exited $rc, not 1 (regression found)"; }
grep -Eq "^  regression +${c3:0:12}\.\.${c9:0:12} .* bisect\$" "$tmp/cold.out" ||
	{ tail -60 "$tmp/cold.err" >&2; fail "no regression step reported between c3 ${c3:0:12} and c9 ${c9:0:12}"; }
# What a derived bisection did, for a failure's log: its report and the
# tail of the sweep's progress.
derived_log() {
	local f
	for f in "$tmp"/results/e2e-sweep-bisect-*/report.txt; do
		[ -f "$f" ] && { echo "--- $f"; tail -40 "$f"; }
	done >&2
	tail -60 "$tmp/cold.err" >&2
}
grep -q "^regression ${c3:0:12}\.\.${c9:0:12}: culprit $culprit " "$tmp/cold.out" ||
	{ derived_log; fail "the follow-up bisection did not name the demo culprit $culprit"; }
grep -q "^${broken:0:12} .*build-failure" "$tmp/cold.out" ||
	fail "the commit that does not build (${broken:0:12}) is not shown as a build failure"
state="$tmp/results/e2e-sweep/sweep-state.json"
[ -s "$state" ] || fail "no sweep-state.json"
ids=$(grep -o '"commit": "[0-9a-f]*"' "$state" | cut -d'"' -f4 | tr '\n' ' ')
[ "$ids" = "$base $c3 $broken $c9 $tip " ] ||
	fail "sweep-state.json lists '$ids', not v6.1, c3, c6, c9, c12 oldest first"
derived="$tmp/results/e2e-sweep-bisect-${c3:0:12}-${c9:0:12}"
grep -q "\"id\": \"$culprit\"" "$derived/summary.json" || fail "the derived bisection's summary does not name $culprit"

# --- rerun: the store is the cache
before=$(boot_docs)
start=$(date +%s)
rc=0
sweep "$tmp/job.json" --range v6.1..iobisect-demo-large --every 3 \
	--results "$tmp/results" >"$tmp/warm.out" 2>"$tmp/warm.err" || rc=$?
after=$(boot_docs)
echo "rerun: exit $rc in $(( $(date +%s) - start ))s, $after boot documents"
[ $rc -eq 1 ] || { tail -30 "$tmp/warm.err" >&2; fail "the rerun exited $rc"; }
grep -q "^measured 0 new boots" "$tmp/warm.out" || { cat "$tmp/warm.out"; fail "the rerun measured new boots"; }
[ "$before" -eq "$after" ] || fail "the rerun added boot documents ($before -> $after)"
grep -q "^regression ${c3:0:12}\.\.${c9:0:12}: culprit $culprit " "$tmp/warm.out" ||
	fail "the rerun does not name the culprit $culprit"

# --- improvements: past the slowdown, iobisect-demo-faster's f14 puts the
# readahead window back. With --bisect-improvements the sweep bisects that
# rise too, as a job with "direction": "faster", and names f14. The
# commits already measured above are read from the store.
faster=$(demo_field culprit iobisect-demo-faster)
[ -n "$faster" ] || fail "demo-series printed no faster culprit"
rc=0
sweep "$tmp/job.json" --range v6.1..iobisect-demo-faster --every 3 --bisect-improvements \
	--results "$tmp/results" >"$tmp/faster.out" 2>"$tmp/faster.err" || rc=$?
echo "improvements: exit $rc"
cat "$tmp/faster.out"
[ $rc -eq 1 ] || { tail -30 "$tmp/faster.err" >&2; fail "the sweep with the fix exited $rc, not 1"; }
grep -q "^regression .*: culprit $culprit " "$tmp/faster.out" ||
	fail "the sweep with the fix lost the regression's culprit $culprit"
grep -q "^improvement .*: culprit $faster " "$tmp/faster.out" ||
	fail "the improvement was not bisected to $faster"
grep -lq '"direction": "faster"' "$tmp"/results/e2e-sweep/e2e-sweep-bisect-*.json ||
	fail "no derived job looks for a rise"

# --- bad input: one line naming the range, exit 128
rc=0
sweep "$tmp/job.json" --range v6.1..no-such-branch --results "$tmp/results" 2>"$tmp/bad.err" >/dev/null || rc=$?
[ $rc -eq 128 ] || fail "a bad range exited $rc, not 128"
[ "$(wc -l <"$tmp/bad.err")" -eq 1 ] && grep -q "bad range 'v6.1..no-such-branch'" "$tmp/bad.err" ||
	{ cat "$tmp/bad.err"; fail "a bad range is not one line naming it"; }
echo "45-sweep: ok (culprit $culprit, improvement $faster)"
