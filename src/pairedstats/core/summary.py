"""From the replicates of a group's comparisons to what a bootstrap reports: the standard
error, the interval of a method (one-sided as asked), its p-value, and over the family of
the group's comparisons the adjusted p-values and simultaneous intervals.

Functions of replicates (last axis), estimates and settings; numpy and the core only.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from . import adjust as _adjust
from . import inference
from .intervals import basic_interval, bca_interval, percentile_interval, standard_error
from .joint import max_t_blocks, update_top
from .studentized import studentized_replicates, t_interval

__all__ = ["Rule", "Summary", "interval", "summarize"]


class Rule(NamedTuple):
    """What a summary is asked for: the interval ``method``, ``alternative`` (about the
    estimate), ``confidence_level`` and ``adjust`` (None or one of
    :data:`pairedstats.core.adjust.PVALUE_METHODS`, ``"max-t"``)."""

    method: str
    alternative: str
    confidence_level: float
    adjust: str | None = None


@dataclass(frozen=True)
class Summary:
    """What :func:`summarize` reports of a family of comparisons: each field an array of
    the estimates' shape ``(..., k)``, or None where the rule does not ask for it.

    Attributes
    ----------
    standard_error : ndarray of float
        The standard deviation of the replicates (``ddof=1``).
    ci_low, ci_high : ndarray of float
        The interval of ``rule.method`` (one end infinite with a one-sided
        ``rule.alternative``).
    pvalue : ndarray of float
        The interval inverted: ``pvalue < 1 - confidence_level`` exactly when the interval
        excludes 0.
    point : ndarray of bool
        Whether every replicate is the same.
    n_nan : ndarray of int64
        The NaN replicates.
    bias_correction : ndarray of float or None
        BCa's ``z0``, with ``rule.method == "bca"``; else None.
    acceleration : ndarray of float or None
        BCa's ``a`` as given, with ``rule.method == "bca"``; else None.
    pvalue_adjusted : ndarray of float or None
        With ``rule.adjust``, the p-values adjusted over the family: max-t's step-down
        p-values, or Holm's, Bonferroni's, BH's or BY's of the add-one p-values
        (:func:`pairedstats.core.adjust.add_one_pvalues`); else None.
    ci_low_adjusted, ci_high_adjusted : ndarray of float or None
        With ``rule.adjust`` ``"max-t"`` or ``"bonferroni"``, the simultaneous interval of
        the family; else None.
    """

    standard_error: np.ndarray
    ci_low: np.ndarray
    ci_high: np.ndarray
    pvalue: np.ndarray
    point: np.ndarray
    n_nan: np.ndarray
    bias_correction: np.ndarray | None = None
    acceleration: np.ndarray | None = None
    pvalue_adjusted: np.ndarray | None = None
    ci_low_adjusted: np.ndarray | None = None
    ci_high_adjusted: np.ndarray | None = None


def interval(rule: Rule, reps, est, confidence_level, acceleration=None, tie=0.0, t=None):
    """The interval of ``rule.method`` at ``confidence_level`` (one-sided as
    ``rule.alternative`` asks) and BCa's ``z0`` (None for the other methods); ``t`` is the
    studentized interval's ``(t replicates, estimate_se)``."""
    level, z0 = inference.two_sided_level(confidence_level, rule.alternative), None
    if rule.method == "bca":
        low, high, z0 = bca_interval(reps, est, acceleration, level, tie)
    elif rule.method == "studentized":
        low, high = t_interval(t[0], est, t[1], level)
    elif rule.method == "percentile":
        low, high = percentile_interval(reps, level)
    else:
        low, high = basic_interval(reps, est, level)
    return (*inference.one_sided(low, high, rule.alternative), z0)


def summarize(rule: Rule, replicates, estimate, *, acceleration=None, tie=0.0, se=None) -> Summary:
    """Everything reported of the comparisons whose replicates are ``(..., k, B)``.

    Parameters
    ----------
    rule : Rule
    replicates : ndarray, shape (..., k, B), or an object with ``rows(idx)``
        The joint replicates of each group's ``k`` comparisons (the family of ``adjust``);
        or what gives them a block of comparisons at a time
        (:class:`pairedstats.core.derived.DerivedReplicates`, with ``shape``). They are
        read :data:`~pairedstats.core.adjust.BLOCK_CELLS` at a time, so that memory stays
        bounded whatever ``k``; the numbers do not depend on the blocks.
    estimate : ndarray, shape (..., k)
    acceleration : ndarray, shape (..., k), optional
        BCa's ``a``.
    tie : float or ndarray, shape (..., k)
        How far rounding can move a replicate (:func:`pairedstats.core.intervals.tie_error`):
        replicates within it of where an interval end crosses 0 are taken to be there
        (:func:`pairedstats.core.inference.snap_ties`), so that the p-value and the side of
        0 an end is on do not depend on rounding (for the studentized interval, the
        rules of :func:`_t_replicates`).
    se : tuple of ndarray, for ``method="studentized"``
        ``(replicate_se, estimate_se)``, shapes (..., k, B) and (..., k): the standard error
        of each replicate from its own resample, and of the estimate.

    Returns
    -------
    Summary
        Arrays of shape (..., k): ``standard_error``, ``ci_low``, ``ci_high``, ``pvalue``
        (``pvalue < 1 - confidence_level`` exactly when the interval excludes 0), ``point``
        (every replicate the same), ``n_nan``; BCa's ``bias_correction`` and
        ``acceleration``; with ``adjust``, ``pvalue_adjusted`` (max-t's step-down
        p-values; the others adjust the add-one p-values,
        :func:`pairedstats.core.adjust.add_one_pvalues`), and with "max-t" or "bonferroni"
        ``ci_low_adjusted`` and ``ci_high_adjusted``. The fields the rule does not ask for
        are None.

    Examples
    --------
    >>> gen = np.random.default_rng(0)
    >>> reps = gen.normal([[0.5], [0.1]], 0.2, size=(2, 1000))
    >>> out = summarize(Rule("percentile", "two-sided", 0.95, "holm"), reps, [0.5, 0.1])
    >>> bool(out.pvalue[0] < 0.05), bool(out.pvalue_adjusted[1] >= out.pvalue[1])
    (True, True)
    """
    est = np.asarray(estimate, dtype=np.float64)
    tie = np.broadcast_to(np.asarray(tie, dtype=np.float64), est.shape)
    if not hasattr(replicates, "rows"):
        replicates = np.asarray(replicates, dtype=np.float64)
    k, n_resamples = est.shape[-1], replicates.shape[-1]
    lead = int(np.prod(est.shape[:-1], dtype=np.int64))
    out: dict[str, np.ndarray] = {}  # the blocks' fields that are not None, filled in turn
    # max-t reads the replicates as the intervals do (ties snapped): where each block's are
    # snapped to, and its first pass (the max statistic of every resample) as they are read
    maxt = rule.adjust == "max-t"
    snap = (np.zeros(est.shape), np.full(est.shape, -np.inf))
    top = np.full((*est.shape[:-1], n_resamples), -np.inf) if maxt else None
    for part in _adjust.comparison_blocks(k, n_resamples, lead):
        block, reps, bounds = _comparisons(
            rule, _adjust.take_rows(replicates, part), est[..., part],
            None if acceleration is None else np.asarray(acceleration)[..., part],
            tie[..., part], None if se is None else (se[0][..., part, :], se[1][..., part]), k,
        )  # fmt: skip
        for name, value in _given(block):
            if name not in out:
                out[name] = np.empty(est.shape, dtype=np.asarray(value).dtype)
            out[name][..., part] = value
        if maxt:
            if bounds is not None:
                snap[0][..., part], snap[1][..., part] = bounds
            update_top(top, reps, est[..., part], block.standard_error, rule.alternative)
    if maxt:
        joint = max_t_blocks(lambda idx: _adjust.take_rows(replicates, idx), est,
                             out["standard_error"], rule.confidence_level, rule.alternative,
                             top=top, snap=snap)  # fmt: skip
        out.update(pvalue_adjusted=joint.pvalue_adjusted, ci_low_adjusted=joint.low,
                   ci_high_adjusted=joint.high)  # fmt: skip
    elif rule.adjust is not None:
        # Holm, Bonferroni, BH and BY compare p-values with alpha / m: a Monte Carlo 0 means
        # "below about 1 / B", so they adjust the add-one p-values (the raw ones stay in
        # `pvalue`, which inverts the interval)
        raw = _adjust.add_one_pvalues(out["pvalue"], n_resamples, rule.alternative)
        out["pvalue_adjusted"] = _adjust.adjust_pvalues(raw, rule.adjust)
    return Summary(**out)


_FIELDS = tuple(item.name for item in dataclasses.fields(Summary))


def _given(summary: Summary):
    """The fields of ``summary`` that are not None, as ``(name, value)``."""
    for name in _FIELDS:
        value = getattr(summary, name)
        if value is not None:
            yield name, value


def _snapped(rule: Rule, reps, est, tie):
    """The replicates with their ties snapped where an interval end crosses 0 (the basic
    interval's at ``2 * estimate``), and ``(value, tol)`` (:func:`inference.snap_bounds`);
    the studentized interval's are read as they are (and None)."""
    if rule.method == "studentized":
        return reps, None
    value, tie = (2.0 * est, 2.0 * tie) if rule.method == "basic" else (0.0, tie)
    bounds = inference.snap_bounds(reps, value, tie)
    return inference.snap_within(reps, *bounds), bounds


def _comparisons(rule: Rule, reps, est, acceleration, tie, se, k: int):
    """:func:`summarize` of a block of comparisons, a :class:`Summary` but for the
    family-wise adjustments that need every comparison's numbers (``pvalue_adjusted`` is
    None; with Bonferroni, the intervals of a family of ``k``). Also the replicates as the
    intervals read them and where they were snapped to (:func:`_snapped`)."""
    reps = np.asarray(reps, dtype=np.float64)
    sd = standard_error(reps)
    point, n_nan = np.ptp(reps, axis=-1) == 0, np.isnan(reps).sum(axis=-1)
    t = None  # the studentized interval's (t replicates, estimate_se)
    if rule.method == "studentized":
        t = _t_replicates(reps, est, tie, *se)
    reps, bounds = _snapped(rule, reps, est, tie)
    low, high, z0 = interval(rule, reps, est, rule.confidence_level, acceleration, tie, t)
    ends = inference.crossing_levels(
        rule.method, reps, est, bias_correction=z0, acceleration=acceleration,
        t_replicates=None if t is None else t[0], estimate_se=None if t is None else t[1],
    )  # fmt: skip
    p = inference.pvalue(*ends, rule.alternative)
    p = inference.agree_with_interval(p, low, high, rule.confidence_level)
    adjusted = (None, None)
    if rule.adjust == "bonferroni":
        level = _adjust.bonferroni_level(rule.confidence_level, k)
        adjusted = interval(rule, reps, est, level, acceleration, tie, t)[:2]
    bca = rule.method == "bca"
    block = Summary(
        standard_error=sd, ci_low=low, ci_high=high, pvalue=p, point=point, n_nan=n_nan,
        bias_correction=z0 if bca else None, acceleration=acceleration if bca else None,
        ci_low_adjusted=adjusted[0], ci_high_adjusted=adjusted[1],
    )  # fmt: skip
    return block, reps, bounds


def _t_replicates(reps, est, tie, replicate_se, estimate_se):
    """The bootstrap-t replicates and ``estimate_se``, rounding taken out.

    A replicate within rounding of the estimate deviates by 0, a standard error within
    rounding of 0 is 0 (a resample of units equal to the precision of the scores as given,
    whose t* is then infinite), and a t* within rounding of ``estimate / estimate_se``
    (where an end of the interval crosses 0) is taken to be there: so that adding a
    constant to the scores changes neither the interval's ends beyond rounding nor the
    p-value.
    """
    tie = np.asarray(tie, dtype=np.float64)
    reps = inference.snap_ties(reps, est, tie)
    replicate_se = np.where(replicate_se <= tie[..., None], 0.0, replicate_se)
    estimate_se = np.where(estimate_se <= tie, 0.0, estimate_se)
    t = studentized_replicates(reps, est, replicate_se)
    with np.errstate(invalid="ignore", divide="ignore"):
        scale = np.where(estimate_se > 0, estimate_se, np.inf)
        t = inference.snap_ties(t, est / scale, 2.0 * tie / scale)
    return t, estimate_se
