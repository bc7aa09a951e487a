#!/usr/bin/env bash
# 49-fio: the fio engine end to end on the demo series. The demo job
# written as a fio job file (tests/jobs/demo-fio.json, fio/demo.fio) is
# bisected and must name the culprit the built-in engine names on the same
# series (40-bisect bisects it; here too with IOBISECT_LONG=1, from the
# build cache); each prints its boots and wall time. The stored samples
# carry fio's figures under fio's names, and a metric can name one of
# them. A kernel without SysV IPC (15-build-env's gcc-11 build, which fio
# cannot start on) is a workload error naming the reason, not a hang.
# The small base asks for SysV IPC, so the fio job's kernels are the
# built-in engine's (one build key): from the cache once 40 ran.
#
# Exits 77 (skipped) on a host without fio: scripts/deps.sh installs it.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

if ! command -v fio >/dev/null && [ ! -x /usr/bin/fio ]; then
	echo "49-fio: no fio on this host (apt-get install fio)"
	exit 77
fi
demo_ids

work=$(mktemp -d /tmp/iob-49.XXXXXX)
trap 'rm -rf "$work"' EXIT
# make_job NAME SOURCE: a job of the tree's tests/jobs on the fixture repo.
make_job() {
	sed -e "s|\"~/.cache/iobisect/fixture/linux\"|\"$repo\"|" \
	    -e "s|\"name\": \"[a-z-]*\"|\"name\": \"$1\"|" \
	    -e "s|\"job\": \"fio/|\"job\": \"$IOB_ROOT/tests/jobs/fio/|" \
	    "$IOB_ROOT/tests/jobs/$2" >"$work/$1.json"
	answer_only "$work/$1.json"
}

# bisect NAME: bisect the job, print its culprit, boots and wall time.
bisect() {
	local start rc=0
	start=$(date +%s)
	iob bisect "$work/$1.json" --results "$work/res" >"$work/$1.out" 2>"$work/$1.err" || rc=$?
	secs=$(( $(date +%s) - start ))
	named=$(awk '$1 == "commit" { print $2; exit }' "$work/$1.out")
	# No answer (exit 1) may be the noise of a loaded host: then the
	# culprit must be among the suspects it lists, and no other answer
	# may be given (as 52-bisect-upstream holds).
	if [ $rc = 1 ] && grep -q "the first bad commit is one of:" "$work/$1.out"; then
		grep -q "^  $large " "$work/$1.out" ||
			{ cat "$work/$1.out"; fail "$1: inconclusive, and $large is not among the suspects"; }
		echo "SKIP: $1: no answer (exit 1), the culprit among the suspects"
		named=$large
	elif [ $rc != 0 ]; then
		cat "$work/$1.out"; tail -20 "$work/$1.err" >&2
		fail "$1: bisect exited $rc"
	fi
	boots=$(jq .boots "$work/res/$1/summary.json" 2>/dev/null || echo "?")
	echo "$1: culprit ${named:0:12}, $boots boots, ${secs}s"
}

make_job e2e-fio demo-fio.json
bisect e2e-fio
fio_named=$named
[ "$fio_named" = "$large" ] || fail "the fio job named $fio_named, not the series' culprit $large"
# The built-in engine's bisection of the same series (40-bisect's, again
# from the build cache) only with IOBISECT_LONG=1 (bench/long-repeats.sh).
if [ -n "${IOBISECT_LONG:-}" ]; then
	make_job e2e-builtin demo.json
	bisect e2e-builtin
	[ "$named" = "$large" ] || fail "the built-in engine named $named, not $large"
fi
grep -q "commit   $noeffect" "$work/e2e-fio.out" && fail "the fio job blamed the no-effect commit"

# The culprit's samples: fio's figures beside the bytes, fio's names.
doc=$(ls "$work/res/e2e-fio/${large:0:12}"/*/default/boot-*-sample-0.json | head -1)
[ -n "$doc" ] || fail "no sample document of the culprit"
jq -e '.engine == "fio" and .read.iops > 0 and .read.clat_ns.percentile["99.000000"] > 0
	and .read.bw_bytes > 0 and .read.verified' "$doc" >/dev/null ||
	{ cat "$doc"; fail "the culprit's sample lacks fio's figures"; }
echo "stored: read.iops $(jq .read.iops "$doc"), read.clat_ns.percentile.99.000000 $(jq '.read.clat_ns.percentile["99.000000"]' "$doc") ns"

# Latency, from the same boots: the culprit (the confirmation booted it
# beside its parent) waits longer per read than its parent, by fio's own
# completion latency.
parent=$(git -C "$repo" rev-parse "$large^")
mean_clat() {
	jq -s '[.[] | select(.complete) | .read.clat_ns.mean] | sort | .[length / 2 | floor]' \
		"$work/res/e2e-fio/${1:0:12}"/*/default/boot-*-sample-*.json
}
slow=$(mean_clat "$large") fast=$(mean_clat "$parent")
echo "read.clat_ns.mean: parent $fast ns, culprit $slow ns"
awk -v s="$slow" -v f="$fast" 'BEGIN { exit !(s > f && f > 0) }' ||
	fail "the culprit's completion latency is not longer than its parent's"

# A kernel without SysV IPC (15-build-env's gcc-11 build): fio cannot
# start there, and the guest says so.
command -v gcc-11 >/dev/null || fail "gcc-11 missing (scripts/deps.sh installs it)"
kernel=$(nosysv_kernel) || fail "no kernel without SysV IPC"
rc=0
iob run "$work/e2e-fio.json" --kernel "$kernel" --boots 1 --results "$work/res" \
	>"$work/nosysv.out" 2>&1 || rc=$?
[ $rc != 0 ] || fail "fio ran on a kernel without SysV IPC"
grep -q "workload-error" "$work/nosysv.out" && grep -q "CONFIG_SYSVIPC" "$work/nosysv.out" ||
	{ cat "$work/nosysv.out"; fail "no workload error naming CONFIG_SYSVIPC"; }
echo "without SysV IPC: $(grep -m1 -o 'guest error in workload: .*' "$work/nosysv.out")"
echo "49-fio: ok (the fio job names ${large:0:12})"
