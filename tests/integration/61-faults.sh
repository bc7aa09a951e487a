#!/usr/bin/env bash
# 61-faults.sh: the faults of a long unattended bisection that the kill and
# resume test (41) and the boot-fault test (21) leave out:
#  - SIGINT, then SIGTERM, of `iobisect bisect` during a boot: exit 130, the
#    state saved (valid, naming what was judged), no QEMU left running; the
#    rerun resumes and names the culprit;
#  - a results folder that fills up (a 2 MB tmpfs as the results root): a
#    clear error naming the file and "No space left", the state file intact
#    (still valid, nothing judged before is lost), no QEMU left;
#  - a corrupt state file: a clear error naming it and its .prev copy, both
#    left exactly as they were;
#  - a guest that hangs (machine.timeout_s too short for the slow commit):
#    `iobisect test` answers skip (125), the console log kept.
# Uses the demo series (tests/fixture/demo-series.sh) with a small workload
# on culprit~1..culprit; its kernels come from the build cache that
# 40-bisect warms.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

repo=$(fixture_repo)
series=$("$IOB_ROOT/tests/fixture/demo-series.sh" 2>/dev/null)
culprit=$(awk '$1 == "culprit" && $2 == "iobisect-demo-large" { print $3 }' <<<"$series")
[ -n "$culprit" ] || fail "demo-series printed no culprit"
# A short range keeps this test to a few minutes: good is the culprit's
# parent (a commit with no effect on I/O), so the endpoints decide it and
# no noisy middle commit can leave it inconclusive. Both are in the cache.
good=$(git -C "$repo" rev-parse "$culprit~1")

tmp=$(mktemp -d /tmp/iob-61.XXXXXX)
pid=
cleanup() {
	set +e
	[ -n "$pid" ] && kill -9 "$pid" 2>/dev/null
	pkill -9 -f "qemu-system.*$tmp" 2>/dev/null
	mountpoint -q "$tmp/full" && umount "$tmp/full"
	rm -rf "$tmp"
}
trap cleanup EXIT

# make_job FILE NAME SIZE_MB TIMEOUT_S [RUNTIME_MS]: the demo job on
# good..culprit, smaller; with RUNTIME_MS instead of the bisection default.
make_job() {
	local runtime=
	[ -z "${5:-}" ] || runtime=", \"runtime_ms\": $5"
	sed -e "s|\"~/.cache/iobisect/fixture/linux\"|\"$repo\"|" \
	    -e "s|\"name\": \"demo\"|\"name\": \"$2\"|" \
	    -e "s|\"good\": \"v6.1\"|\"good\": \"$good\"|" \
	    -e "s|\"bad\": \"iobisect-demo-large\"|\"bad\": \"$culprit\"|" \
	    -e "s|\"size_mb\": 128|\"size_mb\": $3$runtime|" \
	    -e "s|\"timeout_s\": 240|\"timeout_s\": $4|" \
	    -e 's|"runs": {[^}]*}|"runs": {"min": 3, "max": 5, "samples": 2, "warmup": 1, "wall_pairs": 0}|' \
	    "$IOB_ROOT/tests/jobs/demo.json" >"$1"
	grep -q "\"size_mb\": $3" "$1" && grep -q '"max": 5' "$1" ||
		fail "demo.json changed shape: cannot make $1"
	no_profile "$1"
}

no_qemu_left() {
	if pgrep -f "qemu-system.*$tmp" >/dev/null; then
		pgrep -af "qemu-system.*$tmp" >&2
		fail "$1: QEMU left running"
	fi
}

# The state's marks as "commit mark" lines (jq: the state must be JSON).
marks() { jq -r '.marks[] | "\(.commit) \(.mark)"' "$1"; }

tried=0 survived=0
ok() {
	survived=$((survived + 1))
	echo "ok: $*"
}

make_job "$tmp/job.json" faults 64 240
res=$tmp/results
state=$res/faults/bisect-state.json

# signal_during_boot SIGNAL: start the bisection (resuming if a state
# exists), send SIGNAL once QEMU runs, check the clean stop.
signal_during_boot() {
	local sig=$1 rc=0 t=0 n
	tried=$((tried + 1))
	"$IOB_ROOT/iobisect" bisect "$tmp/job.json" --results "$res" \
		>"$tmp/$sig.out" 2>"$tmp/$sig.err" &
	pid=$!
	until pgrep -f "qemu-system.*$tmp" >/dev/null &&
		grep -q "$2" "$tmp/$sig.err"; do
		kill -0 "$pid" 2>/dev/null || { tail "$tmp/$sig.err" >&2; fail "$sig: bisect ended before a boot"; }
		sleep 0.2
		t=$((t + 1))
		[ $t -lt 1500 ] || fail "$sig: no boot within 300 s"
	done
	sleep 1
	kill "-$sig" "$pid"
	wait "$pid" || rc=$?
	pid=
	[ $rc -eq 130 ] || { tail "$tmp/$sig.err" >&2; fail "$sig: exit $rc, not 130"; }
	grep -q "interrupted; state saved in $state" "$tmp/$sig.err" ||
		fail "$sig: no 'state saved' message"
	marks "$state" >"$tmp/$sig.marks" || fail "$sig: the saved state is not valid JSON"
	no_qemu_left "$sig"
	snapshot >"$tmp/$sig.samples"
	n=$(jq '.boots' "$state")
	ok "$sig during a boot: exit 130, state saved ($n boots, $(wc -l <"$tmp/$sig.samples") sample documents), no QEMU left"
}

# The sample documents stored so far, with checksums.
snapshot() {
	(cd "$res" && find . -name 'boot-*-sample-*.json' -print0 | sort -z | xargs -0 -r sha1sum) | sort
}

echo "--- SIGINT and SIGTERM during a boot"
signal_during_boot INT "good: testing"
# The second run resumes; stop it once the bad endpoint is booting.
signal_during_boot TERM "bad: testing"
grep -q "resuming $state" "$tmp/TERM.err" || fail "the run after INT did not resume"
# Nothing the INT run stored was lost or rewritten by the resumed run.
comm -23 "$tmp/INT.samples" "$tmp/TERM.samples" | grep -q . &&
	fail "sample documents of the interrupted run changed or vanished"
[ "$(jq .boots "$state")" -gt 0 ] || fail "no boot counted in the saved state"

echo "--- results folder full"
tried=$((tried + 1))
mkdir -p "$tmp/full"
mount -t tmpfs -o size=2m iob61full "$tmp/full"
cp -a "$res/." "$tmp/full/"
# Leave ~48 KiB: the next boot's console log or sample cannot fit.
avail=$(df -B1 --output=avail "$tmp/full" | tail -1)
fallocate -l $((avail - 48 * 1024)) "$tmp/full/filler" 2>/dev/null ||
	dd if=/dev/zero of="$tmp/full/filler" bs=4096 count=$(((avail - 48 * 1024) / 4096)) status=none 2>/dev/null || true
fstate=$tmp/full/faults/bisect-state.json
marks "$fstate" >"$tmp/full.before"
rc=0
timeout 600 "$IOB_ROOT/iobisect" bisect "$tmp/job.json" --results "$tmp/full" \
	>"$tmp/full.out" 2>"$tmp/full.err" || rc=$?
[ $rc -ne 0 ] || fail "full results folder: bisect succeeded"
[ $rc -ne 124 ] || fail "full results folder: bisect hung"
grep -q "No space left on device" "$tmp/full.err" ||
	{ tail "$tmp/full.err" >&2; fail "full results folder: no 'No space left' error"; }
grep "No space left" "$tmp/full.err" | grep -q "$tmp/full" ||
	fail "full results folder: the error does not name the file"
marks "$fstate" >"$tmp/full.after" || fail "full results folder: state file corrupt"
comm -23 <(sort "$tmp/full.before") <(sort "$tmp/full.after") | grep -q . &&
	fail "full results folder: marks lost from the state"
no_qemu_left "full results folder"
ok "results folder full: exit $rc, '$(grep -m1 "No space left" "$tmp/full.err")', state intact"
umount "$tmp/full"

echo "--- the rerun completes"
tried=$((tried + 1))
rc=0
"$IOB_ROOT/iobisect" bisect "$tmp/job.json" --results "$res" >"$tmp/final.out" 2>"$tmp/final.err" || rc=$?
[ $rc -eq 0 ] || { tail -20 "$tmp/final.err" >&2; fail "resumed bisect exited $rc"; }
grep -q "commit   $culprit" "$tmp/final.out" || { cat "$tmp/final.out" >&2; fail "resumed bisect did not name $culprit"; }
grep -q "resuming $state" "$tmp/final.err" || fail "the rerun did not resume"
comm -23 "$tmp/TERM.samples" <(snapshot) | grep -q . &&
	fail "sample documents stored before SIGTERM changed or vanished"
no_qemu_left "rerun"
ok "rerun after INT, TERM and a full disk: culprit ${culprit:0:12}"

echo "--- corrupt state file"
tried=$((tried + 1))
[ -s "$state.prev" ] || fail "no $state.prev after a finished bisection"
head -c 300 "$state" >"$tmp/corrupt"
cp "$tmp/corrupt" "$state"
sum_state=$(sha256sum <"$state") sum_prev=$(sha256sum <"$state.prev")
rc=0
"$IOB_ROOT/iobisect" bisect "$tmp/job.json" --results "$res" >"$tmp/corrupt.out" 2>"$tmp/corrupt.err" || rc=$?
[ $rc -eq 128 ] || fail "corrupt state: exit $rc, not 128"
grep -q "'$state' is corrupt" "$tmp/corrupt.err" || { cat "$tmp/corrupt.err" >&2; fail "corrupt state: the error does not name the file"; }
grep -q "$state.prev" "$tmp/corrupt.err" || fail "corrupt state: the error does not point at the .prev copy"
[ "$(sha256sum <"$state")" = "$sum_state" ] || fail "corrupt state: the corrupt file was changed"
[ "$(sha256sum <"$state.prev")" = "$sum_prev" ] || fail "corrupt state: the .prev copy was changed"
jq -e .marks "$state.prev" >/dev/null || fail "corrupt state: the .prev copy is not a valid state"
no_qemu_left "corrupt state"
ok "corrupt state: $(head -1 "$tmp/corrupt.err")"

echo "--- a guest that hangs"
tried=$((tried + 1))
# At the culprit, 128 MB of 4 KiB reads need ~5 s a sample (~20 s a boot);
# its parent (good) needs ~1 s. The endpoints are measured first with room
# to finish (HEAD at good: answered from the store at once); then, with a
# 6 s timeout, the culprit's child (slow too, not measured yet) hangs past
# it while the endpoints come from the store (the timeout is not part of
# what is pooled: same build, spec and machine). runtime_ms 0 keeps the
# byte count: bounded by time, the slow boot would fit. 6 s, not more: on
# a quicker host the slow boot's three samples take 12 s or less, and a
# boot that ends in time is no hang.
make_job "$tmp/hang.json" hang 128 240 0
git clone -q --shared --no-checkout "$repo" "$tmp/clone"
git -C "$tmp/clone" checkout -q --detach "$good"
(cd "$tmp/clone" && "$IOB_ROOT/iobisect" test "$tmp/hang.json" --results "$res") \
	>"$tmp/hang0.out" 2>"$tmp/hang0.err" || { tail "$tmp/hang0.err" >&2; fail "hung guest: endpoints not measured"; }
make_job "$tmp/hang.json" hang 128 6 0
# sed, not head: head leaves rev-list a closed pipe (SIGPIPE, and pipefail).
child=$(git -C "$repo" rev-list --reverse --ancestry-path "$culprit..iobisect-demo-large" | sed -n 1p)
[ -n "$child" ] || fail "hung guest: no commit after the culprit"
git -C "$tmp/clone" checkout -q --detach "$child"
rc=0
(cd "$tmp/clone" && "$IOB_ROOT/iobisect" test "$tmp/hang.json" --results "$res") \
	>"$tmp/hang.out" 2>"$tmp/hang.err" || rc=$?
[ $rc -eq 125 ] || { tail "$tmp/hang.err" "$tmp/hang.out" >&2; fail "hung guest: exit $rc, not 125 (skip)"; }
grep -Eqi "timed out|timeout" "$tmp/hang.out" "$tmp/hang.err" || fail "hung guest: no timeout reported"
grep -q "untestable: ${child:0:12}" "$tmp/hang.out" || fail "hung guest: not called untestable"
logs=$(find "$res/hang/${child:0:12}" -name '*console.log' -size +0 2>/dev/null | wc -l)
[ "$logs" -gt 0 ] || fail "hung guest: no console log kept under $res/hang/${child:0:12}"
no_qemu_left "hung guest"
ok "hung guest: skip (125), $logs console log(s) kept: $(grep -m1 untestable "$tmp/hang.out")"

echo "61-faults: $survived of $tried faults survived"
