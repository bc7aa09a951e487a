#!/usr/bin/env bash
# What `make demo` runs (after `make all`): makes the kernel fixture
# repository from Debian's linux-source-6.1 (once), adds the demo series
# (tests/fixture/demo-series.sh: a dozen commits after v6.1, one of which
# shrinks the block device readahead window), and bisects it with the
# built-in job tests/jobs/demo.json. The report is printed at the end and
# kept in results/demo/report.txt (summary.json beside it).
#
# The first run builds v6.1 cold (~4-6 min on 2 cores); the commits after
# it are incremental builds. Running it again resumes or, when done,
# answers at once from the stored results and the build cache.
set -euo pipefail
cd "$(dirname "$0")/.."
. tests/integration/lib.sh

repo=$(fixture_repo)
tests/fixture/demo-series.sh >/dev/null
job=tests/jobs/demo.json
# The job names the fixture at its default place; follow XDG_CACHE_HOME.
if [ "$repo" != "$HOME/.cache/iobisect/fixture/linux" ]; then
	mkdir -p results
	sed "s|\"~/.cache/iobisect/fixture/linux\"|\"$repo\"|" "$job" >results/demo-job.json
	job=results/demo-job.json
fi
[ -x ./iobisect ] || make all
start=$(date +%s)
rc=0
./iobisect bisect "$job" || rc=$?
echo "demo: iobisect bisect exited $rc after $(( $(date +%s) - start ))s" >&2
exit $rc
