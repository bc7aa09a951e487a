#!/usr/bin/env bash
# bisect-repeat.sh: how often a bisection of the demo's large branch (or of
# another job on a branch of the fixture, --job) names the right commit, on the default machine (the demo job without its
# "cpus": the noisy 2 vCPUs) with a percentage threshold, as a new user's
# job would be. The same bisection N times in a row, each with a fresh
# results folder (every boot made again; builds come from the image
# cache), through `iobisect bisect` and through `git bisect run iobisect
# test` in a throwaway clone of the fixture. A right answer once says
# little: the figure is how many of N are wrong (issue 24).
#
# Per run one line: mode, run, exit code, the commit named, right / wrong /
# inconclusive / not-apart (exit 2: the endpoints not separated) / error (the
# run aborted), boots, wall time, confidence, and the branch's changes named
# (summary.json "changes"; a branch with more than one, as
# iobisect-demo-two-changes, prints "change" lines beside its "culprit":
# k of N, the answer counted); then per mode the counts, mean boots and
# mean wall time, and the runs that named every change. With auto, a
# branch of two changes takes either as a right answer (the level between
# them, nearer one or the other, decides which); with a line, only its
# "culprit", the first commit past the line. Raw files (job, logs, results, runs.tsv, table.txt)
# stay in --out.
#
# usage: bench/bisect-repeat.sh [--runs N] [--threshold T] [--out DIR]
#                               [--iobisect PATH] [--modes bisect,gitbisect]
#                               [--job FILE]
#   --runs N         bisections per mode (5)
#   --threshold T    the job's "threshold": "25%", "50MB/s" or "auto" (25%)
#   --iobisect PATH  the binary to measure (this tree's ./iobisect)
#   --modes LIST     bisect (iobisect bisect), gitbisect (git bisect run
#                    iobisect test), or both, comma-separated
#   --job FILE       the job (tests/jobs/demo.json); its "bad" is a branch
#                    of tests/fixture/demo-series.sh, whose culprit is right
#                    (tests/jobs/upstream-readahead.json: a real regression)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
runs=5
threshold=25%
out=/tmp/iobisect-repeat-$(date +%Y%m%d-%H%M%S)
iob=$root/iobisect
modes=bisect,gitbisect
jobfile=$root/tests/jobs/demo.json
while [ $# -gt 0 ]; do
	case $1 in
	--runs) runs=$2; shift 2 ;;
	--threshold) threshold=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--iobisect) iob=$2; shift 2 ;;
	--modes) modes=$2; shift 2 ;;
	--job) jobfile=$2; shift 2 ;;
	*) echo "usage: bench/bisect-repeat.sh [--runs N] [--threshold T] [--out DIR] [--iobisect PATH] [--modes bisect,gitbisect] [--job FILE]" >&2; exit 2 ;;
	esac
done
[[ $runs =~ ^[1-9][0-9]*$ ]] || { echo "bisect-repeat: --runs wants a positive number" >&2; exit 2; }
iob=$(cd "$(dirname "$iob")" && pwd)/$(basename "$iob")
[ -x "$iob" ] || { echo "bisect-repeat: '$iob' is not executable (run make)" >&2; exit 2; }
for m in ${modes//,/ }; do
	case $m in bisect | gitbisect) ;; *) echo "bisect-repeat: unknown mode '$m'" >&2; exit 2 ;; esac
done

# shellcheck source=/dev/null
. "$root/tests/integration/lib.sh"
repo=$(fixture_repo)
series=$("$root/tests/fixture/demo-series.sh" 2>/dev/null)
branch=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["bad"])' "$jobfile")
culprit=$(awk -v b="$branch" '$1 == "culprit" && $2 == b { print $3 }' <<<"$series")
[ -n "$culprit" ] || { echo "bisect-repeat: demo-series printed no culprit" >&2; exit 1; }
# Every change of the branch, the culprit first.
changes="$culprit $(awk -v b="$branch" '$1 == "change" && $2 == b { printf "%s ", $3 }' <<<"$series")"
mkdir -p "$out"
out=$(cd "$out" && pwd)

# The demo job as a user would leave it: the default machine (no "cpus")
# and the threshold asked for, on the fixture by its absolute path.
python3 - "$jobfile" "$out/job.json" "$repo" "$threshold" <<'PY'
import json, sys
src, dst, repo, threshold = sys.argv[1:]
job = json.load(open(src))
job["name"] = "bench-repeat"
job["repo"] = repo
job["machine"].pop("cpus", None)
job["threshold"] = threshold
json.dump(job, open(dst, "w"), indent=2)
PY

now() { date +%s.%N; }

# boots DIR: the boots stored under a results folder (one boot-N.json each).
boots() { find "$1" -name 'boot-*.json' ! -name 'boot-*-sample-*' 2>/dev/null | wc -l; }

verdict() { # NAMED -> right, wrong or inconclusive
	if [ -z "$1" ] || [ "$1" = - ]; then
		echo inconclusive
	elif [ "$1" = "$culprit" ] ||
		{ [ "$threshold" = auto ] && [[ " $changes " == *" $1 "* ]]; }; then
		echo right
	else
		echo wrong
	fi
}

run_bisect() { # K: one `iobisect bisect`; prints its fields
	local d=$out/bisect-$1 rc=0 t0 t1 named conf found
	rm -rf "$d" && mkdir -p "$d"
	t0=$(now)
	"$iob" bisect "$out/job.json" --results "$d/results" >"$d/out.log" 2>"$d/err.log" || rc=$?
	t1=$(now)
	read -r named conf found < <(python3 - "$d/results" $changes <<'PY'
import glob, json, sys
s = glob.glob(sys.argv[1] + "/**/summary.json", recursive=True)
want = sys.argv[2:]
j = json.load(open(s[0])) if s else {}
c = (j.get("culprit") or {}).get("id") or "-"
conf = j.get("confidence")
got = {x.get("commit") for x in j.get("changes") or []} | {c}
print(c, "%.3f" % conf if isinstance(conf, (int, float)) else "-",
      "%d/%d" % (sum(w in got for w in want), len(want)))
PY
)
	# Only exit 0 names a culprit; a likelier one below the target is not.
	[ "$rc" = 0 ] || named=-
	local v
	v=$(verdict "$named")
	[ "$rc" != 2 ] || v=not-apart
	[ "$rc" -lt 128 ] || v=error
	[ "$rc" = 0 ] || found=0/${found#*/}
	echo "$rc $named $v $(boots "$d/results") $(awk "BEGIN { printf \"%.0f\", $t1 - $t0 }") $conf $found"
}

run_gitbisect() { # K: one `git bisect run iobisect test` in a throwaway clone
	local d=$out/gitbisect-$1 rc=0 t0 t1 named
	rm -rf "$d" && mkdir -p "$d"
	# iobisect test reads HEAD only and builds from the job's repository,
	# so the clone's tree is sparse (the top-level files): a throwaway
	# clone without writing a whole kernel tree for every run.
	git clone -q --shared --no-checkout "$repo" "$d/linux"
	git -C "$d/linux" sparse-checkout set --cone >/dev/null 2>&1
	git -C "$d/linux" checkout -q --detach v6.1
	t0=$(now)
	(
		cd "$d/linux"
		git bisect start --term-old fast --term-new slow "origin/$branch" v6.1 >/dev/null
		git bisect run "$iob" test "$out/job.json" --results "$d/results"
	) >"$d/out.log" 2>&1 || rc=$?
	t1=$(now)
	named=$(awk '/is the first slow commit/ { print $1; exit }' "$d/out.log")
	git -C "$d/linux" bisect reset >/dev/null 2>&1 || true
	rm -rf "$d/linux"
	if [ "$rc" != 0 ] && [ -z "$named" ] && ! grep -q "only 'skip'ped commits left" "$d/out.log"; then
		echo "$rc - error $(boots "$d/results") $(awk "BEGIN { printf \"%.0f\", $t1 - $t0 }") - -"
		return
	fi
	echo "$rc ${named:--} $(verdict "$named") $(boots "$d/results") $(awk "BEGIN { printf \"%.0f\", $t1 - $t0 }") - -"
}

echo "# $(date -u +%FT%TZ) $iob, threshold $threshold, default machine, culprit $culprit, $runs runs per mode" | tee "$out/table.txt"
printf '%-9s %3s %4s %-12s %-12s %5s %6s %5s %7s\n' mode run exit named verdict boots wall_s conf changes | tee -a "$out/table.txt"
: >"$out/runs.tsv"
for m in ${modes//,/ }; do
	for k in $(seq 1 "$runs"); do
		echo "bisect-repeat: $m run $k of $runs ($(date -u +%T))" >&2
		read -r rc named v b w conf found < <("run_$m" "$k")
		printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$m" "$k" "$rc" "$named" "$v" "$b" "$w" "$conf" "$found" >>"$out/runs.tsv"
		printf '%-9s %3s %4s %-12s %-12s %5s %6s %5s %7s\n' "$m" "$k" "$rc" "${named:0:12}" "$v" "$b" "$w" "$conf" "$found" | tee -a "$out/table.txt"
	done
done
echo | tee -a "$out/table.txt"
awk -F'\t' '
	{ n[$1]++; c[$1, $5]++; b[$1] += $6; w[$1] += $7; split($9, f, "/"); all[$1] += f[1] != "" && f[1] == f[2]; if (!($1 in seen)) { seen[$1] = 1; order[++nm] = $1 } }
	END {
		printf "%-9s %4s %5s %5s %5s %9s %5s %7s %7s %5s\n", "mode", "runs", "right", "wrong", "incon", "not-apart", "error", "boots", "wall_s", "all"
		for (i = 1; i <= nm; i++) {
			m = order[i]
			printf "%-9s %4d %5d %5d %5d %9d %5d %7.1f %7.0f %5d\n", m, n[m], c[m, "right"], c[m, "wrong"], c[m, "inconclusive"], c[m, "not-apart"], c[m, "error"], b[m] / n[m], w[m] / n[m], all[m]
		}
	}' "$out/runs.tsv" | tee -a "$out/table.txt"
echo "bisect-repeat: $out/table.txt" >&2
