"""Tables shared by the tests of the input layer."""

import numpy as np
import pandas as pd


def tidy_frame() -> pd.DataFrame:
    rng = np.random.default_rng(42)
    rows = []
    for g in ("g1", "g2"):
        for q in range(5):
            for s in ("x", "y", "z"):
                rows.append((g, f"q{q}", s, float(rng.integers(0, 20)) / 20, q % 2))
    return pd.DataFrame(rows, columns=["ds", "query", "run", "ndcg", "cl"])


def wide_of(tidy, group="g1"):
    sub = tidy[tidy.ds == group]
    return sub.pivot(index="query", columns="run", values="ndcg")[["x", "y", "z"]]
