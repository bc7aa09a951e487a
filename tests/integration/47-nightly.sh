#!/usr/bin/env bash
# A nightly sweep that follows a branch, as a lab runs it: each night
# `iobisect sweep --range v6.1..BRANCH --every 3 --notify URL --upload URL`
# re-resolves the branch and measures only what is new.
#  night 1: the branch stops before the demo's slowdown (v6.1..c3): no
#           regression, no notice;
#  night 2: the branch moved to the demo's tip: only c6, c9 and c12 are
#           measured (v6.1 and c3 come from the store; the step c3..c9,
#           undecided on two boots a commit, asks boots of c3 and c9
#           alone), and the webhook names the new change point c3..c9
#           and its culprit;
#  night 3: nothing new: no boot, no second notice.
# The webhook and the ingest endpoint are tests/httpd on 127.0.0.1.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

demo_ids
base=$(git -C "$repo" rev-parse 'v6.1^{commit}')

tmp=$(mktemp -d /tmp/iobisect-47.XXXXXX)
branch=iobisect-nightly-$$
srv_pid=
cleanup() {
	rc=$?
	[ -n "$srv_pid" ] && kill "$srv_pid" 2>/dev/null
	git -C "$repo" branch -D "$branch" >/dev/null 2>&1 || true
	if [ $rc -eq 0 ]; then rm -rf "$tmp"; else echo "kept $tmp" >&2; fi
}
trap cleanup EXIT

cc -std=c11 -D_GNU_SOURCE -O2 -Wall -Wextra -Werror -o "$tmp/httpd" "$IOB_ROOT/tests/httpd/httpd.c"
mkdir -p "$tmp/srv"
"$tmp/httpd" "$tmp/srv" 0 >"$tmp/port" &
srv_pid=$!
for _ in $(seq 50); do [ -s "$tmp/port" ] && break; sleep 0.1; done
port=$(cat "$tmp/port")
notices() { grep -l '"range"' "$tmp/srv/stored"/*.json 2>/dev/null | wc -l; }

demo_job nightly "$tmp/job.json"
night() { # N
	local rc=0 n=$1
	shift
	iob sweep "$tmp/job.json" --range "v6.1..$branch" --every 3 --results "$tmp/results" \
		--notify "http://127.0.0.1:$port/hook" --upload "http://127.0.0.1:$port/ingest" "$@" \
		>"$tmp/night$n.out" 2>"$tmp/night$n.err" || rc=$?
	set -- "$n"
	echo "night $1: exit $rc, $(grep '^measured' "$tmp/night$1.out")"
	return $rc
}

git -C "$repo" branch -f "$branch" "$c3"
night 1 || fail "night 1 (no regression) exited $?"
grep -q "^measured 4 new boots (2 commits" "$tmp/night1.out" || fail "night 1 did not measure v6.1 and c3"
[ "$(notices)" -eq 0 ] || fail "night 1 sent a notice without a regression"
grep -q "^upload: [1-9][0-9]* sent" "$tmp/night1.out" || fail "night 1 uploaded nothing"

git -C "$repo" branch -f "$branch" "$tip"
rc=0; night 2 || rc=$?
# c6 does not build: c9 and c12 boot twice each; the only boots more are
# those the undecided step asks of the commits beside it, c3 and c9 (a
# busy moment of this shared machine asks more of them, not a rerun):
# v6.1 and c12 keep two.
grep -q "^measured [0-9]* new boots (5 commits" "$tmp/night2.out" ||
	fail "night 2 printed no count of its boots"
boots_of() { find "$tmp/results/nightly/${1:0:12}" -name 'boot-*.json' ! -name '*-sample-*' | wc -l; }
[ "$(boots_of "$base")" -eq 2 ] && [ "$(boots_of "$tip")" -eq 2 ] ||
	fail "night 2 booted v6.1 ($(boots_of "$base")) or c12 ($(boots_of "$tip")) again, not only beside the step"
[ $rc -eq 1 ] || { tail -20 "$tmp/night2.err" >&2; fail "night 2 exited $rc, not 1 (regression)"; }
grep -q "^regression ${c3:0:12}\.\.${c9:0:12}: culprit $culprit " "$tmp/night2.out" ||
	fail "night 2 did not bisect the new change point to $culprit"
[ "$(notices)" -eq 1 ] || fail "night 2 sent $(notices) notices, not 1"
notice=$(grep -l '"range"' "$tmp/srv/stored"/*.json)
grep -q "\"range\": *\"${c3:0:12}..${c9:0:12}\"" "$notice" && grep -q "\"culprit\": *\"$culprit\"" "$notice" ||
	{ cat "$notice"; fail "the notice does not name c3..c9 and the culprit"; }

night 3 || [ $? -eq 1 ] || fail "night 3 exited badly"
grep -q "^measured 0 new boots" "$tmp/night3.out" || fail "night 3 measured again"
[ "$(notices)" -eq 1 ] || fail "night 3 announced the same regression again"
echo "47-nightly: ok"
