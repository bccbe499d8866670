"""Friedman's test over many data sets, with the post-hoc tests of all pairs and the cliques:
the declaration (:data:`SPEC`) and the public functions built from it, :func:`friedman` (a
data sets x systems array) and :func:`friedman_design` (every group of a paired design).

Each item of the design is a data set (or a task), with one score per data set and system.
Within each data set the systems are ranked (1 = best, ties averaged); the Friedman test asks
whether the mean ranks differ more than chance would make them, and the post-hoc test says
which pairs do. References and formulas: :mod:`pairedstats.core.friedman`.
"""

from __future__ import annotations

from .._shared.keywords import NO_REPLICATE, PAIRED_INPUTS
from .._shared.registry import MethodSpec, array_function, design_function, register
from .run import run
from .settings import Options, check

__all__ = ["SPEC", "friedman", "friedman_design"]


SPEC = register(
    MethodSpec(
        name="friedman",
        command="friedman",
        summary="Friedman test of systems over many data sets, with the post-hoc tests of "
        "all pairs and the cliques.",
        description="""
        Each item is a data set (one score per data set and system). Within each data set
        the systems are ranked, 1 to the best, ties sharing their mean rank; the Friedman
        chi-square and the Iman-Davenport F test whether the mean ranks differ, and the
        post-hoc test of all pairs (``posthoc``) says which pairs do, with p-values
        adjusted over the pairs. The cliques (largest sets of systems no pair of which
        differs) and Demšar's critical-difference diagram come from the result
        (:meth:`FriedmanResult.cliques`,
        :func:`pairedstats.plotting.critical_difference`). See the guide "Many data sets".""",
        road="paired",
        inputs=PAIRED_INPUTS,
        options=Options,
        check=check,
        run=run,
        refuses={
            "replicate": "the Friedman test ranks one score per data set and system. "
            + NO_REPLICATE
        },
        returns="""
        FriedmanResult
            One row per pair of systems and group: ``system_a, system_b, mean_rank_a,
            mean_rank_b, difference, pvalue, pvalue_adjusted``, then the group's Friedman
            test (``n_datasets, friedman, pvalue_friedman, iman_davenport,
            pvalue_iman_davenport``) and ``n_dropped``.""",
        notes="""
        Demšar's (2006) recipe: the Friedman test first; the post-hoc tests tell which pairs
        differ. The Friedman chi-square is R's ``friedman.test`` and scipy's
        ``friedmanchisquare``; Nemenyi's and Conover's p-values are scikit-posthocs'
        ``posthoc_nemenyi_friedman`` and ``posthoc_conover_friedman`` (Holm-adjusted for
        Conover); the Wilcoxon-Holm p-values are R's
        ``pairwise.wilcox.test(paired=TRUE, p.adjust.method="holm")``.""",
        examples={
            "array": """
            >>> import numpy as np
            >>> from pairedstats import friedman
            >>> auc = np.array([[0.763, 0.768, 0.771, 0.798], [0.599, 0.591, 0.590, 0.569],
            ...                 [0.954, 0.971, 0.968, 0.967], [0.628, 0.661, 0.654, 0.657],
            ...                 [0.882, 0.888, 0.886, 0.898], [0.936, 0.931, 0.916, 0.931],
            ...                 [0.661, 0.668, 0.609, 0.685], [0.583, 0.583, 0.563, 0.625],
            ...                 [0.775, 0.838, 0.866, 0.875], [1.000, 1.000, 1.000, 1.000],
            ...                 [0.940, 0.962, 0.965, 0.962], [0.619, 0.666, 0.614, 0.669],
            ...                 [0.972, 0.981, 0.975, 0.975], [0.957, 0.978, 0.946, 0.970]])
            >>> res = friedman(auc, systems=["C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf"],
            ...                posthoc="nemenyi")
            >>> res.mean_rank.round(3).tolist()
            [[3.143, 2.0, 2.929, 1.929]]
            >>> sorted(map(sorted, res.cliques(alpha=0.10)))
            [['C4.5', 'C4.5+cf'], ['C4.5+cf', 'C4.5+m', 'C4.5+m+cf']]""",
            "design": """
            >>> import numpy as np
            >>> from pairedstats import friedman_design
            >>> from pairedstats.inputs import design_from_array
            >>> scores = np.random.default_rng(0).normal(size=(12, 3)) + [0.0, 0.0, 1.0]
            >>> res = friedman_design(design_from_array(scores, systems=["x", "y", "z"]))
            >>> res.mean_rank.round(2).tolist()
            [[2.25, 2.25, 1.5]]""",
            "frame": """
            >>> import pairedstats
            >>> runs = pairedstats.datasets.load_runs()
            >>> res = runs.paired.friedman(item="query", system="run", score="ndcg",
            ...                            by="collection")
            >>> list(res.columns[:4])
            ['collection', 'system_a', 'system_b', 'mean_rank_a']""",
            "dataset": """
            >>> import numpy as np, xarray as xr
            >>> import pairedstats
            >>> scores = np.random.default_rng(4).random((2, 10, 3))
            >>> ds = xr.Dataset({"acc": (("seed", "dataset", "system"), scores)},
            ...                 coords={"seed": [0, 1], "system": ["x", "y", "z"]})
            >>> res = ds.paired.friedman(item="dataset")
            >>> dict(res["pvalue_adjusted"].sizes), dict(res["mean_rank"].sizes)
            ({'seed': 2, 'comparison': 3}, {'seed': 2, 'system': 3})""",
        },
    )
)
friedman = array_function(SPEC, __name__)
friedman_design = design_function(SPEC, __name__)
