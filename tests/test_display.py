"""How numbers are shown, and the compact letter display (Piepho 2004 insert-and-absorb)."""

import itertools
from fractions import Fraction

import numpy as np
import pytest
from tests.data import unsorted_runs

from pairedstats.display import (
    bound_text,
    cell_text,
    label_text,
    latex_number,
    letter_sets,
    letters,
    number_text,
    rounded_up,
)


def _significant(text: str) -> int:
    digits = text.lstrip("-").split("e")[0].replace(".", "").lstrip("0")
    return len(digits)


@pytest.mark.parametrize("digits", [1, 2, 3, 6])
@pytest.mark.parametrize("family", [1, 3])
def test_the_bound_is_the_smallest_number_of_its_digits_not_below_m_over_n(digits, family):
    # exact rational arithmetic, independent of the decimal module used by rounded_up
    for trials in [*range(3, 3001), 9_999, 10_000, 10_001, 65_536, 10**6, 3 * 10**6]:
        bound = Fraction(repr(rounded_up(family / trials, digits)))
        exact = Fraction(family, trials)
        lead = 0  # exact lies in [10**lead, 10**(lead + 1))
        while Fraction(10) ** lead > exact:
            lead -= 1
        unit = Fraction(10) ** (lead - digits + 1)  # the unit of the last shown digit
        assert exact <= bound < exact + unit, (trials, digits, bound)
        assert _significant(number_text(float(bound), digits)) <= digits


def test_bound_texts():
    assert bound_text(1 / 10_000) == "<0.0001"
    assert bound_text(1 / 2_000) == "<0.0005"
    assert bound_text(1 / 3_000) == "<0.000333334"
    assert bound_text(3 / 10_000) == "<0.0003"
    assert bound_text(1 / 7, 3) == "<0.143"
    assert bound_text(1 / 10**6, 3) == "<1e-06"
    assert bound_text(1 / 10**6, 3, latex=True) == r"<1\times10^{-6}"
    assert bound_text(1 / 300, 3, latex=True) == "<0.00334"


def test_numbers_as_text_and_latex():
    assert [number_text(v) for v in (0.1234567, 1.2e-5, 300.0, -0.5, 0.0, float("nan"))] == [
        "0.123457", "1.2e-05", "300", "-0.5", "0", "NaN"
    ]  # fmt: skip
    assert number_text(float("inf")) == "inf"
    assert number_text(0.00123456789, 3) == "0.00123"
    # LaTeX: decimals, and significant digits where the decimals would show zero
    assert latex_number(0.04678, 3) == "0.047"
    assert latex_number(-1.2e-5, 3) == r"-1.2\times10^{-5}"
    assert latex_number(1.23456e-12, 2) == r"1.2\times10^{-12}"
    assert latex_number(0.00099, 3) == "0.00099"
    assert latex_number(0.001, 3) == "0.001"
    assert latex_number(0.0, 3) == "0.000"
    assert latex_number(0.4, 0) == "0.4"


def test_hand_worked_example():
    # A > B > C > D; A-C, A-D and B-D differ. By hand: start {ABCD};
    # A-C splits it into {BCD}, {ABD}; A-D splits {ABD} into {BD}, {AB}, and {BD} is
    # absorbed by {BCD}; B-D splits {BCD} into {CD}, {BC}. Columns {AB}, {BC}, {CD}.
    got = letter_sets("ABCD", [("A", "C"), ("A", "D"), ("B", "D")], means=[4, 3, 2, 1])
    assert got == {"A": "a", "B": "ab", "C": "bc", "D": "c"}


def test_letter_a_goes_to_the_highest_mean_whatever_the_input_order():
    got = letter_sets("DCBA", [("A", "C"), ("A", "D"), ("B", "D")], means=[1, 2, 3, 4])
    assert got == {"D": "c", "C": "bc", "B": "ab", "A": "a"}


def test_none_and_all_different():
    assert letter_sets("xyz", []) == {"x": "a", "y": "a", "z": "a"}
    pairs = list(itertools.combinations("wxyz", 2))
    assert letter_sets("wxyz", pairs, means=[1, 2, 3, 4]) == {
        "w": "d", "x": "c", "y": "b", "z": "a"
    }  # fmt: skip


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6, 7])
def test_shared_letter_exactly_when_not_different(n):
    rng = np.random.default_rng(n)
    systems = [f"s{i}" for i in range(n)]
    pairs = list(itertools.combinations(systems, 2))
    for _ in range(60):
        different = [p for p in pairs if rng.random() < 0.5]
        got = letter_sets(systems, different, means=rng.normal(size=n))
        for a, b in pairs:
            share = bool(set(got[a]) & set(got[b]))
            assert share == ((a, b) not in different), (different, got)
        # no letter's set of systems is contained in another's (absorbed)
        columns = {ch: {s for s in systems if ch in got[s]} for s in systems for ch in got[s]}
        for c1, c2 in itertools.permutations(columns, 2):
            assert not columns[c1] <= columns[c2]


def test_letters_of_a_tukey_result_per_group():
    runs = unsorted_runs()
    hsd = runs.paired.tukey_hsd(
        item="query", system="run", score="ndcg", by="collection", n_resamples=2000, rng=3,
        as_result=True,
    )  # fmt: skip
    table = letters(hsd, alpha=0.05)
    assert list(table.columns) == ["collection", "system", "mean", "letters"]
    frame = hsd.to_dataframe()
    for collection, part in table.groupby("collection", sort=False):
        assert part["mean"].is_monotonic_decreasing
        assert part["letters"].iloc[0].startswith("a")
        got = dict(zip(part["system"], part["letters"]))
        rows = frame[frame["collection"] == collection]
        for row in rows.itertuples():
            share = bool(set(got[row.system_a]) & set(got[row.system_b]))
            assert share == (row.pvalue >= 0.05)
            assert part.set_index("system").loc[row.system_a, "mean"] == row.mean_a
    # a stricter alpha can only merge groups
    strict = letters(hsd, alpha=1e-9)
    assert set(strict["letters"]) == {"a"}


def test_errors():
    runs = unsorted_runs()
    boot = runs.paired.bootstrap(
        item="query", system="run", score="ndcg", n_resamples=200, rng=1, as_result=True
    )
    with pytest.raises(TypeError, match="this BootstrapResult has unadjusted p-values"):
        letters(boot)
    with pytest.raises(TypeError, match="letters need a result with 'mean_a'"):
        letters(runs.paired.ranksum(score="ndcg", group="run", a="bm25", b="dense",
                                    as_result=True))  # fmt: skip
    hsd = runs.paired.tukey_hsd(
        item="query", system="run", score="ndcg", n_resamples=200, rng=1, as_result=True
    )
    with pytest.raises(ValueError, match=r"`alpha` must be a number in \(0, 1\); got 1.5"):
        letters(hsd, alpha=1.5)
    with pytest.raises(ValueError, match="`systems` must be distinct"):
        letter_sets("aab", [])
    with pytest.raises(ValueError, match="cannot differ from itself: 'a'"):
        letter_sets("ab", [("a", "a")])
    with pytest.raises(ValueError, match=r"one value per system \(2\); got \(3,\)"):
        letter_sets("ab", [], means=[1, 2, 3])


# ------------------------------------------------------- one rule per number
def test_labels_are_shown_as_the_values_they_hold_by_every_table():
    import pairedstats

    systems = [0.1234562, 0.1234561, 0.5]  # six digits would show the first two alike
    scores = np.random.default_rng(4).normal(size=(20, 3))
    res = pairedstats.tukey_hsd(scores, systems=systems, n_resamples=99, rng=1)
    pairs = [("0.1234562", "0.1234561"), ("0.1234562", "0.5"), ("0.1234561", "0.5")]
    assert [tuple(line.split()[:2]) for line in str(res).splitlines()[-3:]] == pairs
    markdown = res.to_markdown().splitlines()
    assert markdown[1].startswith("|---|---|---:")  # labels are text, left-aligned
    assert [tuple(line.split(" | ")[:2]) for line in markdown[2:]] == [
        ("| " + a, b) for a, b in pairs
    ]
    assert [tuple(line.split(" & ")[:2]) for line in res.to_latex().splitlines()[4:7]] == pairs
    html = res._repr_html_()
    assert all(f"<td>{a}</td>\n      <td>{b}</td>" in html for a, b in pairs)
    assert label_text(np.float32(0.1)) == "0.1"
    assert label_text((np.str_("bm25"), np.int64(2))) == "('bm25', 2)"


def test_one_rule_shows_each_kind_of_number():
    # a p-value of 0 from B draws: its bound, in text and LaTeX; an exact 0 stays 0
    assert cell_text(0.0, pvalue=True, bound=1 / 10_000) == "<0.0001"
    assert cell_text(0.0, pvalue=True, bound=1 / 10_000, latex=True, digits=3) == "<0.0001"
    assert cell_text(0.0, pvalue=True) == "0"
    assert cell_text(0.0, bound=1 / 10_000) == "0"  # not a p-value: no bound
    # counts are integers whatever their size or dtype
    assert cell_text(2_500_000.0, count=True) == "2500000"
    assert cell_text(1164.0, count=True, latex=True, digits=3) == "1164"
    assert cell_text(np.int64(7), latex=True, digits=3) == "7"
    assert cell_text(float("nan"), count=True) == "NaN"
    assert cell_text(float("nan"), count=True, latex=True) == "--"
    # other numbers: significant digits in text, decimals in LaTeX
    assert cell_text(0.1234567) == "0.123457"
    assert cell_text(0.0004, pvalue=True, latex=True, digits=3) == "<0.001"
    assert cell_text(-float("inf"), latex=True) == r"-\infty"


def test_an_underflowed_rank_test_pvalue_is_shown_as_the_bound_it_stands_for():
    # two very separated samples: the normal p-value is below the smallest positive double;
    # every display shows the bound, the data keep the 0; an exact p-value is never bounded
    import pandas as pd

    import pairedstats

    a = np.arange(2000.0)
    apart = np.column_stack([a, a + np.arange(1, 2001)])
    results = {
        "ranksum": pairedstats.ranksum(a, a + 5000, method="asymptotic"),
        "signrank": pairedstats.signrank(apart, method="asymptotic"),
    }
    for name, res in results.items():
        assert res.pvalue[0, 0] == 0, name
        assert res.z[0, 0] > 38, name
        assert res.pvalue_bounds()["pvalue"].tolist() == [5e-324], name
        for shown in (str(res), res.to_markdown(), res._repr_html_()):
            assert "<4.94066e-324" in shown or "&lt;4.94066e-324" in shown, name
        assert r"$<4.94\times10^{-324}$" in res.to_latex(), name
        assert res.to_dataframe()["pvalue"].iloc[0] == 0, name
    exact = pairedstats.ranksum(a[:5], a[:5] + 10, method="exact")
    assert exact.pvalue_bounds()["pvalue"].tolist() == [0.0]
    frame = pd.DataFrame({"a": a[:60], "b": a[:60] + 0.5 + np.sin(a[:60])})
    res = frame.paired.signrank(method="asymptotic", as_result=True)
    assert res.pvalue[0, 0] > 0
    assert res.pvalue_bounds()["pvalue"].tolist() == [0.0]


def _ranked_frame(seed=2, n=40):
    """Systems named out of order: mid highest, zeta next, alpha lowest (sorted names and
    the input order both differ from the ranks), in two collections."""
    import pandas as pd

    rng = np.random.default_rng(seed)
    parts = []
    for collection, shift in (("trec", 0.0), ("msmarco", 0.5)):
        base = rng.normal(size=n)
        parts.append(pd.DataFrame({
            "collection": collection,
            "query": [f"q{i:02d}" for i in range(n)],
            "zeta": base + 1.0 + shift + rng.normal(scale=0.1, size=n),
            "alpha": base + rng.normal(scale=0.1, size=n),
            "mid": base + 2.0 + rng.normal(scale=0.1, size=n),
        }))  # fmt: skip
    wide = pd.concat(parts, ignore_index=True)
    return wide.melt(id_vars=["collection", "query"], var_name="run", value_name="score")


@pytest.mark.parametrize("lower_is_better", [False, True])
def test_a_ranking_printed_highest_first_lists_the_highest_first(lower_is_better):
    tidy = _ranked_frame()
    res = tidy.paired.rank(item="query", system="run", score="score", by="collection",
                           lower_is_better=lower_is_better, n_resamples=1000, rng=1,
                           as_result=True)  # fmt: skip
    lines = str(res).splitlines()
    order = "lowest" if lower_is_better else "highest"
    assert f"by mean ({order} first)" in lines[0]
    assert lines[2].startswith("may_be_best: the rank set contains 1 at 0.95 (simultaneous)")
    rows = [line.split() for line in lines[5:]]
    assert lines[4].split()[:4] == ["collection", "system", "mean", "rank"]
    expected = ["alpha", "zeta", "mid"] if lower_is_better else ["mid", "zeta", "alpha"]
    for collection in ("trec", "msmarco"):
        part = [row for row in rows if row[0] == collection]
        assert [row[1] for row in part] == expected
        assert [int(row[3]) for row in part] == [1, 2, 3]
        means = [float(row[2]) for row in part]
        assert means == sorted(means, reverse=not lower_is_better)
    # the table itself keeps the system order
    assert res.to_dataframe()["system"].tolist()[:3] == list(res.systems)
