#!/usr/bin/env bash
# Builds beside boots (harness/measure/lanes.c): a bisection of commits nobody has
# built yet shows its background builds, survives a SIGKILL while a
# background build runs beside a boot, and another while a step boots with
# the next step building beside it; each time no make and no QEMU is left
# running and no build folder stays locked, and the resumed run names the
# culprit.
#
# The range is made for the test (plumbing on a private index, the
# fixture's tree and HEAD untouched, the refs removed at the end): six
# commits on v6.1, each with a comment unique to this run, so every build
# is real; the fourth shrinks the readahead window as the demo's culprit
# does.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

repo=$(fixture_repo)
tmp=$(mktemp -d /tmp/iobisect-43.XXXXXX)
pid=
refs=()
cleanup() {
	[ -n "$pid" ] && kill -9 "$pid" 2>/dev/null
	for r in "${refs[@]}"; do git -C "$repo" update-ref -d "$r"; done
	rm -rf "$tmp"
}
trap cleanup EXIT

stamp=$(date +%s%N)
export GIT_AUTHOR_NAME="iobisect test" GIT_AUTHOR_EMAIL="test@iobisect.invalid"
export GIT_COMMITTER_NAME="$GIT_AUTHOR_NAME" GIT_COMMITTER_EMAIL="$GIT_AUTHOR_EMAIL"
# commit PARENT FILE SED_SCRIPT: the file as v6.1 has it, edited, plus a
# unique comment; prints the new commit.
commit() {
	local parent=$1 file=$2 edit=$3 blob tree
	blob=$({ git -C "$repo" show "v6.1:$file" | sed "$edit"; printf '/* iobisect lanes test %s %s */\n' "$stamp" "$file"; } |
		git -C "$repo" hash-object -w --stdin)
	GIT_INDEX_FILE=$tmp/index git -C "$repo" read-tree "$parent"
	GIT_INDEX_FILE=$tmp/index git -C "$repo" update-index --cacheinfo "100644,$blob,$file"
	tree=$(GIT_INDEX_FILE=$tmp/index git -C "$repo" write-tree)
	git -C "$repo" commit-tree "$tree" -p "$parent" -m "lanes test $stamp: $file"
}
shrink='/^void disk_update_readahead(struct gendisk \*disk)$/,/^}/s|max(queue_io_opt(q) \* 2 / PAGE_SIZE, VM_READAHEAD_PAGES);|VM_READAHEAD_PAGES / 8;|'
u1=$(commit "$(git -C "$repo" rev-parse 'v6.1^{commit}')" kernel/exit.c '')
u2=$(commit "$u1" fs/read_write.c '')
u3=$(commit "$u2" mm/readahead.c '')
u4=$(commit "$u3" block/blk-settings.c "$shrink")
u5=$(commit "$u4" block/fops.c '')
u6=$(commit "$u5" init/main.c '')
ref=refs/iobisect-test/lanes-$stamp
git -C "$repo" update-ref "$ref" "$u6"
refs+=("$ref")

sed -e "s|\"~/.cache/iobisect/fixture/linux\"|\"$repo\"|" \
    -e "s|\"name\": \"demo\"|\"name\": \"e2e-lanes\"|" \
    -e "s|\"bad\": \"iobisect-demo-large\"|\"bad\": \"$u6\"|" \
    "$IOB_ROOT/tests/jobs/demo.json" >"$tmp/job.json"
answer_only "$tmp/job.json"
res=$tmp/results

# Descendants of PID whose command line starts with WORD.
has_child() { # PID WORD
	local p
	for p in $(pgrep -P "$1" || true); do
		case "$({ tr '\0' ' ' <"/proc/$p/cmdline"; } 2>/dev/null)" in "$2"*) return 0 ;; esac
		has_child "$p" "$2" && return 0
	done
	return 1
}

# Every descendant of PID, one per line.
descendants() { # PID
	local p
	for p in $(pgrep -P "$1" || true); do
		echo "$p"
		descendants "$p"
	done
}

# Nothing of a killed run may go on (its lanes, their make, QEMU), and no
# build folder or results folder stays locked. PIDS: its descendants at
# the kill.
nothing_left() { # WHAT PIDS
	local t=0 p alive
	while :; do
		alive=
		for p in $2; do
			kill -0 "$p" 2>/dev/null && alive="$alive $p"
		done
		[ -z "$alive" ] && break
		sleep 0.5
		t=$((t + 1))
		[ $t -lt 40 ] || { ps -o pid,args -p "${alive# }" >&2 || true; fail "$1: still running 20 s after the kill:$alive"; }
	done
	local l
	while read -r l; do
		flock -n "$l" true || fail "$1: '$l' is still locked"
	done < <(find "$HOME"/.cache/iobisect "$res"/e2e-lanes -maxdepth 6 -name '*.lock' \
		-not -path '*/src/*' -not -path '*/fixture/*' 2>/dev/null)
}

# Start (or resume) the bisection; SIGKILL it once the Nth "building
# beside" line is out and a QEMU and a make run at once.
kill_beside() { # N
	local t=0
	"$IOB_ROOT/iobisect" bisect "$tmp/job.json" --results "$res" >>"$tmp/out" 2>"$tmp/err.$1" &
	pid=$!
	until [ "$(grep -c ': building beside' "$tmp/err.$1" || true)" -ge 1 ] &&
		pgrep -f "qemu-system.*$tmp" >/dev/null && has_child "$pid" make; do
		kill -0 "$pid" 2>/dev/null || { tail "$tmp/err.$1" >&2; fail "kill $1: bisect ended before a boot ran beside a build"; }
		sleep 0.2
		t=$((t + 1))
		[ $t -lt 4500 ] || fail "kill $1: no boot beside a build within 15 min"
	done
	grep ': building beside' "$tmp/err.$1" | tail -1
	left=$(descendants "$pid")
	kill -9 "$pid"
	wait "$pid" 2>/dev/null || true
	pid=
	nothing_left "kill $1" "$left"
	echo "killed with a boot and a build beside it ($1)"
}

kill_beside 1
kill_beside 2
rc=0
iob bisect "$tmp/job.json" --results "$res" >"$tmp/final" 2>"$tmp/err.final" || rc=$?
cat "$tmp/final"
grep -E '^\[build\]' "$tmp/err.final" || true
[ $rc -eq 0 ] || { tail -20 "$tmp/err.final" >&2; fail "the resumed bisection exited $rc"; }
grep -q "commit   $u4" "$tmp/final" || fail "the resumed bisection did not name $u4"
nothing_left "the end" ""
echo "43-lanes: ok ($u4)"
