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
#   fixture_kernel  print the bzImage of v6.1 with the default fragments
#   iob_field NAME  read "NAME  value" lines of iobisect's output on stdin
#   demo_ids        set large, moderate, broken and noeffect: the demo
#                   series' commits (tests/fixture/demo-series.sh)
#   fail MSG        print "FAIL: MSG" on stderr and exit 1

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

fixture_kernel() {
	local repo out
	repo=$(fixture_repo) || return 1
	if ! out=$(iob build --repo "$repo" --commit v6.1); then
		printf '%s\n' "$out" >&2
		echo "fixture_kernel: building v6.1 failed" >&2
		return 1
	fi
	iob_field image <<<"$out"
}

demo_ids() {
	local series
	series=$("$IOB_ROOT/tests/fixture/demo-series.sh" 2>/dev/null) || return 1
	_demo_field() { awk -v a="$1" -v b="$2" '$1 == a && (b == "" || $2 == b) { print $NF; exit }' <<<"$series"; }
	large=$(_demo_field culprit iobisect-demo-large)
	moderate=$(_demo_field culprit iobisect-demo-moderate)
	broken=$(_demo_field broken "")
	noeffect=$(_demo_field noeffect "")
	[ -n "$large" ] && [ -n "$moderate" ] && [ -n "$broken" ] && [ -n "$noeffect" ] ||
		fail "demo-series printed no ids"
}
