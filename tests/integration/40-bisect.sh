#!/usr/bin/env bash
# End-to-end bisection on the kernel fixture (tests/fixture/demo-series.sh):
#  - the large slowdown: `iobisect bisect` names the commit that shrinks the
#    readahead window; the commit that does not build is skipped (or,
#    when the steps go around it, fails alone as a build); the commit
#    with no effect on I/O is never blamed; the report
#    and summary are written, and --log reads like git bisect log;
#    reverting the culprit on the bad tip brings back most of the drop
#    (the revert check: one build, a few pairs);
#  - with IOBISECT_LONG=1 (bench/long-repeats.sh), the moderate slowdown
#    on the second branch (about -1.3% on the virtual clock): named right,
#    or undecided when the noise of the day hides it; never another commit.
# Results go to a temporary folder; builds use (and warm) the build cache.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

repo=$(fixture_repo)
demo_ids

tmp=$(mktemp -d /tmp/iobisect-40.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
make_job() { # NAME BAD
	sed -e "s|\"~/.cache/iobisect/fixture/linux\"|\"$repo\"|" \
	    -e "s|\"name\": \"demo\"|\"name\": \"$1\"|" \
	    -e "s|\"bad\": \"iobisect-demo-large\"|\"bad\": \"$2\"|" \
	    "$IOB_ROOT/tests/jobs/demo.json" >"$tmp/$1.json"
	answer_only "$tmp/$1.json"
}

# --- large slowdown
make_job e2e-large iobisect-demo-large
# The revert check on (answer_only turned it off): the bad tip with the
# culprit reverted, built once and booted in pairs against the bad tip.
# And the search for other changes, as a user's run has it (the job's
# default, 3).
sed -i -e 's|"revert": false|"revert": true|' -e 's|"changes": 1, ||' "$tmp/e2e-large.json"
[ "$(jq '.runs.revert' "$tmp/e2e-large.json")" = true ] || fail "cannot turn the revert check on"
[ "$(jq '.runs.changes' "$tmp/e2e-large.json")" = null ] || fail "cannot turn the search for other changes on"
start=$(date +%s)
rc=0
iob bisect "$tmp/e2e-large.json" --results "$tmp/results" >"$tmp/large.out" 2>"$tmp/large.err" || rc=$?
echo "large: exit $rc in $(( $(date +%s) - start ))s"
cat "$tmp/large.out"
[ $rc -eq 0 ] || { tail -20 "$tmp/large.err" >&2; fail "bisect of the large slowdown exited $rc"; }
grep -q "commit   $large" "$tmp/large.out" || fail "culprit is not $large"
grep -q "\"id\": \"$large\"" "$tmp/results/e2e-large/summary.json" || fail "summary.json does not name $large"
[ -s "$tmp/results/e2e-large/report.txt" ] || fail "no report.txt"
# The block layer's counters say why: the culprit's disk has a smaller
# readahead window, and reads reach it in smaller requests (measured).
culprit_counters=$(sed -n '/block-layer counters, .* (culprit)/,/^$/p' "$tmp/large.out")
printf '%s\n' "$culprit_counters" | grep -E -- '-[0-9.]+% .* vda: avg read request$' ||
	fail "the culprit's counters do not show a smaller average read request"
printf '%s\n' "$culprit_counters" | grep -E -- '-[0-9.]+% .* vda: read_ahead_kb$' ||
	fail "the culprit's counters do not show the smaller read_ahead_kb"
# Reverting the culprit on the bad tip brings back most of the drop: the
# readahead window is the whole slowdown.
grep -q "reverting ${large:0:12} on the bad tip brings back [0-9]*% of the drop" "$tmp/large.out" ||
	fail "no revert line for $large in the report"
brought=$(jq '.revert.brought_back_pct' "$tmp/results/e2e-large/summary.json")
echo "revert: $(jq -c '.revert | {state, brought_back_pct, brought_back_mbps, pairs, boots, builds, seconds}' "$tmp/results/e2e-large/summary.json")"
awk -v s="$brought" 'BEGIN { exit !(s >= 50) }' || fail "reverting $large brings back only $brought% of the drop"
echo "share: $(jq -c '.share' "$tmp/results/e2e-large/summary.json")"

iob bisect "$tmp/e2e-large.json" --results "$tmp/results" --log >"$tmp/large.log"
# The commit that does not build: skipped when a step asks for it. A step
# is the cheapest commit to build near the middle, so the steps may go
# around it; then it is built alone and must fail as a build, by name.
if grep -q "$broken" "$tmp/large.log"; then
	grep -q "^git bisect skip $broken\$" "$tmp/large.log" || { cat "$tmp/large.log"; fail "the broken commit $broken was not skipped"; }
	grep -q "^#   build-failure" "$tmp/large.log" || fail "the log does not say why $broken was skipped"
	echo "the broken commit: tested and skipped"
else
	rc=0
	iob build --repo "$repo" --commit "$broken" >"$tmp/broken.out" 2>&1 || rc=$?
	[ $rc != 0 ] || fail "the broken commit $broken built"
	grep -q "build of ${broken:0:12} failed" "$tmp/broken.out" || { cat "$tmp/broken.out"; fail "building $broken alone: no build failure named"; }
	echo "the broken commit: not a step; built alone: $(grep -m1 "build of ${broken:0:12} failed" "$tmp/broken.out" | cut -c1-100)"
fi
grep -q "^git bisect bad $noeffect\$" "$tmp/large.log" && fail "the no-effect commit $noeffect was marked slow"
grep -q "^# first bad commit: \[$large\]" "$tmp/large.log" || fail "--log does not end with the culprit"
grep -q "$noeffect" "$tmp/large.out" && grep -q "commit   $noeffect" "$tmp/large.out" && fail "blamed the no-effect commit"

# --upload and --notify on the finished bisection (it resumes instantly):
# every document and the summary reach a real HTTP server on loopback, and
# the webhook names the culprit.
cc -std=c11 -D_GNU_SOURCE -O2 -Wall -Wextra -Werror -o "$tmp/httpd" "$IOB_ROOT/tests/httpd/httpd.c"
mkdir -p "$tmp/srv"
"$tmp/httpd" "$tmp/srv" 0 >"$tmp/port" &
httpd_pid=$!
for _ in $(seq 50); do [ -s "$tmp/port" ] && break; sleep 0.1; done
port=$(cat "$tmp/port")
iob bisect "$tmp/e2e-large.json" --results "$tmp/results" \
	--upload "http://127.0.0.1:$port/ingest" --notify "http://127.0.0.1:$port/hook" >"$tmp/upload.out" 2>&1 ||
	{ cat "$tmp/upload.out"; kill "$httpd_pid"; fail "bisect --upload failed"; }
kill "$httpd_pid"; wait "$httpd_pid" 2>/dev/null || true
grep -q "^upload: [1-9][0-9]* sent" "$tmp/upload.out" || { cat "$tmp/upload.out"; fail "nothing uploaded"; }
grep -q "^notified " "$tmp/upload.out" || fail "no webhook sent"
grep -l "\"culprit\": *\"$large\"" "$tmp"/srv/stored/*.json >/dev/null || fail "the webhook does not name $large"
echo "upload: $(ls "$tmp"/srv/stored | wc -l) documents stored by the server, webhook names the culprit"

# The moderate series only with IOBISECT_LONG=1 (bench/long-repeats.sh):
# near the noise on the virtual clock, it took 330 s of CI's boots to end
# undecided; 52-bisect-upstream's first job holds a noisy answer to the
# same rule (named right, or the culprit among the suspects).
if [ -z "${IOBISECT_LONG:-}" ]; then
	echo "40-bisect: ok (large $large; the moderate series with IOBISECT_LONG=1)"
	exit 0
fi

# --- moderate slowdown (-23% on the wall clock, about -1.3% on the
# virtual one): the statistics, not a cliff. The
# sequential verdicts ask for as many boots as the noise of this machine
# today requires; runs.max is raised so they can have them. Whatever the
# noise, a culprit named must be the right one. Only when the machine is
# so noisy that the endpoints could not be told apart (or the culprit not
# confirmed) within those boots is an undecided end accepted, and said.
make_job e2e-moderate iobisect-demo-moderate
sed -i 's|"runs": {[^}]*}|"runs": {"max": 16, "samples": 3, "warmup": 1, "wall_pairs": 0, "revert": false}|' "$tmp/e2e-moderate.json"
grep -q '"max": 16' "$tmp/e2e-moderate.json" || fail "demo.json changed shape: cannot raise runs.max"
start=$(date +%s)
rc=0
iob bisect "$tmp/e2e-moderate.json" --results "$tmp/results" >"$tmp/moderate.out" 2>"$tmp/moderate.err" || rc=$?
echo "moderate: exit $rc in $(( $(date +%s) - start ))s"
cat "$tmp/moderate.out"
grep -q "commit   $noeffect" "$tmp/moderate.out" && fail "blamed the no-effect commit"
if [ $rc -eq 0 ]; then
	grep -q "commit   $moderate" "$tmp/moderate.out" || fail "culprit is not $moderate"
else
	[ $rc -eq 1 ] || [ $rc -eq 2 ] || { tail -20 "$tmp/moderate.err" >&2; fail "bisect of the moderate slowdown exited $rc"; }
	# Pairs of the culprit and its parent that show no drop re-open the
	# range; when the range does not settle, or the pairs stay short of
	# the confidence, no culprit is named. That is the right answer to
	# give on a machine whose speed moves.
	if grep -q "confirmations contradicted\|show no drop\|likeliest first slow\|pairs lean against it" "$tmp/moderate.out" "$tmp/moderate.err"; then
		echo "moderate: undecided (exit $rc): $(grep -ho '[0-9]* confirmations contradicted[^;]*\|the pairs of [^;]*\|[0-9a-f]* is the likeliest[^;]*\|[0-9a-f]* was the bisection[^;]*' "$tmp/moderate.out" "$tmp/moderate.err" | head -1)"
		named=$(awk '$1 == "commit" { print $2; exit }' "$tmp/moderate.out")
		[ -z "$named" ] || [ "$named" = "$moderate" ] || fail "moderate: its likeliest commit $named is not the culprit"
		echo "40-bisect: ok (large $large; moderate not named)"
		exit 0
	fi
	# A list that holds the culprit: the slow kernel waits on QEMU's
	# device, and on a busy host its level moves for minutes at a time
	# (docs/verdicts.md, steps in doubt), which the good endpoint's
	# spread does not show. Never a list without it.
	if [ $rc -eq 1 ] && grep -q "^  $moderate " "$tmp/moderate.out"; then
		echo "SKIP: moderate: inconclusive, the culprit among $(grep -c '^  [0-9a-f]\{40\} ' "$tmp/moderate.out") suspects"
		echo "40-bisect: ok (large $large; moderate listed)"
		exit 0
	fi
	# The endpoints' per-boot spreads and drop, as the run measured them.
	# On the virtual clock the cut reads far less than the wall clock's
	# -23% (-1.3% here, at 0.2% noise on a quiet host), and a build
	# beside it spreads the slow kernel's boots, which wait on QEMU's
	# device: undecided is then the right end, when the drop is within
	# a few spreads of the noisier endpoint.
	line=$(grep -ho 'good [0-9.]* MB/s ([0-9.]*%, [0-9]* boots), bad [0-9.]* MB/s ([0-9.]*%, [0-9]* boots): [-+][0-9.]*%' "$tmp/moderate.out" "$tmp/moderate.err" | head -1)
	[ -n "$line" ] || { tail -20 "$tmp/moderate.err" >&2; fail "moderate: exit $rc and no measured endpoints to explain it"; }
	read -r gnoise bnoise drop < <(sed 's/good [0-9.]* MB\/s (\([0-9.]*\)%.*bad [0-9.]* MB\/s (\([0-9.]*\)%.*: \([-+][0-9.]*\)%$/\1 \2 \3/' <<<"$line")
	awk -v g="$gnoise" -v b="$bnoise" -v d="$drop" 'BEGIN { n = g > b ? g : b; if (d < 0) d = -d; exit !(d < 3 * n || n >= 8) }' ||
		fail "moderate: exit $rc with the endpoints $drop% apart at only $gnoise% and $bnoise% per-boot noise: it should be decided"
	echo "moderate: undecided (exit $rc): the endpoints $drop% apart at $gnoise% and $bnoise% per-boot noise; more boots than runs.max 16 would be needed; no wrong culprit named"
fi
echo "40-bisect: ok (large $large, moderate $moderate)"
