#!/usr/bin/env python3
"""bvs-table.py OUT CULPRIT: the table of bench/bisect-vs-script from the raw
files it leaves in OUT (cold/warm .wall, .shim, -results/; script.steps,
script.wall, script.out; clean.steps). Writes OUT/table.md and prints it."""
import calendar
import glob
import json
import math
import os
import re
import statistics
import sys
import time

out, culprit = sys.argv[1], sys.argv[2]


def shim_calls(name):
    calls = []
    for line in open(os.path.join(out, name + ".shim")):
        tool, s, e, rc = line.split()
        calls.append((tool, float(s), float(e)))
    return calls


def shim(name):
    calls = shim_calls(name)
    make = [e - s for t, s, e in calls if t == "make"]
    # qemu --version probes (milliseconds) are not boots
    boots = [e - s for t, s, e in calls if t != "make" and e - s > 1.0]
    qemu_all = sum(e - s for t, s, e in calls if t != "make")
    return make, boots, qemu_all


def union(iv):
    """Total length of the union of intervals."""
    tot, end = 0.0, None
    for s, e in sorted(iv):
        if end is None or s > end:
            tot += e - s
            end = e
        elif e > end:
            tot += e - end
            end = e
    return tot


def critical_path(name):
    """Seconds of make, of boots, of both at once, and of either."""
    calls = shim_calls(name)
    mk = [(s, e) for t, s, e in calls if t == "make"]
    qm = [(s, e) for t, s, e in calls if t != "make" and e - s > 1.0]
    m, q, either = union(mk), union(qm), union(mk + qm)
    return dict(make=m, boot=q, both=m + q - either, either=either, makes=mk)


def boot_noise(name, makes):
    """Per-boot spread of ln(MB/s) around each commit's mean, for boots
    with a build running beside them (over half the boot) and without."""
    per = {}
    for f in glob.glob(os.path.join(out, name + "-results/demo/*/*/boot-*.json")):
        if "-sample-" in f:
            continue
        d = json.load(open(f))
        if d.get("outcome") != "ok":
            continue
        end = calendar.timegm(time.strptime(d["ended"], "%Y-%m-%dT%H:%M:%SZ"))
        start = end - d["boot_ns"] / 1e9
        bw = []
        pat = os.path.basename(f)[:-5] + "-sample-*.json"
        for sf in glob.glob(os.path.join(os.path.dirname(f), "*", pat)):
            x = json.load(open(sf))
            if not x.get("warmup") and x.get("read"):
                bw.append(x["read"]["bw_bytes"])
        if not bw:
            continue
        over = sum(max(0.0, min(e, end) - max(s, start)) for s, e in makes)
        per.setdefault(d["commit"], []).append((math.log(statistics.median(bw)),
                                                 over > (end - start) / 2))
    res = {True: [], False: []}
    for boots in per.values():
        if len(boots) < 2:
            continue
        m = statistics.mean(y for y, _ in boots)
        k = math.sqrt(len(boots) / (len(boots) - 1))
        for y, beside in boots:
            res[beside].append((y - m) * k)
    def sd(v):
        return (f"{100 * math.sqrt(sum(x * x for x in v) / len(v)):.1f}% "
                f"({len(v)} boots)") if v else "-"
    return sd(res[True]), sd(res[False])


def iob(name):
    s, e, rc = open(os.path.join(out, name + ".wall")).read().split()
    summ = json.load(open(os.path.join(out, name + "-results/demo/summary.json")))
    state = json.load(open(os.path.join(out, name + "-results/demo/bisect-state.json")))
    make, boots, qemu = shim(name)
    measured = {p["commit"] for p in state.get("probes", []) if p.get("boots_run")}
    return dict(wall=float(e) - float(s), rc=int(rc),
                culprit=(summ.get("culprit") or {}).get("id", "-"),
                confidence=summ.get("confidence"),
                builds=summ["builds"], cached=summ["builds_cached"],
                boots=summ["boots"], steps=summ["steps"],
                probes=len({p["commit"] for p in state.get("probes", [])}),
                measured=len(measured),
                make=sum(make), nmake=len(make), qemu=qemu, nboots=len(boots),
                boot_median=statistics.median(boots) if boots else 0)


def steps(name):
    p = os.path.join(out, name + ".steps")
    if not os.path.exists(p):
        return []
    return [l.split() for l in open(p) if l.startswith("step ")]


cold, warm = iob("cold"), iob("warm")
s, e = map(float, open(os.path.join(out, "script.wall")).read().split())
st = steps("script")
script = dict(wall=e - s, steps=len(st),
              build=sum(float(x[2]) for x in st),
              boot=sum(float(x[3]) for x in st),
              boots=sum(1 for x in st if x[4] != "-"))
sc = "-"
for l in open(os.path.join(out, "script.out")):
    if "is the first slow commit" in l:
        sc = l.split()[0]
cl = steps("clean")

L = []
L.append("| run | wall | vs iobisect warm | vs iobisect cold | builds | boots | culprit | where the time went |")
L.append("|---|---:|---:|---:|---|---:|---|---|")


def row(name, wall, builds, boots, c, note):
    L.append(f"| {name} | {wall / 60:.1f} min | {wall / warm['wall']:.2f}x | "
             f"{wall / cold['wall']:.2f}x | {builds} | {boots} | {c[:12]} | {note} |")


for n, r in (("iobisect bisect, cold cache", cold), ("iobisect bisect, warm cache", warm)):
    over = r["wall"] - r["make"] - r["qemu"]
    row(n, r["wall"], f"{r['builds']} ({r['cached']} from cache)", r["nboots"], r["culprit"],
        f"make {r['make']:.0f} s, QEMU {r['qemu']:.0f} s, other {over:.1f} s ({100 * over / r['wall']:.2f}%)")
row("hand-written `git bisect run` (incremental, no ccache)", script["wall"], script["steps"],
    script["boots"], sc, f"make {script['build']:.0f} s (first {float(st[0][2]):.0f} s), QEMU {script['boot']:.0f} s")
if cl:
    # The first clean step fills ccache for this tree (ccache keys include
    # the build folder, so iobisect's cache does not serve it); the steps
    # after it hit: first + (steps - 1) x the second.
    first = float(cl[0][2])
    later = float(cl[-1][2])
    per_boot = statistics.mean(float(x[3]) for x in cl)
    clean_wall = first + later * (script["steps"] - 1) + per_boot * script["steps"]
    row("clean build each step (`make mrproper`, ccache on), extrapolated", clean_wall,
        script["steps"], script["steps"], sc,
        f"{len(cl)} steps measured: {first:.0f} s (ccache cold for this tree), then {later:.0f} s")
    # A clean build without ccache: the script's builds up to its first
    # step that built (a fresh tree; a step that fails to build leaves the
    # rest of the tree to the next step).
    nocc = 0.0
    for x in st:
        nocc += float(x[2])
        if x[5] != "125":
            break
    row("clean build each step, no ccache, extrapolated", (nocc + per_boot) * script["steps"],
        script["steps"], script["steps"], sc,
        f"a clean build without ccache: {nocc:.0f} s (the script's builds up to its first good one)")
L.append("")
# Lower bound: the builds iobisect made (one cold, the rest incremental) and
# one boot per commit it probed, with nothing else: a script that knew the
# answer of each boot without statistics and wasted no time.
lb = cold["make"] + cold["probes"] * cold["boot_median"]
L.append(f"lower bound for iobisect's probes ({cold['probes']} commits, {cold['builds']} builds): "
         f"its make time {cold['make']:.0f} s + one {cold['boot_median']:.1f} s boot per commit "
         f"= {lb / 60:.1f} min; cold run / bound = {cold['wall'] / lb:.2f}x")
lbw = warm["probes"] * warm["boot_median"]
L.append(f"warm: one boot per commit = {lbw / 60:.1f} min; warm run / bound = {warm['wall'] / lbw:.2f}x "
         f"(the statistics: {warm['nboots']} boots instead of {warm['probes']})")
for n, r in (("cold", cold), ("warm", warm)):
    cp = critical_path(n)
    over = r["wall"] - cp["either"]
    L.append(f"harness overhead, {n}: {over:.1f} s of {r['wall']:.0f} s outside make and QEMU = "
             f"{100 * over / r['wall']:.2f}% ({r['nmake']} make runs, {r['nboots']} boots)")
    conf = r["confidence"]
    L.append(f"boots per probe, {n}: {r['nboots']} boots over {r['measured']} commits booted "
             f"({r['probes']} probed) = {r['nboots'] / max(1, r['measured']):.2f}; confidence "
             + (f"{100 * conf:.1f}%" if conf is not None else "-"))
    beside, alone = boot_noise(n, cp["makes"])
    L.append(f"critical path, {n}: make {cp['make']:.0f} s, boots {cp['boot']:.0f} s, overlapped "
             f"{cp['both']:.0f} s, either {cp['either']:.0f} s of {r['wall']:.0f} s wall; per-boot "
             f"noise with a build beside {beside}, without {alone}")
ok = cold["culprit"] == culprit and warm["culprit"] == culprit and sc != "-" and culprit.startswith(sc)
L.append(f"expected culprit {culprit}; same culprit from all: " + ("yes" if ok else
         f"NO (cold {cold['culprit']}, warm {warm['culprit']}, script {sc})"))
print("\n".join(L))
open(os.path.join(out, "table.md"), "w").write("\n".join(L) + "\n")
