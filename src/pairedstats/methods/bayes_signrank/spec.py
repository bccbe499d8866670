"""The Bayesian signed-rank test's declaration: its documentation and examples
(:data:`SPEC`, its keywords are :class:`~.settings.Options`), and the public functions built
from it, :func:`bayes_signrank` (an items x systems array) and :func:`bayes_signrank_design`
(every group of a paired design)."""

from __future__ import annotations

from .._shared.keywords import NO_REPLICATE, PAIRED_INPUTS
from .._shared.registry import MethodSpec, array_function, design_function, register
from .run import run
from .settings import Options, check

__all__ = ["SPEC", "bayes_signrank", "bayes_signrank_design"]


SPEC = register(
    MethodSpec(
        name="bayes_signrank",
        command="bayes-signrank",
        summary="Bayesian signed-rank test over items (data sets): the posterior probabilities "
        "that a is better, that the two are practically equal (within a rope), that b is "
        "better.",
        description="""
        Benavoli, Corani, Demšar and Zaffalon's (2017) Bayesian signed-rank test, as baycomp's
        ``SignedRankTest``: a Dirichlet process posterior of the differences ``b - a`` with
        one prior pseudo-observation at 0 of weight ``prior_strength``. Each posterior
        sample weighs the points ``(0, z_1, .., z_n)`` by Dirichlet weights ``w`` and gives
        the probabilities that a Walsh average ``(z_i + z_j) / 2`` falls below ``-rope``
        (a better), inside ``[-rope, rope]`` (practically equal), or above ``rope`` (b
        better): ``w^T H w``. ``prob_a_better``, ``prob_equivalent`` and ``prob_b_better``
        are the fractions of ``n_samples`` samples in which each is the largest. The draws
        come from one stream per group, keyed by the group's labels: seeded by
        ``rng``, and independent of the other systems and groups.""",
        road="paired",
        inputs=PAIRED_INPUTS,
        options=Options,
        check=check,
        run=run,
        refuses={
            "replicate": (
                "the Bayesian signed-rank test reads one difference per item (data set). "
                + NO_REPLICATE
            )
        },
        returns="""
        BayesSignrankResult
            One row per comparison and group: ``system_a, system_b, n_items, prob_a_better,
            prob_equivalent, prob_b_better, mean_a_better, mean_equivalent,
            mean_b_better``; with ``as_result=True`` the posterior samples too
            (``posterior``).""",
        notes="""
        With Dirichlet weights ``w ~ Dirichlet(prior_strength, 1, .., 1)`` over the points
        ``(0, z_1, .., z_n)``, ``p_right = sum_ij w_i w_j H((z_i + z_j)/2 - rope)`` over
        all ordered pairs, ``i == j`` and the prior point included, ``H`` the step of value
        1/2 on the edge; ``p_left`` likewise, ``p_rope = 1 - p_left - p_right``. With
        ``rope=0`` a Walsh average of 0 is half left, half right, and ``prob_equivalent``
        is 0. The probabilities agree with baycomp's ``two_on_multiple(x=a, y=b, rope)``
        within Monte Carlo error; unlike it, the numbers repeat with the same ``rng``.

        References: Benavoli, A., Corani, G., Demšar, J. and Zaffalon, M. (2017). Time for a
        change: a tutorial for comparing multiple classifiers through Bayesian analysis.
        *JMLR* 18(77), 1-36. Benavoli, A. et al. (2014). A Bayesian Wilcoxon signed-rank
        test based on the Dirichlet process. *ICML*.""",
        examples={
            "array": """
            >>> import numpy as np
            >>> from pairedstats import bayes_signrank
            >>> acc = np.array([[0.81, 0.83], [0.72, 0.75], [0.90, 0.90], [0.65, 0.69],
            ...                 [0.77, 0.76], [0.88, 0.91], [0.70, 0.74], [0.93, 0.94]])
            >>> res = bayes_signrank(acc, rope=0.01, systems=["base", "tuned"], rng=1)
            >>> res.to_dataframe()[["prob_a_better", "prob_equivalent", "prob_b_better"]]
               prob_a_better  prob_equivalent  prob_b_better
            0        0.00062           0.0634        0.93598""",
            "design": """
            >>> import numpy as np
            >>> from pairedstats import bayes_signrank_design
            >>> from pairedstats.inputs import design_from_array
            >>> design = design_from_array(
            ...     np.array([[0.5, 0.6], [0.7, 0.7], [0.6, 0.65], [0.8, 0.9]]),
            ...     systems=["a", "b"])
            >>> res = bayes_signrank_design(design, rope=0.02, n_samples=10_000, rng=3)
            >>> round(float(res.prob_b_better[0, 0]), 3)
            0.951""",
            "frame": """
            >>> import pairedstats
            >>> auc = pairedstats.datasets.load_demsar()
            >>> res = auc.paired.bayes_signrank(rope=0.01, baseline="C4.5", rng=2026)
            >>> res[["system_b", "prob_a_better", "prob_equivalent", "prob_b_better"]].round(3)
                system_b  prob_a_better  prob_equivalent  prob_b_better
            0     C4.5+m          0.000            0.331          0.669
            1    C4.5+cf          0.117            0.694          0.189
            2  C4.5+m+cf          0.000            0.032          0.968""",
            "dataset": """
            >>> import numpy as np, xarray as xr
            >>> import pairedstats
            >>> rng = np.random.default_rng(0)
            >>> ds = xr.Dataset({"acc": (("dataset", "model"),
            ...                          0.8 + rng.normal(0, 0.05, (12, 2)) + [0, 0.03])},
            ...                 coords={"model": ["rf", "gbm"]})
            >>> res = ds.paired.bayes_signrank(rope=0.01, n_samples=10_000, rng=1,
            ...                                item="dataset", system="model")
            >>> [res[c].values.round(3).tolist() for c in ("prob_equivalent", "prob_b_better")]
            [[0.001], [0.999]]""",
        },
        example_keywords={"rope": 0.05, "n_samples": 1000},
    )
)
bayes_signrank = array_function(SPEC, __name__)
bayes_signrank_design = design_function(SPEC, __name__)
