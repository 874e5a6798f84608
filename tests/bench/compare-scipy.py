# The peer of `perfdb compare BASE CAND --format json` for bench-compare.sh:
# what a user without perfdb would write with numpy and scipy (Debian's
# python3-scipy; run it with /usr/bin/python3).
#
#   /usr/bin/python3 compare-scipy.py SAMPLES.npz OUT.json [ALPHA]
#
# Input: base and cand, float64 arrays (series, samples), exported from the
# same database by compare-export.py before timing. For every series at once
# (numpy over axis 1, no Python loop per series except to build the JSON):
# - p: two-sided Mann-Whitney U of cand against base,
#   scipy.stats.mannwhitneyu(axis=1, method="exact"): the exact null
#   distribution of U *without* ties (scipy 1.10 has no exact test with ties;
#   its default "auto" switches to the normal approximation whenever a sample
#   has ties or exceeds 8 values). It equals perfdb's exact p on series
#   without ties; perfdb's exact p with ties has no scipy counterpart;
# - Hodges-Lehmann in log space: all nx*ny differences ln(cand[j]) -
#   ln(base[i]) of a series materialised as one (series, nx*ny) array, the
#   estimate their median, the interval the k-th and (nx*ny+1-k)-th smallest
#   (np.partition), k from the exact no-ties null distribution of U at level
#   1 - alpha (computed once for the sizes, as perfdb does);
# - medians and means of both sides, change and interval as percentages
#   (100 * expm1), the verdict by perfdb's rules (alpha 0.01, threshold 5 %,
#   the fail level of a "time" metric);
# - JSON with the fields of perfdb's rows, written by json.dump (compact, so
#   the C encoder: indent= would use the slower pure-Python one).
import json
import sys

import numpy as np
from scipy.stats import mannwhitneyu


def hl_rank(m, n, conf):
    """k such that the interval is the k-th and (m*n+1-k)-th differences:
    1 + the largest u with P(U <= u) <= (1 - conf) / 2, without ties."""
    # counts of U = u: coefficients of prod_{i=1..m} (1 - q^(n+i)) / (1 - q^i)
    top = m * n
    c = [1] + [0] * top
    for i in range(1, m + 1):
        for u in range(top, n + i - 1, -1):
            c[u] -= c[u - n - i]
        for u in range(i, top + 1):
            c[u] += c[u - i]
    total, acc, k, half = sum(c), 0, 0, (1 - conf) / 2
    for u in range(top + 1):
        acc += c[u]
        if acc / total > half:
            break
        k = u + 1
    return k


def main():
    data = np.load(sys.argv[1])
    out = sys.argv[2]
    alpha = float(sys.argv[3]) if len(sys.argv) > 3 else 0.01
    base, cand = data["base"], data["cand"]
    nseries, nx = base.shape
    ny = cand.shape[1]

    p = mannwhitneyu(cand, base, alternative="two-sided", method="exact", axis=1).pvalue

    lb, lc = np.log(base), np.log(cand)
    diffs = (lc[:, None, :] - lb[:, :, None]).reshape(nseries, nx * ny)
    pairs = nx * ny
    k = hl_rank(min(nx, ny), max(nx, ny), 1 - alpha)
    mid = [(pairs - 1) // 2, pairs // 2]
    ranks = sorted(set(mid + ([k - 1, pairs - k] if k else [])))
    part = np.partition(diffs, ranks, axis=1)
    est = (part[:, mid[0]] + part[:, mid[1]]) / 2
    if k:
        lo, hi = part[:, k - 1], part[:, pairs - k]
    else:
        lo = hi = np.full(nseries, np.nan)
    change, ci_lo, ci_hi = 100 * np.expm1(est), 100 * np.expm1(lo), 100 * np.expm1(hi)

    # verdict: s = +1 when larger is worse (direction lower or none)
    thr = 5.0
    s = np.where(data["direction"] == -1, -1.0, 1.0)
    w, wlo, whi = s * change, np.minimum(s * ci_lo, s * ci_hi), np.maximum(s * ci_lo, s * ci_hi)
    sig = p <= alpha
    gated = data["direction"] != 0
    verdict = np.select(
        [np.isnan(wlo), gated & sig & (wlo > 0) & (w >= thr), gated & sig & (whi < 0) & (-w >= thr),
         (wlo >= -thr) & (whi <= thr)],
        ["insufficient", "regression", "improvement", "unchanged"], "noisy")

    names = {1: "lower", -1: "higher", 0: "none"}
    cols = [a.tolist() for a in (data["benchmark"], data["dims"], data["metric"], data["unit"],
                                 data["direction"], np.median(base, axis=1), base.mean(axis=1),
                                 np.median(cand, axis=1), cand.mean(axis=1), change, ci_lo,
                                 ci_hi, p, verdict)]
    results = [{"benchmark": b, "dims": json.loads(d), "metric": m, "unit": u,
                "direction": names[di], "baseline": {"n": nx, "median": mb, "mean": ab},
                "candidate": {"n": ny, "median": mc, "mean": ac}, "change_pct": ch,
                "ci_low_pct": cl, "ci_high_pct": chi, "p_value": pv, "verdict": v,
                "band": "samples", "band_pct": None, "threshold_pct": thr, "warn": False}
               for b, d, m, u, di, mb, ab, mc, ac, ch, cl, chi, pv, v in zip(*cols)]
    with open(out, "w") as f:
        json.dump({"alpha": alpha, "results": results}, f)
        f.write("\n")


main()
