"""The signed-rank test against a margin (``margin=``): R's ``wilcox.test(b, a, paired=TRUE,
mu=-m, alternative="greater")`` and ``mu=m, "less"`` reproduced (tests/reference/signrank/
margin_r.R), the zeros of decimal scores at the margin read as exact arithmetic does (R on the
scores as integers; exact enumeration with fractions), the decision columns, the roads
(DataFrame with ``by=``, xarray, command line), swapping a and b, bad margins, and the
simulated sizes of docs/signrank.md (margin_calibration.py)."""

import importlib.util
import io
import itertools
import json
import math
import warnings
from fractions import Fraction
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import xarray as xr
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.data import assert_same_table

from pairedstats import SignrankConfidenceWarning, SignrankPassFailWarning, cli, signrank
from pairedstats.core.signrank_margin import signrank_margin_pvalues

ROOT = Path(__file__).resolve().parents[1]
REF = ROOT / "tests" / "reference" / "signrank"
R = json.loads((REF / "margin_r.json").read_text())
CASES = R["cases"]
_METHOD = {"auto": "auto", "TRUE": "exact", "FALSE": "asymptotic"}
SYSTEMS = ["zeta", "alpha"]  # a, then b: b - a is alpha - zeta


def _data(case, sets="datasets"):
    d = R[sets][case["dataset"]]
    return np.array(d["a"]), np.array(d["b"])


def _run(scores, **keywords):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SignrankConfidenceWarning)
        warnings.simplefilter("ignore", SignrankPassFailWarning)
        return signrank(scores, **keywords)


def _margin_tests(a, b, margin, **keywords):
    """``(p_above, p_below, p_equivalence)`` and the decisions, by the public function."""
    x = np.column_stack([a, b])
    out = {}
    for alternative, column in (("greater", "noninferior"), ("less", "noninferior"),
                                ("two-sided", "equivalent")):  # fmt: skip
        res = _run(x, systems=SYSTEMS, margin=margin, alternative=alternative, **keywords)
        name = "pvalue_equivalence" if column == "equivalent" else "pvalue_noninferiority"
        out[alternative] = (getattr(res, name)[0, 0], getattr(res, column)[0, 0])
    return out


def _exact(method: str) -> bool:
    return "exact" in method


def _case_id(case):
    return f"{case['dataset']}-m{case['margin']:g}-{case['exact']}-{case['correct']}"


def test_reference_covers_what_it_should():
    assert len(CASES) >= 120
    sizes = {len(d["a"]) for d in R["datasets"].values()}
    assert (min(sizes), max(sizes)) == (6, 60)
    sides = [c[s] for c in CASES for s in ("above", "below")]
    methods = {s["method"] for s in sides}
    assert methods == {"Wilcoxon signed rank exact test", "Wilcoxon signed rank test",
                       "Wilcoxon signed rank test with continuity correction"}  # fmt: skip
    auto = [c[s] for c in CASES if c["exact"] == "auto" for s in ("above", "below")]
    assert 0 < sum(_exact(s["method"]) for s in auto) < len(auto)
    assert sum(s["n_zeros"] > 0 for s in sides) >= 10  # zeros after shifting
    assert all(c["margin"] > 0 for c in CASES)
    assert {c["correct"] for c in CASES} == {True, False}


@pytest.mark.parametrize("case", CASES, ids=_case_id)
def test_matches_r(case):
    a, b = _data(case)
    m = case["margin"]
    kw = dict(method=_METHOD[case["exact"]], correction=case["correct"])
    got = _margin_tests(a, b, m, **kw)
    alpha = 0.05
    checked = {}
    for alternative, side in (("greater", "above"), ("less", "below")):
        ref = case[side]
        if case["exact"] == "TRUE" and not _exact(ref["method"]):
            # ties or zeros: R falls back to normal, pairedstats stays exact (conditional
            # on the midranks); the binary-grid data are exact fractions: enumerate
            if len(a) <= 16:
                sign = 1 if side == "above" else -1
                shifted = [Fraction(y) - Fraction(x) + sign * Fraction(m) for x, y in zip(a, b)]
                expected = _enumerated(shifted, alternative)
                np.testing.assert_allclose(got[alternative][0], float(expected), rtol=1e-12)
                checked["enumerated"] = True
            continue
        rtol = 1e-12 if _exact(ref["method"]) else 1e-10
        p, decided = got[alternative]
        np.testing.assert_allclose(p, ref["pvalue"], rtol=rtol)
        assert decided == (ref["pvalue"] < alpha)
        checked[side] = ref["pvalue"]
    if case["exact"] == "TRUE" and case["dataset"] == "grades12":
        assert "enumerated" in checked
    if len(checked) == 2:
        p, decided = got["two-sided"]
        np.testing.assert_allclose(p, max(checked.values()), rtol=1e-10)
        assert decided == (max(checked.values()) < alpha)
    # the core function gives the two p-values directly
    p_above, p_below = signrank_margin_pvalues(a, b, m, precision=2.0**-53, **kw)
    assert (p_above, p_below) == (got["greater"][0], got["less"][0])


def _enumerated(shifted, alternative):
    """The exact conditional p-value of the signed-rank test of exact differences: zeros
    dropped, sizes ranked by exact equality (midranks), every one of the 2^n sign
    assignments counted."""
    x = [v for v in shifted if v != 0]
    sizes = sorted(abs(v) for v in x)
    rank = {s: Fraction(2 * sizes.index(s) + sizes.count(s) + 1, 2) for s in sizes}
    ranks = [rank[abs(v)] for v in x]
    observed = sum(r for r, v in zip(ranks, x) if v > 0)
    sums = [sum(r for r, s in zip(ranks, signs) if s) for signs in
            itertools.product((0, 1), repeat=len(ranks))]  # fmt: skip
    if alternative == "greater":
        return Fraction(sum(s >= observed for s in sums), len(sums))
    return Fraction(sum(s <= observed for s in sums), len(sums))


def _decimals(seed, n, m_hundredths):
    """Scores in hundredths (as decimals and as exact fractions) with differences -m, +m."""
    rng = np.random.default_rng(seed)
    a = rng.integers(20, 90, n)
    d = np.concatenate([[-m_hundredths] * 3, [m_hundredths] * 2,
                        rng.integers(-25, 26, n - 5)])  # fmt: skip
    b = a + rng.permutation(d)
    exact = [(Fraction(int(x), 100), Fraction(int(y), 100)) for x, y in zip(a, b)]
    return a / 100, b / 100, exact


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_zeros_at_the_margin_are_those_of_exact_arithmetic(seed):
    a, b, exact = _decimals(seed, 12, 10)
    m = Fraction(1, 10)
    assert np.count_nonzero(b - a + 0.1 == 0) < 3  # floating point misses some zeros
    p_above, p_below = signrank_margin_pvalues(a, b, 0.1, precision=2.0**-53, method="exact",
                                               correction=True)  # fmt: skip
    expected_above = _enumerated([y - x + m for x, y in exact], "greater")
    expected_below = _enumerated([y - x - m for x, y in exact], "less")
    np.testing.assert_allclose(p_above, float(expected_above), rtol=1e-12)
    np.testing.assert_allclose(p_below, float(expected_below), rtol=1e-12)


def test_the_documented_example_scores_0_8_and_0_7_with_margin_0_1():
    a = np.array([0.8, 0.1, 0.2, 0.3, 0.4])
    b = np.array([0.7, 0.6, 1.2, 0.9, 1.5])
    assert (b - a + 0.1)[0] != 0  # R's -8.3e-17
    got = signrank_margin_pvalues(a, b, 0.1, precision=2.0**-53, method="exact",
                                  correction=True)  # fmt: skip
    decimals = zip(["0.8", "0.1", "0.2", "0.3", "0.4"], ["0.7", "0.6", "1.2", "0.9", "1.5"])
    exact = [Fraction(y) - Fraction(x) for x, y in decimals]
    assert got[0] == float(_enumerated([d + Fraction(1, 10) for d in exact], "greater"))
    assert got[0] == 1 / 16  # four differences left, all positive
    assert got[1] == float(_enumerated([d - Fraction(1, 10) for d in exact], "less"))


@pytest.mark.parametrize("case", R["decimal_cases"], ids=_case_id)
def test_decimals_give_rs_test_of_the_integers(case):
    a, b = _data(case, "decimal_datasets")
    got = _margin_tests(a, b, case["margin"], method=_METHOD[case["exact"]], correction=True)
    scaled = case["scaled"]
    np.testing.assert_allclose(got["greater"][0], scaled["above"]["pvalue"], rtol=1e-10)
    np.testing.assert_allclose(got["less"][0], scaled["below"]["pvalue"], rtol=1e-10)
    # R on the decimals as given finds fewer zeros, an ulp off 0, and another p-value
    as_given = case["as_given"]
    assert as_given["above"]["n_zeros"] < scaled["above"]["n_zeros"]
    assert not math.isclose(got["greater"][0], as_given["above"]["pvalue"], rel_tol=1e-6)


@pytest.mark.parametrize("method", ["auto", "exact", "asymptotic"])
def test_tenths_give_the_test_of_the_integers(method):
    rng = np.random.default_rng(5)
    a = rng.integers(0, 10, 25).astype(float)
    b = a + rng.integers(-3, 4, 25)
    for alternative in ("two-sided", "greater", "less"):
        kw = dict(systems=SYSTEMS, alternative=alternative, method=method)
        whole = _run(np.column_stack([a, b]), margin=1, **kw)
        tenths = _run(np.column_stack([a, b]) / 10, margin=0.1, **kw)
        single = _run((np.column_stack([a, b]) / 10).astype(np.float32), margin=0.1, **kw)
        for name in whole.columns:
            if name.startswith(("pvalue", "equivalent", "noninferior")):
                for scaled in (tenths, single):  # float32 read at its own precision
                    np.testing.assert_allclose(getattr(scaled, name), getattr(whole, name),
                                               rtol=1e-12, err_msg=name)  # fmt: skip


def test_columns_metadata_and_the_main_test_unchanged():
    a, b = _data(CASES[0])
    x = np.column_stack([a, b])
    plain = _run(x, systems=SYSTEMS)
    res = _run(x, systems=SYSTEMS, margin=0.25)
    for name in plain.columns:
        np.testing.assert_array_equal(getattr(res, name), getattr(plain, name))
    assert plain.equivalent is None
    assert "equivalent" not in plain.to_dataframe()
    frame = res.to_dataframe()
    assert {"equivalent", "pvalue_equivalence"} <= set(frame.columns)
    assert "noninferior" not in frame.columns
    assert frame.attrs["margin"] == 0.25
    assert "margin=0.25" in str(res)
    one_sided = _run(x, systems=SYSTEMS, margin=0.25, alternative="less").to_dataframe()
    assert {"noninferior", "pvalue_noninferiority"} <= set(one_sided.columns)
    assert "equivalent" not in one_sided.columns
    assert frame["equivalent"].dtype == bool


def test_the_decision_reads_alpha_as_one_minus_the_confidence_level():
    rng = np.random.default_rng(9)
    a = rng.uniform(0, 1, 40)
    x = np.column_stack([a, a - 0.15 + rng.normal(0, 0.3, 40)])
    for level in (0.9, 0.95, 0.99):
        res = _run(x, systems=SYSTEMS, margin=0.3, alternative="greater",
                   confidence_level=level)  # fmt: skip
        p = res.pvalue_noninferiority[0, 0]
        assert res.noninferior[0, 0] == (p < 1 - level)
    assert 0.01 < p < 0.1  # the three levels decide differently


_DIFFS = st.lists(st.integers(-8, 8), min_size=3, max_size=30)


@settings(max_examples=60, deadline=None)
@given(_DIFFS, st.sampled_from([0.25, 0.5, 1.0, 0.3]),
       st.sampled_from(["auto", "exact", "asymptotic"]), st.booleans())  # fmt: skip
def test_swapping_a_and_b_mirrors(diffs, margin, method, correction):
    a = np.linspace(0.1, 0.9, len(diffs))
    b = a + np.array(diffs) / 4
    kw = dict(method=method, correction=correction)
    forward = _margin_tests(a, b, margin, **kw)
    back = _margin_tests(b, a, margin, **kw)
    np.testing.assert_allclose(back["two-sided"][0], forward["two-sided"][0], rtol=1e-12)
    np.testing.assert_allclose(back["greater"][0], forward["less"][0], rtol=1e-12)
    np.testing.assert_allclose(back["less"][0], forward["greater"][0], rtol=1e-12)


def _tidy(seed=11, n=40):
    """Three systems on two collections, "zeta" half a point above the two others; every
    difference a multiple of 0.1 (zeros and ties at a margin of 0.2); rows shuffled."""
    rng = np.random.default_rng(seed)
    base = rng.integers(2, 8, n)
    frames = [pd.DataFrame({"query": [f"q{i}" for i in range(n)], "run": name,
                            "score": (base + offset + rng.integers(-2, 3, n)) / 10,
                            "collection": np.where(np.arange(n) % 3, "zeta", "alpha")})
              for name, offset in (("mid", 0), ("alpha", 0), ("zeta", 5))]  # fmt: skip
    frame = pd.concat(frames, ignore_index=True)
    return frame.sample(frac=1.0, random_state=3).reset_index(drop=True)


@pytest.mark.parametrize("alternative", ["two-sided", "greater"])
def test_dataframe_by_groups_equal_single_calls(alternative):
    df = _tidy()
    kw = dict(item="query", system="run", score="score")
    res = df.paired.signrank(**kw, by="collection", margin=0.2, alternative=alternative,
                             as_result=True)  # fmt: skip
    assert sorted(res.group_keys) == [("alpha",), ("zeta",)]
    wide = df.pivot(index="query", columns="run", values="score")
    coll = df.groupby("query")["collection"].first()
    name = "pvalue_equivalence" if alternative == "two-sided" else "pvalue_noninferiority"
    for g, (key,) in enumerate(res.group_keys):
        part = wide[coll == key]
        for c, (a, b) in enumerate(zip(res.label_a, res.label_b)):
            single = _run(part[[a, b]].to_numpy(), margin=0.2, alternative=alternative)
            assert getattr(res, name)[g, c] == getattr(single, name)[0, 0]
    decided = res.equivalent if alternative == "two-sided" else res.noninferior
    assert 0 < decided.sum() < decided.size


def test_dataset_road_equals_array_calls():
    scores = np.random.default_rng(4).normal(0, 1, (2, 30, 3)).round(2)
    scores[..., 1] += 0.3
    ds = xr.Dataset({"f1": (("fold", "item", "system"), scores)},
                    coords={"fold": [7, 3], "system": ["zeta", "mid", "alpha"]})  # fmt: skip
    res = ds.paired.signrank(baseline="zeta", margin=0.5)
    assert dict(res["pvalue_equivalence"].sizes) == {"fold": 2, "comparison": 2}
    for f in range(2):
        single = _run(scores[f], systems=["zeta", "mid", "alpha"], baseline="zeta", margin=0.5)
        np.testing.assert_array_equal(res["pvalue_equivalence"].values[f],
                                      single.pvalue_equivalence[0])  # fmt: skip
        np.testing.assert_array_equal(res["equivalent"].values[f], single.equivalent[0])


def test_command_line_equals_the_accessor(capsys, tmp_path):
    df = _tidy()
    path = tmp_path / "runs.csv"
    df.to_csv(path, index=False)
    argv = ["signrank", str(path), "--item", "query", "--system", "run", "--score", "score",
            "--by", "collection", "--margin", "0.2", "--alternative", "less"]  # fmt: skip
    assert cli.main([*argv, "--format", "csv"]) == 0
    got = pd.read_csv(io.StringIO(capsys.readouterr().out))
    expected = df.paired.signrank(item="query", system="run", score="score", by="collection",
                                  margin=0.2, alternative="less")  # fmt: skip
    assert "pvalue_noninferiority" in got.columns
    assert_same_table(got, expected)
    assert cli.main(argv) == 0
    assert "margin=0.2" in capsys.readouterr().out


@pytest.mark.parametrize(("margin", "error", "words"), [
    (0, ValueError, "`margin` must be finite and > 0; got 0.0"),
    (-0.1, ValueError, "`margin` must be finite and > 0; got -0.1"),
    (math.inf, ValueError, "`margin` must be finite and > 0; got inf"),
    (math.nan, ValueError, "`margin` must be finite and > 0; got nan"),
    ("0.1", TypeError, "`margin` must be a real number; got '0.1'"),
    (True, TypeError, "`margin` must be a real number; got True"),
])  # fmt: skip
def test_bad_margins_are_refused(margin, error, words):
    with pytest.raises(error) as info:
        signrank(np.arange(20.0).reshape(10, 2), margin=margin)
    assert words in str(info.value)


def test_command_line_refuses_a_word_as_margin(capsys, tmp_path):
    path = tmp_path / "runs.csv"
    _tidy().to_csv(path, index=False)
    argv = ["signrank", str(path), "--item", "query", "--system", "run", "--score", "score"]
    with pytest.raises(SystemExit):
        cli.main([*argv, "--margin", "wide"])
    assert "--margin" in capsys.readouterr().err


def _calibration():
    spec = importlib.util.spec_from_file_location("margin_calibration",
                                                  REF / "margin_calibration.py")  # fmt: skip
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_simulated_sizes_are_the_docs_table_and_at_most_alpha():
    calibration = _calibration()
    results = json.loads((REF / "margin_calibration.json").read_text())
    assert results["replicates"] >= 20_000
    assert {r["n"] for r in results["rows"]} == {10, 20, 50}
    page = (ROOT / "docs" / "signrank.md").read_text()
    assert calibration.table(results) in page
    bound = results["alpha"] + 2 * results["mc_se"]
    for row in results["rows"]:
        # the same replicates decided by scipy's wilcoxon on the shifted differences
        assert row["scipy_size_noninferiority"] == row["size_noninferiority"]
        assert row["scipy_size_equivalence"] == row["size_equivalence"]
        assert row["size_noninferiority"] <= bound
        assert row["size_equivalence"] <= bound
        assert row["size_noninferiority"] >= row["attainable"] - 4 * results["mc_se"]


@pytest.mark.parametrize("seed", range(4))
def test_equivalence_is_the_interval_at_twice_alpha_inside_the_margins(seed):
    # the test of the shifted differences and the Walsh-average interval (checked against R
    # in test_signrank.py) invert one another: equivalent at alpha = 0.05 exactly when the
    # 90% interval lies inside (-m, m), on the exact path and the normal one
    rng = np.random.default_rng(seed)
    for n in (6, 9, 15, 30, 49, 50, 70):
        m = float(rng.uniform(0.2, 1.0))
        a = rng.uniform(0, 1, n)
        x = np.column_stack([a, a + rng.normal(rng.uniform(-0.5, 0.5), 0.6, n)])
        for correction in (True, False):
            test = _run(x, margin=m, confidence_level=0.95, correction=correction)
            interval = _run(x, confidence_level=0.9, correction=correction)
            inside = -m < interval.ci_low[0, 0] and interval.ci_high[0, 0] < m
            assert test.equivalent[0, 0] == inside
