"""What the printouts say: no seed where nothing is drawn, the two best-set answers naming
each other, the planning table's target column, mean ranks in rank order."""

import numpy as np
import pandas as pd
import pytest

import pairedstats


def _pass_fail(n=60, seed=5):
    """Right/wrong of three systems on the same questions, not named in sorted order."""
    rng = np.random.default_rng(seed)
    base = rng.random(n)
    return pd.DataFrame({"zeta": (base < 0.6).astype(int), "alpha": (base < 0.8).astype(int),
                         "mid": (rng.random(n) < 0.65).astype(int)})  # fmt: skip


def test_a_mcnemar_report_draws_nothing_and_prints_no_seed():
    table = _pass_fail()
    rep = table.paired.report(test="mcnemar", rng=12345)
    assert rep.seed_entropy is None
    assert rep.metadata["seed_entropy"] is None
    assert "seed_entropy" not in str(rep)
    assert str(rep).splitlines()[1] == "test=mcnemar, adjust=holm, confidence_level=0.95"
    assert "seed_entropy" not in rep.to_markdown()
    # a ranking is a bootstrap: then the seed is recorded and printed
    ranked = table.paired.report(test="mcnemar", ranks=True, n_resamples=200, rng=12345)
    assert ranked.seed_entropy == 12345
    assert "seed_entropy=12345" in str(ranked)


def test_exact_tukey_hsd_records_no_seed_and_monte_carlo_does():
    # 6 items x 3 systems on an integer grid: every p-value is enumerated exactly
    table = pd.DataFrame({"zeta": [1, 2, 3, 1, 2, 2], "alpha": [2, 3, 3, 2, 3, 1],
                          "mid": [1, 1, 2, 2, 2, 3]})  # fmt: skip
    exact = table.paired.tukey_hsd(method="exact", rng=7, as_result=True)
    assert set(exact.to_dataframe()["pvalue_method"]) == {"exact"}
    assert "seed_entropy" not in exact.metadata
    assert "seed_entropy" not in str(exact)
    # "auto" may draw in another chunk of a sweep: recorded, but printed only when drawn
    auto = table.paired.tukey_hsd(rng=7, as_result=True)
    assert auto.metadata["seed_entropy"] == 7
    assert str(auto).splitlines()[1].split()[:2] == ["system_a", "system_b"]
    assert "seed_entropy" not in str(auto)
    drawn = table.paired.tukey_hsd(method="monte-carlo", n_resamples=500, rng=7, as_result=True)
    assert drawn.metadata["seed_entropy"] == 7
    assert "seed_entropy=7" in str(drawn)
    rep = table.paired.report(test="tukey_hsd", rng=7)
    assert rep.seed_entropy is None
    assert "seed_entropy" not in str(rep)
    assert table.paired.report(test="bootstrap", n_resamples=200, rng=7).seed_entropy == 7


@pytest.mark.parametrize("method", ["mcnemar", "signtest", "signrank", "friedman"])
def test_deterministic_methods_record_no_seed(method):
    table = _pass_fail()
    if method != "mcnemar":
        table = table + np.arange(60)[:, None] % 7 / 10
    frame = getattr(table.paired, method)()
    assert not any("seed" in key for key in frame.attrs)


def test_items_for_names_its_target_and_explains_its_nans():
    rng = np.random.default_rng(0)
    table = pd.DataFrame({"zeta": rng.normal(0.5, 0.1, 40), "alpha": rng.normal(0.52, 0.1, 40),
                          "mid": rng.normal(0.5, 0.1, 40)})  # fmt: skip
    res = table.paired.items_for(0.02, baseline="zeta", as_result=True)
    frame = res.to_dataframe()
    assert "difference" not in frame.columns
    assert frame["target_difference"].tolist() == [0.02, 0.02]
    assert frame["method"].tolist() == ["t", "t"]
    assert frame["discordant_rate_planned"].isna().all()
    assert str(res).splitlines()[0] == (
        "Items needed to detect the target difference b - a (the spread observed in the table)"
    )
    flips = _pass_fail().paired.items_for(0.1, baseline="zeta")
    assert flips["method"].tolist() == ["mcnemar", "mcnemar"]
    assert flips["standard_deviation_planned"].isna().all()
    assert flips["discordant_rate_planned"].tolist() == flips["discordant_rate"].tolist()
    notes = " ".join(type(res).__doc__.split("Notes\n    -----")[1].split())
    assert "NaN in ``standard_deviation_planned``" in notes


def test_mean_ranks_are_in_rank_order_ties_by_label_with_their_letters():
    # four data sets; "mid" and "beta" tie on every one (equal mean rank)
    scores = {"zeta": [0.2, 0.3, 0.1, 0.2], "mid": [0.5, 0.6, 0.4, 0.7],
              "omega": [0.9, 0.8, 0.9, 0.95], "beta": [0.5, 0.6, 0.4, 0.7]}  # fmt: skip
    table = pd.DataFrame(scores)
    res = table.paired.friedman(posthoc="nemenyi", as_result=True)
    ranks = res.mean_ranks()
    assert ranks["system"].tolist() == ["omega", "beta", "mid", "zeta"]
    assert ranks["mean_rank"].tolist() == [1.0, 2.5, 2.5, 4.0]
    # each row's letters are those of the cliques that hold its label
    found = res.cliques()
    for system, letters in zip(ranks["system"], ranks["cliques"], strict=True):
        want = "".join("abcdefgh"[c] for c, clique in enumerate(found) if system in clique)
        assert letters == want
    # losses: the lowest score ranks first, and the same labels carry the same numbers
    losses = table.paired.friedman(posthoc="nemenyi", lower_is_better=True, as_result=True)
    flipped = losses.mean_ranks()
    assert flipped["system"].tolist() == ["zeta", "beta", "mid", "omega"]
    assert dict(zip(flipped["system"], flipped["mean_rank"])) == {
        "zeta": 1.0, "beta": 2.5, "mid": 2.5, "omega": 4.0}  # fmt: skip
    # the printout shows the same order
    text = str(res).split("(1 = best)")[1]
    assert [text.index(s) for s in ("omega", "beta", "mid", "zeta")] == sorted(
        text.index(s) for s in ("omega", "beta", "mid", "zeta"))  # fmt: skip


def _runs():
    return pairedstats.datasets.load_runs().query("collection == 'msmarco'")


def test_rank_and_mcs_printouts_name_each_other_and_their_default_levels():
    from pairedstats.methods._shared.registry import SPECS
    from pairedstats.methods.mcs.result import RANK_DEFAULT_LEVEL
    from pairedstats.methods.rank.result import MCS_DEFAULT_LEVEL

    default = {
        name: next(k.default for k in SPECS[name].keywords if k.name == "confidence_level")
        for name in ("rank", "mcs")
    }
    assert (default["rank"], default["mcs"]) == (RANK_DEFAULT_LEVEL, MCS_DEFAULT_LEVEL)
    assert default == {"rank": 0.95, "mcs": 0.9}
    keys = dict(item="query", system="run", score="ndcg", n_resamples=500, rng=1)
    ranks = _runs().paired.rank(**keys, as_result=True)
    assert str(ranks).splitlines()[2] == (
        "may_be_best: the rank set contains 1 at 0.95 (simultaneous); the model confidence "
        "set (mcs) is another answer, at its own level (0.9 by default), and need not agree"
    )
    marginal = _runs().paired.rank(**keys, simultaneous=False, confidence_level=0.8,
                                   as_result=True)  # fmt: skip
    assert marginal.other_answer().startswith("may_be_best: the rank set contains 1 at 0.8 "
                                              "(marginal); ")  # fmt: skip
    best = _runs().paired.mcs(**keys, as_result=True)
    assert str(best).splitlines()[2] == (
        "in_set: the model confidence set at 0.9; the rank sets' may_be_best (rank) is another "
        "answer, at its own level (0.95 simultaneous by default), and need not agree"
    )
    assert repr(best).splitlines()[3] == str(best).splitlines()[2]
    # the report that shows both says they are two answers at its one level
    rep = _runs().paired.report(**keys, ranks=True, mcs=True, confidence_level=0.9)
    line = (
        "A rank set from 1 and \u22c4 are two answers to which system may be best, both at "
        "0.9 here: they need not agree (alone, rank and mcs default to 0.95 and 0.9)."
    )
    assert str(rep).splitlines()[-1] == line
    assert rep.to_markdown().rstrip().endswith(line)
    assert line.replace("\u22c4", "$\\diamond$") in rep.notes(latex=True)
    alone = _runs().paired.report(**keys, ranks=True)
    assert "two answers" not in str(alone)
