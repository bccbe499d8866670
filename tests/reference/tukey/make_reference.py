"""Exact permutation p-values of the randomized Tukey HSD test on Sakai's Table 5.1.

Independent of pairedstats: plain Python, exact arithmetic (scores read as decimal
fractions, probabilities as ``fractions.Fraction``). The state is the vector of the three
system sums; each item adds one of its 3! arrangements with probability 1/6.

Run from this directory: ``python make_reference.py`` writes ``sakai_exact.json``.
"""

import csv
import itertools
import json
from collections import defaultdict
from fractions import Fraction
from pathlib import Path

HERE = Path(__file__).parent


def read():
    with open(HERE / "sakai_table_5_1.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    return {s: [Fraction(r[s]) for r in rows] for s in ("X", "Y", "Z")}


def exact(columns):
    names = list(columns)
    items = list(zip(*columns.values(), strict=True))
    arrangements = list(itertools.permutations(range(len(names))))
    dist = {tuple(Fraction(0) for _ in names): Fraction(1)}
    for item in items:
        new = defaultdict(Fraction)
        for sums, prob in dist.items():
            for perm in arrangements:
                key = tuple(s + item[p] for s, p in zip(sums, perm, strict=True))
                new[key] += prob / len(arrangements)
        dist = new
    totals = [sum(columns[s]) for s in names]
    out = {}
    for i, j in itertools.combinations(range(len(names)), 2):
        observed = abs(totals[j] - totals[i])
        p = sum(prob for sums, prob in dist.items() if max(sums) - min(sums) >= observed)
        out[f"{names[i]}-{names[j]}"] = {
            "numerator": p.numerator,
            "denominator": p.denominator,
            "value": float(p),
        }
    return out


if __name__ == "__main__":
    cols = read()
    result = {
        "source": "kampersanda/elinor test-data/sakai-book/{X,Y,Z}.csv (Sakai 2018, Table 5.1)",
        "three_systems": exact(cols),
        "two_systems_XY": exact({"X": cols["X"], "Y": cols["Y"]}),
    }
    (HERE / "sakai_exact.json").write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result, indent=2))
