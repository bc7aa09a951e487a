#!/usr/bin/env bash
# Runs the real-kernel integration tests (tests/integration/*.sh) in name
# order. They share one kernel fixture repository and one fragment set, so the
# first builds the kernel (cold: ~15 min on 2 cores) and the rest hit the cache.
# IOBISECT_TESTS=pattern runs only the matching ones.
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
pass=0 fail=0 skip=0 failed=() skipped=() partial=()
log=$(mktemp /tmp/run-integration.XXXXXX)
trap 'rm -f "$log"' EXIT
for t in tests/integration/[0-9]*.sh; do
	name=$(basename "$t" .sh)
	[ -n "${IOBISECT_TESTS:-}" ] && [[ $name != *${IOBISECT_TESTS}* ]] && continue
	start=$(date +%s)
	echo "=== $name"
	bash "$t" 2>&1 | tee "$log"
	rc=${PIPESTATUS[0]}
	secs=$(( $(date +%s) - start ))
	left=$(grep -c '^SKIP: ' "$log")
	if [ "$rc" = 77 ]; then
		skip=$((skip + 1)); skipped+=("$name")
		echo "--- SKIP $name (${secs}s): $(grep -m1 '^SKIP: ' "$log" | cut -c7-)"
	elif [ "$rc" = 0 ] && [ "$left" -gt 0 ]; then
		pass=$((pass + 1)); partial+=("$name")
		echo "--- PASS $name (${secs}s), but $left part(s) skipped:"
		grep '^SKIP: ' "$log" | sed 's/^SKIP: /      /'
	elif [ "$rc" = 0 ]; then
		pass=$((pass + 1)); echo "--- PASS $name (${secs}s)"
	else
		fail=$((fail + 1)); failed+=("$name"); echo "--- FAIL $name (${secs}s, exit $rc)"
	fi
done
[ ${#failed[@]} -eq 0 ] || echo "failed: ${failed[*]}"
[ ${#skipped[@]} -eq 0 ] || echo "skipped: ${skipped[*]}"
[ ${#partial[@]} -eq 0 ] || echo "passed with parts skipped: ${partial[*]}"
echo "$pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ]
