"""Replicates of comparisons derived from each system's resampled sums, against references.

References, written out here independently of :mod:`pairedstats.core.derived`:

* each comparison's replicates from its own per-item differences ``d = b - a``: unit sums
  of ``d`` added item by item, summed over the reference engine's resample indices
  (:mod:`tests.core.reference_engine`, the stream of the group or of each stratum), divided
  by the drawn size and weighted over the strata;
* the general statistic's road (a vectorized mean) and, for the crossed design, each pair
  computed alone;
* max-t written from the definition in :func:`pairedstats.core.adjust.max_t`'s docstring
  (one pass over every replicate at once);
* the same numbers with :data:`pairedstats.core.adjust.BLOCK_CELLS` so small that the
  replicates are read one or two comparisons at a time.
"""

import dataclasses
import itertools

import numpy as np
import pandas as pd
import pytest

from pairedstats.core import adjust, summary
from pairedstats.core import bootstrap as cb
from pairedstats.core.crossed import crossed_replicates
from pairedstats.core.derived import DerivedReplicates

from . import reference_engine as engine

ROOT = 20240611
B = 300
KEY = ("g", 7)


# --------------------------------------------------------------------------- data
def _scores(kind: str, n: int, p: int, seed: int) -> np.ndarray:
    """Scores (n, p): systems with different means, columns in no order of anything."""
    gen = np.random.default_rng(seed)
    shift = gen.permutation(p) * 0.1
    if kind == "normal":
        return gen.normal(size=(n, p)) + shift + 3.0
    if kind == "grid":  # decimal grid: hundredths, not exact in binary
        return np.round(gen.uniform(0.0, 1.0, size=(n, p)) + shift, 2)
    if kind == "integer":
        return gen.integers(-20, 21, size=(n, p)).astype(np.float64) + 1000.0
    raise AssertionError(kind)


#: all pairs of 6 systems taken in an order that is not that of the columns, with some
#: comparisons reversed
ORDER = [3, 0, 5, 1, 4, 2]
ALL_PAIRS = [(b, a) if (a + b) % 3 == 0 else (a, b) for a, b in itertools.combinations(ORDER, 2)]
#: against a baseline: every comparison shares its ``a``
BASELINE = [(4, s) for s in (2, 0, 5, 3, 1)]


def _design(design: str, n: int, seed: int, weights=None) -> dict:
    """GroupData keywords: clusters and strata whose codes are in no order of appearance."""
    gen = np.random.default_rng(seed)
    kw: dict = {}
    n_clusters = n // 3
    cluster_of_item = gen.integers(0, n_clusters, size=n)
    cluster_of_item[:n_clusters] = gen.permutation(n_clusters)  # every cluster used
    cluster_codes = gen.permutation(1000)[:n_clusters] + 7  # codes unrelated to the order
    stratum_of_cluster = gen.integers(0, 3, size=n_clusters)
    stratum_of_cluster[:3] = [2, 0, 1]  # every stratum used; first appearance 2, 0, 1 ...
    if "clusters" in design:
        kw["cluster"] = cluster_codes[cluster_of_item]
    if "strata" in design:
        if "clusters" in design:
            kw["strata"] = stratum_of_cluster[cluster_of_item]
        else:
            codes = gen.integers(0, 3, size=n)
            codes[:3] = [1, 2, 0]
            kw["strata"] = codes
        kw["strata_labels"] = ["low", ("mid", 2), 9]
        if weights is not None:
            kw["weights"] = weights
    return kw


def _group(x: np.ndarray, pairs, **kw) -> cb.GroupData:
    return cb.GroupData(np.asarray(x, dtype=np.float64)[:, :, None], list(pairs), **kw)


def _derived(x, pairs, **kw) -> tuple[cb.GroupData, np.ndarray]:
    group = _group(x, pairs, **kw)
    out = cb.group_replicates(group, group_key=KEY, root=ROOT, n_resamples=B)
    assert isinstance(out.replicates, DerivedReplicates)
    return group, np.asarray(out.replicates)


# ---------------------------------------------------------------------- reference
def _strata(kw: dict, n: int):
    """Per stratum in order of first appearance: (stream label, weight, item mask)."""
    if "strata" not in kw:
        return [(None, 1.0, np.ones(n, dtype=bool))]
    codes = np.asarray(kw["strata"])
    firsts = list(dict.fromkeys(codes.tolist()))
    counts = np.array([np.sum(codes == c) for c in firsts], dtype=np.float64)
    if "weights" in kw:
        w = np.array([float(kw["weights"][c]) for c in firsts])
        w = w / w.sum()
    else:
        w = counts / float(n)
    return [(kw["strata_labels"][c], w[h], codes == c) for h, c in enumerate(firsts)]


def _reference(x: np.ndarray, pairs, group: cb.GroupData, kw: dict, pooled=False) -> np.ndarray:
    """Each comparison's replicates from its own differences, comparison by comparison:
    ``sum_h w_h S_h / M_h`` over the strata (``pooled``: ``sum_h S_h / sum_h M_h``, the
    mean of the drawn items)."""
    n = x.shape[0]
    strata = _strata(kw, n)
    np.testing.assert_array_equal(group.weights, [w for _, w, _ in strata])
    unit = group.unit_of_item
    out = np.zeros((len(pairs), B))
    total, drawn = np.zeros((len(pairs), B)), np.zeros(B)
    for label, w, mask in strata:
        units = np.unique(unit[mask])  # the stratum's units: a contiguous run, in order
        np.testing.assert_array_equal(units, np.arange(units[0], units[0] + units.size))
        labels = ("bootstrap", KEY) if label is None else ("bootstrap", KEY, label)
        idx = engine.resample_indices(ROOT, labels, units.size, B)
        size = engine.draw_order_sums(group.unit_sizes[units, None], idx)[:, 0]
        for c, (a, b) in enumerate(pairs):
            d = x[:, b] - x[:, a]
            sums = np.zeros(group.n_units)
            for i in range(n):  # item by item
                sums[unit[i]] += d[i]
            s = engine.draw_order_sums(sums[units, None], idx)[:, 0]
            out[c] = out[c] + w * (s / size)
            total[c] += s
        drawn += size
    return total / drawn if pooled else out


def _tol(x) -> float:
    return 1e-12 * float(np.abs(x).max())


# --------------------------------------------------------------- 1. every path
DESIGNS = ["items", "clusters", "strata", "clusters-strata"]


WEIGHTS = {0: 0.5, 1: 0.2, 2: 0.3}


@pytest.mark.parametrize(
    ("design", "weights"),
    [(d, None) for d in DESIGNS] + [("strata", WEIGHTS), ("clusters-strata", WEIGHTS)],
)
@pytest.mark.parametrize("kind", ["normal", "grid"])
def test_all_pairs_equal_the_per_comparison_replicates(design, kind, weights):
    n = 45
    x = _scores(kind, n, 6, seed=len(design) + 10 * len(kind))
    kw = _design(design, n, seed=3, weights=weights)
    group, got = _derived(x, ALL_PAIRS, **kw)
    want = _reference(x, ALL_PAIRS, group, kw)
    np.testing.assert_allclose(got, want, rtol=0, atol=_tol(x))
    # and equal, to rounding, to each comparison computed alone (two systems)
    for c, (a, b) in enumerate(ALL_PAIRS):
        _, alone = _derived(x[:, [a, b]], [(0, 1)], **kw)
        np.testing.assert_allclose(got[c], alone[0], rtol=0, atol=_tol(x))


@pytest.mark.parametrize("design", DESIGNS)
def test_a_vectorized_mean_as_statistic_equals_the_derived_mean(design):
    # the statistic's road pools a resample's items: the mean over the drawn clusters'
    # items is the ratio of sums, over strata the items' shares weight the strata; with
    # clusters in strata the drawn strata's sizes vary, and the pooled mean (the
    # statistic of the drawn items) is not the weighted ratio estimator of the mean's road
    n = 36
    x = _scores("normal", n, 6, seed=5)
    kw = _design(design, n, seed=8)
    group = _group(x, ALL_PAIRS, **kw)

    def mean(*columns, axis=-1):
        return columns[0].mean(axis=axis)

    derived = cb.group_replicates(group, group_key=KEY, root=ROOT, n_resamples=B)
    general = cb.group_replicates(group, group_key=KEY, root=ROOT, n_resamples=B,
                                  statistic=mean)  # fmt: skip
    if design == "clusters-strata":
        pooled = _reference(x, ALL_PAIRS, group, kw, pooled=True)
        np.testing.assert_allclose(np.asarray(general.replicates), pooled, rtol=0,
                                   atol=_tol(x))  # fmt: skip
        assert np.abs(pooled - np.asarray(derived.replicates)).max() > 1e-3
        return
    np.testing.assert_allclose(np.asarray(general.replicates), np.asarray(derived.replicates),
                               rtol=0, atol=_tol(x))  # fmt: skip
    np.testing.assert_allclose(general.estimate, derived.estimate, rtol=0, atol=_tol(x))


@pytest.mark.parametrize("paired", [True, False])
def test_crossed_all_pairs_of_four_equal_each_pair_alone(paired):
    gen = np.random.default_rng(21)
    n, r = 12, 4
    cells = [gen.normal(size=(n, r)) + 3.0 + 0.2 * s for s in range(4)]
    shared = ("s1", "s2", "s3", "s4")
    labels = [shared] * 4 if paired else [shared, shared, ("t1", "t2", "t3", "t4"), shared]
    pairs = [(2, 0), (0, 1), (3, 0), (1, 2), (3, 1), (2, 3)]
    together = crossed_replicates(cells, labels, pairs, group_key=KEY, root=ROOT,
                                  n_resamples=B)  # fmt: skip
    reps = np.asarray(together.replicates)
    for c, (a, b) in enumerate(pairs):
        alone = crossed_replicates([cells[a], cells[b]], [labels[a], labels[b]], [(0, 1)],
                                   group_key=KEY, root=ROOT, n_resamples=B)  # fmt: skip
        np.testing.assert_allclose(reps[c], np.asarray(alone.replicates)[0], rtol=0,
                                   atol=1e-12 * 4.0)  # fmt: skip
        np.testing.assert_allclose(together.estimate[c], alone.estimate[0], rtol=0,
                                   atol=1e-12 * 4.0)  # fmt: skip


# ------------------------------------------------------------- 2. exact where promised
@pytest.mark.parametrize("design", DESIGNS)
@pytest.mark.parametrize(
    ("kind", "pairs"),
    [("integer", ALL_PAIRS), ("normal", BASELINE), ("grid", BASELINE)],
)
def test_integer_scores_and_a_baseline_give_the_same_bits(design, kind, pairs):
    n = 45
    x = _scores(kind, n, 6, seed=17)
    kw = _design(design, n, seed=4, weights={0: 1.0, 1: 3.0, 2: 2.5})
    group, got = _derived(x, pairs, **kw)
    if pairs is BASELINE:
        assert group.reference == 4
    np.testing.assert_array_equal(got, _reference(x, pairs, group, kw))


# ------------------------------------------------------------- 3. blocks change nothing
METHODS = ["percentile", "basic", "bca", "studentized"]
ADJUSTS = [None, "holm", "bonferroni", "max-t"]
ALTERNATIVES = ["two-sided", "less", "greater"]


@pytest.fixture(scope="module")
def one_group():
    """A group's Replicates (15 comparisons, 6 systems) with BCa's and the t's numbers."""
    x = _scores("grid", 40, 6, seed=2)
    group = _group(x, ALL_PAIRS)
    out = cb.group_replicates(group, group_key=KEY, root=ROOT, n_resamples=200,
                              influence=True, studentized=True)  # fmt: skip
    assert isinstance(out.replicates, DerivedReplicates)
    return out


def _summaries(rule, reps, out, monkeypatch, cells):
    kw = {"acceleration": out.acceleration, "tie": out.tie_error,
          "se": (out.replicate_se, out.estimate_se)}  # fmt: skip
    default = summary.summarize(rule, reps, out.estimate, **kw)
    k, n_resamples = reps.shape[-2:]
    lead = int(np.prod(reps.shape[:-2]))
    with monkeypatch.context() as m:
        m.setattr(adjust, "BLOCK_CELLS", cells)
        blocks = adjust.comparison_blocks(k, n_resamples, lead)
        assert max(b.stop - b.start for b in blocks) == max(1, cells // (n_resamples * lead))
        assert len(blocks) > k // 3
        blocked = summary.summarize(rule, reps, out.estimate, **kw)
    return default, blocked


def _same_summary(got: summary.Summary, want: summary.Summary):
    for item in dataclasses.fields(want):
        mine, theirs = getattr(got, item.name), getattr(want, item.name)
        assert (mine is None) == (theirs is None), item.name
        if theirs is not None:
            np.testing.assert_array_equal(mine, theirs, err_msg=item.name)


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("adjust_", ADJUSTS)
def test_summaries_do_not_depend_on_the_blocks(one_group, method, adjust_, monkeypatch):
    derived = one_group.replicates
    dense = np.asarray(derived)
    for alternative in ALTERNATIVES:
        rule = summary.Rule(method, alternative, 0.9, adjust_)
        first = None
        for reps in (derived, dense):
            for cells in (7, 2 * 200 + 1):  # one comparison a block, two
                default, blocked = _summaries(rule, reps, one_group, monkeypatch, cells)
                _same_summary(blocked, default)
                first = default if first is None else first
                _same_summary(default, first)  # made when read or given: the same numbers


@pytest.mark.parametrize("method", METHODS)
def test_summaries_of_a_batch_of_groups_do_not_depend_on_the_blocks(method, monkeypatch):
    # a leading axis of groups: DerivedReplicates (G, k, B), rows indexed per group
    gen = np.random.default_rng(12)
    scores = {g: gen.normal(size=(30 + 5 * g, 5)) + g for g in range(3)}
    pairs = list(itertools.combinations([4, 1, 3, 0, 2], 2))
    keys = {g: ("b", g) for g in scores}
    [(_, out)] = cb.mean_replicates_batches(
        scores, keys, pairs, root=ROOT, n_resamples=200, studentized=True
    )
    assert isinstance(out.replicates, DerivedReplicates)
    assert out.replicates.shape == (3, len(pairs), 200)
    acc = np.zeros(out.estimate.shape) if method == "bca" else None
    out = out.__class__(**{**out.__dict__, "acceleration": acc})
    for adjust_ in ADJUSTS:
        rule = summary.Rule(method, "two-sided", 0.95, adjust_)
        default, blocked = _summaries(rule, out.replicates, out, monkeypatch, 7)
        _same_summary(blocked, default)
        dense, _ = _summaries(rule, np.asarray(out.replicates), out, monkeypatch, 7)
        _same_summary(dense, default)


# max-t against its definition
def _max_t_reference(reps, est, se, level, alternative):
    """One family: single-step critical value, step-down p-values, from the docstring."""

    def signed(v):
        return {"two-sided": np.abs, "greater": lambda u: u, "less": np.negative}[alternative](v)

    k = est.size
    member = np.isfinite(est) & np.isfinite(se)
    spread = [j for j in range(k) if member[j] and se[j] > 0]
    z = {j: signed((reps[j] - est[j]) / se[j]) for j in spread}
    low, high, p = np.full(k, np.nan), np.full(k, np.nan), np.full(k, np.nan)
    crit = np.nan
    if spread:
        top = np.max([z[j] for j in spread], axis=0)
        crit = np.quantile(top, level)
    for j in range(k):
        if member[j]:
            half = crit * se[j] if se[j] > 0 else 0.0
            low[j], high[j] = est[j] - half, est[j] + half
            if alternative == "greater":
                high[j] = np.inf
            elif alternative == "less":
                low[j] = -np.inf
            if se[j] == 0:
                p[j] = 0.0 if signed(est[j]) > 0 else 1.0
    t = {j: signed(est[j]) / se[j] for j in spread}
    order = sorted(spread, key=lambda j: -t[j])
    running = 0.0
    for i, j in enumerate(order):
        remaining = np.max([z[q] for q in order[i:]], axis=0)
        running = max(running, float(np.mean(remaining >= t[j])))
        p[j] = running
    return crit, low, high, p


def _family(seed: int, shape=(3, 9), n_resamples=250):
    """Joint replicates (..., k, B) with NaN estimates, zero and NaN standard errors and ties."""
    gen = np.random.default_rng(seed)
    common = gen.normal(size=(*shape[:-1], 1, n_resamples))
    reps = (
        0.6 * common
        + gen.normal(size=(*shape, n_resamples)) * gen.uniform(0.5, 2, shape)[..., None]
    )
    est = gen.normal(0.0, 1.5, size=shape)
    reps = reps + est[..., None]
    reps = np.round(reps, 1)  # ties among the deviations and with t
    se = reps.std(axis=-1, ddof=1)
    flat_est, flat_se, flat_reps = est.reshape(-1, shape[-1]), se.reshape(-1, shape[-1]), (
        reps.reshape(-1, *reps.shape[-2:]))  # fmt: skip
    flat_est[0, 1] = np.nan  # outside the family
    flat_se[0, 4] = np.nan
    flat_reps[0, 2] = 0.5  # a point on the side of "greater"
    flat_est[0, 2], flat_se[0, 2] = 0.5, 0.0
    flat_reps[-1, 3] = -0.25  # a point on the side of "less"
    flat_est[-1, 3], flat_se[-1, 3] = -0.25, 0.0
    flat_reps[-1, 5] = 0.0  # a point at 0
    flat_est[-1, 5], flat_se[-1, 5] = 0.0, 0.0
    if len(shape) > 1 and shape[0] > 2:  # a family with no comparison of positive se
        flat_reps[1] = flat_est[1][:, None]
        flat_se[1] = 0.0
    flat_est[-1, 0] = 4.0 * flat_se[-1, 0]  # t = 4 exactly
    return reps, est, se


@pytest.mark.parametrize("alternative", ALTERNATIVES)
@pytest.mark.parametrize("level", [0.95, 0.8])
def test_max_t_equals_its_definition_whatever_the_blocks(alternative, level, monkeypatch):
    reps, est, se = _family(seed=int(level * 100) + len(alternative))
    default = adjust.max_t(reps, est, se, level, alternative)
    for cells in (1, 7, 2 * reps.shape[-1] * 3 + 1):  # 1 and 2 comparisons of 3 groups
        with monkeypatch.context() as m:
            m.setattr(adjust, "BLOCK_CELLS", cells)
            blocked = adjust.max_t(reps, est, se, level, alternative)
        for got, want in zip(blocked, default, strict=True):
            np.testing.assert_array_equal(got, want)
    for g in range(est.shape[0]):
        crit, low, high, p = _max_t_reference(reps[g], est[g], se[g], level, alternative)
        np.testing.assert_array_equal(default.critical_value[g], crit)
        np.testing.assert_array_equal(default.low[g], low)
        np.testing.assert_array_equal(default.high[g], high)
        np.testing.assert_array_equal(default.pvalue_adjusted[g], p)


def test_max_t_of_one_family_without_a_leading_axis(monkeypatch):
    reps, est, se = _family(seed=40, shape=(11,), n_resamples=300)
    default = adjust.max_t(reps, est, se, 0.9, "two-sided")
    monkeypatch.setattr(adjust, "BLOCK_CELLS", 5)
    blocked = adjust.max_t(reps, est, se, 0.9, "two-sided")
    want = _max_t_reference(reps, est, se, 0.9, "two-sided")
    for got, dflt, ref in zip(blocked, default, want, strict=True):
        np.testing.assert_array_equal(got, dflt)
        np.testing.assert_array_equal(dflt, ref)


# ----------------------------------------------------------------- 4. end to end
@pytest.fixture(scope="module")
def wide():
    gen = np.random.default_rng(33)
    names = [f"sys-{v}" for v in gen.permutation(40) * 7 % 101]  # in no sorted order
    x = gen.normal(size=(300, 40)) + gen.uniform(0.0, 0.3, size=40)
    return pd.DataFrame(np.round(x, 3), columns=names)


@pytest.mark.parametrize("call", ["bootstrap", "rank"])
def test_frames_do_not_depend_on_the_blocks(wide, call, monkeypatch):
    def run():
        if call == "bootstrap":
            return wide.paired.bootstrap(adjust="max-t", n_resamples=250, rng=4)
        return wide.paired.rank(n_resamples=250, rng=4)

    default = run()
    monkeypatch.setattr(adjust, "BLOCK_CELLS", 7)
    blocked = run()
    pd.testing.assert_frame_equal(blocked, default, check_exact=True)
    if call == "bootstrap":
        assert len(default) == 40 * 39 // 2
        assert np.isfinite(default["pvalue_adjusted"]).all()
