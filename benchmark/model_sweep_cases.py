"""Model sweeps: the corrected t-test over cross-validation folds and the Bayesian signed-rank
test over data sets, for ``run_all.py`` (and standalone).

**cv_ttest.** ``p`` models scored on the ``r x k`` folds of a repeated cross-validation of
each of ``D`` data sets, an xarray Dataset with dims ``(dataset, repeat, fold, model)`` (the
models named in no sorted order); every pair of models on every data set, b - a with a
before b in the models' order, ``test_fraction = 1/k``.

* pairedstats: ``ds.paired.cv_ttest(item="fold", repeat="repeat", system="model",
  test_fraction=1/k)`` (the corrected t, its p-value and interval, the uncorrected t and
  p-value of every pair on every data set);
* peer: what a user would write after scikit-learn's gallery example "Statistical comparison
  of models using grid search": its ``corrected_std`` and ``compute_corrected_ttest`` (numpy
  ``mean``/``var`` and ``scipy.stats.t.sf``) called per pair and data set in a loop, made
  two-sided, with the corrected 95% interval, each row labelled by the data set's and the
  models' names;
* floor: the least the job needs: the differences of all pairs on all data sets at once
  (``(D, r k, pairs)``), their means and variances, t, one vectorized ``t.sf`` and the
  interval (no labels, no checks, no uncorrected test).

**bayes_signrank.** ``p`` systems x ``D`` data sets (each system's mean score on each data
set) in a wide table, the systems named in no sorted order; every pair, a rope of one point,
``n_samples`` posterior samples (50,000: baycomp's default and ours).

* pairedstats: ``df.paired.bayes_signrank(rope=0.01, n_samples=50_000, rng=1)``;
* peer: baycomp's ``two_on_multiple(x, y, rope=0.01, runs=1)`` (its ``SignedRankTest``,
  ``nsamples=50000``) per pair in a loop, labelled by the systems' names; skipped, and said
  so, when baycomp is not installed (``pip install --no-deps baycomp``: a peer, not a
  dependency);
* floor: the same posterior computed the shortest way: one set of Dirichlet weights for all
  pairs (one ``standard_gamma`` call, no label-keyed streams), the Walsh-average sides of all
  pairs stacked in one matrix, ``w @ H`` in chunks of samples, the fractions of argmax and
  the means (no labels, no checks, no ties rule).

Run standalone: ``python benchmark/model_sweep_cases.py [--quick]`` times the calls in turn
(warm, interleaved) and prints the median of each one's turns and of the turns' ratios, and
the tracemalloc peak of one bayes_signrank call at two numbers of systems.
"""

from __future__ import annotations

import importlib.util
import itertools
import sys

import numpy as np

#: baycomp installed? (the peer of the Bayesian signed-rank test; its cases need it)
BAYCOMP = importlib.util.find_spec("baycomp") is not None
#: The rope of the Bayesian signed-rank test: one accuracy point.
ROPE = 0.01

#: What ``run_all.py`` reads of this module (``run_all._case_modules`` tells the format): the
#: sizes (cv_ttest: data sets, repetitions, folds, models; bayes: data sets, systems,
#: samples), the headlines (the pairedstats / floor figures reported, with no goal), the
#: repeats of baycomp's cases (about 30 s a call) and the peak memory of our call.
SIZES = {
    "quick": {"cv_ttest": (10, 5, 10, 20), "bayes": (50, 10, 10_000)},
    "full": {"cv_ttest": (30, 10, 10, 20), "bayes": (50, 10, 50_000)},
}
HEADLINES = (
    ("sklearn gallery's corrected t loop / pairedstats (timed in turn)", "cv_ttest_gallery",
     "cv_ttest_ours_loop", 3.0, False),
    ("pairedstats / vectorized floor (all pairs and data sets at once)", "cv_ttest_ours",
     "floor_cv_ttest", None, True),
) + (
    (("baycomp two_on_multiple loop / pairedstats (timed in turn)", "bayes_baycomp",
      "bayes_ours_loop", 3.0, False),) if BAYCOMP else ()
) + (
    ("pairedstats / numpy floor (one weight draw, stacked sides)", "bayes_ours",
     "floor_bayes", None, True),
)  # fmt: skip
REPEATS = {"bayes_baycomp": 2, "bayes_ours_loop": 3}
MEMORY = (("bayes_ours", 1024.0),)
PEER = (
    "the corrected t of scikit-learn's gallery example \"Statistical comparison of models "
    'using grid search" (numpy `mean`/`var` and `scipy.stats.t`) per pair and data set in a '
    "loop; baycomp's `two_on_multiple` (its `SignedRankTest`) per pair in a loop, skipped "
    "when baycomp is not installed"
)


# --------------------------------------------------------------------------- cv_ttest
def folds(n_datasets: int, n_repeats: int, n_folds: int, n_models: int):
    """Accuracies of models of close quality on the folds of each data set, as a Dataset
    ``(dataset, repeat, fold, model)``: a data set's level, a fold's difficulty shared by the
    models of a repetition, a model's skill on the data set, noise."""
    import xarray as xr

    gen = np.random.default_rng(11)
    shape = (n_datasets, n_repeats, n_folds, n_models)
    level = gen.uniform(0.6, 0.9, size=(n_datasets, 1, 1, 1))
    fold = gen.normal(0.0, 0.02, size=(n_datasets, n_repeats, n_folds, 1))
    skill = gen.normal(0.0, 0.01, size=(n_datasets, 1, 1, n_models))
    acc = np.clip(level + fold + skill + gen.normal(0.0, 0.01, size=shape), 0.0, 1.0)
    names = [f"m{i:02d}" for i in np.random.default_rng(12).permutation(n_models)]
    return xr.Dataset(
        {"acc": (("dataset", "repeat", "fold", "model"), acc)},
        coords={"dataset": [f"d{i:02d}" for i in range(n_datasets)], "model": names},
    )


def cv_ours(ds):
    """pairedstats on the Dataset, every pair on every data set, as a zero-argument call."""
    import pairedstats  # noqa: F401  (the accessor)

    fraction = 1.0 / ds.sizes["fold"]
    return lambda: ds.paired.cv_ttest(item="fold", repeat="repeat", system="model",
                                      test_fraction=fraction)  # fmt: skip


def cv_gallery(ds):
    """The gallery's corrected t per pair and data set (two-sided, with the 95% interval),
    each row labelled by the names."""
    from scipy import stats

    def corrected_std(differences, n_train, n_test):
        kr = len(differences)
        return np.sqrt(np.var(differences, ddof=1) * (1 / kr + n_test / n_train))

    def compute_corrected_ttest(differences, df, n_train, n_test):
        mean = np.mean(differences)
        std = corrected_std(differences, n_train, n_test)
        t_stat = mean / std
        return t_stat, stats.t.sf(np.abs(t_stat), df), mean, std

    def call():
        acc = ds["acc"].transpose("dataset", "repeat", "fold", "model")
        x = acc.to_numpy().reshape(ds.sizes["dataset"], -1, ds.sizes["model"])
        n_test, n_train = 1, ds.sizes["fold"] - 1  # the shares of a k-fold split
        df = x.shape[1] - 1
        q = stats.t.ppf(0.975, df)
        names, rows = ds["model"].values, []
        for d, dataset in enumerate(ds["dataset"].values):
            for i, j in itertools.combinations(range(x.shape[2]), 2):
                t, p, mean, std = compute_corrected_ttest(x[d, :, j] - x[d, :, i], df,
                                                          n_train, n_test)  # fmt: skip
                rows.append((dataset, names[i], names[j], t, min(1.0, 2 * p), mean - q * std,
                             mean + q * std))  # fmt: skip
        return rows

    return call


def cv_floor(ds):
    """All pairs and data sets at once: differences, means, variances, t, p and interval."""
    from scipy import stats

    def call():
        acc = ds["acc"].transpose("dataset", "repeat", "fold", "model").to_numpy()
        x = acc.reshape(acc.shape[0], -1, acc.shape[-1])
        a, b = np.triu_indices(x.shape[2], 1)
        d = x[:, :, b] - x[:, :, a]
        n, ratio = d.shape[1], 1.0 / (acc.shape[2] - 1)
        mean = d.mean(axis=1)
        se = np.sqrt((1.0 / n + ratio) * d.var(axis=1, ddof=1))
        t = mean / se
        half = stats.t.ppf(0.975, n - 1) * se
        return t, 2 * stats.t.sf(np.abs(t), n - 1), mean - half, mean + half

    return call


# --------------------------------------------------------------------------- bayes
def means(n_datasets: int, n_systems: int):
    """Mean accuracies of systems of close quality on data sets of different difficulty, a
    wide table (rows: data sets), the systems named in no sorted order."""
    import pandas as pd

    gen = np.random.default_rng(21)
    level = gen.uniform(0.6, 0.9, size=(n_datasets, 1))
    skill = gen.permutation(np.linspace(-0.01, 0.01, n_systems))
    x = np.clip(level + skill + gen.normal(0.0, 0.015, size=(n_datasets, n_systems)), 0, 1)
    names = [f"s{i:02d}" for i in np.random.default_rng(22).permutation(n_systems)]
    return pd.DataFrame(x, columns=names, index=[f"d{i:02d}" for i in range(n_datasets)])


def bayes_ours(table, n_samples: int):
    """pairedstats on the wide table, every pair, as a zero-argument call."""
    import pairedstats  # noqa: F401  (the accessor)

    return lambda: table.paired.bayes_signrank(rope=ROPE, n_samples=n_samples, rng=1)


def bayes_baycomp(table, n_samples: int):
    """baycomp's signed-rank test of every pair, one pair at a time, labelled by the names."""
    from baycomp import two_on_multiple

    def call():
        x, names, rows = table.to_numpy(), table.columns, []
        for i, j in itertools.combinations(range(x.shape[1]), 2):
            probs = two_on_multiple(x[:, i], x[:, j], rope=ROPE, runs=1, nsamples=n_samples,
                                    random_state=1)  # fmt: skip
            rows.append((names[i], names[j], *probs))
        return rows

    return call


def bayes_floor(table, n_samples: int, chunk: int = 1024):
    """The same posterior, the shortest way: one weight draw for all pairs, their sides
    stacked, ``w @ H`` in chunks of samples; fractions of argmax and means."""

    def call():
        x = table.to_numpy()
        a, b = np.triu_indices(x.shape[1], 1)
        z = np.vstack([np.zeros((1, len(a))), x[:, b] - x[:, a]])  # (m, pairs)
        m, k = z.shape
        s = z[:, None, :] + z[None, :, :]  # (m, m, pairs)
        sides = np.concatenate(
            [(-s > 2 * ROPE) + 0.5 * (-s == 2 * ROPE), (s > 2 * ROPE) + 0.5 * (s == 2 * ROPE)],
            axis=1,
        )
        sides = sides.transpose(0, 2, 1).reshape(m, -1)  # pair c: columns 2 m c .. 2 m (c + 1)
        alpha = np.ones(m)
        alpha[0] = 0.5
        w = np.random.default_rng(1).standard_gamma(alpha, size=(n_samples, m))
        w /= w.sum(axis=1, keepdims=True)
        wins, total = np.zeros((k, 3)), np.zeros((k, 3))
        for lo in range(0, n_samples, chunk):
            ww = w[lo : lo + chunk]
            both = (ww @ sides).reshape(len(ww), k, 2, m)
            lr = np.einsum("ikjm,im->ikj", both, ww)  # (rows, pairs, left/right)
            p = np.stack([lr[..., 0], 1.0 - lr[..., 0] - lr[..., 1], lr[..., 1]], axis=-1)
            wins += np.eye(3)[p.argmax(axis=-1)].sum(axis=0)
            total += p.sum(axis=0)
        return wins / n_samples, total / n_samples

    return call  # fmt: skip


def add_cases(add, sizes: dict) -> None:
    """The model sweep cases, through ``run_all``'s ``add``."""
    n_datasets, n_repeats, n_folds, n_models = sizes["cv_ttest"]
    n_pairs = n_models * (n_models - 1) // 2
    group = (f"cv_ttest, all {n_pairs} pairs of {n_models} models x {n_repeats} x {n_folds} "
             f"folds x {n_datasets} data sets (xarray)")  # fmt: skip
    cases = {
        "floor_cv_ttest": ("floor: numpy, all pairs and data sets at once", cv_floor,
                           None),
        "cv_ttest_gallery": ("sklearn gallery corrected t, loop over pairs",
                             cv_gallery, None),
        "cv_ttest_ours": ("pairedstats cv_ttest(repeat=) on the Dataset", cv_ours,
                          "floor_cv_ttest"),
        "cv_ttest_ours_loop": ("pairedstats cv_ttest(), in turn with the loop", cv_ours,
                               "cv_ttest_gallery"),
    }  # fmt: skip
    for name, (label, make, peer) in cases.items():
        add(name, group, label, lambda make=make: (make(folds(*sizes["cv_ttest"])), None),
            True, peer)  # fmt: skip

    n_datasets, n_systems, n_samples = sizes["bayes"]
    group = (f"bayes_signrank, all {n_systems * (n_systems - 1) // 2} pairs of {n_systems} "
             f"systems x {n_datasets} data sets x {n_samples:,} samples")  # fmt: skip
    cases = {
        "floor_bayes": ("floor: numpy, one weight draw, stacked sides", bayes_floor, None,
                        True),
        "bayes_baycomp": ("baycomp two_on_multiple per pair", bayes_baycomp, None, False),
        "bayes_ours": ("pairedstats bayes_signrank()", bayes_ours, "floor_bayes", True),
        "bayes_ours_loop": ("pairedstats bayes_signrank(), turns with baycomp",
                            bayes_ours, "bayes_baycomp", True),
    }  # fmt: skip
    if not BAYCOMP:  # the peer is not installed: its cases are left out
        del cases["bayes_baycomp"], cases["bayes_ours_loop"]
    for name, (label, make, peer, warm) in cases.items():
        add(name, group, label,
            lambda make=make: (make(means(n_datasets, n_systems), n_samples), None), warm,
            peer)  # fmt: skip


def peak_mib(call) -> float:
    """The tracemalloc peak of one call, MiB."""
    import tracemalloc

    tracemalloc.start()
    call()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak / 2**20


def _ratios(turns: dict, pairs: tuple) -> None:
    print("  medians of the turns:")
    for name, seconds in turns.items():
        print(f"    {name:<44} {np.median(seconds) * 1e3:10.1f} ms")
    print("  medians of the turns' ratios:")
    for top, bottom, label in pairs:
        ratio = np.median(np.array(turns[top]) / np.array(turns[bottom]))
        print(f"    {label:<44} {ratio:9.2f}x")


def main(quick: bool) -> None:
    from timing import interleaved

    sizes = SIZES["quick" if quick else "full"]
    ds = folds(*sizes["cv_ttest"])
    n_datasets, n_repeats, n_folds, n_models = sizes["cv_ttest"]
    title = (f"cv_ttest, every pair of {n_models} models x {n_repeats} x {n_folds} folds x "
             f"{n_datasets} data sets")  # fmt: skip
    calls = {"sklearn gallery loop": cv_gallery(ds), "floor (vectorized numpy)": cv_floor(ds),
             "pairedstats, Dataset": cv_ours(ds)}  # fmt: skip
    turns = interleaved(title, calls, 5 if quick else 9)
    _ratios(turns, (("sklearn gallery loop", "pairedstats, Dataset", "gallery loop / pairedstats"),
                    ("pairedstats, Dataset", "floor (vectorized numpy)",
                     "pairedstats / floor")))  # fmt: skip

    n_datasets, n_systems, n_samples = sizes["bayes"]
    table = means(n_datasets, n_systems)
    title = (f"bayes_signrank, every pair of {n_systems} systems x {n_datasets} data sets x "
             f"{n_samples:,} samples")  # fmt: skip
    calls = {"floor (numpy, one weight draw)": bayes_floor(table, n_samples),
             "pairedstats, wide table": bayes_ours(table, n_samples)}  # fmt: skip
    if BAYCOMP:
        calls = {"baycomp two_on_multiple loop": bayes_baycomp(table, n_samples), **calls}
    else:
        print("baycomp is not installed: its case is skipped (pip install --no-deps baycomp)")
    turns = interleaved(title, calls, 2 if quick else 3)
    pairs = (("pairedstats, wide table", "floor (numpy, one weight draw)",
              "pairedstats / floor"),)  # fmt: skip
    if BAYCOMP:
        pairs = (("baycomp two_on_multiple loop", "pairedstats, wide table",
                  "baycomp loop / pairedstats"), *pairs)  # fmt: skip
    _ratios(turns, pairs)
    print("  tracemalloc peak of one pairedstats call (the samples are not kept):")
    for systems in (n_systems, 2 * n_systems):
        peak = peak_mib(bayes_ours(means(n_datasets, systems), n_samples))
        print(f"    {systems} systems ({systems * (systems - 1) // 2} pairs): {peak:8.1f} MiB")


if __name__ == "__main__":
    main("--quick" in sys.argv)
