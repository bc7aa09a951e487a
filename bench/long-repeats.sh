#!/usr/bin/env bash
# The integration tests' long repeats, which `make test` leaves out to keep
# to its time (bench/README.md, "The first run and `make test`"): the
# built-in engine's bisection of the demo series beside the fio job's
# (49-fio; 40-bisect bisects the same series in `make test`) and the Slurm
# multisection with --probes 3 beside 2 (46-slurm), and 40-bisect's
# moderate series (a drop near the noise). Each test prints its
# boots and wall time; the closing line is the runner's.
#
#   bench/long-repeats.sh [TEST-PATTERN]     (default: the three tests)
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x ./iobisect ] || make all
export IOBISECT_LONG=1
if [ $# -gt 0 ]; then
	IOBISECT_TESTS=$1 tests/run-integration.sh
else
	IOBISECT_TESTS=49-fio tests/run-integration.sh
	IOBISECT_TESTS=46-slurm tests/run-integration.sh
	IOBISECT_TESTS=40-bisect tests/run-integration.sh
fi
