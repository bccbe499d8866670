"""Tango's score interval of the difference of two paired rates (:func:`tango_interval`).

The paired 2 x 2 table of :mod:`pairedstats.core.mcnemar`: ``only_a`` and ``only_b`` items
that only system a, only system b gets right among ``n``; the difference is ``rate_b - rate_a
= (only_b - only_a) / n``.

Tango's score interval (:func:`tango_interval`)
-----------------------------------------------
Tango (1998) inverts the score test of ``H: rate_b - rate_a = delta``. With ``x = only_b``,
``y = only_a`` (Tango's ``b`` and ``c``), the multinomial maximum likelihood estimate of the
probability of ``only_a`` under ``H`` is the root in ``[0, 1]`` of ``2 n q^2 + W q - y
delta (1 - delta) = 0``,

    q(delta) = (sqrt(W^2 + 8 n y delta (1 - delta)) - W) / (4 n),
    W = -x - y + (2 n - x + y) delta,

and the score statistic is

    T(delta) = (x - y - n delta) / sqrt(n (2 q(delta) + delta (1 - delta))).

``T`` decreases from ``+inf`` at ``delta = -1`` to ``-inf`` at ``delta = 1`` (or reaches 0
there when the table sits on that bound), and the interval at level ``1 - alpha`` is
``{delta : |T(delta)| <= z_{1 - alpha / 2}}``, its ends found by Brent's root finding on
``arctan T`` (finite at the ends), for many tables at once (:func:`tango_ends`). One-sided
intervals solve ``T = z_{1 - alpha}`` (or ``-z_{1 - alpha}``) and keep the other end at the
bound of the parameter, -1 or 1, as R's ``binom.test`` and ``prop.test`` do. The interval
lies in ``[-1, 1]``, holds the estimate, and stays informative where the Wald interval
collapses: with no discordant item it is ``+-z^2 / (n + z^2)``, not the point 0; with all
items discordant one way it still extends inward from the bound.

Tango's test against a margin (:func:`tango_margin_pvalues`)
------------------------------------------------------------
Tango (1998) built ``T`` as a test of non-inferiority: ``H0: rate_b - rate_a <= delta0``
against above is rejected for large ``T(delta0)``, with the one-sided p-value ``1 -
Phi(T(delta0))``; ``H0: rate_b - rate_a >= delta0`` against below has ``Phi(T(delta0))``.
At a margin ``m`` in ``(0, 1)`` the two tests at ``delta0 = -m`` and ``delta0 = m`` give
non-inferiority and, together, equivalence (two one-sided tests). They are the inversion of
the interval: at the interval's end at level ``1 - alpha``, the one-sided p-value is ``alpha /
2`` (``alpha`` for a one-sided interval). With a design effect ``deff`` the statistic is
``T / sqrt(deff)``, as in the interval.

References
----------
* Tango, T. (1998). Equivalence test and confidence interval for the difference in
  proportions for the paired-sample design. *Statistics in Medicine* 17(8), 891-908.
* Newcombe, R. G. (1998). Improved confidence intervals for the difference between binomial
  proportions based on paired data. *Statistics in Medicine* 17(22), 2635-2650 (why the
  Wald interval fails here: limits outside [-1, 1], and a point at no discordant pair).
* Rao, J. N. K. and Scott, A. J. (1992). A simple method for the analysis of clustered
  binary data. *Biometrics* 48(2), 577-585 (``design_effect``).
* Brent, R. P. (1973). *Algorithms for Minimization without Derivatives*, chapter 4.
  Prentice-Hall (the root finding).

This module imports numpy and scipy only.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import special

from . import checks
from .inference import ALTERNATIVES

__all__ = ["Interval", "tango_ends", "tango_interval", "tango_margin_pvalues", "tango_score"]


def whole_count(value, name: str) -> int:
    if isinstance(value, bool | np.bool_) or int(value) != value or value < 0:
        raise ValueError(f"`{name}` must be a non-negative integer; got {value!r}.")
    return int(value)


def tango_score(delta, only_a: int, only_b: int, n_items: int) -> np.ndarray:
    """Tango's (1998) score statistic ``T(delta)`` of ``H: rate_b - rate_a = delta``.

    Positive when the table's difference exceeds ``delta``; ``+inf`` (``-inf``) where the
    variance under ``H`` vanishes at a bound the data lie inside of, 0 at the estimate.

    Parameters
    ----------
    delta : float or array_like
        Values in ``[-1, 1]``.
    only_a, only_b, n_items : int
        The discordant counts and the number of items.

    Returns
    -------
    ndarray of float
        ``T`` at each ``delta``.

    Examples
    --------
    >>> float(tango_score(0.0, 3, 9, 32)) ** 2  # McNemar's chi-square at delta = 0
    3.0
    >>> tango_score([-1.0, 1.0], 3, 9, 32).tolist()
    [inf, -inf]
    """
    x, y, n = (np.asarray(v, dtype=np.float64) for v in (only_b, only_a, n_items))
    return _score(np.asarray(delta, dtype=np.float64), x, y, n)


def _score(d: np.ndarray, x, y, n) -> np.ndarray:
    """:func:`tango_score` at ``d`` of the tables ``x = only_b``, ``y = only_a`` and ``n``
    (float64, broadcast together)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return _statistic(d, _terms(x, y, n))


def _terms(x, y, n) -> tuple:
    """The terms of :func:`_statistic` that do not depend on ``delta``, each table's."""
    return -x - y, 2.0 * n - x + y, 8.0 * n * y, 2.0 * y, 4.0 * n, x - y, n


def _statistic(d: np.ndarray, terms: tuple) -> np.ndarray:
    """``T(d)`` from the tables' :func:`_terms` (under ``np.errstate`` ignoring division by 0
    and invalid values)."""
    w0, w1, c8, y2, n4, diff, n = terms
    spread = d * (1.0 - d)
    w = w0 + w1 * d  # W = -x - y + (2 n - x + y) delta
    root = np.sqrt(np.maximum(w * w + c8 * spread, 0.0))
    # the root of 2 n q^2 + W q - y delta (1 - delta) = 0 in [0, 1], the form without
    # cancellation on each side of W = 0
    q = np.where(w > 0, y2 * spread / (root + w), (root - w) / n4)
    q = np.where(np.isfinite(q), q, 0.0)
    variance = np.maximum(n * (2.0 * q + spread), 0.0)
    num = diff - n * d
    t = np.where(variance > 0, num / np.sqrt(variance), np.sign(num) * np.inf)
    return np.where(num == 0, 0.0, t)


def tango_margin_pvalues(
    only_a, only_b, n_items, margin: float, design_effect=1.0
) -> tuple[np.ndarray, np.ndarray]:
    """Tango's (1998) one-sided score tests of ``rate_b - rate_a`` at a margin, for many
    tables at once.

    Parameters
    ----------
    only_a, only_b, n_items : array_like of int
        The discordant counts and the number of items (broadcast together; not checked).
    margin : float
        ``m`` in ``(0, 1)``.
    design_effect : float or array_like, default 1.0
        Divides ``T`` by its square root (the Rao-Scott adjustment of
        :func:`tango_interval`).

    Returns
    -------
    p_above, p_below : ndarray of float64
        ``1 - Phi(T(-m) / sqrt(deff))``, the p-value of ``H0: rate_b - rate_a <= -m``, and
        ``Phi(T(m) / sqrt(deff))``, that of ``H0: rate_b - rate_a >= m``.

    Examples
    --------
    At the end of the 90% interval the one-sided p-value is 0.05:

    >>> low, high = tango_ends(3, 5, 32, confidence_level=0.9)
    >>> p_above, _ = tango_margin_pvalues(3, 5, 32, -float(low))
    >>> round(float(p_above), 12)
    0.05
    >>> p_above, p_below = tango_margin_pvalues([1, 10], [0, 10], 100, 0.05)
    >>> np.round(p_above, 4).tolist(), np.round(p_below, 4).tolist()
    ([0.0332, 0.1359], [0.006, 0.1359])
    """
    x, y, n, effect = np.broadcast_arrays(
        *(np.asarray(v, dtype=np.float64) for v in (only_b, only_a, n_items, design_effect))
    )
    spread = np.sqrt(effect)
    p_above = special.ndtr(-_score(np.full(x.shape, -margin), x, y, n) / spread)
    p_below = special.ndtr(_score(np.full(x.shape, margin), x, y, n) / spread)
    return np.asarray(p_above, dtype=np.float64), np.asarray(p_below, dtype=np.float64)


@dataclass(frozen=True, kw_only=True)
class Interval:
    """A confidence interval of ``rate_b - rate_a`` (:func:`tango_interval`).

    Attributes
    ----------
    low, high : float
        Its ends, in ``[-1, 1]``; one of them the bound (-1 or 1) for a one-sided
        ``alternative``.
    """

    low: float
    high: float


def tango_interval(
    only_a: int,
    only_b: int,
    n_items: int,
    *,
    confidence_level: float = 0.95,
    alternative: str = "two-sided",
    design_effect: float = 1.0,
) -> Interval:
    """Tango's (1998) score interval of the difference of paired rates, ``rate_b - rate_a``.

    Parameters
    ----------
    only_a, only_b : int
        Items only a, only b gets right.
    n_items : int
        Items in all (at least ``only_a + only_b``, at least 1).
    confidence_level : float, default 0.95
    alternative : {"two-sided", "less", "greater"}, default "two-sided"
        ``"greater"`` gives ``(low, 1)``, ``"less"`` ``(-1, high)``, each end at the
        one-sided level.
    design_effect : float, default 1.0
        Divides the score statistic's variance into ``design_effect`` times it (the
        Rao-Scott adjustment of clustered items, :func:`cluster_design_effect`): the
        interval of the table with every count divided by it.

    Returns
    -------
    Interval

    Examples
    --------
    Tango's example of one discordant item in 44 (90%):

    >>> ci = tango_interval(1, 0, 44, confidence_level=0.9)
    >>> round(ci.low, 3), round(ci.high, 3)
    (-0.096, 0.037)

    No discordant item: the interval is ``+-z^2 / (n + z^2)``, not a point:

    >>> ci = tango_interval(0, 0, 20)
    >>> round(ci.low, 4), round(ci.high, 4)
    (-0.1611, 0.1611)
    """
    alternative = checks.choice(alternative, "alternative", ALTERNATIVES)
    confidence_level = checks.probability(confidence_level, "confidence_level")
    if not (np.isfinite(design_effect) and design_effect > 0):
        raise ValueError(f"`design_effect` must be positive; got {design_effect!r}.")
    x, y, n = (
        whole_count(only_b, "only_b"),
        whole_count(only_a, "only_a"),
        whole_count(n_items, "n_items"),
    )
    if n < 1 or x + y > n:
        raise ValueError(
            f"`n_items` must be at least 1 and at least only_a + only_b = {x + y}; got {n}."
        )
    low, high = tango_ends(y, x, n, confidence_level=confidence_level,
                           alternative=alternative, design_effect=design_effect)  # fmt: skip
    return Interval(low=float(low), high=float(high))


def tango_ends(
    only_a,
    only_b,
    n_items,
    *,
    confidence_level: float = 0.95,
    alternative: str = "two-sided",
    design_effect=1.0,
) -> tuple[np.ndarray, np.ndarray]:
    """Tango's intervals of many tables at once: :func:`tango_interval` over arrays.

    The arguments are :func:`tango_interval`'s, the counts and ``design_effect`` arrays
    broadcast together; they are not checked (:func:`tango_interval` checks one table).
    Each end is Brent's root of ``arctan T(delta)`` minus the arctan of the quantile
    between the estimate and the bound, stepped for every table at once, to within
    ``1e-15 + 4 eps |delta|`` (the steps and the floats of :func:`scipy.optimize.brentq`).

    Returns
    -------
    low, high : ndarray of float64
        The ends, of the broadcast shape.

    Examples
    --------
    >>> low, high = tango_ends([1, 0], [0, 0], [44, 20], confidence_level=0.9)
    >>> np.round(low, 3).tolist(), np.round(high, 3).tolist()
    ([-0.096, -0.119], [0.037, 0.119])
    """
    x, y, n, effect = np.broadcast_arrays(
        *(np.asarray(v, dtype=np.float64) for v in (only_b, only_a, n_items, design_effect))
    )
    tail = 1.0 - confidence_level
    z = float(special.ndtri(1.0 - (tail / 2.0 if alternative == "two-sided" else tail)))
    target = np.array([math.atan(z * math.sqrt(e)) for e in effect.ravel().tolist()])
    x, y, n = x.ravel(), y.ravel(), n.ravel()
    estimate = (x - y) / n
    low = np.flatnonzero(estimate > -1.0) if alternative != "less" else np.array([], int)
    high = np.flatnonzero(estimate < 1.0) if alternative != "greater" else np.array([], int)
    at = np.concatenate([low, high])  # the lower ends, then the upper ends: one root finding
    is_low = np.arange(at.size) < low.size
    lo, hi = np.where(is_low, -1.0, estimate[at]), np.where(is_low, estimate[at], 1.0)
    ends = _root(x[at], y[at], n[at], np.where(is_low, target[at], -target[at]), lo, hi)
    out = np.full(x.shape, -1.0), np.full(x.shape, 1.0)
    out[0][low], out[1][high] = ends[: low.size], ends[low.size :]
    shape = np.broadcast_shapes(*(np.shape(v) for v in (only_b, only_a, n_items, design_effect)))
    return out[0].reshape(shape), out[1].reshape(shape)


#: The tolerances of the ends: an absolute 1e-15 and four units of roundoff.
_XTOL, _RTOL = 1e-15, 4 * float(np.finfo(float).eps)
_MAX_STEPS = 100


def _gap(d: np.ndarray, terms: tuple, target) -> np.ndarray:
    """``arctan T(d) - target`` (arctan keeps the infinite ends finite; :func:`math.atan`
    per value, the same bits on every platform's numpy)."""
    t = _statistic(d, terms).tolist()
    return np.fromiter(map(math.atan, t), np.float64, len(t)) - target


def _root(x, y, n, target, lo, hi) -> np.ndarray:
    """Per table, the ``delta`` in ``[lo, hi]`` where ``arctan T(delta) = target``: ``lo`` or
    ``hi`` where the gap is 0 there; where it does not change sign between them (a one-sided
    level of 0.5: ``z = 0``, the end is the estimate, at which ``T`` is 0 up to rounding), the
    one nearer the target; else Brent's (1973) root, found for every table at once
    (:func:`_brent`)."""
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        terms = _terms(x, y, n)
        f_lo, f_hi = _gap(lo, terms, target), _gap(hi, terms, target)
        out = np.where(np.abs(f_lo) <= np.abs(f_hi), lo, hi)
        out = np.where(f_hi == 0, hi, out)
        out = np.where(f_lo == 0, lo, out)
        at = np.flatnonzero((f_lo * f_hi <= 0) & (f_lo != 0) & (f_hi != 0))
        if at.size:
            table = np.array([*terms, target])[:, at]
            out[at] = _brent(table, lo[at], hi[at], f_lo[at], f_hi[at])
    return out


def _brent(table, x_pre, x_cur, f_pre, f_cur) -> np.ndarray:
    """Brent's (1973) root of :func:`_gap` of each table (``table``: the rows of its
    :func:`_terms` and its target) between ``x_pre`` and ``x_cur`` (where it changes sign),
    in lockstep: inverse quadratic or linear interpolation where that step is short and
    bisection elsewhere, as :func:`scipy.optimize.brentq` steps (its arithmetic, step for
    step: the same floats), to within ``1e-15 + 4 eps |delta|``.

    The state of every live table is one array, its rows the abscissas and gaps of the
    previous point, the current one and the other end of the bracket (``blk``), then the
    last two steps: one selection per update, one compression when tables are done."""
    state = np.zeros((8, x_cur.size))
    state[_PRE], state[_CUR], state[_F_PRE], state[_F_CUR] = x_pre, x_cur, f_pre, f_cur
    out, live = x_cur.copy(), np.arange(x_cur.size)
    for _ in range(_MAX_STEPS):
        x_pre, x_cur, x_blk, f_pre, f_cur, f_blk, s_pre, s_cur = state
        flip = f_pre * f_cur < 0  # the root lies between the last two: a new bracket
        np.copyto(state[_BLK_ROWS], state[_PRE_ROWS], where=flip)  # x_blk, f_blk = pre
        np.copyto(state[_STEP_ROWS], x_cur - x_pre, where=flip)  # s_pre = s_cur = width
        swap = np.abs(f_blk) < np.abs(f_cur)  # the better end becomes the current one
        np.copyto(state[:6], state[_SWAPPED], where=swap)
        delta = (_XTOL + _RTOL * np.abs(x_cur)) / 2
        s_bis = (x_blk - x_cur) / 2
        done = (f_cur == 0) | (np.abs(s_bis) < delta)
        if done.any():
            out[live[done]] = x_cur[done]
            keep = ~done
            if not keep.any():
                return out
            live, table, state = live[keep], table[:, keep], state[:, keep]
            delta, s_bis = delta[keep], s_bis[keep]
            x_pre, x_cur, x_blk, f_pre, f_cur, f_blk, s_pre, s_cur = state
        d_pre = (f_pre - f_cur) / (x_pre - x_cur)
        d_blk = (f_blk - f_cur) / (x_blk - x_cur)
        s_try = np.where(
            x_pre == x_blk,
            -f_cur * (x_cur - x_pre) / (f_cur - f_pre),  # interpolate
            -f_cur * (f_blk * d_blk - f_pre * d_pre) / (d_blk * d_pre * (f_blk - f_pre)),
        )
        abs_pre = np.abs(s_pre)
        bound = 3 * np.abs(s_bis) - delta
        bound = np.where(abs_pre < bound, abs_pre, bound)
        short = (abs_pre > delta) & (np.abs(f_cur) < np.abs(f_pre))
        short &= 2 * np.abs(s_try) < bound
        state[_PRE], state[_F_PRE] = x_cur, f_cur
        state[_S_PRE] = np.where(short, s_cur, s_bis)
        state[_S_CUR] = s_cur = np.where(short, s_try, s_bis)
        step = np.where(np.abs(s_cur) > delta, s_cur, np.where(s_bis > 0, delta, -delta))
        state[_CUR] = x_cur = x_cur + step
        state[_F_CUR] = _gap(x_cur, table[:-1], table[-1])
    out[live] = state[_CUR]
    return out


#: The rows of :func:`_brent`'s state, and the selections of its updates.
_PRE, _CUR, _BLK, _F_PRE, _F_CUR, _F_BLK, _S_PRE, _S_CUR = range(8)
_PRE_ROWS, _BLK_ROWS = slice(_PRE, _F_PRE + 1, 3), slice(_BLK, _F_BLK + 1, 3)
_STEP_ROWS = slice(_S_PRE, _S_CUR + 1)
_SWAPPED = [_CUR, _BLK, _CUR, _F_CUR, _F_BLK, _F_CUR]  # pre, cur, blk = cur, blk, cur
