#!/usr/bin/env bash
# Runs every Check suite binary given and prints one closing line with the
# totals, in the plain form CI reads: "unit: N passed, N failed, N skipped".
# A test that could not run here prints a line with ":S:" (see
# tests/check_skip.h); Check counts it as passed, so it is moved to skipped.
set -u
pass=0 fail=0 skip=0 status=0
for t in "$@"; do
	out=$("$t" 2>&1); rc=$?
	printf '%s\n' "$out" | grep -E '^[0-9]+%: Checks|:[EFS]:' || true
	line=$(printf '%s\n' "$out" | grep -E '^[0-9]+%: Checks' | tail -1)
	n=$(sed -E 's/.*Checks: ([0-9]+).*/\1/' <<<"$line")
	f=$(sed -E 's/.*Failures: ([0-9]+), Errors: ([0-9]+).*/\1 \2/' <<<"$line")
	s=$(printf '%s\n' "$out" | grep -cE '^[^ ]+:[0-9]+:S:')
	[ -n "$n" ] || { echo "$t: no result line (crashed?)"; n=1; f="1 0"; }
	read -r nf ne <<<"$f"
	pass=$((pass + n - nf - ne - s)); fail=$((fail + nf + ne)); skip=$((skip + s))
	[ $rc -eq 0 ] || status=1
done
echo "unit: $pass passed, $fail failed, $skip skipped"
exit $status
