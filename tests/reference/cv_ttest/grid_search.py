"""scikit-learn's gallery example "Statistical comparison of models using grid search"
(``examples/model_selection/plot_grid_search_stats.py``), rerun: the per-split scores it tests
and the numbers it prints, for ``docs/model_sweeps.md`` and ``tests/test_model_sweeps.py``.

``python tests/reference/cv_ttest/grid_search.py`` (needs scikit-learn; CI reads the files):

* ``src/pairedstats/data/grid_search.csv``: the ROC AUC of the four SVCs of the example's grid
  (``linear``, ``2_poly``, ``3_poly``, ``rbf``: the example's names, in its grid's order) on
  each of the 100 test folds of its 10 x 10 stratified cross-validation, tidy (``model,
  repeat, fold, score``), written with every digit (``pairedstats.datasets.load_grid_search``);
* ``grid_search.json`` beside this script: the example's numbers, computed as the example
  computes them from those scores (scipy's Student t; nothing of pairedstats).

The experiment is the example's: ``make_moons(noise=0.352, random_state=1, n_samples=100)``,
``SVC(random_state=0)`` over the kernels linear, poly (degree 2 and 3) and rbf,
``RepeatedStratifiedKFold(n_splits=10, n_repeats=10, random_state=0)``, scored by
``roc_auc`` in ``GridSearchCV``; split ``s`` of the search is repetition ``s // 10``, fold
``s % 10``. The example ranks the models by mean test score and compares the first with the
second (``differences = model_1 - model_2``): the corrected t
``mean / sqrt((1/(k r) + n_test/n_train) var(ddof=1))`` and its upper-tail p-value
``t.sf(|t|, k r - 1)``, the uncorrected t and its p-value, the posterior
``t(k r - 1, loc=mean, scale=corrected sd)`` with ``P(model_1 better) = 1 - cdf(0)``, the
probability of the rope ``[-0.01, 0.01]`` and the 50/75/95% credible intervals; then every pair
(``model_i`` ranked above ``model_k``): the corrected t, its p-value times the 6 comparisons
(Bonferroni, at most 1) and the posterior's ``worse_prob`` (below -0.01), ``better_prob``
(above 0.01) and ``rope_prob``.
"""

from __future__ import annotations

import json
from itertools import combinations
from pathlib import Path

import numpy as np
import pandas as pd
import sklearn
from scipy import stats
from sklearn.datasets import make_moons
from sklearn.model_selection import GridSearchCV, RepeatedStratifiedKFold
from sklearn.svm import SVC

HERE = Path(__file__).resolve().parent
DATA = HERE.parents[2] / "src" / "pairedstats" / "data" / "grid_search.csv"
ROPE = 0.01
N_SPLITS, N_REPEATS = 10, 10


def search():
    """The example's search: its cv_results_ as a frame indexed by the example's model names
    (in the grid's order), and the first split's training and test sizes."""
    X, y = make_moons(noise=0.352, random_state=1, n_samples=100)
    grid = [{"kernel": ["linear"]}, {"kernel": ["poly"], "degree": [2, 3]}, {"kernel": ["rbf"]}]
    cv = RepeatedStratifiedKFold(n_splits=N_SPLITS, n_repeats=N_REPEATS, random_state=0)
    gs = GridSearchCV(SVC(random_state=0), param_grid=grid, scoring="roc_auc", cv=cv).fit(X, y)
    results = pd.DataFrame(gs.cv_results_)
    results.index = ["_".join(str(v) for v in p.values()) for p in results["params"]]
    train, test = next(cv.split(X, y))
    return results, len(train), len(test)


def corrected_sd(d, n_train, n_test):
    return np.sqrt(np.var(d, ddof=1) * (1 / len(d) + n_test / n_train))


def example_numbers(scores: pd.DataFrame, n_train: int, n_test: int) -> dict:
    """The example's numbers from the scores (rows: models ranked by mean, columns: splits)."""
    names = list(scores.index)
    df = scores.shape[1] - 1
    d = scores.iloc[0].to_numpy() - scores.iloc[1].to_numpy()
    t_stat = d.mean() / corrected_sd(d, n_train, n_test)
    t_plain = d.mean() / np.sqrt(np.var(d, ddof=1) / len(d))
    post = stats.t(df, loc=d.mean(), scale=corrected_sd(d, n_train, n_test))
    first = {
        "model_1": names[0], "model_2": names[1], "mean_difference": float(d.mean()),
        "t": float(t_stat), "pvalue": float(stats.t.sf(abs(t_stat), df)),
        "t_uncorrected": float(t_plain), "pvalue_uncorrected": float(stats.t.sf(abs(t_plain), df)),
        "better_prob": float(1 - post.cdf(0)),
        "rope_prob": float(post.cdf(ROPE) - post.cdf(-ROPE)),
        "credible_intervals": {str(level): [float(v) for v in post.interval(level)]
                               for level in (0.5, 0.75, 0.95)},
    }  # fmt: skip
    n_comparisons = len(names) * (len(names) - 1) // 2
    pairs = []
    for i, k in combinations(range(len(names)), 2):
        d = scores.iloc[i].to_numpy() - scores.iloc[k].to_numpy()
        sd = corrected_sd(d, n_train, n_test)
        t_stat = d.mean() / sd
        post = stats.t(df, loc=d.mean(), scale=sd)
        pairs.append({
            "model_1": names[i], "model_2": names[k], "t_stat": float(t_stat),
            "p_val": float(min(1.0, stats.t.sf(abs(t_stat), df) * n_comparisons)),
            "worse_prob": float(post.cdf(-ROPE)), "better_prob": float(1 - post.cdf(ROPE)),
            "rope_prob": float(post.cdf(ROPE) - post.cdf(-ROPE)),
        })  # fmt: skip
    return {"ranked": names, "mean_test_score": scores.mean(axis=1).tolist(), "first": first,
            "pairwise": pairs}  # fmt: skip


def main() -> None:
    results, n_train, n_test = search()
    splits = results.filter(regex=r"^split\d+_test_score$")
    tidy = pd.DataFrame({
        "model": np.repeat(results.index.to_numpy(), splits.shape[1]),
        "repeat": np.tile(np.arange(splits.shape[1]) // N_SPLITS, len(results)),
        "fold": np.tile(np.arange(splits.shape[1]) % N_SPLITS, len(results)),
        "score": splits.to_numpy().ravel(),
    })  # fmt: skip
    tidy.to_csv(DATA, index=False)
    ranked = splits.loc[results.sort_values("rank_test_score").index]
    out = {
        "scikit_learn": sklearn.__version__, "n_train": n_train, "n_test": n_test,
        "rope": ROPE, "models": list(results.index),
        **example_numbers(ranked, n_train, n_test),
    }  # fmt: skip
    first = out["first"]
    printed = ("t", "pvalue", "t_uncorrected", "pvalue_uncorrected", "better_prob", "rope_prob")
    out["printed"] = {  # as the example prints them (3 decimals)
        "first": {k: round(first[k], 3) for k in printed},
        "pairwise": [{k: (round(v, 3) if isinstance(v, float) else v) for k, v in row.items()}
                     for row in out["pairwise"]],
    }  # fmt: skip
    (HERE / "grid_search.json").write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(out["printed"], indent=1))


if __name__ == "__main__":
    main()
