# shellcheck shell=bash
# standin-lib.sh: what the harnesses that run iobisect against a stand-in
# QEMU share (concurrent-boots.sh, killed-harness.sh). Sourced with the
# harness's name as $1 and the binary (or nothing) as $2, it sets root,
# bin and a scratch folder S that is HOME, the cache and the working
# folder, and defines:
#
#   check WHAT TEST...  run TEST; count it, and say "NAME: FAIL: WHAT" if it fails
#   zombie PID          true when PID has ended and waits to be reaped
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
