"""Items needed and detectable differences (pairedstats.core.power) against R's
``power.t.test(type = "paired", strict = TRUE)`` (tests/reference/power) and simulation."""

import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import pairedstats
from pairedstats.core.power import detectable_difference, items_for, paired_power

REF = pd.read_csv(Path(__file__).parents[1] / "reference" / "power" / "reference.csv")
_ALTERNATIVE = {"two.sided": "two-sided", "one.sided": "greater"}


#: R's pt() with a noncentrality above 37.62 "will not be highly accurate" (its manual); there,
#: at one degree of freedom, scipy's noncentral t agrees with a direct integral and R does not.
_R_ACCURATE_NCP = 37.62


def _ncp(row):
    n = row.value if row.kind == "n" else row.n
    delta = row.value if row.kind == "delta" else row.delta
    return delta * np.sqrt(n) / row.sd


def _rows(kind):
    return [row for row in REF.itertuples() if row.kind == kind and _ncp(row) <= _R_ACCURATE_NCP]


@pytest.mark.parametrize("row", _rows("n"), ids=str)
def test_items_are_r_sample_size_rounded_up(row):
    n = items_for(row.delta, standard_deviation=row.sd, power=row.power, alpha=row.alpha,
                  alternative=_ALTERNATIVE[row.alternative])  # fmt: skip
    assert n == max(2, int(np.ceil(row.value - 1e-9)))


@pytest.mark.parametrize("row", _rows("power"), ids=str)
def test_power_equals_r(row):
    got = paired_power(int(row.n), row.delta, standard_deviation=row.sd, alpha=row.alpha,
                       alternative=_ALTERNATIVE[row.alternative])  # fmt: skip
    assert got == pytest.approx(row.value, rel=1e-10, abs=1e-14)


@pytest.mark.parametrize("row", _rows("delta"), ids=str)
def test_detectable_difference_equals_r(row):
    alternative = _ALTERNATIVE[row.alternative]
    got = detectable_difference(int(row.n), standard_deviation=row.sd, power=row.power,
                                alpha=row.alpha, alternative=alternative)  # fmt: skip
    assert got == pytest.approx(row.value, rel=1e-8)


def test_power_at_one_degree_of_freedom_by_direct_integration():
    # P(T > c) for T = (Z + ncp) / sqrt(V), V ~ chi2(1): the integral of Phi(ncp - c sqrt(v))
    from scipy import integrate, special

    c = stats.t.ppf(0.99, 1)
    for delta in (2.0, 28.85):
        ncp = delta * np.sqrt(2)
        density = lambda v, ncp=ncp: special.ndtr(ncp - c * np.sqrt(v)) * stats.chi2.pdf(v, 1)
        kink = (ncp / c) ** 2
        direct = integrate.quad(density, 0, kink, limit=500)[0]
        direct += integrate.quad(density, kink, np.inf, limit=500)[0]
        got = paired_power(2, delta, standard_deviation=1.0, alpha=0.01, alternative="greater")
        assert got == pytest.approx(direct, abs=1e-8)


def test_power_by_simulation_of_paired_t_tests():
    # first principles: simulate the paired t-test at the number of items found
    n = items_for(0.5, standard_deviation=1.0, power=0.8)
    gen = np.random.default_rng(4)
    d = gen.normal(0.5, 1.0, size=(4000, n))
    rejected = stats.ttest_1samp(d, 0.0, axis=1).pvalue < 0.05
    se = np.sqrt(0.8 * 0.2 / 4000)
    assert rejected.mean() >= 0.8 - 3 * se
    fewer = stats.ttest_1samp(d[:, : n - 3], 0.0, axis=1).pvalue < 0.05
    assert fewer.mean() < 0.8


def test_symmetry_and_one_sided_signs():
    assert items_for(-0.3, standard_deviation=1.0) == items_for(0.3, standard_deviation=1.0)
    assert items_for(-0.3, standard_deviation=1.0, alternative="less") == items_for(
        0.3, standard_deviation=1.0, alternative="greater"
    )
    less = detectable_difference(40, standard_deviation=2.0, alternative="less")
    assert less == -detectable_difference(40, standard_deviation=2.0, alternative="greater")
    # the round trip: n items detect their own detectable difference
    delta = detectable_difference(60, standard_deviation=1.5, power=0.9)
    assert items_for(delta * (1 + 1e-9), standard_deviation=1.5, power=0.9) == 60


def test_from_a_bootstrap_result():
    runs = pairedstats.datasets.load_runs()
    res = runs.paired.bootstrap(item="query", system="run", score="ndcg", baseline="bm25",
                                n_resamples=200, rng=1)  # fmt: skip
    row = res.iloc[0]
    sd = row["difference"] / row["effect_size"]
    wide = runs.pivot(index="query", columns="run", values="ndcg")
    assert sd == pytest.approx((wide[row["system_b"]] - wide["bm25"]).std(ddof=1))
    n = pairedstats.items_for(row["difference"], standard_deviation=sd)
    assert n == items_for(row["difference"], standard_deviation=sd)


def test_errors():
    with pytest.raises(ValueError, match=r"`difference \(its size\)` must be in"):
        items_for(0.0, standard_deviation=1.0)
    with pytest.raises(ValueError, match="must be positive for alternative='greater'"):
        items_for(-0.1, standard_deviation=1.0, alternative="greater")
    with pytest.raises(ValueError, match=r"`power` must be in \(0.05, 1\)"):
        items_for(0.1, standard_deviation=1.0, power=0.01)
    with pytest.raises(ValueError, match="`standard_deviation` must be in"):
        items_for(0.1, standard_deviation=0.0)
    with pytest.raises(TypeError, match="`alpha` must be a number"):
        items_for(0.1, standard_deviation=1.0, alpha="0.05")
    with pytest.raises(ValueError, match="`alternative` must be one of"):
        items_for(0.1, standard_deviation=1.0, alternative="two.sided")
    with pytest.raises(ValueError, match="more than 1,000,000,000 items"):
        items_for(1e-9, standard_deviation=1.0)
    with pytest.raises(ValueError, match="`n_items` must be at least 2"):
        detectable_difference(1, standard_deviation=1.0)


@pytest.mark.parametrize("difference", ["0.1", None, [0.1], True, np.str_("0.1")])
def test_a_difference_that_is_not_a_number_is_named(difference):
    # not "bad operand type for abs()": the keyword, the rule and the value, plain
    shown = difference.item() if isinstance(difference, np.generic) else difference
    expected = f"`difference` must be a number; got {shown!r}."
    with pytest.raises(TypeError, match=f"^{re.escape(expected)}$"):
        items_for(difference, standard_deviation=1.0)
    with pytest.raises(ValueError, match=r"`difference` must be in \(-inf, inf\); got inf"):
        items_for(np.inf, standard_deviation=1.0)
