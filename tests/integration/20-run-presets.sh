#!/usr/bin/env bash
# 20-run-presets: `iobisect run` boots the real 6.1 kernel on every preset
# (virtio, nvme, raid0-4, raid5-4, loop, dm-linear, and passthrough of a
# host loop device) and checks what the guest read back from the kernel:
# md level, chunk and members, the readahead it set, data verified, and
# MB/s inside the range the preset allows. The null-co presets add 200 us
# to every request, so an O_DIRECT reader with one request in flight cannot
# beat bs/200us: a figure above that means the latency was not applied.
# One boot of 2 samples per preset, plus a throttled SCSI disk: about 30 s
# under TCG.
#
# IOBISECT_KERNEL=path/to/bzImage skips the fixture build.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

kernel=${IOBISECT_KERNEL:-}
[ -n "$kernel" ] || kernel=$(fixture_kernel) || fail "no kernel"
[ -r "$kernel" ] || fail "kernel '$kernel' is not readable"

work=$(mktemp -d /tmp/iob-20.XXXXXX)
loopdev=
cleanup() {
	[ -n "$loopdev" ] && losetup -d "$loopdev" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT

# The passthrough disk: a host file with real data behind a loop device,
# writable (rawread writes its pattern before reading it back).
truncate -s 128M "$work/host.img"
if loopdev=$(losetup -f --show "$work/host.img" 2>/dev/null); then
	passthrough_path=$loopdev
else
	loopdev=
	passthrough_path=$work/host.img
	echo "note: no loop device on this host; passing the file itself"
fi

# preset (with overrides) | workload | min MB/s | max MB/s | ra_kb wanted
cases=(
	"virtio|rawread,target=d0,bs_kb=128,size_mb=64,direct=1|20|700|"
	"nvme|rawread,target=d0,bs_kb=128,size_mb=64,direct=1|20|700|"
	"raid0-4|rawread,target=md0,bs_kb=256,size_mb=64,direct=1|20|1400|"
	"raid5-4|seqwrite,target=md0,bs_kb=1024,size_mb=32|5|3000|"
	"loop|rawread,target=l0,bs_kb=128,size_mb=64,ra_kb=512|20|5000|512"
	"dm-linear|rawread,target=lin,bs_kb=128,size_mb=64,ra_kb=256|20|5000|256"
	# A throttle group of 20 MB/s on an image disk on virtio-scsi: the
	# guest must see the cap (QEMU allows a short burst above it).
	"virtio,d0.bus=scsi,d0.backing=image,d0.size_mb=64,d0.latency_ns=0,d0.bps_max=20000000|rawread,target=d0,bs_kb=128,size_mb=16,direct=1|15|25|"
	"passthrough,path=$passthrough_path,d0.readonly=false|rawread,target=d0,bs_kb=128,size_mb=64,ra_kb=1024|20|5000|1024"
)

i=0
for c in "${cases[@]}"; do
	i=$((i + 1))
	IFS='|' read -r topo workload lo hi ra <<<"$c"
	preset=${topo%%,*}
	echo "--- $preset: $workload"
	extra=()
	# Writing a passed-through disk needs the device named again.
	[ "$preset" = passthrough ] && extra=(--destroy-data-on "$passthrough_path")
	if ! out=$(iob run --kernel "$kernel" --topology "$topo" \
		--workload "$workload" --boots 1 --samples 2 --warmup 1 \
		--timeout 120 --results "$work/results$i" "${extra[@]}" 2>&1); then
		printf '%s\n' "$out"
		fail "$preset: iobisect run failed"
	fi
	printf '%s\n' "$out" | grep -E '^(boot|topology|[a-z0-9-]+ +default)' || true
	dir=$(ls -d "$work"/results$i/run/*/"$preset"-* | head -1)
	boot=$dir/boot-1.json
	[ -f "$boot" ] || fail "$preset: no $boot"
	[ "$(jq -r .outcome "$boot")" = ok ] || fail "$preset: outcome $(jq -r .outcome "$boot")"
	[ "$(jq -r .kernel "$boot")" = "$(jq -r .hello.kernel "$boot")" ] || fail "$preset: kernel"
	jq -e '.kernel | startswith("6.1")' "$boot" >/dev/null || fail "$preset: kernel $(jq -r .kernel "$boot")"

	# Every sample: verified, and its MB/s inside the preset's range.
	metric=$(jq -r 'if .engine == "seqwrite" then "write" else "read" end' "$boot")
	n=0
	for s in "$dir"/default/boot-1-sample-*.json; do
		jq -e ".$metric.verified == true" "$s" >/dev/null || fail "$preset: $s not verified"
		mbps=$(jq -r ".$metric.bw_bytes / 1000000 | floor" "$s")
		[ "$mbps" -ge "$lo" ] && [ "$mbps" -le "$hi" ] ||
			fail "$preset: $mbps MB/s outside [$lo, $hi]"
		n=$((n + 1))
	done
	[ "$n" -eq 2 ] || fail "$preset: $n samples stored, want 2"

	# The topology as the kernel reports it.
	case $preset in
	raid0-4 | raid5-4)
		level=${preset#raid}; level=${level%-4}
		jq -e --argjson l "$level" '.topology_read_back[] | select(.kind == "md") |
			.level == $l and .chunk_kb == 64 and .raid_disks == 4 and
			(.members | length) == 4' "$boot" >/dev/null ||
			fail "$preset: md read back: $(jq -c '.topology_read_back[] | select(.kind == "md")' "$boot")"
		;;
	loop)
		jq -e '[.topology_read_back[] | select(.kind == "loop")] | length == 1' "$boot" >/dev/null ||
			fail "loop: no loop layer read back"
		;;
	dm-linear)
		jq -e '[.topology_read_back[] | select(.kind == "dm")] | length == 1' "$boot" >/dev/null ||
			fail "dm-linear: no dm layer read back"
		jq -e '[.topology_read_back[] | select(.kind == "part")] | length == 1' "$boot" >/dev/null ||
			fail "dm-linear: no partition read back"
		;;
	nvme)
		jq -e '.topology_read_back[0].dev | startswith("nvme")' "$boot" >/dev/null ||
			fail "nvme: disk is $(jq -r '.topology_read_back[0].dev' "$boot")"
		;;
	esac
	if [ -n "$ra" ]; then
		got=$(jq -r '.points[0].ra_kb' "$boot")
		[ "$got" = "$ra" ] || fail "$preset: readahead read back $got KB, want $ra"
	fi
done

# Nothing of ours left running.
if pgrep -f "qemu-system.*$work/results" >/dev/null; then
	fail "a QEMU of this test is still running"
fi
echo "20-run-presets: all presets ok"
