#!/usr/bin/env bash
# 22-run-methods: every way the guest can build a layer, forced one by one on
# the real 6.1 kernel, so the routes old kernels need are proven here:
#   boot 1, kernel ioctls alone: md RAID0 and RAID5 (0.90, created clean) via
#     SET_ARRAY_INFO/ADD_NEW_DISK/RUN_ARRAY, dm-linear via DM_DEV_CREATE/
#     DM_TABLE_LOAD/DM_DEV_SUSPEND, loop via the pre-5.8 LOOP_SET_FD +
#     LOOP_SET_STATUS64 (forced with method=ioctl-setfd) and LOOP_CONFIGURE;
#   boot 2, tools packed into the initramfs: mdadm (metadata 1.2 with an
#     internal bitmap, which the ioctls cannot make), dmsetup, losetup.
# Each layer must report the route it took, read back its md geometry, never
# be measured during a resync, and give verified data.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

kernel=${IOBISECT_KERNEL:-}
[ -n "$kernel" ] || kernel=$(fixture_kernel) || fail "no kernel"
work=$(mktemp -d /tmp/iob-22.XXXXXX)
trap '[ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT

# disks d0..d7 on image files (real data, so reads can be verified)
disks() {
	local out="" i
	for i in 0 1 2 3 4 5 6 7; do
		out+="{\"name\": \"d$i\", \"bus\": \"virtio\", \"backing\": \"image\", \"size_mb\": 64},"
	done
	printf '%s' "${out%,}"
}

job() { # name md-method dm-method loop-method md1-extra md0-extra
	cat <<EOF
{
  "name": "$1",
  "machine": {"cpus": 2, "memory_mb": 512, "timeout_s": 240},
  "topology": {"name": "$1", "disks": [$(disks)],
    "layers": [
      {"kind": "md", "name": "md0", "level": 0, "chunk_kb": 64, "members": ["d0", "d1"], "method": "$2"${6:-}},
      {"kind": "md", "name": "md1", "level": 5, "chunk_kb": 64, "members": ["d2", "d3", "d4"], "method": "$2"$5},
      {"kind": "part", "name": "p1", "on": "d5", "start_mb": 1, "size_mb": 60},
      {"kind": "dm", "name": "lin", "on": "p1", "method": "$3"},
      {"kind": "loop", "name": "l0", "on": "d6", "method": "$4"},
      {"kind": "loop", "name": "l1", "on": "d7", "method": "ioctl"}
    ]},
  "workload": {"engine": "rawread", "target": ["md0", "md1", "lin", "l0", "l1"],
               "bs_kb": 128, "size_mb": 16, "direct": 0},
  "runs": {"samples": 1, "warmup": 0}
}
EOF
}

check_boot() { # name expected-setups...
	local name=$1 boot
	shift
	boot=$(ls "$work"/results/"$name"/*/"$name"-rawread/boot-1.json 2>/dev/null | head -1)
	[ -f "$boot" ] || fail "$name: no boot document"
	[ "$(jq -r .outcome "$boot")" = ok ] ||
		fail "$name: outcome $(jq -r .outcome "$boot"): $(jq -c .errors "$boot")"
	local pair layer want got
	for pair in "$@"; do
		layer=${pair%%=*} want=${pair#*=}
		got=$(jq -r --arg l "$layer" '.topology_read_back[] | select(.name == $l) | .setup' "$boot")
		[ "$got" = "$want" ] || fail "$name: layer $layer set up by '$got', want '$want'"
	done
	jq -e '[.topology_read_back[] | select(.name == "md0")][0] |
		.level == 0 and .chunk_kb == 64 and .raid_disks == 2' "$boot" >/dev/null ||
		fail "$name: md0 read back: $(jq -c '.topology_read_back[] | select(.name == "md0")' "$boot")"
	jq -e '[.topology_read_back[] | select(.name == "md1")][0] |
		.level == 5 and .chunk_kb == 64 and .raid_disks == 3 and
		(.sync_action == "idle" or .sync_action == null)' "$boot" >/dev/null ||
		fail "$name: md1 read back: $(jq -c '.topology_read_back[] | select(.name == "md1")' "$boot")"
	local n=0 s
	for s in "$(dirname "$boot")"/*/boot-1-sample-*.json; do
		jq -e '.read.verified == true' "$s" >/dev/null || fail "$name: $s not verified"
		n=$((n + 1))
	done
	[ "$n" -eq 5 ] || fail "$name: $n samples, want one per target (5)"
	echo "$name: ok ($*)"
	printf '%s\n' "$boot"
}

job ioctl ioctl ioctl ioctl-setfd ', "metadata": "0.90"' >"$work/ioctl.json"
iob run "$work/ioctl.json" --kernel "$kernel" --boots 1 --results "$work/results" >"$work/ioctl.out" 2>&1 ||
	{ cat "$work/ioctl.out"; fail "ioctl boot failed"; }
check_boot ioctl md0=ioctl md1=ioctl p1=BLKPG lin=ioctl l0=LOOP_SET_FD l1=LOOP_CONFIGURE >/dev/null
echo "ioctls alone: md RAID0, RAID5 0.90, dm-linear, LOOP_SET_FD, LOOP_CONFIGURE"

# (mdadm 4.2 will not make a RAID0 with 0.90 metadata: "does not support
# layouts for RAID0"; the ioctls above do, which is why that route exists.)
job tools mdadm dmsetup losetup ', "metadata": "1.2", "bitmap": 1' ', "metadata": "1.2"' >"$work/tools.json"
iob run "$work/tools.json" --kernel "$kernel" --boots 1 --results "$work/results" >"$work/tools.out" 2>&1 ||
	{ cat "$work/tools.out"; fail "tools boot failed"; }
boot=$(check_boot tools md0=mdadm md1=mdadm lin=dmsetup l0=losetup l1=LOOP_CONFIGURE | tail -1)
jq -e '[.topology_read_back[] | select(.name == "md1")][0] | .metadata == "1.2" and .bitmap != "none"' \
	"$boot" >/dev/null || fail "tools: md1 is not 1.2 with a bitmap: $(jq -c '.topology_read_back[] | select(.name == "md1")' "$boot")"
echo "packed tools: mdadm (1.2 + internal bitmap), dmsetup, losetup"
