"""The tie rule (``pairedstats.core.ties``) on the cases that showed its need, each against a
reference computed without it: scipy on the values meant (each computed once, exactly
rounded), or the same data in float64.

Each score is known to two units of roundoff of its own dtype and size; two numbers computed
from the scores are tied within the errors they carry, added; integer scores are exact.
"""

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

import pairedstats  # noqa: F401  (registers .paired)
from pairedstats.core import ties

SYSTEMS = ["zq", "zb", "zx", "za", "zm", "zk"]  # never in sorted order


def _fold_mean(correct: int, rng, folds: int = 10, size: int = 15) -> float:
    """The mean of ``folds`` fold accuracies whose correct answers add up to ``correct``:
    the same rational ``correct / (folds * size)``, rounded by the order of the folds."""
    counts = np.bincount(rng.choice(folds * size, correct, replace=False) // size,
                         minlength=folds)  # fmt: skip
    return float(np.mean(counts / size))


def test_float16_differences_of_many_ulps_are_never_ties():
    # b = a + 0.01 in float16: 0.01 is about 20 float16 ulps of these scores. The spread rule
    # (32 u of the spread, 0.016 on [0, 1]) read every difference as a zero: p = 1, 0 wins
    a = np.array([0.05, 0.12, 0.2, 0.31, 0.38, 0.45, 0.52, 0.6, 0.71, 0.8, 0.86, 0.93])
    table = pd.DataFrame({"zq": a, "zb": a + 0.01}).astype(np.float16)
    wide = table.astype(np.float64)  # the same floats, known to 2**-53
    rank = table.paired.signrank()
    assert int(rank["n_zeros"].item()) == 0
    assert rank["pvalue"].item() < 0.01
    boot = table.paired.bootstrap(n_resamples=999, rng=1)
    assert (int(boot["wins"].item()), int(boot["ties"].item())) == (12, 0)
    assert boot["pvalue"].item() == wide.paired.bootstrap(n_resamples=999, rng=1)["pvalue"].item()
    # two float16 scores a few of their own ulps apart are a tie; twenty are not
    x = np.array([0.5, 0.5 + 2**-11, 0.51], dtype=np.float16).astype(np.float64)
    assert ties.tied_values(x, ties.score_errors(x, 2.0**-11)).tolist() == [0.5, 0.5, x[2]]


def test_means_equal_in_exact_arithmetic_are_ties_for_friedman():
    # six classifiers on eighteen data sets, accuracies the means of ten fold accuracies;
    # in each data set two classifiers answer the same number of questions right, their
    # means an ulp apart by the folds. Reference: scipy's friedmanchisquare on the
    # accuracies computed once (correct / 150), where those pairs are equal floats
    rng = np.random.default_rng(7)
    correct = rng.integers(140, 146, size=(18, 6))
    correct[:, 1] = correct[:, 4]
    meant = correct / 150.0
    given = np.array([[_fold_mean(int(c), rng) for c in row] for row in correct])
    assert (given != meant).any()  # rounding by the folds
    frame = pd.DataFrame(given, columns=SYSTEMS).rename_axis("dataset").reset_index()
    tidy = frame.melt(id_vars="dataset", var_name="model", value_name="accuracy")
    res = tidy.paired.friedman(item="dataset", system="model", score="accuracy")
    expected = stats.friedmanchisquare(*meant.T)
    assert res["friedman"].iloc[0] == pytest.approx(expected.statistic, rel=1e-12)
    assert res["pvalue_friedman"].iloc[0] == pytest.approx(expected.pvalue, rel=1e-9)


def test_means_equal_in_exact_arithmetic_are_ties_for_the_rank_sum_test():
    rng = np.random.default_rng(3)
    a_correct, b_correct = rng.integers(135, 146, 12), rng.integers(138, 149, 12)
    given = [[_fold_mean(int(c), rng) for c in x] for x in (a_correct, b_correct)]
    table = pd.DataFrame({"zq": given[0], "zb": given[1]})
    res = table.paired.ranksum(a="zq", b="zb", method="asymptotic")
    expected = stats.mannwhitneyu(a_correct / 150, b_correct / 150, method="asymptotic")
    assert res["u_a"].item() == expected.statistic
    assert res["pvalue"].item() == pytest.approx(expected.pvalue, rel=1e-12)


@pytest.mark.parametrize("scale", [0.1, 0.001, 7.25])
@pytest.mark.parametrize("shift", [1.0, 100.0, 1e4])
def test_affine_maps_of_grid_scores_change_no_pvalue_method_or_tie(scale, shift):
    # integer scores 0..9 on 15 items: their signed-rank test (exact ties) against the same
    # scores as scale * x + shift, whose differences round by the size of the shift (the
    # spread rule moved the p-value 0.346 -> 0.371 and the method at 0.1 x + 100)
    for seed in range(8):
        x = np.random.default_rng(seed).integers(0, 10, size=(15, 2)).astype(float)
        base = pd.DataFrame(x, columns=["zq", "zb"])
        moved = scale * base + shift
        got, want = moved.paired.signrank(), base.paired.signrank()
        assert got["method"].item() == want["method"].item()
        for column in ("pvalue", "n_zeros", "statistic"):
            assert got[column].item() == pytest.approx(want[column].item(), rel=1e-12), column
        got = moved.paired.bootstrap(n_resamples=499, rng=seed)
        want = base.paired.bootstrap(n_resamples=499, rng=seed)
        assert got[["wins", "ties", "losses"]].equals(want[["wins", "ties", "losses"]])
        assert got["pvalue"].item() == pytest.approx(want["pvalue"].item(), rel=1e-6)


@settings(max_examples=30, deadline=None)
@given(
    st.lists(st.sampled_from([0.0, 1.0, 3.0, 0.1, 0.3, 2.5, -7.0, 2.0**52, 1e-300]), min_size=12,
             max_size=12),
    st.permutations(range(4)),
)  # fmt: skip
def test_pair_difference_errors_are_the_errors_of_each_pair(values, order):
    """The errors of many pairs at once are those of each pair alone, exact columns (integers)
    and inexact ones mixed (:func:`ties.difference_errors`)."""
    x = np.array(values).reshape(3, 4)[:, list(order)]
    x[:, 0] = np.rint(x[:, 0])  # one column of integers at least
    pairs = [(i, j) for i in range(4) for j in range(4) if i != j]
    a, b = [p[0] for p in pairs], [p[1] for p in pairs]
    many = ties.pair_difference_errors(x, a, b)
    for c, (i, j) in enumerate(pairs):
        np.testing.assert_array_equal(many[:, c], ties.difference_errors(x[:, i], x[:, j]))
    assert ties.exact_columns(x).tolist() == [ties.is_exact(x[:, j]) for j in range(4)]
