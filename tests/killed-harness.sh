#!/usr/bin/env bash
# killed-harness.sh [IOBISECT]: a harness killed while its QEMU runs takes
# that QEMU with it, whatever the signal: SIGKILL, which no handler sees,
# and SIGTERM, SIGUSR1 and SIGALRM, which it catches (the default of the
# last two ends a process at once) to stop as interrupted. The
# stand-in QEMU is a script that starts a child of its own and waits for it
# (as a wrapper script around a real QEMU does, or make around a compiler):
# nothing of its process group may outlive the harness. Both `run` and
# `profile` boot it. Needs no kernel and no QEMU. The closing line:
#
#   killed-harness: N checks, N as expected, N not
set -u
. "$(dirname "$0")/standin-lib.sh" killed-harness "${1:-}"
groups=()
cleanup() {
	for g in "${groups[@]}"; do kill -KILL -- "-$g" 2>/dev/null; done
	wait 2>/dev/null
	[ -n "${KEEP:-}" ] || rm -rf "$S"
}
trap cleanup EXIT
# Nothing of process group $1 runs (a zombie has ended), within 2 s.
group_gone() {
	local p left
	for ((i = 0; i < 40; i++)); do
		left=
		for p in $(pgrep -g "$1"); do
			zombie "$p" || left="$left $p"
		done
		[ -z "$left" ] && return 0
		sleep 0.05
	done
	echo "killed-harness: left running:$left" >&2
	return 1
}

printf 'not a kernel, but a regular file\n' >k
printf 'ffffffff81000000 T _text\nffffffff81000100 T foo\n' >System.map
# Nothing boots: a stand-in guest program and plugin are as good as real.
export IOBISECT_GUEST=$S/k IOBISECT_PLUGIN=$S/k
# The stand-in answers --version and the plugin probe; a boot notes its
# pid (its process group's, as the harness starts it) and waits on a child.
cat >qemu-system-x86_64 <<'SH'
#!/bin/sh
case "$1" in --version) echo "QEMU emulator version 7.2.0"; exit 0 ;; esac
case "$*" in *probe=on*) echo "iobisect-tbcount: loads, plugin api 2"; exit 0 ;; esac
echo "$$" >>"$STANDIN_LOG"
sleep 30
SH
chmod +x qemu-system-x86_64
cat >job.json <<J
{"name": "j", "results": "results",
 "machine": {"qemu": "$S/qemu-system-x86_64", "timeout_s": 20},
 "topology": "virtio", "workload": {"engine": "rawread"}}
J

# killed CMD SIG: start `iobisect CMD ...`, send SIG once its stand-in
# QEMU sleeps, and check the stand-in's group ends with the harness.
killed() {
	local cmd=$1 sig=$2 log=$S/$1-$2.qemu h q= rc
	case $cmd in
	run) STANDIN_LOG=$log "$bin" run job.json --kernel k --boots 1 \
		>"$cmd-$sig.out" 2>"$cmd-$sig.err" & ;;
	profile) STANDIN_LOG=$log "$bin" profile job.json --kernel k \
		--map System.map >"$cmd-$sig.out" 2>"$cmd-$sig.err" & ;;
	esac
	h=$!
	for ((i = 0; i < 200; i++)); do
		[ -s "$log" ] && break
		sleep 0.05
	done
	read -r q <"$log" 2>/dev/null
	if [ -z "$q" ]; then
		check "$cmd: the stand-in QEMU started" false
		kill -KILL "$h"
		wait "$h" 2>/dev/null
		return
	fi
	groups+=("$q")
	# Its child started: the group holds more than the stand-in.
	for ((i = 0; i < 100; i++)); do
		[ "$(pgrep -g "$q" | wc -l)" -ge 2 ] && break
		sleep 0.02
	done
	kill -"$sig" "$h"
	wait "$h" 2>/dev/null
	rc=$?
	check "$cmd: SIG$sig to the harness ends its QEMU's group" group_gone "$q"
	[ "$sig" = KILL ] && return
	check "$cmd: SIG$sig stops the harness as interrupted (exit $rc)" \
		[ "$rc" = 130 ]
	# Its handler killed QEMU: the boot was interrupted, not failed.
	check "$cmd: SIG$sig: no boot said to have failed" \
		bash -c "! grep -q 'QEMU failed' $cmd-$sig.err $cmd-$sig.out"
}

for cmd in run profile; do
	for sig in KILL TERM USR1 ALRM; do
		killed "$cmd" "$sig"
	done
done

echo "killed-harness: $n checks, $((n - bad)) as expected, $bad not"
[ "$bad" -eq 0 ]
