"""Items needed and detectable differences (pairedstats.core.power) against R's
``power.t.test(type = "paired", strict = TRUE)`` (tests/reference/power) and simulation; for
0/1 scores, Connor's (1987) McNemar sample size against published values, the exact power of
McNemar's test by enumeration and a simulation."""

import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from tests.data import binomtest_half

import pairedstats
from pairedstats.core.power import (
    detectable_difference,
    items_for,
    paired_power,
    standard_deviation_limit,
)
from pairedstats.core.power_mcnemar import (
    mcnemar_detectable_difference,
    mcnemar_items_for,
    mcnemar_power,
)

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


# ------------------------------------------------------------------ 0/1 scores: McNemar
#: Connor, R. J. (1987). Sample size for testing differences in proportions for the
#: paired-sample design. Biometrics 43(1), 207-211, p. 209: n = (z_{1-alpha/2} sqrt(psi) +
#: z_{power} sqrt(psi - delta^2))^2 / delta^2. Published values of that formula (the paper's
#: own table was not at hand): (p01, p10, alpha, power, n).
CONNOR = [
    # powerandsamplesize.com's McNemar Z-test calculator, its example (cites Connor p. 209):
    # ceiling(n) = 23
    (0.45, 0.05, 0.05, 0.80, 23),
    # ClinicalTrialUtilities.jl, mcnm(0.45, 0.05, alpha=0.1, beta=0.1) = 22.80907052752994
    (0.45, 0.05, 0.10, 0.90, 23),
    # MedCalc's McNemar sample size (Machin, Campbell, Tan and Tan, Sample Size Tables for
    # Clinical Studies): p12 = 0.20, p21 = 0.10 -> 234 pairs
    (0.20, 0.10, 0.05, 0.80, 234),
]


@pytest.mark.parametrize(("p01", "p10", "alpha", "power", "n"), CONNOR)
def test_mcnemar_items_are_connor_s(p01, p10, alpha, power, n):
    psi, delta = p01 + p10, p01 - p10
    plan = dict(discordant_rate=psi, power=power, method="asymptotic")
    assert mcnemar_items_for(delta, alpha=alpha, **plan) == n
    assert mcnemar_items_for(-delta, alpha=alpha, **plan) == n
    assert mcnemar_items_for(delta, alpha=alpha / 2, alternative="greater", **plan) == n


def test_connor_s_unrounded_size():
    # 22.80907052752994 (ClinicalTrialUtilities.jl): 22 items fall short, 23 reach it
    psi, delta = 0.5, 0.4
    near = [mcnemar_power(n, delta, discordant_rate=psi, alpha=0.05, alternative="greater",
                          method="asymptotic") for n in (22, 23)]  # fmt: skip
    assert near[0] < 0.9 <= near[1]
    z = stats.norm.isf(0.05) * np.sqrt(psi) + stats.norm.ppf(0.9) * np.sqrt(psi - delta**2)
    assert (z / delta) ** 2 == pytest.approx(22.80907052752994, rel=1e-12)


def _exact_power(n, p01, p10, alpha):
    """The power of the two-sided uncorrected McNemar z-test, ``|n01 - n10| / sqrt(n01 +
    n10) > z``, by enumeration: D ~ Binomial(n, psi) discordant items, n01 | D ~
    Binomial(D, p01 / psi)."""
    psi = p01 + p10
    z = stats.norm.isf(alpha / 2)
    total = 0.0
    for d, weight in enumerate(stats.binom.pmf(np.arange(n + 1), n, psi)):
        if d:
            x = np.arange(d + 1)
            rejected = np.abs(2 * x - d) > z * np.sqrt(d)
            total += weight * stats.binom.pmf(x, d, p01 / psi)[rejected].sum()
    return total


@pytest.mark.parametrize(
    ("psi", "delta", "power"),
    [(0.4, 0.1, 0.8), (0.2, 0.05, 0.9), (0.3, 0.1, 0.8), (0.5, 0.4, 0.8)],
)
def test_mcnemar_items_reach_the_power_exactly(psi, delta, power):
    # Connor's approximation errs on the safe side: the exact power at the items it gives
    # reaches the target, by at most 0.05 for a few dozen items, 0.01 for hundreds
    n = mcnemar_items_for(delta, discordant_rate=psi, power=power, method="asymptotic")
    exact = _exact_power(n, (psi + delta) / 2, (psi - delta) / 2, 0.05)
    assert power - 0.002 <= exact <= power + (0.01 if n > 200 else 0.05)


def test_mcnemar_power_by_simulation_of_paired_pass_fail_items():
    # 20,000 tables of 0/1 pairs at the items found: the rejection rate of McNemar's test is
    # the target within 4 Monte Carlo standard errors (the approximation adds 0.002)
    psi, delta, power = 0.4, 0.1, 0.8
    n = mcnemar_items_for(delta, discordant_rate=psi, power=power, method="asymptotic")
    assert n == 312
    rng = np.random.default_rng(1987)
    counts = rng.multinomial(n, [(psi + delta) / 2, (psi - delta) / 2, 1 - psi], size=20_000)
    n01, n10 = counts[:, 0], counts[:, 1]
    z = (n01 - n10) / np.sqrt(np.maximum(n01 + n10, 1))
    rate = np.mean(np.abs(z) > stats.norm.isf(0.025))
    assert abs(rate - power) < 4 * np.sqrt(power * (1 - power) / 20_000)


@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
@pytest.mark.parametrize("n", [40, 234, 5000])
def test_mcnemar_detectable_difference_inverts_the_items(n, alternative):
    plan = dict(discordant_rate=0.3, method="asymptotic")
    delta = mcnemar_detectable_difference(n, alternative=alternative, **plan)
    assert np.sign(delta) == (-1 if alternative == "less" else 1)
    assert mcnemar_items_for(delta, alternative=alternative, **plan) == n
    # the near-tail power there is the target
    power = mcnemar_power(
        n,
        delta,
        alternative="less" if alternative == "less" else "greater",
        alpha=0.025 if alternative == "two-sided" else 0.05,
        **plan,
    )
    assert power == pytest.approx(0.8, abs=1e-12)


def test_mcnemar_refusals_and_limits():
    with pytest.raises(ValueError, match="cannot exceed the discordant rate"):
        mcnemar_items_for(0.2, discordant_rate=0.1)
    with pytest.raises(ValueError, match=r"`discordant_rate` must be in"):
        mcnemar_items_for(0.1, discordant_rate=0.0)
    with pytest.raises(ValueError, match="must be positive for alternative='greater'"):
        mcnemar_items_for(-0.1, discordant_rate=0.3, alternative="greater")
    with pytest.raises(ValueError, match="more than 1,000,000,000 items"):
        mcnemar_items_for(1e-6, discordant_rate=0.5)
    assert np.isnan(mcnemar_detectable_difference(3, discordant_rate=0.5))
    # every item discordant, one way: the statistic is sqrt(n), beyond 1.96 from 4 items on;
    # the exact test's p-value 2 / 2^n is below 0.05 from 6 items on
    assert [mcnemar_power(n, -1.0, discordant_rate=1.0, method="asymptotic")
            for n in (3, 4)] == [0.0, 1.0]  # fmt: skip
    assert [mcnemar_power(n, -1.0, discordant_rate=1.0) for n in (5, 6)] == [0.0, 1.0]
    with pytest.raises(ValueError, match="`method` must be one of"):
        mcnemar_items_for(0.1, discordant_rate=0.3, method="exakt")
    with pytest.raises(ValueError, match="more than 1,000,000,000 items"):
        mcnemar_items_for(1e-6, discordant_rate=0.5, method="mid-p")


# --- planning with an upper confidence limit of the pilot's standard deviation ----------------


@pytest.mark.parametrize(("pilot_items", "level"), [(2, 0.5), (10, 0.8), (30, 0.8), (48, 0.95)])
def test_standard_deviation_limit_is_the_chi_square_bound(pilot_items, level):
    """The limit U of s = 1 solves P(chi2_{n-1} <= (n - 1) s^2 / U^2) = 1 - level: the cdf
    at the bound, found here by root finding on the cdf (not the quantile function)."""
    df = pilot_items - 1
    got = standard_deviation_limit(1.0, pilot_items, level)
    np.testing.assert_allclose(stats.chi2.cdf(df / got**2, df), 1 - level, rtol=1e-10)
    from scipy import optimize

    bound = optimize.brentq(lambda u: stats.chi2.cdf(df / u**2, df) - (1 - level), 1e-3, 1e3,
                            xtol=1e-14)  # fmt: skip
    np.testing.assert_allclose(standard_deviation_limit(0.3, pilot_items, level), 0.3 * bound,
                               rtol=1e-9)  # fmt: skip


def test_standard_deviation_limit_covers_at_its_level_over_simulated_pilots():
    gen = np.random.default_rng(35)
    pilots = gen.normal(0.0, 2.0, size=(20_000, 24))
    s = pilots.std(axis=1, ddof=1)
    upper = np.array([standard_deviation_limit(v, 24, 0.8) for v in s[:2000]])
    factor = standard_deviation_limit(1.0, 24, 0.8)
    np.testing.assert_allclose(upper, factor * s[:2000], rtol=1e-12)  # scales with s
    covered = np.mean(factor * s >= 2.0)
    assert abs(covered - 0.8) < 4 * np.sqrt(0.8 * 0.2 / s.size)


def test_items_for_with_the_upper_limit_plans_with_it():
    u = 0.1 * np.sqrt(29 / stats.chi2.ppf(0.2, 29))
    assert pairedstats.items_for(
        0.03, standard_deviation=0.1, standard_deviation_level=0.8, pilot_items=30
    ) == pairedstats.items_for(0.03, standard_deviation=u)
    assert pairedstats.items_for(0.5, standard_deviation=1.0, standard_deviation_level=0.8,
                                 pilot_items=30) == 43  # fmt: skip
    assert pairedstats.items_for(0.5, standard_deviation=1.0) == 34
    with pytest.raises(ValueError, match="go together"):
        pairedstats.items_for(0.5, standard_deviation=1.0, standard_deviation_level=0.8)
    with pytest.raises(ValueError, match="go together"):
        pairedstats.items_for(0.5, standard_deviation=1.0, pilot_items=30)
    with pytest.raises(ValueError, match="`pilot_items` must be at least 2"):
        pairedstats.items_for(0.5, standard_deviation=1.0, standard_deviation_level=0.8,
                              pilot_items=1)  # fmt: skip
    with pytest.raises(TypeError, match="`pilot_items` must be an integer"):
        standard_deviation_limit(1.0, 2.5, 0.8)
    with pytest.raises(ValueError, match="standard_deviation_level"):
        standard_deviation_limit(1.0, 30, 1.0)


# ------------------------------------------------ 0/1 scores: the exact and mid-p tests
def _test_power(n, p01, p10, alpha, alternative, method):
    """The power of McNemar's exact or mid-p test by enumeration of every table: N ~
    Binomial(n, psi) discordant items, only_b | N ~ Binomial(N, p01 / psi), each table's
    p-value from scipy (``binomtest``'s, by :func:`tests.data.binomtest_half`; the mid-p from
    the binomial pmf and cdf), rejected when below ``alpha``. Independent of the critical
    values the package computes."""
    psi = p01 + p10
    total = 0.0
    for big, weight in enumerate(stats.binom.pmf(np.arange(n + 1), n, psi)):
        k = np.arange(big + 1)
        if method == "exact":
            p = binomtest_half(big, alternative)
        else:
            below, at = stats.binom.cdf(k - 1, big, 0.5), stats.binom.pmf(k, big, 0.5)
            above = stats.binom.sf(k, big, 0.5)
            less, greater = below + at / 2, above + at / 2
            p = {
                "less": less,
                "greater": greater,
                "two-sided": np.minimum(1.0, 2 * np.minimum(less, greater)),
            }[alternative]
        total += weight * stats.binom.pmf(k, big, p01 / psi)[p < alpha].sum()
    return total


@pytest.mark.parametrize("method", ["exact", "mid-p"])
@pytest.mark.parametrize(
    ("n", "psi", "delta", "alpha", "alternative"),
    [(25, 0.5, 0.4, 0.05, "two-sided"), (40, 0.3, -0.1, 0.05, "two-sided"),
     (60, 0.2, 0.1, 0.1, "greater"), (33, 1.0, 0.5, 0.05, "two-sided"),
     (50, 0.125, -0.1, 0.05, "less"), (17, 0.9, 0.0, 0.05, "two-sided")],
)  # fmt: skip
def test_exact_power_is_the_enumeration_of_every_table(n, psi, delta, alpha, alternative,
                                                       method):  # fmt: skip
    want = _test_power(n, (psi + delta) / 2, (psi - delta) / 2, alpha, alternative, method)
    got = mcnemar_power(n, delta, discordant_rate=psi, alpha=alpha, alternative=alternative,
                        method=method)  # fmt: skip
    assert got == pytest.approx(want, rel=1e-10, abs=1e-14)


def _binomial_powers(top, p01, p10, alpha, method):
    """The two-sided power at every n = 1..top by the same enumeration (vectorized)."""
    psi = p01 + p10
    reject = np.zeros(top + 1)
    for big in range(1, top + 1):
        k = np.arange(big + 1)
        below, at = stats.binom.cdf(k - 1, big, 0.5), stats.binom.pmf(k, big, 0.5)
        above = stats.binom.sf(k, big, 0.5)
        half = 0.5 if method == "mid-p" else 1.0
        p = np.minimum(1.0, 2 * np.minimum(below + half * at, above + half * at))
        reject[big] = stats.binom.pmf(k, big, p01 / psi)[p < alpha].sum()
    return np.array([np.sum(stats.binom.pmf(np.arange(m + 1), m, psi) * reject[: m + 1])
                     for m in range(1, top + 1)])  # fmt: skip


@pytest.mark.parametrize("method", ["exact", "mid-p"])
@pytest.mark.parametrize(
    ("psi", "delta", "want"),
    [(0.5, 0.4, {"exact": 25, "mid-p": 21}), (0.125, 0.1, {"exact": 100, "mid-p": 86}),
     (0.2, 0.1, {"exact": 168, "mid-p": 152}), (1.0, 0.5, {"exact": 30, "mid-p": 29}),
     (0.3, 0.1, {"exact": 249, "mid-p": 230})],
)  # fmt: skip
def test_exact_plan_is_the_smallest_number_of_items_that_reaches_the_power(psi, delta, want,
                                                                          method):  # fmt: skip
    # the exact test needs more items than Connor's plan of the asymptotic test (23, 96,
    # 155, 29, 234): Connor's plan gives it 0.72-0.80 power
    n = mcnemar_items_for(delta, discordant_rate=psi, method=method)
    assert n == want[method]
    powers = _binomial_powers(n, (psi + delta) / 2, (psi - delta) / 2, 0.05, method)
    assert powers[-1] >= 0.8
    assert (powers[:-1] < 0.8).all()
    connor = mcnemar_items_for(delta, discordant_rate=psi, method="asymptotic")
    if method == "exact":
        assert n > connor
        assert powers[connor - 1] < 0.8


def test_exact_plan_beyond_the_scan_is_the_crossing_of_the_power():
    # bisection above SCAN_ITEMS: the power at n reaches the target, at n - 1 it does not
    for method in ("exact", "mid-p"):
        n = mcnemar_items_for(0.02, discordant_rate=0.05, method=method)
        assert n == {"exact": 1035, "mid-p": 950}[method]
        at = [mcnemar_power(m, 0.02, discordant_rate=0.05, method=method) for m in (n - 1, n)]
        assert at[0] < 0.8 <= at[1]
    # 7.6% more items than Connor's 979 for the exact test
    assert mcnemar_items_for(0.02, discordant_rate=0.05, method="asymptotic") == 979


@pytest.mark.parametrize("method", ["exact", "mid-p"])
def test_exact_detectable_difference_reaches_the_power(method):
    delta = mcnemar_detectable_difference(249, discordant_rate=0.3, method=method)
    want = _test_power(249, (0.3 + delta) / 2, (0.3 - delta) / 2, 0.05, "two-sided", method)
    assert want == pytest.approx(0.8, abs=1e-9)
    less = mcnemar_detectable_difference(249, discordant_rate=0.3, method=method,
                                         alternative="less")  # fmt: skip
    assert less < 0
