#!/usr/bin/env bash
# Runs the real-kernel integration tests (tests/integration/*.sh) in name
# order. They share one kernel fixture repository and one fragment set, so the
# first builds the kernel (cold: ~15 min on 2 cores) and the rest hit the cache.
# IOBISECT_TESTS=pattern runs only the matching ones.
set -u
cd "$(dirname "$0")/.."
pass=0 fail=0 failed=()
for t in tests/integration/[0-9]*.sh; do
	name=$(basename "$t" .sh)
	[ -n "${IOBISECT_TESTS:-}" ] && [[ $name != *${IOBISECT_TESTS}* ]] && continue
	start=$(date +%s)
	echo "=== $name"
	if bash "$t"; then
		pass=$((pass + 1)); echo "--- PASS $name ($(( $(date +%s) - start ))s)"
	else
		fail=$((fail + 1)); failed+=("$name"); echo "--- FAIL $name ($(( $(date +%s) - start ))s)"
	fi
done
[ ${#failed[@]} -eq 0 ] || echo "failed: ${failed[*]}"
echo "integration: $pass passed, $fail failed"
[ $fail -eq 0 ]
