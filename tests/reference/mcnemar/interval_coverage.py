"""What docs/mcnemar.md reports about intervals of a paired difference of rates with few
discordant items: the coverage of the 95% Wald, Tango and percentile bootstrap intervals.

Run from the repository root (about 20 s):  python tests/reference/mcnemar/interval_coverage.py

Writes interval_coverage.csv next to this script. Wald's and Tango's coverages are exact
(every table of n items enumerated, weighted by its multinomial probability); the
bootstrap's is simulated
(1,000 tables per setting, pairedstats.bootstrap with 999 resamples, Monte Carlo standard
error about 0.01), together with the share of its intervals that are a single point.
"""

import csv
import warnings
from pathlib import Path

import numpy as np
from scipy import special

import pairedstats
from pairedstats.core.mcnemar import tango_interval

HERE = Path(__file__).parent
Z = special.ndtri(0.975)
SETTINGS = [(30, 0.0, 0.05), (30, 0.02, 0.10), (50, 0.01, 0.05), (100, 0.02, 0.05)]


def wald(only_a, only_b, n):
    d = (only_b - only_a) / n
    se = np.sqrt(np.maximum(only_a + only_b - n * d * d, 0.0)) / n
    return d - Z * se, d + Z * se


def exact_coverage(n, pa, pb):
    ys, xs = np.array([(y, x) for y in range(n + 1) for x in range(n + 1 - y)]).T
    log = (special.gammaln(n + 1) - special.gammaln(ys + 1) - special.gammaln(xs + 1)
           - special.gammaln(n - xs - ys + 1) + special.xlogy(ys, pa) + special.xlogy(xs, pb)
           + special.xlogy(n - xs - ys, 1 - pa - pb))  # fmt: skip
    weight, delta = np.exp(log), pb - pa
    tango = np.array([[c.low, c.high] for c in map(tango_interval, ys, xs, [n] * ys.size)])
    low, high = wald(ys, xs, n)
    cover = lambda lo, hi: float(np.sum(weight * ((lo <= delta) & (delta <= hi))))
    return cover(low, high), cover(tango[:, 0], tango[:, 1])


def bootstrap_coverage(n, pa, pb, reps=1000, seed=7):
    rng = np.random.default_rng(seed)
    covered = points = 0
    for r in range(reps):
        only_a, only_b, both, neither = rng.multinomial(n, [pa, pb, 0.5, 0.5 - pa - pb])
        a = np.repeat([1.0, 0.0, 1.0, 0.0], [only_a, only_b, both, neither])
        b = np.repeat([0.0, 1.0, 1.0, 0.0], [only_a, only_b, both, neither])
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the point intervals warn
            res = pairedstats.bootstrap(np.column_stack([a, b]), n_resamples=999, rng=r)
        low, high = res.ci_low[0, 0], res.ci_high[0, 0]
        covered += low <= pb - pa <= high
        points += low == high
    return covered / reps, points / reps


def main():
    rows = []
    for n, pa, pb in SETTINGS:
        w, t = exact_coverage(n, pa, pb)
        b, p = bootstrap_coverage(n, pa, pb)
        rows.append({"n": n, "p_only_a": pa, "p_only_b": pb, "wald": round(w, 4),
                     "tango": round(t, 4), "bootstrap": round(b, 3),
                     "bootstrap_point_share": round(p, 3)})  # fmt: skip
    with open(HERE / "interval_coverage.csv", "w", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)


if __name__ == "__main__":
    main()
