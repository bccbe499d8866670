"""The fixed calls whose numbers are pinned in ``values.json``.

Every method, every path that draws or decides differently (bootstrap index, counts,
clusters, strata with weights, ``statistic=``, percentile, basic, BCa, studentized, one-sided
and adjusted; Tukey HSD exact and
Monte Carlo, on a grid and continuous, few and many systems, all pairs and against a
baseline; rank-sum exact
and asymptotic; signed-rank with zeros, ``by=`` and a baseline; Friedman with each post-hoc
test by groups; the model confidence set (T_max by groups, T_R with clusters and strata);
an xarray sweep and ``by=`` groups). A change of any of these numbers is a decision: re-run
``python tests/golden/calls.py --write`` and say why in the changelog.

A call's name begins with the first word of its method's command (``tukey-...``: Tukey HSD).
A registered method that no call written here names gets its default call,
``<command>-default``, built from its spec (:func:`default_call`), unless :data:`UNPINNED`
says why it has none; the golden test then fails until its numbers are recorded.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import xarray as xr

import pairedstats
from pairedstats.methods._shared.registry import SPECS, signature

VALUES = Path(__file__).with_name("values.json")
N = 1000  # resamples or trials: small enough for CI, enough to exercise every block
#: Registered methods without a call, and why.
UNPINNED = {
    "items_for": "a plan without draws, from the spread of the table (its numbers are "
    "those of pairedstats.items_for and the McNemar power functions); it had no call when "
    "values.json was last recorded: give it one at the next recording",
    "rank": "the rank sets of the bootstrap's max-t intervals of all pairs; it had no call "
    "when values.json was last recorded: give it one at the next recording",
    "report": "a summary that shows the numbers of the methods it runs (its test on each "
    "metric, rank, mcs) as they are",
}


def _runs():
    return pairedstats.datasets.load_runs()


def _synthetic(seed=11, n=60, k=3):
    """Items with clusters (3 items each) in two strata of unequal sizes, k systems."""
    rng = np.random.default_rng(seed)
    item = np.arange(n)
    base = rng.normal(size=n)
    rows = []
    for j in range(k):
        score = base + 0.1 * j + rng.normal(scale=0.5, size=n)
        rows.append(
            pd.DataFrame(
                {
                    "item": item,
                    "system": f"s{j}",
                    "score": score,
                    "cluster": item // 3,
                    "stratum": np.where(item < 15, "small", "large"),
                    "tp": rng.integers(0, 5, n),
                    "fp": rng.integers(0, 3, n),
                    "fn": rng.integers(0, 3, n),
                    "correct": (rng.random(n) < 0.6 + 0.05 * j).astype(float),
                }
            )
        )
    return pd.concat(rows, ignore_index=True)


def _pooled_f1(tp, fp, fn, axis=-1):
    tp, fp, fn = (np.sum(x, axis=axis) for x in (tp, fp, fn))
    return 2 * tp / (2 * tp + fp + fn)


def _sweep():
    rng = np.random.default_rng(5)
    data = rng.normal(size=(2, 3, 25, 4)) + np.arange(4) * 0.2
    return xr.Dataset(
        {"score": (("seed", "dataset", "item", "system"), data)},
        coords={"seed": [0, 1], "dataset": ["a", "b", "c"], "system": list("wxyz")},
    )


def _sweep_table(method: str, rng: int) -> pd.DataFrame:
    """A sweep's result Dataset as a flat table (comparison labels as columns)."""
    result = getattr(_sweep().paired, method)(n_resamples=N, rng=rng)
    return result.reset_index("comparison").to_dataframe().reset_index()


def covers(name: str, spec) -> bool:
    """The call ``name`` is one of ``spec``'s: it begins with its command's first word."""
    return name.startswith(spec.command.split("-")[0] + "-")


def default_call(spec):
    """A function returning the table of ``spec``'s default call: on the bundled runs'
    ``ndcg`` (a method of pass/fail scores: the synthetic data's ``correct``; of two samples:
    the ratings' deviations), with its spec's ``example_keywords``, and ``n_resamples=N``,
    ``rng=20`` where it takes them."""
    own = signature(spec, "design").parameters
    keywords = {k: v for k, v in {"n_resamples": N, "rng": 20}.items() if k in own}
    keywords.update(spec.example_keywords)
    if spec.road == "two-sample":
        data, inputs = (
            pairedstats.datasets.load_ratings(),
            dict(score="deviation", group="changed", a="unchanged", b="changed"),
        )
    elif spec.binary_scores:
        data, inputs = _synthetic(), dict(item="item", system="system", score="correct")
    else:
        data, inputs = _runs(), dict(item="query", system="run", score="ndcg")
    method = getattr(data.paired, spec.name)
    if spec.table:
        return lambda: method(**inputs, **keywords)
    return lambda: method(**inputs, **keywords).to_frame()


def calls() -> dict:
    """Name -> a function returning the result table (a DataFrame)."""
    out = written_calls()
    for name, spec in SPECS.items():
        if name not in UNPINNED and not any(covers(call, spec) for call in out):
            out[f"{spec.command}-default"] = default_call(spec)
    return out


def written_calls() -> dict:
    """The calls written here, name -> a function returning the result table."""
    runs, syn = _runs(), _synthetic()
    tidy = dict(item="query", system="run")
    s = dict(item="item", system="system", score="score")
    out = {}
    for method in ("percentile", "basic", "bca"):
        out[f"bootstrap-{method}-by"] = lambda m=method: runs.paired.bootstrap(
            **tidy, score="ndcg", baseline="bm25", by="collection", method=m, n_resamples=N,
            rng=1,
        )  # fmt: skip
    out["bootstrap-counts"] = lambda: syn.paired.bootstrap(
        item="item", system="system", score="correct", resampling="counts", n_resamples=N,
        baseline="s0", rng=2,
    )  # fmt: skip
    out["bootstrap-cluster-strata-weights-bca"] = lambda: syn.paired.bootstrap(
        **s, cluster="cluster", strata="stratum", weights={"small": 0.5, "large": 0.5},
        method="bca", n_resamples=N, rng=3,
    )  # fmt: skip
    out["bootstrap-strata"] = lambda: syn.paired.bootstrap(
        **s, strata="stratum", n_resamples=N, rng=4
    )
    out["bootstrap-statistic"] = lambda: syn.paired.bootstrap(
        item="item", system="system", score=["tp", "fp", "fn"], statistic=_pooled_f1,
        method="bca", n_resamples=N, rng=5,
    )  # fmt: skip
    out["bootstrap-studentized-greater-maxt-by"] = lambda: runs.paired.bootstrap(
        **tidy, score="ndcg", baseline="bm25", by="collection", method="studentized",
        alternative="greater", adjust="max-t", n_resamples=N, rng=14,
    )  # fmt: skip
    out["bootstrap-studentized-cluster-strata"] = lambda: syn.paired.bootstrap(
        **s, cluster="cluster", strata="stratum", method="studentized", adjust="bonferroni",
        n_resamples=N, rng=15,
    )  # fmt: skip
    out["bootstrap-studentized-statistic"] = lambda: syn.paired.bootstrap(
        item="item", system="system", score=["tp", "fp", "fn"], statistic=_pooled_f1,
        method="studentized", n_resamples=N, rng=16,
    )  # fmt: skip
    out["bootstrap-bca-holm-less"] = lambda: syn.paired.bootstrap(
        **s, cluster="cluster", method="bca", alternative="less", adjust="holm",
        n_resamples=N, rng=17,
    )  # fmt: skip
    out["tukey-grid-by"] = lambda: runs.paired.tukey_hsd(
        **tidy, score="p10", by="collection", n_resamples=N, rng=6
    )
    out["tukey-continuous"] = lambda: runs.paired.tukey_hsd(
        **tidy, score="ndcg", n_resamples=N, rng=7
    )
    out["tukey-synthetic"] = lambda: syn.paired.tukey_hsd(**s, n_resamples=N, rng=8)
    first8 = runs[runs["query"].isin(runs["query"].unique()[:8])]
    out["tukey-exact"] = lambda: first8.paired.tukey_hsd(
        **tidy, score="p10", by="collection", method="exact", n_resamples=N, rng=9
    )
    many = pd.DataFrame(
        np.random.default_rng(10).normal(size=(30, 8)) + np.linspace(0, 0.5, 8),
        columns=[f"m{j}" for j in range(8)],
    ).rename_axis("item")
    out["tukey-eight-systems"] = lambda: many.paired.tukey_hsd(n_resamples=N, rng=10)
    out["tukey-baseline-by"] = lambda: runs.paired.tukey_hsd(
        **tidy, score="p10", by="collection", baseline="dense", n_resamples=N, rng=13
    )
    out["tukey-baseline-exact"] = lambda: first8.paired.tukey_hsd(
        **tidy, score="p10", by="collection", baseline="bm25", method="exact"
    )
    first4 = runs[runs["query"].isin(runs["query"].unique()[:4])]  # enumerated
    out["tukey-baseline-enumerated"] = lambda: first4.paired.tukey_hsd(
        **tidy, score="ndcg", baseline="hybrid", method="exact"
    )
    ratings = pairedstats.datasets.load_ratings()
    rank = dict(score="deviation", group="changed", a="unchanged", b="changed")
    out["ranksum-auto"] = lambda: ratings.paired.ranksum(**rank)
    out["ranksum-asymptotic"] = lambda: ratings.paired.ranksum(**rank, method="asymptotic")
    small = pd.DataFrame({"a": [1.5, 2.0, 3.25, 4.0, 2.0], "b": [2.5, 3.0, 5.0, 2.0, 6.5]})
    out["ranksum-exact-ties"] = lambda: small.paired.ranksum(a="a", b="b", method="exact")
    out["sweep-bootstrap"] = lambda: _sweep_table("bootstrap", rng=11)
    out["sweep-tukey"] = lambda: _sweep_table("tukey_hsd", rng=12)
    out["signrank-by-baseline"] = lambda: runs.paired.signrank(
        **tidy, score="p10", by="collection", baseline="bm25"
    )
    out["mcnemar-cluster-holm"] = lambda: syn.paired.mcnemar(
        item="item", system="system", score="correct", cluster="cluster", method="asymptotic",
        adjust="holm",
    )  # fmt: skip
    for posthoc in ("wilcoxon-holm", "nemenyi", "conover"):
        out[f"friedman-{posthoc}"] = lambda posthoc=posthoc: runs.paired.friedman(
            **tidy, score="p10", by="collection", posthoc=posthoc
        )
    out["mcs-max-by"] = lambda: runs.paired.mcs(
        **tidy, score="ndcg", by="collection", n_resamples=N, rng=18
    )
    out["mcs-range-cluster-strata-lower"] = lambda: syn.paired.mcs(
        **s, cluster="cluster", strata="stratum", statistic="range", lower_is_better=True,
        n_resamples=N, rng=19,
    )  # fmt: skip
    return out


def _jsonable(frame: pd.DataFrame) -> dict:
    """Columns as lists: floats by repr (every bit), the rest as str."""
    columns = {}
    for name in frame.columns:
        values = frame[name].tolist()
        if frame[name].dtype.kind == "f":
            columns[str(name)] = [repr(float(v)) for v in values]
        else:
            columns[str(name)] = [str(v) for v in values]
    return columns


def compute() -> dict:
    return {name: _jsonable(call()) for name, call in calls().items()}


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: python tests/golden/calls.py --write")
    VALUES.write_text(json.dumps(compute(), indent=1) + "\n")
    print(f"wrote {VALUES}")
