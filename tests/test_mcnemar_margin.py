"""McNemar's ``margin``: non-inferiority and equivalence of two pass rates by Tango's (1998)
score test at the shifted nulls, against a restricted maximum likelihood computed from first
principles (reference/mcnemar/margin_restricted_mle.py), published Tango intervals
(reference/mcnemar/published.csv), its own interval's ends, and through every entry point;
the exact sizes of docs/mcnemar.md (reference/mcnemar/margin_calibration.py)."""

import csv
import json
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import xarray as xr

import pairedstats
from pairedstats import cli, mcnemar
from pairedstats.core.adjust import adjust_pvalues
from pairedstats.core.mcnemar import mcnemar_1d
from pairedstats.core.tango import tango_margin_pvalues

HERE = Path(__file__).parent
REFERENCE = HERE / "reference" / "mcnemar"
ROWS = json.loads((REFERENCE / "margin_restricted_mle.json").read_text())["rows"]

RNG = np.random.default_rng(41)
#: 300 items, three systems with pass rates near 0.70, 0.72 and 0.60, named out of order
SCORES = (RNG.random((300, 3)) < [0.70, 0.72, 0.60]).astype(float)
SYSTEMS = ["zeta", "alpha", "mid"]
PAIRS = [(0, 1), (0, 2), (1, 2)]


def _table(n, only_a, only_b):
    """A 0/1 array (a, b) of n items with those discordant counts; the concordant items
    split between both right and both wrong."""
    rest = n - only_a - only_b
    rows = [(1, 0)] * only_a + [(0, 1)] * only_b + [(1, 1)] * (rest // 2)
    rows += [(0, 0)] * (rest - rest // 2)
    return np.array(rows, dtype=float)


def _tidy(scores=SCORES, systems=SYSTEMS, **extra):
    n, k = scores.shape
    return pd.DataFrame({
        "item": np.repeat(np.arange(n), k), "system": np.tile(systems, n),
        "correct": scores.ravel(), **{c: np.repeat(v, k) for c, v in extra.items()},
    })  # fmt: skip


# ----------------------------------------------------------------------- the references
def test_core_pvalues_equal_the_restricted_mle_reference():
    cols = {k: np.array([r[k] for r in ROWS]) for k in ROWS[0] if not k.startswith("face")}
    for m in np.unique(cols["margin"]):
        at = cols["margin"] == m
        p_above, p_below = tango_margin_pvalues(
            cols["only_a"][at], cols["only_b"][at], cols["n_items"][at], float(m)
        )
        np.testing.assert_allclose(p_above, cols["p_above"][at], rtol=1e-9, atol=1e-15)
        np.testing.assert_allclose(p_below, cols["p_below"][at], rtol=1e-9, atol=1e-15)


#: every third reference row with at least 2 items (the method's least; the core takes 1)
_METHOD_ROWS = [r for r in ROWS[::3] if r["n_items"] >= 2]


@pytest.mark.parametrize(
    "row", _METHOD_ROWS, ids=lambda r: "{n_items}-{only_a}-{only_b}-{margin}".format(**r)
)
def test_method_pvalues_equal_the_restricted_mle_reference(row):
    x = _table(row["n_items"], row["only_a"], row["only_b"])
    m = row["margin"]
    got = {
        alt: mcnemar(x, systems=["mid", "alpha"], margin=m, alternative=alt)
        for alt in ("greater", "less", "two-sided")
    }
    close = dict(rel=1e-9, abs=1e-15)
    assert got["greater"].pvalue_noninferiority[0, 0] == pytest.approx(row["p_above"], **close)
    assert got["less"].pvalue_noninferiority[0, 0] == pytest.approx(row["p_below"], **close)
    tost = max(row["p_above"], row["p_below"])
    assert got["two-sided"].pvalue_equivalence[0, 0] == pytest.approx(tost, **close)
    one = mcnemar_1d(x[:, 0], x[:, 1], margin=m)
    assert (one.p_above, one.p_below) == pytest.approx((row["p_above"], row["p_below"]), **close)


def test_the_reference_covers_interior_and_boundary_mles():
    faces = {r["face_above"] for r in ROWS} | {r["face_below"] for r in ROWS}
    assert faces == {None, "low", "concordant"}
    assert len(ROWS) == 138


def _published():
    with open(REFERENCE / "published.csv", newline="") as fh:
        rows = list(csv.DictReader(fh))
    # the margin's tests reach the ends below 0 (lows) and above 0 (highs)
    return [r for r in rows if (r["quantity"] == "tango_low" and float(r["published"]) < 0)
            or (r["quantity"] == "tango_high" and float(r["published"]) > 0)]  # fmt: skip


@pytest.mark.parametrize(
    "row", _published(), ids=lambda r: f"{r['both']}-{r['only_first']}-{r['quantity']}"
)
def test_published_tango_intervals_bracket_the_margin_decision(row):
    # the source's difference is first - second: system b is its first condition. At the
    # interval's end the one-sided p-value is (1 - level) / 2, so a margin just past the
    # printed end (by half its last digit) decides one way and just inside it the other.
    both, first, second, neither = (int(row[k]) for k in ("both", "only_first", "only_second",
                                                           "neither"))  # fmt: skip
    pairs = [(1, 1)] * both + [(0, 1)] * first + [(1, 0)] * second + [(0, 0)] * neither
    x = np.array(pairs, dtype=float)
    level = float(row["confidence_level"])
    end = float(row["published"])
    half = 0.5 * 10.0 ** -len(row["published"].split(".")[1])
    low = row["quantity"] == "tango_low"
    alternative = "greater" if low else "less"  # one-sided at (1 + level) / 2
    decide = {}
    for m in (abs(end) - half, abs(end) + half):
        res = mcnemar(x, margin=m, alternative=alternative, confidence_level=(1 + level) / 2)
        decide[m] = bool(res.noninferior[0, 0])
    assert list(decide.values()) == [False, True]


@pytest.mark.parametrize("level", [0.8, 0.9, 0.95, 0.99])
def test_at_the_interval_ends_the_one_sided_pvalue_is_half_the_level_left(level):
    two = mcnemar(SCORES, systems=SYSTEMS, confidence_level=level)
    for c in range(3):
        low, high = two.ci_low[0, c], two.ci_high[0, c]
        if low < 0:
            res = mcnemar(SCORES, systems=SYSTEMS, margin=-low, alternative="greater")
            assert res.pvalue_noninferiority[0, c] == pytest.approx((1 - level) / 2, rel=1e-9)
        if high > 0:
            res = mcnemar(SCORES, systems=SYSTEMS, margin=high, alternative="less")
            assert res.pvalue_noninferiority[0, c] == pytest.approx((1 - level) / 2, rel=1e-9)
    one = mcnemar(SCORES, systems=SYSTEMS, confidence_level=level, alternative="greater")
    for c in np.flatnonzero(one.ci_low[0] < 0):
        res = mcnemar(SCORES, systems=SYSTEMS, margin=-one.ci_low[0, c], alternative="greater")
        assert res.pvalue_noninferiority[0, c] == pytest.approx(1 - level, rel=1e-9)


# -------------------------------------------------------------------- the decision columns
@pytest.mark.parametrize("m", [0.03, 0.08, 0.15])
def test_decisions_read_the_pvalues_and_match_the_interval_rule(m):
    alpha = 0.05
    eq = mcnemar(SCORES, systems=SYSTEMS, margin=m)
    np.testing.assert_array_equal(eq.equivalent, eq.pvalue_equivalence < alpha)
    assert eq.noninferior is None
    assert eq.pvalue_noninferiority is None
    # equivalence at alpha: the 1 - 2 alpha interval inside (-m, m)
    inner = mcnemar(SCORES, systems=SYSTEMS, confidence_level=1 - 2 * alpha)
    np.testing.assert_array_equal(eq.equivalent, (inner.ci_low > -m) & (inner.ci_high < m))
    ni = mcnemar(SCORES, systems=SYSTEMS, margin=m, alternative="greater")
    np.testing.assert_array_equal(ni.noninferior, ni.pvalue_noninferiority < alpha)
    np.testing.assert_array_equal(ni.noninferior, ni.ci_low > -m)  # the one-sided bound
    assert ni.equivalent is None
    frame = ni.to_dataframe()
    assert {"noninferior", "pvalue_noninferiority"} <= set(frame.columns)
    assert "equivalent" not in frame.columns
    assert "margin=" + str(m) in str(ni)
    assert ni.metadata["margin"] == m
    # the p-value of the test of no difference, the interval and the counts are unchanged
    plain = mcnemar(SCORES, systems=SYSTEMS, alternative="greater")
    for column in ("pvalue", "ci_low", "ci_high", "only_a", "only_b"):
        np.testing.assert_array_equal(getattr(ni, column), getattr(plain, column))
    assert "equivalent" not in plain.to_dataframe().columns


def test_the_decisions_on_a_table_whose_answers_are_known():
    # 1000 items, 40 discordant each way: b - a = 0, a tight interval well inside 0.05
    x = _table(1000, 40, 40)
    res = mcnemar(x, margin=0.05)
    assert bool(res.equivalent[0, 0])
    assert res.pvalue_equivalence[0, 0] < 1e-4
    assert not bool(mcnemar(x, margin=0.01).equivalent[0, 0])
    # b 10 points lower: not non-inferior at a margin of 5 points, non-inferior at 20
    y = _table(1000, 120, 20)
    assert not bool(mcnemar(y, margin=0.05, alternative="greater").noninferior[0, 0])
    assert bool(mcnemar(y, margin=0.2, alternative="greater").noninferior[0, 0])
    # lower is better: b's 10 points less is non-inferior at any margin
    assert bool(mcnemar(y, margin=0.01, alternative="less").noninferior[0, 0])


@pytest.mark.parametrize("adjust", ["holm", "fdr_bh"])
def test_adjust_adjusts_the_margin_pvalues_and_the_decision_reads_them(adjust):
    res = mcnemar(SCORES, systems=SYSTEMS, margin=0.1, adjust=adjust)
    np.testing.assert_array_equal(
        res.pvalue_equivalence_adjusted, adjust_pvalues(res.pvalue_equivalence, adjust)
    )
    np.testing.assert_array_equal(res.equivalent, res.pvalue_equivalence_adjusted < 0.05)
    ni = mcnemar(SCORES, systems=SYSTEMS, margin=0.1, adjust=adjust, alternative="greater")
    np.testing.assert_array_equal(ni.noninferior, ni.pvalue_noninferiority_adjusted < 0.05)


def test_the_test_of_the_margin_does_not_depend_on_method():
    got = [
        mcnemar(SCORES, systems=SYSTEMS, margin=0.08, method=method).pvalue_equivalence
        for method in ("exact", "mid-p", "asymptotic")
    ]
    np.testing.assert_array_equal(got[0], got[1])
    np.testing.assert_array_equal(got[0], got[2])


def test_swapping_a_and_b_mirrors_the_tests():
    ab = {alt: mcnemar(SCORES[:, :2], systems=["zeta", "alpha"], margin=0.06, alternative=alt)
          for alt in ("two-sided", "greater", "less")}  # fmt: skip
    ba = {alt: mcnemar(SCORES[:, 1::-1], systems=["alpha", "zeta"], margin=0.06,
                       alternative=alt) for alt in ("two-sided", "greater", "less")}  # fmt: skip
    assert ba["two-sided"].pvalue_equivalence[0, 0] == pytest.approx(
        ab["two-sided"].pvalue_equivalence[0, 0], rel=1e-12
    )
    for one, other in (("greater", "less"), ("less", "greater")):
        assert ba[one].pvalue_noninferiority[0, 0] == pytest.approx(
            ab[other].pvalue_noninferiority[0, 0], rel=1e-12
        )


# ----------------------------------------------------------------------- the entry points
def test_by_groups_with_shuffled_rows_equal_single_calls():
    other = (RNG.random((300, 3)) < [0.5, 0.52, 0.55]).astype(float)
    tidy = pd.concat([_tidy().assign(fold="zz"), _tidy(other).assign(fold="aa")])
    tidy = tidy.sample(frac=1.0, random_state=5).reset_index(drop=True)
    keys = dict(item="item", system="system", score="correct", margin=0.07, adjust="holm")
    whole = tidy.paired.mcnemar(by="fold", **keys)
    columns = ["system_a", "system_b", "difference", "equivalent", "pvalue_equivalence",
               "pvalue_equivalence_adjusted"]  # fmt: skip
    for key, scores in (("zz", SCORES), ("aa", other)):
        part = whole[whole.fold == key][columns].reset_index(drop=True)
        assert len(part) == 3
        # the group's own call, and the array of its scores; the systems' order (so each
        # pair's orientation) may differ: an equivalence p-value is the same either way
        for single in (tidy[tidy.fold == key].paired.mcnemar(**keys),
                       mcnemar(scores, systems=SYSTEMS, margin=0.07,
                               adjust="holm").to_dataframe()):  # fmt: skip
            rows = {(a, b): r for a, b, r in zip(single.system_a, single.system_b,
                                                 single.itertuples())}  # fmt: skip
            for r in part.itertuples():
                same = rows.get((r.system_a, r.system_b))
                other_way = rows.get((r.system_b, r.system_a))
                found = same if same is not None else other_way
                sign = 1 if same is not None else -1
                assert r.difference == pytest.approx(sign * found.difference, abs=1e-15)
                assert r.equivalent == found.equivalent
                for c in ("pvalue_equivalence", "pvalue_equivalence_adjusted"):
                    assert getattr(r, c) == pytest.approx(getattr(found, c), rel=1e-12)


def test_dataset_road():
    data = np.stack([SCORES, 1 - SCORES[::-1]])
    ds = xr.Dataset({"correct": (("fold", "item", "system"), data)},
                    coords={"fold": ["late", "early"], "system": SYSTEMS})  # fmt: skip
    out = ds.paired.mcnemar(baseline="mid", margin=0.1, alternative="greater")
    assert dict(out["pvalue_noninferiority"].sizes) == {"fold": 2, "comparison": 2}
    for f, scores in enumerate((SCORES, 1 - SCORES[::-1])):
        alone = mcnemar(scores, systems=SYSTEMS, baseline="mid", margin=0.1,
                        alternative="greater")  # fmt: skip
        np.testing.assert_array_equal(out["pvalue_noninferiority"].isel(fold=f).values,
                                      alone.pvalue_noninferiority[0])  # fmt: skip
        np.testing.assert_array_equal(out["noninferior"].isel(fold=f).values,
                                      alone.noninferior[0])  # fmt: skip


def test_cli_margin(tmp_path, capsys):
    path = tmp_path / "outcomes.csv"
    _tidy().to_csv(path, index=False)
    argv = ["mcnemar", str(path), "--item", "item", "--system", "system", "--score",
            "correct", "--baseline", "alpha", "--margin", "0.08", "--format", "json"]  # fmt: skip
    assert cli.main(argv) == 0
    rows = json.loads(capsys.readouterr().out)["rows"]
    expected = mcnemar(SCORES, systems=SYSTEMS, baseline="alpha", margin=0.08)
    assert [r["pvalue_equivalence"] for r in rows] == pytest.approx(
        expected.pvalue_equivalence[0].tolist(), rel=1e-12
    )
    assert [r["equivalent"] for r in rows] == expected.equivalent[0].tolist()
    assert cli.main([*argv[:-2], "--alternative", "greater"]) == 0
    text = capsys.readouterr().out
    assert "noninferior" in text
    assert "margin=0.08" in text


def test_clustered_margin_is_the_rao_scott_inversion_of_the_clustered_interval():
    clusters = np.arange(300) // 5
    level = 0.9
    res = mcnemar(SCORES, systems=SYSTEMS, method="asymptotic", cluster=clusters,
                  confidence_level=level)  # fmt: skip
    assert (res.design_effect > 1).any()
    for c in range(len(PAIRS)):
        low = res.ci_low[0, c]
        if low < 0:
            one = mcnemar(SCORES, systems=SYSTEMS, method="asymptotic", cluster=clusters,
                          margin=-low, alternative="greater")  # fmt: skip
            assert one.pvalue_noninferiority[0, c] == pytest.approx((1 - level) / 2, rel=1e-9)
        p = tango_margin_pvalues(res.only_a[0, c], res.only_b[0, c], 300, 0.1,
                                 res.design_effect[0, c])  # fmt: skip
        got = mcnemar(SCORES, systems=SYSTEMS, method="asymptotic", cluster=clusters,
                      margin=0.1)  # fmt: skip
        assert got.pvalue_equivalence[0, c] == max(p)
    # clusters of one item: the unclustered numbers
    single = mcnemar(SCORES, systems=SYSTEMS, method="asymptotic", cluster=np.arange(300),
                     margin=0.1)  # fmt: skip
    plain = mcnemar(SCORES, systems=SYSTEMS, margin=0.1)
    np.testing.assert_array_equal(single.pvalue_equivalence, plain.pvalue_equivalence)


@pytest.mark.parametrize(
    ("margin", "error", "match"),
    [
        (0, ValueError, r"`margin` must be finite and > 0; got 0.0"),
        (-0.05, ValueError, r"`margin` must be finite and > 0; got -0.05"),
        (float("nan"), ValueError, r"`margin` must be finite and > 0; got nan"),
        (1, ValueError, r"`margin` must be < 1: .*pass rates.*; got 1.0"),
        (5.0, ValueError, r"`margin` must be < 1: .*; got 5.0"),
        ("0.1", TypeError, r"`margin` must be a real number; got '0.1'"),
        (True, TypeError, r"`margin` must be a real number; got True"),
    ],
)
def test_bad_margins_are_refused_naming_the_keyword(margin, error, match):
    with pytest.raises(error, match=match):
        mcnemar(SCORES, systems=SYSTEMS, margin=margin)
    with pytest.raises(error, match=match):
        _tidy().paired.mcnemar(item="item", system="system", score="correct", margin=margin)


# --------------------------------------------------------------------------- calibration
def test_the_docs_table_of_sizes_equals_the_committed_calibration():
    sizes = json.loads((REFERENCE / "margin_calibration.json").read_text())
    text = (HERE.parent / "docs" / "mcnemar.md").read_text()
    section = text.split("## Equivalence and non-inferiority", 1)[1].split("\n## ", 1)[0]
    table = [line for line in section.splitlines() if re.match(r"\|\s*\d", line)]
    clustered = json.loads((REFERENCE / "margin_clustered_size.json").read_text())
    expected = (
        [
            f"| {r['n_items']} ({r['n_clusters']} clusters) | "
            f"{'none' if r['kappa'] is None else format(r['kappa'], 'g')} | "
            f"{r['mean_design_effect']:.2f} | {r['size_clustered']:.4f} | "
            f"{r['size_ignoring_clusters']:.4f} |"
            for r in clustered["rows"]
        ]
        + [
            f"| {r['n_items']} | {r['discordance']:.2f} | {r['margin']:.2f} | "
            f"{r['size_noninferiority']:.4f} | {r['size_equivalence']:.4f} |"
            for r in sizes["rows"]
        ]
        + [
            f"| {r['n_items']} | {r['margin']:.2f} | {r['max_size_noninferiority']:.4f} "
            f"({r['at_discordance_noninferiority']:.2f}) | {r['max_size_equivalence']:.4f} "
            f"({r['at_discordance_equivalence']:.2f}) |"
            for r in sizes["worst"]
        ]
    )
    assert table == expected
    assert len(sizes["rows"]) == 18
    assert len(sizes["worst"]) == 6
    assert len(clustered["rows"]) == 6
    # the sizes are what the package's test gives today
    for r in sizes["rows"][:3]:
        assert r["size_noninferiority"] == pytest.approx(
            _exact_size(r["n_items"], r["discordance"], r["margin"]), abs=1e-12
        )


def _exact_size(n, discordance, m):
    """Non-inferiority's size at H0's boundary b - a = -m by enumeration, recomputed."""
    from scipy import stats

    y, x = np.array([(y, x) for y in range(n + 1) for x in range(n + 1 - y)]).T
    p_a, p_b = (discordance + m) / 2, (discordance - m) / 2
    weight = stats.multinomial.pmf(
        np.column_stack([y, x, n - x - y]), n, [p_a, p_b, 1 - discordance]
    )
    p_above, _ = tango_margin_pvalues(y, x, n, m)
    return float(np.sum(weight[p_above < 0.05]))


def test_the_package_exports_the_margin_columns():
    res = pairedstats.mcnemar(SCORES, systems=SYSTEMS, margin=0.1)
    assert res.pvalue_columns[-4:] == (
        "pvalue_equivalence", "pvalue_equivalence_adjusted", "pvalue_noninferiority",
        "pvalue_noninferiority_adjusted",
    )  # fmt: skip
