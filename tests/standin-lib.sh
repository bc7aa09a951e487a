# shellcheck shell=bash
# standin-lib.sh: what the harnesses that run iobisect against a stand-in
# QEMU share (concurrent-boots.sh, killed-harness.sh). Sourced with the
# harness's name as $1 and the binary (or nothing) as $2, it sets root,
# bin and a scratch folder S that is HOME, the cache and the working
# folder, and defines:
#
#   check WHAT TEST...  run TEST; count it, and say "NAME: FAIL: WHAT" if it fails
#   zombie PID          true when PID has ended and waits to be reaped
#   standin_range N K PY  a repository `repo` of N commits, the K-th and its
#                       descendants slow, a fake image per commit under
#                       images/ ({short}.bzImage), the stand-in QEMU as
#                       ./qemu-system-x86_64 run by python PY, and a guest
#                       that is none; sets good, tip and culprit
#
# n and bad count the checks and the failures, for the closing line.
standin_name=$1
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bin=$(realpath "${2:-$root/iobisect}")
[ -x "$bin" ] || { echo "$standin_name: '$bin' is not built" >&2; exit 1; }
S=$(mktemp -d "/tmp/$standin_name.XXXXXX")
export HOME=$S/home XDG_CACHE_HOME=$S/cache IOBISECT_DATA=$root LC_ALL=C
mkdir -p "$HOME"
cd "$S" || exit 1
n=0 bad=0
check() { # check WHAT TEST...
	local what=$1
	shift
	n=$((n + 1))
	if ! "$@"; then
		bad=$((bad + 1))
		echo "$standin_name: FAIL: $what"
	fi
}
zombie() {
	[ "$(awk '{ sub(/.*\) /, ""); print $1 }' "/proc/$1/stat" 2>/dev/null)" = Z ]
}

standin_range() { # standin_range N K PY
	local i=0 c bw
	export GIT_AUTHOR_NAME=test GIT_AUTHOR_EMAIL=test@iobisect.invalid
	export GIT_COMMITTER_NAME=test GIT_COMMITTER_EMAIL=test@iobisect.invalid
	git init -q repo
	for i in $(seq 1 "$1"); do
		echo "$i" >repo/f
		git -C repo add f
		git -C repo commit -qm "commit $i"
	done
	mkdir -p images
	i=0
	for c in $(git -C repo rev-list --reverse HEAD); do
		i=$((i + 1))
		bw=100000000
		[ $i -ge "$2" ] && bw=70000000
		"$3" "$root/tests/standin-qemu.py" --make-image $bw "images/${c:0:12}.bzImage"
	done
	good=$(git -C repo rev-list --reverse HEAD | head -1)
	tip=$(git -C repo rev-parse HEAD)
	culprit=$(git -C repo rev-list --reverse HEAD | sed -n "${2}p")
	# The stand-in under QEMU's name, run by this python (no shell between).
	sed "1s|.*|#!$3|" "$root/tests/standin-qemu.py" >qemu-system-x86_64
	chmod +x qemu-system-x86_64
	printf 'not a guest: the stand-in runs none\n' >guest
	export IOBISECT_GUEST=$S/guest
}
