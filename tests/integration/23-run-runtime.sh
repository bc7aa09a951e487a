#!/usr/bin/env bash
# 23-run-runtime: samples bounded by time (runtime_ms) on the real 6.1
# kernel. Each case asks for far more bytes than the deadline leaves time
# for, so every stored sample must have stopped near its deadline
# (runtime_ns from the deadline to a quarter of it plus 250 ms later), with
# io_bytes below the size, bw_bytes equal to io_bytes per runtime_ns, and
# its data verified:
#  - the demo job (it has good and bad, so the loader gives it runtime_ms
#    1500) with 1000 MiB of 4 KiB buffered reads instead of 128 MiB;
#  - buffered seqread of md RAID0 with one and with three threads sharing
#    one deadline;
#  - O_DIRECT seqwrite, two threads, on a disk throttled to 50 MB/s, which
#    the guest spot-checks after the deadline.
# Three boots: about a minute under TCG.
#
# IOBISECT_KERNEL=path/to/bzImage skips the fixture build.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

kernel=${IOBISECT_KERNEL:-}
[ -n "$kernel" ] || kernel=$(fixture_kernel) || fail "no kernel"
[ -r "$kernel" ] || fail "kernel '$kernel' is not readable"

work=$(mktemp -d /tmp/iob-23.XXXXXX)
trap 'rm -rf "$work"' EXIT

# check_samples NAME DIR METRIC DEADLINE_MS SIZE_MB NPOINTS: every stored
# sample under DIR (one folder per point) stopped at the deadline.
check_samples() {
	local name=$1 dir=$2 metric=$3 ms=$4 size=$5 want=$6 n=0 s rt io lo hi
	lo=$((ms * 1000000))
	hi=$(((ms + ms / 4 + 250) * 1000000))
	[ "$(jq -r .outcome "$dir/boot-1.json")" = ok ] ||
		fail "$name: outcome $(jq -r .outcome "$dir/boot-1.json")"
	for s in "$dir"/*/boot-1-sample-*.json; do
		[ -f "$s" ] || fail "$name: no sample stored under $dir"
		jq -e --arg m "$metric" '.[$m].verified == true' "$s" >/dev/null ||
			fail "$name: $s not verified"
		jq -e --arg ms "$ms" '.point_keys.runtime_ms == $ms' "$s" >/dev/null ||
			fail "$name: $s has point_keys $(jq -c .point_keys "$s"), want runtime_ms $ms"
		rt=$(jq -r --arg m "$metric" '.[$m].runtime_ns' "$s")
		io=$(jq -r --arg m "$metric" '.[$m].io_bytes' "$s")
		echo "$name: $(basename "$(dirname "$s")") $(basename "$s"): $((io >> 20)) MiB in $((rt / 1000000)) ms"
		[ "$rt" -ge "$lo" ] && [ "$rt" -le "$hi" ] ||
			fail "$name: $s ran $((rt / 1000000)) ms, not near the $ms ms deadline"
		[ "$io" -gt 0 ] && [ "$io" -lt $((size << 20)) ] ||
			fail "$name: $s moved $io bytes, want some and less than $size MiB"
		jq -e --arg m "$metric" \
			'(.[$m].io_bytes * 1e9 / .[$m].runtime_ns - .[$m].bw_bytes) | fabs < 2' \
			"$s" >/dev/null || fail "$name: $s: bw_bytes is not io_bytes/runtime"
		n=$((n + 1))
	done
	[ "$n" -eq "$want" ] || fail "$name: $n samples stored, want $want"
}

# iob_run NAME ARGS...: iobisect run, its output kept for a failure.
iob_run() {
	local name=$1 out
	shift
	if ! out=$(iob run --kernel "$kernel" --boots 1 --timeout 180 "$@" 2>&1); then
		printf '%s\n' "$out"
		fail "$name: iobisect run failed"
	fi
}

echo "--- the demo job: the bisection default, 1000 MiB of 4 KiB reads"
iob_run demo "$IOB_ROOT/tests/jobs/demo.json" --set workload.size_mb=1000 \
	--samples 2 --warmup 1 --results "$work/demo"
check_samples demo "$(ls -d "$work"/demo/demo/*/virtio-rawread | head -1)" \
	read 1500 1000 2

echo "--- seqread of RAID0, 1 and 3 threads, buffered"
iob_run raid0 --topology raid0-4 --results "$work/raid0" --samples 2 --warmup 1 \
	--workload 'seqread,target=md0,threads=[1,3],bs_kb=4,size_mb=4000,direct=0,runtime_ms=600'
check_samples raid0 "$(ls -d "$work"/raid0/run/*/raid0-4-seqread | head -1)" \
	read 600 4000 4

echo "--- seqwrite, 2 threads, O_DIRECT, 50 MB/s"
iob_run write --results "$work/write" --samples 2 --warmup 0 \
	--topology 'virtio,d0.backing=image,d0.latency_ns=0,d0.bps_max=50000000' \
	--workload 'seqwrite,target=d0,threads=2,bs_kb=64,size_mb=900,direct=1,runtime_ms=500'
check_samples write "$(ls -d "$work"/write/run/*/virtio-seqwrite | head -1)" \
	write 500 900 2

if pgrep -f "qemu-system.*$work" >/dev/null; then
	fail "a QEMU of this test is still running"
fi
echo "23-run-runtime: every sample stopped at its deadline"
