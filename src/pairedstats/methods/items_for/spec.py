"""Planning from the data: the declaration of ``df.paired.items_for(difference, ...)``, its
keywords, documentation and examples (:data:`SPEC`).

For each comparison of the table, the number of items needed to detect ``difference`` with
the spread of the per-item differences observed in the table, and the difference detectable
at the table's own size. Other scores: the paired t-test's noncentral t with the standard
deviation of ``b - a`` (:func:`pairedstats.items_for`, :func:`pairedstats.detectable_difference`).
0/1 scores (pass/fail): McNemar's test with the observed discordant rate, Connor (1987),
*Sample size for testing differences in proportions for the paired-sample design*,
Biometrics 43(1), 207-211, for the asymptotic test, and the exact power of the exact (default)
and mid-p tests (:func:`pairedstats.core.power_mcnemar.mcnemar_items_for`, ``mcnemar_method``).

The function :func:`pairedstats.items_for` takes a difference and a standard deviation, no
table, and stays what it is: this method has no function on arrays of its own (the name is
taken), only the accessors and the ``pairedstats items-for`` command.
"""

from __future__ import annotations

from .._shared.keywords import NO_REPLICATE, PAIRED_INPUTS
from .._shared.registry import MethodSpec, register
from .run import run
from .settings import Options, check

__all__ = ["SPEC"]

SPEC = register(
    MethodSpec(
        name="items_for",
        command="items-for",
        summary="Items needed to detect a difference b - a, estimated from the table itself.",
        description="""
        For each comparison, the spread that sets the items needed is read from the table:
        the standard deviation of the per-item differences b - a (the paired t-test's
        noncentral t, as :func:`pairedstats.items_for`), or, when both systems' scores are
        all 0 or 1, the discordant rate, the share of items on which they differ (McNemar's
        test: by default the exact test, with its exact power; Connor 1987 for the
        asymptotic one). ``n_items_needed`` is the smallest number of items that detects
        ``difference`` with probability ``power`` at level ``alpha``;
        ``detectable_difference`` the smallest difference the table's own ``n_items``
        detect. The table serves as a pilot: its spread is an estimate, and the items
        needed scale with its square. See the planning guide.""",
        road="paired",
        inputs={"frame": PAIRED_INPUTS["frame"], "dataset": PAIRED_INPUTS["dataset"]},
        options=Options,
        check=check,
        run=run,
        refuses={
            "replicate": ("a plan of items reads one score per item and system. " + NO_REPLICATE),
            "cluster": (
                "with clustered items, plan in clusters: average each cluster's items first "
                "and plan on the cluster means."
            ),
        },
        returns="""
        ItemsForResult
            One row per comparison and group: ``system_a, system_b, n_items, difference,
            standard_deviation, discordant_rate, standard_deviation_planned,
            discordant_rate_planned, method, n_items_needed, detectable_difference, power,
            alpha, alternative, n_dropped``.""",
        warns="""
        PlanningWarning
            When the table cannot give the items needed or the detectable difference of a
            comparison (no spread of the differences, a difference beyond the discordant
            rate of 0/1 scores): once per kind per call, naming how many groups and the
            first; those cells are NaN.""",
        examples={
            "frame": """
            >>> import pairedstats
            >>> df = pairedstats.datasets.load_runs()
            >>> plan = df.paired.items_for(0.02, item="query", system="run", score="ndcg",
            ...                            baseline="bm25", by="collection")
            >>> plan[plan.collection == "robust04"][["system_b", "n_items_needed"]]
               system_b  n_items_needed
            0  bm25+rm3           280.0
            1     dense           269.0
            2    hybrid           335.0""",
            "dataset": """
            >>> import numpy as np, xarray as xr
            >>> passed = np.random.default_rng(3).random((200, 2)) < [0.6, 0.7]
            >>> ds = xr.Dataset({"pass": (("item", "system"), passed.astype(float))},
            ...                 coords={"system": ["old", "new"]})
            >>> plan = ds.paired.items_for(0.1)
            >>> str(plan["method"].item()), int(plan["n_items_needed"].item())
            ('mcnemar', 388)
            >>> connor = ds.paired.items_for(0.1, mcnemar_method="asymptotic")
            >>> int(connor["n_items_needed"].item())
            371""",
        },
        example_keywords={"difference": 0.3},
    )
)
