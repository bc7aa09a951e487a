#!/usr/bin/env bash
# noise.sh: %stddev of MB/s over N boots (default 10) of one kernel (the
# fixture's v6.1 with the default fragments) for each preset under TCG, and
# for a set of variations of the virtio preset that may reduce it (disk
# backing and cache mode, guest memory), and for the demo job (1 vCPU)
# with QEMU pinned to a CPU of its own (machine.pin, the default) or not,
# each with and without a kernel build beside the boots (make -j1 at nice
# 10 and idle I/O on the other CPUs, ccache off, as a background build
# lane runs; "+build" in the name), or two busy loops ("+spin"). A
# config's command prefix runs the harness, and so QEMU, under it (not a
# real-time one: the harness raises QEMU's threads itself under the
# virtual clock, and a real-time harness can starve behind them).
# Each configuration is measured on each clock of --clocks (default
# "wall,virtual": the host's clock and QEMU's instruction count at the
# default shift; "virtual:N" is shift N), one boot a turn, the clocks in
# turns A B B A so every clock sees the same moments of the host, every
# clock with one vCPU (the virtual clock takes no more). The
# figure is LKP's %stddev of the per-boot medians (the "boot%sd" column
# iobisect prints), beside the wall time a boot took (QEMU start to exit)
# and from QEMU's start to the first sample.
#
# usage: bench/noise.sh [--boots N] [--out DIR] [--clocks C,...] [CONFIG...]
#   CONFIG names come from the table below; default: all of them.
#   NOISE_KERNEL=path/to/bzImage boots that image instead of the fixture's.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
boots=10
clocks=wall,virtual
out=/tmp/iobisect-noise-$(date +%Y%m%d-%H%M%S)
while [ $# -gt 0 ]; do
	case $1 in
	--boots) boots=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--clocks) clocks=$2; shift 2 ;;
	*) break ;;
	esac
done
IFS=, read -r -a clock_list <<<"$clocks"
# name | topology | workload | extra arguments | command prefix
# (a topology "@FILE" runs that job file as it is, workload and all)
dd1m="bs_kb=1024,size_mb=128,direct=0"
configs="
demo|@$root/tests/jobs/demo.json|||
demo-fio|@$root/tests/jobs/demo-fio.json|||
demo-nullb|virtio,d0.bus=nullb|rawread,target=d0,bs_kb=4,size_mb=128,direct=0||
virtio-nullb|virtio,d0.bus=nullb|rawread,target=d0,$dd1m||
virtio|virtio|rawread,target=d0,$dd1m||
nvme|nvme|rawread,target=d0,$dd1m||
raid0-4|raid0-4|rawread,target=md0,$dd1m||
loop|loop|rawread,target=l0,$dd1m||
dm-linear|dm-linear|rawread,target=lin,$dd1m||
demo-4k-pinned|virtio|rawread,target=d0,bs_kb=4,size_mb=128,direct=0|--set machine.cpus=1|
virtio-image|virtio,d0.backing=image,d0.latency_ns=0|rawread,target=d0,$dd1m||
virtio-image-nocache|virtio,d0.backing=image,d0.latency_ns=0,d0.cache=none|rawread,target=d0,$dd1m||
virtio-tmpfs|virtio,d0.backing=tmpfs,d0.latency_ns=0|rawread,target=d0,$dd1m||
virtio-mem256|virtio|rawread,target=d0,$dd1m|--set machine.memory_mb=256|
virtio-mem2048|virtio|rawread,target=d0,$dd1m|--set machine.memory_mb=2048|
raid5-4|raid5-4|rawread,target=md0,$dd1m||
demo-4k-unpinned|virtio|rawread,target=d0,bs_kb=4,size_mb=128,direct=0|--set machine.cpus=1 --set machine.pin=false|
demo-4k-unpinned+build|virtio|rawread,target=d0,bs_kb=4,size_mb=128,direct=0|--set machine.cpus=1 --set machine.pin=false|
demo-4k-pinned+build|virtio|rawread,target=d0,bs_kb=4,size_mb=128,direct=0|--set machine.cpus=1|
demo+build|@$root/tests/jobs/demo.json|||
demo+spin|@$root/tests/jobs/demo.json|||
"
want=" $* "
# shellcheck source=/dev/null
. "$root/tests/integration/lib.sh"
kernel=${NOISE_KERNEL:-$(fixture_kernel)}
mkdir -p "$out"

# A kernel build beside the boots, as a background lane runs it: on every
# CPU but the last (the one a pinned QEMU gets), nice 10, idle I/O, one
# make job, no ccache (so it compiles all along); rebuilt from scratch in a
# loop until stopped.
beside_pid=
build_beside() {
	local src obj cpus
	src=$(ls -d "$HOME"/.cache/iobisect/trees/*/0/src | head -1)
	obj=$out/beside-obj
	cpus=$(python3 -c 'import os; c = sorted(os.sched_getaffinity(0)); print(",".join(map(str, c[:-1] or c)))')
	cp "$(ls -d "$HOME"/.cache/iobisect/trees/*/0/obj/*/ | head -1)/.config" "$out/beside.config"
	(
		while :; do
			rm -rf "$obj" && mkdir -p "$obj" && cp "$out/beside.config" "$obj/.config"
			CCACHE_DISABLE=1 taskset -c "$cpus" nice -n 10 ionice -c 3 \
				make -s -C "$src" O="$obj" -j1 olddefconfig bzImage >/dev/null 2>&1 || true
		done
	) &
	beside_pid=$!
	sleep 20 # past configuration, into the compiles
}
# Two busy loops at the harness's own priority, on no CPU in particular:
# a neighbour that does not step aside as a build lane does ("+spin").
spin_beside() {
	(
		for _ in 1 2; do sh -c 'while :; do :; done' & done
		wait
	) &
	beside_pid=$!
}
stop_beside() {
	[ -n "$beside_pid" ] || return 0
	pkill -TERM -P "$beside_pid" 2>/dev/null || true
	kill "$beside_pid" 2>/dev/null || true
	pkill -f "make -s -C .* O=$out/beside-obj" 2>/dev/null || true
	wait "$beside_pid" 2>/dev/null || true
	beside_pid=
	rm -rf "$out/beside-obj"
}
trap stop_beside EXIT
# clock_args CLOCK: the --set options of "wall", "virtual" or "virtual:N".
# One vCPU on every clock: the virtual clock takes no more (clock.h), and
# the clocks are compared on the same guest.
clock_args() {
	case $1 in
	wall) echo "--set machine.cpus=1 --set machine.clock=wall" ;;
	virtual) echo "--set machine.cpus=1 --set machine.clock=virtual" ;;
	virtual:*) echo "--set machine.cpus=1 --set machine.clock=virtual --set machine.icount_shift=${1#virtual:}" ;;
	*) echo "noise.sh: '$1' is not wall, virtual or virtual:N" >&2; exit 2 ;;
	esac
}
for c in "${clock_list[@]}"; do clock_args "$c" >/dev/null; done

printf '%-22s %-10s %5s %9s %9s %8s %8s %8s %8s  %s\n' config clock boots "MB/s" "boot%sd" "min" "max" "s/boot" "s/first" "load" | tee "$out/table.txt"
while IFS='|' read -r name topo work extra prefix; do
	[ -n "$name" ] || continue
	[ "$want" = "  " ] || [[ $want == *" $name "* ]] || continue
	[[ $name != *+build ]] || build_beside
	[[ $name != *+spin ]] || spin_beside
	load=$(cut -d' ' -f1 /proc/loadavg)
	failed=
	# One boot a turn, the clocks' order reversed every other turn.
	for ((b = 0; b < boots; b++)); do
		order=("${clock_list[@]}")
		if ((b % 2)); then
			order=()
			for ((i = ${#clock_list[@]} - 1; i >= 0; i--)); do order+=("${clock_list[$i]}"); done
		fi
		for c in "${order[@]}"; do
			rc=0
			if [[ $topo == @* ]]; then what=("${topo#@}"); else what=(--topology "$topo" --workload "$work"); fi
			# shellcheck disable=SC2086
			$prefix "$root/iobisect" run "${what[@]}" --kernel "$kernel" \
				$extra $(clock_args "$c") --boots 1 --samples 3 --warmup 1 \
				--timeout "${NOISE_TIMEOUT:-240}" --results "$out/$name/$c" >>"$out/$name.$c.log" 2>&1 || rc=$?
			[ $rc = 0 ] || failed="$failed $c"
		done
	done
	stop_beside
	[ -z "$failed" ] || printf '%-22s failed boots:%s (%s)\n' "$name" "$failed" "$(grep -m1 -i 'error' "$out/$name".*.log)" | tee -a "$out/table.txt"
	for c in "${clock_list[@]}"; do
		python3 - "$out/$name/$c" "$name" "$c" "$load" <<'PY' | tee -a "$out/table.txt"
import glob, json, os, re, statistics as st, sys
d, name, clock, load = sys.argv[1:]
per, secs, first = {}, [], []
for f in glob.glob(os.path.join(d, "*", "*", "*", "*", "boot-*-sample-*.json")):
    j = json.load(open(f))
    if not j.get("complete"):
        continue
    b = int(re.search(r"boot-(\d+)-sample", f).group(1))
    m = j.get("read") or {}
    if "bw_bytes" in m:
        per.setdefault(b, []).append(m["bw_bytes"] / 1e6)
for f in glob.glob(os.path.join(d, "*", "*", "*", "boot-*.json")):
    j = json.load(open(f))
    if j.get("complete") and j.get("boot_ns"):
        secs.append(j["boot_ns"] / 1e9)
        if j.get("first_sample_ns"):
            first.append(j["first_sample_ns"] / 1e9)
meds = [st.median(v) for _, v in sorted(per.items())]
if len(meds) < 2:
    print("%-22s %-10s too few boots (%d)" % (name, clock, len(meds)))
else:
    m = st.mean(meds)
    print("%-22s %-10s %5d %9.1f %8.2f%% %8.1f %8.1f %8.1f %8.1f  %s" % (
        name, clock, len(meds), st.median(meds), 100 * st.stdev(meds) / m,
        min(meds), max(meds), st.median(secs) if secs else float("nan"),
        st.median(first) if first else float("nan"), load))
PY
	done
done <<<"$configs"
echo "noise: $out/table.txt" >&2
