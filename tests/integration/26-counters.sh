#!/usr/bin/env bash
# The block layer's counters on a real kernel: the fixture's v6.1 image run
# twice on one virtio null-co disk (200 us a request), once with the disk's
# max_sectors_kb at 4 and once at its default, 1 MiB O_DIRECT reads.
# `iobisect compare` of the two runs must put that disk's average read
# request at the top of its counters, from what the guest measured (the
# stored samples must say 4 KiB capped and far more uncapped), and reading
# the counters must cost less than 1% of a sample's wall time (the median
# sample's).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

kernel=$(fixture_kernel) || fail "no fixture kernel"
tmp=$(mktemp -d /tmp/iobisect-26.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

job() { # LABEL SIZE_MB [max_sectors_kb]
	local cap=${3:+, \"max_sectors_kb\": $3}
	cat >"$tmp/$1.json" <<EOF
{
  "name": "counters",
  "topology": {"name": "virtio-cap", "disks": [
    {"name": "d0", "bus": "virtio", "backing": "null", "size_mb": 256, "latency_ns": 200000$cap}]},
  "workload": {"engine": "rawread", "target": "d0", "bs_kb": 1024, "size_mb": $2, "direct": 1},
  "machine": {"cpus": 1, "memory_mb": 256}
}
EOF
}
# Capped, a sample is 4 KiB requests: 32 MiB of them take as long as the
# uncapped 128 MiB, which keeps a sample long beside the counters' reading.
job default 128
job cap4k 32 4
# Under TCG, now and then the capped guest stops for good just after the
# kernel switches its clocksource to the TSC (QEMU idle, no error: 4 boots
# in 16 here, each right after "Switched to clocksource tsc"; none in 12
# with clocksource=hpet, which never switches). That is not what this test
# is about: a boot that times out is booted once more, and said so.
for label in default cap4k; do
	for try in 1 2; do
		rm -rf "$tmp/res/counters/$label"
		if out=$(iob run "$tmp/$label.json" --kernel "$kernel" --label "$label" \
			--boots 1 --samples 3 --warmup 1 --timeout 120 --results "$tmp/res" 2>&1); then
			break
		fi
		printf '%s\n' "$out"
		[ $try = 1 ] && grep -q ': timeout (' <<<"$out" || fail "$label: iobisect run failed"
		echo "$label: the guest hung (above); booting it once more"
	done
done

# What the guest measured, sample by sample.
samples() { ls "$tmp"/res/counters/"$1"/virtio-cap-rawread/default/boot-1-sample-*.json; }
avg_req() { # LABEL: the median of the samples' average read request, bytes
	jq -s 'map(.read.block_v1.devices[] | select(.dev == "vda") | .derived.avg_read_request_bytes) | sort | .[length / 2 | floor]' $(samples "$1")
}
base=$(avg_req default) cap=$(avg_req cap4k)
echo "measured: average read request $base bytes at the default limit, $cap bytes at max_sectors_kb=4"
[ "$(jq -n "$cap == 4096")" = true ] || fail "capped at 4 KiB, the disk's requests averaged $cap bytes"
[ "$(jq -n "$base >= 32 * 4096")" = true ] || fail "uncapped, the disk's requests averaged only $base bytes"

iob compare default cap4k --results "$tmp/res" >"$tmp/compare.out"
cat "$tmp/compare.out"
first=$(awk '/device: block-layer counter/ { getline; print; exit }' "$tmp/compare.out")
[[ $first == *"vda: avg read request" ]] || fail "the top counter is not vda's average read request: '$first'"
[[ $first == *" -9"[0-9].[0-9]"% "* ]] || fail "vda's average read request did not fall by 90% or more: '$first'"
grep -qE 'KiB  vda: max_sectors_kb$' "$tmp/compare.out" || fail "the max_sectors_kb setting is not shown"

# What the counters cost: two readings of every device per sample, against
# the sample's wall time (from the first reading to the end of the second).
# Judged on the median sample: the readings are timed by the guest's clock,
# which a loaded TCG host stretches now and then (one reading of 1067 us
# among others of 146-300 us put one sample at 1.27%), and the cost is
# what a sample pays as a rule, not in the host's worst moment.
share='map(.read.block_v1 | 2 * .read_ns / (.interval_ns + 2 * .read_ns) * 100)'
cost=$(jq -s "$share | sort | .[length / 2 | floor]" $(samples default) $(samples cap4k))
worst=$(jq -s "$share | max" $(samples default) $(samples cap4k))
reads=$(jq -rs 'map(.read.block_v1.read_ns / 1000) | [min, max] | map(floor) | join("-")' $(samples default) $(samples cap4k))
echo "counters: one reading ${reads} us; ${cost}% of a sample's wall time (median sample), at most ${worst}%"
[ "$(jq -n "$cost < 1")" = true ] || fail "the counters cost $cost% of the median sample's wall time"
echo "26-counters: ok"
