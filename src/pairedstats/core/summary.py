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
from .margins import margin_columns
from .studentized import studentized_replicates, t_interval

__all__ = ["Rule", "Summary", "interval", "margin_tests", "summarize"]


class Rule(NamedTuple):
    """What a summary is asked for: the interval ``method``, ``alternative`` (about the
    estimate), ``confidence_level``, ``adjust`` (None or one of
    :data:`pairedstats.core.adjust.PVALUE_METHODS`, ``"max-t"``) and ``margin`` (None, or
    the margin ``m > 0`` whose one-sided tests at ``-m`` and ``m`` are asked for)."""

    method: str
    alternative: str
    confidence_level: float
    adjust: str | None = None
    margin: float | None = None


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
    pvalue_above, pvalue_below : ndarray of float or None
        With ``rule.margin``, the one-sided p-values of ``H0: b - a <= -margin`` and of
        ``H0: b - a >= margin``: the interval inverted at ``-margin`` (lower end) and at
        ``margin`` (upper end), each below ``1 - confidence_level`` exactly when the
        one-sided interval at ``confidence_level`` (the end of the two-sided one at ``2
        confidence_level - 1``) excludes that end of the margin; else None.
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
    pvalue_above: np.ndarray | None = None
    pvalue_below: np.ndarray | None = None


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


class _Tested(NamedTuple):
    """The test of one null value (:func:`_tested`)."""

    pvalue: np.ndarray
    low: np.ndarray
    high: np.ndarray
    z0: np.ndarray | None
    reps: np.ndarray
    bounds: tuple | None


def _snapped(rule: Rule, reps, est, tie, t, value=0.0):
    """The replicates with their ties snapped where an interval end crosses ``value`` (the
    basic interval's at ``2 * estimate - value``), ``(value, tol)``
    (:func:`inference.snap_bounds`), and ``t``; the studentized interval's replicates are read
    as they are (and None), its ``t`` replicates snapped at ``(estimate - value) / se``."""
    if rule.method == "studentized":
        with np.errstate(invalid="ignore", divide="ignore"):
            scale = np.where(t[1] > 0, t[1], np.inf)
            snapped = inference.snap_ties(t[0], (est - value) / scale, 2.0 * tie / scale)
        return reps, None, (snapped, t[1])
    at, tie = (2.0 * est - value, 2.0 * tie) if rule.method == "basic" else (value, tie)
    bounds = inference.snap_bounds(reps, at, tie)
    return inference.snap_within(reps, *bounds), bounds, t


def _tested(rule: Rule, reps, est, acceleration, tie, t, value=0.0) -> _Tested:
    """The test of ``H0`` at the null ``value`` by the interval of ``rule``: the replicates
    snapped where its ends cross ``value`` (:func:`_snapped`), the interval at
    ``rule.confidence_level`` (one-sided as ``rule.alternative``) and its p-value, the
    interval inverted at ``value`` (:func:`inference.crossing_levels`), put on the side of
    ``1 - confidence_level`` the interval is on (:func:`inference.agree_with_interval`)."""
    reps, bounds, t = _snapped(rule, reps, est, tie, t, value)
    low, high, z0 = interval(rule, reps, est, rule.confidence_level, acceleration, tie, t)
    ends = inference.crossing_levels(
        rule.method, reps, est, bias_correction=z0, acceleration=acceleration,
        t_replicates=None if t is None else t[0], estimate_se=None if t is None else t[1],
        value=value,
    )  # fmt: skip
    p = inference.pvalue(*ends, rule.alternative)
    p = inference.agree_with_interval(p, low, high, rule.confidence_level, value)
    return _Tested(p, low, high, z0, reps, bounds)


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
    tested = _tested(rule, reps, est, acceleration, tie, t)
    p, low, high, z0, reps, bounds = tested
    margin = (None, None)
    if rule.margin is not None:  # the same test at the margin's ends, one-sided
        margin = tuple(
            _tested(rule._replace(alternative=side), reps, est, acceleration, tie, t, at).pvalue
            for side, at in (("greater", -rule.margin), ("less", rule.margin))
        )
    adjusted = (None, None)
    if rule.adjust == "bonferroni":
        level = _adjust.bonferroni_level(rule.confidence_level, k)
        adjusted = interval(rule, reps, est, level, acceleration, tie, t)[:2]
    bca = rule.method == "bca"
    block = Summary(
        standard_error=sd, ci_low=low, ci_high=high, pvalue=p, point=point, n_nan=n_nan,
        bias_correction=z0 if bca else None, acceleration=acceleration if bca else None,
        ci_low_adjusted=adjusted[0], ci_high_adjusted=adjusted[1], pvalue_above=margin[0],
        pvalue_below=margin[1],
    )  # fmt: skip
    return block, reps, bounds


def _t_replicates(reps, est, tie, replicate_se, estimate_se):
    """The bootstrap-t replicates and ``estimate_se``, rounding taken out.

    A replicate within rounding of the estimate deviates by 0, a standard error within
    rounding of 0 is 0 (a resample of units equal to the precision of the scores as given,
    whose t* is then infinite); a t* within rounding of ``(estimate - value) /
    estimate_se`` (where an end of the interval crosses the null ``value``) is taken to be
    there by :func:`_snapped`: so that adding a constant to the scores changes neither the
    interval's ends beyond rounding nor the p-value.
    """
    tie = np.asarray(tie, dtype=np.float64)
    reps = inference.snap_ties(reps, est, tie)
    replicate_se = np.where(replicate_se <= tie[..., None], 0.0, replicate_se)
    estimate_se = np.where(estimate_se <= tie, 0.0, estimate_se)
    return studentized_replicates(reps, est, replicate_se), estimate_se


def margin_tests(summary: Summary, rule: Rule, n_resamples: int) -> dict[str, np.ndarray]:
    """The columns of the test against ``rule.margin``
    (:func:`pairedstats.core.margins.margin_columns`) from a family's one-sided p-values at
    the margin's ends (``summary.pvalue_above``, ``pvalue_below``, shape ``(..., k)``), at
    ``alpha = 1 - confidence_level``.

    The p-value columns hold the intervals inverted (0: below about ``1 / n_resamples``).
    With ``rule.adjust`` (Holm, Bonferroni, BH, BY) the adjusted columns, and the decision,
    are those of the one-sided add-one p-values
    (:func:`pairedstats.core.adjust.add_one_pvalues`), as for ``pvalue_adjusted``: so that a
    0 never passes a threshold finer than the resamples resolve.

    Examples
    --------
    >>> s = Summary(*(np.zeros((1, 2)),) * 6, pvalue_above=np.array([[0.0, 0.2]]),
    ...             pvalue_below=np.array([[0.01, 0.0]]))
    >>> out = margin_tests(s, Rule("percentile", "two-sided", 0.95, "holm", 0.1), 99)
    >>> out["pvalue_equivalence"].tolist(), out["pvalue_equivalence_adjusted"].tolist()
    ([[0.01, 0.2]], [[0.0398, 0.208]])
    >>> out["equivalent"].tolist()
    [[True, False]]
    """
    alpha = 1.0 - rule.confidence_level
    above, below = summary.pvalue_above, summary.pvalue_below
    out = margin_columns(above, below, rule.alternative, alpha)
    if rule.adjust is not None:
        plus_one = (_adjust.add_one_pvalues(above, n_resamples, "greater"),
                    _adjust.add_one_pvalues(below, n_resamples, "less"))  # fmt: skip
        adjusted = margin_columns(*plus_one, rule.alternative, alpha, rule.adjust)
        out.update((k, v) for k, v in adjusted.items() if not k.startswith("pvalue_") or
                   k.endswith("_adjusted"))  # fmt: skip
    return out
