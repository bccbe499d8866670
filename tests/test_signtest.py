"""The paired sign test (``signtest``), held to scipy's ``binomtest`` (p-value and
Clopper-Pearson interval) on the signs counted from exact fractions, on every road: arrays,
tidy and wide DataFrames with ``by=``, Datasets, DataArrays and the command line; adjusted
p-values held to statsmodels; the exact size of the test by enumeration."""

from __future__ import annotations

import io
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
import xarray as xr
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats
from statsmodels.stats.multitest import multipletests

import pairedstats
from pairedstats import cli, signtest
from pairedstats.methods.signtest.run import binomial_pvalues

ALTERNATIVES = ("two-sided", "greater", "less")
#: Systems in an order that is not sorted, with labels that sort otherwise.
SYSTEMS = ["tuned", "base", "distilled"]


def _decimals(rng, n: int, step: int = 10) -> np.ndarray:
    """Scores ``k / step`` written as decimal strings (their exact values are fractions)."""
    return np.array([f"{k / step:.1f}" for k in rng.integers(0, 2 * step, size=n)])


def _case(seed: int, n: int = 25):
    """Three systems' scores as decimal strings (many ties, from a coarse grid), and the
    floats a user would hold, some computed with rounding (``0.1 * 3`` for ``0.3``)."""
    rng = np.random.default_rng(seed)
    text = np.column_stack([_decimals(rng, n) for _ in SYSTEMS])
    floats = text.astype(float)
    # a rounded copy of each value, as 3 * (x / 3): equal in exact arithmetic
    rounded = np.where(rng.random(floats.shape) < 0.5, 3 * (floats / 3), floats)
    return text, rounded


def _expected(text, a: int, b: int, alternative: str, level: float) -> dict:
    """The reference of one comparison: signs from exact fractions, scipy's binomtest."""
    da = [Fraction(x) for x in text[:, a]]
    db = [Fraction(x) for x in text[:, b]]
    wins = sum(y > x for x, y in zip(da, db))
    losses = sum(y < x for x, y in zip(da, db))
    out = {"wins": wins, "losses": losses, "n_zeros": len(da) - wins - losses}
    if wins + losses == 0:
        return {**out, "pvalue": 1.0, "ci_low": 0.0, "ci_high": 1.0}
    test = stats.binomtest(wins, wins + losses, 0.5, alternative=alternative)
    ci = test.proportion_ci(confidence_level=level, method="exact")
    return {**out, "pvalue": test.pvalue, "ci_low": ci.low, "ci_high": ci.high}


#: scipy's p-value is a sum of binomial masses (ours: twice a tail); its interval's ends are
#: roots found by brentq to about 2e-12 (ours: the beta quantiles they solve for).
_RTOL = {"pvalue": 1e-12, "ci_low": 1e-9, "ci_high": 1e-9}


def _assert_row(row, expected: dict) -> None:
    for name in ("wins", "losses", "n_zeros"):
        assert int(row[name]) == expected[name], name
    for name in ("pvalue", "ci_low", "ci_high"):
        np.testing.assert_allclose(float(row[name]), expected[name], rtol=_RTOL[name], atol=1e-15,
                                   err_msg=name)  # fmt: skip


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("alternative", ALTERNATIVES)
def test_array_equals_scipy_binomtest(seed, alternative):
    text, scores = _case(seed)
    level = (0.95, 0.9, 0.99)[seed % 3]
    res = signtest(scores, systems=SYSTEMS, alternative=alternative, confidence_level=level)
    frame = res.to_dataframe()
    for c, (a, b) in enumerate([(0, 1), (0, 2), (1, 2)]):
        row = frame.iloc[c]
        assert (row["system_a"], row["system_b"]) == (SYSTEMS[a], SYSTEMS[b])
        _assert_row(row, _expected(text, a, b, alternative, level))
        n = row["wins"] + row["losses"]
        assert row["win_rate"] == row["wins"] / n
        assert row["n_items"] == len(scores)


def _tidy(text, scores, site: str) -> pd.DataFrame:
    n = len(scores)
    items = [f"q{n - i}" for i in range(n)]  # items not in sorted order
    return pd.DataFrame({
        "site": site,
        "item": np.repeat(items, len(SYSTEMS)),
        "system": np.tile(SYSTEMS, n),
        "score": scores.ravel(),
    })  # fmt: skip


def test_dataframe_roads_and_by_equal_scipy():
    cases = {"north": _case(10), "south": _case(11, n=18)}
    tidy = pd.concat([_tidy(t, s, site) for site, (t, s) in cases.items()])
    tidy = tidy.sample(frac=1.0, random_state=3)  # rows in any order
    out = tidy.paired.signtest(item="item", system="system", score="score", by="site",
                               baseline="base", alternative="greater")  # fmt: skip
    assert len(out) == 4
    for site, (text, _) in cases.items():
        for other in ("tuned", "distilled"):
            row = out[(out["site"] == site) & (out["system_b"] == other)].iloc[0]
            assert row["system_a"] == "base"
            expected = _expected(text, 1, SYSTEMS.index(other), "greater", 0.95)
            _assert_row(row, expected)
    # wide: one row per item, one column per system
    text, scores = cases["north"]
    wide = pd.DataFrame(scores, columns=SYSTEMS)
    row = wide.paired.signtest(baseline="base").set_index("system_b").loc["distilled"]
    _assert_row(row, _expected(text, 1, 2, "two-sided", 0.95))


def test_dataset_and_dataarray_sweep_equal_scipy():
    cases = [_case(20), _case(21)]
    da = xr.DataArray(np.stack([s for _, s in cases]), dims=("fold", "item", "system"),
                      coords={"fold": ["f2", "f1"], "system": SYSTEMS}, name="acc")  # fmt: skip
    for res in (da.to_dataset().paired.signtest(baseline="base"),
                da.paired.signtest(baseline="base")):  # fmt: skip
        for f, (text, _) in enumerate(cases):
            cell = res.isel(fold=f).sel(system_b="tuned")
            _assert_row(
                {k: cell[k].item() for k in res.data_vars},
                _expected(text, 1, 0, "two-sided", 0.95),
            )


def test_cli_equals_scipy(tmp_path, capsys):
    text, scores = _case(30)
    path = tmp_path / "scores.csv"
    _tidy(text, scores, "x").to_csv(path, index=False)
    code = cli.main(["signtest", str(path), "--item", "item", "--system", "system",
                     "--score", "score", "--baseline", "distilled", "--alternative", "less",
                     "--confidence-level", "0.9", "--format", "csv"])  # fmt: skip
    assert code == 0
    out = pd.read_csv(io.StringIO(capsys.readouterr().out))
    row = out[out["system_b"] == "base"].iloc[0]
    _assert_row(row, _expected(text, 2, 1, "less", 0.9))


@pytest.mark.parametrize("method", ["holm", "bonferroni", "fdr_bh", "fdr_by"])
def test_adjusted_pvalues_equal_statsmodels(method):
    rng = np.random.default_rng(5)
    scores = rng.integers(0, 5, size=(40, 6)) + np.arange(6) * 0.25
    res = signtest(scores, adjust=method)
    expected = multipletests(res.pvalue[0], method=method)[1]
    np.testing.assert_allclose(res.pvalue_adjusted[0], expected, rtol=1e-12)
    assert res.metadata["adjust"] == method
    assert (res.significant(0.05).to_numpy() == (res.pvalue_adjusted < 0.05)).all()


def test_all_zeros_and_one_sided_ends():
    scores = np.array([[1, 1], [2, 2], [3, 3]])
    res = signtest(scores).to_dataframe().iloc[0]
    assert (res["wins"], res["losses"], res["n_zeros"]) == (0, 0, 3)
    assert np.isnan(res["win_rate"])
    assert (res["pvalue"], res["ci_low"], res["ci_high"]) == (1.0, 0.0, 1.0)
    every = signtest(np.array([[0, 1]] * 6), alternative="greater").to_dataframe().iloc[0]
    assert every["ci_high"] == 1.0
    assert every["pvalue"] == 0.5**6
    assert every["ci_low"] == pytest.approx(stats.binomtest(6, 6, alternative="greater")
                                            .proportion_ci().low, rel=1e-12)  # fmt: skip


def test_ties_by_the_rounding_of_the_scores_and_exact_integers():
    a = np.array([0.1 + 0.2, 0.7, 1.1, 2.5])
    b = np.array([0.3, 0.1 * 7, 1.1 + 1e-9, 2.5 - 1e-12])
    res = signtest(np.column_stack([a, b])).to_dataframe().iloc[0]
    # 0.1 + 0.2 vs 0.3 and 0.7 vs 0.1 * 7 are rounding; 1e-9 and 1e-12 are not
    assert (res["n_zeros"], res["wins"], res["losses"]) == (2, 1, 1)
    # integers are exact at any offset float64 holds: 2**52 and 2**52 + 1 differ
    big = np.array([[2.0**52, 2.0**52 + 1], [3.0, 3.0], [2.0**52 + 2, 2.0**52]])
    res = signtest(big).to_dataframe().iloc[0]
    assert (res["n_zeros"], res["wins"], res["losses"]) == (1, 1, 1)
    half = np.float16([0.51, 0.52])
    assert signtest(np.column_stack([half, half[::-1]])).n_zeros[0, 0] == 0


def test_swapping_a_and_b_mirrors_every_column():
    _text, scores = _case(40)
    ab = signtest(scores[:, :2], systems=["a", "b"]).to_dataframe().iloc[0]
    ba = signtest(scores[:, 1::-1], systems=["b", "a"]).to_dataframe().iloc[0]
    assert (ab["wins"], ab["losses"]) == (ba["losses"], ba["wins"])
    assert ab["win_rate"] == pytest.approx(1 - ba["win_rate"], abs=1e-15)
    assert ab["pvalue"] == ba["pvalue"]
    assert ab["ci_low"] == pytest.approx(1 - ba["ci_high"], abs=1e-12)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(-3, 3), min_size=2, max_size=40), st.sampled_from(ALTERNATIVES),
       st.floats(0.5, 0.999))  # fmt: skip
def test_any_signs_equal_scipy(diffs, alternative, level):
    a = np.zeros(len(diffs))
    res = signtest(np.column_stack([a, np.array(diffs) / 4]), alternative=alternative,
                   confidence_level=level).to_dataframe().iloc[0]  # fmt: skip
    text = np.column_stack([["0"] * len(diffs), [str(Fraction(d, 4)) for d in diffs]])
    _assert_row(res, _expected(text, 0, 1, alternative, level))


def test_the_size_of_the_test_is_at_most_alpha():
    """First principles: under the null each of the 2**n sign patterns is equally likely, so
    the size of the test at level alpha is the binomial mass of the counts it rejects; the
    exact test holds it at or below alpha for every n (the figures of docs/signtest.md)."""
    for n in range(1, 81):
        k = np.arange(n + 1)
        mass = stats.binom.pmf(k, n, 0.5)
        for alternative in ALTERNATIVES:
            p = binomial_pvalues(k, np.full_like(k, n), alternative)
            for alpha in (0.01, 0.05, 0.1):
                assert mass[p <= alpha].sum() <= alpha * (1 + 1e-12)
    size = stats.binom.pmf(np.arange(31), 30, 0.5)[binomial_pvalues(
        np.arange(31), np.full(31, 30), "two-sided") <= 0.05].sum()  # fmt: skip
    assert round(size, 4) == 0.0428


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"adjust": "sidak"}, ValueError, r"`adjust` must be one of"),
        ({"confidence_level": 1.5}, ValueError, r"`confidence_level` must be strictly between"),
        ({"alternative": "bigger"}, ValueError, r"`alternative` must be one of"),
        ({"baseline": "nobody"}, ValueError, r"`baseline` must be one of the systems"),
        ({"replicate": "seed"}, TypeError, r"signtest does not take `replicate`"),
    ],
)
def test_bad_keywords_are_refused(kwargs, error, match):
    frame = pd.DataFrame(np.arange(12.0).reshape(4, 3), columns=SYSTEMS)
    with pytest.raises(error, match=match):
        frame.paired.signtest(**kwargs)


def test_bad_scores_are_refused_with_counts():
    frame = pd.DataFrame({"a": [1.0, np.nan, 3.0, 4.0, 0.0], "b": [2.0, 2.0, np.nan, 1.0, 0.0]})
    with pytest.raises(ValueError, match=r"found 2 NaN or missing score"):
        frame.paired.signtest()
    with pytest.warns(pairedstats.DroppedDataWarning, match=r"dropped 2 of 5 item"):
        kept = frame.paired.signtest(missing="complete").iloc[0]
    assert (kept["n_items"], kept["n_dropped"], kept["n_zeros"]) == (3, 2, 1)
    with pytest.raises((TypeError, ValueError), match=r"numeric"):
        pd.DataFrame({"a": ["x", "y"], "b": [1.0, 2.0]}).paired.signtest()


def test_exported_and_documented():
    assert pairedstats.signtest is signtest
    assert "SigntestResult" in pairedstats.__all__
    assert "win_rate" in pairedstats.signtest.__doc__


def test_the_calibration_table_of_the_docs():
    """docs/signtest.md's table, recomputed by enumeration from the package's p-values and
    intervals."""
    from pathlib import Path

    from pairedstats.methods.signtest.run import clopper_pearson

    page = (Path(__file__).resolve().parents[1] / "docs" / "signtest.md").read_text()
    for n in (10, 20, 30, 50, 100, 200):
        k, total = np.arange(n + 1), np.full(n + 1, n)
        mass = stats.binom.pmf(k, n, 0.5)
        two = mass[binomial_pvalues(k, total, "two-sided") <= 0.05].sum()
        one = mass[binomial_pvalues(k, total, "greater") <= 0.05].sum()
        low, high = clopper_pearson(k, total, 0.95, "two-sided")
        grid = np.linspace(0.001, 0.999, 999)
        cover = [stats.binom.pmf(k, n, p)[(low <= p) & (p <= high)].sum() for p in grid]
        row = f"| {n} | {two:.4f} | {one:.4f} | {min(cover):.4f} | {np.mean(cover):.4f} |"
        assert row in page, row
