"""Rankings with uncertainty: each system's rank, and the set of ranks the data allow.

``df.paired.rank(item="query", system="run", score="ndcg", rng=1)`` orders the systems by
their mean score and gives each one a *rank set* ``[rank_low, rank_high]``: the ranks it may
hold given the data. The sets come from simultaneous confidence intervals of all pairwise
differences of the systems' means (Mogstad, Romano, Shaikh and Wilhelm 2024): the paired
bootstrap of all pairs with ``adjust="max-t"`` (its single-step simultaneous intervals
``ci_low_adjusted, ci_high_adjusted``), obtained through the registry on the same design,
so the resampling, its streams and its keywords are the bootstrap's own.

With ``p`` systems, system ``k`` is *surely better* than ``j`` when the simultaneous
interval of ``mean_k - mean_j`` lies entirely above 0 (below 0 with
``lower_is_better=True``). Then

* ``rank_low = 1 + #{k: k surely better than j}`` and
  ``rank_high = p - #{k: k surely worse than j}``;
* ``rank = 1 + #{k: mean_k > mean_j}`` (ties share the smaller rank);
* ``may_be_best``: ``rank_low == 1``.

With probability about ``confidence_level`` every interval holds, and then every system's
true rank lies in its set: the sets hold *together* (simultaneous). ``simultaneous=False``
gives marginal sets instead: each system's set from the max-t intervals of its own ``p - 1``
comparisons only (the bootstrap with that system as ``baseline``), narrower, and each holds
on its own with probability about ``confidence_level``.

Reference: Mogstad, M., Romano, J. P., Shaikh, A. M. and Wilhelm, D. (2024). Inference for
ranks with applications to mobility across neighbourhoods and academic achievement across
countries. *Review of Economic Studies* 91(1), 476-518.

This module declares the method (:data:`SPEC`): its documentation; its keywords are the
fields of :class:`~pairedstats.methods.rank.settings.Options`.
"""

from __future__ import annotations

from .._shared.keywords import NO_REPLICATE
from .._shared.registry import MethodSpec, register
from .run import run, summed
from .settings import Options, check

__all__ = ["SPEC"]

RETURNS = {
    "frame": """pandas.DataFrame or RankResult
    One row per system (per group): the group keys, then ``system, mean, rank, rank_low,
    rank_high, may_be_best``; ``attrs`` holds the settings. With ``as_result=True`` the
    :class:`~pairedstats.RankResult`.""",
    "dataset": """xarray.Dataset or RankResult
    The variables ``mean, rank, rank_low, rank_high, may_be_best`` over the sweep
    dimensions and a ``system`` dimension. With ``as_result=True`` the
    :class:`~pairedstats.RankResult`.""",
}

EXAMPLES = {
    "frame": """>>> import pairedstats
>>> runs = pairedstats.datasets.load_runs()
>>> ranks = runs.paired.rank(item="query", system="run", score="ndcg", by="collection",
...                          n_resamples=2000, rng=1)
>>> ranks[ranks.collection == "robust04"][["system", "rank", "rank_low", "rank_high"]]
     system  rank  rank_low  rank_high
0      bm25     4         3          4
1  bm25+rm3     3         1          4
2     dense     2         1          3
3    hybrid     1         1          3""",
    "dataset": """>>> import numpy as np, xarray as xr
>>> scores = np.random.default_rng(0).normal(size=(30, 3)) + [0.0, 0.1, 1.5]
>>> ds = xr.Dataset({"acc": (("item", "system"), scores)}, coords={"system": ["a", "b", "c"]})
>>> res = ds.paired.rank(n_resamples=1000, rng=1)
>>> res["rank_low"].values.tolist(), res["rank_high"].values.tolist()
([2, 2, 1], [3, 3, 1])""",
}

#: Keywords refused on purpose, with why (:func:`pairedstats.methods._shared.registry.refuse`).
REFUSES = {
    "replicate": "its bootstrap of all pairs takes one score per item and system; the run-to-run "
    "(seed) variance of repeated runs would be left out. " + NO_REPLICATE
}

SPEC = register(
    MethodSpec(
        name="rank",
        command="rank",
        summary="Rank the systems by their mean, with the set of ranks each may hold "
        "(simultaneous at ``confidence_level``).",
        description="""The rank sets come from the simultaneous (max-t) bootstrap intervals of all
pairwise differences of the means (Mogstad, Romano, Shaikh and Wilhelm 2024): system ``k`` is
surely better than ``j`` when the interval of ``mean_k - mean_j`` lies above 0, and ``j``'s set is
``[1 + #surely better, p - #surely worse]``. ``may_be_best`` marks the systems whose set
holds rank 1. See the rankings guide.""",
        road="paired",
        inputs={
            "frame": ("item", "system", "score", "systems", "by", "cluster", "strata", "missing"),
            "dataset": ("item", "system", "score", "systems", "cluster", "strata", "missing"),
        },
        options=Options,
        check=check,
        run=run,
        returns=RETURNS,
        examples=EXAMPLES,
        refuses=REFUSES,
        lazy=False,
        formats=("text", "csv", "json"),
        summed=summed,
    )
)
