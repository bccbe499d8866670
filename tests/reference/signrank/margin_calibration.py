"""The size of the signed-rank test against a margin, by simulation (docs/signrank.md,
"Equivalence and non-inferiority"; tests/test_signrank_margin.py checks the page's table).

Run from the repository root: ``python tests/reference/signrank/margin_calibration.py``
(about three minutes on two cores). Writes ``margin_calibration.json`` next to this script.

For n = 10, 20 and 50 items and two symmetric continuous noises of standard deviation 1
(normal; Laplace), each replicate draws scores ``a`` uniform on [0.3, 0.7] and ``b = a +
shift + noise`` and runs ``pairedstats.signrank(..., margin=1.0)`` at ``confidence_level=
0.95`` (alpha = 0.05), ``method="auto"`` (exact for n = 10 and 20, normal with the continuity
correction for n = 50), each call a batch of comparisons against one baseline column:

- equivalence (``alternative="two-sided"``) at the boundary ``shift = +m``: the fraction of
  replicates declared ``equivalent`` (two one-sided tests);
- non-inferiority (``alternative="greater"``) at the boundary ``shift = -m``: the fraction
  declared ``noninferior``.

Both are the tests' sizes: at most alpha up to the Monte Carlo error, ``sqrt(alpha (1 -
alpha) / replicates)``. The same replicates are decided by scipy's ``wilcoxon`` too, on the
shifted differences (exact below 50, normal with the continuity correction at 50), and both
counts are written: they must be equal. For the exact path the attainable level is the
largest ``P(V >= v)`` not above alpha, from the null distribution of ``V`` counted here by
its own recursion on integers (the number of subsets of ``1..n`` with each sum).
"""

from __future__ import annotations

import json
import math
import warnings
from pathlib import Path

import numpy as np
from scipy import stats

import pairedstats

HERE = Path(__file__).resolve().parent
OUT = HERE / "margin_calibration.json"
ALPHA = 0.05
MARGIN = 1.0
REPLICATES = 20_000
BATCH = 1_000
SIZES = (10, 20, 50)
NOISES = ("normal", "laplace")
SEED = 20261207


def noise(rng, kind: str, shape) -> np.ndarray:
    """Symmetric continuous noise of standard deviation 1."""
    if kind == "normal":
        return rng.standard_normal(shape)
    return rng.laplace(0.0, 1.0 / math.sqrt(2.0), shape)


def scipy_pvalues(d: np.ndarray, alternative: str) -> np.ndarray:
    """scipy's p-values of the margin's test of each column of the differences ``d``."""
    exact = d.shape[0] < 50

    def test(x, side):
        if exact:
            return stats.wilcoxon(x, alternative=side, axis=0, method="exact").pvalue
        return stats.wilcoxon(x, alternative=side, axis=0, method="approx",
                              correction=True).pvalue  # fmt: skip

    if alternative == "greater":
        return test(d + MARGIN, "greater")
    return np.fmax(test(d + MARGIN, "greater"), test(d - MARGIN, "less"))


def rejections(rng, n: int, kind: str, shift: float, alternative: str, column: str):
    """How many of :data:`REPLICATES` replicates the margin's test declares ``column``, by
    pairedstats and by scipy."""
    count = by_scipy = 0
    for _ in range(REPLICATES // BATCH):
        a = rng.uniform(0.3, 0.7, (n, 1))
        b = a + shift + noise(rng, kind, (n, BATCH))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # few items: the shift's level out of reach
            res = pairedstats.signrank(
                np.hstack([a, b]), baseline=0, margin=MARGIN, alternative=alternative,
                confidence_level=1 - ALPHA,
            )  # fmt: skip
        count += int(np.asarray(getattr(res, column)).sum())
        by_scipy += int((scipy_pvalues(b - a, alternative) < ALPHA).sum())
    return count, by_scipy


def attainable(n: int, alpha: float) -> float:
    """The exact one-sided test's size: the largest ``P(V >= v) <= alpha`` for ``n``
    differences without ties (subset-sum counts of ``1..n``, on integers)."""
    counts = [1] + [0] * (n * (n + 1) // 2)
    for r in range(1, n + 1):
        for s in range(len(counts) - 1, r - 1, -1):
            counts[s] += counts[s - r]
    tail, best = 0, 0.0
    for s in range(len(counts) - 1, -1, -1):
        tail += counts[s]
        if tail / 2**n > alpha:
            break
        best = tail / 2**n
    return best


def simulate() -> dict:
    rows = []
    for i, n in enumerate(SIZES):
        for j, kind in enumerate(NOISES):
            rng = np.random.default_rng([SEED, i, j])
            equivalent, scipy_equivalent = rejections(rng, n, kind, MARGIN, "two-sided",
                                                      "equivalent")  # fmt: skip
            noninferior, scipy_noninferior = rejections(rng, n, kind, -MARGIN, "greater",
                                                        "noninferior")  # fmt: skip
            rows.append({
                "n": n, "noise": kind, "path": "exact" if n < 50 else "normal",
                "attainable": attainable(n, ALPHA) if n < 50 else ALPHA,
                "size_equivalence": equivalent / REPLICATES,
                "size_noninferiority": noninferior / REPLICATES,
                "scipy_size_equivalence": scipy_equivalent / REPLICATES,
                "scipy_size_noninferiority": scipy_noninferior / REPLICATES,
            })  # fmt: skip
            print(rows[-1], flush=True)
    return {
        "alpha": ALPHA, "margin": MARGIN, "noise_sd": 1.0, "replicates": REPLICATES,
        "seed": SEED, "mc_se": math.sqrt(ALPHA * (1 - ALPHA) / REPLICATES),
        "pairedstats": pairedstats.__version__, "rows": rows,
    }  # fmt: skip


def table(results: dict) -> str:
    """The Markdown table of docs/signrank.md."""
    lines = [
        "| n | noise | path | level of the test | equivalence at b - a = m "
        "| non-inferiority at b - a = -m |",
        "|---|---|---|---|---|---|",
    ]
    for r in results["rows"]:
        level = f"{r['attainable']:.4f}" + ("" if r["path"] == "exact" else " (nominal)")
        sizes = f"{r['size_equivalence']:.4f} | {r['size_noninferiority']:.4f}"
        lines.append(f"| {r['n']} | {r['noise']} | {r['path']} | {level} | {sizes} |")
    return "\n".join(lines)


if __name__ == "__main__":
    results = simulate()
    OUT.write_text(json.dumps(results, indent=1) + "\n")
    print(table(results))
