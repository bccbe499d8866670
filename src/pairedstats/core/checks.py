"""The checks of single values, for the core and the methods alike: a probability, a choice
among names, a whole number, a flag.

Each message names the argument, the rule and the value received (a numpy scalar shown as
the Python value it holds): "`confidence_level` must be strictly between 0 and 1; got 1.5".
A value of the wrong kind is a ``TypeError``, one of the right kind out of range a
``ValueError``. Choices follow one case rule: a name matches whatever its case, and the
name is returned as the choices spell it.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Sequence

import numpy as np

__all__ = ["choice", "count", "flag", "nonnegative", "plain", "probability"]


def plain(value):
    """A numpy scalar as the Python value it holds (messages show ``3``, not
    ``np.int64(3)``); anything else as it is.

    Examples
    --------
    >>> plain(np.int64(3)), plain("a")
    (3, 'a')
    """
    return value.item() if isinstance(value, np.generic) else value


def probability(value, name: str) -> float:
    """``value`` as a float strictly between 0 and 1 (a level, an ``alpha``), else raise.

    Examples
    --------
    >>> probability(0.95, "confidence_level")
    0.95
    >>> probability(1.5, "confidence_level")
    Traceback (most recent call last):
    ...
    ValueError: `confidence_level` must be strictly between 0 and 1; got 1.5.
    """
    if isinstance(value, bool | np.bool_) or not isinstance(value, numbers.Real):
        raise TypeError(
            f"`{name}` must be a number strictly between 0 and 1; got {plain(value)!r}."
        )
    value = float(value)
    if not 0.0 < value < 1.0:
        raise ValueError(f"`{name}` must be strictly between 0 and 1; got {value}.")
    return value


def choice(value, name: str, choices: Sequence[str]) -> str:
    """The one of ``choices`` that ``value`` names, whatever its case, else raise.

    Examples
    --------
    >>> choice("Two-Sided", "alternative", ("two-sided", "less", "greater"))
    'two-sided'
    """
    if isinstance(value, str):
        for c in choices:
            if value.lower() == c.lower():
                return c
    listed = ", ".join(repr(c) for c in choices)
    raise ValueError(f"`{name}` must be one of {listed}; got {plain(value)!r}.")


def count(value, name: str, minimum: int = 1) -> int:
    """``value`` as an int if it is a whole number of at least ``minimum``, else raise.

    Examples
    --------
    >>> count(np.int64(200), "n_resamples")
    200
    """
    if isinstance(value, bool | np.bool_) or not isinstance(value, numbers.Integral):
        raise TypeError(
            f"`{name}` must be a whole number, at least {minimum}; got {plain(value)!r}."
        )
    if value < minimum:
        raise ValueError(f"`{name}` must be at least {minimum}; got {plain(value)}.")
    return int(value)


def nonnegative(value, name: str, *, zero: bool = True) -> float:
    """``value`` as a finite float at least 0 (above 0 when ``zero`` is False), else a
    ``TypeError`` (not a real number) or ``ValueError``.

    Examples
    --------
    >>> nonnegative(0, "rope"), nonnegative(0.5, "prior_strength", zero=False)
    (0.0, 0.5)
    >>> nonnegative(0.0, "prior_strength", zero=False)
    Traceback (most recent call last):
    ...
    ValueError: `prior_strength` must be finite and > 0; got 0.0.
    """
    if isinstance(value, bool | np.bool_) or not isinstance(value, numbers.Real):
        raise TypeError(f"`{name}` must be a real number; got {plain(value)!r}.")
    value = float(value)
    if not math.isfinite(value) or value < 0 or (value == 0 and not zero):
        rule = "finite and >= 0" if zero else "finite and > 0"
        raise ValueError(f"`{name}` must be {rule}; got {value!r}.")
    return value


def flag(value, name: str) -> bool:
    """``value`` as a bool if it is True or False (numpy's too), else a ``TypeError``.

    Examples
    --------
    >>> flag(np.True_, "simultaneous")
    True
    """
    if not isinstance(value, bool | np.bool_):
        raise TypeError(f"`{name}` must be True or False; got {plain(value)!r}.")
    return bool(value)
