#!/usr/bin/env bash
# cli-table.sh [IOBISECT]: every command answers its command line the one
# way options.c gives them all, as git and fio do: -h and --help print the
# usage on stdout and exit 0 (the same text as `iobisect help CMD`); an
# unknown option, or an option's missing value, is one error line naming
# it and the short usage on stderr, exit 128, nothing on stdout. One row a
# command; each runs in a scratch folder and needs no kernel. The closing
# line counts the checks:
#
#   cli-table: N checks, N as expected, N not
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
bin=$(realpath "${1:-$root/iobisect}")
[ -x "$bin" ] || { echo "cli-table: '$bin' is not built" >&2; exit 1; }
S=$(mktemp -d /tmp/cli-table.XXXXXX)
trap 'rm -rf "$S"' EXIT
export HOME=$S/home XDG_CACHE_HOME=$S/cache IOBISECT_DATA=$root LC_ALL=C
mkdir -p "$HOME"
cd "$S"

n=0 ok=0 failed=0

# expect WHAT RC STREAM PATTERN -- ARGS: exit RC; PATTERN (an extended
# regex) matches the first line of STREAM (out or err), the other stream
# is empty; for err, the short usage follows: the usage line(s), no
# option's, and where the rest is.
expect() {
	local what=$1 rc=$2 stream=$3 pattern=$4 why= got other
	shift 5
	n=$((n + 1))
	"$bin" "$@" >"$S/out" 2>"$S/err" </dev/null
	got=$?
	if [ "$stream" = out ]; then other=err; else other=out; fi
	if [ "$got" != "$rc" ]; then
		why="exit $got, not $rc"
	elif ! head -1 "$S/$stream" | grep -qE -e "$pattern"; then
		why="std$stream's first line is not /$pattern/"
	elif [ -s "$S/$other" ]; then
		why="std$other is not empty"
	elif [ "$stream" = err ] && ! sed -n 2p "$S/err" | grep -q "^usage: iobisect $1 "; then
		why="no usage line under the error"
	elif [ "$stream" = err ] && grep -q '^  -' "$S/err"; then
		why="the whole usage, not the short one"
	elif [ "$stream" = err ] && [ "$(tail -1 "$S/err")" != "'iobisect $1 --help' lists its options" ]; then
		why="no pointer to '$1 --help' at the end"
	fi
	if [ -z "$why" ]; then
		ok=$((ok + 1))
	else
		failed=$((failed + 1))
		printf 'cli-table: FAIL %s: iobisect %s: %s\n' "$what" "$*" "$why"
		sed 's/^/    /' "$S/$stream" | head -3
	fi
}

# command, an option of it that takes a value ('' none)
rows=(
	"bisect --results"
	"test --repo"
	"sweep --range"
	"run --results"
	"build --repo"
	"measure --commit"
	"profile --commit"
	"report --html"
	"compare --results"
	"upload --url"
	"version "
)
for row in "${rows[@]}"; do
	read -r cmd valued <<<"$row"
	for h in --help -h; do
		expect help 0 out "^usage: iobisect $cmd " -- "$cmd" "$h"
	done
	# The usage --help prints is `iobisect help CMD`'s.
	n=$((n + 1))
	if [ "$("$bin" "$cmd" --help 2>&1)" = "$("$bin" help "$cmd" 2>&1)" ]; then
		ok=$((ok + 1))
	else
		failed=$((failed + 1))
		echo "cli-table: FAIL '$cmd --help' is not 'help $cmd'"
	fi
	expect unknown 128 err "^error: unknown option '--bogus'$" -- "$cmd" --bogus
	expect unknown= 128 err "^error: unknown option '--bogus'$" -- "$cmd" --bogus=1
	[ -n "$valued" ] &&
		expect no-value 128 err "^error: option '$valued' needs a value$" -- "$cmd" "$valued"
done
expect help 0 out '^usage: iobisect <command>' -- --help
expect help 0 out '^usage: iobisect <command>' -- -h
expect help 0 out '^usage: iobisect <command>' -- help

echo "cli-table: $n checks, $ok as expected, $failed not"
[ "$failed" = 0 ]
