#!/usr/bin/env bash
# sensitivity-pool.sh: boots of one kernel (the fixture's v6.1) on the demo
# job's workload (virtio null-co 200 us, 1 vCPU, 512 MB, 128 MiB of buffered
# 4 KiB reads, 3 samples + 1 warmup per boot) at several readahead windows
# (rawread ra_kb, set with BLKRASET in the guest: a knob that slows every
# sample of a boot without a rebuild). The levels are interleaved, one boot
# each per round, so a machine that gets busier slows all levels alike.
# Writes "<level> <boot> <bw_bytes>" lines (one per sample) on stdout, the
# input of build/bench/sensitivity.
#
# With --job FILE --commit REV instead: boots of that job's own workload
# on one commit, one level named "base" (a kernel's own spread, to scale
# into levels with `sensitivity -l`).
#
# usage: bench/sensitivity-pool.sh [--rounds N] [--out DIR] [RA_KB...]
#        (default: 12 rounds of 128 124 120 116 104 64; 128 is the baseline)
#        bench/sensitivity-pool.sh [--rounds N] [--out DIR] --job FILE --commit REV
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
rounds=12
out=/tmp/iobisect-sens-$(date +%Y%m%d-%H%M%S)
job= commit=
while [ $# -gt 0 ]; do
	case $1 in
	--rounds) rounds=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--job) job=$2; shift 2 ;;
	--commit) commit=$2; shift 2 ;;
	*) break ;;
	esac
done
levels=${*:-128 124 120 116 104 64}
[ -n "$job" ] && levels=base
# shellcheck source=/dev/null
. "$root/tests/integration/lib.sh"
[ -n "$job" ] || kernel=$(fixture_kernel)
mkdir -p "$out"
for r in $(seq 1 "$rounds"); do
	for ra in $levels; do
		if [ -n "$job" ]; then
			"$root/iobisect" run "$job" --commit "$commit" --boots 1 \
				--results "$out/$ra" >>"$out/$ra.log" 2>&1 ||
				echo "sensitivity-pool: a boot of $commit failed (round $r)" >&2
			continue
		fi
		"$root/iobisect" run --kernel "$kernel" --topology virtio \
			--workload "rawread,target=d0,bs_kb=4,size_mb=128,direct=0,ra_kb=$ra" \
			--set machine.cpus=1 --set machine.memory_mb=512 \
			--samples 3 --warmup 1 --boots 1 --results "$out/ra$ra" \
			>>"$out/ra$ra.log" 2>&1 || echo "sensitivity-pool: a boot at ra_kb=$ra failed (round $r)" >&2
	done
	echo "sensitivity-pool: round $r/$rounds done, load $(cut -d' ' -f1-3 /proc/loadavg)" >&2
done
python3 - "$out" $levels <<'PY'
import glob, json, os, re, sys
out = sys.argv[1]
for ra in sys.argv[2:]:
    name = ra if ra == "base" else "ra" + ra
    for f in sorted(glob.glob(os.path.join(out, name, "*", "*", "*", "default", "boot-*-sample-*.json"))):
        d = json.load(open(f))
        if not d.get("complete") or not d["read"].get("verified", True):
            continue
        boot = re.search(r"boot-(\d+)-sample", f).group(1)
        print("%s %s %d" % (name, boot, d["read"]["bw_bytes"]))
PY
