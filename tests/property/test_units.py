"""The tie rule keeps every decision under a change of units and of dtype.

The subjects are found, not listed, as in :mod:`tests.property.test_outputs`: every public
method of the ``.paired`` DataFrame accessor, called with keywords chosen from its
signature. Every method reads ties by one rule (:mod:`pairedstats.core.ties`: a score is
known to two units of roundoff of its own dtype and size; integers and binary grids are
exact), so:

* **Affine maps.** ``s x + c`` of scores on a decimal grid (``s`` in 0.1, 0.001, 7.25;
  ``c`` in 0, 1, 100, 1e4) changes no p-value, method, tie count, rank, set or mark.
* **Units of pass/fail scores.** 0/1 outcomes given as 0/100, or offset by ``2**50``, are
  the same data: every decision is the same (the best set's p-values too).
* **Dtypes.** Decimal scores given as float32 or float16 (in [-1, 1], where a decimal of
  two places is several float16 ulps from its neighbours) read the ties of the decimals
  meant: counts, ranks and rank tests' p-values are those of the float64 decimals.
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from .test_outputs import (
    _DECISIONS,
    METRICS,
    SUBJECTS,
    _binary,
    _call,
    _frame_of,
    _keywords,
    _parameters,
    tables,
)

#: Outputs that no change of units moves: decisions, p-values, counts, ranks, statistics of
#: ranks (a subject's frame holds some of them).
INVARIANT = (*_DECISIONS, "pvalue", "pvalue_adjusted", "pvalue_low", "pvalue_high",
             "pvalue_method", "method", "wins", "ties", "losses", "n_zeros", "statistic",
             "null_variance", "z", "exceeding", "mean_rank_a", "mean_rank_b", "friedman",
             "pvalue_friedman", "iman_davenport", "pvalue_iman_davenport", "rank_sum_a",
             "u_a", "common_language", "rank_biserial", "effect_size", "n_items_needed",
             "power")  # fmt: skip
#: What a dtype keeps exactly: the ties themselves and the numbers made of ranks and counts.
TIES = ("method", "pvalue_method", "wins", "ties", "losses", "n_zeros", "statistic",
        "null_variance", "mean_rank_a", "mean_rank_b", "friedman", "rank_sum_a", "u_a",
        "exceeding")  # fmt: skip
AFFINE = [(s, c) for s in (0.1, 0.001, 7.25) for c in (0.0, 1.0, 100.0, 1e4)]
_VARIANTS = {
    "report": ({"test": "bootstrap", "ranks": True, "mcs": True}, {"test": "tukey_hsd"}),
    "mcs": ({"statistic": "max"}, {"statistic": "range"}),
    "friedman": ({"posthoc": "wilcoxon-holm"}, {"posthoc": "nemenyi"}),
}
PAIRED = [m for m in SUBJECTS if not _binary(m)]


def _invariant(result, columns) -> dict:
    frame = _frame_of(result)
    flat = [c[-1] if isinstance(c, tuple) else c for c in frame.columns]
    return {
        (str(c), i): v
        for c, name in zip(frame.columns, flat)
        if name in columns
        for i, v in enumerate(frame[c].tolist())
    }


def _same(got: dict, expected: dict, rtol: float = 1e-9) -> None:
    assert got.keys() == expected.keys()
    for key, want in expected.items():
        have = got[key]
        if pd.isna(want) or pd.isna(have):
            assert pd.isna(want), key
            assert pd.isna(have), key
        elif isinstance(want, float) and isinstance(have, float):
            assert have == pytest.approx(want, rel=rtol, abs=1e-12, nan_ok=True), key
        else:
            assert have == want, key


def _moved(table: pd.DataFrame, f) -> pd.DataFrame:
    return table.assign(**{m: f(table[m].to_numpy()) for m in METRICS})


def _run(method, table, keywords, scale: float = 1.0):
    if "difference" in keywords:  # a planned difference is in the units of the scores
        keywords = {**keywords, "difference": keywords["difference"] * scale}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return _call(method, table, keywords)


#: The methods whose property takes seconds even on the quick loop's 2 examples (the report
#: runs the bootstrap and the Tukey HSD, and every other method has its own case).
_FULL_RUN_ONLY = ("report", "items_for", "mcs")


@pytest.mark.parametrize(
    "method",
    [pytest.param(m, marks=pytest.mark.slow) if m in _FULL_RUN_ONLY else m for m in PAIRED],
)
@given(data=st.data())
def test_affine_maps_of_grid_scores_change_no_decision(method, data):
    table = data.draw(tables())
    baseline = "baseline" in _parameters(method) and data.draw(st.booleans(), "baseline")
    for variant in _VARIANTS.get(method, ({},)):
        keywords = _keywords(method, table, variant, baseline)
        expected = _invariant(_run(method, table, keywords), INVARIANT)
        for s, c in AFFINE:
            moved = _run(method, _moved(table, lambda x, s=s, c=c: s * x + c), keywords, s)
            # numbers that interpolate between replicates (a bootstrap p-value, d_z) move by
            # the rounding of s x + c relative to the differences: counts and ties do not
            _same(_invariant(moved, INVARIANT), expected, rtol=1e-11 * max(1.0, c / s))


@pytest.mark.parametrize("method", SUBJECTS)
@given(data=st.data())
def test_pass_fail_scores_in_other_units_give_the_same_decisions(method, data):
    table = data.draw(tables(binary=True))
    for variant in _VARIANTS.get(method, ({},)):
        keywords = _keywords(method, table, variant, False)
        expected = _invariant(_run(method, table, keywords), INVARIANT)
        # pass/fail-only methods refuse 0/100; items_for plans 0/1 scores for McNemar and
        # others for the t-test, by design
        other = _binary(method) or method == "items_for"
        units = [] if other else [(100.0, 0.0), (1.0, 2.0**50), (100.0, 2.0**50)]
        for s, c in units:
            moved = _run(method, _moved(table, lambda x, s=s, c=c: s * x + c), keywords, s)
            _same(_invariant(moved, INVARIANT), expected)


@pytest.mark.parametrize("method", PAIRED)
@pytest.mark.parametrize("dtype", [np.float32, np.float16])
@given(data=st.data())
def test_decimals_in_a_narrower_dtype_keep_their_ties(method, dtype, data):
    table = _moved(data.draw(tables()), lambda x: np.clip(x, -1.0, 1.0) / 2.0)
    table = _moved(table, lambda x: np.round(x, 2))
    for variant in _VARIANTS.get(method, ({},)):
        keywords = _keywords(method, table, variant, False)
        expected = _invariant(_run(method, table, keywords), TIES)
        narrow = _moved(table, lambda x: x.astype(dtype))
        _same(_invariant(_run(method, narrow, keywords), TIES), expected)
