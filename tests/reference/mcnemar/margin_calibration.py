"""The exact sizes of McNemar's ``margin`` tests (Tango's score test at the shifted null)
reported in docs/mcnemar.md, "Equivalence and non-inferiority".

Run from the repository root (a few seconds):
    python tests/reference/mcnemar/margin_calibration.py
Writes margin_calibration.json next to this script (tests/test_mcnemar_margin.py checks the
docs table against it).

For n items whose discordant items occur at rate ``discordance`` (only a right with
probability ``p_a``, only b right with ``p_b``), every table (only_a, only_b) of the
trinomial is enumerated and weighted by its probability: the size is the probability of
deciding "non-inferior" or "equivalent" when b - a = p_b - p_a sits on the null's boundary.
Non-inferiority (alternative="greater"): b - a = -margin, rejection when the package's
pvalue_noninferiority < 0.05. Equivalence (two one-sided tests at 0.05): the larger of the
sizes at b - a = -margin and b - a = +margin. ``rows``: a few discordance rates; ``worst``:
per n and margin, the largest size over discordance rates from margin + 0.01 to 0.99 in
steps of 0.01 (the nuisance parameter the test must hold its level over). No simulation:
the numbers are exact up to floating point.
"""

import json
from pathlib import Path

import numpy as np
import scipy
from scipy import special

import pairedstats
from pairedstats.core.tango import tango_margin_pvalues

HERE = Path(__file__).parent
ALPHA = 0.05
SIZES = (30, 100, 300)
DISCORDANCE = (0.15, 0.3, 0.5)
MARGINS = (0.05, 0.1)


def tables(n):
    """Every (only_a, only_b) with only_a + only_b <= n."""
    y, x = np.array([(y, x) for y in range(n + 1) for x in range(n + 1 - y)]).T
    return y, x


def weights(n, y, x, p_a, p_b):
    """The trinomial probability of each table."""
    log = (special.gammaln(n + 1) - special.gammaln(y + 1) - special.gammaln(x + 1)
           - special.gammaln(n - x - y + 1) + special.xlogy(y, p_a) + special.xlogy(x, p_b)
           + special.xlogy(n - x - y, 1 - p_a - p_b))  # fmt: skip
    return np.exp(log)


def sizes(n, y, x, m, psi, p_above, p_below):
    """The sizes of non-inferiority and of equivalence at discordance rate ``psi``."""
    lower = weights(n, y, x, (psi + m) / 2, (psi - m) / 2)  # b - a = -m
    upper = weights(n, y, x, (psi - m) / 2, (psi + m) / 2)  # b - a = +m
    tost = np.maximum(p_above, p_below) < ALPHA
    return (float(np.sum(lower[p_above < ALPHA])),
            float(max(np.sum(lower[tost]), np.sum(upper[tost]))))  # fmt: skip


def main():
    rows, worst = [], []
    for n in SIZES:
        y, x = tables(n)
        for m in MARGINS:
            # the function mcnemar(..., margin=m) calls on each comparison's counts
            p_above, p_below = tango_margin_pvalues(y, x, n, m)
            for psi in DISCORDANCE:
                ni, eq = sizes(n, y, x, m, psi, p_above, p_below)
                rows.append({"n_items": n, "discordance": psi, "margin": m,
                             "size_noninferiority": ni, "size_equivalence": eq})  # fmt: skip
            grid = np.round(np.arange(round(m * 100) + 1, 100) / 100, 2)
            found = np.array([sizes(n, y, x, m, psi, p_above, p_below) for psi in grid])
            at_ni, at_eq = np.argmax(found[:, 0]), np.argmax(found[:, 1])
            worst.append({
                "n_items": n, "margin": m,
                "max_size_noninferiority": float(found[at_ni, 0]),
                "at_discordance_noninferiority": float(grid[at_ni]),
                "max_size_equivalence": float(found[at_eq, 1]),
                "at_discordance_equivalence": float(grid[at_eq]),
            })  # fmt: skip
    rows.sort(key=lambda r: (r["n_items"], r["discordance"], r["margin"]))
    out = {
        "source": "tests/reference/mcnemar/margin_calibration.py (exact enumeration)",
        "alpha": ALPHA,
        "versions": {
            "pairedstats": pairedstats.__version__,
            "numpy": np.__version__,
            "scipy": scipy.__version__,
        },
        "rows": rows,
        "worst": worst,
    }
    (HERE / "margin_calibration.json").write_text(json.dumps(out, indent=1) + "\n")
    for r in rows:
        print(
            f"| {r['n_items']} | {r['discordance']:.2f} | {r['margin']:.2f} | "
            f"{r['size_noninferiority']:.4f} | {r['size_equivalence']:.4f} |"
        )
    for r in worst:
        print(
            f"| {r['n_items']} | {r['margin']:.2f} | {r['max_size_noninferiority']:.4f} "
            f"({r['at_discordance_noninferiority']:.2f}) | {r['max_size_equivalence']:.4f} "
            f"({r['at_discordance_equivalence']:.2f}) |"
        )


if __name__ == "__main__":
    main()
