#!/usr/bin/env bash
# check-layers.sh DIR...: the harness's folders, bottom layer first (the
# Makefile's HARNESS_DIRS, docs/layers.md). Fails when a file includes a
# header of a folder above its own: an include never runs up the layers.
# A header is named by its file name alone (every folder is on the include
# path), so the folder that holds it is the one it comes from. Folders in
# one layer (kernel and boot: neither includes the other) still keep an
# order here, so that two never include each other.
#
#   layers: N includes, N upward
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
[ $# -gt 0 ] || { echo "usage: check-layers.sh DIR..." >&2; exit 2; }
declare -A rank=() owner=()
i=0
for d in "$@"; do
	rank[$d]=$i; i=$((i + 1))
	[ -d "$root/harness/$d" ] || { echo "layers: no folder harness/$d" >&2; exit 2; }
done
for f in "$root"/harness/*/*.[ch]; do
	d=${f%/*}; d=${d##*/}
	[ -n "${rank[$d]+x}" ] || { echo "layers: harness/$d is in no layer (HARNESS_DIRS)" >&2; exit 1; }
	owner[${f##*/}]=$d
done
n=0 up=0
for f in "$root"/harness/*/*.[ch]; do
	d=${f%/*}; d=${d##*/}
	while read -r h; do
		[ -n "${owner[$h]+x}" ] || continue
		n=$((n + 1))
		t=${owner[$h]}
		if [ "${rank[$t]}" -gt "${rank[$d]}" ]; then
			echo "layers: harness/$d/${f##*/} includes $h, of $t, a layer above $d"
			up=$((up + 1))
		fi
	done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"/]*\)".*/\1/p' "$f")
done
echo "layers: $n includes, $up upward"
[ $up -eq 0 ]
