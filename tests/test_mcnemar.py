"""The McNemar method: the core's numbers through every entry point (arrays, tidy and wide
tables, Datasets, the command line), 0/1 scores only, missing values, every alternative,
adjust, by= and cluster=, the intervals at the edges, swap and relabelling properties, and
published worked examples (Tango's interval and the p-values, reference/mcnemar/published.csv)
to their printed digits."""

import csv
import json
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import xarray as xr
from hypothesis import given, settings
from hypothesis import strategies as st

import pairedstats
from pairedstats import McNemarResult, cli, mcnemar, mcnemar_design
from pairedstats.core import mcnemar as core
from pairedstats.core.adjust import PVALUE_METHODS, adjust_pvalues
from pairedstats.inputs import design_from_array
from pairedstats.methods._shared.options import keywords_of
from pairedstats.methods.mcnemar.settings import Options, check

RNG = np.random.default_rng(33)
#: 40 items, three systems with rates near 0.5, 0.6, 0.75, named out of sorted order
SCORES = (RNG.random((40, 3)) < [0.5, 0.6, 0.75]).astype(float)
SYSTEMS = ["zeta", "alpha", "mid"]


def _tidy(scores=SCORES, systems=SYSTEMS, **extra):
    n, k = scores.shape
    return pd.DataFrame(
        {
            "item": np.repeat(np.arange(n), k),
            "system": np.tile(systems, n),
            "correct": scores.ravel(),
            **{c: np.repeat(v, k) for c, v in extra.items()},
        }
    )


def test_columns_numbers_and_metadata():
    res = mcnemar(SCORES, systems=SYSTEMS)
    assert isinstance(res, McNemarResult)
    frame = res.to_dataframe()
    assert list(frame.columns) == [
        "system_a",
        "system_b",
        "n_items",
        "rate_a",
        "rate_b",
        "difference",
        "ci_low",
        "ci_high",
        "only_a",
        "only_b",
        "statistic",
        "pvalue",
        "n_dropped",
    ]
    assert list(zip(frame.system_a, frame.system_b)) == [
        ("zeta", "alpha"),
        ("zeta", "mid"),
        ("alpha", "mid"),
    ]
    for row, (ia, ib) in zip(frame.itertuples(), [(0, 1), (0, 2), (1, 2)]):
        one = core.mcnemar_1d(SCORES[:, ia], SCORES[:, ib])
        assert (row.only_a, row.only_b, row.n_items) == (one.only_a, one.only_b, 40)
        assert (row.rate_a, row.rate_b) == (SCORES[:, ia].mean(), SCORES[:, ib].mean())
        assert row.difference == pytest.approx(row.rate_b - row.rate_a, abs=1e-15)
        assert (row.ci_low, row.ci_high, row.statistic, row.pvalue) == (
            one.ci_low,
            one.ci_high,
            one.statistic,
            one.pvalue,
        )
    assert res.metadata["method"] == "mcnemar"
    assert res.metadata["test"] == "exact"
    assert res.metadata["interval"] == "tango"
    assert res.metadata["adjust"] is None
    assert frame.dtypes["only_a"] == np.int64
    assert frame.dtypes["n_items"] == np.int64
    assert "unadjusted" in str(res)


def test_check_reads_the_options_record():
    # the record's choices are the core's; the check keeps every keyword under its name
    choices = {k.name: k.option.get("choices") for k in keywords_of(Options) if k.option}
    assert choices["method"] == core.METHODS
    assert choices["adjust"] == PVALUE_METHODS
    design = design_from_array(SCORES, systems=SYSTEMS)
    options = Options(baseline="alpha", method="MID-P", margin=0.05, alternative="Less",
                      confidence_level=0.9, adjust="Holm")  # fmt: skip
    s = check(design, options, keep=True)
    assert s.record() == {"baseline": "alpha", "method": "mid-p", "margin": 0.05,
                          "alternative": "less", "confidence_level": 0.9,
                          "adjust": "holm", "stream": None}  # fmt: skip
    assert s.pairs == ((1, 0), (1, 2))
    assert s.products is None
    meta = mcnemar(SCORES, systems=SYSTEMS, **options.record()).metadata
    keys = ("method", "baseline", "method_requested", "test", "interval")
    assert {k: meta[k] for k in keys} == {
        "method": "mcnemar", "baseline": "alpha", "method_requested": "mid-p", "test": "mid-p",
        "interval": "tango"}  # fmt: skip


def test_bool_scores_and_every_container_give_the_same_numbers():
    expected = mcnemar(SCORES, systems=SYSTEMS, baseline="alpha").to_dataframe()
    got = {
        "bool": mcnemar(SCORES.astype(bool), systems=SYSTEMS, baseline="alpha").to_dataframe(),
        "int": mcnemar(SCORES.astype(int), systems=SYSTEMS, baseline="alpha").to_dataframe(),
        "tidy": _tidy().paired.mcnemar(
            item="item", system="system", score="correct", baseline="alpha"
        ),
        "tidy bool": _tidy(SCORES.astype(bool)).paired.mcnemar(
            item="item", system="system", score="correct", baseline="alpha"
        ),
        "wide": pd.DataFrame(SCORES, columns=SYSTEMS).paired.mcnemar(baseline="alpha"),
    }
    for name, frame in got.items():
        pd.testing.assert_frame_equal(
            frame.reset_index(drop=True), expected, check_dtype=False, obj=name
        )
    ds = xr.Dataset(
        {"correct": (("item", "system"), SCORES.astype(bool))}, coords={"system": SYSTEMS}
    )
    out = ds.paired.mcnemar(baseline="alpha")
    np.testing.assert_array_equal(out["pvalue"].values, expected["pvalue"].values)
    np.testing.assert_array_equal(out["ci_low"].values, expected["ci_low"].values)


@pytest.mark.parametrize(("value", "shown"), [(0.5, "0.5"), (2.0, "2.0"), (-1.0, "-1.0")])
def test_scores_other_than_0_and_1_are_refused(value, shown):
    scores = SCORES.copy()
    scores[7, 1] = value
    with pytest.raises(
        ValueError,
        match=rf"`score`: mcnemar compares pass/fail outcomes, so "
        rf"every score must be 0 or 1 .*got {shown} for item 7 and system "
        r"'alpha', among 1 such score\(s\)",
    ):
        mcnemar(scores, systems=SYSTEMS)
    with pytest.raises(ValueError, match="must be 0 or 1"):
        _tidy(scores).paired.mcnemar(item="item", system="system", score="correct")
    continuous = np.round(RNG.random((10, 2)), 2)
    with pytest.raises(ValueError, match="must be 0 or 1"):
        pd.DataFrame(continuous, columns=["a", "b"]).paired.mcnemar()


def test_missing_scores_raise_or_are_dropped():
    scores = SCORES.copy()
    scores[3, 0] = np.nan
    with pytest.raises(ValueError, match="every item needs a score for every system"):
        mcnemar(scores, systems=SYSTEMS)
    with pytest.warns(pairedstats.DroppedDataWarning, match="dropped 1 of 40"):
        res = mcnemar(scores, systems=SYSTEMS, missing="complete")
    assert res.n_dropped.tolist() == [[1, 1, 1]]
    assert res.n_items.tolist() == [[39] * 3]
    expected = mcnemar(np.delete(SCORES, 3, axis=0), systems=SYSTEMS)
    np.testing.assert_array_equal(res.pvalue, expected.pvalue)
    tidy = _tidy().drop(index=4)  # item 1 has no row for system "alpha"
    with pytest.raises(ValueError, match=r"pair\(s\) with no row"):
        tidy.paired.mcnemar(item="item", system="system", score="correct")
    with pytest.warns(pairedstats.DroppedDataWarning):
        done = tidy.paired.mcnemar(
            item="item", system="system", score="correct", missing="complete"
        )
    assert set(done["n_dropped"]) == {1}


@pytest.mark.parametrize("method", ["exact", "mid-p", "asymptotic"])
@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
def test_every_method_and_alternative(method, alternative):
    res = mcnemar(
        SCORES, systems=SYSTEMS, method=method, alternative=alternative, confidence_level=0.9
    )
    for c, (ia, ib) in enumerate([(0, 1), (0, 2), (1, 2)]):
        one = core.mcnemar_1d(
            SCORES[:, ia],
            SCORES[:, ib],
            method=method,
            alternative=alternative,
            confidence_level=0.9,
        )
        assert res.pvalue[0, c] == one.pvalue
        assert res.statistic[0, c] == one.statistic
        assert (res.ci_low[0, c], res.ci_high[0, c]) == (one.ci_low, one.ci_high)
    if alternative == "greater":
        assert (res.ci_high == 1.0).all()
        assert (res.ci_low > -1).all()
    if alternative == "less":
        assert (res.ci_low == -1.0).all()
        assert (res.ci_high < 1).all()
    if method == "asymptotic":
        np.testing.assert_allclose(
            res.statistic, (res.only_b - res.only_a) ** 2 / (res.only_a + res.only_b), rtol=1e-14
        )
    else:
        np.testing.assert_array_equal(res.statistic, res.only_b)
    assert res.metadata["test"] == method
    assert res.metadata["alternative"] == alternative


@pytest.mark.parametrize("adjust", ["holm", "bonferroni", "fdr_bh", "fdr_by"])
def test_adjust_over_the_comparisons_of_each_group(adjust):
    tidy = pd.concat([_tidy().assign(fold=f) for f in ("f2", "f1")], ignore_index=True)
    tidy.loc[tidy.fold == "f1", "correct"] = 1.0 - tidy.loc[tidy.fold == "f1", "correct"]
    res = tidy.paired.mcnemar(
        item="item", system="system", score="correct", by="fold", adjust=adjust, as_result=True
    )
    np.testing.assert_array_equal(res.pvalue_adjusted, adjust_pvalues(res.pvalue, adjust))
    assert "pvalue_adjusted" in res.to_dataframe().columns
    flags = res.significant(0.05).to_numpy()
    np.testing.assert_array_equal(flags, res.pvalue_adjusted < 0.05)
    assert res.caveat is None
    assert adjust in res.significance_note()
    assert res.metadata["adjust"] == adjust


def test_by_groups_equal_single_calls():
    tidy = pd.concat(
        [_tidy().assign(fold="b"), _tidy(1.0 - SCORES).assign(fold="a")], ignore_index=True
    )
    whole = tidy.paired.mcnemar(
        item="item", system="system", score="correct", by="fold", baseline="mid"
    )
    for key, scores in (("b", SCORES), ("a", 1.0 - SCORES)):
        alone = mcnemar(scores, systems=SYSTEMS, baseline="mid").to_dataframe()
        part = whole[whole.fold == key].drop(columns="fold").reset_index(drop=True)
        pd.testing.assert_frame_equal(part, alone, check_dtype=False)


def test_cluster_gives_the_clustered_test_and_a_wider_interval():
    clusters = np.arange(40) // 4
    tidy = _tidy(cluster=clusters)
    with pytest.raises(ValueError, match=r"clustered McNemar test .* Pass method='asymptotic'"):
        tidy.paired.mcnemar(item="item", system="system", score="correct", cluster="cluster")
    res = tidy.paired.mcnemar(
        item="item",
        system="system",
        score="correct",
        cluster="cluster",
        method="asymptotic",
        as_result=True,
    )
    assert res.metadata["test"] == "clustered"
    assert res.n_clusters.tolist() == [[10] * 3]
    assert (res.design_effect >= 1).all()
    plain = mcnemar(SCORES, systems=SYSTEMS, method="asymptotic")
    for c, (ia, ib) in enumerate([(0, 1), (0, 2), (1, 2)]):
        t = core.clustered_test(SCORES[:, ia], SCORES[:, ib], clusters)
        assert res.statistic[0, c] == t.statistic
        assert res.pvalue[0, c] == t.pvalue
    assert (res.ci_low <= plain.ci_low).all()
    assert (res.ci_high >= plain.ci_high).all()
    # clusters of one item: the unclustered asymptotic numbers, to the bit
    one = mcnemar(SCORES, systems=SYSTEMS, method="asymptotic", cluster=np.arange(40)[::-1])
    for column in ("statistic", "pvalue", "ci_low", "ci_high", "difference"):
        np.testing.assert_array_equal(getattr(one, column), getattr(plain, column))


@pytest.mark.parametrize("n", [2, 10, 57])
def test_no_discordant_item_and_rates_of_0_or_100_percent_are_informative(n):
    z2 = 1.959963984540054**2
    for fill in (0.0, 1.0):  # every item wrong, or right, under both systems
        res = mcnemar(np.full((n, 2), fill))
        assert (res.rate_a[0, 0], res.rate_b[0, 0], res.pvalue[0, 0]) == (fill, fill, 1.0)
        np.testing.assert_allclose(
            [res.ci_low[0, 0], res.ci_high[0, 0]], [-z2 / (n + z2), z2 / (n + z2)], rtol=1e-10
        )
    res = mcnemar(np.column_stack([np.zeros(n), np.ones(n)]))  # a 0%, b 100%
    assert res.difference[0, 0] == 1.0
    assert res.ci_high[0, 0] == 1.0
    np.testing.assert_allclose(res.ci_low[0, 0], (n - z2) / (n + z2), rtol=1e-10)


def test_refused_keywords_and_values():
    with pytest.raises(TypeError, match="mcnemar does not take `strata`"):
        mcnemar(SCORES, strata=np.arange(40) % 2)
    with pytest.raises(TypeError, match="mcnemar does not take `replicate`"):
        _tidy().paired.mcnemar(item="item", system="system", score="correct", replicate="r")
    for kwargs, match in [
        ({"method": "fisher"}, "`method` must be one of 'exact', 'mid-p', 'asymptotic'"),
        ({"alternative": "up"}, "`alternative` must be one of"),
        ({"confidence_level": 95}, "`confidence_level` must be"),
        ({"adjust": "max-t"}, "`adjust` must be one of 'holm', 'bonferroni', 'fdr_bh'"),
        ({"baseline": "nope"}, "`baseline` must be one of the systems"),
    ]:
        with pytest.raises(ValueError, match=match):
            mcnemar(SCORES, systems=SYSTEMS, **kwargs)
    with pytest.raises(ValueError, match="one score column"):
        mcnemar(np.stack([SCORES, SCORES], axis=-1))


def test_design_function_and_sweeps():
    design = design_from_array(SCORES, systems=SYSTEMS)
    pd.testing.assert_frame_equal(
        mcnemar_design(design).to_dataframe(), mcnemar(SCORES, systems=SYSTEMS).to_dataframe()
    )
    data = np.stack([SCORES, 1 - SCORES])
    ds = xr.Dataset(
        {"correct": (("fold", "item", "system"), data)}, coords={"fold": [0, 1], "system": SYSTEMS}
    )
    out = ds.paired.mcnemar(baseline="zeta")
    assert dict(out["pvalue"].sizes) == {"fold": 2, "comparison": 2}
    second = mcnemar(1 - SCORES, systems=SYSTEMS, baseline="zeta")
    np.testing.assert_array_equal(out["pvalue"].sel(fold=1).values, second.pvalue[0])


def test_cli_subcommand(tmp_path, capsys):
    path = tmp_path / "outcomes.csv"
    _tidy().to_csv(path, index=False)
    code = cli.main(
        [
            "mcnemar",
            str(path),
            "--item",
            "item",
            "--system",
            "system",
            "--score",
            "correct",
            "--baseline",
            "alpha",
            "--method",
            "mid-p",
            "--adjust",
            "holm",
            "--format",
            "json",
        ]
    )
    assert code == 0
    rows = json.loads(capsys.readouterr().out)["rows"]
    expected = mcnemar(SCORES, systems=SYSTEMS, baseline="alpha", method="mid-p", adjust="holm")
    assert [r["pvalue_adjusted"] for r in rows] == pytest.approx(
        expected.pvalue_adjusted[0].tolist(), rel=1e-12
    )


_TABLES = st.integers(2, 40).flatmap(
    lambda n: st.lists(st.tuples(st.integers(0, 1), st.integers(0, 1)), min_size=n, max_size=n)
)


@settings(max_examples=40, deadline=None)
@given(
    _TABLES,
    st.sampled_from(["exact", "mid-p", "asymptotic"]),
    st.sampled_from(["two-sided", "greater", "less"]),
)
def test_swapping_a_and_b_negates_the_difference_and_mirrors_the_interval(rows, method, alt):
    scores = np.array(rows, dtype=float)
    mirror = {"greater": "less", "less": "greater", "two-sided": "two-sided"}[alt]
    ab = mcnemar(scores, systems=["p", "q"], method=method, alternative=alt)
    ba = mcnemar(scores[:, ::-1], systems=["q", "p"], method=method, alternative=mirror)
    assert ba.difference[0, 0] == -ab.difference[0, 0]
    assert (ba.only_a[0, 0], ba.only_b[0, 0]) == (ab.only_b[0, 0], ab.only_a[0, 0])
    assert (ba.rate_a[0, 0], ba.rate_b[0, 0]) == (ab.rate_b[0, 0], ab.rate_a[0, 0])
    np.testing.assert_allclose(
        [-ba.ci_high[0, 0], -ba.ci_low[0, 0]], [ab.ci_low[0, 0], ab.ci_high[0, 0]], atol=1e-12
    )
    assert ba.pvalue[0, 0] == pytest.approx(ab.pvalue[0, 0], rel=1e-12, abs=1e-300)


@settings(max_examples=30, deadline=None)
@given(_TABLES, st.permutations(range(40)))
def test_relabelling_and_reordering_items_changes_nothing(rows, order):
    scores = np.array(rows, dtype=float)
    order = [i for i in order if i < len(rows)]
    first = mcnemar(scores, systems=["p", "q"]).to_dataframe()
    moved = pd.DataFrame(scores[order], columns=["u", "v"], index=[f"i{i}" for i in order])
    second = moved.paired.mcnemar().replace({"u": "p", "v": "q"})
    pd.testing.assert_frame_equal(second, first, check_dtype=False)


#: Published examples (tests/reference/mcnemar/published.csv): each table as its source
#: prints it, (both, only_first, only_second, neither), whose difference is first - second =
#: (only_first - only_second) / n; the quantity and its value as printed, with the source and
#: the file (repository@commit:path) the number was read from.
PUBLISHED = Path(__file__).parent / "reference" / "mcnemar" / "published.csv"
_PUBLISHED_METHOD = {
    "p_exact": "exact",
    "p_mid_p": "mid-p",
    "p_asymptotic": "asymptotic",
    "z_asymptotic": "asymptotic",
}
#: Edwards' continuity correction is the core's only (the method does not offer it)
_PUBLISHED_CORRECTED = {"p_asymptotic_corrected", "z_asymptotic_corrected"}


def _published_rows():
    with open(PUBLISHED, newline="") as fh:
        return list(csv.DictReader(fh))


def _published_id(row):
    table = "-".join(row[k] for k in ("both", "only_first", "only_second", "neither"))
    return f"{table}-{row['quantity']}"


@pytest.mark.parametrize("row", _published_rows(), ids=_published_id)
def test_matches_published_examples_to_the_printed_digits(row):
    both, first, second, neither = (
        int(row[k]) for k in ("both", "only_first", "only_second", "neither")
    )
    quantity, printed = row["quantity"], row["published"]
    if quantity in _PUBLISHED_CORRECTED:
        t = core.mcnemar_test(second, first, method="asymptotic", correction=True)
        # the source prints the corrected statistic's root unsigned
        got = t.pvalue if quantity.startswith("p_") else math.sqrt(t.statistic)
    else:
        # system a = the source's second condition, system b = its first: our rate_b -
        # rate_a is the source's first - second
        pairs = [(1, 1)] * both + [(0, 1)] * first + [(1, 0)] * second + [(0, 0)] * neither
        res = mcnemar(
            np.array(pairs, dtype=float),
            systems=["second", "first"],
            method=_PUBLISHED_METHOD.get(quantity, "exact"),
            confidence_level=float(row["confidence_level"]),
        )
        assert (res.only_a[0, 0], res.only_b[0, 0]) == (second, first)
        got = {
            "tango_low": res.ci_low[0, 0],
            "tango_high": res.ci_high[0, 0],
            "difference": res.difference[0, 0],
            # our statistic is the chi-square; the source prints its root signed by first -
            # second
            "z_asymptotic": math.copysign(math.sqrt(res.statistic[0, 0]), first - second),
        }.get(quantity, res.pvalue[0, 0])
    digits = len(printed.split(".")[1])
    assert f"{got:.{digits}f}" == printed, (row["source"], row["where_printed"], got)


def test_published_examples_cover_every_source():
    rows = _published_rows()
    assert len({(r["both"], r["only_first"], r["only_second"], r["neither"]) for r in rows}) == 7
    assert {r["quantity"] for r in rows} == (
        {"tango_low", "tango_high", "difference"} | set(_PUBLISHED_METHOD) | _PUBLISHED_CORRECTED
    )
    for r in rows:
        assert r["source"]
        assert "@" in r["where_printed"]


def test_exports():
    assert {"mcnemar", "mcnemar_design", "McNemarResult"} <= set(pairedstats.__all__)
