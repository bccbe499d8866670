"""Calibration of the corrected resampled t-test (``cv_ttest``) on real cross-validation: the
size at alpha 0.05 (two-sided) of the corrected and of the plain (uncorrected) paired t-test
over 10 x 10-fold cross-validation, under true nulls built from real data.

Run: ``python validation/calibration_cv.py`` (the full study, about 11 minutes of CPU; one
data set per process with ``--dataset NAME``, then ``--merge``), ``--quick`` (40 replicates
per cell) or ``--n-sims N``; ``--report`` prints the Markdown table of ``docs/cv_ttest.md``
from the CSV. Needs scikit-learn (not a dependency of the package). Writes
``validation/results/cv_size.csv`` and ``validation/results/cv_size_info.csv``.

Each replicate draws a fresh random subsample of ``N_ROWS`` = 250 rows (without replacement)
from a bundled scikit-learn data set (``breast_cancer``: 569 rows, 30 features, 2 classes;
``digits``: 1,797 rows, 64 features, 10 classes: the population), splits it by
``RepeatedStratifiedKFold(n_splits=10, n_repeats=10)`` with the replicate's own seed, fits both
systems on every training set (225 rows) and scores accuracy on its test fold (25 rows): 100
paired scores per system. The differences go to ``cv_ttest`` with ``test_fraction = 1/10``
(one call per cell, one ``by=`` group per replicate); a replicate rejects when the two-sided
p-value is at most 0.05. Two nulls:

* ``two learners``: a 5-nearest-neighbour classifier (a) against Gaussian naive Bayes (b),
  whose expected accuracies differ by ``delta``, the population difference at 225 training
  rows; b's scores are shifted by ``-delta`` so that the null holds. ``delta`` is estimated
  beforehand from ``N_DELTA`` = 2,000 independent draws of a training set made as in a
  replicate (a subsample of 250 and one stratified 10-fold split), both learners tested on every
  row of the data set outside the training set (its standard error is reported, 0.0003 to
  0.0006: a few hundredths of the standard error of one replicate's mean difference). This is
  Nadeau and Bengio's null: the two algorithms' expected difference over training sets drawn
  from the population is zero, and the folds' differences are correlated through the training
  sets they share.
* ``two seeds``: the same randomized learner twice (a decision tree with
  ``max_features="sqrt"``), each fit with a fresh random seed. The two systems are then
  exchangeable given the data, so every fold's difference has mean zero given the training
  set, and the folds' differences are uncorrelated: the plain t-test is right here and the
  correction is conservative.

Monte Carlo standard errors are binomial, ``sqrt(p (1 - p) / n_sims)``. Each cell's generator
is seeded by ``SEED`` and a CRC-32 of the cell's name.
"""

from __future__ import annotations

import argparse
import os
import platform
import time
import warnings
import zlib
from pathlib import Path

import numpy as np
import pandas as pd

import pairedstats

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"
SEED = 20261207
ALPHA = 0.05
N_ROWS = 250
N_SPLITS, N_REPEATS = 10, 10
N_SIMS = 600
N_DELTA = int(os.environ.get("CV_SIZE_N_DELTA", 2000))  # fewer only to try the script
DATASETS = ("breast_cancer", "digits")
NULLS = ("two learners", "two seeds")


def load(name: str):
    from sklearn import datasets

    return getattr(datasets, f"load_{name}")(return_X_y=True)


def systems(null: str, gen: np.random.Generator):
    """The two unfitted systems (a, b) of one fit."""
    from sklearn.naive_bayes import GaussianNB
    from sklearn.neighbors import KNeighborsClassifier
    from sklearn.tree import DecisionTreeClassifier

    if null == "two learners":
        return KNeighborsClassifier(n_neighbors=5), GaussianNB()
    if null == "two seeds":
        seeds = gen.integers(2**31, size=2)
        return tuple(DecisionTreeClassifier(max_features="sqrt", random_state=int(s))
                     for s in seeds)  # fmt: skip
    raise ValueError(null)


def subsample(y, gen: np.random.Generator):
    """A replicate's rows and its 10 x 10 stratified splits."""
    from sklearn.model_selection import RepeatedStratifiedKFold

    rows = gen.choice(len(y), size=N_ROWS, replace=False)
    cv = RepeatedStratifiedKFold(
        n_splits=N_SPLITS, n_repeats=N_REPEATS, random_state=int(gen.integers(2**31))
    )
    return rows, cv.split(rows, y[rows])


def accuracies(X, y, train, test, null: str, gen) -> tuple[float, float]:
    a, b = systems(null, gen)
    return tuple(float(np.mean(m.fit(X[train], y[train]).predict(X[test]) == y[test]))
                 for m in (a, b))  # fmt: skip


def population_delta(X, y, gen) -> tuple[float, float]:
    """``delta`` (b minus a) and its standard error: training sets drawn as in a replicate,
    tested on every other row of the data set."""
    d = np.empty(N_DELTA)
    for i in range(N_DELTA):
        rows, splits = subsample(y, gen)
        train = rows[next(iter(splits))[0]]
        test = np.setdiff1d(np.arange(len(y)), train)
        a, b = accuracies(X, y, train, test, "two learners", gen)
        d[i] = b - a
    return float(d.mean()), float(d.std(ddof=1) / np.sqrt(N_DELTA))


def run_cell(dataset: str, null: str, n_sims: int) -> dict:
    X, y = load(dataset)
    gen = np.random.default_rng([SEED, zlib.crc32(f"{dataset}/{null}".encode())])
    delta, delta_se = population_delta(X, y, gen) if null == "two learners" else (0.0, 0.0)
    scores = np.empty((n_sims, N_SPLITS * N_REPEATS, 2))
    for r in range(n_sims):
        rows, splits = subsample(y, gen)
        for j, (train, test) in enumerate(splits):
            scores[r, j] = accuracies(X, y, rows[train], rows[test], null, gen)
    scores[:, :, 1] -= delta
    n_folds = scores.shape[1]
    tidy = pd.DataFrame({
        "replicate": np.repeat(np.arange(n_sims), 2 * n_folds),
        "split": np.tile(np.repeat(np.arange(n_folds), 2), n_sims),
        "system": np.tile(["a", "b"], n_sims * n_folds),
        "accuracy": scores.ravel(),
    })  # fmt: skip
    res = tidy.paired.cv_ttest(
        item="split", system="system", score="accuracy", by="replicate",
        test_fraction=1 / N_SPLITS,
    )  # fmt: skip
    out = {"dataset": dataset, "null": null, "n_rows": N_ROWS, "n_sims": n_sims, "alpha": ALPHA,
           "delta": delta, "delta_se": delta_se}  # fmt: skip
    for test, column in (("corrected", "pvalue"), ("uncorrected", "pvalue_uncorrected")):
        size = float(np.mean(res[column].to_numpy() <= ALPHA))
        out[f"size_{test}"] = size
        out[f"se_{test}"] = float(np.sqrt(size * (1 - size) / n_sims))
    m = res["difference"].to_numpy()
    d = scores[:, :, 1] - scores[:, :, 0]
    out["mean_difference"] = float(m.mean())
    out["sd_mean_difference"] = float(m.std(ddof=1))  # over replicates
    out["mean_fold_variance"] = float(d.var(axis=1, ddof=1).mean())  # s^2, within replicates
    out["accuracy_a"] = float(scores[:, :, 0].mean())
    out["accuracy_b"] = float(scores[:, :, 1].mean() + delta)
    return out


def report(path: Path = RESULTS / "cv_size.csv") -> str:
    """The Markdown table of ``docs/cv_ttest.md`` from the committed CSV."""
    df = pd.read_csv(path)
    lines = [
        "| data set | null | accuracy a, b | corrected t-test | plain t-test |",
        "|---|---|---|---|---|",
    ]
    for row in df.itertuples():
        lines.append(
            f"| {row.dataset} | {row.null} | {row.accuracy_a:.3f}, {row.accuracy_b:.3f} | "
            f"{row.size_corrected:.3f} ({row.se_corrected:.3f}) | "
            f"{row.size_uncorrected:.3f} ({row.se_uncorrected:.3f}) |"
        )
    return "\n".join(lines)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="40 replicates per cell")
    parser.add_argument("--n-sims", type=int, default=None)
    parser.add_argument("--dataset", choices=DATASETS, default=None, help="one data set")
    parser.add_argument("--merge", action="store_true", help="merge the per-data-set files")
    parser.add_argument("--report", action="store_true", help="print the docs table")
    args = parser.parse_args(argv)
    if args.report:
        print(report())
        return
    if args.merge:
        parts = [RESULTS / f"cv_size_{name}.csv" for name in DATASETS]
        pd.concat([pd.read_csv(p) for p in parts]).to_csv(RESULTS / "cv_size.csv", index=False)
        for p in parts:
            p.unlink()
        print(report())
        return
    n_sims = args.n_sims or (40 if args.quick else N_SIMS)
    # a digits subsample of 250 may hold fewer than 10 rows of a class: sklearn warns
    warnings.filterwarnings("ignore", "The least populated class", UserWarning)
    rows, started = [], time.process_time()
    for dataset in (args.dataset,) if args.dataset else DATASETS:
        for null in NULLS:
            t0 = time.process_time()
            rows.append(run_cell(dataset, null, n_sims))
            print(rows[-1], f"{time.process_time() - t0:.0f} s CPU", flush=True)
    if args.quick or args.n_sims:
        return
    import sklearn

    RESULTS.mkdir(exist_ok=True)
    name = f"cv_size_{args.dataset}.csv" if args.dataset else "cv_size.csv"
    pd.DataFrame(rows).to_csv(RESULTS / name, index=False)
    info = RESULTS / "cv_size_info.csv"
    pd.concat(([pd.read_csv(info)] if info.exists() else []) + [pd.DataFrame([{
        "datasets": args.dataset or " ".join(DATASETS), "seed": SEED, "n_sims": n_sims,
        "cpu_seconds": round(time.process_time() - started),
        "scikit_learn": sklearn.__version__, "pairedstats": pairedstats.__version__,
        "numpy": np.__version__, "python": platform.python_version(),
        "threads": os.environ.get("OMP_NUM_THREADS", ""),
    }])]).to_csv(info, index=False)  # fmt: skip
    print(report() if not args.dataset else "")


if __name__ == "__main__":
    main()
