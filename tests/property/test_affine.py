"""Units do not change conclusions.

Adding a constant to every score leaves differences, intervals and p-values unchanged (to
float rounding; Tukey's p-values exactly); multiplying every score by a positive constant
(1e-10 to 1e10, scores given as float32 too) scales differences and intervals and leaves the
p-values and Tukey's ``pvalue_method`` unchanged. A rank-sum test sees only the order.
"""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from .checks import affine, assert_close, cases, pinned, result
from .strategies import PAIRED, RANKSUM, SCALES, SHIFTS, Paired, column_names

CASES = {**PAIRED, "ranksum": RANKSUM}
#: Columns that are counts, or functions of ranks only: equal, not close.
_EXACT = {
    "tukey_hsd": ("pvalue", "pvalue_low", "pvalue_high", "exceeding"),
    "ranksum": (
        "rank_sum_a",
        "u_a",
        "null_mean",
        "null_variance",
        "z",
        "pvalue",
        "ci_coverage",
        "common_language",
        "rank_biserial",
    ),
    "bootstrap": (),
}
#: Relative rounding of the scores as given.
_ROUNDING = {np.float64: 1e-9, np.float32: 1e-5}


def _result(case, design, **settings):
    keywords = {**column_names(case), **design.keywords, **settings}
    return result(design.tidy(), case.method, **keywords)


def _values(design) -> np.ndarray:
    return design.scores if hasattr(design, "scores") else np.concatenate([design.a, design.b])


def _check(case, design, settings, scale, shift, dtype):
    x = _values(design)
    moved = design.with_values((scale * x + shift).astype(dtype))
    expected = affine(_result(case, design, **settings), scale, shift)
    size = float(np.max(np.abs(x), initial=0.0))
    rounding = _ROUNDING[dtype]
    assert_close(
        _result(case, moved, **settings)[list(expected.columns)],
        expected,
        atol=rounding * (scale * size + abs(shift)),
        rtol=rounding,
        exact=_EXACT[case.method],
    )


_FLOAT_SUM = "exact p-values are float sums: 2/3 comes out as 0.66...66 or 0.66...67"
_TOLERANCE = "ties are found with an absolute tolerance: scores times 1e-10 give p-values of 1"
SHIFTED = {"tukey-exact": _FLOAT_SUM}
SCALED = {"tukey-exact": _TOLERANCE, "tukey-monte-carlo": _TOLERANCE}
#: Counterexamples found by the thorough profile, tried before any other.
_TWO_ITEMS = [[0.1257302210933933, -0.1321048632913019], [0.6404226504432821, 0.10490011715303971]]
SHIFT_EXAMPLES = {
    "tukey-exact": [
        {
            "design": Paired(
                scores=[[0.0, 0.0, 1.0], [0.0, 1.0, 1.0]], items=[0, 1], systems=[0, 1, -1]
            ),
            "settings": {"exact": True, "n_resamples": 200, "rng": 0},
            "shift": 1.314761612763192,
        }
    ],
}
SCALE_EXAMPLES = {
    name: [
        {
            "design": Paired(scores=_TWO_ITEMS, items=[0, 1], systems=[0, 1]),
            "settings": {"exact": name == "tukey-exact", "n_resamples": 200, "rng": 0},
            "scale": 1e-10,
            "dtype": np.float64,
        }
    ]
    for name in SCALED
}


@pytest.mark.parametrize("name", cases(CASES, SHIFTED))
def test_adding_a_constant_keeps_differences_intervals_and_pvalues(name):
    case = CASES[name]

    @given(design=case.data(), settings=case.settings, shift=SHIFTS)
    @pinned(SHIFT_EXAMPLES, name)
    def check(design, settings, shift):
        _check(case, design, settings, 1.0, shift, np.float64)

    check()


@pytest.mark.parametrize("name", cases(CASES, SCALED))
def test_multiplying_by_a_positive_constant_scales_and_keeps_pvalues(name):
    case = CASES[name]

    @given(
        design=case.data(),
        settings=case.settings,
        scale=SCALES,
        dtype=st.sampled_from([np.float64, np.float32]),
    )
    @pinned(SCALE_EXAMPLES, name)
    def check(design, settings, scale, dtype):
        _check(case, design, settings, scale, 0.0, dtype)

    check()
