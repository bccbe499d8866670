"""Draw the critical-difference diagram of the docs (``docs/_static/critical_difference.png``):
Demšar's (2006) Table 6, the AUC of four C4.5 variants on 14 data sets, by the ranks the paper
prints beside them, compared with Nemenyi's test at alpha = 0.10, as in his Figure 1(a).

    python examples/critical_difference.py

The data: ``tests/reference/friedman/demsar_table6.csv`` (typed from the paper).
"""

from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import pandas as pd

import pairedstats
from pairedstats.plotting import critical_difference

ROOT = Path(__file__).resolve().parents[1]
SYSTEMS = ["C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf"]


def main() -> None:
    table = pd.read_csv(ROOT / "tests" / "reference" / "friedman" / "demsar_table6.csv")
    ranks = table[[f"rank_{s}" for s in SYSTEMS]].to_numpy()
    res = pairedstats.friedman(ranks, systems=SYSTEMS, posthoc="nemenyi", lower_is_better=True)
    fig = critical_difference(res, alpha=0.10)
    out = ROOT / "docs" / "_static" / "critical_difference.png"
    fig.savefig(out, dpi=150, bbox_inches="tight", pad_inches=0.05,
                metadata={"Software": None})  # fmt: skip
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
