"""McNemar's test of paired pass/fail outcomes and Tango's score interval of the difference of
the two rates, with their clustered versions.

Conventions (the whole package reads differences as b minus a). Each item has a 0/1 outcome
under system a and under system b; the paired 2 x 2 table counts ``both`` (1, 1), ``only_a``
(1, 0), ``only_b`` (0, 1) and ``neither`` (0, 0) over ``n`` items (:func:`paired_counts`).
The rates are ``rate_a = (both + only_a) / n`` and ``rate_b = (both + only_b) / n``, and the
difference ``rate_b - rate_a = (only_b - only_a) / n``: only the discordant items carry
information about it. ``alternative`` is about b - a (``"greater"``: b's rate is higher).

The tests (:func:`mcnemar_test`)
--------------------------------
Given the ``N = only_a + only_b`` discordant items, ``only_b`` is ``Binomial(N, 1/2)`` under
the null hypothesis of equal rates.

* ``"exact"``: the binomial test of ``only_b`` (McNemar 1947; the conditional exact test).
  One-sided p-values are its tails, ``P(X >= only_b)`` for ``"greater"`` and ``P(X <=
  only_b)`` for ``"less"``; the two-sided one is the doubled smaller tail, capped at 1. At
  ``p = 1/2`` the binomial distribution is symmetric, so this *is* the p-value of
  :func:`scipy.stats.binomtest` (whose two-sided rule sums the outcomes no more likely than
  the one observed), of R's ``binom.test`` and of statsmodels' exact ``mcnemar``: the
  outcomes no more likely than ``only_b`` are exactly those at least as far from ``N / 2``.
  ``statistic`` is ``only_b``, the count whose tails are taken (R's ``binom.test`` reports
  the same "number of successes").
* ``"mid-p"``: the exact tails with half the probability of the observed count
  (Lancaster 1961), two-sided ``2 P(X < k) + P(X = k)`` with ``k = min(only_a, only_b)``;
  Fagerland, Lydersen and Laake (2013) recommend it (with the asymptotic test below) over
  the exact test, which is conservative. ``statistic`` is ``only_b``.
* ``"asymptotic"``: McNemar's chi-square ``(only_b - only_a)^2 / N`` on one degree of
  freedom, **without** continuity correction: Fagerland et al. (2013) found the corrected
  test (Edwards 1948; R's ``mcnemar.test`` default) conservative and the uncorrected one
  close to its nominal size even in small samples. One-sided p-values come from the signed
  score ``z = (only_b - only_a) / sqrt(N)``. ``correction=True`` gives Edwards' version,
  ``(|only_b - only_a| - 1)^2 / N``, with the correction never crossing 0 (at ``only_a ==
  only_b`` the statistic is 0, where R and statsmodels report ``1 / N``). ``statistic`` is
  the chi-square (``z^2``).

With no discordant item every test has nothing against the null: the two-sided p-value is 1
(the chi-square is defined as 0 there).

Tango's score interval (:mod:`pairedstats.core.tango`)
------------------------------------------------------
The interval of ``rate_b - rate_a`` is Tango's (1998) score interval: the values ``delta``
whose score test is not rejected, with the variance of ``only_b - only_a`` at the maximum
likelihood table under ``delta``. It lies in ``[-1, 1]`` and stays informative with no
discordant item (``+-z^2 / (n + z^2)``) and at rates of 0% or 100%, where the Wald interval
is a point or leaves ``[-1, 1]`` (Newcombe 1998). Formulas: :mod:`pairedstats.core.tango`.

Clustered items (:func:`clustered_test`, :func:`cluster_design_effect`)
----------------------------------------------------------------------
When items come in clusters (questions about one passage, turns of one dialogue), the
discordant items of a cluster are not independent. With ``d_i = b_i - a_i`` and per cluster
``k`` its sum ``D_k`` and size ``m_k``:

* the test is the clustered McNemar test of Durkalski, Palesch, Lipsitz and Rust (2003),
  ``X^2 = (sum_k D_k)^2 / sum_k D_k^2`` on one degree of freedom (one-sided: ``z = sum_k D_k /
  sqrt(sum_k D_k^2)``). With clusters of one item ``D_k^2 = |d_i|`` and ``sum_k D_k^2 = N``:
  McNemar's uncorrected chi-square exactly;
* the interval is Tango's with the Rao-Scott (1992) design effect: ``T`` divided by ``sqrt(deff)``,
  which is Tango's interval of the table with every count divided by ``deff`` (an effective
  sample size ``n / deff``). ``deff`` is the cluster-robust (ratio-estimator) variance of
  the total difference, ``V_c = sum_k (D_k - m_k delta_hat)^2``, over its multinomial
  variance as if the items were independent, ``V_m = sum_i (d_i - delta_hat)^2 = N - n
  delta_hat^2``, taken as at least 1 (Korn and Graubard 1998 truncate the effective sample
  size at ``n`` the same way) and as 1 when ``V_m = 0``. Clusters of one item give ``V_c =
  V_m`` exactly (computed in integers): Tango's interval unchanged.

References
----------
* McNemar, Q. (1947). Note on the sampling error of the difference between correlated
  proportions or percentages. *Psychometrika* 12(2), 153-157.
* Edwards, A. L. (1948). Note on the "correction for continuity" in testing the significance
  of the difference between correlated proportions. *Psychometrika* 13(3), 185-187.
* Lancaster, H. O. (1961). Significance tests in discrete distributions. *Journal of the
  American Statistical Association* 56(294), 223-234.
* Fagerland, M. W., Lydersen, S. and Laake, P. (2013). The McNemar test for binary
  matched-pairs data: mid-p and asymptotic are better than exact conditional. *BMC Medical
  Research Methodology* 13, 91.
* Tango, T. (1998). Equivalence test and confidence interval for the difference in
  proportions for the paired-sample design. *Statistics in Medicine* 17(8), 891-908.
* Newcombe, R. G. (1998). Improved confidence intervals for the difference between binomial
  proportions based on paired data. *Statistics in Medicine* 17(22), 2635-2650.
* Durkalski, V. L., Palesch, Y. Y., Lipsitz, S. R. and Rust, P. F. (2003). Analysis of
  clustered matched-pair data. *Statistics in Medicine* 22(15), 2417-2428.
* Rao, J. N. K. and Scott, A. J. (1992). A simple method for the analysis of clustered
  binary data. *Biometrics* 48(2), 577-585.
* Korn, E. L. and Graubard, B. I. (1998). Confidence intervals for proportions with small
  expected number of positive counts estimated from survey data. *Survey Methodology*
  24(2), 193-201.

Every function here is one comparison; :func:`mcnemar_pairs` gives the numbers of many pairs
of systems at once (one matrix product for their counts), and they call it.

This module imports numpy and scipy only.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import checks
from .inference import ALTERNATIVES
from .mcnemar_pairs import METHODS, clustered_sums, mcnemar_pairs, mcnemar_pvalues, normal
from .tango import Interval, tango_interval, tango_score, whole_count

__all__ = [
    "METHODS",
    "ClusteredTest",
    "Interval",
    "McNemar",
    "McNemarTest",
    "PairedCounts",
    "cluster_design_effect",
    "clustered_test",
    "mcnemar_1d",
    "mcnemar_pairs",
    "mcnemar_test",
    "paired_counts",
    "tango_interval",
    "tango_score",
]


# --------------------------------------------------------------------------- the table
@dataclass(frozen=True, kw_only=True)
class PairedCounts:
    """The paired 2 x 2 table of two systems' 0/1 outcomes on the same items
    (:func:`paired_counts`).

    Attributes
    ----------
    n_items : int
        Items (pairs of outcomes).
    both, only_a, only_b, neither : int
        Items both systems get right, only a, only b, neither.
    """

    n_items: int
    both: int
    only_a: int
    only_b: int
    neither: int

    @property
    def rate_a(self) -> float:
        """a's rate of 1s, ``(both + only_a) / n_items``."""
        return (self.both + self.only_a) / self.n_items

    @property
    def rate_b(self) -> float:
        """b's rate of 1s, ``(both + only_b) / n_items``."""
        return (self.both + self.only_b) / self.n_items

    @property
    def difference(self) -> float:
        """``rate_b - rate_a = (only_b - only_a) / n_items``."""
        return (self.only_b - self.only_a) / self.n_items


def _binary(x, name: str) -> np.ndarray:
    x = np.asarray(x)
    if x.ndim != 1:
        raise ValueError(f"`{name}` must be 1-D; got shape {x.shape}.")
    if x.dtype.kind == "b":
        return x
    bad = ~((x == 0) | (x == 1))
    if bad.any():
        raise ValueError(
            f"`{name}` must hold 0/1 outcomes (bool or the numbers 0 and 1); got "
            f"{x[bad][0].item()!r} among {int(bad.sum())} value(s) that are neither."
        )
    return x == 1


def _outcomes(a, b) -> tuple[np.ndarray, np.ndarray]:
    """``a`` and ``b`` checked: 0/1 outcomes (as bool) of the same items, at least one."""
    a, b = _binary(a, "a"), _binary(b, "b")
    if a.shape != b.shape or a.size == 0:
        raise ValueError(
            f"`a` and `b` must be outcomes of the same items, at least one; got {a.size} "
            f"and {b.size}."
        )
    return a, b


def paired_counts(a, b) -> PairedCounts:
    """The paired 2 x 2 table of outcomes ``a`` and ``b`` (0/1 per item, same items).

    Parameters
    ----------
    a, b : array_like of bool or 0/1 numbers, shape (n,)
        Each item's outcome under system a and system b (at least one item).

    Returns
    -------
    PairedCounts

    Raises
    ------
    ValueError
        For a value other than 0 and 1 (NaN included), unequal lengths or no item.

    Examples
    --------
    >>> t = paired_counts([1, 1, 0, 1, 0], [1, 0, 1, 1, 1])
    >>> t.both, t.only_a, t.only_b, t.neither, t.difference
    (2, 1, 2, 0, 0.2)
    """
    a, b = _outcomes(a, b)
    both = int(np.count_nonzero(a & b))
    only_a = int(np.count_nonzero(a & ~b))
    only_b = int(np.count_nonzero(~a & b))
    return PairedCounts(n_items=int(a.size), both=both, only_a=only_a, only_b=only_b,
                        neither=int(a.size) - both - only_a - only_b)  # fmt: skip


# --------------------------------------------------------------------------- the tests
@dataclass(frozen=True, kw_only=True)
class McNemarTest:
    """One McNemar test (:func:`mcnemar_test`, :func:`clustered_test`).

    Attributes
    ----------
    statistic : float
        ``only_b`` for the exact and mid-p tests (the binomial count whose tails are taken);
        the chi-square for the asymptotic and clustered tests.
    z : float
        The signed score, positive when b's rate is the higher: ``(only_b - only_a) /
        sqrt(N)`` (asymptotic; continuity-corrected toward 0 with ``correction``), ``sum D_k
        / sqrt(sum D_k^2)`` (clustered), NaN for the exact and mid-p tests.
    pvalue : float
        The p-value of ``alternative`` (about b - a).
    method : str
        ``"exact"``, ``"mid-p"``, ``"asymptotic"`` or ``"clustered"``.
    """

    statistic: float
    z: float
    pvalue: float
    method: str


def mcnemar_test(
    only_a: int,
    only_b: int,
    *,
    method: str = "exact",
    alternative: str = "two-sided",
    correction: bool = False,
) -> McNemarTest:
    """McNemar's test of equal rates from the discordant counts.

    Parameters
    ----------
    only_a, only_b : int
        Items only a gets right, only b gets right (non-negative).
    method : {"exact", "mid-p", "asymptotic"}, default "exact"
        The binomial test of ``only_b`` given ``only_a + only_b``; its mid-p version; or
        McNemar's chi-square (see the module's notes).
    alternative : {"two-sided", "less", "greater"}, default "two-sided"
        About b - a: ``"greater"`` when b's rate is the higher.
    correction : bool, default False
        Edwards' continuity correction of the asymptotic test (refused with the others).

    Returns
    -------
    McNemarTest

    Examples
    --------
    >>> t = mcnemar_test(1, 9)  # 10 discordant items, 9 of them won by b
    >>> t.statistic, round(t.pvalue, 6)
    (9.0, 0.021484)
    >>> round(mcnemar_test(1, 9, method="mid-p").pvalue, 6)
    0.011719
    >>> t = mcnemar_test(1, 9, method="asymptotic")
    >>> t.statistic, round(t.pvalue, 6)
    (6.4, 0.011412)
    """
    method = checks.choice(method, "method", METHODS)
    alternative = checks.choice(alternative, "alternative", ALTERNATIVES)
    x, y = whole_count(only_b, "only_b"), whole_count(only_a, "only_a")
    if correction and method != "asymptotic":
        raise ValueError(
            f"`correction` applies to the asymptotic test only; got method={method!r}."
        )
    statistic, z, p = mcnemar_pvalues(y, x, method=method, alternative=alternative,
                                      correction=correction)  # fmt: skip
    return McNemarTest(statistic=float(statistic), z=float(z), pvalue=float(p), method=method)


# --------------------------------------------------------------------------- Tango
# --------------------------------------------------------------------------- clusters
@dataclass(frozen=True, kw_only=True)
class ClusteredTest(McNemarTest):
    """The clustered McNemar test (:func:`clustered_test`), with what its interval needs.

    Attributes
    ----------
    n_clusters : int
        Clusters among the items.
    design_effect : float
        The Rao-Scott design effect of the difference (:func:`cluster_design_effect`).
    """

    n_clusters: int
    design_effect: float


def _with_clusters(a, b, cluster) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``a`` and ``b`` checked (:func:`_binary`) and ``cluster``, one label per item."""
    a, b = _binary(a, "a"), _binary(b, "b")
    cluster = np.asarray(cluster)
    if cluster.shape != a.shape or a.shape != b.shape:
        raise ValueError(
            f"`a`, `b` and `cluster` must have one value per item; got {a.size}, {b.size} "
            f"and {cluster.size}."
        )
    return a, b, cluster


def _clusters(a, b, cluster) -> tuple[float, float, float, int]:
    """The clustered numbers of one comparison: ``sum_k D_k``, ``sum_k D_k^2``, the design
    effect and the number of clusters (:func:`pairedstats.core.mcnemar_pairs.clustered_sums`)."""
    a, b, cluster = _with_clusters(a, b, cluster)
    x = np.column_stack([a, b]).astype(np.float64)
    only = np.count_nonzero(a & ~b), np.count_nonzero(~a & b)
    only_a, only_b = (np.array([v], dtype=np.int64) for v in only)
    s_dd, effect, n_clusters = clustered_sums(x, cluster, np.array([0]), np.array([1]), only_a,
                                          only_b)  # fmt: skip
    return float(only[1] - only[0]), float(s_dd[0]), float(effect[0]), n_clusters


def cluster_design_effect(a, b, cluster) -> float:
    """The Rao-Scott design effect of the difference ``rate_b - rate_a`` over clusters.

    ``V_c / V_m`` with ``V_c = sum_k (D_k - m_k delta_hat)^2`` (the cluster-robust variance
    of the total difference) and ``V_m = sum_i (d_i - delta_hat)^2`` (its variance for
    independent items), at least 1, and 1 when ``V_m = 0`` (no discordant item, or all
    one way). Computed in integers (``n^2`` times each), so clusters of one item give
    exactly 1.

    Parameters
    ----------
    a, b : array_like of 0/1, shape (n,)
    cluster : array_like, shape (n,)
        Each item's cluster label.

    Returns
    -------
    float

    Examples
    --------
    >>> a = [1, 1, 1, 0, 0, 0, 1, 1]
    >>> b = [0, 0, 0, 1, 1, 1, 1, 1]
    >>> cluster_design_effect(a, b, [0, 0, 0, 1, 1, 1, 2, 2])  # discordance in blocks
    3.0
    >>> cluster_design_effect(a, b, range(8))
    1.0
    """
    return _clusters(a, b, cluster)[2]


def clustered_test(a, b, cluster, *, alternative: str = "two-sided") -> ClusteredTest:
    """The clustered McNemar test of Durkalski et al. (2003).

    ``X^2 = (sum_k D_k)^2 / sum_k D_k^2`` on one degree of freedom, ``D_k`` the sum of
    ``b - a`` over cluster ``k`` (one-sided: ``z = sum_k D_k / sqrt(sum_k D_k^2)``). With
    clusters of one item it is McNemar's uncorrected chi-square (:func:`mcnemar_test`,
    ``method="asymptotic"``), to the bit.

    Parameters
    ----------
    a, b : array_like of 0/1, shape (n,)
    cluster : array_like, shape (n,)
        Each item's cluster label.
    alternative : {"two-sided", "less", "greater"}, default "two-sided"

    Returns
    -------
    ClusteredTest

    Examples
    --------
    >>> a = [1, 1, 1, 0, 0, 0, 1, 0]
    >>> b = [0, 1, 1, 1, 1, 1, 1, 1]
    >>> t = clustered_test(a, b, [0, 0, 0, 1, 1, 1, 2, 2])
    >>> round(t.statistic, 4), round(t.pvalue, 4), t.n_clusters  # 3^2 / (1 + 9 + 1)
    (0.8182, 0.3657, 3)
    >>> plain = mcnemar_test(1, 4, method="asymptotic")
    >>> clustered_test(a, b, range(8)).statistic == plain.statistic
    True
    """
    alternative = checks.choice(alternative, "alternative", ALTERNATIVES)
    total, s_dd, effect, n_clusters = _clusters(a, b, cluster)
    chi2, z, p = (float(v) for v in normal(np.array(total), np.array(s_dd), alternative))
    return ClusteredTest(statistic=chi2, z=z, pvalue=p, method="clustered",
                         n_clusters=n_clusters, design_effect=effect)  # fmt: skip


# --------------------------------------------------------------------------- one comparison
@dataclass(frozen=True, kw_only=True)
class McNemar:
    """Everything the method reports for one comparison (:func:`mcnemar_1d`).

    Attributes
    ----------
    n_items, only_a, only_b : int
    rate_a, rate_b, difference : float
        The rates of 1s and ``rate_b - rate_a``.
    ci_low, ci_high : float
        Tango's score interval of ``difference`` (with ``cluster``, Rao-Scott adjusted).
    statistic, z, pvalue : float
        The test's (:class:`McNemarTest`).
    method : str
        The test: ``"exact"``, ``"mid-p"``, ``"asymptotic"`` or ``"clustered"``.
    n_clusters : int or None
    design_effect : float or None
        With ``cluster``.
    p_above, p_below : float or None
        With ``margin``, Tango's one-sided p-values of ``H0: b - a <= -margin`` and ``H0: b
        - a >= margin`` (:func:`pairedstats.core.tango.tango_margin_pvalues`).
    """

    n_items: int
    only_a: int
    only_b: int
    rate_a: float
    rate_b: float
    difference: float
    ci_low: float
    ci_high: float
    statistic: float
    z: float
    pvalue: float
    method: str
    n_clusters: int | None = None
    design_effect: float | None = None
    p_above: float | None = None
    p_below: float | None = None


def mcnemar_1d(a, b, *, method: str = "exact", alternative: str = "two-sided",
               confidence_level: float = 0.95, cluster=None,
               margin: float | None = None) -> McNemar:  # fmt: skip
    """McNemar's test and Tango's interval of one comparison, b - a.

    Parameters
    ----------
    a, b : array_like of 0/1, shape (n,)
        The outcomes of the two systems on the same items.
    method : {"exact", "mid-p", "asymptotic"}, default "exact"
        The unclustered test (:func:`mcnemar_test`); with ``cluster`` only
        ``"asymptotic"``, which is then the clustered test (:func:`clustered_test`).
    alternative : {"two-sided", "less", "greater"}, default "two-sided"
    confidence_level : float, default 0.95
    cluster : array_like, shape (n,), optional
        Each item's cluster label.
    margin : float, optional
        A margin in ``(0, 1)``: adds Tango's one-sided tests at ``-margin`` and ``margin``
        (``p_above``, ``p_below``).

    Returns
    -------
    McNemar

    Examples
    --------
    >>> r = mcnemar_1d([1, 1, 1, 0, 1, 0], [1, 1, 1, 1, 1, 1])
    >>> r.only_a, r.only_b, r.difference, r.pvalue
    (0, 2, 0.3333333333333333, 0.5)
    >>> round(r.ci_low, 4), round(r.ci_high, 4)
    (-0.1871, 0.7)
    """
    a, b = _outcomes(a, b)
    if cluster is not None:
        if method != "asymptotic":
            raise ValueError(
                "`method`: the clustered McNemar test is asymptotic (the exact and mid-p "
                f"tests assume independent items); pass method='asymptotic'; got {method!r}."
            )
        cluster = _with_clusters(a, b, cluster)[2]
    x = np.column_stack([a, b]).astype(np.float64)
    r = mcnemar_pairs(x, [(0, 1)], method=method, alternative=alternative,
                      confidence_level=confidence_level, cluster=cluster,
                      checked=True, margin=margin)  # fmt: skip
    one = {k: v if np.ndim(v) == 0 else v[0].item() for k, v in vars(r).items()}
    return McNemar(**one)
