"""Reference values of ``df.paired.items_for`` on scores that are not 0/1: the items needed
and the detectable difference of the paired t-test by statsmodels' ``TTestPower`` (the
one-sample t-test of the per-item differences b - a, noncentral t, both tails for a
two-sided test), with the standard deviation of b - a computed here by numpy. Its
``power`` is solved for the number of items and for the effect size with a tight root
finder (``solve_power``'s own tolerance leaves the effect size off by a few 1e-6).

Writes the scores (``items_for_scores.csv``: group, item, system, score; three systems, two
groups of 30 items, 3 decimals) and, for each plan, group and comparison against the
baseline, statsmodels' continuous sample size and detectable difference
(``items_for_reference.csv``). statsmodels is not a dependency of pairedstats: install it
to re-run (``pip install statsmodels``):

    python tests/reference/power/make_items_for_reference.py
"""

from pathlib import Path

import numpy as np
import pandas as pd
import statsmodels
from scipy.optimize import brentq
from statsmodels.stats.power import TTestPower

HERE = Path(__file__).parent
SYSTEMS = ("base", "new", "alt")  # the baseline first; not in sorted order
PLANS = [  # difference, power, alpha, alternative (pairedstats' names)
    (0.05, 0.8, 0.05, "two-sided"),
    (0.02, 0.9, 0.01, "two-sided"),
    (0.03, 0.8, 0.05, "greater"),
    (-0.04, 0.95, 0.05, "less"),
]
_STATSMODELS = {"two-sided": "two-sided", "greater": "larger", "less": "smaller"}


def scores() -> pd.DataFrame:
    rng = np.random.default_rng(20240607)
    rows = []
    for group, n in (("g2", 30), ("g1", 30)):
        difficulty = rng.uniform(0.2, 0.8, size=n)
        for j, system in enumerate(SYSTEMS):
            noise = rng.normal(0, 0.06 + 0.03 * j, size=n)
            values = np.round(difficulty + 0.02 * j + noise, 3)
            rows += [(group, f"q{i:02d}", system, v) for i, v in enumerate(values)]
    return pd.DataFrame(rows, columns=["group", "item", "system", "score"])


def _plan(sd, n, difference, target, alpha, alternative) -> tuple[float, float]:
    """statsmodels' items (unrounded) and detectable effect size of one plan: TTestPower's
    ``power`` solved within 10% of ``solve_power``'s answers (further out its far tail is
    NaN)."""
    power, alt = TTestPower(), _STATSMODELS[alternative]

    def gap(effect, nobs):
        return power.power(effect, nobs, alpha, alternative=alt) - target

    effect = difference / sd
    start = power.solve_power(effect_size=effect, alpha=alpha, power=target, alternative=alt)
    nobs = brentq(lambda m: gap(effect, m), 0.9 * start, 1.1 * start, xtol=1e-12)
    sign = -1.0 if alternative == "less" else 1.0
    start = abs(power.solve_power(effect_size=None, nobs=n, alpha=alpha, power=target,
                                  alternative=alt))  # fmt: skip
    found = brentq(lambda e: gap(sign * e, n), 0.9 * start, 1.1 * start, xtol=1e-15)
    return float(nobs), float(sign * found)


def main() -> None:
    table = scores()
    table.to_csv(HERE / "items_for_scores.csv", index=False)
    out = []
    for group, part in table.groupby("group", sort=False):
        wide = part.pivot(index="item", columns="system", values="score")
        for b in SYSTEMS[1:]:
            d = (wide[b] - wide[SYSTEMS[0]]).to_numpy()
            sd = float(np.std(d, ddof=1))
            for plan in PLANS:
                nobs, effect = _plan(sd, d.size, *plan)
                difference, target, alpha, alternative = plan
                out.append(
                    dict(
                        group=group, system_a=SYSTEMS[0], system_b=b, difference=difference,
                        power=target, alpha=alpha, alternative=alternative,
                        standard_deviation=sd, n_items=d.size, nobs=nobs,
                        detectable_difference=effect * sd,
                    )
                )  # fmt: skip
    frame = pd.DataFrame(out)
    frame.to_csv(HERE / "items_for_reference.csv", index=False, float_format="%.17g")
    print(f"statsmodels {statsmodels.__version__}: {len(frame)} rows")


if __name__ == "__main__":
    main()
