"""A small model sweep for ``docs/model_sweeps.md``: three classifiers on four of
scikit-learn's bundled data sets, each scored by accuracy on the 100 test folds of a 10 x 10
stratified cross-validation.

``python tests/reference/cv_ttest/model_sweep.py`` (needs scikit-learn; the package and CI
read the file) writes ``src/pairedstats/data/model_sweep.csv`` (tidy: ``dataset, model,
repeat, fold, accuracy``; read by ``pairedstats.datasets.load_model_sweep``).

Data sets (scikit-learn's ``load_*``, in this order): ``wine`` (178 rows, 3 classes),
``breast_cancer`` (569, 2), ``iris`` (150, 3), ``digits`` (1,797, 10). Models (in this
order): ``logreg`` (standardized features, ``LogisticRegression(max_iter=2000)``), ``forest``
(``RandomForestClassifier(n_estimators=100, random_state=0)``) and ``knn`` (standardized
features, ``KNeighborsClassifier(n_neighbors=5)``). Every model of a data set is scored on the
same splits: ``RepeatedStratifiedKFold(n_splits=10, n_repeats=10, random_state=0)``, split
``s`` being repetition ``s // 10``, fold ``s % 10``. Accuracies are written to 6 decimals
(a fold holds at most 180 rows, so no two distinct accuracies round together).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from sklearn import datasets
from sklearn.ensemble import RandomForestClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import RepeatedStratifiedKFold, cross_val_score
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

DATA = Path(__file__).resolve().parents[3] / "src" / "pairedstats" / "data" / "model_sweep.csv"
DATASETS = ("wine", "breast_cancer", "iris", "digits")
N_SPLITS, N_REPEATS = 10, 10


def models():
    return {
        "logreg": make_pipeline(StandardScaler(), LogisticRegression(max_iter=2000)),
        "forest": RandomForestClassifier(n_estimators=100, random_state=0),
        "knn": make_pipeline(StandardScaler(), KNeighborsClassifier(n_neighbors=5)),
    }


def main() -> None:
    frames = []
    for name in DATASETS:
        X, y = getattr(datasets, f"load_{name}")(return_X_y=True)
        cv = RepeatedStratifiedKFold(n_splits=N_SPLITS, n_repeats=N_REPEATS, random_state=0)
        for model, estimator in models().items():
            acc = cross_val_score(estimator, X, y, cv=cv, scoring="accuracy")
            split = np.arange(len(acc))
            frames.append(pd.DataFrame({
                "dataset": name, "model": model, "repeat": split // N_SPLITS,
                "fold": split % N_SPLITS, "accuracy": np.round(acc, 6),
            }))  # fmt: skip
            print(name, model, round(float(acc.mean()), 4), flush=True)
    pd.concat(frames, ignore_index=True).to_csv(DATA, index=False)


if __name__ == "__main__":
    main()
