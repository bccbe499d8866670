"""The model confidence set of one group (Hansen, Lunde and Nason 2011): the sequence of
elimination tests on the mean losses of ``p`` systems and their MCS p-values.

The inputs are the mean loss differences ``d[i, j] = mean loss_i - mean loss_j`` and their
bootstrap replicates, drawn jointly for all pairs (one resampling of the units for every
pair: the bootstrap's ``bootstrap_distribution``). With the centred replicates
``z*[i, j] = d*[i, j] - d[i, j]`` and the bootstrap standard errors
``se[i, j] = sqrt(mean_b z*[i, j]**2)`` (HLN's bootstrap variance: the replicates about the
estimate), on the systems ``M`` still in the set (``m`` of them):

* ``statistic="range"``, ``T_R = max_{i, j in M} |d[i, j]| / se[i, j]``; its null
  ``T*_R = max_{i, j in M} |z*[i, j]| / se[i, j]``; the system eliminated is
  ``argmax_i max_{j in M} d[i, j] / se[i, j]`` (the worse of the pair that sets ``T_R``).
* ``statistic="max"``, ``d[i.] = mean_{j in M} d[i, j]`` (system ``i``'s loss minus the
  average loss of ``M``), ``se[i.]`` from ``z*[i.] = mean_{j in M} z*[i, j]``,
  ``T_max = max_{i in M} d[i.] / se[i.]``; its null ``T*_max = max_{i in M} z*[i.] / se[i.]``;
  the system eliminated is ``argmax_i d[i.] / se[i.]``.

The p-value of the test on ``M`` is ``#{b: T*_b > T} / B``, a ``T*_b`` within rounding of
``T`` counted as a tie, not above (the tie rule of :mod:`pairedstats.core.ties`: within
``(error + 8 u L) / se_min + 8 u |T|``, ``error`` the bound the caller gives on the error of a
mean loss difference from the scores' own rounding, ``L`` the largest loss difference or
replicate in size (float64's rounding of them), ``se_min`` the smallest standard error of the
test, ``u = 2**-53``), so that a change of units (0/1 scores as 0/100) or an exact offset of
the scores changes no p-value and no set; the worst system is eliminated
and the test repeated on the rest until one system is left. A system's MCS p-value is the
largest p-value of the tests up to and including the one that eliminated it (the last
system's is 1): HLN's MCS p-value (the running maximum), so that the ``1 - alpha`` set, the
systems with an MCS p-value of at least ``alpha``, is what the sequential procedure stopped
at level ``alpha`` keeps.

Two details of this implementation: systems tied for the worst statistic (by the same
rule) are eliminated together in one step (``arch`` does so for ``T_max``), so that the
numbers do not depend on the order of the systems; and when all the remaining systems tie
(equal means), none is eliminated and they all keep the MCS p-value 1. Sums over systems
are taken over the sorted values, so they too are the same bits in any order. A zero
standard error (a pair whose difference is the same on every resample) makes a nonzero
difference infinitely significant and a zero one 0; its centred replicates count as 0.

Reference: Hansen, P. R., Lunde, A. and Nason, J. M. (2011). The model confidence set.
*Econometrica* 79(2), 453-497.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import checks

__all__ = ["STATISTICS", "ModelConfidenceSet", "model_confidence_set", "system_confidence_set"]

#: The test statistics: ``"max"`` (T_max) and ``"range"`` (T_R).
STATISTICS = ("max", "range")
_UNIT = 2.0**-53  # float64's unit roundoff


@dataclass(frozen=True)
class ModelConfidenceSet:
    """The elimination sequence of one group.

    Attributes
    ----------
    pvalue : ndarray, shape (p,)
        Each system's MCS p-value (1 for the systems never eliminated).
    step : ndarray of int, shape (p,)
        The test (1, 2, ...) that eliminated each system; 0 for the systems left at the end.
    step_pvalue : ndarray, shape (n_steps,)
        The p-value of each elimination test, in order.
    step_statistic : ndarray, shape (n_steps,)
        The observed statistic (``T_max`` or ``T_R``) of each test.
    """

    pvalue: np.ndarray
    step: np.ndarray
    step_pvalue: np.ndarray
    step_statistic: np.ndarray


def _ratio(numerator: np.ndarray, se: np.ndarray) -> np.ndarray:
    """``numerator / se``; where ``se == 0``: infinite with the numerator's sign (0 for 0)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        out = numerator / se
    zero = se == 0
    if np.any(zero):
        infinite = np.where(numerator == 0, 0.0, np.copysign(np.inf, numerator))
        out = np.where(zero, infinite, out)
    return out


def _null(centred: np.ndarray, se: np.ndarray) -> np.ndarray:
    """Centred replicates over their standard error (last axis: the replicates); 0 where
    the standard error is 0 (the replicates are then 0 too)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        out = centred / se[..., None]
    return np.where((se == 0)[..., None], 0.0, out)


def _mean_over_members(values: np.ndarray, axis: int) -> np.ndarray:
    """The mean along ``axis`` of the sorted values: the same bits in any order."""
    values = np.sort(np.moveaxis(values, axis, -1), axis=-1)
    return values.sum(axis=-1) / values.shape[-1]


def _range_test(null, t, se, members):
    """T_R on ``members``: (statistic, its replicates, each member's worst t, the smallest
    standard error)."""
    sub = np.ix_(members, members)
    worst = t[sub].max(axis=1)  # max_j t[i, j]: T_R is the largest of these
    replicates = np.abs(null[sub]).max(axis=(0, 1))
    return worst.max(), replicates, worst, _smallest(se[sub])


def _smallest(se: np.ndarray) -> float:
    """The smallest positive standard error (inf when there is none)."""
    positive = se[se > 0]
    return float(positive.min()) if positive.size else np.inf


def _max_test(loss, centred, members):
    """T_max on ``members`` from each system's loss ``loss`` (p,) and its centred replicates
    ``centred`` (p, B), both relative to any one system: ``d[i.] = loss_i - mean_M loss``
    and ``z*[i.] = z*_i - mean_M z*`` (the mean over the members of ``d[i, j]`` and
    ``z*[i, j]``, computed on ``p`` rows instead of ``p**2``). (statistic, its replicates,
    each member's t[i.], the smallest standard error)."""
    mean_d = loss[members] - _mean_over_members(loss[members], axis=0)
    z = centred[members]
    mean_z = z - _mean_over_members(z, axis=0)  # (m, B)
    se = np.sqrt(np.mean(mean_z**2, axis=-1))
    t = _ratio(mean_d, se)
    replicates = _null(mean_z, se).max(axis=0)
    return t.max(), replicates, t, _smallest(se)


def model_confidence_set(
    difference, replicates, statistic: str = "max", error: float = 0.0
) -> ModelConfidenceSet:
    """The elimination sequence and MCS p-values of one group.

    Parameters
    ----------
    difference : array_like, shape (p, p)
        ``d[i, j] = mean loss_i - mean loss_j`` (antisymmetric, 0 on the diagonal; a lower
        loss is better).
    replicates : array_like, shape (p, p, B)
        Their bootstrap replicates, one joint resampling of the units per ``b``.
    statistic : {"max", "range"}
        ``T_max`` or ``T_R`` (and its elimination rule).
    error : float, default 0
        A bound on the error of a mean loss difference and of its replicates from the
        rounding of the scores (the tie rule's :func:`pairedstats.core.ties.tie_error`);
        float64's rounding of the differences themselves is always allowed for.

    Returns
    -------
    ModelConfidenceSet

    Examples
    --------
    Three systems; the third has a far larger loss and goes first:

    >>> rng = np.random.default_rng(0)
    >>> loss = rng.normal(size=(50, 3)) + [0.0, 0.8, 3.0]
    >>> draws = rng.integers(0, 50, size=(2000, 50))
    >>> means = loss.mean(axis=0)
    >>> star = loss[draws].mean(axis=1).T  # (3, B)
    >>> out = model_confidence_set(means[:, None] - means, star[:, None] - star[None])
    >>> out.step.tolist(), float(out.pvalue[2])
    ([0, 2, 1], 0.0)
    """
    d = np.asarray(difference, dtype=np.float64)
    reps = np.asarray(replicates, dtype=np.float64)
    p = d.shape[0]
    if d.shape != (p, p) or reps.shape[:2] != (p, p) or reps.ndim != 3:
        raise ValueError(
            f"difference must be (p, p) and replicates (p, p, B); got {d.shape} and {reps.shape}"
        )
    statistic = checks.choice(statistic, "statistic", STATISTICS)
    centred = reps - d[..., None]
    error = _with_rounding(error, d, reps)
    if statistic == "max":  # relative to system 0: d[i, 0] and z*[i, 0]
        return _eliminate(len(d), lambda members: _max_test(d[:, 0], centred[:, 0], members),
                          error)  # fmt: skip
    se = np.sqrt(np.mean(centred**2, axis=-1))
    t, null = _ratio(d, se), _null(centred, se)
    return _eliminate(len(d), lambda members: _range_test(null, t, se, members), error)


def system_confidence_set(
    loss, replicates, statistic: str = "max", error: float = 0.0
) -> ModelConfidenceSet:
    """:func:`model_confidence_set` from each system's mean loss and its replicates, both
    relative to any one system (``loss_i - loss_r`` and its bootstrap replicates).

    ``T_max`` reads ``p`` rows per elimination step (memory ``p x B``), so it serves
    leaderboards of a thousand systems; ``T_R`` forms every pair's replicates
    (``p x p x B``).

    Parameters
    ----------
    loss : array_like, shape (p,)
    replicates : array_like, shape (p, B)
        One joint resampling of the units per column (the replicate of ``loss_i - loss_r``
        for every ``i``; 0 for ``r`` itself).
    statistic : {"max", "range"}
    error : float, default 0
        As in :func:`model_confidence_set`.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> loss = rng.normal(size=(50, 3)) + [0.0, 0.8, 3.0]
    >>> draws = rng.integers(0, 50, size=(2000, 50))
    >>> means, star = loss.mean(axis=0), loss[draws].mean(axis=1).T
    >>> out = system_confidence_set(means - means[0], star - star[0])
    >>> out.step.tolist(), float(out.pvalue[2])
    ([0, 2, 1], 0.0)
    """
    loss = np.asarray(loss, dtype=np.float64)
    reps = np.asarray(replicates, dtype=np.float64)
    if loss.ndim != 1 or reps.shape[:1] != loss.shape or reps.ndim != 2:
        raise ValueError(f"loss must be (p,) and replicates (p, B); got {loss.shape} and "
                         f"{reps.shape}")  # fmt: skip
    statistic = checks.choice(statistic, "statistic", STATISTICS)
    centred = reps - loss[:, None]
    if statistic == "max":
        error = _with_rounding(error, loss, reps)
        return _eliminate(len(loss), lambda members: _max_test(loss, centred, members), error)
    d = loss[:, None] - loss[None, :]
    return model_confidence_set(d, reps[:, None, :] - reps[None, :, :], "range", error)


def _with_rounding(error: float, loss: np.ndarray, replicates: np.ndarray) -> float:
    """``error`` plus float64's rounding of loss differences and replicates of their size."""
    size = max(float(np.abs(loss).max(initial=0.0)), float(np.abs(replicates).max(initial=0.0)))
    return float(error) + 8.0 * _UNIT * size


def _eliminate(p: int, test, error: float) -> ModelConfidenceSet:
    """The elimination sequence of ``p`` systems; ``test(members)`` gives the statistic of
    the members, its bootstrap replicates, each member's worst value and the smallest
    standard error (the ties of the statistic are read within ``error`` over it)."""
    included = np.ones(p, dtype=bool)
    step = np.zeros(p, dtype=np.int64)
    pvalue = np.ones(p)
    step_pvalues, statistics = [], []
    running = 0.0
    while included.sum() > 1:
        members = np.flatnonzero(included)
        observed, null_draws, worst, se = test(members)
        tie = error / se + _UNIT * 8.0 * abs(observed) if np.isfinite(observed) else 0.0
        out = members[worst >= observed - tie]
        if out.size == members.size:  # all tied: none is worse than the others
            break
        p_step = float(np.mean(null_draws > observed + tie))
        running = max(running, p_step)
        step_pvalues.append(p_step)
        statistics.append(float(observed))
        step[out] = len(step_pvalues)
        pvalue[out] = running
        included[out] = False
    return ModelConfidenceSet(
        pvalue=pvalue, step=step, step_pvalue=np.asarray(step_pvalues),
        step_statistic=np.asarray(statistics),
    )  # fmt: skip
