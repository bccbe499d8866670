"""Generate the example data sets bundled with pairedstats (src/pairedstats/data/).

The data are simulated, with explicit seeds, so that anyone can regenerate them:

    python examples/make_datasets.py

* runs.csv: per-query scores of four retrieval runs on two collections (40 queries each),
  as ``trec_eval -q`` would report them: nDCG@10 with 4 decimals, P@10 on the 0.1 grid.
  Each query has a difficulty shared by all runs, so pairing matters.
* ratings.csv: a social-influence survey in the spirit of the rank-sum seed: each
  participant saw the median of earlier ratings, rated on a 0-10 slider in steps of 0.5,
  and either changed the rating or not; ``deviation`` is |final - median seen|.
"""

from pathlib import Path

import numpy as np
import pandas as pd

OUT = Path(__file__).resolve().parents[1] / "src" / "pairedstats" / "data"


def runs(rng: np.random.Generator) -> pd.DataFrame:
    effects = {"bm25": 0.0, "bm25+rm3": 0.02, "dense": 0.05, "hybrid": 0.07}
    rows = []
    for collection, n in (("robust04", 40), ("msmarco", 40)):
        difficulty = rng.beta(2.0, 2.5, size=n)
        for q in range(n):
            for run, effect in effects.items():
                ndcg = np.clip(difficulty[q] + effect + rng.normal(0, 0.09), 0, 1)
                p10 = np.clip(np.round(10 * (difficulty[q] + effect + rng.normal(0, 0.12))), 0, 10)
                rows.append(
                    (
                        collection,
                        f"{collection[:2]}-{q + 1:03d}",
                        run,
                        round(float(ndcg), 4),
                        float(p10) / 10,
                    )
                )
    return pd.DataFrame(rows, columns=["collection", "query", "run", "ndcg", "p10"])


def ratings(rng: np.random.Generator) -> pd.DataFrame:
    n = 240
    median_seen = np.round(rng.normal(6.5, 1.0, size=n) * 2) / 2
    initial = np.clip(np.round(rng.normal(median_seen, 2.2) * 2) / 2, 0, 10)
    changed = rng.random(n) < 0.35
    # those who change move part of the way towards the median they saw
    pull = rng.uniform(0.3, 0.9, size=n)
    final = np.where(
        changed, np.round((initial + pull * (median_seen - initial)) * 2) / 2, initial
    )
    final = np.clip(final, 0, 10)
    changed = changed & (final != initial)
    return pd.DataFrame(
        {
            "participant": np.arange(1, n + 1),
            "median_seen": median_seen,
            "initial": initial,
            "final": final,
            "changed": np.where(changed, "changed", "unchanged"),
            "deviation": np.abs(final - median_seen),
        }
    )


if __name__ == "__main__":
    OUT.mkdir(parents=True, exist_ok=True)
    runs(np.random.default_rng(20261202)).to_csv(OUT / "runs.csv", index=False)
    ratings(np.random.default_rng(3)).to_csv(OUT / "ratings.csv", index=False)
    print("wrote", *sorted(p.name for p in OUT.glob("*.csv")))
