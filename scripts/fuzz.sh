#!/usr/bin/env bash
# fuzz.sh: run each libFuzzer target of build-fuzz/ (make fuzz) for a
# bounded time over its corpus in tests/fuzz/corpus/<target>/, and print
# one line per target with the executions it did. New interesting inputs
# go to a scratch folder, not the committed corpus (merge them with
# FUZZ_MERGE=1, which keeps a minimal corpus: edges covered, not counts). A crash leaves its
# reproducer in tests/fuzz/crashes/ and fails the script.
#
#   FUZZ_SECONDS=30 (per target)
#   FUZZ_TARGETS="proto job state guest_spec store"
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
secs=${FUZZ_SECONDS:-30}
targets=${FUZZ_TARGETS:-"proto job state guest_spec store"}
crashes=$root/tests/fuzz/crashes
mkdir -p "$crashes"
for t in $targets; do
	[ -x "$root/build-fuzz/fuzz_$t" ] || { make -C "$root" fuzz >/dev/null; break; }
done
# One target a piece, as many at a time as there are CPUs (each fuzzer
# keeps one core busy): five targets one after another were 100 s of CI.
if [ -z "${FUZZ_ONE:-}" ] && [ "$(wc -w <<<"$targets")" -gt 1 ]; then
	pieces=()
	for t in $targets; do
		pieces+=("FUZZ_ONE=1 FUZZ_TARGETS=$t FUZZ_SECONDS=$secs $0")
	done
	exec "$root/scripts/run-pieces.sh" "${pieces[@]}"
fi
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
status=0
for t in $targets; do
	bin=$root/build-fuzz/fuzz_$t
	corpus=$root/tests/fuzz/corpus/$t
	scratch=$(mktemp -d "/tmp/fuzz-$t.XXXXXX")
	log=$scratch/log
	rc=0
	# The guest frames to stdout and talks on stderr: keep them out of
	# the log (libFuzzer keeps its own output and any crash report).
	quiet=
	[ "$t" = guest_spec ] && quiet=-close_fd_mask=3
	"$bin" -max_total_time="$secs" -max_len=8192 -timeout=10 -rss_limit_mb=2048 \
		-artifact_prefix="$crashes/$t-" -print_final_stats=1 $quiet \
		"$scratch" "$corpus" >"$log" 2>&1 || rc=$?
	execs=$(awk '/stat::number_of_executed_units/ { print $2 }' "$log")
	printf 'fuzz %-10s %s s  %s executions  rc=%d\n' "$t" "$secs" "${execs:-?}" "$rc"
	if [ "$rc" -ne 0 ]; then
		grep -E 'ERROR|SUMMARY|Test unit written|#[0-9]+ 0x' "$log" | head -30 >&2
		status=1
	fi
	if [ "${FUZZ_MERGE:-0}" = 1 ]; then
		merged=$(mktemp -d "/tmp/fuzz-$t-min.XXXXXX")
		# Edges only (no hit counts): keeps the corpus small (<= 200 files).
		"$bin" -merge=1 -use_counters=0 -max_len=8192 "$merged" "$corpus" "$scratch" >/dev/null 2>&1
		rm -rf "$corpus" && mv "$merged" "$corpus"
	fi
	rm -rf "$scratch"
done
exit $status
