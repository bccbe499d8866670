"""The bootstrap's test against a margin (``margin=``): non-inferiority and equivalence by
its intervals inverted at the margin's ends.

References: the existing test of 0 on scores shifted by the margin (another road through
the code), the intervals themselves (the decision is the interval inside the margins), the
exact bootstrap distribution of five items by enumeration of all 5**5 resamples, statsmodels'
Holm, and the committed calibration study.
"""

from __future__ import annotations

import io
import itertools
import json
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import xarray as xr
from statsmodels.stats.multitest import multipletests

import pairedstats  # noqa: F401  (the .paired accessors)
from pairedstats import bootstrap, cli

METHODS = ("percentile", "basic", "bca", "studentized")
SYSTEMS = ["zeta", "alpha", "mid"]
ROOT = Path(__file__).resolve().parents[1]
CALIBRATION = ROOT / "tests" / "reference" / "bootstrap" / "margin_calibration.json"


def _scores(seed: int = 3, n: int = 30) -> np.ndarray:
    gen = np.random.default_rng(seed)
    x = gen.normal(size=(n, 3))
    x[:, 1] += 0.15
    x[:, 2] += gen.exponential(0.5, size=n) - 0.5  # skewed differences
    return x


def _groups(n_groups: int = 40, n: int = 25, seed: int = 11) -> pd.DataFrame:
    """Tidy scores of two systems in ``n_groups`` groups whose true differences spread over
    (-0.6, 0.6), the rows shuffled."""
    gen = np.random.default_rng(seed)
    shift = np.linspace(-0.6, 0.6, n_groups)
    a = gen.normal(size=(n_groups, n))
    b = a + shift[:, None] + gen.normal(0, 0.7, size=(n_groups, n))
    frame = pd.DataFrame({
        "fold": np.repeat([f"g{(7 * i) % n_groups:02d}" for i in range(n_groups)], n),
        "item": np.tile(np.arange(n), n_groups),
        "zeta": a.ravel(), "alpha": b.ravel(),
    }).melt(["fold", "item"], var_name="system", value_name="score")  # fmt: skip
    return frame.sample(frac=1.0, random_state=5).reset_index(drop=True)


@pytest.mark.parametrize("method", METHODS)
def test_one_sided_pvalues_are_the_test_of_zero_on_shifted_scores(method):
    x, m = _scores(), 0.3
    kw = dict(systems=SYSTEMS, baseline="zeta", n_resamples=3000, rng=5, method=method)
    plus, minus = x.copy(), x.copy()
    plus[:, 1:] += m  # b + m vs a: H0 b - a <= -m is H0 (b + m) - a <= 0
    minus[:, 1:] -= m
    greater = bootstrap(x, margin=m, alternative="greater", **kw)
    less = bootstrap(x, margin=m, alternative="less", **kw)
    two = bootstrap(x, margin=m, **kw)
    p_above = bootstrap(plus, alternative="greater", **kw).pvalue
    p_below = bootstrap(minus, alternative="less", **kw).pvalue
    np.testing.assert_allclose(greater.pvalue_noninferiority, p_above, rtol=0, atol=1e-12)
    np.testing.assert_allclose(less.pvalue_noninferiority, p_below, rtol=0, atol=1e-12)
    np.testing.assert_allclose(two.pvalue_equivalence, np.maximum(p_above, p_below),
                               rtol=0, atol=1e-12)  # fmt: skip
    assert p_above.min() > 0
    assert p_above.max() < 1
    # the margin's test leaves the test of 0 as it was
    plain = bootstrap(x, **kw)
    np.testing.assert_array_equal(two.pvalue, plain.pvalue)
    np.testing.assert_array_equal(two.ci_low, plain.ci_low)


@pytest.mark.parametrize("method", METHODS)
def test_replicates_on_the_margin_are_ties_as_on_shifted_scores(method):
    # 0/1 scores of 60 items: the replicates lie on a grid of 1/60, and many equal -0.15 =
    # -9/60 in exact arithmetic; rounding must not decide on which side they fall
    gen = np.random.default_rng(1)
    x, m = (gen.random((60, 3)) < 0.6).astype(float), 0.15
    kw = dict(systems=SYSTEMS, baseline="zeta", n_resamples=2000, rng=1, method=method)
    reps = bootstrap(x, **kw).bootstrap_distribution
    assert (np.abs(reps + m) < 1e-9).sum(axis=-1).min() >= 20
    for alternative, shift in (("greater", m), ("less", -m)):
        shifted = x.copy()
        shifted[:, 1:] += shift
        got = bootstrap(x, margin=m, alternative=alternative, **kw).pvalue_noninferiority
        np.testing.assert_allclose(got, bootstrap(shifted, alternative=alternative,
                                                  **kw).pvalue, rtol=0, atol=1e-12)  # fmt: skip


@pytest.mark.parametrize("method", METHODS)
def test_decisions_are_the_intervals_inside_the_margins(method):
    frame, m, level = _groups(), 0.35, 0.95
    kw = dict(item="item", system="system", score="score", by="fold", baseline="zeta",
              n_resamples=2000, rng=9, method=method, as_result=True)  # fmt: skip
    two = frame.paired.bootstrap(margin=m, confidence_level=level, **kw)
    narrow = frame.paired.bootstrap(confidence_level=2 * level - 1, **kw)  # 1 - 2 alpha
    inside = (narrow.ci_low > -m) & (narrow.ci_high < m)
    np.testing.assert_array_equal(two.equivalent, inside)
    assert 5 <= inside.sum() <= 35  # both decisions occur
    greater = frame.paired.bootstrap(margin=m, alternative="greater", **kw)
    np.testing.assert_array_equal(greater.noninferior, greater.ci_low > -m)
    np.testing.assert_array_equal(greater.ci_low, narrow.ci_low)
    less = frame.paired.bootstrap(margin=m, alternative="less", **kw)
    np.testing.assert_array_equal(less.noninferior, less.ci_high < m)
    alpha = 1 - level
    np.testing.assert_array_equal(two.equivalent, two.pvalue_equivalence < alpha)
    np.testing.assert_array_equal(greater.noninferior, greater.pvalue_noninferiority < alpha)


def _exact_distribution(d: np.ndarray):
    """Every one of the n**n equally likely resamples of the differences ``d``: their means
    (the exact bootstrap distribution of the mean difference)."""
    n = d.size
    idx = np.array(list(itertools.product(range(n), repeat=n)))
    return d[idx].mean(axis=1)


def test_percentile_decision_against_the_exact_bootstrap_distribution():
    a = np.array([0.61, 0.20, 0.93, 0.47, 0.35])
    d = np.array([0.12, -0.31, 0.40, 0.05, 0.26])
    means = _exact_distribution(d)
    assert means.size == 5**5
    x = np.column_stack([a, a + d])
    n_resamples = 200_000
    for m, alternative in [(0.62, "two-sided"), (0.45, "two-sided"), (0.3, "two-sided"),
                           (0.2, "greater"), (0.05, "greater"), (0.33, "less")]:  # fmt: skip
        res = bootstrap(x, systems=["zeta", "alpha"], margin=m, alternative=alternative,
                        n_resamples=n_resamples, rng=4)  # fmt: skip
        p_above = np.mean(means <= -m)  # H0 b - a <= -m: the share at or below -m
        p_below = np.mean(means >= m)
        exact = {"two-sided": max(p_above, p_below), "greater": p_above, "less": p_below}
        p = exact[alternative]
        got = res.pvalue_equivalence if alternative == "two-sided" else res.pvalue_noninferiority
        se = np.sqrt(max(p * (1 - p), 1e-6) / n_resamples)
        assert abs(float(got[0, 0]) - p) < 5 * se + 2 / n_resamples, (m, alternative, got, p)
        assert abs(p - 0.05) > 0.01  # the decision is not a coin toss of the resamples
        decided = res.equivalent if alternative == "two-sided" else res.noninferior
        assert bool(decided[0, 0]) == (p < 0.05)
        # and it is the exact percentile interval (quantiles of the exact distribution)
        low, high = np.quantile(means, [0.05, 0.95])
        inside = {"two-sided": -m < low and high < m, "greater": low > -m, "less": high < m}
        assert bool(decided[0, 0]) == inside[alternative]


def test_swapping_a_and_b():
    x, m = _scores(n=40), 0.4
    kw = dict(n_resamples=2000, rng=8, margin=m, resampling="index")
    ab = bootstrap(x[:, :2], systems=["zeta", "alpha"], **kw)
    ba = bootstrap(x[:, [1, 0]], systems=["alpha", "zeta"], **kw)
    assert (ab.label_a, ab.label_b) == (("zeta",), ("alpha",))
    np.testing.assert_allclose(ab.pvalue_equivalence, ba.pvalue_equivalence, atol=1e-12)
    greater = bootstrap(x[:, :2], systems=["zeta", "alpha"], alternative="greater", **kw)
    less = bootstrap(x[:, [1, 0]], systems=["alpha", "zeta"], alternative="less", **kw)
    np.testing.assert_allclose(greater.pvalue_noninferiority, less.pvalue_noninferiority,
                               atol=1e-12)  # fmt: skip
    np.testing.assert_array_equal(greater.noninferior, less.noninferior)


def test_holm_adjusts_the_add_one_pvalues():
    x, m, n_resamples = _scores(n=60), 0.45, 999
    res = bootstrap(x, systems=SYSTEMS, margin=m, adjust="holm", n_resamples=n_resamples,
                    rng=2)  # fmt: skip
    plain = bootstrap(x, systems=SYSTEMS, margin=m, n_resamples=n_resamples, rng=2)
    np.testing.assert_array_equal(res.pvalue_equivalence, plain.pvalue_equivalence)
    p = res.pvalue_equivalence[0]
    add_one = (n_resamples * p + 1) / (n_resamples + 1)  # one-sided: one added
    expected = multipletests(add_one, method="holm")[1]
    np.testing.assert_allclose(res.pvalue_equivalence_adjusted[0], expected, rtol=1e-12)
    np.testing.assert_array_equal(res.equivalent[0], expected < 0.05)
    assert res.noninferior is None
    assert res.pvalue_noninferiority is None


def test_a_pvalue_of_zero_is_a_bound():
    gen = np.random.default_rng(0)
    a = gen.normal(size=50)
    x = np.column_stack([a, a + gen.normal(0, 0.1, 50)])
    res = bootstrap(x, systems=["zeta", "alpha"], margin=1.0, n_resamples=500, rng=1,
                    adjust="bonferroni")  # fmt: skip
    assert res.pvalue_equivalence[0, 0] == 0.0
    assert res.pvalue_equivalence_adjusted[0, 0] == pytest.approx(1 / 501)
    assert res.equivalent[0, 0]
    bounds = res.pvalue_bounds()
    np.testing.assert_allclose(bounds["pvalue_equivalence"], [1 / 500])
    assert "<0.002" in str(res)


def test_by_groups_with_shuffled_rows_equal_each_group_alone():
    frame, m = _groups(n_groups=6), 0.3
    kw = dict(item="item", system="system", score="score", baseline="zeta", margin=m,
              n_resamples=1500, rng=3)  # fmt: skip
    out = frame.paired.bootstrap(by="fold", **kw).set_index("fold")
    again = frame.iloc[::-1].paired.bootstrap(by="fold", **kw).set_index("fold")
    pd.testing.assert_frame_equal(out.sort_index(), again.sort_index())
    assert list(out.index) == list(dict.fromkeys(frame["fold"]))  # order of appearance
    for fold in ["g05", "g00"]:
        alone = frame[frame["fold"] == fold].paired.bootstrap(**kw)
        rows = out.loc[[fold]]
        # each group's numbers are its own data's: the interval inverted at the margins
        narrow = frame[frame["fold"] == fold].paired.bootstrap(
            item="item", system="system", score="score", baseline="zeta",
            confidence_level=0.9, n_resamples=1500, rng=3)  # fmt: skip
        inside = (narrow["ci_low"] > -m) & (narrow["ci_high"] < m)
        assert bool(alone["equivalent"].iloc[0]) == bool(inside.iloc[0])
        assert rows["mean_b"].iloc[0] == pytest.approx(alone["mean_b"].iloc[0])


def test_xarray_dataset():
    gen = np.random.default_rng(6)
    values = gen.normal(size=(3, 30, 2))
    values[..., 1] += 0.05
    ds = xr.Dataset({"score": (("seed", "item", "system"), values)},
                    coords={"seed": [4, 1, 9], "system": ["zeta", "alpha"]})  # fmt: skip
    out = ds.paired.bootstrap(margin=0.8, n_resamples=1000, rng=1)
    assert dict(out["equivalent"].sizes) == {"seed": 3, "comparison": 1}
    res = ds.paired.bootstrap(margin=0.8, n_resamples=1000, rng=1, as_result=True)
    np.testing.assert_array_equal(out["equivalent"].values, res.equivalent)
    np.testing.assert_array_equal(out["pvalue_equivalence"].values, res.pvalue_equivalence)
    assert out.attrs["margin"] == res.metadata["margin"] == 0.8
    assert out["equivalent"].values.any()
    assert not out["equivalent"].values.all()


def test_cli_margin(capsys, tmp_path):
    frame = _groups(n_groups=3)
    path = tmp_path / "scores.csv"
    frame.to_csv(path, index=False)
    argv = ["bootstrap", str(path), "--item", "item", "--system", "system", "--score",
            "score", "--by", "fold", "--baseline", "zeta", "--margin", "0.4",
            "--alternative", "greater", "--n-resamples", "800", "--rng", "2"]  # fmt: skip
    assert cli.main([*argv, "--format", "csv"]) == 0
    got = pd.read_csv(io.StringIO(capsys.readouterr().out))
    expected = frame.paired.bootstrap(item="item", system="system", score="score", by="fold",
                                      baseline="zeta", margin=0.4, alternative="greater",
                                      n_resamples=800, rng=2)  # fmt: skip
    np.testing.assert_allclose(got["pvalue_noninferiority"], expected["pvalue_noninferiority"])
    assert got["noninferior"].tolist() == expected["noninferior"].tolist()
    assert cli.main([*argv]) == 0
    assert "margin=0.4" in capsys.readouterr().out


def test_metadata_and_no_margin_no_columns():
    res = bootstrap(_scores(), systems=SYSTEMS, n_resamples=200, rng=1)
    assert res.equivalent is None
    assert "equivalent" not in res.to_dataframe()
    with_margin = bootstrap(_scores(), systems=SYSTEMS, n_resamples=200, rng=1, margin=2)
    assert with_margin.metadata["margin"] == 2.0
    assert "equivalent" in with_margin.to_dataframe()


@pytest.mark.parametrize(
    ("value", "message"),
    [(-0.1, "`margin` must be finite and > 0; got -0.1"),
     (0, "`margin` must be finite and > 0; got 0"),
     (float("nan"), "`margin` must be finite"),
     ("wide", "`margin`")],
)  # fmt: skip
def test_bad_margins(value, message):
    with pytest.raises((ValueError, TypeError), match=re.escape(message)):
        bootstrap(_scores(), systems=SYSTEMS, n_resamples=100, margin=value)


def test_max_t_is_refused_with_a_margin():
    with pytest.raises(ValueError, match=r"`margin` cannot be combined with `adjust='max-t'`"):
        bootstrap(_scores(), systems=SYSTEMS, n_resamples=100, margin=0.2, adjust="max-t")


def test_docs_calibration_table_is_the_committed_json():
    data = json.loads(CALIBRATION.read_text())
    text = (ROOT / "docs" / "bootstrap.md").read_text()
    section = text[text.index("## Equivalence and non-inferiority") :]
    rows = re.findall(r"^\| (\w[\w-]*) \| (\w+) \|(( [0-9.]+ \|)+)$", section, re.MULTILINE)
    table = {(case, method): [float(v) for v in cells.split("|") if v.strip()]
             for case, method, cells, _ in rows}  # fmt: skip
    sizes = ("20", "50", "200")
    expected = {(case.replace("noninferiority", "non-inferiority"), method):
                [round(data["rates"][case][method][n], 4) for n in sizes]
                for case in data["rates"] for method in data["rates"][case]}  # fmt: skip
    assert table == expected
    assert f"{data['n_datasets']:,} data sets" in section
    assert f"{data['n_resamples']:,} resamples" in section
