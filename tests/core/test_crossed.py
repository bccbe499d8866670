"""The crossed (pigeonhole) bootstrap of items and replicates, against exact enumeration.

References, worked out separately from :mod:`pairedstats.core.crossed`:

* the exact bootstrap distribution of a tiny design, by enumerating every equally likely
  resample (all ``n**n`` item draws times all ``R**R`` replicate draws) and indexing the
  drawn cells directly;
* the exact bootstrap variance from the moments of the multinomial counts: with item
  weights ``c / n`` and replicate weights ``w / R``, independent, ``Var(c' X w / (n R))``
  is ``s2_rows / n + s2_cols / R + s2_inter / (n R)``, the plug-in variances (divisors
  ``n``, ``R`` and ``n R``) of the row means, the column means and the doubly centred
  cells (the balanced case of Owen 2007); for unpaired replicates (one item draw, two
  independent replicate draws) ``V_b + V_a - 2 cov(rows_a, rows_b) / n``;
* the draws: the items' from :func:`pairedstats.core.draws.resample_indices` on the
  stream of the ordinary paired bootstrap, the replicates' on the stream
  :func:`~pairedstats.core.crossed.replicate_stream`, applied by plain indexing.
"""

import itertools

import numpy as np
import pytest

from pairedstats.core.bootstrap import mean_replicates_many
from pairedstats.core.crossed import crossed_replicates, replicate_stream, unit_counts
from pairedstats.core.draws import resample_indices
from pairedstats.core.groups import LABEL

X3 = np.array([[0.1, 0.7], [0.4, 1.5], [-0.3, 0.2]])  # 3 items x 2 replicates (b - a)


def _enumerate_paired(d: np.ndarray) -> np.ndarray:
    """Every resample's mean over its drawn cells, each resample equally likely."""
    n, r = d.shape
    out = []
    for items in itertools.product(range(n), repeat=n):
        for reps in itertools.product(range(r), repeat=r):
            out.append(d[np.ix_(items, reps)].mean())
    return np.array(out)


def _plugin_variance(x: np.ndarray) -> float:
    rows, cols, m = x.mean(axis=1), x.mean(axis=0), x.mean()
    inter = x - rows[:, None] - cols[None, :] + m
    n, r = x.shape
    return rows.var() / n + cols.var() / r + (inter**2).mean() / (n * r)


def test_exact_variance_formula_equals_enumeration():
    exact = _enumerate_paired(X3)
    assert exact.size == 27 * 4
    assert exact.mean() == pytest.approx(X3.mean(), rel=1e-13)
    assert exact.var() == pytest.approx(_plugin_variance(X3), rel=1e-12)


def test_replicates_match_the_exact_distribution_within_monte_carlo_error():
    exact = _enumerate_paired(X3)
    B = 40_000
    reps = crossed_replicates(
        [np.zeros_like(X3), X3], [(1, 2), (1, 2)], [(0, 1)], group_key=(), root=2024,
        n_resamples=B,
    ).replicates[0]  # fmt: skip
    sd = exact.std()
    assert abs(reps.mean() - exact.mean()) < 4 * sd / np.sqrt(B)
    # the variance of B draws: s.e. about var * sqrt((kurtosis - 1) / B)
    kurt = ((exact - exact.mean()) ** 4).mean() / exact.var() ** 2
    assert abs(reps.var() - exact.var()) < 4 * exact.var() * np.sqrt((kurt - 1) / B)
    # the distribution function between atoms (an atom's float rounding may differ)
    support = np.unique(np.round(exact, 12))
    for q in np.quantile(exact, [0.05, 0.25, 0.5, 0.75, 0.95]):
        j = np.searchsorted(support, q + 1e-12)
        q = (support[j - 1] + support[j]) / 2
        p = (exact <= q).mean()
        assert abs((reps <= q).mean() - p) < 4 * np.sqrt(p * (1 - p) / B)


def test_unpaired_variance_formula_and_enumeration():
    xa = np.array([[0.2, 0.5], [0.1, -0.4], [0.9, 0.3]])
    xb = np.array([[1.0, 0.2, 0.4], [0.3, 0.3, 1.1], [0.5, -0.2, 0.0]])
    values = []
    for items in itertools.product(range(3), repeat=3):
        for ra in itertools.product(range(2), repeat=2):
            for rb in itertools.product(range(3), repeat=3):
                values.append(xb[np.ix_(items, rb)].mean() - xa[np.ix_(items, ra)].mean())
    values = np.array(values)
    cov = np.cov(xa.mean(axis=1), xb.mean(axis=1), ddof=0)[0, 1]
    formula = _plugin_variance(xa) + _plugin_variance(xb) - 2 * cov / 3
    assert values.var() == pytest.approx(formula, rel=1e-12)
    B = 40_000
    reps = crossed_replicates(
        [xa, xb], [("s1", "s2"), ("t1", "t2", "t3")], [(0, 1)], group_key="g", root=5,
        n_resamples=B,
    ).replicates[0]  # fmt: skip
    assert abs(reps.mean() - values.mean()) < 4 * values.std() / np.sqrt(B)
    assert reps.var() == pytest.approx(values.var(), rel=0.03)


def test_draws_are_the_items_stream_and_the_replicates_stream():
    gen = np.random.default_rng(3)
    xa, xb = gen.normal(size=(7, 4)), gen.normal(size=(7, 4))
    labels = ("s0", "s1", "s2", "s3")
    B = 700  # three blocks, the last one short
    out = crossed_replicates([xa, xb], [labels, labels], [(0, 1)], group_key=("k",), root=9,
                             n_resamples=B)  # fmt: skip
    items = resample_indices(9, (LABEL, ("k",)), 7, B)
    reps = resample_indices(9, replicate_stream(("k",), labels), 4, B)
    d = xb - xa
    direct = np.array([d[np.ix_(items[b], reps[b])].mean() for b in range(B)])
    np.testing.assert_allclose(out.replicates[0], direct, rtol=0, atol=1e-14)
    assert out.estimate[0] == pytest.approx(d.mean(), abs=1e-15)


def test_unpaired_systems_draw_their_own_replicates():
    gen = np.random.default_rng(4)
    xa, xb = gen.normal(size=(6, 3)), gen.normal(size=(6, 2))
    la, lb = (1, 2, 3), (4, 5)
    B = 300
    out = crossed_replicates([xa, xb], [la, lb], [(0, 1)], group_key=(), root=1, n_resamples=B)
    items = resample_indices(1, (LABEL, ()), 6, B)
    ra = resample_indices(1, replicate_stream((), la), 3, B)
    rb = resample_indices(1, replicate_stream((), lb), 2, B)
    direct = [xb[np.ix_(items[b], rb[b])].mean() - xa[np.ix_(items[b], ra[b])].mean()
              for b in range(B)]  # fmt: skip
    np.testing.assert_allclose(out.replicates[0], direct, rtol=0, atol=1e-14)


def test_one_replicate_gives_the_ordinary_paired_bootstrap():
    gen = np.random.default_rng(5)
    x = gen.normal(size=(25, 2))
    B = 2000
    crossed = crossed_replicates([x[:, :1], x[:, 1:]], [("only",)] * 2, [(0, 1)],
                                 group_key=("g",), root=17, n_resamples=B)  # fmt: skip
    plain = mean_replicates_many([x[:, 1:] - x[:, :1]], [("g",)], root=17, n_resamples=B)
    # the same draws; the sums are added in another order (the last bits may differ)
    np.testing.assert_allclose(crossed.replicates, plain[0], rtol=0, atol=1e-14)


def test_comparisons_are_jointly_resampled():
    gen = np.random.default_rng(6)
    x = [gen.normal(size=(9, 3)) for _ in range(3)]
    out = crossed_replicates(x, [("a", "b", "c")] * 3, [(0, 1), (1, 2), (0, 2)],
                             group_key=(), root=3, n_resamples=500).replicates  # fmt: skip
    np.testing.assert_allclose(out[0] + out[1], out[2], rtol=0, atol=1e-13)


def test_constant_differences_give_a_point():
    x = np.arange(12.0).reshape(4, 3)
    out = crossed_replicates([x, x + 0.25], [(1, 2, 3)] * 2, [(0, 1)], group_key=(), root=1,
                             n_resamples=300)  # fmt: skip
    assert (out.replicates == 0.25).all()
    assert out.estimate[0] == 0.25


def test_unit_counts():
    idx = np.array([[0, 0, 2, 1], [3, 3, 3, 3]])
    assert unit_counts(idx, 4).tolist() == [[2, 1, 1, 0], [0, 0, 0, 4]]
