#!/usr/bin/env bash
# Runs the real-kernel integration tests (tests/integration/*.sh). They
# share one kernel fixture repository and one fragment set, so the first
# (10-build) builds the kernel (cold: ~11 min on 2 cores) and the rest hit
# the cache. IOBISECT_TESTS=pattern runs only the matching ones.
#
# They run one after another, in name order. With IOBISECT_LANES=2 (for a
# machine with cores to spare) the tests after 10-build run in two lanes
# at once: a boot under TCG keeps one host thread busy, and every check
# that looks for a leftover QEMU or make looks for its own. Not on two
# CPUs: there the tests' own builds (make -j2) and the neighbour's boot
# oversubscribe the host, the virtual clock of a guest that waits on
# QEMU's device spreads (52-bisect-upstream: 58 boots, undecided), and
# the integration half took longer in two lanes than in one (bench/README).
# A lane keeps the tests that reuse another's builds after
# it: 40-bisect warms the demo series' images for 44, 42, 48, 61 and 49,
# 15-build-env builds 49's kernel without SysV IPC, 45-sweep's store
# and answer are what 46-slurm compares with; 47 runs late, once 40 has
# built the demo's commits. A test named in no lane runs alone after both.
# Each test's output is printed whole when it ends, so two never mix.
#
# A test passes with exit 0 and fails with any other code but 77, which
# says it could not run here at all (not root, no losetup) and is counted
# skipped, never passed. A test that runs but leaves some of its checks
# out prints a line "SKIP: why" for each; it passes, and says so. The
# closing line, alone on its line:
#
#   N passed, N failed, N skipped
set -u
cd "$(dirname "$0")/.."

FIRST="10-build"
LANE1="15-build-env 40-bisect 44-bisect-prebuilt 42-git-bisect-run
	48-bisect-threshold 61-faults 49-fio 45-sweep 46-slurm 50-report-html"
LANE2="20-run-presets 21-run-faults 22-run-methods 23-run-runtime 25-seeds
	26-counters 27-clock 53-profile 41-bisect-resume 43-lanes
	52-bisect-upstream 54-bisect-release 60-safety-passthrough 47-nightly
	51-upload 70-installed"

work=$(mktemp -d /tmp/run-integration.XXXXXX)
trap 'rm -rf "$work"' EXIT
: >"$work/results"

selected() { # name: in IOBISECT_TESTS, and a test of this tree
	[ -f "tests/integration/$1.sh" ] || return 1
	[ -z "${IOBISECT_TESTS:-}" ] || [[ $1 == *${IOBISECT_TESTS}* ]]
}

# run_one NAME LIVE: runs one test; LIVE=1 shows its output as it comes,
# else it is printed whole at the end, under the lock. Appends
# "name rc secs skipped-parts" to the results.
run_one() {
	local name=$1 live=$2 log=$work/$1.log start rc secs left
	start=$(date +%s)
	if [ "$live" = 1 ]; then
		echo "=== $name"
		bash "tests/integration/$name.sh" 2>&1 | tee "$log"
		rc=${PIPESTATUS[0]}
	else
		echo "... $name started"
		bash "tests/integration/$name.sh" >"$log" 2>&1
		rc=$?
	fi
	secs=$(($(date +%s) - start))
	left=$(grep -c '^SKIP: ' "$log")
	(
		flock 9
		[ "$live" = 1 ] || { echo "=== $name"; cat "$log"; }
		if [ "$rc" = 77 ]; then
			echo "--- SKIP $name (${secs}s): $(grep -m1 '^SKIP: ' "$log" | cut -c7-)"
		elif [ "$rc" = 0 ] && [ "$left" -gt 0 ]; then
			echo "--- PASS $name (${secs}s), but $left part(s) skipped:"
			grep '^SKIP: ' "$log" | sed 's/^SKIP: /      /'
		elif [ "$rc" = 0 ]; then
			echo "--- PASS $name (${secs}s)"
		else
			echo "--- FAIL $name (${secs}s, exit $rc)"
		fi
		echo "$name $rc $secs $left" >>"$work/results"
	) 9>"$work/lock"
}

lane() { # LIVE NAME...
	local live=$1 t
	shift
	for t in "$@"; do
		selected "$t" && run_one "$t" "$live"
	done
}

all=$(cd tests/integration && ls [0-9]*.sh | sed 's/\.sh$//')
laned=" $FIRST $(echo $LANE1 $LANE2) "
rest=()
for t in $all; do
	[[ $laned == *" $t "* ]] || rest+=("$t")
done

start=$(date +%s)
# shellcheck disable=SC2086 # the lanes are word lists
if [ "${IOBISECT_LANES:-1}" != 2 ]; then
	lane 1 $all
else
	lane 1 $FIRST
	# The demo series' branches are made once, here, not by two tests at
	# once (each would find the other's half-made refs).
	# Most tests use them; a failure here is each test's to report.
	for t in $LANE1 $LANE2; do
		selected "$t" || continue
		tests/fixture/demo-series.sh >/dev/null 2>&1 || true
		break
	done
	lane 0 $LANE1 &
	one=$!
	lane 0 $LANE2 &
	two=$!
	wait $one $two
	[ ${#rest[@]} -eq 0 ] || echo "in no lane, run alone: ${rest[*]}"
	lane 1 "${rest[@]}"
fi

pass=0 fail=0 skip=0 failed=() skipped=() partial=()
while read -r name rc secs left; do
	if [ "$rc" = 77 ]; then
		skip=$((skip + 1)); skipped+=("$name")
	elif [ "$rc" = 0 ]; then
		pass=$((pass + 1))
		[ "$left" -gt 0 ] && partial+=("$name")
	else
		fail=$((fail + 1)); failed+=("$name")
	fi
done <"$work/results"
echo "integration: $(($(date +%s) - start)) s in all"
[ ${#failed[@]} -eq 0 ] || echo "failed: ${failed[*]}"
[ ${#skipped[@]} -eq 0 ] || echo "skipped: ${skipped[*]}"
[ ${#partial[@]} -eq 0 ] || echo "passed with parts skipped: ${partial[*]}"
echo "$pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ]
