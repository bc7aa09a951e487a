#!/usr/bin/env bash
# two-changes.sh: the fixture's two regressions three commits apart
# (branch iobisect-demo-two-changes, tests/jobs/two-changes-at-once.json;
# issue 47), bisected with `auto` and with a percentage line, N times each
# through bench/bisect-repeat.sh: right / wrong / inconclusive, boots, wall
# time, and how many runs named both changes (summary.json "changes").
# The line, 3%, is below the first change's drop (-4.4% on the virtual
# clock, the disk at once; the endpoints -7.8%): the first commit past it
# is t9, the answer, and t12 is reported beside it.
#
# usage: bench/two-changes.sh [--runs N] [--iobisect PATH] [--out DIR]
#   --iobisect PATH  the binary (this tree's ./iobisect; another tree's for
#                    the figures before a change)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
runs=10
iob=$root/iobisect
out=/tmp/iobisect-two-changes-$(date +%Y%m%d-%H%M%S)
while [ $# -gt 0 ]; do
	case $1 in
	--runs) runs=$2; shift 2 ;;
	--iobisect) iob=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	*) echo "usage: bench/two-changes.sh [--runs N] [--iobisect PATH] [--out DIR]" >&2; exit 2 ;;
	esac
done
for t in auto 3%; do
	"$here/bisect-repeat.sh" --runs "$runs" --threshold "$t" --modes bisect \
		--iobisect "$iob" --job "$root/tests/jobs/two-changes-at-once.json" \
		--out "$out/${t%\%}"
done
