#!/usr/bin/env bash
# long-functions.sh [MAX] [FILE...]: names every C function longer than MAX
# lines (120: a screen), its body counted from its opening brace to its
# closing one. A long function is read as one piece and changed as one;
# split into named steps, each can be read alone. With no files, it reads
# the harness, the guest and the QEMU plugin. The project's style (Linux
# braces, .clang-format) puts a function's braces alone at column 0, and
# nothing else there, so no parser is needed.
#
#   long functions: N over MAX lines
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
max=${1:-120}
[ $# -gt 0 ] && shift
case $max in '' | *[!0-9]*) echo "usage: long-functions.sh [MAX] [FILE...]" >&2; exit 2 ;; esac
if [ $# -eq 0 ]; then
	set -- "$root"/harness/*/*.c "$root"/workloads/*.c "$root"/qemu/plugin/*.c
fi
awk -v max="$max" -v root="$root/" '
FNR == 1 { name = ""; open = 0 }
# A declarator at column 0: the last one before a lone brace names the body.
!open && /^[A-Za-z_].*\(/ {
	s = $0; sub(/\(.*/, "", s); n = split(s, w, /[^A-Za-z0-9_]+/)
	name = w[n] != "" ? w[n] : w[n - 1]
}
/^\{/ && !open { open = FNR; next }
/^\}/ && open {
	len = FNR - open + 1
	if (len > max) {
		f = FILENAME; sub("^" root, "", f)
		printf "%s:%d: %s is %d lines\n", f, open, name, len
		over++
	}
	open = 0
}
END {
	printf "long functions: %d over %d lines\n", over + 0, max
	exit over > 0
}' "$@"
