"""The corrected resampled t-test's declaration: its documentation and examples
(:data:`SPEC`, its keywords are :class:`~.settings.Options`), and the public functions built
from it, :func:`cv_ttest` (a folds x systems array) and :func:`cv_ttest_design` (every group
of a paired design)."""

from __future__ import annotations

from .._shared.keywords import NO_REPLICATE, PAIRED_INPUTS
from .._shared.registry import MethodSpec, array_function, design_function, register
from .run import run
from .settings import Options, check

__all__ = ["SPEC", "cv_ttest", "cv_ttest_design"]


SPEC = register(
    MethodSpec(
        name="cv_ttest",
        command="cv-ttest",
        summary="Corrected resampled t-test of b - a over cross-validation folds "
        "(Nadeau-Bengio), with the Bayesian correlated t-test's probabilities for a rope.",
        description="""
        The items are the folds of a cross-validation (with ``repeat``, the r*k
        (repetition, fold) cells of an r x k cross-validation). Their training sets overlap, so the
        per-fold differences are correlated and the plain t-test is too liberal; the
        corrected resampled t-test of Nadeau and Bengio (2003), in Bouckaert and Frank's
        (2004) r x k form, inflates the variance of the mean by ``test_fraction / (1 -
        test_fraction)``. With ``rope``, the posterior probabilities of the Bayesian
        correlated t-test (Corani and Benavoli 2015) say whether a or b is better by more
        than the rope, or the two are practically equivalent.""",
        road="paired",
        # the folds of each repetition of an r x k cross-validation: (repetition, fold) items
        inputs={c: (*names[:-1], "repeat", names[-1]) for c, names in PAIRED_INPUTS.items()},
        options=Options,
        check=check,
        run=run,
        refuses={
            "replicate": (
                "the corrected t-test's items are cross-validation folds; name the repetitions "
                "of an r x k cross-validation with repeat= (the items are then its "
                "(repetition, fold) cells). " + NO_REPLICATE
            )
        },
        returns="""
        CvTtestResult
            One row per comparison and group: ``system_a, system_b, n_folds, difference, df,
            t, pvalue, ci_low, ci_high, t_uncorrected, pvalue_uncorrected``,
            with ``rope`` ``prob_a_better, prob_equivalent, prob_b_better`` (see the result's
            attributes).""",
        notes="""
        With ``d_j = b_j - a_j`` over the n folds, mean ``m`` and sample variance ``s^2``
        (ddof 1), the corrected variance of the mean is ``(1/n + rho) s^2`` with ``rho =
        test_fraction / (1 - test_fraction)`` (``n_test / n_train``); ``t = m /
        sqrt((1/n + rho) s^2)`` on n - 1 degrees of freedom, and the interval is ``m +-
        t_{n-1} sqrt((1/n + rho) s^2)``. For k-fold cross-validation (``test_fraction =
        1/k``), ``rho = 1/(k - 1)``, baycomp's correction. The posterior of the mean
        difference is the Student t on n - 1 degrees of freedom with location ``m`` and
        scale ``sqrt((1/n + rho) s^2)``; when every difference is equal it is a point mass
        at ``m`` (as baycomp: probabilities 0 or 1), the corrected t is infinite (p-value 0
        or 1 by ``alternative``), and when every difference is 0 the p-value is 1.""",
        examples={
            "array": """
            >>> import numpy as np
            >>> from pairedstats import cv_ttest
            >>> scores = np.array([[0.81, 0.84], [0.79, 0.80], [0.83, 0.86], [0.80, 0.83],
            ...                    [0.82, 0.82]])
            >>> res = cv_ttest(scores, systems=["logreg", "svm"], test_fraction=0.2, rope=0.01)
            >>> round(res.difference[0, 0], 4), round(res.t[0, 0], 3)
            (np.float64(0.02), np.float64(2.108))
            >>> round(res.pvalue[0, 0], 4), round(res.pvalue_uncorrected[0, 0], 4)
            (np.float64(0.1027), np.float64(0.0341))""",
            "design": """
            >>> import numpy as np
            >>> from pairedstats import cv_ttest_design
            >>> from pairedstats.inputs import design_from_array
            >>> design = design_from_array(
            ...     np.array([[1.0, 2.0], [2.0, 3.5], [3.0, 3.0], [1.0, 2.5]]),
            ...     systems=["a", "b"])
            >>> cv_ttest_design(design, test_fraction=0.25).to_dataframe()[["n_folds", "df"]]
               n_folds  df
            0        4   3""",
            "frame": """
            >>> import pairedstats
            >>> df = pairedstats.datasets.load_runs()
            >>> res = df.paired.cv_ttest(item="query", system="run", score="ndcg",
            ...                          baseline="bm25", test_fraction=0.1)
            >>> list(res.columns[:4])
            ['system_a', 'system_b', 'n_folds', 'difference']""",
            "dataset": """
            >>> import numpy as np, xarray as xr
            >>> import pairedstats
            >>> ds = xr.Dataset({"score": (("seed", "item", "system"),
            ...                            np.arange(24.0).reshape(2, 4, 3) % 5)},
            ...                 coords={"seed": [0, 1], "system": ["x", "y", "z"]})
            >>> res = ds.paired.cv_ttest(baseline="x", test_fraction=0.25)
            >>> res["df"].values.tolist()  # seed x comparison (x-y, x-z)
            [[3, 3], [3, 3]]""",
        },
        example_keywords={"test_fraction": 0.2},
    )
)
cv_ttest = array_function(SPEC, __name__)
cv_ttest_design = design_function(SPEC, __name__)
