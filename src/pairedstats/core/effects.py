"""Paired effect sizes: the standardized mean difference d_z and the win/tie/loss counts.

Functions of per-item scores; numpy and the kernel of :mod:`pairedstats.core.pairs`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .intervals import comparison_tie_errors
from .pairs import difference_moments
from .ties import ERROR_ULPS

__all__ = ["PairedEffects", "paired_effects", "standardized"]


@dataclass(frozen=True)
class PairedEffects:
    """The effect sizes of :func:`paired_effects`: per comparison ``(a, b)``, shape (k,).

    Attributes
    ----------
    effect_size : ndarray of float
        Cohen's ``d_z`` of ``b - a`` (NaN or infinite where :func:`paired_effects` says).
    wins, ties, losses : ndarray of int64
        The items where b wins, ties and loses (``b - a`` above, within and below its error
        of 0).
    """

    effect_size: np.ndarray
    wins: np.ndarray
    ties: np.ndarray
    losses: np.ndarray


def paired_effects(
    scores: np.ndarray, pairs: Sequence[tuple[int, int]], precision: float = 2.0**-53
) -> PairedEffects:
    """Per comparison ``(a, b)``: ``d_z`` of ``b - a`` and the items where b wins, ties, loses.

    ``effect_size`` is Cohen's ``d_z``, the mean of the per-item differences over their
    standard deviation (``ddof=1``): the standardized mean difference of paired data
    (Cohen 1988, *Statistical Power Analysis for the Behavioral Sciences*, section 2.3.5;
    Lakens 2013, *Frontiers in Psychology* 4:863, eq. 6). It is NaN with one item or when
    every difference is 0, and infinite (with the mean's sign) when all items differ by the
    same non-zero amount. A mean or a standard deviation within the rounding of the
    differences of 0 is 0 (:func:`pairedstats.core.intervals.tie_error`, the tie rule of
    :mod:`pairedstats.core.ties`; differences equal in exact arithmetic can differ by an
    ulp), so that rescaling the scores changes no ``d_z``. ``wins``, ``ties`` and ``losses``
    count the items where ``b - a`` is above, within and below its own error
    ``e(a) + e(b)`` of 0 (the signed-rank test's zeros): ``b == a`` is always a tie.

    Parameters
    ----------
    scores : ndarray, shape (n_items, n_systems)
    pairs : sequence of (a, b) system indices
    precision : float, default ``2**-53``
        Unit roundoff of the scores as given (``2**-24`` for float32).

    Returns
    -------
    PairedEffects
        ``effect_size`` (k,) float, ``wins``, ``ties``, ``losses`` (k,) int.

    Examples
    --------
    >>> scores = np.array([[0.2, 0.5], [0.4, 0.4], [0.1, 0.6], [0.3, 0.2]])
    >>> out = paired_effects(scores, [(0, 1)])
    >>> d = scores[:, 1] - scores[:, 0]
    >>> bool(np.isclose(out.effect_size[0], d.mean() / d.std(ddof=1)))
    True
    >>> int(out.wins[0]), int(out.ties[0]), int(out.losses[0])
    (2, 1, 1)
    """
    scores = np.asarray(scores, dtype=np.float64)
    tol = comparison_tie_errors(scores, pairs, precision)
    moments = difference_moments(scores, pairs, np.where(tol > 0, ERROR_ULPS * precision, 0.0))
    return PairedEffects(
        effect_size=standardized(moments.mean, moments.ss, scores.shape[0], tol),
        wins=moments.wins, ties=moments.ties, losses=moments.losses,
    )  # fmt: skip


def standardized(mean, ss, n: int, tol) -> np.ndarray:
    """Cohen's ``d_z`` from each comparison's mean difference, the sum of its squared
    deviations over ``n`` items and its tie error ``tol``
    (:func:`~pairedstats.core.intervals.comparison_tie_errors`): a mean within ``tol`` of 0
    is 0, a standard deviation within ``2 tol`` of 0 is 0 (:func:`paired_effects`' rules).

    Examples
    --------
    >>> standardized(np.array([0.5, 1e-17]), np.array([3.0, 0.0]), 4, 1e-15).tolist()
    [0.5, nan]
    """
    mean = np.where(np.abs(mean) <= tol, 0.0, mean)
    with np.errstate(invalid="ignore", divide="ignore"):
        sd = np.sqrt(ss / (n - 1)) if n > 1 else np.full(np.shape(mean), np.nan)
        sd = np.where(sd <= 2.0 * tol, 0.0, sd)
        return mean / sd
