"""What a score may be: numbers exact in float64, finite, present (or dropped on request)."""

from __future__ import annotations

import numbers

import numpy as np

from .._validation import check_choice
from .labels import pandas_module

#: Largest magnitude of an integer score: above it, float64 does not hold every integer.
EXACT_INT = 2**53


def numeric_scores(values, arg: str, what: str) -> np.ndarray:
    """Scores as float64, or a TypeError/ValueError saying which value cannot be one.

    Integers must be exact as floats (magnitude at most 2**53); pandas' nullable types
    (Int64, Float64, boolean) turn their missing values into NaN, and so do the masked cells
    of a numpy masked array (:func:`_masked`).
    """
    if isinstance(values, np.ma.MaskedArray):
        return _masked(values, arg, what)
    pd = pandas_module()
    if isinstance(values, (pd.Series, pd.Index)) and values.dtype.kind in "biuf":
        values = values.to_numpy(dtype=np.float64 if values.hasnans else None, na_value=np.nan)
    arr = np.asarray(values)
    if arr.dtype.kind in "iu":
        check_exact_ints(arr, arg, what)
    if arr.dtype.kind in "biuf":
        return arr.astype(np.float64, copy=False)
    if arr.dtype.kind == "c":
        raise TypeError(f"`{arg}`: {what} must be real numbers; got complex values.")
    flat = arr.reshape(-1)
    out = np.empty(flat.size)
    for i, v in enumerate(flat.tolist()):
        if v is None or v is pd.NA:
            out[i] = np.nan
            continue
        if isinstance(v, (str, bytes)) or not isinstance(v, numbers.Real):
            v = first_non_number(flat.tolist()[i:])
            raise TypeError(
                f"`{arg}`: {what} must be numeric; got dtype {arr.dtype} with the non-numeric "
                f"value {v!r}. Convert the column first (e.g. pandas.to_numeric)."
            )
        if isinstance(v, numbers.Integral) and abs(int(v)) > EXACT_INT:
            check_exact_ints(np.array([int(v)], dtype=object), arg, what)
        out[i] = float(v)
    return out.reshape(arr.shape)


def _masked(values: np.ma.MaskedArray, arg: str, what: str) -> np.ndarray:
    """A numpy masked array's scores, its masked cells NaN.

    Masking a cell is how numpy says that the value is absent, and the data under the mask
    is often a placeholder (0, -1, a fill value): read as a score it would enter every
    comparison unseen. So a masked cell is a missing score, refused with a count unless
    ``missing="complete"`` (or, for the rank-sum test's samples, refused), as NaN is.
    """
    mask = np.ma.getmaskarray(values)
    data = np.ma.getdata(values)
    if data.dtype.kind in "biufc":  # the data under the mask is never read (nor checked)
        out = numeric_scores(np.where(mask, np.zeros((), data.dtype), data), arg, what)
    else:
        data = data.astype(object)
        data[mask] = None
        out = numeric_scores(data, arg, what)
    out = np.array(out, dtype=np.float64)
    out[mask] = np.nan
    return out


def first_non_number(values) -> object:
    """The first of ``values`` that is not a number and does not read as one (``"-"`` in
    ``["0.5", "-"]``, numbers read from a file as text), else the first that is text.

    Messages name the marker that keeps a column from being numeric, not a number stored as
    text before it.
    """
    first_text, na = None, pandas_module().NA
    for value in values:
        if value is None or value is na or isinstance(value, (bool, np.bool_)):
            continue
        if isinstance(value, numbers.Real):
            continue
        if first_text is None:
            first_text = value
        try:
            float(value)
        except (TypeError, ValueError):
            return value
    return first_text


def check_exact_ints(arr: np.ndarray, arg: str, what: str) -> None:
    if not arr.size or (arr.dtype != object and -EXACT_INT <= arr.min() <= arr.max() <= EXACT_INT):
        return
    big = arr[(arr > EXACT_INT) | (arr < -EXACT_INT)]
    if big.size:
        raise ValueError(
            f"`{arg}`: {what} must be integers of magnitude at most 2**53, which float64 "
            f"holds exactly; got {int(big.flat[0])}, whose differences would be rounded. "
            "Subtract a common offset first (e.g. the column's minimum) or divide by a "
            "power of ten."
        )


def check_infinite(scores: np.ndarray, arg: str, where) -> None:
    inf = np.isinf(scores)
    if inf.any():
        idx = np.argwhere(inf)
        raise ValueError(
            f"`{arg}`: scores must be finite; got {int(inf.sum())} infinite value(s), the first "
            f"at {where(idx[0])}. Replace or remove them before the comparison."
        )


def check_missing(present: np.ndarray, scores: np.ndarray, items, systems, arg, missing):
    """Return the mask of complete rows; raise unless ``missing='complete'``."""
    nan = np.isnan(scores).any(axis=-1) & present
    absent = ~present
    bad = nan | absent
    if not bad.any():
        return np.ones(len(items), dtype=bool)
    if missing == "complete":
        return ~bad.any(axis=1)
    parts = []
    if nan.any():
        per_sys = nan.sum(axis=0)
        listing = ", ".join(f"{systems[j]!r}: {int(c)}" for j, c in enumerate(per_sys) if c)
        r, s = np.argwhere(nan)[0]
        parts.append(
            f"{int(nan.sum())} NaN or missing score(s) (by system: {listing}; the first for "
            f"item {items[r]!r} and system {systems[s]!r})"
        )
    if absent.any():
        r, s = np.argwhere(absent)[0]
        n_items = int(absent.any(axis=1).sum())
        parts.append(
            f"{int(absent.sum())} (item, system) pair(s) with no row: {n_items} item(s) are "
            f"missing for some systems (the first: item {items[r]!r} has no score for system "
            f"{systems[s]!r})"
        )
    raise ValueError(
        f"`{arg}`: every item needs a score for every system; found "
        + " and ".join(parts)
        + ". Fix the data, or pass missing='complete' to keep only the items scored for "
        "every system (the number dropped is reported)."
    )


def check_missing_arg(missing) -> str:
    return check_choice(missing, "missing", ("raise", "complete"))


def check_magnitude(scores: np.ndarray, n_items: int, arg: str) -> None:
    """Sums of ``n_items`` scores and differences of two must stay finite."""
    largest = 0.0
    if scores.size:  # the largest magnitude, NaN left out
        low, high = _least_and_largest(scores)
        largest = max(abs(float(low)), abs(float(high)))
    if largest > np.finfo(np.float64).max / (2.0 * (n_items + 1)):
        raise ValueError(
            f"`{arg}`: scores as large as {largest:.3g} overflow when summed over "
            f"{n_items} items; rescale them first (e.g. divide by 1e{int(np.log10(largest))})."
        )


def _least_and_largest(scores: np.ndarray):
    """``np.fmin`` and ``np.fmax`` of all of ``scores`` (NaN left out), an array in memory
    order taken in pieces of half a megabyte (each read once from memory), no copy."""
    if not (scores.flags.c_contiguous or scores.flags.f_contiguous):
        return np.fmin.reduce(scores, axis=None), np.fmax.reduce(scores, axis=None)
    flat, step = scores.ravel(order="K"), 2**16
    pieces = [(np.fmin.reduce(flat[i : i + step]), np.fmax.reduce(flat[i : i + step]))
              for i in range(0, flat.size, step)]  # fmt: skip
    return np.fmin.reduce([p[0] for p in pieces]), np.fmax.reduce([p[1] for p in pieces])


def finite_sum(scores: np.ndarray) -> bool:
    """Whether the sum of float ``scores`` is finite, which shows that none is NaN or
    infinite (one pass, no copy); a sum that overflows says nothing (False)."""
    with np.errstate(over="ignore", invalid="ignore"):
        return scores.dtype.kind == "f" and bool(np.isfinite(np.add.reduce(scores, axis=None)))
