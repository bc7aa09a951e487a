#!/usr/bin/env bash
# A bisection killed with SIGKILL during a build, then during a boot, then
# during a boot of the answer's pairs (culprit against parent), and run
# again reaches the same culprit, reaps what the killed runs left, and
# measures nothing twice: every sample document stored before a kill is
# still there, unchanged, and a commit already judged gets no new boot.
# Uses the iobisect-demo-resume branch (trees no other test builds) with a
# unique commit on top, so there is always a real (incremental) build to
# interrupt.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

repo=$(fixture_repo)
series=$("$IOB_ROOT/tests/fixture/demo-series.sh" 2>/dev/null)
culprit=$(awk '$1 == "culprit" && $2 == "iobisect-demo-resume" { print $3 }' <<<"$series")
[ -n "$culprit" ] || fail "demo-series printed no culprit for the resume branch"

tmp=$(mktemp -d /tmp/iobisect-41.XXXXXX)
pid=
ref=
cleanup() {
	[ -n "$pid" ] && kill -9 "$pid" 2>/dev/null
	[ -n "$ref" ] && git -C "$repo" update-ref -d "$ref"
	rm -rf "$tmp"
}
trap cleanup EXIT
# The bad end is the resume branch plus a commit with a unique comment, so
# there is a real build to kill even when every tree of the branch is in
# the build cache already. Made with plumbing on a private index (the
# fixture's tree and HEAD are untouched); the ref is removed at the end.
stamp=$(date +%s%N)
ref=refs/iobisect-test/resume-$stamp
export GIT_AUTHOR_NAME="iobisect test" GIT_AUTHOR_EMAIL="test@iobisect.invalid"
export GIT_COMMITTER_NAME="$GIT_AUTHOR_NAME" GIT_COMMITTER_EMAIL="$GIT_AUTHOR_EMAIL"
rtip=$(git -C "$repo" rev-parse iobisect-demo-resume)
blob=$({ git -C "$repo" show "$rtip:kernel/exit.c"; printf '/* iobisect resume test %s */\n' "$stamp"; } |
	git -C "$repo" hash-object -w --stdin)
GIT_INDEX_FILE=$tmp/index git -C "$repo" read-tree "$rtip"
GIT_INDEX_FILE=$tmp/index git -C "$repo" update-index --cacheinfo "100644,$blob,kernel/exit.c"
tree=$(GIT_INDEX_FILE=$tmp/index git -C "$repo" write-tree)
tip=$(git -C "$repo" commit-tree "$tree" -p "$rtip" -m "resume test $stamp")
git -C "$repo" update-ref "$ref" "$tip"
sed -e "s|\"~/.cache/iobisect/fixture/linux\"|\"$repo\"|" \
    -e "s|\"name\": \"demo\"|\"name\": \"e2e-resume\"|" \
    -e "s|\"bad\": \"iobisect-demo-large\"|\"bad\": \"$tip\"|" \
    "$IOB_ROOT/tests/jobs/demo.json" >"$tmp/job.json"
answer_only "$tmp/job.json"
res=$tmp/results/e2e-resume

# Descendants of a pid whose command starts with a word.
has_child() { # PID WORD
	local p
	for p in $(pgrep -P "$1" || true); do
		case "$({ tr '\0' ' ' <"/proc/$p/cmdline"; } 2>/dev/null)" in "$2"*) return 0 ;; esac
		has_child "$p" "$2" && return 0
	done
	return 1
}

# start, wait until the run has printed LINE (when given) and a child of
# the given kind runs, SIGKILL the harness.
runs=0
kill_during() { # WORD TIMEOUT_S [LINE]
	runs=$((runs + 1))
	local err=$tmp/err.$runs
	# The binary itself, not the iob function: $! must be iobisect.
	"$IOB_ROOT/iobisect" bisect "$tmp/job.json" --results "$tmp/results" >>"$tmp/out" 2>"$err" &
	pid=$!
	local t=0
	until { [ -z "${3:-}" ] || grep -qF -- "$3" "$err"; } && has_child "$pid" "$1"; do
		kill -0 "$pid" 2>/dev/null || { tail "$err" >&2; fail "bisect ended before a '$1' ran${3:+ after '$3'}"; }
		sleep 0.2
		t=$((t + 1))
		[ $t -lt $(($2 * 5)) ] || fail "no '$1'${3:+ after '$3'} within $2 s"
	done
	sleep 2
	kill -9 "$pid"
	wait "$pid" 2>/dev/null || true
	pid=
	cat "$err" >>"$tmp/err"
	echo "killed during $1${3:+ after '$3'}"
}

snapshot() { # the sample documents and their checksums
	(cd "$tmp/results" && find . -name 'boot-*-sample-*.json' -print0 | xargs -0 -r sha1sum | LC_ALL=C sort)
}

kill_during make 900
kill_during qemu-system 900
# The answer's pairs boot the culprit and its parent back to back: a run
# killed there keeps the steps it judged and the pairs it stored, and
# the resumed run takes their images from the build cache (it used to
# stop: "<commit> was not built in this run").
kill_during qemu-system 1800 '[bisect] confirm: testing'
snapshot >"$tmp/before"
iob bisect "$tmp/job.json" --results "$tmp/results" --log >"$tmp/log.before" || true
# The commits judged before the last kill (endpoints excluded).
judged=$(awk '/^git bisect (good|bad|skip) / { print $4 }' "$tmp/log.before" | sort -u)
count_boots() { ls "$res/${1:0:12}"/*/boot-*.json 2>/dev/null | grep -vc sample || true; }
declare -A boots
for c in $judged; do boots[$c]=$(count_boots "$c"); done

rc=0
iob bisect "$tmp/job.json" --results "$tmp/results" >"$tmp/final" 2>>"$tmp/err" || rc=$?
cat "$tmp/final"
[ $rc -eq 0 ] || { tail -20 "$tmp/err" >&2; fail "resumed bisect exited $rc"; }
grep -q "commit   $culprit" "$tmp/final" || fail "resumed bisect did not name $culprit"

# Nothing stored before the kill was measured again (or lost).
snapshot >"$tmp/after"
missing=$(LC_ALL=C comm -23 "$tmp/before" "$tmp/after" | wc -l)
[ "$missing" -eq 0 ] || fail "$missing sample documents changed or vanished after the resume"
# A commit judged before the kill got no new boot, except where the run
# is meant to add some: the good endpoint (interleaved baseline) and the
# culprit and its parent (confirmation).
good=$(git -C "$repo" rev-parse v6.1)
parent=$(git -C "$repo" rev-parse "$culprit~1")
for c in $judged; do
	case "$c" in "$good" | "$culprit" | "$parent") continue ;; esac
	now=$(count_boots "$c")
	[ "$now" -eq "${boots[$c]}" ] || fail "$c was booted again after the resume (${boots[$c]} -> $now)"
done
# Nothing left running from the killed runs.
pgrep -f "$res/.run" >/dev/null && fail "a QEMU of a killed run is still running"
echo "41-bisect-resume: ok ($culprit)"
