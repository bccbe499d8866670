"""The report's ``margin=``: each metric's test also tests equivalence with the baseline,
and the systems shown equivalent are marked ``≈`` exactly where the bootstrap's
``equivalent`` column (run on its own) is True, in every display."""

import re

import numpy as np
import pytest
from tests.data import unsorted_runs

from pairedstats import cli

RUNS = unsorted_runs()
METRICS = ["ndcg", "p10"]
TIDY = dict(item="query", system="run")
APPROX, DAGGER, DDAGGER = "\u2248", "\u2020", "\u2021"
MARGIN = 0.08


def _report(**keywords):
    base = dict(TIDY, score=METRICS, n_resamples=400, rng=3, baseline="bm25", margin=MARGIN)
    return RUNS.paired.report(**{**base, **keywords})


def _bootstrap(metric, **keywords):
    return RUNS.paired.bootstrap(**TIDY, score=metric, baseline="bm25", margin=MARGIN,
                                 adjust="holm", n_resamples=400, rng=3, **keywords)  # fmt: skip


@pytest.mark.parametrize("lower", [(), ("ndcg",)])
def test_marks_are_the_bootstraps_equivalent_column(lower):
    report = _report(by="collection", lower_is_better=lower)
    frame = report.to_frame()
    n_marked = 0
    for metric in METRICS:
        boot = _bootstrap(metric, by="collection")
        got = frame[metric].loc[list(zip(boot["collection"], boot["system_b"]))]["mark"]
        has = np.array([APPROX in mark for mark in got])
        np.testing.assert_array_equal(has, boot["equivalent"].to_numpy())
        n_marked += has.sum()
        # the significance marks are unchanged (direction by lower_is_better)
        significant = boot["pvalue_adjusted"].to_numpy() < 0.05
        better = boot["difference"].to_numpy() < 0 if metric in lower else boot["difference"] > 0
        plain = [mark.replace(APPROX, "") for mark in got]
        assert plain == np.where(significant, np.where(better, DAGGER, DDAGGER), "").tolist()
    assert 0 < n_marked < 12  # some systems are marked, some not
    baseline = frame.xs("bm25", level="system")
    assert (baseline[("ndcg", "mark")] == "").all()


def _cells(report, kind):
    """(system, metric) -> the cell as shown in the text, Markdown or LaTeX display."""
    if kind == "text":
        lines = str(report).splitlines()[4:8]  # after title, settings, header, index name
        rows = [line.split() for line in lines]
    elif kind == "markdown":
        lines = [ln for ln in report.to_markdown().splitlines() if ln.startswith("| ")][1:]
        rows = [[c.strip() for c in ln.strip("|").split("|")] for ln in lines]
    else:
        body = report.to_latex().split("\\midrule\n")[1].split("\\bottomrule")[0]
        rows = [[c.strip() for c in ln.rstrip(" \\").split("&")] for ln in body.splitlines()]
    return {(row[0], metric): cell for row in rows for metric, cell in zip(METRICS, row[1:])}


@pytest.mark.parametrize("kind", ["text", "markdown", "latex"])
def test_displays_mark_the_equivalent_cells(kind):
    pytest.importorskip("jinja2")
    report = _report()
    cells = _cells(report, kind)
    shown = APPROX if kind != "latex" else "\\approx"
    expected = {}
    for metric in METRICS:
        boot = _bootstrap(metric)
        for system, eq in zip(boot["system_b"], boot["equivalent"]):
            expected[system, metric] = bool(eq)
        expected["bm25", metric] = False
    assert {key: shown in cell for key, cell in cells.items()} == expected
    assert sum(expected.values()) == 4  # one system each of both marks: "†≈"
    both = [cell for cell in cells.values() if shown in cell and
            ("\\dagger" in cell if kind == "latex" else DAGGER in cell)]  # fmt: skip
    assert both
    text = {"text": str(report), "markdown": report.to_markdown(),
            "latex": report.to_latex()}[kind]  # fmt: skip
    legend = {
        "text": f"{APPROX} equivalent to bm25, the difference within \u00b10.08",
        "markdown": f"{APPROX} equivalent to bm25, the difference within \u00b10.08",
        "latex": "$^{\\approx}$ equivalent to bm25, the difference within $\\pm$0.08",
    }
    assert legend[kind] in text
    assert "(two one-sided tests, Holm-adjusted" in text


def test_margin_by_metric_and_none_shown():
    report = _report(margin={"p10": 0.08})
    assert report.results["ndcg"].equivalent is None
    np.testing.assert_array_equal(report.results["p10"].equivalent[0],
                                  _bootstrap("p10")["equivalent"].to_numpy())  # fmt: skip
    assert not any(APPROX in str(m) for m in report.to_frame()[("ndcg", "mark")])
    assert "within \u00b10.08 for p10" in str(report)
    small = _report(margin=1e-4)
    assert "No system is shown equivalent to bm25 within \u00b10.0001" in str(small)
    assert small.metadata["margin"] == 1e-4


def test_refusals():
    with pytest.raises(ValueError, match=r"`margin`: the report marks the systems equivalent"):
        _report(baseline=None)
    with pytest.raises(ValueError, match=r"`margin`: test='tukey_hsd' has no test against a"):
        _report(test="tukey_hsd")
    with pytest.raises(ValueError, match=r"`margin`: \['map'\] are not metrics of the report"):
        _report(margin={"map": 0.1})
    with pytest.raises(ValueError, match=re.escape("`margin` must be finite and > 0; got -1")):
        _report(margin=-1)
    with pytest.raises(ValueError, match=r"`margin` cannot be combined with `adjust='max-t'`"):
        _report(adjust="max-t")


def test_mcnemar_marks_what_its_own_call_finds_equivalent():
    passfail = RUNS.assign(hit=(RUNS["p10"] >= 0.5).astype(int))
    keywords = dict(TIDY, score="hit", baseline="bm25", margin=0.15, test="mcnemar")
    report = passfail.paired.report(**keywords)
    alone = passfail.paired.mcnemar(**TIDY, score="hit", baseline="bm25", margin=0.15,
                                    adjust="holm")  # fmt: skip
    marks = report.to_frame()["hit"]["mark"].loc[list(alone["system_b"])]
    assert [APPROX in m for m in marks] == alone["equivalent"].tolist()
    assert alone["equivalent"].tolist() == [False, False, True]  # one mark of three


def test_command_line_margin(capsys, tmp_path):
    path = tmp_path / "runs.csv"
    RUNS.to_csv(path, index=False)
    args = ["report", str(path), "--item", "query", "--system", "run", "--score", "ndcg", "p10",
            "--baseline", "bm25", "--margin", str(MARGIN), "--n-resamples", "400",
            "--rng", "3"]  # fmt: skip
    assert cli.main(args) == 0
    assert capsys.readouterr().out == str(_report()) + "\n"


# ------------------------------------------------------------------ non-inferiority
SUCCEQ = "\u2ab0"


@pytest.mark.parametrize("lower", [(), ("p10",)])
def test_noninferiority_marks_are_the_one_sided_bootstraps(lower):
    """``margin_test="noninferiority"``: ``⪰`` exactly where the bootstrap run alone, one-sided
    towards the metric's better side (``"less"`` for a metric in ``lower_is_better``), finds
    the system not worse by the margin; ``†`` and ``‡`` are those of the report without a
    margin (two-sided)."""
    margin = 0.02
    report = _report(by="collection", lower_is_better=lower, margin=margin,
                     margin_test="noninferiority")  # fmt: skip
    plain = _report(by="collection", lower_is_better=lower, margin=None).to_frame()
    frame = report.to_frame()
    found = []
    for metric in METRICS:
        alternative = "less" if metric in lower else "greater"
        boot = RUNS.paired.bootstrap(**TIDY, score=metric, baseline="bm25", margin=margin,
                                     alternative=alternative, adjust="holm", n_resamples=400,
                                     rng=3, by="collection")  # fmt: skip
        where = list(zip(boot["collection"], boot["system_b"]))
        marks = frame[metric].loc[where]["mark"]
        has = np.array([SUCCEQ in mark for mark in marks])
        np.testing.assert_array_equal(has, boot["noninferior"].to_numpy())
        assert [m.replace(SUCCEQ, "") for m in marks] == list(plain[metric].loc[where]["mark"])
        found.extend(has)
    assert any(found)
    if lower:
        assert not all(found)  # a metric read as lower-is-better: its better systems fail
    text = str(report)
    assert f"{SUCCEQ} not worse than bm25 by 0.02 or more" in text
    assert APPROX not in text
    assert r"\succeq" in report.to_latex()


def test_noninferiority_needs_a_margin_and_a_known_name(capsys, tmp_path):
    with pytest.raises(ValueError, match=r"`margin_test`: 'noninferiority' tests against a"):
        _report(margin=None, margin_test="noninferiority")
    with pytest.raises(ValueError, match=r"`margin_test` must be one of"):
        _report(margin_test="superiority")
    path = tmp_path / "runs.csv"
    RUNS.to_csv(path, index=False)
    args = ["report", str(path), "--item", "query", "--system", "run", "--score", "ndcg", "p10",
            "--baseline", "bm25", "--margin", "0.02", "--margin-test", "noninferiority",
            "--n-resamples", "400", "--rng", "3"]  # fmt: skip
    assert cli.main(args) == 0
    want = _report(margin=0.02, margin_test="noninferiority")
    assert capsys.readouterr().out == str(want) + "\n"
