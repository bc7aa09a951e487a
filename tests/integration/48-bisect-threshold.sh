#!/usr/bin/env bash
# The job a new user writes, not the demo's: "threshold": "25%" and the
# default machine (no machine.cpus), on the demo's large branch (at half
# the demo's bytes per boot, as other tests). An answer given must be the
# culprit, whatever the machine's speed does during the run: exit 0
# naming it, or exit 1 with no culprit named; never another commit (before
# the confirmation on pairs, 4 runs in 5 named an unchanged commit at
# "95%" with this job). The same through `git bisect run`, ten times over,
# is bench/bisect-repeat.sh.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

demo_ids
tmp=$(mktemp -d /tmp/iobisect-48.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
demo_job e2e-threshold "$tmp/demo.json"
sed -e 's|"threshold": "auto"|"threshold": "25%"|' \
    -e 's|"cpus": 1, ||' \
    "$tmp/demo.json" >"$tmp/job.json"
grep -q '"threshold": "25%"' "$tmp/job.json" && ! grep -q '"cpus"' "$tmp/job.json" ||
	fail "tests/jobs/demo.json changed shape"

# --- iobisect bisect
timed_bisect "$tmp/job.json" "$tmp/bisect"
grep -E "against its parent|contradict" "$tmp/bisect.err" || true
case $rc in
0) [ "$named" = "$large" ] || fail "named $named, not the culprit $large" ;;
1) grep -q "^confidence" "$tmp/bisect.out" && [ -n "$named" ] && [ "$named" != "$large" ] &&
	fail "inconclusive, but its likeliest commit $named is not the culprit"
   echo "bisect: no answer (exit 1): $(grep -ho 'the pairs [^;]*\|[0-9]* confirmations [^;]*\|likeliest [^;]*\|pairs lean [^;]*' "$tmp/bisect.out" "$tmp/bisect.err" | head -1)" ;;
*) tail -20 "$tmp/bisect.err" >&2; fail "bisect exited $rc" ;;
esac
# The answer stands on pairs of the culprit and its parent.
[ $rc -ne 0 ] || grep -q "pairs: parent" "$tmp/bisect.err" || fail "no pairs confirmed the answer"
boots=$(grep -o '"boots": [0-9]*' "$tmp/results/e2e-threshold/summary.json" 2>/dev/null | head -1 | grep -o '[0-9]*$' || echo "?")
echo "bisect: $boots boots"

echo "48-bisect-threshold: ok"
