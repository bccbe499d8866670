"""The functional rank-sum API: validation messages, result shape, groups, warnings, R."""

import csv
import math
from pathlib import Path

import numpy as np
import pytest

from pairedstats.core.design import TwoSampleDesign
from pairedstats.inputs import two_sample_from_arrays
from pairedstats.methods.ranksum import (
    RanksumConfidenceWarning,
    RanksumResult,
    ranksum,
    ranksum_design,
)
from pairedstats.methods.ranksum.settings import Options, check

REF = Path(__file__).parent / "reference" / "ranksum"


def _read(name):
    with open(REF / name, newline="") as fh:
        return list(csv.DictReader(fh))


DATASETS = {
    r["dataset"]: (np.array(r["a"].split(), float), np.array(r["b"].split(), float))
    for r in _read("datasets.csv")
}


def _design(groups, labels=("control", "treated")):
    a = np.concatenate([g[0] for g in groups])
    b = np.concatenate([g[1] for g in groups])
    return TwoSampleDesign(
        a=a,
        b=b,
        a_offsets=np.cumsum([0] + [len(g[0]) for g in groups]),
        b_offsets=np.cumsum([0] + [len(g[1]) for g in groups]),
        labels=labels,
        group_names=("site",),
        group_keys=tuple((f"s{i}",) for i in range(len(groups))),
    )


GOOD = {
    "alternative": "two-sided",
    "confidence_level": 0.95,
    "method": "auto",
    "correction": True,
}


@pytest.mark.parametrize(
    ("a", "b", "kwargs", "error", "match"),
    [
        ([[1.0, 2.0]], [1.0], {}, ValueError, r"`a` must be one-dimensional; got shape \(1, 2\)"),
        ([1.0], 3.0, {}, ValueError, r"`b` must be one-dimensional; got shape \(\)"),
        (
            ["x", "y"],
            [1.0],
            {},
            TypeError,
            r"`a`: the scores of 'a' must be numeric; got dtype <U1",
        ),
        ([1.0], [1j], {}, TypeError, r"`b`: the scores of 'b' must be real numbers; got complex"),
        (
            [1.0, np.nan],
            [1.0],
            {},
            ValueError,
            r"`a`: scores must not be NaN; group 'a' has 1 NaN",
        ),
        (
            [1.0],
            [np.inf, -np.inf],
            {},
            ValueError,
            r"`b`: scores must be finite; group 'b' has 2 inf",
        ),
        ([], [1.0], {}, ValueError, r"each group needs at least 1 value; group 'a' has none"),
        ([1.0], [], {}, ValueError, r"each group needs at least 1 value; group 'b' has none"),
        (
            [2**60, 2**60 + 1],
            [2**60 + 2],
            {},
            ValueError,
            r"`a`: the scores of 'a' must be integers of magnitude at most 2\*\*53.*got 115292150",
        ),
        ([1.0], [2.0], {"alternative": "bigger"}, ValueError, r"`alternative` must be one of"),
        ([1.0], [2.0], {"method": "permutation"}, ValueError, r"`method` must be one of 'auto'"),
        ([1.0], [2.0], {"confidence_level": 1.5}, ValueError, r"strictly between 0 and 1; got"),
        ([1.0], [2.0], {"confidence_level": "95%"}, TypeError, r"`confidence_level` must be a"),
        ([1.0], [2.0], {"correction": 1}, TypeError, r"`correction` must be True or False; got 1"),
    ],
)
def test_invalid_keywords_are_refused(a, b, kwargs, error, match):
    with pytest.raises(error, match=match):
        ranksum(a, b, **kwargs)


def test_check_reads_the_design_and_the_keywords():
    with pytest.raises(TypeError, match=r"`design` must be a TwoSampleDesign; got dict"):
        ranksum_design({})
    empty = _design([(np.array([1.0]), np.array([2.0])), (np.array([]), np.array([3.0]))])
    with pytest.raises(ValueError, match=r"group 'control' has none in group \{'site': 's1'\}"):
        ranksum_design(empty)
    design = two_sample_from_arrays([1, 2], [3])
    options = Options(alternative="Less", confidence_level=0.9, method="EXACT",
                      correction=np.True_, progress=False)  # fmt: skip
    s = check(design, options, keep=True)
    assert (s.alternative, s.confidence_level, s.method) == ("less", 0.9, "exact")
    assert s.correction is True
    assert s.progress is False
    assert s.design.a.dtype == np.float64


def test_exact_too_large_is_refused():
    rng = np.random.default_rng(0)
    with pytest.raises(ValueError, match=r"`method='exact'` would need tables of .* n_a=20000"):
        ranksum(rng.normal(size=20000), rng.normal(size=20000), method="exact")


def test_result_shape_columns_and_metadata():
    a, b = DATASETS["d20x15"]
    res = ranksum(a, b, alternative="greater", confidence_level=0.9)
    assert isinstance(res, RanksumResult)
    for name in RanksumResult._columns:
        assert getattr(res, name).shape == (1, 1)
    frame = res.to_dataframe()
    assert list(frame.columns[:2]) == ["group_a", "group_b"]
    assert {"n_a", "n_b", "rank_sum_a", "u_a", "z", "pvalue", "shift", "ci_low", "ci_high"} <= set(
        frame.columns
    )
    assert frame.loc[0, "method"] == "exact"
    assert frame.attrs["method"] == "ranksum"
    assert frame.attrs["method_requested"] == "auto"
    assert frame.attrs["alternative"] == "greater"
    assert frame.attrs["confidence_level"] == 0.9
    assert frame.attrs["correction"] is True
    assert res.ci_high[0, 0] == math.inf
    ds = res.to_dataset()
    assert float(ds["pvalue"][0]) == res.pvalue[0, 0]
    assert "Wilcoxon rank-sum" in str(res)


def test_api_matches_r_reference():
    # R: wilcox.test(x = a, y = b, alternative = "less", exact = TRUE, conf.level = 0.95)
    row = next(
        r
        for r in _read("cases.csv")
        if r["dataset"] == "d40x49"
        and r["alternative"] == "less"
        and r["exact"] == "TRUE"
        and r["conf_level"] == "0.95"
    )
    a, b = DATASETS["d40x49"]
    res = ranksum(a, b, alternative="greater")  # R's "less" about a - b
    assert res.u_a[0, 0] == float(row["W"])
    np.testing.assert_allclose(res.pvalue[0, 0], float(row["p_value"]), rtol=1e-10)
    assert res.ci_low[0, 0] == -float(row["ci_high"])
    assert res.shift[0, 0] == -float(row["estimate"])


def test_groups_are_independent_and_match_single_calls():
    rng = np.random.default_rng(7)
    groups = [
        (rng.normal(size=12), rng.normal(size=9) + 1),
        (rng.integers(0, 4, 30) * 1.0, rng.integers(0, 5, 25) * 1.0),
        (rng.normal(size=500), rng.normal(size=450) + 0.1),
    ]
    res = ranksum_design(_design(groups), alternative="less", correction=False)
    assert res.pvalue.shape == (3, 1)
    assert list(res.method[:, 0]) == ["exact", "exact-conditional", "asymptotic"]
    for g, (a, b) in enumerate(groups):
        single = ranksum(a, b, alternative="less", correction=False)
        for name in RanksumResult._columns:
            assert getattr(res, name)[g, 0] == getattr(single, name)[0, 0], name
    alone = ranksum_design(_design(groups[1:2]), alternative="less", correction=False)
    assert alone.pvalue[0, 0] == res.pvalue[1, 0]
    frame = res.to_dataframe()
    assert list(frame["site"]) == ["s0", "s1", "s2"]
    assert list(frame["group_a"]) == ["control"] * 3


def test_unreachable_level_warns_with_r_interval():
    a, b = DATASETS["two_two"]
    with pytest.warns(RanksumConfidenceWarning, match=r"confidence_level=0.95 cannot be reached"):
        res = ranksum(a, b, method="exact")
    # R: wilcox.test(a, b, conf.int = TRUE) warns too and reports the widest interval
    d = np.subtract.outer(b, a).ravel()
    assert (res.ci_low[0, 0], res.ci_high[0, 0]) == (d.min(), d.max())
    np.testing.assert_allclose(res.ci_coverage[0, 0], 1 - 2 / 6)
    with pytest.warns(RanksumConfidenceWarning, match=r"in group site='s0'"):
        ranksum_design(_design([(a, b)]))


def test_unreachable_level_warns_once_per_call():
    # two of three groups cannot reach the level: one warning naming how many, and the first
    a, b = DATASETS["two_two"]
    design = _design([DATASETS["d8x12"], (a, b), (a, b)])
    with pytest.warns(RanksumConfidenceWarning) as caught:
        ranksum_design(design, method="exact")
    assert len(caught) == 1
    assert str(caught[0].message) == (
        "Confidence level out of reach in 2 of 3 groups, e.g. group site='s1': "
        "confidence_level=0.95 cannot be reached with n_a=2 and n_b=2; the widest interval "
        "covers with probability 0.6667. The widest interval of the differences is reported "
        "there; its guaranteed coverage is in `ci_coverage`."
    )


def test_reachable_level_reports_its_coverage():
    a, b = DATASETS["d8x12"]
    res = ranksum(a, b, confidence_level=0.9)
    assert 0.9 <= res.ci_coverage[0, 0] < 0.92
