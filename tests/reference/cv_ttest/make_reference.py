"""Reference values of the Bayesian correlated t-test from baycomp (Benavoli, Corani et al.),
for tests/test_cv_ttest.py: ``python tests/reference/cv_ttest/make_reference.py`` writes
``baycomp.json`` beside it (needs ``pip install baycomp==1.0.3``; CI reads the JSON only).

baycomp's ``two_on_single(x, y, rope, runs)`` takes the differences ``y - x`` of ``runs``
repetitions of a k-fold cross-validation (``k = len(x) / runs``) and corrects the variance by
``1/n + 1/(k - 1)``: the Nadeau-Bengio ratio ``n_test / n_train`` for ``test_fraction =
1/k``. Its probabilities are closed form (Student t cdf), so they are compared to 1e-12."""

from __future__ import annotations

import json
from importlib.metadata import version
from pathlib import Path

import numpy as np
from baycomp import CorrelatedTTest, two_on_single

CASES = [  # (seed, runs, folds, rope, shift, spread)
    (1, 1, 10, 0.01, 0.01, 0.02),
    (2, 10, 10, 0.01, 0.005, 0.02),
    (3, 5, 5, 0.02, -0.01, 0.03),
    (4, 3, 4, 0.5, 0.3, 1.0),
    (5, 2, 8, 0.001, 0.0, 0.01),
    (6, 1, 3, 0.05, 0.2, 0.05),
]


def main() -> None:
    out = {"baycomp": version("baycomp"), "cases": []}
    for seed, runs, folds, rope, shift, spread in CASES:
        rng = np.random.default_rng(seed)
        n = runs * folds
        x = np.round(0.8 + spread * rng.standard_normal(n), 4)
        y = np.round(x + shift + spread * rng.standard_normal(n), 4)
        left, equivalent, right = two_on_single(x, y, rope=rope, runs=runs)
        mean, var, df = CorrelatedTTest.compute_statistics(x, y, runs)
        out["cases"].append({
            "x": x.tolist(), "y": y.tolist(), "runs": runs, "folds": folds, "rope": rope,
            "mean": float(mean), "var": float(var), "df": int(df),
            "p_left": float(left), "p_rope": float(equivalent), "p_right": float(right),
        })  # fmt: skip
    # every difference equal: a point mass at the mean (probabilities 0 or 1)
    x = np.array([0.8, 0.7, 0.9, 0.85, 0.75])
    left, equivalent, right = two_on_single(x, x + 0.02, rope=0.01, runs=1)
    out["constant"] = {"x": x.tolist(), "y": (x + 0.02).tolist(), "rope": 0.01, "runs": 1,
                       "p_left": float(left), "p_rope": float(equivalent),
                       "p_right": float(right)}  # fmt: skip
    path = Path(__file__).with_name("baycomp.json")
    path.write_text(json.dumps(out, indent=1) + "\n")
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
