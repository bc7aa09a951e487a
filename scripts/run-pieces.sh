#!/usr/bin/env bash
# Runs the commands given (each one argument, a shell command line) as
# many at a time as the machine has CPUs (PIECES_AT_ONCE overrides), and
# prints each one's output whole, in the order given, as soon as it and
# those before it have ended, so two pieces' lines never mix. Exits 1
# when any piece failed, after every piece has run and been printed.
#
# The unit target's pieces (the Check suites, the hostile table, the
# stand-in harnesses) each leave a core idle part of their time: waiting
# on a stand-in QEMU, on a killed run, on a timeout. Run one after another
# they were over two minutes of each of CI's three unit runs.
set -u
at_once=${PIECES_AT_ONCE:-$(nproc 2>/dev/null || echo 1)}
[ "$at_once" -ge 1 ] 2>/dev/null || at_once=1
dir=$(mktemp -d /tmp/run-pieces.XXXXXX)
trap 'rm -rf "$dir"' EXIT

# The starter: keeps at_once pieces running; each writes its exit code
# to N.rc when it ends.
(
	i=0
	for c in "$@"; do
		while [ "$(find "$dir" -name '*.running' | wc -l)" -ge "$at_once" ]; do
			sleep 0.1
		done
		: >"$dir/$i.running"
		(
			bash -c "$c" >"$dir/$i.out" 2>&1
			echo $? >"$dir/$i.rc"
			rm -f "$dir/$i.running"
		) &
		i=$((i + 1))
	done
	wait
) &
starter=$!

status=0 i=0
for c in "$@"; do
	while [ ! -s "$dir/$i.rc" ]; do
		kill -0 "$starter" 2>/dev/null || [ -s "$dir/$i.rc" ] || {
			echo "run-pieces: '$c' never ended" >&2
			exit 1
		}
		sleep 0.1
	done
	cat "$dir/$i.out"
	rc=$(cat "$dir/$i.rc")
	[ "$rc" = 0 ] || { echo "run-pieces: '$c' failed (exit $rc)"; status=1; }
	i=$((i + 1))
done
wait "$starter"
exit $status
