#!/usr/bin/env bash
# Runs every Check suite binary given and prints one closing line with the
# totals, in the plain form CI reads: "unit: N passed, N failed".
set -u
pass=0 fail=0 status=0
for t in "$@"; do
	out=$("$t" 2>&1); rc=$?
	printf '%s\n' "$out" | grep -E '^[0-9]+%: Checks|:[EF]:' || true
	line=$(printf '%s\n' "$out" | grep -E '^[0-9]+%: Checks' | tail -1)
	n=$(sed -E 's/.*Checks: ([0-9]+).*/\1/' <<<"$line")
	f=$(sed -E 's/.*Failures: ([0-9]+), Errors: ([0-9]+).*/\1 \2/' <<<"$line")
	[ -n "$n" ] || { echo "$t: no result line (crashed?)"; n=1; f="1 0"; }
	read -r nf ne <<<"$f"
	pass=$((pass + n - nf - ne)); fail=$((fail + nf + ne))
	[ $rc -eq 0 ] || status=1
done
echo "unit: $pass passed, $fail failed"
exit $status
