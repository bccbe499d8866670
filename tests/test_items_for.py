"""Planning from the data, ``df.paired.items_for(difference, ...)``: statsmodels' TTestPower
on scores that are not 0/1 (tests/reference/power/make_items_for_reference.py), Connor's
(1987) McNemar plan on 0/1 scores against the core, the accessors, the command line, the
warnings, refused input and the required ``difference``."""

import doctest
import io
import math
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import xarray as xr
from scipy import optimize, stats
from tests.data import binomtest_half

import pairedstats
from pairedstats import ItemsForResult, PlanningWarning, cli
from pairedstats.core.power import (
    detectable_difference,
    items_for,
    paired_power,
)
from pairedstats.core.power_mcnemar import (
    mcnemar_detectable_difference,
    mcnemar_items_for,
    mcnemar_power,
)

REF = Path(__file__).parent / "reference" / "power"
SCORES = pd.read_csv(REF / "items_for_scores.csv")
STATSMODELS = pd.read_csv(REF / "items_for_reference.csv")
PLANS = STATSMODELS[["difference", "power", "alpha", "alternative"]].drop_duplicates()


def _pass_fail(n=120, rates=(0.55, 0.7), seed=5, systems=("old", "new")) -> pd.DataFrame:
    """A tidy table of 0/1 scores (correlated through a shared difficulty)."""
    rng = np.random.default_rng(seed)
    easy = rng.random(n)
    rows = []
    for system, rate in zip(systems, rates):
        passed = (easy + rng.normal(0, 0.25, n)) < rate
        rows += [(f"q{i:03d}", system, float(p)) for i, p in enumerate(passed)]
    return pd.DataFrame(rows, columns=["item", "system", "passed"])


# ------------------------------------------------------------------ references
@pytest.mark.parametrize("plan", list(PLANS.itertuples(index=False)), ids=str)
def test_scores_not_0_1_follow_statsmodels_ttestpower(plan):
    res = SCORES.paired.items_for(plan.difference, item="item", system="system", score="score",
                                  baseline="base", by="group", power=plan.power,
                                  alpha=plan.alpha, alternative=plan.alternative)  # fmt: skip
    ref = STATSMODELS[(STATSMODELS[list(PLANS.columns)] == list(plan)).all(axis=1)]
    got = res.set_index(["group", "system_b"])
    assert len(got) == len(ref) == 4
    for row in ref.itertuples():
        mine = got.loc[(row.group, row.system_b)]
        assert mine["method"] == "t"
        assert math.isnan(mine["discordant_rate"])
        assert mine["standard_deviation"] == pytest.approx(row.standard_deviation, rel=1e-12)
        assert mine["n_items"] == row.n_items
        assert mine["n_items_needed"] == max(2, math.ceil(row.nobs - 1e-9))
        assert mine["detectable_difference"] == pytest.approx(row.detectable_difference,
                                                              rel=1e-6)  # fmt: skip
        planned = (mine["target_difference"], mine["power"], mine["alpha"], mine["alternative"])
        assert planned == tuple(plan)


def test_0_1_scores_plan_mcnemar_from_the_discordant_rate():
    table = _pass_fail()
    res = table.paired.items_for(0.1, item="item", system="system", score="passed")
    wide = table.pivot(index="item", columns="system", values="passed")
    a, b = wide["old"].to_numpy(), wide["new"].to_numpy()
    psi = np.mean(a != b)
    (row,) = res.to_dict("records")
    assert row["method"] == "mcnemar"
    assert row["discordant_rate"] == psi
    assert row["standard_deviation"] == pytest.approx(np.std(b - a, ddof=1), rel=1e-12)
    assert row["n_items_needed"] == mcnemar_items_for(0.1, discordant_rate=psi)
    assert row["detectable_difference"] == mcnemar_detectable_difference(120, discordant_rate=psi)
    # the t-test's plan with the same standard deviation would differ: the formula is McNemar's
    assert row["n_items_needed"] != items_for(0.1, standard_deviation=row["standard_deviation"])


def test_0_1_scores_plan_for_mcnemar_s_default_exact_test():
    # mcnemar runs the exact test by default; the plan is for it: the smallest n whose
    # exact power, summed over every table (scipy's binomtest p-values), reaches 0.8
    table = _pass_fail()
    keys = dict(item="item", system="system", score="passed")
    (row,) = table.paired.items_for(0.1, **keys).to_dict("records")
    psi = row["discordant_rate"]
    p01 = (psi + 0.1) / 2

    def power(n):
        total = 0.0
        for big, weight in enumerate(stats.binom.pmf(np.arange(n + 1), n, psi)):
            k = np.arange(big + 1)
            p = binomtest_half(big)
            total += weight * stats.binom.pmf(k, big, p01 / psi)[p < 0.05].sum()
        return total

    n = int(row["n_items_needed"])
    assert power(n - 1) < 0.8 <= power(n)
    # Connor's plan (the asymptotic test, mcnemar_method="asymptotic") is short of it
    (connor,) = table.paired.items_for(0.1, mcnemar_method="asymptotic",
                                       **keys).to_dict("records")  # fmt: skip
    assert connor["n_items_needed"] == mcnemar_items_for(0.1, discordant_rate=psi,
                                                         method="asymptotic")  # fmt: skip
    assert connor["n_items_needed"] < n
    assert power(int(connor["n_items_needed"])) < 0.8
    (mid,) = table.paired.items_for(0.1, mcnemar_method="mid-p", **keys).to_dict("records")
    assert mid["n_items_needed"] == mcnemar_items_for(0.1, discordant_rate=psi, method="mid-p")
    assert mid["detectable_difference"] == mcnemar_detectable_difference(
        120, discordant_rate=psi, method="mid-p"
    )
    with pytest.raises(ValueError, match="`mcnemar_method` must be one of"):
        table.paired.items_for(0.1, mcnemar_method="chi2", **keys)


def test_connor_s_example_through_the_accessor():
    # discordant cells 0.45 and 0.05 of Connor's p. 209 example as computed by the
    # calculators that cite it: 40 items, 20 discordant (18 one way, 2 the other)
    a = np.r_[np.zeros(18), np.ones(2), np.ones(10), np.zeros(10)]
    b = np.r_[np.ones(18), np.zeros(2), np.ones(10), np.zeros(10)]
    table = pd.DataFrame({"a": a, "b": b})
    res = table.paired.items_for(0.4, mcnemar_method="asymptotic")
    assert res.loc[0, "discordant_rate"] == 0.5
    assert res.loc[0, "n_items_needed"] == 23
    # the exact test, mcnemar's default, needs 25
    assert table.paired.items_for(0.4).loc[0, "n_items_needed"] == 25


def test_a_mixed_table_plans_each_comparison_by_its_own_scores():
    table = pd.DataFrame({"x": [0.0, 1, 1, 0, 1, 1], "y": [1.0, 1, 0, 1, 1, 1],
                          "z": [0.2, 0.9, 0.4, 0.7, 0.3, 0.8]})  # fmt: skip
    with pytest.warns(PlanningWarning, match="No difference is detectable"):  # 6 items
        res = table.paired.items_for(0.3)
    assert res["method"].tolist() == ["mcnemar", "t", "t"]  # y - x, z - x, z - y


# ------------------------------------------------------------------ an upper confidence limit
def test_standard_deviation_level_plans_as_the_function_with_the_table_as_pilot():
    # the function given the standard deviation of the differences (np.std, computed here)
    # and the table's own size as the pilot's
    table = SCORES[SCORES["group"] == SCORES["group"].iloc[0]]
    wide = table.pivot(index="item", columns="system", values="score")
    for level in (0.6, 0.8, 0.95):
        res = table.paired.items_for(0.1, item="item", system="system", score="score",
                                     baseline="base", standard_deviation_level=level)  # fmt: skip
        plain = table.paired.items_for(0.1, item="item", system="system", score="score",
                                       baseline="base")  # fmt: skip
        for row, before in zip(res.itertuples(), plain.itertuples()):
            d = (wide[row.system_b] - wide["base"]).to_numpy()
            sd, n = float(np.std(d, ddof=1)), d.size
            assert row.n_items == n
            assert row.standard_deviation == pytest.approx(sd, rel=1e-12)
            assert before.standard_deviation_planned == before.standard_deviation
            expected = pairedstats.items_for(
                0.1, standard_deviation=sd, standard_deviation_level=level, pilot_items=n
            )
            assert row.n_items_needed == expected
            assert row.n_items_needed >= before.n_items_needed
            # the chi-square limit (n - 1) s^2 / chi2_{1 - level}(n - 1), from scipy directly
            limit = sd * np.sqrt((n - 1) / stats.chi2.ppf(1 - level, n - 1))
            assert row.standard_deviation_planned == pytest.approx(limit, rel=1e-12)
            assert row.detectable_difference == pytest.approx(
                detectable_difference(n, standard_deviation=limit), rel=1e-12
            )
            assert math.isnan(row.discordant_rate_planned)


def test_standard_deviation_level_pilot_is_the_items_after_missing():
    table = _pass_fail().assign(passed=lambda t: t["passed"] * 0.5 + np.arange(len(t)) % 7 * 0.1)
    table = table.drop(index=[3, 10, 11])  # items q003, q010, q011 of "old" missing
    with pytest.warns(UserWarning, match="dropped 3 of 120"):
        res = table.paired.items_for(
            0.05,
            item="item",
            system="system",
            score="passed",
            missing="complete",
            standard_deviation_level=0.8,
        )
    wide = table.pivot(index="item", columns="system", values="passed").dropna()
    d = (wide["new"] - wide["old"]).to_numpy()
    (row,) = res.to_dict("records")
    assert (row["n_items"], row["n_dropped"]) == (117, 3)
    assert row["n_items_needed"] == pairedstats.items_for(
        0.05, standard_deviation=float(np.std(d, ddof=1)), standard_deviation_level=0.8,
        pilot_items=117,
    )  # fmt: skip


def test_0_1_scores_plan_with_the_clopper_pearson_limit_of_the_discordant_rate():
    table = _pass_fail()
    wide = table.pivot(index="item", columns="system", values="passed")
    x, n = int(np.sum(wide["old"] != wide["new"])), len(wide)
    for level in (0.8, 0.95):
        (row,) = table.paired.items_for(
            0.1, item="item", system="system", score="passed", standard_deviation_level=level
        ).to_dict("records")
        # the exact upper limit: the rate at which P(X <= x) = 1 - level, X ~ Binomial(n, p)
        limit = optimize.brentq(lambda p, level=level: stats.binom.cdf(x, n, p) - (1 - level),
                                x / n, 1, xtol=1e-14)  # fmt: skip
        assert row["discordant_rate"] == x / n
        assert row["discordant_rate_planned"] == pytest.approx(limit, rel=1e-9)
        assert row["discordant_rate_planned"] == pytest.approx(
            stats.beta.ppf(level, x + 1, n - x), rel=1e-12
        )
        assert math.isnan(row["standard_deviation_planned"])
        planned = row["discordant_rate_planned"]
        assert row["n_items_needed"] == mcnemar_items_for(0.1, discordant_rate=planned)
        assert row["detectable_difference"] == mcnemar_detectable_difference(
            n, discordant_rate=planned
        )
        assert row["n_items_needed"] > mcnemar_items_for(0.1, discordant_rate=x / n)


def test_standard_deviation_level_is_checked_and_recorded():
    table = _pass_fail()
    for bad, error in ((1.0, ValueError), (0.0, ValueError), ("0.8", TypeError)):
        with pytest.raises(error, match="`standard_deviation_level` must"):
            table.paired.items_for(0.1, item="item", system="system", score="passed",
                                   standard_deviation_level=bad)  # fmt: skip
    res = table.paired.items_for(0.1, item="item", system="system", score="passed",
                                 standard_deviation_level=0.8, as_result=True)  # fmt: skip
    assert res.metadata["standard_deviation_level"] == 0.8
    assert "standard_deviation_level=0.8" in str(res)


def _pilots(n_pilots, seed, level, n=30, difference=0.5):
    """The share of simulated pilots (normal differences of standard deviation 1, ``n``
    items each) whose plan reaches 80% power at the true standard deviation: whose items
    needed are at least the fewest that reach it (power grows with the items)."""
    rng = np.random.default_rng(seed)
    a = rng.normal(size=n * n_pilots)
    b = a + rng.normal(size=n * n_pilots)
    table = pd.DataFrame({"pilot": np.repeat(np.arange(n_pilots), n), "a": a, "b": b})
    plan = table.paired.items_for(difference, by="pilot", standard_deviation_level=level)
    enough = items_for(difference, standard_deviation=1.0)  # 34 for 0.5
    assert paired_power(enough - 1, difference, standard_deviation=1.0) < 0.8
    assert paired_power(enough, difference, standard_deviation=1.0) >= 0.8
    return float(np.mean(plan["n_items_needed"] >= enough))


#: docs/planning.md: the share of 2,000 pilots whose plan at level 0.8 reaches the power
PILOTS_REACHED = 0.8165


@pytest.mark.slow
def test_a_plan_at_level_0_8_reaches_its_power_in_about_80_percent_of_pilots():
    # 2,000 pilots of 30 items (the docs' line); the plain plan, on the estimate, reaches
    # the power about half the time (1,000 pilots)
    reached = _pilots(2000, 2024, 0.8)
    assert reached == PILOTS_REACHED
    assert abs(reached - 0.8) <= 3 * np.sqrt(0.8 * 0.2 / 2000)
    assert abs(_pilots(1000, 2025, None) - 0.5) <= 3 * np.sqrt(0.25 / 1000)


@pytest.mark.slow
def test_0_1_plan_at_level_0_8_reaches_its_power_in_at_least_80_percent_of_pilots():
    # discordant cells p10 = 0.05, p01 = 0.15 (psi 0.2, difference 0.1), pilots of 80 items;
    # the power at the plan from Connor's formula at the true discordant rate
    n_pilots, n = 300, 80
    u = np.random.default_rng(2026).random((n_pilots, n))
    a = ((u < 0.05) | ((u >= 0.2) & (u < 0.6))).astype(float)
    b = (((u >= 0.05) & (u < 0.2)) | ((u >= 0.2) & (u < 0.6))).astype(float)
    table = pd.DataFrame({"pilot": np.repeat(np.arange(n_pilots), n), "a": a.ravel(),
                          "b": b.ravel()})  # fmt: skip
    plan = table.paired.items_for(0.1, by="pilot", standard_deviation_level=0.8)
    reached = [mcnemar_power(int(m), 0.1, discordant_rate=0.2) >= 0.8
               for m in plan["n_items_needed"]]  # fmt: skip
    assert np.mean(reached) >= 0.8 - 3 * np.sqrt(0.8 * 0.2 / n_pilots)


# ------------------------------------------------------------------ accessors and inputs
def test_difference_by_position_or_name_and_every_container():
    table = _pass_fail(seed=8)
    wide = table.pivot(index="item", columns="system", values="passed")[["old", "new"]]
    by_position = table.paired.items_for(0.15, item="item", system="system", score="passed")
    by_name = table.paired.items_for(item="item", system="system", score="passed",
                                     difference=0.15)  # fmt: skip
    pd.testing.assert_frame_equal(by_position, by_name)
    pd.testing.assert_frame_equal(wide.paired.items_for(0.15), by_position)
    ds = xr.Dataset({"passed": (("item", "system"), wide.to_numpy())},
                    coords={"system": ["old", "new"]})  # fmt: skip
    for got in (ds.paired.items_for(0.15), ds["passed"].paired.items_for(0.15)):
        assert float(got["n_items_needed"].item()) == by_position.loc[0, "n_items_needed"]
    res = wide.paired.items_for(0.15, as_result=True)
    assert isinstance(res, ItemsForResult)
    assert not res.significant().to_numpy().any()  # a plan tests nothing
    assert "n_items_needed" in str(res)
    assert "\\begin{tabular}" in res.to_latex()


def test_difference_is_required():
    table = _pass_fail()
    with pytest.raises(TypeError, match="items_for: missing a required argument: 'difference'"):
        table.paired.items_for(item="item", system="system", score="passed")


@pytest.mark.parametrize(
    ("keywords", "error", "match"),
    [
        ({"difference": 0}, ValueError, r"`difference \(its size\)` must be in"),
        ({"difference": "0.1"}, TypeError, "`difference` must be a number; got '0.1'"),
        ({"difference": 0.1, "alternative": "less"}, ValueError, "must be negative"),
        ({"difference": 0.1, "power": 0.01}, ValueError, r"`power` must be in \(0.05, 1\)"),
        (
            {"difference": 0.1, "alpha": 1.5},
            ValueError,
            r"`alpha` must be strictly between 0 and 1",
        ),
        ({"difference": 0.1, "alternative": "up"}, ValueError, "`alternative` must be one of"),
        ({"difference": 0.1, "baseline": "x"}, ValueError, "`baseline` must be one of"),
        ({"difference": 0.1, "cluster": "c"}, TypeError, "plan in clusters"),
    ],
)
def test_invalid_input_names_the_keyword(keywords, error, match):
    with pytest.raises(error, match=match):
        _pass_fail().paired.items_for(item="item", system="system", score="passed", **keywords)


def test_by_groups_are_planned_on_their_own():
    table = pd.concat([_pass_fail(seed=1).assign(g="b"), _pass_fail(seed=2).assign(g="a")])
    whole = table.paired.items_for(0.1, item="item", system="system", score="passed", by="g")
    for key, part in table.groupby("g"):
        alone = part.paired.items_for(0.1, item="item", system="system", score="passed")
        got = whole[whole["g"] == key].drop(columns="g").reset_index(drop=True)
        pd.testing.assert_frame_equal(got, alone)


# ------------------------------------------------------------------ what the table cannot say
def test_no_spread_is_nan_and_warned_once():
    table = pd.DataFrame({"a": [0.0, 1, 1, 0], "b": [0.0, 1, 1, 0], "c": [0.1, 0.2, 0.3, 0.4],
                          "d": [0.3, 0.4, 0.5, 0.6]})  # fmt: skip
    with pytest.warns(PlanningWarning, match="No spread of the per-item differences") as caught:
        res = table.paired.items_for(0.1, baseline="a", as_result=True)
    assert len(caught) == 1
    frame = res.to_dataframe().set_index("system_b")
    assert np.isnan(frame.loc["b", "n_items_needed"])  # 0/1, no discordant item
    assert frame.loc["b", "discordant_rate"] == 0
    with pytest.warns(PlanningWarning, match="for 'd' - 'c'"):  # b - a the same everywhere
        table.paired.items_for(0.1, baseline="c", systems=["c", "d"])


def test_a_difference_beyond_the_discordant_rate_is_nan():
    a = np.r_[np.zeros(2), np.ones(38)]
    b = np.r_[np.ones(2), np.ones(38)]  # discordant rate 0.05
    with pytest.warns(PlanningWarning) as caught:
        res = pd.DataFrame({"a": a, "b": b}).paired.items_for(0.1)
    messages = [str(w.message) for w in caught]
    assert len(messages) == 2
    assert messages[0].startswith("The difference exceeds the discordant rate: for 'b' - 'a'")
    assert messages[1].startswith("No difference is detectable at the table's size")
    assert np.isnan(res.loc[0, "n_items_needed"])
    assert np.isnan(res.loc[0, "detectable_difference"])


# ------------------------------------------------------------------ the command line
def test_the_command_line_takes_difference_and_alpha(tmp_path):
    path = tmp_path / "passed.csv"
    _pass_fail().to_csv(path, index=False)
    base = ["items-for", str(path), "--item", "item", "--system", "system", "--score", "passed"]
    out = io.StringIO()
    with redirect_stdout(out):
        assert cli.main([*base, "--difference", "0.1", "--alpha", "0.01", "--format", "csv"]) == 0
    got = pd.read_csv(io.StringIO(out.getvalue()))
    expected = _pass_fail().paired.items_for(0.1, item="item", system="system", score="passed",
                                             alpha=0.01)  # fmt: skip
    assert got["n_items_needed"].tolist() == expected["n_items_needed"].tolist()
    assert got["alpha"].tolist() == [0.01]
    parser = cli.build_parser()
    with pytest.raises(SystemExit), redirect_stderr(io.StringIO()):
        parser.parse_args(base)  # --difference is required


def test_the_function_items_for_stays_the_core_one():
    # not a function generated from the spec: a difference and a standard deviation
    for function in (pairedstats.items_for, pairedstats.detectable_difference):
        assert function.__module__ == "pairedstats.core.power"
        assert "__signature__" not in vars(function)
    assert pairedstats.items_for(0.5, standard_deviation=1.0) == items_for(
        0.5, standard_deviation=1.0
    )
    assert pairedstats.detectable_difference(50, standard_deviation=1.0) == detectable_difference(
        50, standard_deviation=1.0
    )


@pytest.mark.parametrize("standard_deviation", [1e-20, 1e-200, 5e-324])
def test_a_spread_far_below_the_difference_needs_the_fewest_items(standard_deviation):
    # the t-test's power is 1 to double precision at 2 items (scipy's noncentral t is NaN
    # that far out); nothing is too small
    for difference, alternative in ((0.1, "two-sided"), (0.1, "greater"), (-0.1, "less")):
        keywords = dict(standard_deviation=standard_deviation, alternative=alternative)
        assert paired_power(2, difference, **keywords) == 1.0
        assert items_for(difference, **keywords) == 2
        assert pairedstats.items_for(difference, **keywords, power=0.99, alpha=0.001) == 2
    assert paired_power(2, -0.1, standard_deviation=standard_deviation,
                        alternative="greater") == 0.0  # fmt: skip
    # a difference too small against the spread is still refused, saying so
    with pytest.raises(ValueError, match="more than 1,000,000,000 items would be needed"):
        items_for(1e-9, standard_deviation=1.0)


def test_accessor_docstrings_run():
    for method in (pd.DataFrame.paired.items_for, xr.Dataset.paired.items_for):
        assert "Connor 1987" in method.__doc__
        parsed = doctest.DocTestParser().get_doctest(method.__doc__, {}, "items_for", None, 0)
        runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
        runner.run(parsed)
        assert runner.summarize(verbose=False).failed == 0
