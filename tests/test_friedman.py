"""Friedman's test over many data sets, its post-hoc tests, the cliques and Demšar's diagram.

References (``tests/reference/friedman/``, committed with the scripts that made them): R's
``friedman.test`` and ``pairwise.wilcox.test``, scikit-posthocs' Nemenyi and Conover tests,
scipy's ``friedmanchisquare`` (called here), and Demšar's (2006) worked example (Table 6),
whose numbers are typed below from the paper.
"""

from pathlib import Path

import matplotlib
import numpy as np
import pandas as pd
import pytest
import xarray as xr
from scipy import stats
from tests.data import FOLD_ORDER, integer_folds

import pairedstats
from pairedstats import plotting
from pairedstats.core import friedman as core

matplotlib.use("Agg")

REF = Path(__file__).parent / "reference" / "friedman"
DATA = pd.read_csv(REF / "datasets.csv")
POSTHOCS = ("wilcoxon-holm", "nemenyi", "conover")
DEMSAR = ["C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf"]
TABLE6 = pd.read_csv(REF / "demsar_table6.csv")


def _case(case: str, posthoc: str, **keywords) -> pd.DataFrame:
    part = DATA[DATA["case"] == case]
    return part.paired.friedman(item="dataset", system="system", score="score",
                                posthoc=posthoc, **keywords)  # fmt: skip


def _demsar(alpha_posthoc="nemenyi", **keywords):
    """Demšar's Table 6 by its printed ranks (lower is better): its average ranks."""
    ranks = TABLE6[[f"rank_{s}" for s in DEMSAR]].to_numpy()
    return pairedstats.friedman(ranks, systems=DEMSAR, posthoc=alpha_posthoc,
                                lower_is_better=True, **keywords)  # fmt: skip


# --------------------------------------------------------------------------- references
@pytest.mark.parametrize("case", list(dict.fromkeys(DATA["case"])))
def test_friedman_and_the_posthoc_tests_equal_r_scipy_and_scikit_posthocs(case):
    r = pd.read_csv(REF / "r.csv").query("case == @case").reset_index(drop=True)
    sp = pd.read_csv(REF / "scikit_posthocs.csv").query("case == @case").reset_index(drop=True)
    res = {p: _case(case, p) for p in POSTHOCS}
    for frame in res.values():
        assert list(zip(frame.system_a, frame.system_b)) == list(zip(r.system_a, r.system_b))
        np.testing.assert_allclose(frame.friedman, r.friedman, rtol=1e-12)
        np.testing.assert_allclose(frame.pvalue_friedman, r.pvalue_friedman, rtol=1e-12)
    part = DATA[DATA["case"] == case]
    wide = part.pivot(index="dataset", columns="system", values="score")
    chi2, p = stats.friedmanchisquare(*wide.to_numpy().T)
    np.testing.assert_allclose(res["nemenyi"].friedman, chi2, rtol=1e-12)
    np.testing.assert_allclose(res["nemenyi"].pvalue_friedman, p, rtol=1e-12)
    wilcoxon = res["wilcoxon-holm"]
    np.testing.assert_allclose(wilcoxon.pvalue, r.wilcoxon_none, rtol=1e-12)
    np.testing.assert_allclose(wilcoxon.pvalue_adjusted, r.wilcoxon_holm, rtol=1e-12)
    np.testing.assert_allclose(res["nemenyi"].pvalue_adjusted, sp.nemenyi, rtol=1e-12)
    np.testing.assert_allclose(res["nemenyi"].pvalue_adjusted, r.nemenyi_ptukey, rtol=1e-8)
    np.testing.assert_allclose(res["conover"].pvalue, sp.conover_none, rtol=1e-12)
    np.testing.assert_allclose(res["conover"].pvalue_adjusted, sp.conover_holm, rtol=1e-12)


def test_the_references_have_significant_pairs_and_ties():
    # what the cases exercise: decisions both ways, ties within data sets, exact Wilcoxon
    many = {p: _case("many", p) for p in POSTHOCS}
    assert all((f.pvalue_adjusted < 0.05).any() for f in many.values())
    assert all((f.pvalue_adjusted >= 0.05).any() for f in many.values())
    grid = DATA[DATA["case"] == "grid"].pivot(index="dataset", columns="system", values="score")
    assert (grid.nunique(axis=1) < grid.shape[1]).any()


# --------------------------------------------------------------------------- Demšar (2006)
def test_demsar_table_6_average_ranks_statistics_and_critical_difference():
    res = _demsar(tie_correction=False)
    np.testing.assert_allclose(res.mean_rank[0], [3.143, 2.000, 2.893, 1.964], atol=5e-4)
    assert round(float(res.friedman[0, 0]), 2) == 9.28  # his chi2_F, ties ignored
    assert round(float(res.iman_davenport[0, 0]), 2) == 3.69  # his F_F
    assert round(stats.f.ppf(0.95, 3, 39), 2) == 2.85  # his critical value: rejected
    assert res.pvalue_iman_davenport[0, 0] < 0.05
    assert round(float(res.critical_difference(0.05)[0]), 2) == 1.25  # 2.569 * 0.488
    assert round(float(res.critical_difference(0.10)[0]), 2) == 1.12  # 2.291 * 0.488
    # "even the difference between the best and the worst ... is already smaller"
    assert res.cliques(0.05) == [frozenset(DEMSAR)]
    # at p = 0.10: "C4.5 is significantly worse than C4.5+m and C4.5+m+cf"; C4.5+cf in both
    assert res.cliques(0.10) == [frozenset({"C4.5+m+cf", "C4.5+m", "C4.5+cf"}),
                                 frozenset({"C4.5+cf", "C4.5"})]  # fmt: skip
    flags = res.significant(0.10).iloc[0]
    assert set(flags[flags].index) == {("C4.5", "C4.5+m"), ("C4.5", "C4.5+m+cf")}


def test_demsar_z_and_p_against_c45_are_the_nemenyi_pair_pvalues():
    # his Holm table (section 3.2.2): SE = 0.488, z = 2.416, 2.342, 0.512; p = 0.016, 0.019,
    # 0.607: each pair's own normal p-value of the mean ranks
    frame = _demsar().to_dataframe().set_index(["system_a", "system_b"])
    for other, p in (("C4.5+m+cf", 0.016), ("C4.5+m", 0.019), ("C4.5+cf", 0.607)):
        # his z come from ranks rounded to 3 decimals (0.512 for 0.5124): 0.608 here
        assert float(frame.loc[("C4.5", other), "pvalue"]) == pytest.approx(p, abs=1.5e-3)
    assert round(np.sqrt(4 * 5 / (6 * 14)), 3) == 0.488


def test_tie_correction_is_r_and_scipy_and_demsar_divided_by_the_tie_factor():
    corrected, plain = _demsar(), _demsar(tie_correction=False)
    # ties: iris, lung cancer, primary tumor (2 each), mushroom (4): 1 - 78 / (14 * 4 * 15)
    factor = 1 - 78 / 840
    np.testing.assert_allclose(corrected.friedman, plain.friedman / factor, rtol=1e-13)
    ranks = TABLE6[[f"rank_{s}" for s in DEMSAR]].to_numpy()
    scipy = stats.friedmanchisquare(*ranks.T).statistic
    np.testing.assert_allclose(corrected.friedman[0, 0], scipy, rtol=1e-12)
    # docs/friedman.md: 10.23 and F_F 4.19, (N - 1) chi2 / (N (k - 1) - chi2) with N = 14, k = 4
    assert round(float(corrected.friedman[0, 0]), 2) == 10.23
    assert round(float(corrected.iman_davenport[0, 0]), 2) == 4.19
    f = 13 * scipy / (14 * 3 - scipy)
    np.testing.assert_allclose(corrected.iman_davenport[0, 0], f, rtol=1e-12)
    np.testing.assert_allclose(corrected.pvalue_iman_davenport[0, 0], stats.f.sf(f, 3, 39),
                               rtol=1e-10)  # fmt: skip
    # the post-hoc tests do not depend on it
    np.testing.assert_array_equal(corrected.pvalue_adjusted, plain.pvalue_adjusted)


def test_the_printed_aucs_tie_on_voting_which_the_paper_ranks_apart():
    auc = TABLE6[DEMSAR].to_numpy()
    res = pairedstats.friedman(auc, systems=DEMSAR, posthoc="nemenyi")
    # C4.5+cf and C4.5+m+cf share 2.5 on voting (0.975 both): +0.5 and -0.5 rank over 14
    np.testing.assert_allclose(res.mean_rank[0], [44 / 14, 28 / 14, 41 / 14, 27 / 14])
    assert res.cliques(0.10) == _demsar().cliques(0.10)


# --------------------------------------------------------------------------- the diagram
def _elements(fig):
    ax = fig.axes[0]
    lines = {}
    for line in ax.get_lines():
        lines.setdefault(line.get_gid(), []).append(line)
    texts = [t for t in ax.texts if t.get_gid() == "system"]
    return ax, lines, texts


@pytest.mark.parametrize("best", ["right", "left"])
def test_the_diagram_draws_demsar_figure_1(best):
    res = _demsar()
    fig = plotting.critical_difference(res, alpha=0.10, best=best)
    ax, lines, texts = _elements(fig)
    (axis,) = lines["axis"]
    assert sorted(axis.get_xdata()) == [1, 4]  # the axis: ranks 1 .. k
    left, right = ax.get_xlim()
    assert (left > right) == (best == "right")  # rank 1 on the right, as in the paper
    # every name at its mean rank: its line starts there, the name at the line's end
    mean = dict(zip(DEMSAR, res.mean_rank[0]))
    named = {line.get_label(): line for line in lines["system-line"]}
    assert set(named) == set(DEMSAR) == {t.get_text().strip() for t in texts}
    for text in texts:
        line = named[text.get_text().strip()]
        assert line.get_xdata()[0] == pytest.approx(mean[text.get_text().strip()])
        assert text.get_position() == (line.get_xdata()[-1], line.get_ydata()[-1])
    # the better half on the best side, the extreme ranks nearest the axis
    rows = {t.get_text().strip(): t.get_position() for t in texts}
    assert rows["C4.5+m+cf"][1] > rows["C4.5+m"][1]
    assert rows["C4.5"][1] > rows["C4.5+cf"][1]
    shown = {name: ax.transData.transform(xy)[0] for name, xy in rows.items()}  # in pixels
    assert (shown["C4.5+m+cf"] > shown["C4.5"]) == (best == "right")
    # one bar per clique, covering exactly its members' mean ranks
    spans = sorted(tuple(map(float, line.get_xdata())) for line in lines["clique"])
    expected = sorted((min(mean[s] for s in c), max(mean[s] for s in c))
                      for c in res.cliques(0.10))  # fmt: skip
    assert spans == expected
    # the two cliques share C4.5+cf: each bar at its own height marks its own members
    bars = {line.get_ydata()[0]: line for line in lines["clique"]}
    assert len(bars) == 2
    dots = {line.get_ydata()[0]: sorted(line.get_xdata()) for line in lines["clique-member"]}
    assert set(dots) == set(bars)
    for y, line in bars.items():
        assert (dots[y][0], dots[y][-1]) == tuple(sorted(line.get_xdata()))
    # the critical difference at 0.10: 1.12
    (cd,) = lines["critical-difference"]
    assert abs(np.diff(cd.get_xdata())[0]) == pytest.approx(res.critical_difference(0.10)[0])
    assert round(abs(np.diff(cd.get_xdata())[0]), 2) == 1.12
    matplotlib.pyplot.close(fig)


def test_the_diagram_of_another_test_has_no_cd_and_marks_a_clique_that_skips():
    # Wilcoxon-Holm cliques need not be runs of adjacent ranks: c (2.25) lies between a
    # (1.25) and b (2.5), which do not differ, and differs from a (always below it)
    x = np.zeros((12, 3))
    x[:3] = [[0.0, 10.0 + j, -0.1 - 0.01 * j] for j in range(3)]  # b, a, c
    x[3:, 2] = -0.1 - 0.01 * np.arange(9)  # a, c, b
    x[3:, 1] = -0.2 - 0.013 * np.arange(9)
    res = pairedstats.friedman(x, systems=["a", "b", "c"])
    np.testing.assert_allclose(res.mean_rank[0], [1.25, 2.5, 2.25])
    assert res.cliques() == [frozenset({"a", "b"}), frozenset({"c", "b"})]
    fig = res.plot()
    _, lines, _ = _elements(fig)
    assert "critical-difference" not in lines
    # the cliques share b: each bar marks its own members, a and b, then c and b
    members = sorted(sorted(line.get_xdata()) for line in lines["clique-member"])
    assert members == [[1.25, 2.5], [2.25, 2.5]]
    matplotlib.pyplot.close(fig)


def test_the_diagram_of_one_group_of_several():
    runs = pairedstats.datasets.load_runs()
    res = runs.paired.friedman(item="query", system="run", score="ndcg", by="collection",
                               as_result=True)  # fmt: skip
    with pytest.raises(ValueError, match="`group`: the result has 2 groups"):
        plotting.critical_difference(res)
    fig = plotting.critical_difference(res, group="robust04")
    assert fig.axes[0].get_title() == "collection=robust04"
    matplotlib.pyplot.close(fig)
    with pytest.raises(TypeError, match="a critical-difference diagram needs a result with"):
        plotting.critical_difference(pairedstats.signrank(np.arange(20.0).reshape(10, 2) ** 2))
    with pytest.raises(ValueError, match="`best` must be 'right' or 'left'"):
        plotting.critical_difference(res, group=0, best="top")


def test_cliques_read_an_integer_group_as_its_label():
    folds = integer_folds()
    keys = dict(item="item", system="system", score="score")
    res = folds.paired.friedman(**keys, by="fold", as_result=True)
    assert [key for (key,) in res.group_keys] == list(FOLD_ORDER)
    ranks = res.mean_ranks()
    for fold in FOLD_ORDER:
        own = folds[folds["fold"] == fold].paired.friedman(**keys, as_result=True)
        alone = own.cliques()
        assert res.cliques(group=fold) == res.cliques(group=(fold,)) == alone
        assert res.cliques(group=np.int64(fold)) == alone
        # the mean ranks' letters and the diagram's bars are the group's own cliques too
        got = ranks[ranks["fold"] == fold].drop(columns="fold").reset_index(drop=True)
        pd.testing.assert_frame_equal(got, own.mean_ranks(), check_flags=False)
        fig = plotting.critical_difference(res, group=fold)
        assert fig.axes[0].get_title() == f"fold={fold}"
        bars = [line for line in fig.axes[0].lines if line.get_gid() == "clique"]
        assert len(bars) == sum(len(clique) > 1 for clique in alone)
        matplotlib.pyplot.close(fig)
    # the label 0 is not the group at position 0 (fold 2, where no pair differs)
    assert res.cliques(group=0) != res.cliques(group=2)
    # integer labels: an integer that is not one of them is refused, never read as a position
    refused = r"`group`: 3 is not a group label; the labels are \[2, 0, 1\] \(fold\)\. The"
    with pytest.raises(ValueError, match=refused):
        res.cliques(group=3)
    with pytest.raises(ValueError, match=r"choose one by its label: one of \[2, 0, 1\]"):
        res.cliques()


# --------------------------------------------------------------------------- the result
def test_inputs_tidy_wide_and_xarray_agree():
    part = DATA[DATA["case"] == "many"]
    tidy = part.paired.friedman(item="dataset", system="system", score="score")
    wide = part.pivot(index="dataset", columns="system", values="score")
    wide = wide[list(dict.fromkeys(part["system"]))]
    pd.testing.assert_frame_equal(wide.paired.friedman(), tidy, check_like=False)
    ds = xr.Dataset({"score": (("item", "system"), wide.to_numpy())},
                    coords={"system": list(wide.columns)})  # fmt: skip
    out = ds.paired.friedman()
    np.testing.assert_array_equal(out["pvalue_adjusted"].values, tidy["pvalue_adjusted"])
    res = part.paired.friedman(item="dataset", system="system", score="score", as_result=True)
    np.testing.assert_array_equal(out["mean_rank"].values, res.mean_rank[0])
    assert list(out["system"].values) == list(res.systems)


def test_lower_is_better_ranks_the_negated_scores_alike():
    part = DATA[DATA["case"] == "grid"]
    keys = dict(item="dataset", system="system", score="score")
    for posthoc in POSTHOCS:
        higher = part.paired.friedman(**keys, posthoc=posthoc)
        lower = part.assign(score=-part["score"]).paired.friedman(
            **keys, posthoc=posthoc, lower_is_better=True
        )
        pd.testing.assert_frame_equal(higher, lower, check_exact=True, check_flags=False)


def test_by_groups_are_separate_calls_and_the_tables_of_the_result():
    runs = pairedstats.datasets.load_runs()
    keys = dict(item="query", system="run", score="ndcg")
    res = runs.paired.friedman(**keys, by="collection", posthoc="conover", as_result=True)
    frame = res.to_dataframe()
    for name, part in runs.groupby("collection"):
        alone = part.paired.friedman(**keys, posthoc="conover")
        got = frame[frame.collection == name].drop(columns="collection").reset_index(drop=True)
        pd.testing.assert_frame_equal(got, alone, check_flags=False)
    omnibus = res.omnibus()
    assert list(omnibus.columns) == ["collection", "n_datasets", "friedman", "pvalue_friedman",
                                     "iman_davenport", "pvalue_iman_davenport"]  # fmt: skip
    ranks = res.mean_ranks()
    assert list(ranks.columns) == ["collection", "system", "mean_rank", "cliques"]
    assert len(ranks) == 8
    assert (ranks.groupby("collection").mean_rank.sum() == 10).all()
    text = str(res)
    assert all(word in text for word in ("pvalue_iman_davenport", "cliques", "robust04"))
    assert res.to_markdown().startswith("| collection | system_a | system_b |")
    assert r"adjusted $p < 0.05$" in res.to_latex()


def test_ties_by_the_library_rule_and_degenerate_groups():
    # 0.1 + 0.2 and 0.3 are one score apart by rounding only: tied
    x = np.array([[0.1 + 0.2, 0.3, 0.0], [0.2, 0.5, 0.1], [0.4, 0.4, 0.9]])
    res = pairedstats.friedman(x)
    np.testing.assert_allclose(res.mean_rank[0], [2.0, 5 / 3, 7 / 3])
    same = pairedstats.friedman(np.ones((5, 3)))  # every data set ties every system
    assert np.isnan(same.friedman).all()
    assert np.isnan(same.pvalue_friedman).all()
    assert (same.difference == 0).all()
    alike = pairedstats.friedman(np.tile([3.0, 2.0, 1.0], (6, 1)), posthoc="conover")
    assert alike.friedman[0, 0] == 12.0
    assert alike.iman_davenport[0, 0] == np.inf
    assert alike.pvalue_iman_davenport[0, 0] == 0
    assert (alike.pvalue == 0).all()


def test_core_ranks_and_cliques():
    np.testing.assert_array_equal(core.within_ranks([[3, 1, 2, 1]], 0.0), [[4, 1.5, 3, 1.5]])
    assert core.maximal_cliques(3, []) == [frozenset({0, 1, 2})]
    assert core.maximal_cliques(3, [(0, 1), (0, 2), (1, 2)]) == [frozenset({0}), frozenset({1}),
                                                                 frozenset({2})]  # fmt: skip


def test_invalid_input_names_the_keyword():
    x = np.random.default_rng(1).normal(size=(8, 3))
    with pytest.raises(ValueError, match="`posthoc` must be one of 'wilcoxon-holm', 'nemenyi'"):
        pairedstats.friedman(x, posthoc="tukey")
    with pytest.raises(TypeError, match="`tie_correction` must be True or False; got 1"):
        pairedstats.friedman(x, tie_correction=1)
    with pytest.raises(ValueError, match="`lower_is_better`: 'loss' is not one of the metrics"):
        pairedstats.friedman(x, lower_is_better="loss")
    with pytest.raises(ValueError, match="`score` must name one score column for friedman"):
        pairedstats.friedman(np.stack([x, x], axis=-1))
    with pytest.raises(TypeError, match="friedman does not take `replicate`"):
        pairedstats.friedman(x, replicate=[0])
    with pytest.raises(ValueError, match=r"`alpha` must be strictly between 0 and 1; got 1\.5"):
        pairedstats.friedman(x).significant(1.5)


@pytest.mark.parametrize(
    ("alpha", "error", "shown"),
    [(0, ValueError, "0.0"), (1, ValueError, "1.0"), (1.5, ValueError, "1.5"),
     (float("nan"), ValueError, "nan"), ("0.05", TypeError, "'0.05'"),
     (True, TypeError, "True")],
)  # fmt: skip
def test_critical_difference_refuses_an_alpha_outside_0_1(alpha, error, shown):
    res = _demsar()
    rule = "a number strictly" if error is TypeError else "strictly"
    match = f"^`alpha` must be {rule} between 0 and 1; got {shown}\\.$"
    with pytest.raises(error, match=match):
        plotting.critical_difference(res, alpha=alpha)
    with pytest.raises(error, match=match):
        res.critical_difference(alpha)
    with pytest.raises(error, match=match):
        res.cliques(alpha)
    import matplotlib.pyplot as plt  # (imported by the tests that draw, not always first)

    assert not plt.get_fignums()  # refused before drawing
