#!/usr/bin/env bash
# noise.sh: %stddev of MB/s over N boots (default 10) of one kernel (the
# fixture's v6.1 with the default fragments) for each preset under TCG, and
# for a set of variations of the virtio preset that may reduce it (disk
# backing and cache mode, guest memory, pinning QEMU to one host CPU).
# Each configuration is one `iobisect run --boots N`; the figure is LKP's
# %stddev of the per-boot medians (the "boot%sd" column iobisect prints),
# with the mean of the per-sample %sd beside it.
#
# usage: bench/noise.sh [--boots N] [--out DIR] [CONFIG...]
#   CONFIG names come from the table below; default: all of them.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
boots=10
out=/tmp/iobisect-noise-$(date +%Y%m%d-%H%M%S)
while [ $# -gt 0 ]; do
	case $1 in
	--boots) boots=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	*) break ;;
	esac
done
# name | topology | workload | extra arguments | command prefix
dd1m="bs_kb=1024,size_mb=128,direct=0"
configs="
virtio|virtio|rawread,target=d0,$dd1m||
nvme|nvme|rawread,target=d0,$dd1m||
raid0-4|raid0-4|rawread,target=md0,$dd1m||
loop|loop|rawread,target=l0,$dd1m||
dm-linear|dm-linear|rawread,target=lin,$dd1m||
demo-4k|virtio|rawread,target=d0,bs_kb=4,size_mb=128,direct=0|--set machine.cpus=1|
virtio-image|virtio,d0.backing=image,d0.latency_ns=0|rawread,target=d0,$dd1m||
virtio-image-nocache|virtio,d0.backing=image,d0.latency_ns=0,d0.cache=none|rawread,target=d0,$dd1m||
virtio-tmpfs|virtio,d0.backing=tmpfs,d0.latency_ns=0|rawread,target=d0,$dd1m||
virtio-mem256|virtio|rawread,target=d0,$dd1m|--set machine.memory_mb=256|
virtio-mem2048|virtio|rawread,target=d0,$dd1m|--set machine.memory_mb=2048|
virtio-pinned|virtio|rawread,target=d0,$dd1m||taskset -c 1
raid5-4|raid5-4|rawread,target=md0,$dd1m||
demo-4k-pinned|virtio|rawread,target=d0,bs_kb=4,size_mb=128,direct=0|--set machine.cpus=1|taskset -c 1
"
want=" $* "
# shellcheck source=/dev/null
. "$root/tests/integration/lib.sh"
kernel=$(fixture_kernel)
mkdir -p "$out"
printf '%-22s %5s %9s %9s %8s %8s  %s\n' config boots "MB/s" "boot%sd" "min" "max" "load" | tee "$out/table.txt"
while IFS='|' read -r name topo work extra prefix; do
	[ -n "$name" ] || continue
	[ "$want" = "  " ] || [[ $want == *" $name "* ]] || continue
	load=$(cut -d' ' -f1 /proc/loadavg)
	rc=0
	# shellcheck disable=SC2086
	$prefix "$root/iobisect" run --kernel "$kernel" --topology "$topo" \
		--workload "$work" $extra --boots "$boots" --samples 3 --warmup 1 --timeout "${NOISE_TIMEOUT:-120}" \
		--results "$out/$name" >"$out/$name.log" 2>&1 || rc=$?
	if [ $rc != 0 ]; then
		printf '%-22s failed (exit %d): %s\n' "$name" "$rc" "$(grep -m1 -i 'error' "$out/$name.log")" | tee -a "$out/table.txt"
		continue
	fi
	python3 - "$out/$name" "$name" "$load" <<'PY' | tee -a "$out/table.txt"
import glob, json, os, re, statistics as st, sys
d, name, load = sys.argv[1:]
per = {}
for f in glob.glob(os.path.join(d, "run", "*", "*", "*", "boot-*-sample-*.json")):
    j = json.load(open(f))
    if not j.get("complete"):
        continue
    b = int(re.search(r"boot-(\d+)-sample", f).group(1))
    m = j.get("read") or {}
    if "bw_bytes" in m:
        per.setdefault(b, []).append(m["bw_bytes"] / 1e6)
meds = [st.median(v) for _, v in sorted(per.items())]
if len(meds) < 2:
    print("%-22s too few boots (%d)" % (name, len(meds)))
else:
    m = st.mean(meds)
    print("%-22s %5d %9.1f %8.2f%% %8.1f %8.1f  %s" % (name, len(meds), st.median(meds), 100 * st.stdev(meds) / m, min(meds), max(meds), load))
PY
done <<<"$configs"
echo "noise: $out/table.txt" >&2
