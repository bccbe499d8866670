"""Checks of the method keywords shared by all methods.

Each message names the argument, the rule and the value received, e.g.
"`confidence_level` must be strictly between 0 and 1; got 1.5".
This module imports numpy only, so the core may use it.
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence

import numpy as np

from ._version import __version__
from .core.montecarlo import _check_probability
from .core.streams import root_entropy

__all__ = [
    "check_choice",
    "check_confidence_level",
    "check_n_resamples",
    "metadata",
    "normalise_rng",
]


def check_confidence_level(value) -> float:
    """Return ``value`` as a float strictly between 0 and 1, or raise ``ValueError``."""
    return _check_probability(value, "confidence_level")


def check_n_resamples(value, name: str = "n_resamples") -> int:
    """Return ``value`` as a positive int, or raise."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise TypeError(f"`{name}` must be a positive integer; got {value!r}.")
    if value < 1:
        raise ValueError(f"`{name}` must be a positive integer; got {value}.")
    return int(value)


def check_choice(value, name: str, choices: Sequence[str]) -> str:
    """Return ``value`` if it is one of ``choices`` (case-insensitive), else raise."""
    if isinstance(value, str) and value.lower() in choices:
        return value.lower()
    listed = ", ".join(repr(c) for c in choices)
    raise ValueError(f"`{name}` must be one of {listed}; got {value!r}.")


def normalise_rng(rng) -> int:
    """The root entropy of a call's streams (see :mod:`pairedstats.core.streams`)."""
    return root_entropy(rng)


def metadata(method: str, **settings) -> dict:
    """The re-run metadata of a result: method, settings, package version."""
    out = {"method": method}
    out.update(settings)
    out["pairedstats_version"] = __version__
    return out
