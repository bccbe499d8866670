"""Reference values for pairedstats' McNemar tests from statsmodels (tests/core/test_mcnemar.py).

Run from the repository root, with statsmodels installed (it is not a dependency of the
project; CI reads the committed values):

    python tests/reference/mcnemar/make_statsmodels.py

Reads tables.csv (the discordant counts only_a, only_b of each table) and writes
statsmodels.csv: ``statsmodels.stats.contingency_tables.mcnemar`` on each 2 x 2 table, exact
(its statistic is min(only_a, only_b), its p-value the two-sided binomial test) and
chi-square with and without the continuity correction, floats by repr (every bit), and
statsmodels_version.txt.
"""

import csv
from pathlib import Path

import numpy as np
import statsmodels
from statsmodels.stats.contingency_tables import mcnemar

HERE = Path(__file__).parent


def main() -> None:
    with open(HERE / "tables.csv", newline="") as fh:
        tables = [(int(r["only_a"]), int(r["only_b"])) for r in csv.DictReader(fh)]
    rows = []
    for only_a, only_b in tables:
        # rows: a right / a wrong; columns: b right / b wrong
        table = np.array([[11, only_a], [only_b, 13]])
        row = {"only_a": only_a, "only_b": only_b}
        exact = mcnemar(table, exact=True)
        row["exact_statistic"] = repr(float(exact.statistic))
        row["exact_p"] = repr(float(exact.pvalue))
        for correction in (True, False):
            res = mcnemar(table, exact=False, correction=correction)
            tag = "corrected" if correction else "uncorrected"
            row[f"chi2_{tag}"] = repr(float(res.statistic))
            row[f"p_{tag}"] = repr(float(res.pvalue))
        rows.append(row)
    with open(HERE / "statsmodels.csv", "w", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    (HERE / "statsmodels_version.txt").write_text(f"statsmodels {statsmodels.__version__}\n")


if __name__ == "__main__":
    main()
