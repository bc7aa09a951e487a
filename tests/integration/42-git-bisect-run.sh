#!/usr/bin/env bash
# `git bisect run iobisect test JOB` in a throwaway clone of the fixture
# names the same first slow commit as `iobisect bisect`, and leaves the
# clone as git left it (no results, no build products in it).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

repo=$(fixture_repo)
series=$("$IOB_ROOT/tests/fixture/demo-series.sh" 2>/dev/null)
culprit=$(awk '$1 == "culprit" && $2 == "iobisect-demo-large" { print $3 }' <<<"$series")
[ -n "$culprit" ] || fail "demo-series printed no culprit"

tmp=$(mktemp -d /tmp/iobisect-42.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
sed -e "s|\"~/.cache/iobisect/fixture/linux\"|\"$repo\"|" \
    -e "s|\"name\": \"demo\"|\"name\": \"e2e-gitrun\"|" \
    "$IOB_ROOT/tests/jobs/demo.json" >"$tmp/job.json"
# Up to 16 pairs a commit, not the demo's 8: on a day the machine's speed
# moves (the good endpoint at +-27% over 16 boots), 8 pairs left the
# culprit's unchanged parent undecided, `test` said untestable (125), and
# git could only say "any of" the parent and the culprit. More boots, never
# a guess.
jq '.runs.max = 16' "$tmp/job.json" >"$tmp/job.json.new" && mv "$tmp/job.json.new" "$tmp/job.json"

git clone -q --shared "$repo" "$tmp/linux"
cd "$tmp/linux"
git bisect start --term-old fast --term-new slow origin/iobisect-demo-large v6.1 >/dev/null
start=$(date +%s)
git bisect run "$IOB_ROOT/iobisect" test "$tmp/job.json" >"$tmp/run.out" 2>&1 || {
	grep -E "^(fast|slow|untestable):" "$tmp/run.out" >&2
	tail -30 "$tmp/run.out" >&2
	fail "git bisect run failed"
}
echo "git bisect run: $(( $(date +%s) - start ))s"
grep -E "is the first slow commit|^fast:|^slow:|^untestable:" "$tmp/run.out"
grep -q "^$culprit is the first slow commit" "$tmp/run.out" || fail "git bisect run did not name $culprit"
# As git left it: nothing of ours in the tree, still bisecting.
[ -z "$(git status --porcelain --ignored)" ] || { git status --short --ignored | head; fail "the clone's tree was changed"; }
git rev-parse -q --verify refs/bisect/slow >/dev/null || fail "the bisection state of git is gone"
git bisect reset >/dev/null 2>&1
echo "42-git-bisect-run: ok ($culprit)"
