"""How the property suite compares results: exactly, mirrored, or through an affine map.

Every column of a result has a declared role (what happens to it when a and b are swapped,
or when the scores go through ``s * x + c``). A column without a role fails the comparison,
so a column added to a result is added here too, and no number escapes the properties.
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import example

#: Columns that trade places when a and b are swapped.
_SWAPPED = {
    "system_a": "system_b",
    "group_a": "group_b",
    "mean_a": "mean_b",
    "n_a": "n_b",
    "wins": "losses",
}
#: Interval ends: swapping a and b turns (low, high) into (-high, -low).
_INTERVALS = {"ci_low": "ci_high", "ci_low_adjusted": "ci_high_adjusted"}
#: Quantities of b - a, negated by the swap.
_ODD = {"difference", "effect_size", "z", "shift", "rank_biserial"}
#: Quantities that do not depend on which side is a.
_EVEN = {
    "standard_error",
    "pvalue",
    "pvalue_adjusted",
    "pvalue_low",
    "pvalue_high",
    "n_items",
    "n_clusters",
    "n_resamples",
    "exceeding",
    "pvalue_method",
    "tie_quantum",
    "n_dropped",
    "ties",
    "null_variance",
    "ci_coverage",
    "method",
    "n_zeros",
}


def _rank_total(frame):
    n = frame["n_a"] + frame["n_b"]
    return n * (n + 1) / 2


def _signed_rank_total(frame):
    n = frame["n_items"] - frame["n_zeros"]
    return n * (n + 1) / 2


#: Rank quantities of a whose value for b follows from the totals (rank-sum: of sample a;
#: signed-rank: of the positive differences, whose null mean is symmetric).
_COMPLEMENTS = {
    "rank_sum_a": lambda f: _rank_total(f) - f["rank_sum_a"],
    "null_mean": lambda f: _rank_total(f) - f["null_mean"] if "n_a" in f else f["null_mean"],
    "statistic": lambda f: _signed_rank_total(f) - f["statistic"],
    "u_a": lambda f: f["n_a"] * f["n_b"] - f["u_a"],
    "common_language": lambda f: 1 - f["common_language"],
}

#: Roles under ``s * x + c`` (s > 0): location, scale, invariant, or not specified (a
#: diagnostic: the grid step Tukey found is arbitrary for constant scores).
_LOCATION = {"mean_a", "mean_b"}
_SCALE = {
    "difference",
    "ci_low",
    "ci_high",
    "standard_error",
    "shift",
    "ci_low_adjusted",
    "ci_high_adjusted",
}
_UNSPECIFIED = {"tie_quantum"}
_INVARIANT = (
    (
        _EVEN
        | set(_COMPLEMENTS)
        | {"effect_size", "z", "rank_biserial", "n_a", "n_b", "wins", "losses"}
    )
    - _SCALE
    - _UNSPECIFIED
)


def cases(names, xfail=None, raises=AssertionError) -> list:
    """``names`` as pytest parameters, those in ``xfail`` (name -> what is wrong today)
    marked ``xfail(strict=True)``: they turn into failures as soon as the package is fixed.

    ``raises``: the exception a marked case fails with today (a mapping gives it per name);
    any other exception is a failure, so a mark cannot hide a new bug.
    """
    xfail = xfail or {}
    unknown = set(xfail) - set(names)
    assert not unknown, f"xfail names no case: {unknown}"

    def mark(name):
        error = raises[name] if isinstance(raises, dict) else raises
        return pytest.mark.xfail(strict=True, raises=error, reason=xfail[name])

    return [pytest.param(n, marks=mark(n)) if n in xfail else n for n in names]


def pinned(table: dict, name: str):
    """Hypothesis ``@example`` for each keyword dict in ``table.get(name, [])``: known
    counterexamples, tried before any generated example (so a strict xfail always fails)."""

    def decorate(test):
        for keywords in table.get(name, []):
            test = example(**keywords)(test)
        return test

    return decorate


def run(call, *args, **kwargs):
    """``call(*args, **kwargs)`` and the categories of the warnings it gave, in order."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = call(*args, **kwargs)
    return result, tuple(w.category for w in caught)


def call_method(obj, method: str, /, **keywords):
    """``obj.paired.<method>(**keywords)`` and the categories of its warnings."""
    return run(getattr(obj.paired, method), **keywords)


def result(obj, method: str, /, **keywords):
    """``obj.paired.<method>(**keywords)``, its warnings recorded and dropped."""
    return call_method(obj, method, **keywords)[0]


def outcome(call, *args, **kwargs):
    """``(error, result)`` of a call: the ValueError or TypeError it raised, or its result.

    Any other exception propagates: malformed input must be refused with one of these two.
    """
    try:
        return None, run(call, *args, **kwargs)[0]
    except (ValueError, TypeError) as error:
        return error, None


def assert_names(error: Exception, arguments) -> None:
    """The message of ``error`` names one of ``arguments`` as the contract writes them."""
    message = str(error)
    assert any(f"`{name}`" in message for name in arguments), (
        f"{type(error).__name__}: {message!r} names none of {[f'`{a}`' for a in arguments]}"
    )


def label_order(frame: pd.DataFrame, columns) -> pd.DataFrame:
    """Rows sorted by the label columns (any mix of label types), index reset."""
    key = [tuple((type(v).__name__, repr(v)) for v in row) for row in frame[columns].to_numpy()]
    return frame.iloc[sorted(range(len(frame)), key=key.__getitem__)].reset_index(drop=True)


def assert_identical(left: pd.DataFrame, right: pd.DataFrame) -> None:
    """The same columns, labels and numbers (``==``, NaN where NaN), whatever the dtypes."""
    assert list(left.columns) == list(right.columns)
    assert len(left) == len(right)
    for name in left.columns:
        a, b = left[name].to_numpy(), right[name].to_numpy()
        if a.dtype.kind in "fc" or b.dtype.kind in "fc":
            same = np.array_equal(a.astype(float), b.astype(float), equal_nan=True)
        else:
            same = a.tolist() == b.tolist()
        assert same, f"column {name!r} differs:\n{a.tolist()}\n{b.tolist()}"


def _role_check(columns, known) -> None:
    unknown = [c for c in columns if c not in known]
    assert not unknown, (
        f"no declared role for the result column(s) {unknown}: add them to "
        "tests/property/checks.py"
    )


def mirrored(frame: pd.DataFrame, keys=()) -> pd.DataFrame:
    """What ``frame`` must read once every comparison's a and b are swapped."""
    pairs = {**_SWAPPED, **{b: a for a, b in _SWAPPED.items()}}
    ends = {**_INTERVALS, **{b: a for a, b in _INTERVALS.items()}}
    _role_check(frame.columns, {*keys, *pairs, *ends, *_ODD, *_EVEN, *_COMPLEMENTS})
    out = {}
    for name in frame.columns:
        if name in pairs:
            out[name] = frame[pairs[name]]
        elif name in ends:
            out[name] = -frame[ends[name]]
        elif name in _ODD:
            out[name] = -frame[name]
        elif name in _COMPLEMENTS:
            out[name] = _COMPLEMENTS[name](frame)
        else:
            out[name] = frame[name]
    return pd.DataFrame(out)


def affine(frame: pd.DataFrame, scale: float, shift: float, keys=()) -> pd.DataFrame:
    """What ``frame`` must read once every score ``x`` becomes ``scale * x + shift``.

    Columns whose value is not specified under the map are left out.
    """
    _role_check(
        frame.columns,
        {*keys, *_SWAPPED, *_SWAPPED.values(), *_LOCATION, *_SCALE, *_INVARIANT, *_UNSPECIFIED},
    )
    out = {}
    for name in frame.columns:
        if name in _UNSPECIFIED:
            continue
        if name in _LOCATION:
            out[name] = scale * frame[name] + shift
        elif name in _SCALE:
            out[name] = scale * frame[name]
        else:
            out[name] = frame[name]
    return pd.DataFrame(out)


def assert_close(
    actual: pd.DataFrame, expected: pd.DataFrame, *, atol: float, rtol=1e-9, exact=()
) -> None:
    """Float columns equal to rounding (``exact`` ones and all others exactly)."""
    assert list(actual.columns) == list(expected.columns)
    for name in actual.columns:
        a, e = actual[name].to_numpy(), expected[name].to_numpy()
        if name not in exact and a.dtype.kind == "f":
            np.testing.assert_allclose(a, e.astype(float), rtol=rtol, atol=atol, err_msg=name)
        else:
            assert_identical(actual[[name]], expected[[name]])
