#!/usr/bin/env bash
# Runs the commands given (each one argument, a shell command line) as
# many at a time as the machine has CPUs (PIECES_AT_ONCE overrides), then
# prints each one's output whole, in the order given, so two pieces'
# lines never mix. Exits 1 when any piece failed.
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

i=0
for c in "$@"; do
	while [ "$(jobs -rp | wc -l)" -ge "$at_once" ]; do
		wait -n
	done
	{ bash -c "$c" >"$dir/$i.out" 2>&1; echo $? >"$dir/$i.rc"; } &
	i=$((i + 1))
done
wait

status=0 i=0
for c in "$@"; do
	cat "$dir/$i.out"
	rc=$(cat "$dir/$i.rc")
	[ "$rc" = 0 ] || { echo "run-pieces: '$c' failed (exit $rc)"; status=1; }
	i=$((i + 1))
done
exit $status
