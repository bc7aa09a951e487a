# shellcheck shell=bash
# lib.sh: helpers every integration test sources. They share one kernel
# fixture repository (Debian's linux-source-6.1 as a git repo, tag v6.1) and
# one default kernel image built from it with the default fragments, so only
# the first test of a machine's life builds a kernel cold; the rest hit the
# build cache. Keep these functions' names and outputs stable: every other
# test relies on them.
#
#   fixture_repo    print the fixture repository's path (made once)
#   iob ARGS...     run this tree's ./iobisect
#   fixture_kernel  print the bzImage of v6.1 with the default fragments (or
#                   the build options given); nosysv_kernel without SysV IPC
#   iob_field NAME  read "NAME  value" lines of iobisect's output on stdin
#   fail MSG        print "FAIL: MSG" on stderr and exit 1
#   demo_ids        set the demo series' commits (tests/fixture/demo-series.sh):
#                   large, moderate, broken, noeffect; and of the large
#                   branch culprit (= large), tip, c3, c9; repo, series
#   demo_job NAME F write the demo job at half the bytes per boot, named
#                   NAME, on the fixture repository, to F
#   no_profile F    turn the culprit's profile off in job file F (CI time:
#                   two more boots a bisection; 53-profile tests it)
#   no_wall_pairs F turn the answer's pairs on the wall clock off in F (CI
#                   time: six more boots a bisection; 52-bisect-upstream
#                   tests them)
#   no_revert F     turn the revert check off in job file F (CI time: one
#                   more build and up to runs.max pairs a bisection;
#                   40-bisect tests it)
#   no_changes F    seek no change but the answer's in job file F
#                   (runs.changes 1: a part whose ends read apart on a
#                   loaded host is bisected again, boots no test asked
#                   for; 40-bisect keeps the search)
#   answer_only F   all four: a bisection's answer and nothing after it
#   timed_bisect JOB P  iobisect bisect JOB into P.out and P.err (results in
#                   $tmp/results), says its exit and time and prints P.out;
#                   sets rc and named (the commit it names, "" for none)

IOB_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

fixture_repo() {
	"$IOB_ROOT/tests/fixture/kernel-repo.sh"
}

iob() {
	[ -x "$IOB_ROOT/iobisect" ] || fail "'$IOB_ROOT/iobisect' is not built (run make)"
	"$IOB_ROOT/iobisect" "$@"
}

iob_field() {
	awk -v k="$1" '$1 == k { $1 = ""; sub(/^ +/, ""); print; exit }'
}

fixture_kernel() { # [BUILD-OPTION...]: another configuration or compiler
	local repo out
	repo=$(fixture_repo) || return 1
	if ! out=$(iob build --repo "$repo" --commit v6.1 "$@"); then
		printf '%s\n' "$out" >&2
		echo "fixture_kernel: building v6.1 $* failed" >&2
		return 1
	fi
	iob_field image <<<"$out"
}

# The fragments of a v6.1 without System V IPC (fio cannot start there):
# 15-build-env's gcc-11 builds use them, 49-fio boots fio on the image, so
# the one cold build a second compiler needs serves both.
NOSYSV_FRAGMENT=$IOB_ROOT/tests/jobs/kconfig/no-sysvipc.config
NOSYSV_FRAGMENTS=base,virtio,loop,$NOSYSV_FRAGMENT

# nosysv_kernel: that bzImage, built by gcc-11 (from the cache once 15 ran).
nosysv_kernel() {
	fixture_kernel --kconfig "$NOSYSV_FRAGMENTS" --cc gcc-11
}

demo_ids() {
	repo=$(fixture_repo)
	series=$("$IOB_ROOT/tests/fixture/demo-series.sh" 2>/dev/null) || return 1
	large=$(demo_field culprit iobisect-demo-large)
	moderate=$(demo_field culprit iobisect-demo-moderate)
	broken=$(demo_field broken "")
	noeffect=$(demo_field noeffect "")
	tip=$(demo_field branch iobisect-demo-large)
	[ -n "$large" ] && [ -n "$moderate" ] && [ -n "$broken" ] &&
		[ -n "$noeffect" ] && [ -n "$tip" ] || fail "demo-series printed no ids"
	culprit=$large
	c3=$(git -C "$repo" rev-parse "$tip~9")
	c9=$(git -C "$repo" rev-parse "$tip~3")
}

# A field of demo-series.sh's output: "KEY [BRANCH] ... VALUE".
demo_field() {
	awk -v a="$1" -v b="$2" '$1 == a && (b == "" || $2 == b) { print $NF; exit }' <<<"$series"
}

no_profile() {
	# In place, the file's shape kept: later seds of a test match it.
	sed -i 's|"machine": {|"machine": {"profile": false, |' "$1"
	[ "$(jq '.machine.profile' "$1")" = false ] ||
		fail "no_profile: '$1' has no \"machine\": { to turn it off in"
}

timed_bisect() {
	local start
	start=$(date +%s)
	rc=0
	iob bisect "$1" --results "$tmp/results" >"$2.out" 2>"$2.err" || rc=$?
	echo "$(basename "$2"): exit $rc in $(( $(date +%s) - start ))s"
	cat "$2.out"
	named=$(awk '$1 == "commit" { print $2; exit }' "$2.out")
}

# The slowdown is about 10x, so half the bytes is still far past the
# threshold; the boots per commit stay the demo's.
no_wall_pairs() {
	# In place, as no_profile.
	sed -i 's|"runs": {|"runs": {"wall_pairs": 0, |' "$1"
	[ "$(jq '.runs.wall_pairs' "$1")" = 0 ] ||
		fail "no_wall_pairs: '$1' has no \"runs\": { to turn them off in"
}

no_revert() {
	# In place, as no_profile.
	sed -i 's|"runs": {|"runs": {"revert": false, |' "$1"
	[ "$(jq '.runs.revert' "$1")" = false ] ||
		fail "no_revert: '$1' has no \"runs\": { to turn it off in"
}

no_changes() {
	# In place, as no_profile.
	sed -i 's|"runs": {|"runs": {"changes": 1, |' "$1"
	[ "$(jq '.runs.changes' "$1")" = 1 ] ||
		fail "no_changes: '$1' has no \"runs\": { to turn it off in"
}

answer_only() {
	no_profile "$1"
	no_wall_pairs "$1"
	no_revert "$1"
	no_changes "$1"
}

demo_job() {
	sed -e "s|\"~/.cache/iobisect/fixture/linux\"|\"$(fixture_repo)\"|" \
	    -e "s|\"name\": \"demo\"|\"name\": \"$1\"|" \
	    -e 's|"size_mb": 128|"size_mb": 64|' \
	    "$IOB_ROOT/tests/jobs/demo.json" >"$2"
	grep -q '"size_mb": 64' "$2" || fail "tests/jobs/demo.json changed shape"
	answer_only "$2"
}
