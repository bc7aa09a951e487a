#!/usr/bin/env bash
# concurrent-boots.sh [IOBISECT]: two harnesses booting on one results
# folder at once (a `run` beside another boot of the same job, as a `run`
# beside a `bisect`), and pid files left or planted there. A stand-in QEMU
# answers --version and sleeps, so nothing boots: each harness must keep
# to its own run folder and QEMU, take a boot number of its own, and kill
# no process it did not start, whatever a pid file says or its name is.
# Needs no kernel and no QEMU. The closing line:
#
#   concurrent-boots: N checks, N as expected, N not
set -u
. "$(dirname "$0")/standin-lib.sh" concurrent-boots "${1:-}"
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill -KILL "$p" 2>/dev/null; done
	wait 2>/dev/null
	rm -rf "$S"
}
trap cleanup EXIT
alive() { kill -0 "$1" 2>/dev/null; }
# Gone, or killed and not yet reaped by this shell.
dead() { ! alive "$1" || zombie "$1"; }

printf 'not a kernel, but a regular file\n' >k
# Nothing boots: a stand-in guest program is as good as the real one.
export IOBISECT_GUEST=$S/k
# The stand-in: its name says qemu, as a real one's does; each boot notes
# its pid and the console file QEMU was given, then sleeps (as itself,
# so its command line still says qemu).
cat >qemu-system-x86_64 <<'SH'
#!/bin/sh
case "$1" in --version) echo "QEMU emulator version 7.2.0"; exit 0 ;; esac
for a; do case $a in *console.log*) con=$a ;; esac; done
echo "$$ $con" >>"$STANDIN_LOG"
sleep 30
SH
chmod +x qemu-system-x86_64
run() { # run LOG: one boot of job "j" in results/, timing out after 6 s
	STANDIN_LOG=$S/$1.qemu "$bin" run --kernel k --topology virtio \
		--workload rawread --results results --set name=j \
		--set machine.qemu="$S/qemu-system-x86_64" \
		--set machine.timeout_s=6 --boots 1 >"$1.out" 2>"$1.err" &
	last=$!
	pids+=($last)
}
wait_for() { # wait_for FILE: until it is not empty, 10 s at most
	for ((i = 0; i < 200; i++)); do
		[ -s "$1" ] && return 0
		sleep 0.05
	done
	return 1
}

# A process named like QEMU, and a pid file naming it where the old run
# folder was; a run folder of a gone harness (its lock free) whose pid
# file names it with its right start time.
(exec -a qemu-system-x86_64 sleep 60) &
stranger=$!
pids+=($stranger)
start=$(awk '{ sub(/.*\) /, ""); print $20 }' /proc/$stranger/stat)
mkdir -p results/j/.run "results/j/.run-$(hostname)-1"
echo "$stranger" >results/j/.run/qemu.pid
echo "$stranger $start" >"results/j/.run-$(hostname)-1/qemu.pid"
: >"results/j/.run-$(hostname)-1/lock"
# A gone harness that was killed while it built: no QEMU, nothing to say.
mkdir -p "results/j/.run-$(hostname)-2"
: >"results/j/.run-$(hostname)-2/lock"
# A gone harness whose QEMU lives on: started with its pid file's mark.
gone=$S/results/j/.run-$(hostname)-3
mkdir -p "$gone"
: >"$gone/lock"
IOBISECT_PIDFILE=$gone/qemu.pid sleep 60 &
orphan=$!
disown $orphan
pids+=($orphan)
echo "$orphan $(awk '{ sub(/.*\) /, ""); print $20 }' /proc/$orphan/stat)" >"$gone/qemu.pid"

run a
pa=$last
wait_for a.qemu || echo "concurrent-boots: the first run never started its QEMU"
run b
pb=$last
wait_for b.qemu || echo "concurrent-boots: the second run never started its QEMU"
qa= ca= qb= cb=
read -r qa ca <a.qemu
read -r qb cb <b.qemu
sleep 1
check "the first run's QEMU outlives the second's start" alive "$qa"
check "the second run's QEMU runs" alive "$qb"
check "each boot has its own console file" [ "$ca" != "$cb" ]
check "a process named qemu that no harness started lives" alive "$stranger"
check "the QEMU a gone harness left is killed" dead "$orphan"
wait "$pa" "$pb" 2>/dev/null
ids=$(sed -n 's/^boot .* (boot id \([0-9]*\)).*/\1/p' a.err b.err | sort -u | wc -l)
check "two boots of one commit take two boot numbers" [ "$ids" = 2 ]
check "no boot was cut short by the other" \
	bash -c '! grep -h "^boot [0-9]* on" a.out b.out | grep -qv timeout'
check "a process named qemu that no harness started lives on" alive "$stranger"
check "no error line" bash -c '! grep -h "^error" a.err b.err'
check "the run folders are gone with their runs" \
	bash -c '! ls -d results/j/.run-* 2>/dev/null | grep -q .'

echo "concurrent-boots: $n checks, $((n - bad)) as expected, $bad not"
[ "$bad" -eq 0 ]
