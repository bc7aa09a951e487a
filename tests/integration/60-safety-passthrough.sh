#!/usr/bin/env bash
# 60-safety-passthrough.sh: the passthrough safety check on real host loop
# devices in each state a user's disk can be in: blank (accepted, held
# exclusively), ext4 (refused: signature), ext4 mounted (refused: mounted),
# a mounted loop's backing file, the root disk, md 0.90 and 1.2 members,
# held by dm, a mounted partition, and writes with and without
# --destroy-data-on. After every refused or read-only use the device's
# sha256 is what it was before: the check never changes a byte.
#
# The check runs through `iobisect run --topology passthrough,path=DEV`
# (accepted disks are really booted, read or written), or with
# IOB_SAFETY_VIA=probe (or before cmd_run has the options) through
# build/tests/safety-probe, made here from tests/safety_probe.c; the
# exclusive hold is always shown with the probe. Cases the
# host kernel cannot set up (no md, dm or partition support: this CI
# machine's kernel has none) print SKIP and are covered by check_safety;
# without root or losetup nothing runs, and the test exits 77 (skipped).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[ "$(id -u)" = 0 ] || { echo "SKIP: needs root for losetup"; exit 77; }
command -v losetup >/dev/null || { echo "SKIP: no losetup"; exit 77; }

tmp=$(mktemp -d /tmp/iob-safety.XXXXXX)
mounts=() dms=() mds=()
cleanup() {
	set +e
	for m in "${mounts[@]}"; do umount "$m" 2>/dev/null; done
	for d in "${dms[@]}"; do dmsetup remove "$d" 2>/dev/null; done
	for d in "${mds[@]}"; do mdadm --stop "$d" >/dev/null 2>&1; done
	# newloop runs in $(...): find our loop devices by their files.
	for f in "$tmp"/*.img; do
		for l in $(losetup -n -O NAME -j "$f" 2>/dev/null); do
			losetup -d "$l"
		done
	done
	rm -rf "$tmp"
}
trap cleanup EXIT

probe=$IOB_ROOT/build/tests/safety-probe
# Built by the Makefile, with the harness's own flags and include folders.
make -s -C "$IOB_ROOT" build/tests/safety-probe >/dev/null ||
	fail "cannot build safety-probe"

# The real CLI when `iobisect run` has the options (it checks and holds
# every host disk before the first boot), else the probe alone.
via=probe
if [ "${IOB_SAFETY_VIA:-cli}" = cli ] && iob run --help 2>&1 | grep -q -- --destroy-data-on; then
	via=cli
	kernel=${IOBISECT_KERNEL:-}
	[ -n "$kernel" ] || kernel=$(fixture_kernel) || fail "no kernel"
fi
echo "checking through the $via"

# check [--write] [--destroy-data-on=DEV] [--force] DEV: the safety check
# of DEV as a passed-through disk. The probe prints "accepted DEV MODE";
# through the CLI an accepted disk is booted (read, or written with
# --write) and the same line is printed after the run.
check() {
	[ $via = cli ] || { "$probe" "$@"; return; }
	local a topo=passthrough work="rawread,target=d0,bs_kb=128,size_mb=8" mode=read-only
	local args=()
	for a in "$@"; do
		case $a in
		--write) mode=read-write work="seqwrite,target=d0,size_mb=8" ;;
		--destroy-data-on=*) args+=(--destroy-data-on "${a#*=}") ;;
		--force) args+=(--force) ;;
		-*) fail "check: unknown option $a" ;;
		*) dev=$a ;;
		esac
	done
	topo="passthrough,path=$dev"
	[ $mode = read-only ] || topo="$topo,d0={\"readonly\":false}"
	iob run --kernel "$kernel" --topology "$topo" --workload "$work" \
		--boots 1 --samples 1 --warmup 0 --results "$tmp/results" "${args[@]}" >"$tmp/run.out" 2>&1 ||
		{ cat "$tmp/run.out"; return 1; }
	grep -q "^passthrough" "$tmp/run.out" || { cat "$tmp/run.out"; return 1; }
	echo "accepted $(readlink -f "$dev") $mode"
}

newloop() { # newloop NAME SIZE_MB [losetup args]: a loop device on a new file
	local f=$tmp/$1.img dev
	truncate -s "$2M" "$f"
	shift 2
	losetup -f --show "$@" "$f"
}

sum() { sha256sum "$1" | cut -d' ' -f1; }

tried=0 refused=0
# refused DEV REGEX [ARGS...]: the check refuses DEV with a message that
# matches REGEX and names DEV, and DEV's bytes do not change (not hashed
# when NOHASH=1: the root disk is too big and not ours to read).
refused() {
	local dev=$1 re=$2 before=x after=x out rc=0
	shift 2
	[ "${NOHASH:-0}" = 1 ] || before=$(sum "$dev")
	out=$(check "$@" "$dev" 2>&1) || rc=$?
	[ "${NOHASH:-0}" = 1 ] || after=$(sum "$dev")
	tried=$((tried + 1))
	[ "$rc" -ne 0 ] || fail "$dev was accepted ($*): $out"
	grep -Eq -- "$re" <<<"$out" || fail "$dev: expected /$re/, got: $out"
	grep -Fq -- "$(readlink -f "$dev")" <<<"$out" || fail "$dev: message does not name the device: $out"
	[ "$before" = "$after" ] || fail "$dev changed while being refused"
	refused=$((refused + 1))
	echo "ok: refused $dev: ${out#error: }"
}

# accepted DEV MODE [ARGS...]: accepted as MODE (read-only, read-write).
accepted() {
	local dev=$1 mode=$2 before after out
	shift 2
	before=$(sum "$dev")
	out=$(check "$@" "$dev" 2>&1) || fail "$dev refused ($*): $out"
	after=$(sum "$dev")
	tried=$((tried + 1))
	grep -q "accepted $(readlink -f "$dev") $mode" <<<"$out" || fail "$dev: expected $mode, got: $out"
	[ "$mode" = read-write ] || [ "$before" = "$after" ] || fail "$dev changed in a read-only check"
	echo "ok: accepted $dev $mode"
}

# 1. Blank: accepted read-only, and held exclusively while in use.
blank=$(newloop blank 64) || { echo "SKIP: losetup cannot attach a loop device"; exit 77; }
accepted "$blank" read-only
"$probe" --hold-seconds=4 "$blank" >"$tmp/hold.out" &
holder=$!
for _ in $(seq 50); do [ -s "$tmp/hold.out" ] && break; sleep 0.1; done
refused "$blank" "busy .*exclusive open failed"
# The hold keeps the kernel's own users out too: no mount while we hold it.
mkdir -p "$tmp/m0"
if mount -o ro "$blank" "$tmp/m0" 2>/dev/null; then
	mounts+=("$tmp/m0")
	fail "$blank could be mounted while held"
fi
wait "$holder"

# 2. Writes: refused without --destroy-data-on naming this device.
out=$(check --write "$blank" 2>&1) && fail "write accepted without confirmation: $out"
grep -Fq "refusing to write to $blank: pass --destroy-data-on=$blank to allow it" <<<"$out" ||
	fail "unexpected write refusal: $out"
refused "$blank" "refusing to write" --write --destroy-data-on="$tmp/blank.img"
refused "$blank" "refusing to write" --write --force
accepted "$blank" read-write --write --destroy-data-on="$blank"
ln -s "$blank" "$tmp/by-link"
accepted "$blank" read-write --write --destroy-data-on="$tmp/by-link"

# 3. ext4: refused by signature, --force passes it (read-only).
ext=$(newloop ext 64)
mkfs.ext4 -q -F "$ext"
refused "$ext" "signature: ext2/3/4 file system at byte 1080"
accepted "$ext" read-only --force

# 4. ext4 mounted: refused (mounted), and --force does not override that.
mkdir -p "$tmp/m1"
mount -o ro "$ext" "$tmp/m1"
mounts+=("$tmp/m1")
refused "$ext" "it is mounted \\($ext on $tmp/m1\\)"
refused "$ext" "it is mounted" --force
# The image file behind a mounted loop device is in use by it.
refused "$tmp/ext.img" "in use by $(basename "$ext") \\(backed by it\\)" --force
umount "$tmp/m1"
mounts=()

# 5. The disk holding /.
rootsrc=$(awk '$5 == "/" { for (i = 7; i <= NF; i++) if ($i == "-") { print $(i + 2); exit } }' /proc/self/mountinfo)
if [ -b "$rootsrc" ]; then
	NOHASH=1 refused "$rootsrc" "mounted|holds /" --force
else
	echo "SKIP: / is not on a block device ($rootsrc)"
fi

# 6. md members. With md in the host kernel mdadm writes a real 0.90
# superblock; without, the superblock's magic is written where mdadm puts
# it (size & ~65535 - 65536 for 0.90, 4 KiB for 1.2).
m1=$(newloop md1 64) m2=$(newloop md2 64)
if [ -e /proc/mdstat ] && command -v mdadm >/dev/null; then
	mdadm --create /dev/md/iobsafety --metadata=0.90 --level=0 \
		--raid-devices=2 --run "$m1" "$m2" >/dev/null 2>&1
	mds+=(/dev/md/iobsafety)
	refused "$m1" "in use by md"
	mdadm --stop /dev/md/iobsafety >/dev/null
	mds=()
else
	echo "note: no md in the host kernel: writing the 0.90 magic by hand"
	size=$(blockdev --getsize64 "$m1")
	printf '\xfc\x4e\x2b\xa9' | dd of="$m1" bs=1 seek=$(((size & ~65535) - 65536)) conv=notrunc status=none
	printf '\xfc\x4e\x2b\xa9' | dd of="$m2" bs=1 seek=4096 conv=notrunc status=none
	sync
fi
refused "$m1" "signature: md RAID 0.90 member"
[ -e /proc/mdstat ] && refused "$m2" "signature: md RAID 0.90 member" ||
	refused "$m2" "signature: md RAID 1.2 member"

# 7. Held by dm (a linear target on it).
if [ -e /dev/mapper/control ] && command -v dmsetup >/dev/null; then
	held=$(newloop held 64)
	dmsetup create "iobsafety$$" --table "0 $(blockdev --getsz "$held") linear $held 0"
	dms+=("iobsafety$$")
	refused "$held" "in use by dm-[0-9]+ \\(holds $(basename "$held")\\)"
	refused "$held" "in use by dm" --force
else
	echo "SKIP: no device-mapper in the host kernel (holders: see check_safety)"
fi

# 8. A mounted partition makes its whole disk refused.
part=$(newloop part 64 -P)
printf '\x00\x00\x00\x00\x83\x00\x00\x00\x00\x08\x00\x00\x00\xf8\x01\x00' |
	dd of="$part" bs=1 seek=446 conv=notrunc status=none
printf '\x55\xaa' | dd of="$part" bs=1 seek=510 conv=notrunc status=none
blockdev --rereadpt "$part" 2>/dev/null || true
sleep 0.3
if [ -b "${part}p1" ]; then
	mkfs.ext4 -q -F "${part}p1"
	mkdir -p "$tmp/m2"
	mount -o ro "${part}p1" "$tmp/m2"
	mounts+=("$tmp/m2")
	refused "$part" "it is mounted \\(${part}p1 on $tmp/m2\\)" --force
else
	echo "SKIP: the host kernel does not scan partitions (no ${part}p1)"
	refused "$part" "signature: MBR partition table"
fi

echo "60-safety-passthrough: $tried checks, $refused refused, bytes unchanged after every refused or read-only check"
