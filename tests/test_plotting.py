"""Plots: rendered to PNG with Agg; the drawn data are the result's numbers."""

import sys

import numpy as np
import pytest

import pairedstats

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from tests.data import FOLD_ORDER, integer_folds, unsorted_runs  # noqa: E402

from pairedstats import plotting  # noqa: E402
from pairedstats.inputs import design_from_array  # noqa: E402
from pairedstats.methods.tukey_hsd import tukey_hsd_design  # noqa: E402
from pairedstats.plotting.probabilities import barycentric  # noqa: E402

RUNS = unsorted_runs()


@pytest.fixture(scope="module")
def boot():
    return RUNS.paired.bootstrap(
        item="query", system="run", score="ndcg", baseline="bm25", by="collection",
        n_resamples=1000, rng=4, as_result=True,
    )  # fmt: skip


@pytest.fixture(scope="module")
def hsd():
    return RUNS.paired.tukey_hsd(
        item="query", system="run", score="p10", by="collection", n_resamples=500, rng=4,
        as_result=True,
    )  # fmt: skip


@pytest.fixture(autouse=True)
def _close():
    yield
    plt.close("all")


def _png(ax, path):
    ax.figure.savefig(path, dpi=60)
    assert path.exists()
    assert path.stat().st_size > 3_000  # a drawn figure, not an empty canvas (~1.5 kB)
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def _by_gid(ax, gid):
    found = [a for a in [*ax.lines, *ax.collections] if a.get_gid() == gid]
    assert len(found) == 1, gid
    return found[0]


def test_forest_draws_each_interval_at_its_values(boot, tmp_path):
    ax = plotting.forest(boot)
    _png(ax, tmp_path / "forest.png")
    frame = boot.to_dataframe()
    segments = _by_gid(ax, "interval").get_segments()
    assert len(segments) == len(frame) == 6
    starts = [s[0][0] for s in segments]
    ends = [s[1][0] for s in segments]
    np.testing.assert_array_equal(starts, frame["ci_low"])
    np.testing.assert_array_equal(ends, frame["ci_high"])
    np.testing.assert_array_equal(_by_gid(ax, "estimate").get_xdata(), frame["difference"])
    np.testing.assert_array_equal(_by_gid(ax, "zero").get_xdata(), [0, 0])
    labels = [t.get_text() for t in ax.get_yticklabels()]
    # top row first: the first row of the table is drawn at the top
    assert labels[int(np.argmax([t.get_position()[1] for t in ax.get_yticklabels()]))] == (
        "robust04: hybrid - bm25"
    )
    assert boot.plot().get_xlabel() == "difference (b - a), 95% interval"


def test_forest_of_a_rank_sum_interval(tmp_path):
    res = pairedstats.datasets.load_ratings().paired.ranksum(
        score="deviation", group="changed", a="unchanged", b="changed", as_result=True
    )
    ax = res.plot()
    _png(ax, tmp_path / "rank.png")
    (segment,) = _by_gid(ax, "interval").get_segments()
    assert [segment[0][0], segment[1][0]] == [res.ci_low[0, 0], res.ci_high[0, 0]]
    np.testing.assert_array_equal(_by_gid(ax, "estimate").get_xdata(), res.shift[0])
    one_sided = pairedstats.datasets.load_ratings().paired.ranksum(
        score="deviation", group="changed", a="unchanged", b="changed", alternative="less",
        as_result=True,
    )  # fmt: skip
    assert np.isinf(one_sided.ci_low[0, 0])
    ax = one_sided.plot()
    (segment,) = _by_gid(ax, "interval").get_segments()
    assert segment[1][0] == one_sided.ci_high[0, 0]
    assert segment[0][0] < min(one_sided.shift[0, 0], one_sided.ci_high[0, 0])
    assert _by_gid(ax, "open_low").get_xdata()[0] == segment[0][0]


def test_pvalue_matrix_holds_the_pvalues(hsd, tmp_path):
    ax = plotting.pvalue_matrix(hsd, group=("msmarco",))
    _png(ax, tmp_path / "matrix.png")
    image = ax.images[0].get_array()
    systems = [t.get_text() for t in ax.get_yticklabels()]
    assert systems == ["hybrid", "bm25", "dense", "bm25+rm3"]  # the table's order
    frame = hsd.to_dataframe()
    frame = frame[frame["collection"] == "msmarco"]
    assert image.mask.diagonal().all()
    for row in frame.itertuples():
        i, j = systems.index(row.system_a), systems.index(row.system_b)
        assert image[i, j] == image[j, i] == row.pvalue
    assert ax.get_title() == "collection=msmarco"
    texts = [t.get_text() for t in ax.texts]
    assert len(texts) == 12
    same = plotting.pvalue_matrix(hsd, group=1).images[0].get_array()
    np.testing.assert_array_equal(same.filled(-1), image.filled(-1))


def test_pvalue_matrix_writes_a_monte_carlo_zero_as_its_bound():
    rng = np.random.default_rng(3)
    a = rng.normal(size=30)
    scores = np.column_stack(
        [a, a + 1.0 + rng.uniform(0.0, 0.5, 30), a + 0.01 * rng.normal(size=30)]
    )
    res = pairedstats.tukey_hsd(scores, method="monte-carlo", n_resamples=10_000, rng=1)
    assert res.pvalue[0, 0] == 0.0  # p = 2 / 2**30 by exact enumeration: no trial reaches it
    ax = plotting.pvalue_matrix(res)
    image = ax.images[0].get_array()
    assert image[0, 1] == image[1, 0] == 0.0  # the colours keep the number
    texts = {(t.get_position(), t.get_text()) for t in ax.texts}
    assert ((1, 0), "<0.0001") in texts
    assert ((0, 1), "<0.0001") in texts
    p02 = res.pvalue[0, 1]
    assert ((2, 0), f"{p02:.3g}") in texts
    assert all(t.get_fontweight() == "bold" for t in ax.texts if t.get_text() == "<0.0001")


def test_distribution_shows_the_resamples_and_the_interval(boot, tmp_path):
    ax = boot.plot("distribution", group="msmarco", comparison=("bm25", "dense"))
    _png(ax, tmp_path / "dist.png")
    g, c = 1, 1
    assert _by_gid(ax, "ci_low").get_xdata()[0] == boot.ci_low[g, c]
    assert _by_gid(ax, "ci_high").get_xdata()[0] == boot.ci_high[g, c]
    assert _by_gid(ax, "difference").get_xdata()[0] == boot.difference[g, c]
    heights = [p.get_height() for p in ax.patches]
    assert sum(heights) == 1000
    draws = boot.bootstrap_distribution[g][c]
    assert min(p.get_x() for p in ax.patches) == pytest.approx(draws.min())
    assert ax.get_xlabel() == "dense - bm25"


def test_every_plot_reads_an_integer_group_as_its_label():
    folds = integer_folds()
    keys = dict(item="item", system="system", score="score", by="fold", n_resamples=200, rng=3,
                as_result=True)  # fmt: skip
    assert tuple(folds["fold"].unique()) == FOLD_ORDER  # label 0 is at position 1
    hsd = folds.paired.tukey_hsd(**keys)
    boot = folds.paired.bootstrap(**keys, baseline="bm25")
    ranks = folds.paired.rank(**keys)
    g = 1  # the position of the group labelled 0
    ax = plotting.pvalue_matrix(hsd, group=0)
    assert ax.get_title() == "fold=0"
    image = ax.images[0].get_array()
    systems = [t.get_text() for t in ax.get_yticklabels()]
    for c, (a, b) in enumerate(zip(hsd.label_a, hsd.label_b)):
        i, j = systems.index(a), systems.index(b)
        assert image[i, j] == hsd.pvalue[g, c]
    ax = plotting.distribution(boot, group=0, comparison=("bm25", "dense"))
    c = list(zip(boot.label_a, boot.label_b)).index(("bm25", "dense"))
    assert _by_gid(ax, "difference").get_xdata()[0] == boot.difference[g, c]
    ax = plotting.rank_intervals(ranks, group=0)
    ticks = {round(y): t.get_text() for y, t in zip(ax.get_yticks(), ax.get_yticklabels())}
    drawn = {ticks[round(y)]: x for x, y in zip(*_by_gid(ax, "estimate").get_data())}
    assert drawn == dict(zip(ranks.systems, ranks.rank[g]))
    plt.close("all")
    # an integer that is no label is refused, whichever plot
    for plot, result in ((plotting.pvalue_matrix, hsd), (plotting.distribution, boot),
                         (plotting.rank_intervals, ranks)):  # fmt: skip
        refused = r"`group`: 5 is not a group label.*never as a position: give one of the"
        with pytest.raises(ValueError, match=refused):
            plot(result, group=5)
        with pytest.raises(ValueError, match=r"`group`: True is not a group label"):
            plot(result, group=True)


def test_errors(boot, hsd, monkeypatch):
    with pytest.raises(TypeError, match="a forest plot needs a result with an interval"):
        plotting.forest(hsd)
    with pytest.raises(ValueError, match=r"`group`: the result has 2 groups; choose one"):
        plotting.pvalue_matrix(hsd)
    with pytest.raises(ValueError, match=r"`group`: 'trec' is not a group"):
        plotting.distribution(boot, group="trec")
    with pytest.raises(ValueError, match="`group`: position 5 is out of range for 2 groups"):
        plotting.distribution(boot, group=5)
    with pytest.raises(ValueError, match=r"`comparison`: \('dense', 'bm25'\) is not one of"):
        plotting.distribution(boot, group=0, comparison=("dense", "bm25"))
    with pytest.raises(ValueError, match="`kind` must be 'auto', 'forest', 'pvalues', "):
        boot.plot("violin")
    monkeypatch.setitem(sys.modules, "matplotlib.pyplot", None)
    with pytest.raises(ImportError, match=r"needs matplotlib: python -m pip install 'pairedst"):
        plotting.forest(boot)


def test_distribution_without_replicates_says_why_and_how():
    scores = np.random.default_rng(2).integers(0, 2, size=(40, 3)).astype(float)
    counts = pairedstats.bootstrap(scores, resampling="counts", n_resamples=500, rng=1)
    assert counts.bootstrap_distribution is None
    assert len(counts.label_a) == 3
    with pytest.raises(ValueError, match=r"resampling='counts' and 3 comparisons.*"
                                         r"resampling='index'"):  # fmt: skip
        plotting.distribution(counts)
    index = pairedstats.bootstrap(scores, resampling="index", n_resamples=500, rng=1)
    assert index.bootstrap_distribution.shape == (1, 3, 500)
    assert plotting.distribution(index, comparison=2).get_xlabel() == "2 - 1"
    # a result that did not keep its replicates (what the accessors build for a table)
    design = design_from_array(scores)
    dropped = pairedstats.methods._shared.registry.SPECS["bootstrap"].compute(
        design, keep=False, n_resamples=200, rng=1
    )
    with pytest.raises(ValueError, match=r"did not keep the replicates.*as_result=True"):
        dropped.plot("distribution")


def test_pvalue_matrix_of_tuple_labels(tmp_path):
    systems = [("bm25", "v1"), ("dense", "v2"), ("dense", "v3")]
    scores = np.random.default_rng(5).normal(size=(24, 3)) + np.array([0.0, 0.5, 1.0])
    groups = [("g", i % 2) for i in range(24)]
    res = tukey_hsd_design(
        design_from_array(scores, systems=systems, groups=groups), n_resamples=400, rng=2
    )
    # a group label that is itself a tuple: given alone, or as the key tuple
    ax = plotting.pvalue_matrix(res, group=("g", 1))
    _png(ax, tmp_path / "tuples.png")
    assert [t.get_text() for t in ax.get_xticklabels()] == [str(s) for s in systems]
    image = ax.images[0].get_array()
    for c, (a, b) in enumerate(zip(res.label_a, res.label_b)):
        i, j = systems.index(a), systems.index(b)
        assert image[i, j] == image[j, i] == res.pvalue[1, c]
    same = plotting.pvalue_matrix(res, group=(("g", 1),)).images[0].get_array()
    np.testing.assert_array_equal(same.filled(-1), image.filled(-1))
    assert ax.get_title() == "group=('g', 1)"


def test_rank_intervals_draw_each_system_s_set_by_its_label(tmp_path):
    ranks = RUNS.paired.rank(item="query", system="run", score="ndcg", by="collection",
                             n_resamples=500, rng=4, as_result=True)  # fmt: skip
    frame = ranks.to_dataframe()
    ax = ranks.plot(group=1)
    _png(ax, tmp_path / "ranks.png")
    g = frame[frame["collection"] == ranks.group_keys[1][0]].set_index("system")
    ticks = {round(t): lab.get_text() for t, lab in zip(ax.get_yticks(), ax.get_yticklabels())}
    dots = _by_gid(ax, "estimate")
    for x, y in zip(*dots.get_data()):
        assert g.loc[ticks[round(y)], "rank"] == x  # each dot at its own system's rank
    # the first rank on top, every system once
    top = ticks[max(ticks)]
    assert g.loc[top, "rank"] == g["rank"].min()
    assert sorted(ticks.values()) == sorted(g.index)
    segments = [a for a in ax.collections if a.get_gid() == "interval"]
    ends = sorted((float(s[0][0]), float(s[1][0])) for c in segments for s in c.get_segments())
    assert ends == sorted(zip(g["rank_low"].astype(float), g["rank_high"].astype(float)))
    with pytest.raises(ValueError, match="`group`"):
        ranks.plot()  # two groups: one must be chosen
    with pytest.raises(TypeError, match="rank-interval plot"):
        plotting.rank_intervals(
            RUNS.paired.bootstrap(
                item="query", system="run", score="ndcg", n_resamples=50, rng=1, as_result=True
            )
        )


def test_overlapping_cliques_are_drawn_apart_each_over_its_own_members():
    # Nemenyi at 0.05 on 20 data sets: three cliques, each overlapping the next (names not
    # in sorted order, nor in rank order)
    names = ["kappa", "beta", "zulu", "alpha", "mu"]
    rng = np.random.default_rng(10)
    x = rng.normal(size=(20, 5)) + np.array([0.0, 0.25, 0.5, 0.75, 1.0])
    res = pairedstats.friedman(x, systems=names, posthoc="nemenyi")
    mean = dict(zip(names, res.mean_rank[0].tolist()))
    assert mean == {"kappa": 4.2, "beta": 3.65, "zulu": 2.9, "alpha": 1.85, "mu": 2.4}
    cliques = res.cliques()
    assert cliques == [frozenset({"alpha", "mu", "zulu"}), frozenset({"mu", "zulu", "beta"}),
                       frozenset({"zulu", "beta", "kappa"})]  # fmt: skip
    fig = plotting.critical_difference(res)
    ax = fig.axes[0]
    bars = [line for line in ax.get_lines() if line.get_gid() == "clique"]
    dots = [line for line in ax.get_lines() if line.get_gid() == "clique-member"]
    heights = [float(bar.get_ydata()[0]) for bar in bars]
    assert len(set(heights)) == 3  # one row per clique
    gaps = np.diff(sorted(heights))
    assert gaps.tolist() == pytest.approx([gaps[0]] * len(gaps))
    # the gap between two bars, in points, clears the bars' own width
    points = np.diff(ax.transData.transform([(1, heights[0]), (1, heights[1])])[:, 1])[0]
    points = abs(points) * 72 / fig.dpi
    assert points > 2 * bars[0].get_linewidth()
    for bar, clique in zip(bars, cliques, strict=True):
        ranks = sorted(mean[s] for s in clique)
        assert sorted(bar.get_xdata().tolist()) == [ranks[0], ranks[-1]]
        assert bar.get_solid_capstyle() == "butt"  # the bar ends at its members' ranks
        (own,) = [d for d in dots if d.get_ydata()[0] == bar.get_ydata()[0]]
        assert sorted(own.get_xdata().tolist()) == ranks
    # each name is still joined to its own mean rank
    for line in ax.get_lines():
        if line.get_gid() == "system-line":
            assert line.get_xdata()[0] == mean[line.get_label()]
    plt.close(fig)


# ------------------------------------------------------------------ posterior probabilities
#: Scores of three systems over eight data sets, named in no sorted order.
SWEEP = np.array([[0.81, 0.84, 0.80], [0.72, 0.70, 0.75], [0.90, 0.93, 0.91],
                  [0.66, 0.71, 0.64], [0.77, 0.79, 0.78], [0.85, 0.84, 0.88],
                  [0.58, 0.63, 0.57], [0.93, 0.95, 0.92]])  # fmt: skip
NAMES = ["zeta", "alpha", "mid"]


def _sweep_frame():
    import pandas as pd

    return pd.DataFrame(SWEEP, columns=NAMES, index=[f"d{i}" for i in range(len(SWEEP))])


def test_posterior_triangle_puts_each_draw_at_its_barycentric_position(tmp_path):
    res = _sweep_frame().paired.bayes_signrank(rope=0.01, n_samples=2000, rng=3, as_result=True)
    ax = plotting.posterior(res, comparison=("alpha", "mid"))
    _png(ax, tmp_path / "triangle.png")
    draws = np.asarray(res.posterior[0][2])  # alpha, mid: the third comparison
    xy = np.asarray(_by_gid(ax, "draws").get_xydata())
    expected = np.column_stack([draws[:, 2] + draws[:, 1] / 2, np.sqrt(3) / 2 * draws[:, 1]])
    np.testing.assert_allclose(xy, expected, rtol=0, atol=1e-15)
    assert len(xy) == 2000
    # corners: a's name at (0, 0), the rope on top, b's name at (1, 0); the probabilities
    texts = {t.get_gid(): t.get_text() for t in ax.texts}
    frame = res.to_dataframe().iloc[2]
    assert texts["corner_a_better"] == f"alpha\n{frame['prob_a_better']:.3f}"
    assert texts["corner_b_better"] == f"mid\n{frame['prob_b_better']:.3f}"
    assert texts["corner_equivalent"] == f"rope  {frame['prob_equivalent']:.3f}"
    # the share of the draws in each region (the largest of the three) is the probability
    largest = np.argmax(draws, axis=1)
    assert np.mean(largest == 2) == pytest.approx(frame["prob_b_better"], abs=1e-12)
    np.testing.assert_allclose(barycentric(draws), expected, atol=1e-15)


def test_posterior_bars_are_the_probabilities_labelled_by_the_systems(tmp_path):
    folds = _sweep_frame().rename_axis("fold")
    res = folds.paired.cv_ttest(test_fraction=0.125, rope=0.01, as_result=True)
    ax = plotting.posterior(res)
    _png(ax, tmp_path / "bars.png")
    frame = res.to_dataframe()
    for gid, column in (("a_better", "prob_a_better"), ("equivalent", "prob_equivalent"),
                        ("b_better", "prob_b_better")):  # fmt: skip
        bars = [p for p in ax.patches if p.get_gid() == gid] or [
            p for c in ax.containers if c.get_gid() == gid for p in c.patches
        ]
        widths = [bar.get_width() for bar in sorted(bars, key=lambda p: -p.get_y())]
        np.testing.assert_allclose(widths, frame[column].to_numpy(), rtol=0, atol=1e-15)

    def top_down(axis):
        ticks = sorted(axis.get_yticklabels(), key=lambda t: -t.get_position()[1])
        return [t.get_text() for t in ticks]

    left = top_down(ax)
    assert left == frame["system_a"].tolist() == ["zeta", "zeta", "alpha"]
    (right_axis,) = ax.child_axes
    right = top_down(right_axis)
    assert right == frame["system_b"].tolist() == ["alpha", "mid", "mid"]
    # the result's plot() chooses the forest for the t-test; for the draws, the bars of every
    # comparison, and the triangle of one named (a position would not follow the labels)
    assert plotting.plot(res).get_xlabel().startswith("difference")
    bayes = _sweep_frame().paired.bayes_signrank(rope=0.01, n_samples=500, rng=3, as_result=True)
    assert bayes.plot().get_xlabel().startswith("posterior probability")
    drawn = bayes.plot(comparison=("zeta", "mid"))
    assert len(_by_gid(drawn, "draws").get_xydata()) == 500
    assert drawn.get_title().startswith("mid - zeta")
    one = _sweep_frame().paired.bayes_signrank(
        baseline="zeta", systems=["zeta", "mid"], rope=0.01, n_samples=500, rng=3, as_result=True
    )
    assert len(_by_gid(one.plot(), "draws").get_xydata()) == 500


def test_posterior_errors_say_what_is_missing():
    folds = _sweep_frame().rename_axis("fold")
    plain = folds.paired.cv_ttest(test_fraction=0.125, as_result=True)
    with pytest.raises(TypeError, match="without rope="):
        plotting.posterior(plain)
    table = folds.paired.cv_ttest(test_fraction=0.125, rope=0.01)
    with pytest.raises(TypeError, match="as_result=True; got DataFrame"):
        plotting.posterior(table)
    res = folds.paired.cv_ttest(test_fraction=0.125, rope=0.01, as_result=True)
    with pytest.raises(ValueError, match="as_result=True"):
        plotting.posterior(res, style="triangle")
    with pytest.raises(ValueError, match="`style` must be"):
        plotting.posterior(res, style="pie")
    bayes = _sweep_frame().paired.bayes_signrank(rope=0.01, n_samples=500, rng=3, as_result=True)
    with pytest.raises(ValueError, match="`comparison`"):
        plotting.posterior(bayes, comparison=("mid", "alpha"))
    with pytest.raises(ValueError, match=r"`comparison`: the triangle shows one of the 3"):
        plotting.posterior(bayes, style="triangle")
