"""The best set: the model confidence set of the systems (Hansen, Lunde and Nason 2011).

``df.paired.mcs(item="query", system="run", score="ndcg", rng=1)`` gives the set of systems
that holds the truly best one(s) with probability about ``confidence_level`` (0.9 by
default), one row per system: ``system, mean, in_set, mcs_pvalue, eliminated``. The loss of
a system on an item is its score negated (a higher score is a lower loss; the score itself
with ``lower_is_better``). Starting from all systems, a test of equal mean losses (``T_max``
or ``T_R``, studentized by the bootstrap) either stops, or removes the worst system and
runs again on the rest; the set is what is left when a test's p-value reaches ``1 -
confidence_level``. A system's MCS p-value is the largest p-value of the tests up to its
elimination, so the set at any level ``1 - alpha`` is the systems whose MCS p-value is at
least ``alpha``.

The replicates are the bootstrap's own (the bootstrap of every system against one, with
its replicates kept, obtained through the registry on the same design): one resampling of
the units for all pairs, whose replicates are differences of two systems' replicates
against that one, so ``cluster``, ``strata``, ``replicate`` and ``by=`` resample as they
do there, and ``statistic="max"`` holds one row of replicates per system.
The statistics, the elimination rules and the MCS p-values are in
:mod:`pairedstats.core.mcs`.

Reference: Hansen, P. R., Lunde, A. and Nason, J. M. (2011). The model confidence set.
*Econometrica* 79(2), 453-497.

This module declares the method (:data:`SPEC`): its documentation; its keywords are the
fields of :class:`~pairedstats.methods.mcs.settings.Options`.
"""

from __future__ import annotations

from .._shared.registry import MethodSpec, register
from .run import run, summed
from .settings import Options, check

__all__ = ["SPEC"]

RETURNS = {
    "frame": """pandas.DataFrame or MCSResult
    One row per system (per group): the group keys, then ``system, mean, in_set,
    mcs_pvalue, eliminated`` (the elimination test that removed it, ``<NA>`` for a system in
    the set); ``attrs`` holds the settings. With ``as_result=True`` the
    :class:`~pairedstats.MCSResult`.""",
    "dataset": """xarray.Dataset or MCSResult
    The variables ``mean, in_set, mcs_pvalue, eliminated`` over the sweep dimensions and a
    ``system`` dimension (``eliminated`` NaN for a system in the set). With
    ``as_result=True`` the :class:`~pairedstats.MCSResult`.""",
}

EXAMPLES = {
    "frame": """>>> import pairedstats
>>> runs = pairedstats.datasets.load_runs()
>>> best = runs.paired.mcs(item="query", system="run", score="ndcg", by="collection",
...                        n_resamples=2000, rng=1)
>>> best[best.collection == "msmarco"][["system", "in_set", "eliminated"]]
     system  in_set  eliminated
4      bm25   False           1
5  bm25+rm3   False           2
6     dense   False           3
7    hybrid    True        <NA>""",
    "dataset": """>>> import numpy as np, xarray as xr
>>> scores = np.random.default_rng(0).normal(size=(40, 3)) + [0.0, 0.1, 1.5]
>>> ds = xr.Dataset({"acc": (("item", "system"), scores)}, coords={"system": ["a", "b", "c"]})
>>> res = ds.paired.mcs(n_resamples=1000, rng=1)
>>> res["in_set"].values.tolist()
[False, False, True]""",
}

#: The inputs: the bootstrap's, without the array function (a table of systems).
INPUTS = {
    "frame": ("item", "system", "score", "systems", "by", "cluster", "strata", "replicate",
              "missing"),
    "dataset": ("item", "system", "score", "systems", "cluster", "strata", "replicate",
                "missing"),
}  # fmt: skip

SPEC = register(
    MethodSpec(
        name="mcs",
        command="mcs",
        summary="The best set: the model confidence set of the systems, which holds the "
        "truly best one(s) with probability about ``confidence_level``.",
        description="""Hansen, Lunde and Nason's (2011) model confidence set on the per-item losses
(the negated scores, or the scores with ``lower_is_better``): from all systems, a bootstrap test
of equal mean losses (``T_max`` or ``T_R``) removes the worst system while its p-value is below
``1 - confidence_level``; a system's ``mcs_pvalue`` is the largest p-value of the tests up to its
elimination. The replicates are the bootstrap's of all pairs, so ``cluster``, ``strata``,
``replicate`` and ``by=`` resample as there. See the best-set guide.""",
        road="paired",
        inputs=INPUTS,
        options=Options,
        check=check,
        run=run,
        returns=RETURNS,
        examples=EXAMPLES,
        lazy=False,
        formats=("text", "csv", "json"),
        summed=summed,
    )
)
