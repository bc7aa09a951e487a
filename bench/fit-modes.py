#!/usr/bin/env python3
"""fit-modes.py: the machine model of bench/sensitivity (-m RATE,OFFSET,HOLD
and the within-mode spread of -g) fitted to boots of ONE kernel, in the
order the machine ran them.

The per-boot value is the median of the boot's samples (as the results
store's loader and every verdict reduce a boot). On the log scale the
boots are fitted with the model sensitivity simulates: a two-state Markov
chain on boots (normal to slow with probability RATE per boot, slow to
normal with 1 / HOLD), each state a normal of one shared spread, whose
means are OFFSET apart (a hidden Markov model, fitted by Baum-Welch from
several starts, the best likelihood kept). Beside it, for comparison, one
normal, and two normals drawn independently boot by boot (a mixture, no
hold). Each boot is then put in its likelier mode, to show the runs and to
count entries and exits (the same estimates on the observed path).

With 30 boots a mode met twice is a rough estimate: 90% intervals
(Clopper-Pearson on those counts) are printed beside the point values,
BIC says whether two modes describe the boots better than one, and the
lag-1 autocorrelation, against the same boots shuffled, whether slow boots
come in runs (without assuming any mode model).

usage: bench/fit-modes.py [--metric read] [--point ID] [--list] DIR...
  DIR: a results folder of `iobisect run JOB --boots N --results DIR`
  (or any folder below one), one kernel; several folders are several
  sequences (their modes are fitted together, transitions only within a
  folder, since the machine's state between two runs is not known).
  --list prints the per-boot values in time order with their mode.
"""
import argparse
import glob
import json
import math
import os
import random
import statistics
import sys


def boots_of(folder, metric, point):
    """Per-boot medians (MB/s) of one folder, in time order."""
    per = {}
    keys = set()
    for path in glob.glob(os.path.join(folder, "**", "boot-*-sample-*.json"),
                          recursive=True):
        with open(path) as f:
            doc = json.load(f)
        if not doc.get("complete") or doc.get("outcome", "ok") not in ("ok", ""):
            continue
        if point and doc.get("point") != point:
            continue
        m = doc.get(metric) or {}
        if "bw_bytes" not in m:
            continue
        # The loader's never-pool rule: one build, one spec, one machine.
        keys.add((doc.get("build_key"), doc.get("spec_hash"),
                  json.dumps(doc.get("machine"), sort_keys=True)))
        b = (os.path.dirname(os.path.dirname(path)), doc.get("boot"))
        e = per.setdefault(b, {"started": doc.get("started", ""),
                               "boot": doc.get("boot", 0), "v": []})
        e["v"].append(m["bw_bytes"] / 1e6)
    if len(keys) > 1:
        sys.exit("fit-modes: '%s' holds boots of %d builds, specs or "
                 "machines; give one kernel's folder" % (folder, len(keys)))
    order = sorted(per.values(), key=lambda e: (e["started"], e["boot"]))
    return [statistics.median(e["v"]) for e in order]


def normal_logpdf(x, mu, sigma):
    return -0.5 * ((x - mu) / sigma) ** 2 - math.log(sigma) - \
        0.5 * math.log(2 * math.pi)


def fit_one(x):
    mu = statistics.fmean(x)
    sigma = max(math.sqrt(statistics.fmean([(v - mu) ** 2 for v in x])), 1e-4)
    ll = sum(normal_logpdf(v, mu, sigma) for v in x)
    return mu, sigma, ll


def fit_two(x, iters=500):
    """Two normals with one spread; EM from splits of the sorted values
    (every one, or 40 spread evenly), the best likelihood kept."""
    s = sorted(x)
    best = None
    splits = sorted(set(1 + (len(s) - 2) * i // 39 for i in range(40)))
    for k in splits:
        lo, hi = s[:k], s[k:]
        w = len(lo) / len(s)
        m1, m2 = statistics.fmean(lo), statistics.fmean(hi)
        var = (sum((v - m1) ** 2 for v in lo) +
               sum((v - m2) ** 2 for v in hi)) / len(s)
        sg = max(math.sqrt(var), 1e-4)
        ll = -math.inf
        for _ in range(iters):
            r = []
            ll_new = 0.0
            for v in x:
                a = math.log(w) + normal_logpdf(v, m1, sg) if w > 0 else -math.inf
                b = math.log(1 - w) + normal_logpdf(v, m2, sg) if w < 1 else -math.inf
                top = max(a, b)
                tot = top + math.log(math.exp(a - top) + math.exp(b - top))
                r.append(math.exp(a - tot))
                ll_new += tot
            n1 = sum(r)
            n2 = len(x) - n1
            if n1 < 1e-9 or n2 < 1e-9:
                break
            w = n1 / len(x)
            m1 = sum(ri * v for ri, v in zip(r, x)) / n1
            m2 = sum((1 - ri) * v for ri, v in zip(r, x)) / n2
            var = sum(ri * (v - m1) ** 2 + (1 - ri) * (v - m2) ** 2
                      for ri, v in zip(r, x)) / len(x)
            sg = max(math.sqrt(var), 1e-4)
            if ll_new - ll < 1e-10:
                ll = ll_new
                break
            ll = ll_new
        if m1 > m2:
            m1, m2, w = m2, m1, 1 - w
        if best is None or ll > best[4]:
            best = (m1, m2, sg, w, ll)
    return best


def hmm_pass(seq, mu, sigma, a):
    """Scaled forward-backward over one sequence of a two-state chain
    (0 normal, 1 slow; a = [[stay normal, enter], [leave, stay slow]],
    started from its stationary law). Returns the log-likelihood, the
    posteriors of the states and the expected transitions."""
    r, q = a[0][1], a[1][0]
    pi = [q / (r + q), r / (r + q)]
    e = [[max(math.exp(normal_logpdf(v, mu[k], sigma)), 1e-300)
          for k in (0, 1)] for v in seq]
    alpha, c = [], []
    for t, et in enumerate(e):
        if t == 0:
            f = [pi[k] * et[k] for k in (0, 1)]
        else:
            p = alpha[-1]
            f = [(p[0] * a[0][k] + p[1] * a[1][k]) * et[k] for k in (0, 1)]
        ct = f[0] + f[1]
        alpha.append([f[0] / ct, f[1] / ct])
        c.append(ct)
    beta = [[1.0, 1.0] for _ in seq]
    for t in range(len(seq) - 2, -1, -1):
        n = e[t + 1]
        b = beta[t + 1]
        beta[t] = [(a[i][0] * n[0] * b[0] + a[i][1] * n[1] * b[1]) / c[t + 1]
                   for i in (0, 1)]
    gamma = []
    for al, be in zip(alpha, beta):
        g = [al[0] * be[0], al[1] * be[1]]
        gamma.append([g[0] / (g[0] + g[1]), g[1] / (g[0] + g[1])])
    xi = [[0.0, 0.0], [0.0, 0.0]]
    for t in range(len(seq) - 1):
        for i in (0, 1):
            for j in (0, 1):
                xi[i][j] += (alpha[t][i] * a[i][j] * e[t + 1][j] *
                             beta[t + 1][j] / c[t + 1])
    return sum(math.log(ct) for ct in c), gamma, xi


def fit_hmm(seqs, starts, iters=300):
    """Two modes with a hold: a two-state Markov chain on boots whose
    modes are normals of one spread (Baum-Welch from each start, the best
    likelihood kept). Returns (mu_slow, mu_normal, sigma, rate, leave,
    loglik, posteriors per sequence)."""
    x = [v for s in seqs for v in s]
    best = None
    for m_lo, m_hi, sg, r, q in starts:
        mu = [m_hi, m_lo]
        ll = -math.inf
        for _ in range(iters):
            a = [[1 - r, r], [q, 1 - q]]
            ll_new, g0, g1, xs = 0.0, 0.0, 0.0, [[0.0, 0.0], [0.0, 0.0]]
            num = [0.0, 0.0]
            den = [0.0, 0.0]
            post = []
            for s in seqs:
                lls, gamma, xi = hmm_pass(s, mu, sg, a)
                ll_new += lls
                post.append(gamma)
                for t, (v, g) in enumerate(zip(s, gamma)):
                    for k in (0, 1):
                        num[k] += g[k] * v
                        den[k] += g[k]
                    if t < len(s) - 1:
                        g0 += g[0]
                        g1 += g[1]
                for i in (0, 1):
                    for j in (0, 1):
                        xs[i][j] += xi[i][j]
            if min(den) < 1e-6:
                break
            mu = [num[0] / den[0], num[1] / den[1]]
            var = sum(g[k] * (v - mu[k]) ** 2
                      for s, gs in zip(seqs, post) for v, g in zip(s, gs)
                      for k in (0, 1)) / len(x)
            sg = max(math.sqrt(var), 1e-4)
            r = min(max(xs[0][1] / g0 if g0 else 0.5, 1e-4), 1 - 1e-4)
            q = min(max(xs[1][0] / g1 if g1 else 0.5, 1e-4), 1 - 1e-4)
            done = ll_new - ll < 1e-9
            ll = ll_new
            if done:
                break
        if not math.isfinite(ll) or mu[1] >= mu[0]:
            continue
        if best is None or ll > best[5]:
            best = (mu[1], mu[0], sg, r, q, ll, post)
    return best


def binom_cdf(k, n, p):
    return sum(math.comb(n, i) * p ** i * (1 - p) ** (n - i)
               for i in range(k + 1))


def clopper_pearson(k, n, level=0.90):
    """Exact interval for a proportion k/n, by bisection on the CDF."""
    if n == 0:
        return (0.0, 1.0)
    a = (1 - level) / 2

    def solve(f):
        lo, hi = 0.0, 1.0
        for _ in range(60):
            mid = (lo + hi) / 2
            if f(mid):
                lo = mid
            else:
                hi = mid
        return (lo + hi) / 2
    lower = 0.0 if k == 0 else solve(lambda p: 1 - binom_cdf(k - 1, n, p) < a)
    upper = 1.0 if k == n else solve(lambda p: binom_cdf(k, n, p) > a)
    return (lower, upper)


def lag1(seqs):
    """Lag-1 autocorrelation of the values about their mean, pairs taken
    within each sequence only."""
    x = [v for s in seqs for v in s]
    m = statistics.fmean(x)
    var = sum((v - m) ** 2 for v in x)
    cov = sum((s[i] - m) * (s[i + 1] - m)
              for s in seqs for i in range(len(s) - 1))
    return cov / var if var else 0.0


def lag1_test(seqs, shuffles=4000):
    """How often boots in a random order (shuffled within each sequence)
    are at least as autocorrelated: an answer to "do slow boots come in
    runs?" that assumes no mode model at all."""
    rng = random.Random(1)
    r0 = lag1(seqs)
    hits = 0
    for _ in range(shuffles):
        sh = [rng.sample(s, len(s)) for s in seqs]
        hits += lag1(sh) >= r0
    return r0, (hits + 1) / (shuffles + 1)


def main():
    ap = argparse.ArgumentParser(
        description="fit sensitivity's machine model to boots of one kernel")
    ap.add_argument("--metric", default="read")
    ap.add_argument("--point", default=None)
    ap.add_argument("--list", action="store_true")
    ap.add_argument("dirs", nargs="+")
    a = ap.parse_args()

    seqs = [boots_of(d, a.metric, a.point) for d in a.dirs]
    for d, s in zip(a.dirs, seqs):
        if len(s) < 2:
            sys.exit("fit-modes: '%s' has %d boots" % (d, len(s)))
    lseqs = [[math.log(v) for v in s] for s in seqs]
    x = [v for s in lseqs for v in s]
    n = len(x)

    mu, sigma1, ll1 = fit_one(x)
    mix = fit_two(x)
    # Baum-Welch from the mixture and from splits of the sorted values,
    # each with a short and a long hold, a rare and a frequent entry.
    xs = sorted(x)
    starts = []
    for k in sorted(set(1 + (n - 2) * i // 11 for i in range(12))):
        lo, hi = statistics.fmean(xs[:k]), statistics.fmean(xs[k:])
        starts.append((lo, hi, max(mix[2], 0.01)))
    starts.append(mix[:3])
    starts = [st + rq for st in starts
              for rq in ((0.1, 0.5), (0.1, 0.1), (0.4, 0.3))]
    hmm = fit_hmm(lseqs, starts)
    if hmm is None:
        sys.exit("fit-modes: no two-mode fit (all boots alike?)")
    m_lo, m_hi, sigma, rate, leave, ll3, post = hmm
    hold = 1 / leave
    offset = 100 * (math.exp(m_lo - m_hi) - 1)
    bic = {"one mode": 2 * math.log(n) - 2 * ll1,
           "two modes, no hold": 4 * math.log(n) - 2 * mix[4],
           "two modes with a hold": 5 * math.log(n) - 2 * ll3}
    best = min(bic, key=bic.get)

    # Each boot in its likelier mode: the runs a reader can check.
    labels = [[g[1] > 0.5 for g in gs] for gs in post]
    entries = normal_from = exits = slow_from = 0
    runs, censored = [], 0
    for lab in labels:
        for i in range(len(lab) - 1):
            if lab[i]:
                slow_from += 1
                exits += not lab[i + 1]
            else:
                normal_from += 1
                entries += lab[i + 1]
        run = 0
        for i, b in enumerate(lab):
            if b:
                run += 1
            if run and (not b or i == len(lab) - 1):
                runs.append(run)
                censored += b and i == len(lab) - 1
                run = 0
    rate_ci = clopper_pearson(entries, normal_from)
    leave_ci = clopper_pearson(exits, slow_from)
    flat = [b for lab in labels for b in lab]
    nslow = sum(flat)

    normal_med = math.exp(statistics.median(
        [v for v, b in zip(x, flat) if not b] or x))
    drops = [100 * (math.exp(v) / normal_med - 1) for v in x]
    band = sum(1 for d in drops if -35 <= d <= -25)
    below20 = sum(1 for d in drops if d <= -20)

    if a.list:
        i = 0
        for d, s, lab, gs in zip(a.dirs, seqs, labels, post):
            print("# %s: boot, MB/s, against the normal mode's median, "
                  "P(slow mode)" % d)
            for v, b, g in zip(s, lab, gs):
                print("%4d %9.1f %+7.1f%% %5.2f %s" %
                      (i, v, drops[i], g[1], "slow" if b else "normal"))
                i += 1

    print("boots            %d in %d sequence(s), %.1f to %.1f MB/s, "
          "median %.1f" % (n, len(seqs), min(math.exp(v) for v in x),
                           max(math.exp(v) for v in x),
                           math.exp(statistics.median(x))))
    print("one mode         sigma %.4f (%.1f%%); BIC %.1f" %
          (sigma1, 100 * sigma1, bic["one mode"]))
    print("two, no hold     normal %.1f, slow %.1f MB/s (%+.1f%%), sigma "
          "%.4f, slow share %.2f; BIC %.1f" %
          (math.exp(mix[1]), math.exp(mix[0]),
           100 * (math.exp(mix[0] - mix[1]) - 1), mix[2], mix[3],
           bic["two modes, no hold"]))
    print("two with a hold  normal %.1f, slow %.1f MB/s (%+.1f%%), sigma "
          "%.4f (%.1f%%), entry %.3f, hold %.2f boots; BIC %.1f" %
          (math.exp(m_hi), math.exp(m_lo), offset, sigma, 100 * sigma,
           rate, hold, bic["two modes with a hold"]))
    print("best (BIC)       %s" % best)
    r1, p1 = lag1_test(lseqs)
    print("lag-1 autocorr   %.2f (shuffled boots reach it with p = %.3f)" %
          (r1, p1))
    print("slow boots       %d of %d (P(slow) > 0.5); runs %s%s" %
          (nslow, n, runs or "none",
           " (the last still going at the end)" if censored else ""))
    print("entries counted  %d of %d normal boots with a successor: "
          "%.3f (90%%: %.3f-%.3f)" %
          (entries, normal_from,
           entries / normal_from if normal_from else 0, rate_ci[0],
           rate_ci[1]))
    if exits:
        print("exits counted    %d of %d slow boots with a successor: hold "
              "%.2f boots (90%%: %.2f-%.2f)" %
              (exits, slow_from, slow_from / exits, 1 / leave_ci[1],
               1 / leave_ci[0] if leave_ci[0] > 0 else float("inf")))
    else:
        print("exits counted    none: hold >= %d boots" % max(slow_from, 1))
    print("25-35%% low       %d of %d boots (%.1f%%) against the normal "
          "mode's median; 20%% or more low: %d" %
          (band, n, 100 * band / n, below20))
    print("sensitivity      -m %.3f,%.1f,%.2f -g %.1f" %
          (rate, offset, hold, 100 * sigma))
    if best == "one mode":
        # Two modes then cut noise in two; the line above is what the
        # modes would be if modelled anyway.
        print("                 (one mode fits better: -g %.1f without -m)" %
              (100 * sigma1))


if __name__ == "__main__":
    main()
