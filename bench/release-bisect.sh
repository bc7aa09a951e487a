#!/usr/bin/env bash
# release-bisect.sh: iobisect against a plain `git bisect run` script on a
# release-shaped range (issue 46): tests/fixture/release-history.sh's
# history (400 commits in 8 merged topic branches by default, most of them
# on files an x86 kernel never compiles, the demo's readahead slowdown
# inside one branch, one commit that does not build), bisected v6.1..tip
#   iob-cold     iobisect bisect with the demo job (tests/jobs/demo.json,
#                only its "repo" and "bad" changed, as tests/demo.sh does):
#                a fresh XDG_CACHE_HOME (no source tree, build folders or
#                images) and an empty CCACHE_DIR;
#   iob-warm     the same with another fresh XDG_CACHE_HOME and the ccache
#                iob-cold filled (every build is made again, from ccache
#                hits: iobisect's base_dir makes the paths match);
#   script-cold  bench/handwritten-bisect.sh under `git bisect run` in a
#                fresh clone: olddefconfig + bzImage in one tree with the
#                .config iob-cold built, CC="ccache gcc", one boot per
#                commit, an empty CCACHE_DIR;
#   script-warm  the same in a fresh clone at the same path, on the ccache
#                script-cold filled.
# Runs in that order; prints one table (builds, objects compiled, boots,
# commits probed, wall time, the commit named, right or wrong) and the
# probes against log2 of the range's commits and of the commits that can
# change the kernel (from iobisect's "[bisect] N commits, M can change
# this kernel" line; "-" when it printed none). Hours on 2 cores.
#
# Objects compiled are ccache's counts for the run's own CCACHE_DIR (zeroed
# before it): hits + misses, the misses in brackets (compiled for real).
# iobisect passes HOSTCC through ccache too (the build's host tools), the
# script only CC. A build is a make of one commit (iobisect: summary.json's
# "builds"; the script: one a step); a boot one QEMU run with a
# measurement (iobisect: the boot-N.json documents; the script: the steps
# that booted). Probed: the commits measured other than the two endpoints
# (iobisect: bisect-state.json's probes whose role is not good or bad).
#
# usage: bench/release-bisect.sh [--commits N] [--branches B] [--seed S]
#                                [--out DIR] [--iobisect PATH]
# Raw files (job, logs, results, ccache stats, steps) stay in --out
# (default /tmp/iobisect-release-<time>); the caches and clones are
# removed after each run.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
commits=400 branches=8 seed=1
out=/tmp/iobisect-release-$(date +%Y%m%d-%H%M%S)
iob=$root/iobisect
usage() {
	echo "usage: bench/release-bisect.sh [--commits N] [--branches B] [--seed S] [--out DIR] [--iobisect PATH]" >&2
	exit 2
}
while [ $# -gt 0 ]; do
	[ $# -ge 2 ] || usage
	case $1 in
	--commits) commits=$2 ;;
	--branches) branches=$2 ;;
	--seed) seed=$2 ;;
	--out) out=$2 ;;
	--iobisect) iob=$2 ;;
	*) usage ;;
	esac
	shift 2
done
for v in "--commits:$commits" "--branches:$branches" "--seed:$seed"; do
	[[ ${v#*:} =~ ^[0-9]{1,9}$ ]] || { echo "release-bisect: ${v%%:*} '${v#*:}' is not a whole number" >&2; exit 2; }
done
[ -d "$(dirname "$iob")" ] || { echo "release-bisect: --iobisect '$iob': no such folder" >&2; exit 2; }
iob=$(cd "$(dirname "$iob")" && pwd)/$(basename "$iob")
mkdir -p "$out"
out=$(cd "$out" && pwd)
now() { date +%s.%N; }
note() { printf '%s  %s  (load %s)\n' "$(date +%H:%M:%S)" "$*" "$(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$out/log"; }

# The history first (it checks its arguments), then the program, the
# guest and the script's guest binary.
# shellcheck source=/dev/null
. "$root/tests/integration/lib.sh"
repo=$(fixture_repo)
"$root/tests/fixture/release-history.sh" --repo "$repo" --commits "$commits" \
	--branches "$branches" --seed "$seed" >"$out/history.env"
field() { sed -n "s/^$1=//p" "$out/history.env"; }
branch=$(field BAD)
culprit=$(field CULPRIT)
if [ -z "$branch" ] || [ -z "$culprit" ]; then
	echo "release-bisect: release-history.sh printed no branch or culprit" >&2
	exit 1
fi
make -C "$root" -s >/dev/null
[ -x "$iob" ] || { echo "release-bisect: '$iob' is not executable (run make)" >&2; exit 2; }

python3 - "$root/tests/jobs/demo.json" "$out/job.json" "$repo" "$branch" <<'PY'
import json, sys
src, dst, repo, branch = sys.argv[1:]
job = json.load(open(src))
job["name"] = "release"
job["repo"] = repo
job["bad"] = branch
json.dump(job, open(dst, "w"), indent=2)
PY

ccache_zero() { CCACHE_DIR=$1 ccache --zero-stats >/dev/null; }
ccache_save() { CCACHE_DIR=$1 ccache --print-stats >"$2"; }

run_iob() { # NAME: one `iobisect bisect` on a fresh XDG_CACHE_HOME
	local name=$1 cache=$out/$1-cache rc=0 t0 t1
	rm -rf "$cache" "$out/$name-results"
	mkdir -p "$cache" "$out/ccache-iob"
	ccache_zero "$out/ccache-iob"
	note "$name: iobisect bisect"
	t0=$(now)
	XDG_CACHE_HOME=$cache CCACHE_DIR=$out/ccache-iob \
		"$iob" bisect "$out/job.json" --results "$out/$name-results" \
		>"$out/$name.out" 2>"$out/$name.err" || rc=$?
	t1=$(now)
	echo "$t0 $t1 $rc" >"$out/$name.wall"
	ccache_save "$out/ccache-iob" "$out/$name.ccache"
	# The .config it built from (the script's), then the caches go.
	if [ ! -f "$out/config" ]; then
		# The job's own config folder, not a variant's (<hash>-<hash>).
		local cfg
		for cfg in "$cache"/iobisect/trees/*/0/obj/*/; do
			case $(basename "$cfg") in *-*) continue ;; esac
			if [ -f "$cfg/.config" ]; then
				cp "$cfg/.config" "$out/config"
				break
			fi
		done
	fi
	rm -rf "$cache"
	note "$name: exit $rc in $(echo "$t1 - $t0" | bc) s"
}

run_script() { # NAME: `git bisect run` of the hand-written script in a fresh clone
	local name=$1 tree=$out/script-tree t0 t1
	rm -rf "$tree"
	git clone -q --no-checkout "$repo" "$tree"
	git -C "$tree" checkout -q --detach v6.1
	cp "$out/config" "$tree/.config"
	mkdir -p "$out/ccache-script"
	ccache_zero "$out/ccache-script"
	: >"$out/$name.steps"
	note "$name: git bisect run bench/handwritten-bisect.sh"
	t0=$(now)
	(
		cd "$tree"
		git bisect start --term-old fast --term-new slow "origin/$branch" v6.1 >/dev/null
		HB_LOG=$out/$name.steps HB_CC="ccache gcc" CCACHE_DIR=$out/ccache-script \
			git bisect run "$here/handwritten-bisect.sh" >"$out/$name.out" 2>&1 || true
	)
	t1=$(now)
	echo "$t0 $t1 0" >"$out/$name.wall"
	ccache_save "$out/ccache-script" "$out/$name.ccache"
	rm -rf "$tree"
	note "$name: $(echo "$t1 - $t0" | bc) s"
}

rm -rf "$out/ccache-iob" "$out/ccache-script" "$out/config"
run_iob iob-cold
run_iob iob-warm
[ -f "$out/config" ] || { echo "release-bisect: iob-cold left no .config for the script" >&2; exit 1; }
run_script script-cold
run_script script-warm

python3 - "$out" "$culprit" "$repo" "$branch" <<'PY' | tee "$out/table.txt"
import glob, json, math, os, re, subprocess, sys
out, culprit, repo, branch = sys.argv[1:]
env = dict(l.rstrip("\n").split("=", 1) for l in open(os.path.join(out, "history.env")) if "=" in l)
total = int(subprocess.run(["git", "-C", repo, "rev-list", "--count", f"v6.1..{branch}"],
                           capture_output=True, text=True, check=True).stdout)


def ccache(name):
    st = {}
    for line in open(os.path.join(out, name + ".ccache")):
        k, _, v = line.partition("\t")
        if v.strip().isdigit():
            st[k] = int(v)
    hits = st.get("direct_cache_hit", 0) + st.get("preprocessed_cache_hit", 0)
    miss = st.get("cache_miss", 0)
    return f"{hits + miss} ({miss})"


def wall(name):
    t0, t1, rc = open(os.path.join(out, name + ".wall")).read().split()
    return float(t1) - float(t0), int(rc)


def verdict(named):
    return "none" if named in ("", "-") else "right" if named == culprit else "wrong"


can_change = None
rows = []
for name in ("iob-cold", "iob-warm"):
    w, rc = wall(name)
    d = os.path.join(out, name + "-results")
    s = glob.glob(d + "/**/summary.json", recursive=True)
    summ = json.load(open(s[0])) if s else {}
    named = ((summ.get("culprit") or {}).get("id") or "-") if rc == 0 else "-"
    st = glob.glob(d + "/**/bisect-state.json", recursive=True)
    probes = json.load(open(st[0])).get("probes", []) if st else []
    probed = len({p["commit"] for p in probes if p.get("role") not in ("good", "bad")})
    boots = len([f for f in glob.glob(d + "/**/boot-*.json", recursive=True) if "-sample-" not in f])
    for f in (name + ".out", name + ".err"):
        m = re.search(r"\[bisect\] (\d+) commits, (\d+) can change this kernel",
                      open(os.path.join(out, f), errors="replace").read())
        if m and can_change is None:
            can_change = int(m.group(2))
    builds = f"{summ['builds']} ({summ.get('builds_cached', 0)} cached)" if "builds" in summ else "-"
    rows.append((name, builds, ccache(name), str(boots), str(probed),
                 w, named, f"{verdict(named)} (exit {rc})"))
for name in ("script-cold", "script-warm"):
    w, _ = wall(name)
    steps = [l.split() for l in open(os.path.join(out, name + ".steps")) if l.startswith("step ")]
    named = "-"
    for l in open(os.path.join(out, name + ".out"), errors="replace"):
        if "is the first slow commit" in l:
            named = l.split()[0]
    boots = sum(1 for x in steps if float(x[3]) > 0)
    rows.append((name, str(len(steps)), ccache(name), str(boots), str(len(steps)), w, named,
                 verdict(named)))

print(f"# {branch}: v6.1..{env.get('BAD_COMMIT', '?')[:12]}, culprit {culprit[:12]}")
print("| run | builds | objects compiled (misses) | boots | commits probed | wall | named | |")
print("|---|---:|---:|---:|---:|---:|---|---|")
for n, b, o, bt, p, w, named, v in rows:
    print(f"| {n} | {b} | {o} | {bt} | {p} | {w / 60:.1f} min | {named[:12]} | {v} |")
cc = f"{can_change} (log2 {math.log2(can_change):.1f})" if can_change else "- (iobisect printed no count)"
print(f"\nrange: {total} commits (log2 {math.log2(total):.1f}); can change this kernel, "
      f"as iobisect counts: {cc}; touching compiled files, as the generator made them: "
      f"{env.get('COMPILED_COMMITS', '-')} of {total - int(env.get('MERGES', 0))} non-merge commits "
      f"({env.get('HEADER_COMMITS', '-')} header commits, {env.get('HEADERS', '-')})")
PY
note "done: $out/table.txt"
