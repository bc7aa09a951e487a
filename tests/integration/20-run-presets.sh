#!/usr/bin/env bash
# 20-run-presets: `iobisect run` boots the real 6.1 kernel on every preset
# (virtio, nvme, the guest's null_blk, raid0-4, raid5-4, loop, dm-linear,
# and passthrough of a host loop device, left read-only as by default) and
# checks what the guest read back from the kernel: md level, chunk and
# members, the readahead it set, data verified (or, on the read-only disk,
# read as it is), and MB/s inside the range the preset allows. The null-co
# presets (and nullb, on the guest's timers) add 200 us to every request,
# so an O_DIRECT reader with one request in flight cannot beat bs/200us: a
# figure above that means the latency was not applied.
# One boot of 2 samples per preset, plus a throttled SCSI disk, then one
# boot comparing virtio disks with and without a max_sectors_kb cap (the
# guest sets it: QEMU 7.2's virtio-blk has no knob), then one boot with a
# loop device over a file made on a fresh ext4: about a minute under TCG.
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
# passed through read-only (the default): the guest must read it as it is,
# with no pattern written first, and the data must be unchanged after.
truncate -s 128M "$work/host.img"
dd if=/dev/urandom of="$work/host.img" bs=1M count=16 conv=notrunc status=none
host_sum=$(md5sum <"$work/host.img")
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
	"nullb|rawread,target=d0,bs_kb=128,size_mb=64,direct=1|20|700|"
	"raid0-4|rawread,target=md0,bs_kb=256,size_mb=64,direct=1|20|1400|"
	"raid5-4|seqwrite,target=md0,bs_kb=1024,size_mb=32|5|3000|"
	"loop|rawread,target=l0,bs_kb=128,size_mb=64,ra_kb=512|20|5000|512"
	"dm-linear|rawread,target=lin,bs_kb=128,size_mb=64,ra_kb=256|20|5000|256"
	# A throttle group of 20 MB/s on an image disk on virtio-scsi: the
	# guest must see the cap (QEMU allows a short burst above it). It is
	# timed by the wall clock (a rate in host time), where a loaded host
	# leaves the guest short of the cap: one sample of 10.4 MB/s beside
	# another run at load 8, so the floor only says it moved at all.
	"virtio,d0.bus=scsi,d0.backing=image,d0.size_mb=64,d0.latency_ns=0,d0.bps_max=20000000|rawread,target=d0,bs_kb=128,size_mb=16,direct=1|5|25|"
	"passthrough,path=$passthrough_path|rawread,target=d0,bs_kb=128,size_mb=64,ra_kb=1024|20|5000|1024"
)

i=0
for c in "${cases[@]}"; do
	i=$((i + 1))
	IFS='|' read -r topo workload lo hi ra <<<"$c"
	preset=${topo%%,*}
	echo "--- $preset: $workload"
	if ! out=$(iob run --kernel "$kernel" --topology "$topo" \
		--workload "$workload" --boots 1 --samples 2 --warmup 1 \
		--timeout 120 --results "$work/results$i" 2>&1); then
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
	nullb)
		jq -e '.topology_read_back[0].dev == "nullb0"' "$boot" >/dev/null ||
			fail "nullb: disk is $(jq -r '.topology_read_back[0].dev' "$boot")"
		;;
	nvme)
		jq -e '.topology_read_back[0].dev | startswith("nvme")' "$boot" >/dev/null ||
			fail "nvme: disk is $(jq -r '.topology_read_back[0].dev' "$boot")"
		;;
	passthrough)
		jq -e '.topology_read_back[0].ro == true' "$boot" >/dev/null ||
			fail "passthrough: disk not read back read-only: $(jq -c '.topology_read_back[0]' "$boot")"
		grep -q 'read-only: not checked' "$dir/boot-1.console.log" ||
			fail "passthrough: the guest did not read the disk as it is"
		[ "$(md5sum <"$work/host.img")" = "$host_sum" ] ||
			fail "passthrough: the read-only disk was written"
		;;
	esac
	if [ -n "$ra" ]; then
		got=$(jq -r '.points[0].ra_kb' "$boot")
		[ "$got" = "$ra" ] || fail "$preset: readahead read back $got KB, want $ra"
	fi
done

# max_sectors_kb: three image-backed virtio disks in one boot, uncapped,
# capped at 4 KiB and at 64 KiB. A 128 KiB O_DIRECT read becomes 32
# requests at 4 KiB. Without limits the cost of that is guest and QEMU CPU
# per request (measured here: ~550 MB/s uncapped, ~210-440 at 4 KiB, ~450
# at 64 KiB, swinging with the host's load), too noisy to assert on a
# shared machine; so the disks also get a limit of 2000 requests/s, as a
# disk has, and the capped one must then be far slower. The cap must read
# back from sysfs as set.
echo "--- virtio max_sectors_kb 4 and 64 vs default"
cat >"$work/msk.json" <<'EOF'
{
  "name": "msk",
  "topology": {"name": "virtio-msk", "disks": [
    {"name": "d0", "bus": "virtio", "backing": "image", "size_mb": 96, "iops_max": 2000},
    {"name": "d1", "bus": "virtio", "backing": "image", "size_mb": 96, "max_sectors_kb": 4, "iops_max": 2000},
    {"name": "d2", "bus": "virtio", "backing": "image", "size_mb": 96, "max_sectors_kb": 64, "iops_max": 2000}
  ]},
  "workload": {"engine": "rawread", "target": ["d0", "d1", "d2"],
               "bs_kb": 128, "size_mb": 16, "direct": 1}
}
EOF
if ! out=$(iob run "$work/msk.json" --kernel "$kernel" --boots 1 --samples 3 \
	--warmup 1 --timeout 180 --results "$work/msk" 2>&1); then
	printf '%s\n' "$out"
	fail "max_sectors_kb: iobisect run failed"
fi
printf '%s\n' "$out" | grep -E '^virtio-msk' || true
dir=$(ls -d "$work"/msk/msk/*/virtio-msk-rawread | head -1)
boot=$dir/boot-1.json
[ "$(jq -r .outcome "$boot")" = ok ] || fail "max_sectors_kb: outcome $(jq -r .outcome "$boot")"
msk() { jq -r --arg d "$1" '.topology_read_back[] | select(.name == $d) | .max_sectors_kb' "$boot"; }
[ "$(msk d1)" = 4 ] || fail "max_sectors_kb: d1 reads back $(msk d1), want 4"
[ "$(msk d2)" = 64 ] || fail "max_sectors_kb: d2 reads back $(msk d2), want 64"
[ "$(msk d0)" -gt 128 ] || fail "max_sectors_kb: the uncapped d0 reads back $(msk d0)"
median() {
	jq -s 'map(.read.bw_bytes) | sort | .[length / 2 | floor] / 1000000 | floor' \
		"$dir/target=$1"/boot-1-sample-*.json
}
base=$(median d0) cap4=$(median d1) cap64=$(median d2)
echo "max_sectors_kb: default $base MB/s, 64 KiB $cap64 MB/s, 4 KiB $cap4 MB/s"
# 32 times the requests cannot keep up: on a quiet host less than half
# (2000 requests/s); a host busy enough to make both sides CPU-bound
# still shows a quarter less.
[ $((cap4 * 4)) -le $((base * 3)) ] ||
	fail "max_sectors_kb=4 gives $cap4 MB/s against $base MB/s uncapped: not clearly slower"

# A loop device over a file the guest makes on a fresh file system: the
# loop layer's size_mb says how big (workloads/PROTOCOL.md), a key the job
# file refused before the host and the guest read one key list.
echo "--- loop over a new file on ext4"
cat >"$work/loopfile.json" <<'EOF'
{
  "name": "loopfile",
  "topology": {"name": "loop-file", "disks": [
    {"name": "d0", "bus": "virtio", "backing": "image", "size_mb": 128}],
    "layers": [
      {"kind": "fs", "name": "f", "on": "d0", "type": "ext4"},
      {"kind": "loop", "name": "l0", "on": "file:/mnt/loop.img", "size_mb": 48}]},
  "workload": {"engine": "rawread", "target": "l0", "bs_kb": 128, "size_mb": 32}
}
EOF
if ! out=$(iob run "$work/loopfile.json" --kernel "$kernel" --boots 1 --samples 2 \
	--warmup 1 --timeout 180 --results "$work/loopfile" 2>&1); then
	printf '%s\n' "$out"
	fail "loop over a file: iobisect run failed"
fi
boot=$(ls "$work"/loopfile/loopfile/*/loop-file-rawread/boot-1.json | head -1)
[ "$(jq -r .outcome "$boot")" = ok ] || fail "loop over a file: outcome $(jq -r .outcome "$boot")"
size=$(jq -r '.topology_read_back[] | select(.kind == "loop") | .size_bytes' "$boot")
[ "$size" = $((48 << 20)) ] || fail "loop over a file: the loop device has $size bytes, want $((48 << 20))"
for s in "$(dirname "$boot")"/default/boot-1-sample-*.json; do
	jq -e '.read.verified == true' "$s" >/dev/null || fail "loop over a file: $s not verified"
done
echo "loop over a file: $size bytes, samples verified"

# Nothing of ours left running.
if pgrep -f "qemu-system.*$work/results" >/dev/null; then
	fail "a QEMU of this test is still running"
fi
echo "20-run-presets: all presets ok"
