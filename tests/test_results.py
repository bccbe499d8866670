"""The result base class: tidy tables, datasets over sweeps, printing, metadata."""

import dataclasses
import inspect
from dataclasses import FrozenInstanceError, dataclass
from typing import ClassVar

import numpy as np
import pytest
from tests.data import unsorted_runs

from pairedstats import display
from pairedstats._validation import metadata
from pairedstats.methods._shared.base import ReadOnlyResult
from pairedstats.methods._shared.results import (
    ComparisonResult,
    IntervalRule,
    PValueRule,
    SystemTable,
)


@dataclass(frozen=True, kw_only=True)
class _Diff(ComparisonResult):
    """A minimal subclass: one quantity per comparison."""

    difference: np.ndarray
    n_items: np.ndarray
    _columns: ClassVar[tuple] = ("difference", "n_items")
    title: ClassVar[str] = "Difference"


def _result(keys=((10, "a"), (10, "b"), (20, "a"), (20, "b")), names=("seed", "lr")):
    g = len(keys)
    return _Diff(
        group_names=names,
        group_keys=keys,
        label_a=("x", "x"),
        label_b=("y", "z"),
        difference=np.arange(2.0 * g).reshape(g, 2) / 3,
        n_items=np.full((g, 2), 5),
        metadata=metadata("demo", n_resamples=100, seed_entropy=7),
    )


def test_to_dataframe_is_tidy_with_labels_first():
    frame = _result().to_dataframe()
    assert list(frame.columns) == ["seed", "lr", "system_a", "system_b", "difference", "n_items"]
    assert frame["seed"].tolist() == [10, 10, 10, 10, 20, 20, 20, 20]
    assert frame["system_b"].tolist() == ["y", "z"] * 4
    np.testing.assert_array_equal(frame["difference"], np.arange(8.0) / 3)  # never rounded
    assert frame["seed"].dtype.kind == "i"
    assert frame.attrs["method"] == "demo"
    assert frame.attrs["seed_entropy"] == 7
    assert "pairedstats_version" in frame.attrs


def test_to_dataset_rebuilds_the_sweep_grid_in_input_order():
    keys = ((20, "b"), (20, "a"), (10, "b"), (10, "a"))
    ds = _result(keys).to_dataset()
    assert ds["difference"].dims == ("seed", "lr", "comparison")
    assert ds["seed"].values.tolist() == [20, 10]
    assert ds["lr"].values.tolist() == ["b", "a"]
    assert ds["system_b"].values.tolist() == ["y", "z"]
    np.testing.assert_array_equal(ds["difference"].sel(seed=10, lr="b").values, [4 / 3, 5 / 3])
    assert ds.attrs["n_resamples"] == 100


def _typed(values):
    return [(type(x), x) for x in values]


def test_labels_of_mixed_types_and_tuples_keep_their_types():
    """1 and "1" are two labels, a tuple is one: numpy would turn [1, "1"] into two
    strings and a list of pairs into a 2-D array."""
    keys = ((1, ("a", 1)), ("1", ("a", 1)), (1, ("a", 2)), ("1", ("a", 2)))
    res = _Diff(
        group_names=("seed", "lr"),
        group_keys=keys,
        label_a=(("x", 1), 2),
        label_b=("2", ("x", 1)),
        difference=np.arange(8.0).reshape(4, 2),
        n_items=np.full((4, 2), 5),
    )
    frame = res.to_dataframe()
    assert _typed(frame["seed"]) == _typed([1, 1, "1", "1", 1, 1, "1", "1"])
    assert frame["lr"].tolist() == [("a", 1)] * 4 + [("a", 2)] * 4
    assert _typed(frame["system_a"]) == _typed([("x", 1), 2] * 4)
    ds = res.to_dataset()
    assert ds["seed"].dtype == object
    assert _typed(ds["seed"].values.tolist()) == _typed([1, "1"])
    assert ds["lr"].values.tolist() == [("a", 1), ("a", 2)]
    assert _typed(ds["system_b"].values.tolist()) == _typed(["2", ("x", 1)])
    assert ds["n_items"].dtype == np.int64  # a full grid: no missing cell, no promotion
    for g, (seed, lr) in enumerate(keys):
        i, j = [1, "1"].index(seed), [("a", 1), ("a", 2)].index(lr)
        np.testing.assert_array_equal(ds["difference"].values[i, j], [2 * g, 2 * g + 1])
    # labels of one type keep numpy's dtype
    plain = _result().to_dataset()
    assert plain["seed"].dtype == np.int64
    assert plain["lr"].dtype.kind == "U"


def test_a_grid_with_missing_cells_is_filled_with_nan():
    res = _result(keys=((10, "a"), (10, "b"), (20, "a")))
    ds = res.to_dataset()
    assert ds["n_items"].dtype == np.float64
    assert np.isnan(ds["n_items"].sel(seed=20, lr="b").values).all()
    assert ds["n_items"].sel(seed=20, lr="a").values.tolist() == [5.0, 5.0]
    np.testing.assert_array_equal(ds["difference"].sel(seed=10, lr="b").values, [2 / 3, 1.0])


def test_ungrouped_dataset_and_printing():
    res = _result(keys=((),), names=())
    ds = res.to_dataset()
    assert ds["difference"].dims == ("comparison",)
    text = str(res)
    assert text.splitlines()[0] == "Difference"
    assert "method=demo, n_resamples=100, seed_entropy=7" in text
    assert "system_a system_b" in text
    assert "<table" in res._repr_html_()


def test_results_are_frozen():
    res = _result()
    with pytest.raises(FrozenInstanceError):
        res.difference = None


@dataclass(frozen=True, kw_only=True)
class _Tested(PValueRule, ComparisonResult):
    """A subclass with p-values and intervals that decides by p-value, as rank-sum."""

    difference: np.ndarray
    ci_low: np.ndarray
    ci_high: np.ndarray
    pvalue: np.ndarray
    n_items: np.ndarray
    _columns: ClassVar[tuple] = ("difference", "ci_low", "ci_high", "pvalue", "n_items")
    interval: ClassVar[tuple] = ("ci_low", "ci_high")
    pvalue_columns: ClassVar[tuple] = ("pvalue",)
    summary_columns: ClassVar[tuple] = ("difference", "ci_low", "ci_high", "pvalue")


@dataclass(frozen=True, kw_only=True)
class _Interval(IntervalRule, ComparisonResult):
    """A subclass decided by its interval, as the bootstrap."""

    difference: np.ndarray
    ci_low: np.ndarray
    ci_high: np.ndarray
    _columns: ClassVar[tuple] = ("difference", "ci_low", "ci_high")
    interval: ClassVar[tuple] = ("ci_low", "ci_high")
    summary_columns: ClassVar[tuple] = ("difference", "ci_low", "ci_high")


def _tested():
    return _Tested(
        group_names=("data_set",),
        group_keys=(("a_1",), ("b&c",)),
        label_a=("x", "x"),
        label_b=("y", "z_2"),
        difference=np.array([[0.5, -0.25], [1.0, 2.0]]),
        ci_low=np.array([[0.1, -0.5], [-0.2, 1.0]]),
        ci_high=np.array([[0.9, 0.1], [2.2, 3.0]]),
        pvalue=np.array([[0.01, 0.2], [0.049, 0.0001]]),
        n_items=np.full((2, 2), 7),
        metadata=metadata("demo", confidence_level=0.95),
    )


def test_significant_uses_pvalues_or_intervals():
    res = _tested()
    np.testing.assert_array_equal(res.significant(), [[True, False], [True, True]])
    np.testing.assert_array_equal(res.significant(0.01), [[False, False], [False, True]])
    interval = _Interval(
        label_a=("x", "x", "x"),
        label_b=("y", "z", "w"),
        difference=np.array([[1.0, -1.0, 0.0]]),
        ci_low=np.array([[0.5, -2.0, -1.0]]),
        ci_high=np.array([[1.5, -0.5, 1.0]]),
        metadata=metadata("demo", confidence_level=0.9),
    )
    np.testing.assert_array_equal(interval.significant(), [[True, True, False]])
    np.testing.assert_array_equal(interval.significant(0.1), [[True, True, False]])
    with pytest.raises(ValueError, match=r"0.9 confidence intervals.*Re-run with confidence_lev"):
        interval.significant(0.05)
    with pytest.raises(ValueError, match=r"`alpha` must be a number in \(0, 1\); got 0"):
        res.significant(0)
    with pytest.raises(TypeError, match="_Diff declares no significance rule"):
        _result().significant()


def test_to_latex_marks_the_significant_rows_and_escapes():
    text = _tested().to_latex(digits=2)
    lines = text.splitlines()
    assert lines[0] == r"\begin{tabular}{lllrrrr}"
    assert lines[2] == (
        r"data\_set & system\_a & system\_b & difference & ci\_low & ci\_high & pvalue \\"
    )
    body = lines[4:8]
    assert body[0] == r"a\_1 & x & y & $0.50^{*}$ & $0.10$ & $0.90$ & $0.01$ \\"
    assert body[1] == r"a\_1 & x & z\_2 & $-0.25$ & $-0.50$ & $0.10$ & $0.20$ \\"
    assert body[2].startswith(r"b\&c & x & y & $1.00^{*}$")
    assert body[3].endswith(r"& $<0.01$ \\")
    assert lines[-2] == r"\multicolumn{7}{l}{\footnotesize $^{*}$ $p < 0.05$} \\"
    assert lines[-1] == r"\end{tabular}"
    strict = _tested().to_latex(["pvalue", "difference"], alpha=0.01, marker=r"\dagger")
    assert strict.count(r"^{\dagger}") == 2  # the one row with p < 0.01, and the note
    assert r"$<0.001$ & $2.000^{\dagger}$" in strict
    assert r"$p < 0.01$" in strict


def test_to_latex_intervals_table_and_options():
    interval = _Interval(
        label_a=("x",),
        label_b=("y",),
        difference=np.array([[1.0]]),
        ci_low=np.array([[0.5]]),
        ci_high=np.array([[1.5]]),
        metadata=metadata("demo", confidence_level=0.9),
    )
    text = interval.to_latex(
        caption="Gains", label="tab:gains", header={"difference": r"$\Delta$"}
    )
    lines = text.splitlines()
    assert lines[:4] == [r"\begin{table}", r"\centering", r"\caption{Gains}", r"\label{tab:gains}"]
    assert r"system\_a & system\_b & $\Delta$ & ci\_low & ci\_high \\" in lines
    assert r"x & y & $1.000^{*}$ & $0.500$ & $1.500$ \\" in lines
    assert r"90\% interval excludes 0" in text
    assert lines[-1] == r"\end{table}"
    assert "multicolumn" not in interval.to_latex(note=False)


def test_to_latex_errors():
    res = _tested()
    with pytest.raises(ValueError, match="`columns`: no quantity column named 'mean'"):
        res.to_latex(["mean"])
    with pytest.raises(ValueError, match="`mark`: 'pvalue' is not one of the shown columns"):
        res.to_latex(["difference"], mark="pvalue")
    with pytest.raises(ValueError, match="`digits` must be a non-negative integer; got -1"):
        res.to_latex(digits=-1)


def test_html_shows_the_title_and_settings():
    html = _result()._repr_html_()
    assert html.startswith("<p><b>Difference</b></p><p><small>method=demo, n_resamples=100")
    assert "<table" in html


def test_a_group_named_group_is_allowed():
    ds = _result(keys=((1,), (2,)), names=("group",)).to_dataset()
    assert ds["difference"].dims == ("group", "comparison")
    assert ds["group"].values.tolist() == [1, 2]


def test_repr_is_the_table_not_the_arrays():
    res = _result()
    text = repr(res)
    assert text.splitlines()[0] == "<_Diff: 4 group(s) x 2 comparison(s)>"
    assert text.endswith(str(res))
    assert "array(" not in text


# ------------------------------------------------------- displays: Monte Carlo zeros
@dataclass(frozen=True, kw_only=True)
class _MonteCarlo(PValueRule, ComparisonResult):
    """As a Tukey HSD result: Monte Carlo p-values with a per-row trial count (0: exact)."""

    difference: np.ndarray
    pvalue: np.ndarray
    n_resamples: np.ndarray
    _columns: ClassVar[tuple] = ("difference", "pvalue", "n_resamples")
    trials_column: ClassVar[str] = "n_resamples"
    pvalue_columns: ClassVar[tuple] = ("pvalue",)
    summary_columns: ClassVar[tuple] = ("difference", "pvalue")


def _monte_carlo():
    return _MonteCarlo(
        label_a=("x", "x", "y"),
        label_b=("y", "z", "z"),
        difference=np.array([[1.5, 0.25, 0.0]]),
        pvalue=np.array([[0.0, 0.0, 0.5]]),
        n_resamples=np.array([[10_000, 3_000, 10_000]]),
        metadata=metadata("demo"),
    )


def test_a_monte_carlo_pvalue_of_zero_is_shown_as_its_bound():
    res = _monte_carlo()
    np.testing.assert_array_equal(res.to_dataframe()["pvalue"], [0.0, 0.0, 0.5])  # raw
    body = str(res).splitlines()[1:]  # settings, then the table
    assert body[1].split() == ["x", "y", "1.5", "<0.0001", "10000"]
    # 1/3000 = 0.000333..., rounded up: the bound stays true
    assert body[2].split() == ["x", "z", "0.25", "<0.000333334", "3000"]
    assert body[3].split() == ["y", "z", "0", "0.5", "10000"]
    assert repr(res).endswith(str(res))
    assert "<td>&lt;0.0001</td>" in res._repr_html_()
    markdown = res.to_markdown().splitlines()
    assert markdown[2] == "| x | y | 1.5 | <0.0001 | 10000 |"
    assert markdown[3] == "| x | z | 0.25 | <0.000333334 | 3000 |"
    latex = res.to_latex().splitlines()
    assert latex[4] == r"x & y & $1.500^{*}$ & $<0.0001$ \\"
    assert latex[5] == r"x & z & $0.250^{*}$ & $<0.000334$ \\"
    assert latex[6] == r"y & z & $0.000$ & $0.500$ \\"
    assert r"& $<0.00034$ \\" in res.to_latex(digits=2)


def test_tukey_hsd_zero_is_a_bound_and_an_exact_pvalue_is_never_zero():
    import pairedstats

    rng = np.random.default_rng(5)
    a = rng.normal(size=12)
    b = a + 1.0 + rng.uniform(0.0, 0.5, size=12)  # b > a on every item, distinct |d|
    # exact: of the 2**12 within-item swaps only none and all reach |difference|
    exact = pairedstats.tukey_hsd(np.column_stack([a, b]), method="exact")
    assert exact.pvalue[0, 0] == 2 / 2**12
    assert not display.zero_bounds(exact)["pvalue"].any()
    assert str(exact).splitlines()[-1].split()[5] == "0.000488281"
    # Monte Carlo: p = 2 / 2**30, so no trial in 10,000 reaches it
    a, b = rng.normal(size=30), rng.normal(size=30)
    b = a + 1.0 + rng.uniform(0.0, 0.5, size=30)
    mc = pairedstats.tukey_hsd(
        np.column_stack([a, b]), method="monte-carlo", n_resamples=10_000, rng=2
    )
    assert mc.pvalue[0, 0] == 0.0
    assert str(mc).splitlines()[-1].split()[5] == "<0.0001"
    assert r"$<0.0001$" in mc.to_latex()


# ------------------------------------------------------- displays: small numbers
def test_small_numbers_print_in_significant_digits():
    res = _Tested(
        label_a=("x", "x"),
        label_b=("y", "z"),
        difference=np.array([[1.2e-5, -4.2e-4]]),
        ci_low=np.array([[1e-6, -0.001]]),
        ci_high=np.array([[2.34567e-5, 0.0015]]),
        pvalue=np.array([[0.001, 0.2]]),
        n_items=np.array([[50, 50]]),
        metadata=metadata("demo"),
    )
    body = res.to_latex(digits=3).splitlines()[4:6]
    assert body[0] == (
        r"x & y & ${1.2\times10^{-5}}^{*}$ & $1\times10^{-6}$ & $2.35\times10^{-5}$ & $0.001$ \\"
    )
    assert body[1] == r"x & z & $-0.00042$ & $-0.001$ & $0.002$ & $0.200$ \\"
    assert "$0.000" not in res.to_latex(digits=3)
    rows = [line.split() for line in str(res).splitlines()[2:]]
    assert rows[0][2:6] == ["1.2e-05", "1e-06", "2.34567e-05", "0.001"]
    assert rows[1][2:5] == ["-0.00042", "-0.001", "0.0015"]
    assert res.to_markdown().splitlines()[2] == (
        "| x | y | 1.2e-05 | 1e-06 | 2.34567e-05 | 0.001 | 50 |"
    )


def test_printed_tables_show_every_column_and_row_whatever_the_pandas_options():
    import pandas as pd

    res = _result()
    with pd.option_context("display.width", 20, "display.max_columns", 2, "display.max_rows", 2):
        lines = str(res).splitlines()
        html = res._repr_html_()
    assert lines[2].split() == ["seed", "lr", "system_a", "system_b", "difference", "n_items"]
    assert len(lines) == 3 + 8  # title, settings, header, one line per row
    assert lines[-1].split() == ["20", "b", "x", "z", "2.33333", "5"]
    assert html.count("<tr") == 1 + 8


# ------------------------------------------------------- the methods' results
@pytest.fixture(scope="module")
def method_results():
    import pairedstats

    rng = np.random.default_rng(3)
    scores = rng.normal(size=(30, 3)) + np.array([0.0, 0.4, 0.8])
    clusters = np.arange(30) // 3
    return {
        "bootstrap": pairedstats.bootstrap(
            scores, cluster=clusters, n_resamples=300, rng=1, adjust="max-t"
        ),
        # max-t takes no margin: the margin's columns from a Holm-adjusted call
        "bootstrap_margin": pairedstats.bootstrap(
            scores, n_resamples=300, rng=1, adjust="holm", margin=0.5
        ),
        "tukey_hsd": pairedstats.tukey_hsd(scores, n_resamples=300, rng=2),
        "ranksum": pairedstats.ranksum(scores[:, 0], scores[:, 2]),
    }


@pytest.mark.parametrize("method", ["bootstrap", "bootstrap_margin", "tukey_hsd", "ranksum"])
def test_arrays_are_read_only_and_tables_are_writable_copies(method_results, method):
    res = method_results[method]
    arrays = {
        f.name: getattr(res, f.name)
        for f in dataclasses.fields(res)
        if isinstance(getattr(res, f.name), np.ndarray)
    }
    margin = {"equivalent", "pvalue_equivalence", "pvalue_equivalence_adjusted"}
    assert margin <= set(arrays) if method == "bootstrap_margin" else not margin & set(arrays)
    unset = {"n_clusters", "noninferior", "pvalue_noninferiority",
             "pvalue_noninferiority_adjusted", *margin}  # fmt: skip
    if method == "bootstrap_margin":
        unset |= {"ci_low_adjusted", "ci_high_adjusted"}  # max-t's simultaneous interval
    assert set(type(res)._columns) - unset <= set(arrays)
    for name, values in arrays.items():
        assert not values.flags.writeable, name
        with pytest.raises(ValueError, match="read-only"):
            values.reshape(-1)[0] = values.reshape(-1)[0]
    for values in res.columns.values():
        assert not values.flags.writeable
    frame = res.to_dataframe()
    first = next(iter(res.columns))
    kept = res.columns[first].copy()
    for name in res.columns:
        assert not np.shares_memory(frame[name].to_numpy(), getattr(res, name))
    frame.loc[0, first] = frame.loc[0, first] * 2 + 1  # the table is the caller's to edit
    np.testing.assert_array_equal(res.columns[first], kept)
    ds = res.to_dataset()
    for name in res.columns:
        assert ds[name].values.flags.writeable
        assert not np.shares_memory(ds[name].values, getattr(res, name))


def test_every_result_class_is_read_only_by_the_one_base():
    # the comparison tables, the system tables and the report: one base carries the rule
    import pairedstats

    classes = [getattr(pairedstats, n) for n in pairedstats.__all__ if n.endswith("Result")]
    for cls in {*classes, pairedstats.Report}:
        assert issubclass(cls, ReadOnlyResult), cls.__name__
        assert cls.__post_init__ is ReadOnlyResult.__post_init__ or cls is pairedstats.Report
    labels = {"group_names", "group_keys", "systems", "metadata"}
    assert labels <= {f.name for f in dataclasses.fields(SystemTable)}
    for cls in (pairedstats.RankResult, pairedstats.MCSResult):  # declared once, not again
        assert issubclass(cls, SystemTable)
        assert not labels & set(inspect.get_annotations(cls)), cls.__name__


def test_columns_are_the_documented_quantities_in_order(method_results):
    boot = method_results["bootstrap"]
    assert list(boot.columns) == [
        "mean_a", "mean_b", "difference", "ci_low", "ci_high", "standard_error", "pvalue",
        "pvalue_adjusted", "ci_low_adjusted", "ci_high_adjusted", "n_items", "effect_size",
        "wins", "ties", "losses", "n_clusters", "n_dropped",
    ]  # fmt: skip
    frame = boot.to_dataframe()
    assert list(frame.columns) == ["system_a", "system_b", *boot.columns]
    for name, values in boot.columns.items():
        assert values.shape == (3,)
        np.testing.assert_array_equal(values, frame[name].to_numpy())
    np.testing.assert_array_equal(boot.columns["n_clusters"], [10, 10, 10])
    # a column the call did not compute is left out
    plain = _Diff(label_a=("x",), label_b=("y",), difference=np.array([[1.0]]),
                  n_items=np.array([[3]]))  # fmt: skip
    assert list(plain.columns) == ["difference", "n_items"]
    rank = method_results["ranksum"]
    assert list(rank.columns) == list(type(rank)._columns)
    assert list(rank.to_dataframe().columns[:2]) == ["group_a", "group_b"]


def test_each_result_decides_by_its_own_rule(method_results):
    boot, hsd, rank = (method_results[m] for m in ("bootstrap", "tukey_hsd", "ranksum"))
    np.testing.assert_array_equal(boot.significant(), boot.pvalue_adjusted < 0.05)
    assert "adjusted $p < 0.05$ (max-t)" in boot.to_latex()
    plain = dataclasses.replace(boot, pvalue_adjusted=None, metadata={
        **boot.metadata, "adjust": None})  # fmt: skip
    low, high = np.asarray(plain.ci_low), np.asarray(plain.ci_high)
    np.testing.assert_array_equal(plain.significant(), (low > 0) | (high < 0))
    assert "95\\% interval excludes 0" in plain.to_latex()
    for res in (hsd, rank):
        np.testing.assert_array_equal(res.significant(0.01), np.asarray(res.pvalue) < 0.01)
        assert "$p < 0.05$" in res.to_latex()
    # the declarations the displays and plots read
    assert (boot.estimate, boot.interval) == ("difference", ("ci_low", "ci_high"))
    assert (rank.estimate, rank.interval) == ("shift", ("ci_low", "ci_high"))
    assert (hsd.interval, hsd.trials_column) == (None, "n_resamples")
    assert rank.label_columns == ("group_a", "group_b")


# ------------------------------------------------------- datasets: the comparison index
def _sweep_and_frame():
    """A sweep over seed and lr, and the same scores as a tidy table."""
    import xarray as xr

    rng = np.random.default_rng(2024)
    values = rng.normal(size=(3, 2, 20, 3)) + np.array([0.0, 0.3, 0.5])
    ds = xr.Dataset(
        {"acc": (("seed", "lr", "item", "system"), values)},
        coords={"seed": [1, 2, 3], "lr": [0.1, 0.01], "item": np.arange(20),
                "system": ["base", "new", "newer"]},
    )  # fmt: skip
    frame = ds["acc"].to_dataframe().reset_index()
    return ds, frame


SEL_KW = {"bootstrap": {"n_resamples": 400, "rng": 6}, "tukey_hsd": {"n_resamples": 400, "rng": 7}}


def _check_sel(res, ref, method):
    """res.sel by one label and by both equals the rows of the pandas path."""
    names = ["difference", "ci_low", "ci_high"] if method == "bootstrap" else ["pvalue"]
    one = res.sel(system_b="newer")
    assert one["difference"].dims == ("seed", "lr", "system_a")
    assert one["system_a"].values.tolist() == ["base", "new"]
    both = res.sel(system_a="base", system_b="new")
    assert both["difference"].dims == ("seed", "lr")
    for (seed, lr), rows in ref.groupby(["seed", "lr"]):
        for name in names:
            for a in ("base", "new"):
                want = rows.loc[(rows.system_a == a) & (rows.system_b == "newer"), name]
                got = one[name].sel(seed=seed, lr=lr, system_a=a).values
                np.testing.assert_array_equal(got, want.item())
            want = rows.loc[(rows.system_a == "base") & (rows.system_b == "new"), name]
            np.testing.assert_array_equal(both[name].sel(seed=seed, lr=lr).values, want.item())


@pytest.mark.parametrize("method", ["bootstrap", "tukey_hsd"])
def test_sweep_datasets_select_by_system_labels_eager_and_dask(method):
    pytest.importorskip("dask")
    ds, frame = _sweep_and_frame()
    kw = SEL_KW[method]
    ref = getattr(frame.paired, method)(item="item", system="system", score="acc",
                                        by=["seed", "lr"], **kw)  # fmt: skip
    eager = getattr(ds.paired, method)(**kw)
    assert eager.indexes["comparison"].names == ["system_a", "system_b"]
    _check_sel(eager, ref, method)
    lazy = getattr(ds.chunk({"seed": 1}).paired, method)(**kw)
    assert lazy["difference"].chunks is not None
    one = lazy.sel(system_b="newer")
    assert one["difference"].chunks is not None  # selecting keeps it lazy
    _check_sel(lazy.compute(), ref, method)
    xr_testing = pytest.importorskip("xarray.testing")
    xr_testing.assert_identical(one.compute(), eager.sel(system_b="newer"))


def test_ranksum_datasets_select_by_group_labels_eager_and_dask():
    import pandas as pd
    import xarray as xr

    pytest.importorskip("dask")
    rng = np.random.default_rng(5)
    ds = xr.Dataset(
        {"x": (("seed", "group", "item"), rng.normal(size=(3, 2, 12)))},
        coords={"seed": [10, 20, 30], "group": ["control", "treated"]},
    )
    for res in (ds.paired.ranksum(score="x"), ds.chunk({"seed": 1}).paired.ranksum(score="x")):
        one = res.sel(group_b="treated").compute()
        both = res.sel(group_a="control", group_b="treated").compute()
        for seed in (10, 20, 30):
            sub = ds["x"].sel(seed=seed)
            tidy = pd.DataFrame({"group": np.repeat(["control", "treated"], 12),
                                 "x": sub.values.reshape(-1)})  # fmt: skip
            ref = tidy.paired.ranksum(score="x", group="group", a="control", b="treated")
            for name in ("pvalue", "shift", "ci_low", "ci_high"):
                np.testing.assert_array_equal(one[name].sel(seed=seed).values, [ref[name][0]])
                np.testing.assert_array_equal(both[name].sel(seed=seed).values, ref[name][0])


def test_labels_pandas_cannot_tell_apart_give_coordinates_without_an_index():
    res = _Diff(
        label_a=(1, True),  # two systems; in one pandas index level they are one
        label_b=(2, 2),
        difference=np.array([[1.0, 2.0]]),
        n_items=np.array([[3, 3]]),
    )
    ds = res.to_dataset()
    assert "comparison" not in ds.indexes
    assert _typed(ds["system_a"].values.tolist()) == _typed([1, True])
    indexed = _result().to_dataset()
    assert indexed.indexes["comparison"].names == ["system_a", "system_b"]
    np.testing.assert_array_equal(
        indexed["difference"].sel(seed=10, lr="b", system_b="z").values, [3 / 3]
    )  # group (10, "b") is row 1 of arange(8) / 3, comparison x-z its column 1


def test_significant_is_labelled_by_groups_and_comparisons():
    import pairedstats

    runs = unsorted_runs()
    res = runs.paired.tukey_hsd(item="query", system="run", score="ndcg", by="collection",
                                n_resamples=500, rng=1, as_result=True)  # fmt: skip
    flags = res.significant()
    assert list(flags.index.names) == ["collection"]
    assert list(flags.columns.names) == ["system_a", "system_b"]
    assert flags.loc[("robust04",), ("hybrid", "bm25")] == (
        res.to_dataframe().set_index(["collection", "system_a", "system_b"])
        .loc[("robust04", "hybrid", "bm25"), "pvalue"] < 0.05
    )  # fmt: skip
    np.testing.assert_array_equal(flags.to_numpy(), np.asarray(res.pvalue) < 0.05)
    single = pairedstats.tukey_hsd(np.random.default_rng(0).normal(size=(10, 2)), rng=1,
                                   n_resamples=200)  # fmt: skip
    assert single.significant().shape == (1, 1)


# ------------------------------------------------------- displays: one rule per number
def _unsorted_systems(n=40, seed=4):
    """Systems not named in sorted order: zeta far above alpha, mid between them (every
    pair clearly different at 10,000 resamples)."""
    import pandas as pd

    rng = np.random.default_rng(seed)
    base = rng.normal(size=n)
    return pd.DataFrame({
        "item": [f"q{i:02d}" for i in range(n)],
        "zeta": base + 2.0 + rng.normal(scale=0.1, size=n),
        "alpha": base + rng.normal(scale=0.1, size=n),
        "mid": base + 1.0 + rng.normal(scale=0.1, size=n),
    })  # fmt: skip


def _column(text_table: str, name: str, skip: int) -> list[str]:
    """The cells of column ``name`` of a printed table whose header is line ``skip``."""
    lines = text_table.splitlines()[skip:]
    at = lines[0].split().index(name)
    return [line.split()[at] for line in lines[1:]]


def _displays(res) -> dict:
    return {"str": str(res), "repr": repr(res), "html": res._repr_html_(),
            "markdown": res.to_markdown(),
            "latex": res.to_latex(["difference", "pvalue"])}  # fmt: skip


@pytest.mark.parametrize("method", ["bootstrap", "tukey_hsd"])
def test_a_pvalue_of_zero_from_10000_draws_is_shown_as_its_bound_in_every_display(method):
    res = getattr(_unsorted_systems().paired, method)(item="item", n_resamples=10_000, rng=1,
                                                      as_result=True)  # fmt: skip
    assert res.to_dataframe()["pvalue"].tolist() == [0.0, 0.0, 0.0]  # the data keep 0
    shown = _displays(res)
    skip = 3 if method == "bootstrap" else 2  # title, settings (and the bootstrap's caveat)
    assert _column(shown["str"], "pvalue", skip) == ["<0.0001"] * 3
    assert shown["repr"].endswith(shown["str"])
    assert shown["html"].count("<td>&lt;0.0001</td>") == 3
    rows = shown["markdown"].splitlines()
    at = [c.strip() for c in rows[0].split("|")].index("pvalue")
    assert [[c.strip() for c in row.split("|")][at] for row in rows[2:]] == ["<0.0001"] * 3
    assert shown["latex"].count(r"& $<0.0001$ \\") == 3


def test_an_adjusted_bootstrap_pvalue_is_never_zero_and_says_what_it_adjusts():
    frame = _unsorted_systems()
    holm = frame.paired.bootstrap(item="item", n_resamples=10_000, rng=1, adjust="holm",
                                  as_result=True)  # fmt: skip
    # every raw p-value is 0; Holm adjusts the add-one p-values 2 / (B + 1): 3 x 2 / 10,001
    lines = str(holm).splitlines()
    assert lines[2] == ("pvalue_adjusted: holm of add-one p-values (B p + 2) / (B + 1), "
                        "B = 10000")  # fmt: skip
    assert _column(str(holm), "pvalue_adjusted", 3) == ["0.00059994"] * 3
    assert _column(str(holm), "pvalue", 3) == ["<0.0001"] * 3
    np.testing.assert_allclose(holm.pvalue_adjusted, 6 / 10_001, rtol=1e-15)
    assert holm.metadata["adjusted_pvalues"] == "add-one p-values (B p + 2) / (B + 1), B = 10000"
    assert holm.to_dataframe().attrs["adjusted_pvalues"] == holm.metadata["adjusted_pvalues"]
    maxt = frame.paired.bootstrap(item="item", n_resamples=10_000, rng=1, adjust="max-t",
                                  as_result=True)  # fmt: skip
    assert _column(str(maxt), "pvalue_adjusted", 3) == ["<0.0001"] * 3  # a share of B
    assert str(maxt).splitlines()[2] == (
        "pvalue_adjusted: max-t of the joint resamples (step-down shares, not add-one)"
    )


def test_counts_are_integers_in_every_display():
    import pairedstats

    rng = np.random.default_rng(6)
    scores = rng.normal(size=(20, 3)) + np.array([0.1, 0.0, 0.2])  # zeta, alpha, mid
    hsd = pairedstats.tukey_hsd(scores, systems=["zeta", "alpha", "mid"], n_resamples=3000,
                                rng=1)  # fmt: skip
    assert hsd.exceeding.dtype.kind == "f"  # a count held in a float (NaN when exact)
    many = dataclasses.replace(hsd, exceeding=np.array([[2_500_000.0, 1164.0, np.nan]]),
                               n_resamples=np.array([[4_000_000, 4_000_000, 0]]))  # fmt: skip
    assert _column(str(many), "exceeding", 2) == ["2500000", "1164", "NaN"]
    assert "| 2500000 |" in many.to_markdown()
    assert "<td>1164</td>" in many._repr_html_()
    latex = many.to_latex(["exceeding", "n_resamples"]).splitlines()[4:7]
    assert [row.split(" & ")[2] for row in latex] == ["$2500000$", "$1164$", "--"]


@pytest.mark.parametrize("method", ["bootstrap", "tukey_hsd"])
def test_the_latex_note_explains_a_mark_only_when_a_row_carries_it(method):
    import pandas as pd

    rng = np.random.default_rng(8)
    same = pd.DataFrame(rng.normal(size=(30, 3)), columns=["zeta", "alpha", "mid"])
    res = getattr(same.paired, method)(n_resamples=2000, rng=1, as_result=True)
    assert not res.significant().to_numpy().any()
    latex = res.to_latex()
    assert "^{*}" not in latex
    assert r"\footnotesize" not in latex
    assert latex.splitlines()[-2] == r"\bottomrule"
    marked = getattr(_unsorted_systems().paired, method)(item="item", n_resamples=2000, rng=1,
                                                         as_result=True)  # fmt: skip
    assert r"\footnotesize $^{*}$" in marked.to_latex().splitlines()[-2]
