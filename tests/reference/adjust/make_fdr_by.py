"""Benjamini-Yekutieli reference values from statsmodels (run once; not collected by pytest).

For every case of reference.csv (written by make_reference.R), the family's p-values are
adjusted by ``statsmodels.stats.multitest.multipletests(p, method="fdr_by")``. statsmodels
does not accept NaN: as R's ``p.adjust`` does, the adjustment runs on the non-NaN p-values
(the family) and NaN stays NaN. Writes fdr_by.csv (the p-values and adjusted values as
``repr`` of floats, NaN as NA) and appends statsmodels' version to versions.txt.

    python tests/reference/adjust/make_fdr_by.py
"""

import csv
from pathlib import Path

import numpy as np
import statsmodels
from statsmodels.stats.multitest import multipletests

HERE = Path(__file__).parent


def _numbers(text):
    return np.array([np.nan if v == "NA" else float(v) for v in text.split()])


def _text(values):
    return " ".join("NA" if np.isnan(v) else repr(float(v)) for v in values)


def main():
    cases = {}
    with open(HERE / "reference.csv", newline="") as fh:
        for row in csv.DictReader(fh):
            cases.setdefault(row["case"], _numbers(row["p"]))
    with open(HERE / "fdr_by.csv", "w", newline="") as fh:
        out = csv.writer(fh, quoting=csv.QUOTE_ALL)
        out.writerow(["case", "method", "p", "adjusted"])
        for case, p in cases.items():
            adjusted = np.full(p.shape, np.nan)
            family = ~np.isnan(p)
            if family.any():
                adjusted[family] = multipletests(p[family], method="fdr_by")[1]
            out.writerow([case, "fdr_by", _text(p), _text(adjusted)])
    versions = (HERE / "versions.txt").read_text().splitlines()
    versions = [v for v in versions if not v.startswith("statsmodels")]
    versions.append(f"statsmodels {statsmodels.__version__} (fdr_by.csv)")
    (HERE / "versions.txt").write_text("\n".join(versions) + "\n")


if __name__ == "__main__":
    main()
