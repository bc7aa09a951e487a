#!/usr/bin/env bash
# 21-run-faults: the boots that go wrong. A guest that does not finish in
# time is killed at the timeout and reported as a timeout; a kernel that
# panics ("No working init found", made by pointing rdinit at nothing) is
# reported as a panic with the panic line quoted; an interrupted run kills
# its QEMU. In every case no QEMU of the test is left running and the exit
# code is the documented one (1 for a failed boot, 130 interrupted).
#
# IOBISECT_KERNEL=path/to/bzImage skips the fixture build.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

kernel=${IOBISECT_KERNEL:-}
[ -n "$kernel" ] || kernel=$(fixture_kernel) || fail "no kernel"

work=$(mktemp -d /tmp/iob-21.XXXXXX)
trap 'rm -rf "$work"' EXIT

no_qemu_left() {
	# The run folder's path is in every QEMU argv of this test only.
	if pgrep -f "qemu-system.*$work" >/dev/null; then
		pgrep -af "qemu-system.*$work" >&2
		fail "$1: QEMU left running"
	fi
}

# Bad input: exit 128 and one line naming what is wrong, before any boot.
bad_input() {
	local want=$1
	shift
	set +e
	out=$(iob run "$@" 2>&1)
	rc=$?
	set -e
	[ $rc -eq 128 ] || fail "'run $*': exit $rc, want 128: $out"
	grep -q -- "$want" <<<"$out" || fail "'run $*': '$want' not in: $out"
}
echo "--- bad input"
bad_input "/nonexistent/bzImage" --kernel /nonexistent/bzImage --topology virtio --workload rawread
bad_input "nosuch" --kernel "$kernel" --topology nosuch --workload rawread
bad_input "no workload" --kernel "$kernel" --topology virtio
bad_input "--boots" --kernel "$kernel" --topology virtio --workload rawread --boots 0
bad_input "/nonexistent/disk" --kernel "$kernel" --topology passthrough,path=/nonexistent/disk \
	--workload rawread,target=d0 --results "$work/r0"

# A guest too slow for its timeout: 4 KiB O_DIRECT reads of 1000 MB on a
# disk with 200 us per request need ~50 s a sample; the timeout is 8 s.
echo "--- hung guest"
start=$(date +%s)
set +e
out=$(iob run --kernel "$kernel" --topology virtio \
	--workload rawread,target=d0,bs_kb=4,size_mb=1000,direct=1 \
	--boots 1 --samples 3 --timeout 8 --results "$work/r1" 2>&1)
rc=$?
set -e
took=$(($(date +%s) - start))
printf '%s\n' "$out" | grep -E '^boot|timed out' || true
[ $rc -eq 1 ] || { printf '%s\n' "$out"; fail "hung guest: exit $rc, want 1"; }
grep -q 'on virtio: timeout' <<<"$out" || fail "hung guest: not reported as timeout"
[ "$took" -lt 30 ] || fail "hung guest: took ${took}s for an 8 s timeout"
boot=$(ls "$work"/r1/run/*/virtio-rawread/boot-1.json)
[ "$(jq -r .outcome "$boot")" = timeout ] || fail "hung guest: stored outcome $(jq -r .outcome "$boot")"
no_qemu_left "hung guest"

echo "--- panic"
set +e
out=$(iob run --kernel "$kernel" --topology virtio \
	--workload rawread,target=d0,bs_kb=128,size_mb=16 \
	--set machine.append=rdinit=/nonexistent --boots 1 --samples 1 \
	--timeout 60 --results "$work/r2" 2>&1)
rc=$?
set -e
printf '%s\n' "$out" | grep -E '^boot|panic' || true
[ $rc -eq 1 ] || { printf '%s\n' "$out"; fail "panic: exit $rc, want 1"; }
grep -q 'on virtio: panic' <<<"$out" || fail "panic: not reported as panic"
grep -q 'Kernel panic - not syncing' <<<"$out" || fail "panic: panic line not quoted"
boot=$(ls "$work"/r2/run/*/virtio-rawread/boot-1.json)
[ "$(jq -r .outcome "$boot")" = panic ] || fail "panic: stored outcome $(jq -r .outcome "$boot")"
grep -q 'Kernel panic' "$(dirname "$boot")/boot-1.console.log" || fail "panic: console log not kept"
no_qemu_left "panic"

echo "--- panic that halts (panic=0 overrides our panic=-1)"
start=$(date +%s)
set +e
out=$(iob run --kernel "$kernel" --topology virtio \
	--workload rawread,target=d0,bs_kb=128,size_mb=16 \
	--set 'machine.append=rdinit=/nonexistent panic=0' --boots 1 \
	--samples 1 --timeout 60 --results "$work/r4" 2>&1)
rc=$?
set -e
took=$(($(date +%s) - start))
[ $rc -eq 1 ] || { printf '%s\n' "$out"; fail "halted panic: exit $rc, want 1"; }
grep -q 'on virtio: panic' <<<"$out" || fail "halted panic: not reported as panic: $out"
[ "$took" -lt 30 ] || fail "halted panic: took ${took}s, waited for the 60 s timeout"
no_qemu_left "halted panic"

echo "--- interrupt"
# iobisect itself, not the iob function: the signal must reach it.
"$IOB_ROOT/iobisect" run --kernel "$kernel" --topology virtio \
	--workload rawread,target=d0,bs_kb=4,size_mb=1000,direct=1 \
	--boots 1 --samples 3 --timeout 40 --results "$work/r3" >"$work/int.log" 2>&1 &
pid=$!
# Wait for QEMU to be up, then interrupt iobisect as Ctrl-C would.
for _ in $(seq 50); do
	pgrep -f "qemu-system.*$work/r3" >/dev/null && break
	sleep 0.2
done
pgrep -f "qemu-system.*$work/r3" >/dev/null || fail "interrupt: QEMU never started"
sleep 1
kill -INT $pid
set +e
wait $pid
rc=$?
set -e
[ $rc -eq 130 ] || { cat "$work/int.log"; fail "interrupt: exit $rc, want 130"; }
no_qemu_left "interrupt"

echo "21-run-faults: timeout, panic and interrupt ok"
