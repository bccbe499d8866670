"""Write datasets.csv: the Friedman reference cases (tidy: case, dataset, system, score).

Scores on a grid are integers (tenths and hundredths scaled by 10 and 100): their ties and
zero differences are ties in floating point too, where R and scikit-posthocs compare floats
exactly and pairedstats reads ties by its rule (pairedstats.core.ties); the two then agree."""

from pathlib import Path

import numpy as np
import pandas as pd

HERE = Path(__file__).parent


def _case(name, scores, systems):
    n = scores.shape[0]
    return pd.DataFrame(
        {
            "case": name,
            "dataset": np.repeat([f"d{i:02d}" for i in range(n)], len(systems)),
            "system": np.tile(systems, n),
            "score": scores.ravel(),
        }
    )


def main():
    rng = np.random.default_rng(20060101)
    parts = []
    effects = np.array([0.0, 0.9, 1.4, 0.3])
    parts.append(
        _case("continuous", rng.normal(size=(12, 4)) + effects, ["zeta", "alpha", "mid", "beta"])
    )
    grid = np.round(10 * (rng.normal(size=(15, 5)) + np.array([0.0, 0.2, 0.6, 0.1, 0.4])))
    parts.append(_case("grid", grid, ["s4", "s1", "s3", "s0", "s2"]))
    parts.append(
        _case(
            "few",
            np.round(rng.normal(size=(6, 3)) + np.array([0.0, 0.8, 0.4]), 2),
            ["c", "a", "b"],
        )
    )
    many = rng.normal(size=(20, 7)) + np.linspace(0.0, 1.2, 7)
    parts.append(_case("many", np.round(100 * many), [f"m{j}" for j in (6, 2, 0, 5, 1, 4, 3)]))
    table = pd.read_csv(HERE / "demsar_table6.csv")
    systems = ["C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf"]
    parts.append(_case("demsar-auc", table[systems].to_numpy(), systems))
    ranks = table[[f"rank_{s}" for s in systems]].to_numpy()
    parts.append(_case("demsar-ranks", ranks, systems))  # lower is better
    pd.concat(parts, ignore_index=True).to_csv(HERE / "datasets.csv", index=False)


if __name__ == "__main__":
    main()
