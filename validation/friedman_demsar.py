"""Demšar's (2006) worked example recomputed from his Table 6, independently of pairedstats:
the numbers of ``docs/friedman.md`` (``python validation/friedman_demsar.py``; writes
``results/friedman_demsar.json``).

From the ranks the paper prints (``tests/reference/friedman/demsar_table6.csv``): Friedman's
statistic by Demšar's formula (his eq. for ``chi2_F``, ties ignored), the same divided by the
tie factor ``1 - sum(t^3 - t) / (N k (k^2 - 1))`` (scipy's ``friedmanchisquare``, R's
``friedman.test``), and for each the Iman-Davenport ``F_F = (N - 1) chi2_F / (N (k - 1) -
chi2_F)`` with its p-value from scipy's F distribution on ``k - 1`` and ``(k - 1)(N - 1)``
degrees of freedom. From the AUCs themselves (ranked by scipy's ``rankdata``, the highest
first): the same, as the page's example prints them.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats

ROOT = Path(__file__).resolve().parents[1]
OUT = Path(__file__).parent / "results" / "friedman_demsar.json"
SYSTEMS = ["C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf"]


def _iman_davenport(chi2: float, n: int, k: int) -> tuple[float, float]:
    f = (n - 1) * chi2 / (n * (k - 1) - chi2)
    return float(f), float(stats.f.sf(f, k - 1, (k - 1) * (n - 1)))


def _tests(ranks: np.ndarray) -> dict:
    n, k = ranks.shape
    mean = ranks.mean(axis=0)
    plain = 12 * n / (k * (k + 1)) * (np.sum(mean**2) - k * (k + 1) ** 2 / 4)  # Demšar (2006)
    ties = sum(np.sum(c**3 - c) for c in (np.unique(row, return_counts=True)[1] for row in ranks))
    corrected = plain / (1 - ties / (n * k * (k**2 - 1)))
    scipy_chi2 = float(stats.friedmanchisquare(*ranks.T).statistic)
    out = {}
    for name, chi2 in (("ties_ignored", plain), ("tie_corrected", corrected)):
        f, p = _iman_davenport(float(chi2), n, k)
        out[name] = dict(chi2=float(chi2), pvalue_chi2=float(stats.chi2.sf(chi2, k - 1)),
                         iman_davenport=f, pvalue_iman_davenport=p)  # fmt: skip
    out["scipy_friedmanchisquare"] = scipy_chi2
    return out


def main() -> None:
    table = pd.read_csv(ROOT / "tests" / "reference" / "friedman" / "demsar_table6.csv")
    printed = table[[f"rank_{s}" for s in SYSTEMS]].to_numpy(float)
    auc = table[SYSTEMS].to_numpy(float)
    from_auc = np.apply_along_axis(stats.rankdata, 1, -auc)  # 1 = the highest AUC
    results = dict(printed_ranks=_tests(printed), ranks_of_the_aucs=_tests(from_auc))
    OUT.write_text(json.dumps(results, indent=1) + "\n")
    print(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
