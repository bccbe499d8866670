"""The one home of the checks of single values (pairedstats.core.checks): its rules, and the
core and the methods reading a value by the same rule (one case rule for every choice)."""

import numpy as np
import pandas as pd
import pytest

import pairedstats
from pairedstats.core import adjust, checks, tango
from pairedstats.core.mcnemar_pairs import mcnemar_pairs
from pairedstats.core.power_mcnemar import mcnemar_power


@pytest.mark.parametrize("value", [0.5, np.float32(0.25), np.float64(1e-300), 1 - 2**-53])
def test_a_probability_is_a_float_strictly_inside(value):
    assert checks.probability(value, "alpha") == float(value)
    assert type(checks.probability(value, "alpha")) is float


@pytest.mark.parametrize(
    ("value", "error", "said"),
    [(0.0, ValueError, "got 0.0."), (1.0, ValueError, "got 1.0."),
     (float("nan"), ValueError, "got nan."), (True, TypeError, "got True."),
     (np.str_("0.5"), TypeError, "got '0.5'."), (None, TypeError, "got None.")],
)  # fmt: skip
def test_a_probability_refused_names_its_rule_and_the_value_as_python_shows_it(value, error, said):
    with pytest.raises(
        error, match=r"^`alpha` must be (a number )?strictly between 0 and 1; "
    ) as e:
        checks.probability(value, "alpha")
    assert str(e.value).endswith(said)


def test_a_choice_matches_whatever_its_case_and_returns_the_spelling_of_the_choices():
    assert checks.choice("Two-Sided", "alternative", ("two-sided", "less")) == "two-sided"
    assert checks.choice("max", "statistic", ("MAX", "range")) == "MAX"
    with pytest.raises(ValueError, match=r"^`alternative` must be one of 'two-sided', 'less'; "
                                         r"got 'more'\.$"):  # fmt: skip
        checks.choice("more", "alternative", ("two-sided", "less"))
    with pytest.raises(ValueError, match=r"got 1\.$"):
        checks.choice(np.int64(1), "alternative", ("two-sided", "less"))


def test_a_count_and_a_flag():
    assert checks.count(np.int64(7), "n_resamples") == 7
    assert checks.count(0, "only_a", 0) == 0
    with pytest.raises(ValueError, match=r"^`n_resamples` must be at least 1; got 0\.$"):
        checks.count(0, "n_resamples")
    with pytest.raises(TypeError, match=r"must be a whole number, at least 1; got 2\.0\.$"):
        checks.count(2.0, "n_resamples")
    with pytest.raises(TypeError, match="got True"):
        checks.count(True, "n_resamples")
    assert checks.flag(np.False_, "simultaneous") is False
    with pytest.raises(TypeError, match=r"^`simultaneous` must be True or False; got 1\.$"):
        checks.flag(1, "simultaneous")


def test_the_core_and_the_methods_read_a_choice_by_one_case_rule():
    # before the one home, the core's Tango and McNemar refused "Less" (case-sensitive)
    # while the methods took it: now every layer takes it and computes the same numbers
    lower = tango.tango_interval(3, 9, 40, alternative="less")
    assert tango.tango_interval(3, 9, 40, alternative="LESS") == lower
    x = (np.random.default_rng(3).random((60, 4)) < 0.6).astype(float)
    pairs = [(0, 1), (2, 3)]
    a = mcnemar_pairs(x, pairs, method="mid-p", alternative="greater")
    b = mcnemar_pairs(x, pairs, method="Mid-P", alternative="Greater")
    np.testing.assert_array_equal(a.pvalue, b.pvalue)
    p = np.array([[0.01, 0.04, 0.2]])
    np.testing.assert_array_equal(adjust.add_one_pvalues(p, 999, "Two-Sided"),
                                  adjust.add_one_pvalues(p, 999, "two-sided"))  # fmt: skip
    assert mcnemar_power(200, 0.1, discordant_rate=0.3, method="EXACT") == mcnemar_power(
        200, 0.1, discordant_rate=0.3, method="exact"
    )
    table = pd.DataFrame(x, columns=["zeta", "alpha", "mid", "beta"])
    assert table.paired.mcnemar(alternative="Less").equals(
        table.paired.mcnemar(alternative="less")
    )
    with pytest.raises(ValueError, match=r"`alternative` must be one of"):
        pairedstats.mcnemar(x, alternative="sideways")
