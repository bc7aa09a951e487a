#!/usr/bin/env bash
# What ccache costs a cold kernel build: the same part of v6.1 (block/ and
# mm/ by default, with the demo's .config) compiled with plain gcc, through
# ccache into an empty cache, and through ccache's depend mode into an
# empty cache, and depend mode with ccache's inode cache (hashes of headers
# kept across compiles) and without compression. Prints CPU seconds (user + sys of make and all it ran) as
# well as wall time: on a shared machine the wall time says more about the
# neighbours than about ccache.
#
#   bench/ccache-cold.sh [--config FILE] [--dirs "block/ mm/"] [--work DIR]
#                        [--modes "plain ccache depend inode nocompress"]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
config=$HOME/.cache/iobisect/trees/*/0/obj/*/.config
dirs="block/ mm/"
work=/tmp/iobisect-ccache-cold
modes="plain ccache depend inode nocompress"
while [ $# -gt 0 ]; do
	case $1 in
	--config) config=$2; shift 2 ;;
	--dirs) dirs=$2; shift 2 ;;
	--work) work=$2; shift 2 ;;
	--modes) modes=$2; shift 2 ;;
	*) echo "usage: $0 [--config FILE] [--dirs DIRS] [--work DIR] [--modes MODES]" >&2; exit 2 ;;
	esac
done
config=$(ls $config 2>/dev/null | head -1)
[ -f "$config" ] || { echo "no .config: build the demo first or pass --config" >&2; exit 1; }
repo=$("$root/tests/fixture/kernel-repo.sh")
src=$work/src obj=$work/obj cache=$work/ccache
rm -rf "$work"; mkdir -p "$src" "$obj"
git -C "$repo" archive v6.1 | tar -x -C "$src"
cp "$config" "$obj/.config"
export KBUILD_BUILD_TIMESTAMP="Thu Jan  1 00:00:00 UTC 1970" LANG=C
make -s -C "$src" O="$obj" ARCH=x86_64 olddefconfig >/dev/null
make -s -C "$src" O="$obj" ARCH=x86_64 -j"$(nproc)" prepare >/dev/null 2>&1
for mode in $modes; do
	for d in $dirs; do
		find "$obj/$d" \( -name '*.o' -o -name '*.cmd' -o -name '*.a' \) -delete 2>/dev/null || true
	done
	rm -rf "$cache"; mkdir -p "$cache"
	case $mode in
	plain) cc=gcc extra=() ;;
	ccache) cc="ccache gcc" extra=() ;;
	depend) cc="ccache gcc" extra=(CCACHE_DEPEND=1) ;;
	inode) cc="ccache gcc" extra=(CCACHE_DEPEND=1 CCACHE_INODECACHE=1) ;;
	nocompress) cc="ccache gcc" extra=(CCACHE_DEPEND=1 CCACHE_INODECACHE=1 CCACHE_NOCOMPRESS=1) ;;
	*) echo "unknown mode '$mode'" >&2; exit 2 ;;
	esac
	/usr/bin/time -f "%e %U %S" -o "$work/time" env CCACHE_DIR="$cache" "${extra[@]}" \
		make -s -C "$src" O="$obj" ARCH=x86_64 -j"$(nproc)" CC="$cc" $dirs >"$work/$mode.log" 2>&1
	read -r wall user sys <"$work/time"
	printf '%-7s wall %7.1f s  cpu %7.1f s\n' "$mode" "$wall" "$(echo "$user + $sys" | bc)"
done
rm -rf "$work"
