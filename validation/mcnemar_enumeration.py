"""McNemar's tests and the pass/fail intervals by exact enumeration: the numbers of
``docs/mcnemar.md`` (``python validation/mcnemar_enumeration.py``, about two minutes; writes
``results/mcnemar_enumeration.json``).

Nothing here is simulated: every probability is a sum over all outcomes.

* **Size** of the three tests (``mcnemar_test``'s ``"exact"``, ``"mid-p"``,
  ``"asymptotic"``) at ``alpha = 0.05``, two-sided, at equal rates: ``P(only a) = P(only b)
  = psi / 2``. Given ``N`` discordant items of ``n``, ``only_b`` is Binomial(N, 1/2); ``N`` is
  Binomial(n, psi). Grid: every ``n`` from 10 to 100, ``psi`` from 0.005 to 1 in steps of
  0.005. A test rejects when its p-value is below ``alpha`` (``significant()``'s rule).
* **Coverage of Tango's 95% interval** of ``rate_b - rate_a``: every table ``(only_a,
  only_b)`` of ``n`` items weighted by its multinomial probability. Grid: every ``n`` from 10
  to 40, ``P(only a)`` and ``P(only b)`` from 0.01 to 0.99 in steps of 0.01 with ``P(only a)
  + P(only b) <= 1`` (4,950 points per ``n``); the floor is given with and without the edge
  ``P(only a) + P(only b) = 1`` (every item discordant).
* **Coverage of a pass rate's 95% interval** (``core.rates.rate_interval``: Wilson's, with
  Clopper and Pearson's bound at 0% and 100%; the ``rate_low, rate_high`` of
  ``report(test="mcnemar")``): Binomial(n, p), every ``n`` from 10 to 20 and from 1 to 100,
  ``p`` on a grid of step 0.0005 and at both sides of every interval end (the coverage jumps
  there, so its infimum is a limit at an end).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
from scipy import special, stats

from pairedstats.core.mcnemar import mcnemar_test
from pairedstats.core.rates import rate_interval
from pairedstats.core.tango import tango_interval

OUT = Path(__file__).parent / "results" / "mcnemar_enumeration.json"
ALPHA = 0.05


def sizes() -> dict:
    psis = np.round(np.arange(1, 201) * 0.005, 3)
    ns = range(10, 101)
    out = {}
    for method in ("exact", "mid-p", "asymptotic"):
        # conditional rejection rate given N discordant items, N = 0..100
        reject = np.zeros(101)
        for big in range(1, 101):
            ks = np.arange(big + 1)
            p = np.array([mcnemar_test(big - k, k, method=method).pvalue for k in ks])
            reject[big] = np.sum(stats.binom.pmf(ks, big, 0.5) * (p < ALPHA))
        table = np.array([[np.sum(stats.binom.pmf(np.arange(n + 1), n, psi) * reject[: n + 1])
                           for psi in psis] for n in ns])  # fmt: skip
        i, j = np.unravel_index(np.argmax(table), table.shape)
        small = table[:31]  # n = 10..40
        i40, j40 = np.unravel_index(np.argmax(small), small.shape)
        below = table[:, psis <= 0.5]
        ib, jb = np.unravel_index(np.argmax(below), below.shape)
        out[method] = dict(
            max=float(table[i, j]), at_n=int(list(ns)[i]), at_psi=float(psis[j]),
            max_n_10_40=float(small[i40, j40]), at_n_10_40=int(list(ns)[i40]),
            at_psi_10_40=float(psis[j40]),
            max_psi_at_most_half=float(below[ib, jb]), at_n_psi_at_most_half=int(list(ns)[ib]),
            at_psi_psi_at_most_half=float(psis[psis <= 0.5][jb]),
            max_at_psi_1_by_n={int(n): float(table[k, -1]) for k, n in enumerate(ns)
                               if n in (10, 20, 30, 40, 60, 100)},
            share_of_points_above_alpha=float(np.mean(table > ALPHA)),
        )  # fmt: skip
    return dict(grid="n = 10..100, psi = 0.005..1 step 0.005, two-sided, alpha = 0.05",
                by_method=out)  # fmt: skip


def _tables(n):
    return np.array([(y, x) for y in range(n + 1) for x in range(n + 1 - y)]).T


def _multinomial(n, y, x, pa, pb):
    rest = np.clip(1.0 - pa - pb, 0.0, 1.0)
    log = ((special.gammaln(n + 1) - special.gammaln(y + 1) - special.gammaln(x + 1)
            - special.gammaln(n - x - y + 1))[:, None] + special.xlogy(y[:, None], pa)
           + special.xlogy(x[:, None], pb)
           + special.xlogy((n - x - y)[:, None], rest))  # fmt: skip
    return np.exp(log)


def tango() -> dict:
    steps = np.round(np.arange(1, 100) * 0.01, 2)
    pa, pb = (g.ravel() for g in np.meshgrid(steps, steps, indexing="ij"))
    keep = pa + pb <= 1.0 + 1e-9
    pa, pb = pa[keep], pb[keep]
    psi, delta = pa + pb, pb - pa
    on = np.isclose(np.round(pa / 0.05), pa / 0.05), np.isclose(np.round(pb / 0.05), pb / 0.05)
    coarse = on[0] & on[1]
    regions = {  # name: (points of the grid, items)
        "every point with psi < 1": (psi < 1.0 - 1e-9, range(10, 41)),
        "psi <= 0.9": (psi <= 0.9 + 1e-9, range(10, 41)),
        "psi <= 0.5": (psi <= 0.5 + 1e-9, range(10, 41)),
        "every item discordant (psi = 1)": (np.abs(psi - 1.0) < 1e-9, range(10, 41)),
        "step 0.05, psi < 1": (coarse & (psi < 1.0 - 1e-9), range(10, 41)),
        "step 0.05, psi < 1, n = 10..20": (coarse & (psi < 1.0 - 1e-9), range(10, 21)),
    }
    worst = {name: (2.0,) for name in regions}
    total, count = 0.0, 0
    for n in range(10, 41):
        ys, xs = _tables(n)
        cis = np.array([[c.low, c.high] for c in map(tango_interval, ys, xs, [n] * ys.size)])
        inside = (cis[:, :1] <= delta + 1e-12) & (delta - 1e-12 <= cis[:, 1:])
        cover = np.sum(_multinomial(n, ys, xs, pa, pb) * inside, axis=0)
        total, count = total + cover[psi < 1 - 1e-9].sum(), count + int((psi < 1 - 1e-9).sum())
        for name, (mask, ns) in regions.items():
            k = int(np.argmin(np.where(mask, cover, 2.0)))
            if n in ns and cover[k] < worst[name][0]:
                worst[name] = (float(cover[k]), n, float(pa[k]), float(pb[k]))
    return dict(
        grid="n = 10..40, P(only a), P(only b) = 0.01..0.99 step 0.01, sum <= 1; "
             "psi = P(only a) + P(only b)",
        floor={name: dict(zip(("coverage", "n", "p_only_a", "p_only_b"), w))
               for name, w in worst.items()},
        mean_coverage_psi_below_1=total / count,
    )  # fmt: skip


def wilson() -> dict:
    out = {}
    for name, ns in (("n = 10..20", range(10, 21)), ("n = 1..100", range(1, 101))):
        worst = {"grid": (2.0,), "infimum": (2.0,)}
        for n in ns:
            x = np.arange(n + 1)
            low, high = rate_interval(x, np.full(n + 1, n))
            ends = np.concatenate([low, high])
            grid = np.arange(1, 2000) * 0.0005
            near = np.concatenate([ends - 1e-9, ends + 1e-9])
            for kind, ps in (("grid", grid), ("infimum", np.concatenate([grid, near]))):
                ps = ps[(ps > 0) & (ps < 1)]
                inside = (low[:, None] <= ps) & (ps <= high[:, None])
                cover = np.sum(stats.binom.pmf(x[:, None], n, ps) * inside, axis=0)
                k = int(np.argmin(cover))
                if cover[k] < worst[kind][0]:
                    worst[kind] = (float(cover[k]), n, float(ps[k]))
        out[name] = {kind: dict(zip(("coverage", "n", "p"), w)) for kind, w in worst.items()}
    return dict(grid="grid: p = 0.0005..0.9995 step 0.0005; infimum: also 1e-9 either side "
                     "of every interval end, where the coverage jumps", floor=out)  # fmt: skip


def main() -> None:
    results = dict(size=sizes(), tango=tango(), rate_interval=wilson())
    OUT.write_text(json.dumps(results, indent=1) + "\n")
    print(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
