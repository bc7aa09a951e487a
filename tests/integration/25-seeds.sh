#!/usr/bin/env bash
# 25-seeds: each seed report's job (tests/jobs/seeds/) on the fixture's
# 6.1 kernel, printing the report's own table (the job's "table"), and the
# direction of the report's effect asserted from the numbers measured:
#   000 RAID0: buffered 11 KB reads on md RAID0 are faster with a large
#       readahead (the report's RASize 448 pages) than with a small one;
#   001 RAID5: block writes with an internal write-intent bitmap are at
#       least 1.5x slower than without (the disk model makes bitmap
#       updates wait for the disk, as the report's disks did);
#   004 dd: 2 MiB reads of the whole disk beat 128 KiB reads.
# Smaller samples than the jobs' own (the effects are large), one boot
# each: about two minutes under TCG. A seed whose one boot does not show
# its effect is run again on three more (the seeds with two vCPUs run on
# the wall clock, where a boot beside a busy host can read several times
# slower: 41 against 186 MB/s once), and judged on the medians of all
# four. `make seeds` runs this alone.
#
# IOBISECT_KERNEL=path/to/bzImage skips the fixture build.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

kernel=${IOBISECT_KERNEL:-}
[ -n "$kernel" ] || kernel=$(fixture_kernel) || fail "no kernel"
work=$(mktemp -d /tmp/iob-25.XXXXXX)
trap 'rm -rf "$work"' EXIT
seeds=$IOB_ROOT/tests/jobs/seeds

# run NAME BOOTS JOB ARGS...: BOOTS boots more; prints the table (medians
# of every boot so far), leaves table.json.
run_seed() {
	local name=$1 boots=$2 job=$3
	shift 3
	echo "--- $name"
	if ! out=$(iob run "$job" --kernel "$kernel" --boots "$boots" --warmup 0 \
		--results "$work/$name" "$@" 2>&1); then
		printf '%s\n' "$out"
		fail "$name: iobisect run failed"
	fi
	printf '%s\n' "$out" | sed -n '/^Seed /,/^results:/p'
	table=$(ls "$work/$name"/*/*/table.json | head -1)
	[ -f "$table" ] || fail "$name: no table.json"
}
# cell TABLE ROWKEY=VALUE... COLUMN: the MB/s of one cell of table.json.
cell() {
	local table=$1 col=$2 sel='.rows[]'
	shift 2
	for kv in "$@"; do
		sel="$sel | select(.\"${kv%%=*}\" == \"${kv#*=}\")"
	done
	local i
	i=$(jq -r --arg c "$col" '.columns | index($c)' "$table")
	[ "$i" != null ] || fail "$table: no column '$col'"
	jq -r "[$sel][0].cells[$i].mbps | floor" "$table"
}

# seed NAME CHECK: CHECK BOOTS runs the seed and asserts its direction,
# saying why not; on one boot first, then on three more.
seed() {
	"$2" 1 && return 0
	echo "$1: not shown by one boot; three more"
	"$2" 3 || fail "$why"
}

# 000: the report's RASize 448 pages (ra_kb 1792) against 4 pages.
raid0() {
	run_seed raid0 "$1" "$seeds/raid0-readahead.json" --samples 2 \
		--set workload.size_mb=64 --set 'workload.threads=[2]' \
		--set 'workload.bs_kb=[11]' --set 'workload.ra_kb=[16,1792]'
	small=$(cell "$table" read ra_kb=16) large=$(cell "$table" read ra_kb=1792)
	echo "raid0: 11 KB reads, RASize 4 pages $small MB/s, 448 pages $large MB/s"
	why="raid0: readahead 448 pages ($large MB/s) is not clearly faster than 4 pages ($small MB/s)"
	[ $((small * 13)) -le $((large * 10)) ]
}
seed raid0 raid0

# 001: block writes with the bitmap off and on (the job's 256 KiB bitmap
# chunks, the preset's 10 ms a write or flush).
raid5() {
	run_seed raid5 "$1" "$seeds/raid5-bitmap.json" --samples 2 \
		--set workload.size_mb=128
	off=$(cell "$table" write bitmap=0) on=$(cell "$table" write bitmap=1)
	echo "raid5: block write, bitmap off $off MB/s, on $on MB/s"
	why="raid5: block writes with the bitmap ($on MB/s) are not 1.5x slower than without ($off MB/s)"
	[ $((on * 15)) -le $((off * 10)) ]
}
seed raid5 raid5

# 004: the whole disk read with 128 KiB and 2 MiB blocks.
dd_seed() {
	run_seed dd "$1" "$seeds/dd-partition-loop-dm.json" --samples 2 \
		--set workload.size_mb=64
	b128=$(cell "$table" 128 target=d0) b2m=$(cell "$table" 2048 target=d0)
	echo "dd: /dev of the whole disk, 128 KiB $b128 MB/s, 2 MiB $b2m MB/s"
	why="dd: 2 MiB reads ($b2m MB/s) are not clearly faster than 128 KiB ($b128 MB/s)"
	[ $((b128 * 13)) -le $((b2m * 10)) ]
}
seed dd dd_seed
# The same table in the HTML report of the results folder.
iob report "$work/dd/dd-partition-loop-dm" --html "$work/dd.html" >/dev/null ||
	fail "dd: iobisect report failed"
grep -q '<h3>.*Seed 004: dd after drop_caches' "$work/dd.html" ||
	fail "dd: the report's table is not in the HTML report"

echo "25-seeds: every report's effect shows"
