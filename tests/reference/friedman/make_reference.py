"""Write scikit_posthocs.csv: the post-hoc p-values of scikit-posthocs and scipy's Friedman
test on every case of datasets.csv (run make_datasets.py first)."""

from itertools import combinations
from pathlib import Path

import numpy as np
import pandas as pd
import scikit_posthocs as sp
import scipy
from scipy import stats

HERE = Path(__file__).parent


def main():
    data = pd.read_csv(HERE / "datasets.csv")
    rows = []
    for case, part in data.groupby("case", sort=False):
        systems = list(dict.fromkeys(part["system"]))
        wide = part.pivot(index="dataset", columns="system", values="score")[systems]
        chi2, p = stats.friedmanchisquare(*wide.to_numpy().T)
        tables = {
            "nemenyi": sp.posthoc_nemenyi_friedman(wide),
            "conover_none": sp.posthoc_conover_friedman(wide, p_adjust=None),
            "conover_holm": sp.posthoc_conover_friedman(wide, p_adjust="holm"),
        }
        for a, b in combinations(systems, 2):
            row = {
                "case": case,
                "system_a": a,
                "system_b": b,
                "scipy_friedman": chi2,
                "scipy_pvalue": p,
            }
            row.update({name: float(t.loc[a, b]) for name, t in tables.items()})
            rows.append(row)
    pd.DataFrame(rows).to_csv(HERE / "scikit_posthocs.csv", index=False, float_format="%.17g")
    versions = (HERE / "versions.txt").read_text() if (HERE / "versions.txt").exists() else ""
    kept = [line for line in versions.splitlines() if line.startswith("R ")]
    lines = [
        f"scikit-posthocs {sp.__version__}",
        f"scipy {scipy.__version__}",
        f"numpy {np.__version__}",
        f"pandas {pd.__version__}",
        *kept,
    ]
    (HERE / "versions.txt").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
