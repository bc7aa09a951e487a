#!/usr/bin/env bash
# 10-build: real kernel builds through `iobisect build` on the fixture
# repository. v6.1 is built (cold only the first time on a machine), then a
# commit that changes one .c file is built incrementally in the same build
# folder, v6.1 rebuilt over it gives the same bytes, v6.1 again comes
# from the cache, byte-identical, without make, and a second repository of
# the same source builds it from ccache hits into the same bytes.
# Bad input gets one line on stderr and a non-zero exit. The fixture's HEAD,
# index and working tree are the same at the end as at the start.
#
# The test's commits live on branches of their own (iobisect-test-*), made
# with git plumbing and a temporary index, never the fixture's own.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

repo=$(fixture_repo)
tmp=$(mktemp -d /tmp/iob-10-build.XXXXXX)
onefile=refs/heads/iobisect-test-onefile
broken=refs/heads/iobisect-test-broken
cleanup() {
	git -C "$repo" update-ref -d "$onefile" 2>/dev/null || true
	git -C "$repo" update-ref -d "$broken" 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT

# The user's state, read without letting git refresh the index.
user_state() {
	git -C "$repo" rev-parse HEAD
	git -C "$repo" symbolic-ref -q HEAD || echo detached
	sha1sum <"$repo/.git/index"
	git -C "$repo" --no-optional-locks status --porcelain | sha1sum
}
state_before=$(user_state)

# A commit on top of v6.1 replacing one file; fixed dates so reruns make
# the same commit (and the same build key).
commit_with() { # ref path sed-script message
	local ref=$1 path=$2 script=$3 msg=$4 blob tree commit
	blob=$(git -C "$repo" show "v6.1:$path" | sed "$script" |
		git -C "$repo" hash-object -w --stdin)
	export GIT_INDEX_FILE=$tmp/index
	git -C "$repo" read-tree v6.1
	git -C "$repo" update-index --cacheinfo "100644,$blob,$path"
	tree=$(git -C "$repo" write-tree)
	unset GIT_INDEX_FILE
	commit=$(GIT_AUTHOR_NAME=iobisect GIT_AUTHOR_EMAIL=t@iobisect.invalid \
		GIT_COMMITTER_NAME=iobisect GIT_COMMITTER_EMAIL=t@iobisect.invalid \
		GIT_AUTHOR_DATE=2022-12-12T00:00:00Z GIT_COMMITTER_DATE=2022-12-12T00:00:00Z \
		git -C "$repo" commit-tree "$tree" -p "v6.1^{commit}" -m "$msg")
	git -C "$repo" update-ref "$ref" "$commit"
}

seconds() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$(seconds)" 'BEGIN { printf "%.1f", b - a }'; }

# 1. v6.1 with the default fragments (cold the first time).
t=$(seconds)
out1=$(iob build --repo "$repo" --commit v6.1)
echo "v6.1: $(elapsed "$t")s, $(iob_field cache <<<"$out1")"
image1=$(iob_field image <<<"$out1")
key1=$(iob_field key <<<"$out1")
[ -s "$image1" ] || fail "no image at '$image1'"
[[ $key1 =~ ^[0-9a-f]{40}$ ]] || fail "bad build key '$key1'"
# A cached image may come from another build folder (a cache copied from
# another machine, or made under another path): the reproducibility checks
# below compare builds of this folder, so a hit is rebuilt here first.
if grep -q '^cache *hit' <<<"$out1"; then
	t=$(seconds)
	out1=$(iob build --repo "$repo" --commit v6.1 --no-cache)
	echo "v6.1 rebuilt in its build folder: $(elapsed "$t")s, $(iob_field cache <<<"$out1")"
	image1=$(iob_field image <<<"$out1")
fi
cp "$image1" "$tmp/first.bzImage"

# 2. One .c file changed: make rebuilds a handful of objects, not the tree.
# --no-cache so a rerun of this test measures the incremental build too.
commit_with "$onefile" block/blk-core.c '1a /* iobisect: one-file change */' \
	"block: a comment (iobisect incremental build test)"
t=$(seconds)
out2=$(iob build --repo "$repo" --commit "$onefile" --no-cache)
secs2=$(elapsed "$t")
objs=$(iob_field cache <<<"$out2" | sed -E 's/.*\(([0-9]+) objects rebuilt\).*/\1/')
echo "one-file change: ${secs2}s, $objs objects rebuilt"
[[ $objs =~ ^[0-9]+$ ]] || fail "no object count in: $out2"
[ "$objs" -ge 1 ] && [ "$objs" -le 40 ] || fail "$objs objects rebuilt for a one-file change"
[ "$(iob_field key <<<"$out2")" != "$key1" ] || fail "a changed tree kept the build key"

# 2b. v6.1 rebuilt in the same build folder (make, not the cache) gives the
# same bytes: the build stamps are fixed, so a key's image does not depend
# on which build produced it.
t=$(seconds)
out2b=$(iob build --repo "$repo" --commit v6.1 --no-cache)
echo "v6.1 rebuilt over the one-file change: $(elapsed "$t")s, $(iob_field cache <<<"$out2b")"
cmp -s "$tmp/first.bzImage" "$(iob_field image <<<"$out2b")" ||
	fail "rebuilding v6.1 gave a different image"

# 3. v6.1 again: a cache hit, make not run, the very same bytes.
t=$(seconds)
out3=$(iob build --repo "$repo" --commit v6.1)
echo "v6.1 again: $(elapsed "$t")s, $(iob_field cache <<<"$out3")"
grep -q '^cache *hit' <<<"$out3" || fail "v6.1 again was not a cache hit: $out3"
[ "$(iob_field key <<<"$out3")" = "$key1" ] || fail "v6.1 changed build key"
cmp -s "$tmp/first.bzImage" "$(iob_field image <<<"$out3")" ||
	fail "the cached image differs from the first build's"

# 3b. A second repository of the same kernel (a clone at another path, so
# a source tree and build folder of its own) builds v6.1 from the first
# tree's ccache hits, into the same bytes: no path of either tree reaches
# the compiler's output.
if command -v ccache >/dev/null; then
	ccache_counts() {
		ccache --print-stats | awk '
			$1 == "direct_cache_hit" || $1 == "preprocessed_cache_hit" { h += $2 }
			$1 == "cache_miss" { m += $2 }
			END { print h + 0, m + 0 }'
	}
	git clone -q --shared --no-checkout "$repo" "$tmp/clone"
	read -r h0 m0 < <(ccache_counts)
	t=$(seconds)
	out6=$(iob build --repo "$tmp/clone" --commit v6.1 --no-cache)
	read -r h1 m1 < <(ccache_counts)
	hits=$((h1 - h0)) misses=$((m1 - m0))
	echo "v6.1 in a second repository: $(elapsed "$t")s, ccache $hits hits, $misses misses"
	[ "$hits" -ge 500 ] && [ "$misses" -le $((hits / 20)) ] ||
		fail "the second repository's build got $hits ccache hits and $misses misses"
	cmp -s "$tmp/first.bzImage" "$(iob_field image <<<"$out6")" ||
		fail "the second repository's v6.1 image differs from the first's"
	# Its source tree and build folder (gigabytes) go with the clone.
	log6=$(dirname "$(iob_field image <<<"$out6")")/build.log
	tree=$(sed -n 's/^# srcdir \(.*\)\/src$/\1/p' "$log6")
	case $tree in */trees/*/[0-9]*) rm -rf "$tree" ;; esac
fi

# 4. Bad input: a non-zero exit and exactly one line on stderr.
expect_error() { # exit-code pattern args...
	local want=$1 pattern=$2 rc=0
	shift 2
	iob build "$@" >"$tmp/out" 2>"$tmp/err" || rc=$?
	[ "$rc" = "$want" ] || fail "build $* exited $rc, not $want: $(cat "$tmp/err")"
	[ "$(wc -l <"$tmp/err")" = 1 ] || fail "build $* said more than one line: $(cat "$tmp/err")"
	grep -q -- "$pattern" "$tmp/err" || fail "build $*: '$(cat "$tmp/err")' lacks '$pattern'"
	echo "bad input ok: $(cat "$tmp/err")"
}
mkdir "$tmp/not-a-repo"
expect_error 128 "is not a git repository" --repo "$tmp/not-a-repo" --commit v6.1
expect_error 128 "unknown revision 'v0.0.1'" --repo "$repo" --commit v0.0.1
expect_error 128 "unknown kconfig fragment 'raid7'" --repo "$repo" --commit v6.1 --kconfig base,raid7
printf 'CONFIG_IOBISECT_BOGUS=y\n' >"$tmp/bogus.config"
expect_error 1 "CONFIG_IOBISECT_BOGUS=y (now: not set)" \
	--repo "$repo" --commit v6.1 --kconfig "base,$tmp/bogus.config"
expect_error 128 "compiler 'gcc-4.9' not found" --repo "$repo" --commit v6.1 --cc gcc-4.9

# A syntax error in a .c file: a typed failure quoting the compiler.
commit_with "$broken" block/blk-settings.c '$a this is not C;' \
	"block: break the build (iobisect test)"
expect_error 1 "blk-settings.c:[0-9]*:[0-9]*: error:" --repo "$repo" --commit "$broken"
log=$(iob_field log <"$tmp/out")
[ -s "$log" ] || fail "the failed build's log '$log' is missing"

# 5. The user's repository is as it was.
[ "$(user_state)" = "$state_before" ] || fail "the fixture's HEAD, index or working tree changed"
echo "fixture HEAD, index and working tree unchanged"
