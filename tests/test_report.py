"""The report: its numbers are those of the method calls it summarises, and its displays
(text, Markdown, HTML, LaTeX) say what the marks mean."""

import argparse
import shutil
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
from tests.data import unsorted_runs

import pairedstats
from pairedstats import cli, display
from pairedstats.methods._shared.registry import SPECS
from pairedstats.methods.report.result import TESTS

RUNS = unsorted_runs()
METRICS = ["ndcg", "p10"]
TIDY = dict(item="query", system="run")
DAGGER, DDAGGER = "\u2020", "\u2021"


def _report(**keywords):
    base = dict(TIDY, score=METRICS, n_resamples=400, rng=3)
    return RUNS.paired.report(**{**base, **keywords})


@pytest.fixture(scope="module")
def against_bm25():
    return _report(baseline="bm25", by="collection")


# ------------------------------------------------------------------ the numbers
def test_baseline_marks_are_the_holm_adjusted_bootstrap(against_bm25):
    frame = against_bm25.to_frame()
    assert against_bm25.adjust == "holm"
    assert list(frame.index.names) == ["collection", "system"]
    for metric in METRICS:
        boot = RUNS.paired.bootstrap(**TIDY, score=metric, baseline="bm25", by="collection",
                                     adjust="holm", n_resamples=400, rng=3)  # fmt: skip
        got = frame[metric].loc[list(zip(boot["collection"], boot["system_b"]))]
        np.testing.assert_array_equal(got["mean"], boot["mean_b"])
        np.testing.assert_array_equal(got["difference"], boot["difference"])
        np.testing.assert_array_equal(got["ci_low"], boot["ci_low"])
        np.testing.assert_array_equal(got["ci_high"], boot["ci_high"])
        np.testing.assert_array_equal(got["pvalue"], boot["pvalue_adjusted"])
        significant = boot["pvalue_adjusted"] < 0.05
        expected = np.where(significant, np.where(boot["difference"] > 0, DAGGER, DDAGGER), "")
        assert got["mark"].tolist() == expected.tolist()
        base = frame[metric].xs("bm25", level="system")
        assert base["mark"].tolist() == ["", ""]
        assert base["pvalue"].isna().all()
        means = RUNS[RUNS["run"] == "bm25"].groupby("collection", sort=False)[metric].mean()
        np.testing.assert_allclose(base["mean"], means[base.index], rtol=1e-14)
    # the data have marks, and none of them is a worse one
    marks = frame.xs("mark", axis=1, level="quantity").to_numpy().ravel().tolist()
    assert marks.count(DAGGER) == 7
    assert DDAGGER not in marks


def test_letters_are_display_letters_of_tukey_hsd():
    rep = _report(test="tukey_hsd", by="collection")
    frame = rep.to_frame()
    assert rep.adjust is None
    for metric in METRICS:
        hsd = RUNS.paired.tukey_hsd(**TIDY, score=metric, by="collection", n_resamples=400,
                                    rng=3, as_result=True)  # fmt: skip
        letters = display.letters(hsd, alpha=0.05).set_index(["collection", "system"])
        got = frame[metric].loc[letters.index]
        assert got["letters"].tolist() == letters["letters"].tolist()
        np.testing.assert_array_equal(got["mean"], letters["mean"])
    assert list(frame.columns.get_level_values("quantity")) == ["mean", "letters"] * 2


def test_letters_from_the_bootstrap_need_an_adjustment():
    rep = _report(adjust="bonferroni")
    boot = RUNS.paired.bootstrap(**TIDY, score="ndcg", adjust="bonferroni", n_resamples=400,
                                 rng=3, as_result=True)  # fmt: skip
    letters = display.letters(boot, alpha=0.05).set_index("system")["letters"]
    assert rep.to_frame()["ndcg"]["letters"].to_dict() == letters.to_dict()
    with pytest.raises(ValueError, match="letters need decisions over the family"):
        _report(adjust=None)


def test_tukey_against_a_baseline_is_many_to_one():
    rep = _report(test="tukey_hsd", baseline="bm25", n_resamples=300)
    frame = rep.to_frame()
    hsd = RUNS.paired.tukey_hsd(**TIDY, score="p10", baseline="bm25", n_resamples=300, rng=3)
    got = frame["p10"].loc[hsd["system_b"]]
    np.testing.assert_array_equal(got["pvalue"], hsd["pvalue"])
    np.testing.assert_array_equal(got["difference"], hsd["difference"])
    assert "ci_low" not in frame["p10"].columns
    assert got["mark"].tolist() == [DAGGER if p < 0.05 else "" for p in hsd["pvalue"]]
    assert "many-to-one p < 0.05" in str(rep)
    with pytest.raises(ValueError, match="tukey_hsd controls its family"):
        _report(test="tukey_hsd", adjust="holm")


def test_max_t_shows_the_simultaneous_interval_and_unadjusted_says_so():
    rep = _report(baseline="bm25", adjust="max-t")
    boot = RUNS.paired.bootstrap(**TIDY, score="ndcg", baseline="bm25", adjust="max-t",
                                 n_resamples=400, rng=3)  # fmt: skip
    got = rep.to_frame()["ndcg"].loc[boot["system_b"]]
    np.testing.assert_array_equal(got["ci_low"], boot["ci_low_adjusted"])
    np.testing.assert_array_equal(got["ci_high"], boot["ci_high_adjusted"])
    plain = _report(baseline="bm25", adjust=None)
    boot = RUNS.paired.bootstrap(**TIDY, score="ndcg", baseline="bm25", n_resamples=400, rng=3)
    np.testing.assert_array_equal(plain.to_frame()["ndcg"].loc[boot["system_b"], "pvalue"],
                                  boot["pvalue"])  # fmt: skip
    assert "(paired bootstrap, unadjusted, p < 0.05)" in str(plain)


def test_lower_is_better_reads_marks_and_bold_the_other_way():
    runs = RUNS.assign(loss=-RUNS["ndcg"])
    rep = runs.paired.report(**TIDY, score=["ndcg", "loss"], baseline="bm25",
                             by="collection", lower_is_better="loss", n_resamples=400,
                             rng=3, bold_best=True)  # fmt: skip
    frame = rep.to_frame()
    np.testing.assert_allclose(frame["loss"]["difference"], -frame["ndcg"]["difference"])
    # the negated metric is better where it is lower: the same marks
    assert frame["loss"]["mark"].tolist() == frame["ndcg"]["mark"].tolist()
    latex = rep.to_latex()
    assert latex.count(r"\mathbf{") == 4  # the hybrid run, best on both, in both groups
    assert r"$\mathbf{-0.520}^{\dagger}$" in latex
    with pytest.raises(ValueError, match="`lower_is_better`: 'los' is not one of the metrics"):
        runs.paired.report(**TIDY, score=["ndcg", "loss"], lower_is_better=["los"])


def test_lower_is_better_true_reads_every_metric_lower_letters_included():
    # letters: `a` goes to the lowest mean, and the note says so
    runs = RUNS.assign(loss=-RUNS["ndcg"], error=1 - RUNS["p10"])
    keys = dict(TIDY, score=["loss", "error"], by="collection", n_resamples=400, rng=3)
    every = runs.paired.report(**keys, lower_is_better=True, test="tukey_hsd")
    named = runs.paired.report(**keys, lower_is_better=["error", "loss"], test="tukey_hsd")
    pd.testing.assert_frame_equal(every.to_frame(), named.to_frame())
    assert every.lower_is_better == ("loss", "error")
    frame = every.to_frame()
    for metric in ("loss", "error"):
        for _, part in frame[metric].groupby(level="collection"):
            lowest = part["mean"].idxmin()
            assert part.loc[lowest, "letters"].startswith("a")
    assert "a: the lowest mean." in str(every)
    # a mixed report names the metrics read lower
    mixed = runs.paired.report(**{**keys, "score": ["ndcg", "loss"]}, lower_is_better="loss",
                               test="tukey_hsd", bold_best=True)  # fmt: skip
    assert "a: the best mean (the highest; the lowest for loss)." in mixed.to_markdown()
    assert "Bold: the best mean (the highest; the lowest for loss) of each metric." in (
        mixed.to_markdown()
    )
    # the letters of the negated metric are those of the metric
    frame = mixed.to_frame()
    assert frame["loss"]["letters"].tolist() == frame["ndcg"]["letters"].tolist()


def test_display_letters_read_lower_is_better():
    scores = pd.DataFrame({"zeta": [5.0, 6, 7, 6, 5, 7], "alpha": [1.0, 1, 2, 1, 2, 1],
                           "mid": [3.0, 4, 3, 3, 4, 4]})  # fmt: skip
    hsd = scores.paired.tukey_hsd(method="exact", as_result=True)
    high = display.letters(hsd)
    low = display.letters(hsd, lower_is_better=True)
    assert high["system"].tolist() == ["zeta", "mid", "alpha"]
    assert low["system"].tolist() == ["alpha", "mid", "zeta"]
    assert dict(zip(high["system"], high["letters"]))["zeta"] == "a"
    assert dict(zip(low["system"], low["letters"]))["alpha"] == "a"
    with pytest.raises(TypeError, match="`lower_is_better` must be True or False"):
        display.letters(hsd, lower_is_better="zeta")


def test_the_same_rng_and_a_recorded_seed_rerun_the_report(against_bm25):
    again = _report(baseline="bm25", by="collection", rng=against_bm25.seed_entropy)
    pd.testing.assert_frame_equal(again.to_frame(), against_bm25.to_frame())
    fresh = _report(baseline="bm25", rng=None)
    rerun = _report(baseline="bm25", rng=fresh.seed_entropy)
    pd.testing.assert_frame_equal(fresh.to_frame(), rerun.to_frame())
    assert against_bm25.to_frame().attrs["seed_entropy"] == 3


def test_a_dataset_and_a_dataarray_give_the_frame_s_report():
    part = RUNS[RUNS["collection"] == "robust04"]
    ds = part.set_index(["query", "run"])[METRICS].to_xarray()
    keywords = dict(baseline="bm25", n_resamples=300, rng=5)
    expected = part.paired.report(**TIDY, score=METRICS, **keywords).to_frame()
    # the Dataset's systems are in its coordinate's (sorted) order: compared by label
    expected = expected.loc[list(ds["run"].values)]
    got = ds.paired.report(**TIDY, score=METRICS, **keywords).to_frame()
    pd.testing.assert_frame_equal(got, expected, check_index_type=False)
    everything = ds.paired.report(**TIDY, **keywords).to_frame()  # score: every variable
    pd.testing.assert_frame_equal(everything, expected, check_index_type=False)
    array = ds["p10"].paired.report(**TIDY, **keywords).to_frame()
    pd.testing.assert_frame_equal(array, expected[["p10"]], check_index_type=False)
    with pytest.raises(TypeError, match="report: got an unexpected keyword argument 'by'"):
        ds.paired.report(**TIDY, by="collection")


def test_a_sweep_dimension_is_a_group():
    rng = np.random.default_rng(2)
    scores = rng.normal(size=(2, 25, 3)) + np.array([0.0, 0.2, 0.9])
    import xarray as xr

    ds = xr.Dataset({"acc": (("seed", "item", "system"), scores)},
                    coords={"seed": [1, 2], "system": ["a", "b", "c"]})  # fmt: skip
    rep = ds.paired.report(test="tukey_hsd", n_resamples=300, rng=1)
    frame = rep.to_frame()
    assert list(frame.index.names) == ["seed", "system"]
    for seed in (1, 2):
        alone = ds.sel(seed=seed).paired.report(test="tukey_hsd", n_resamples=300, rng=1)
        assert frame.loc[seed]["acc"]["letters"].tolist() == (
            alone.to_frame()["acc"]["letters"].tolist()
        )


# ------------------------------------------------------------------ displays
def test_text_shows_rounded_means_marks_and_the_note(against_bm25):
    text = str(against_bm25)
    lines = text.splitlines()
    assert lines[0] == "Mean per system"
    assert "baseline=bm25, adjust=holm" in lines[1]
    assert lines[-1] == (  # no system is significantly worse: no double dagger to explain
        f"{DAGGER} significantly better than bm25 (paired bootstrap, Holm-adjusted p < 0.05)."
    )
    hybrid = next(line for line in lines if line.strip().startswith("hybrid"))
    mean = against_bm25.to_frame().loc[("robust04", "hybrid"), ("ndcg", "mean")]
    assert f"{mean:.3f}{DAGGER}" in hybrid
    assert repr(against_bm25).startswith("<Report: 2 metric(s), test=bootstrap>")
    letters = str(_report(test="tukey_hsd", digits=2))
    assert "Systems sharing a letter are not significantly different" in letters


def test_markdown_is_a_pipe_table_with_the_note(against_bm25):
    text = against_bm25.to_markdown(digits=2, bold_best=True, intervals=True)
    lines = text.splitlines()
    assert lines[0] == "| collection | system | ndcg | p10 |"
    assert lines[1] == "|---|---|---:|---:|"
    assert len(lines) == 2 + 8 + 2
    assert lines[-2] == ""
    row = against_bm25.to_frame().loc[("robust04", "hybrid"), "ndcg"]
    assert lines[3].split(" | ")[:3] == [
        "| robust04",
        "hybrid",
        (f"**{row['mean']:.2f}**{DAGGER} [{row['ci_low']:+.2f}, {row['ci_high']:+.2f}]"),
    ]
    assert lines[-1].startswith(f"{DAGGER} significantly better than bm25")
    assert "Bold: the highest mean of each metric." in lines[-1]


def test_cells_show_their_numbers_by_the_one_display_rule():
    # the means and intervals are display.cell_text's, with `digits` decimals: a mean below
    # the last decimal keeps its significant digits (not 0.000), as in every other table
    tiny = RUNS.assign(ndcg=RUNS["ndcg"] * 1e-4)
    rep = tiny.paired.report(**TIDY, score="ndcg", baseline="bm25", n_resamples=400, rng=3)
    frame = rep.to_frame()["ndcg"]
    for system, row in frame.iterrows():
        mean = display.cell_text(row["mean"], digits=3, decimals=True)
        assert mean != "0.000"
        low, high = (display.cell_text(row[c], digits=3, decimals=True, sign=True)
                     for c in ("ci_low", "ci_high"))  # fmt: skip
        line = next(r for r in rep.to_markdown(intervals=True).splitlines()
                    if r.startswith(f"| {system} |"))  # fmt: skip
        assert line.split(" | ")[1].startswith(mean), line
        if system != "bm25":
            assert line.endswith(f" [{low}, {high}] |"), line
        latex = display.cell_text(row["mean"], digits=3, latex=True, decimals=True)
        assert latex in rep.to_latex()
        assert mean in str(rep)
    assert r"${4.94\times10^{-5}}^{\dagger}$" in rep.to_latex()  # one superscript each


def test_html_uses_styles_and_a_caption(against_bm25):
    html = _report(baseline="bm25", bold_best=True)._repr_html_()
    assert "<table" in html
    assert "font-weight: bold" in html
    assert "<caption>" in html
    assert "p &lt; 0.05" in html
    assert f"<sup>{DAGGER}</sup>" in html


def _latex_body(latex):
    return latex.splitlines()


def test_latex_is_booktabs_with_superscripts_rules_between_groups_and_a_note(against_bm25):
    latex = against_bm25.to_latex()
    lines = latex.splitlines()
    assert lines[0] == r"\begin{tabular}{llrr}"
    assert lines[-1] == r"\end{tabular}"
    assert lines[1] == r"\toprule"
    assert lines[2] == r"collection & system & ndcg & p10 \\"
    assert lines.count(r"\midrule") == 2  # under the header, and between the collections
    assert lines.index(r"\bottomrule") == len(lines) - 3
    assert lines[-2] == (
        r"\multicolumn{4}{l}{\footnotesize $^{\dagger}$ significantly better than bm25 "
        r"(paired bootstrap, Holm-adjusted $p < 0.05$).} \\"
    )
    row = against_bm25.to_frame().loc[("robust04", "hybrid"), "ndcg"]
    assert f"${row['mean']:.3f}^{{\\dagger}}$" in latex
    assert "& bm25+rm3 &" in latex  # the group name on its first row only
    assert r"bm25+rm3" in latex
    assert r"\mathbf" not in latex
    wrapped = against_bm25.to_latex(caption="Runs", label="tab:runs", digits=2)
    assert wrapped.splitlines()[:4] == [r"\begin{table}", r"\centering", r"\caption{Runs}",
                                        r"\label{tab:runs}"]  # fmt: skip
    letters = _report(test="tukey_hsd", n_resamples=300).to_latex()
    assert r"^{\mathrm{a}}$" in letters


def test_labels_are_escaped_in_latex():
    runs = RUNS.replace({"run": {"bm25": "bm_25 & co"}})
    rep = runs.paired.report(**TIDY, score="p10", baseline="bm_25 & co", n_resamples=200, rng=1)
    latex = rep.to_latex()
    assert r"bm\_25 \& co & $" in latex
    assert r"than bm\_25 \& co" in latex


@pytest.mark.parametrize("systems", [[3, 1, 2], [0.1234562, 0.1234561, 0.5]])
def test_number_labels_are_shown_as_given_by_every_display(systems):
    # integer or float system labels, integer group labels: text by one rule everywhere
    rng = np.random.default_rng(6)
    rows = [(fold, item, s, rng.normal() + k) for fold in (2, 0) for item in range(15)
            for k, s in enumerate(systems)]  # fmt: skip
    frame = pd.DataFrame(rows, columns=["fold", "item", "system", "score"])
    rep = frame.paired.report(item="item", system="system", score="score", by="fold",
                              baseline=systems[0], n_resamples=200, rng=1)  # fmt: skip
    texts = [str(s) for s in systems]  # 0.1234562 and 0.1234561, never both 0.123456
    latex = rep.to_latex()
    body = latex.splitlines()[4:-3]
    assert [line.split(" & ")[1] for line in body if "&" in line] == texts * 2
    assert [line.split(" & ")[0] for line in body if "&" in line] == ["2", "", "", "0", "", ""]
    assert body.count(r"\midrule") == 1  # between the folds
    html = rep._repr_html_()
    headers = [h.rsplit(">", 1)[1] for h in html.split("</th>") if "row_heading" in h]
    assert headers == ["2", *texts, "0", *texts]
    lines = str(rep).splitlines()[4:10]
    assert [line.split()[1 if k % 3 == 0 else 0] for k, line in enumerate(lines)] == texts * 2
    rows = rep.to_markdown().splitlines()[2:8]
    assert [row.split(" | ")[1] for row in rows] == texts * 2
    alone = frame[frame["fold"] == 0].paired.report(item="item", system="system", score="score",
                                                    n_resamples=200, rng=1)  # fmt: skip
    assert [line.split(" & ")[0] for line in alone.to_latex().splitlines()[4:7]] == texts


@pytest.mark.skipif(shutil.which("pdflatex") is None, reason="needs pdflatex")
def test_latex_compiles(against_bm25, tmp_path):
    tables = [against_bm25.to_latex(bold_best=True, intervals=True),
              _report(test="tukey_hsd", n_resamples=300).to_latex(caption="Letters")]  # fmt: skip
    document = "\n".join([
        r"\documentclass{article}", r"\usepackage{booktabs}", r"\usepackage[T1]{fontenc}",
        r"\begin{document}", *tables, r"\end{document}",
    ])  # fmt: skip
    (tmp_path / "t.tex").write_text(document)
    done = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "t.tex"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stdout[-2000:]
    assert (tmp_path / "t.pdf").stat().st_size > 0


def test_without_jinja2_latex_names_the_extra_and_html_falls_back(monkeypatch, against_bm25):
    monkeypatch.setitem(sys.modules, "jinja2", None)
    with pytest.raises(ImportError, match=r"pairedstats\[report\]"):
        against_bm25.to_latex()
    assert against_bm25._repr_html_() is None
    assert against_bm25.to_markdown()
    assert str(against_bm25)


def test_invalid_keywords_are_named():
    with pytest.raises(ValueError, match="`test` must be one of 'bootstrap', 'mcnemar', 'tukey"):
        _report(test="anova")
    with pytest.raises(ValueError, match="`digits` must be an integer from 0 to 15"):
        _report(digits=-1)
    with pytest.raises(ValueError, match="`score`: give one or more distinct metrics"):
        _report(score=["ndcg", "ndcg"])
    with pytest.raises(TypeError, match="report: got an unexpected keyword argument 'seed'"):
        _report(seed=1)
    with pytest.raises(ValueError, match="`confidence_level`"):
        _report(confidence_level=1.5)


def test_the_tests_are_the_methods_whose_spec_names_them_for_the_report():
    """``MethodSpec.report_test`` makes a method a report's test: ``test=`` takes it, the
    command line offers it, the docstring (and so the stubs) name it, the notes print it."""
    flagged = {n: s.report_test for n, s in SPECS.items() if s.report_test is not None}
    assert dict(TESTS) == flagged
    assert {"bootstrap", "tukey_hsd", "mcnemar"} <= set(flagged)
    parser = cli.build_parser()
    (commands,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    (option,) = [a for a in commands.choices["report"]._actions if a.dest == "test"]
    missing = [n for n in flagged if n not in option.choices]
    assert not missing, (
        f"`pairedstats report --test` does not offer {missing}: its choices must be TESTS, "
        "read when the command is built (src/pairedstats/methods/report/settings.py)"
    )
    keyword = SPECS["report"].keyword("test")
    missing = [n for n in flagged if f'"{n}"' not in keyword.type]
    assert not missing, (
        f"the type of the report's `test` keyword does not name {missing}: add them to the "
        "Literal of the `test` field of Options in src/pairedstats/methods/report/settings.py"
        " (the docstrings and the stubs read it)"
    )
    for name in ("bootstrap", "tukey_hsd"):
        assert f"({flagged[name]}" in _report(test=name, baseline="bm25").notes()[0]


def test_the_accessor_docstrings_run():
    import doctest

    for cls in (pairedstats.accessors.PairedDataFrameAccessor,
                pairedstats.accessors.PairedDatasetAccessor):  # fmt: skip
        finder = doctest.DocTestFinder()
        (test,) = finder.find(cls.report, "report", globs={})
        result = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE).run(test)
        assert result.failed == 0
        assert result.attempted > 2


# ------------------------------------------------------------------ command line
def _trec_files(tmp_path, part):
    paths = []
    for run, rows in part.groupby("run", sort=False):
        lines = [f"runid\tall\t{run}"]
        for q, ndcg, p10 in zip(rows["query"], rows["ndcg"], rows["p10"]):
            lines += [f"ndcg_cut_10\t{q}\t{ndcg:.4f}", f"P_10\t{q}\t{p10:.4f}"]
        lines += [f"ndcg_cut_10\tall\t{rows['ndcg'].mean():.4f}"]
        paths.append(tmp_path / f"{run}.txt")
        paths[-1].write_text("\n".join(lines) + "\n")
    return paths


def test_command_line_report_of_two_trec_eval_measures(capsys, tmp_path):
    part = RUNS[RUNS["collection"] == "msmarco"]
    paths = _trec_files(tmp_path, part)
    args = ["report", "--trec-eval", *map(str, paths), "--measure", "ndcg_cut_10",
            "--measure", "P_10", "--baseline", "bm25", "--n-resamples", "300",
            "--rng", "4"]  # fmt: skip
    assert cli.main(args) == 0
    text = capsys.readouterr().out
    tidy = part.rename(columns={"query": "query", "ndcg": "ndcg_cut_10", "p10": "P_10"})
    expected = tidy.paired.report(item="query", system="run", score=["ndcg_cut_10", "P_10"],
                                  baseline="bm25", n_resamples=300, rng=4)  # fmt: skip
    assert text == str(expected) + "\n"
    assert cli.main([*args, "--format", "latex", "--bold-best"]) == 0
    assert capsys.readouterr().out == expected.to_latex(bold_best=True) + "\n"
    assert cli.main([*args, "--format", "csv"]) == 0
    csv = capsys.readouterr().out
    assert csv.splitlines()[0].startswith("metric,ndcg_cut_10,ndcg_cut_10")
    # one --measure with two values; an error of the data exits with status 2, naming it
    assert cli.main(["report", "--trec-eval", *map(str, paths), "--measure", "ndcg_cut_10",
                     "P_10", "--baseline", "bm26"]) == 2  # fmt: skip
    assert "--baseline: no label 'bm26' in column 'run'" in capsys.readouterr().err
    assert cli.main(["report", "--trec-eval", *map(str, paths), "--measure", "ndcg_cut_10",
                     "--adjust", "none", "--baseline", "bm25"]) == 0  # fmt: skip
    assert "(paired bootstrap, unadjusted, p < 0.05)" in capsys.readouterr().out


def test_command_line_report_of_a_csv(capsys, tmp_path):
    path = tmp_path / "runs.csv"
    RUNS.to_csv(path, index=False)
    args = ["report", str(path), "--item", "query", "--system", "run", "--score", "ndcg", "p10",
            "--by", "collection", "--test", "tukey_hsd", "--n-resamples", "300", "--rng", "4",
            "--format", "markdown"]  # fmt: skip
    assert cli.main(args) == 0
    expected = RUNS.paired.report(**TIDY, score=METRICS, by="collection", test="tukey_hsd",
                                  n_resamples=300, rng=4)  # fmt: skip
    assert capsys.readouterr().out == expected.to_markdown() + "\n"


def test_worse_marks_are_explained_when_they_occur():
    rep = _report(baseline="hybrid", by="collection")
    frame = rep.to_frame()
    boot = RUNS.paired.bootstrap(**TIDY, score="ndcg", baseline="hybrid", by="collection",
                                 adjust="holm", n_resamples=400, rng=3)  # fmt: skip
    worse = (boot["pvalue_adjusted"] < 0.05) & (boot["difference"] < 0)
    got = frame["ndcg"].loc[list(zip(boot["collection"], boot["system_b"]))]["mark"]
    assert got.tolist() == np.where(worse, DDAGGER, "").tolist()
    assert worse.sum() == 3
    assert str(rep).splitlines()[-1] == (  # only the mark that appears
        f"{DDAGGER} significantly worse than hybrid (paired bootstrap, Holm-adjusted p < 0.05)."
    )
    latex = rep.to_latex(note=False)
    assert r"^{\ddagger}$" in latex
    assert latex.splitlines()[-2:] == [r"\bottomrule", r"\end{tabular}"]
    assert rep.notes(latex=True)[0].startswith(r"$^{\ddagger}$ significantly worse than hybrid")


def test_command_line_lower_is_better_alone_reads_every_metric(capsys, tmp_path):
    path = tmp_path / "runs.csv"
    RUNS.assign(loss=-RUNS["ndcg"]).to_csv(path, index=False)
    common = ["report", str(path), "--item", "query", "--system", "run", "--score", "loss",
              "p10", "--by", "collection", "--n-resamples", "300", "--rng", "4"]  # fmt: skip
    assert cli.main([*common, "--lower-is-better"]) == 0
    alone = capsys.readouterr().out
    assert cli.main([*common, "--lower-is-better", "loss", "p10"]) == 0
    assert capsys.readouterr().out == alone
    assert "a: the lowest mean." in alone


def test_the_note_explains_only_the_marks_that_appear():
    table = pd.DataFrame({"zeta": [0.1, 0.2, 0.3, 0.2], "alpha": [0.2, 0.1, 0.3, 0.25],
                          "mid": [0.1, 0.3, 0.2, 0.2]})  # fmt: skip
    none = table.paired.report(baseline="zeta", n_resamples=199, rng=1)
    assert set(none.to_frame()[("score", "mark")]) == {""}
    assert none.notes() == [
        "No system differs significantly from zeta (paired bootstrap, Holm-adjusted p < 0.05)."
    ]
    worse = table.assign(mid=table["mid"] - 1).paired.report(baseline="zeta", n_resamples=199,
                                                             rng=1)  # fmt: skip
    assert worse.to_frame()[("score", "mark")].tolist() == ["", "", DDAGGER]
    assert worse.notes(latex=True) == [
        r"$^{\ddagger}$ significantly worse than zeta "
        r"(paired bootstrap, Holm-adjusted $p < 0.05$)."
    ]


def _pass_fail(n=120, seed=3):
    """Right/wrong of three systems on the same questions, not named in sorted order."""
    rng = np.random.default_rng(seed)
    base = rng.random(n)
    return pd.DataFrame({"zeta": (base < 0.6).astype(int), "alpha": (base < 0.75).astype(int),
                         "mid": (rng.random(n) < 0.65).astype(int)})  # fmt: skip


def test_a_mcnemar_report_marks_by_the_holm_adjusted_tests_and_shows_rate_intervals():
    from scipy import stats

    table = _pass_fail().assign(perfect=1)
    rep = table.paired.report(test="mcnemar", baseline="zeta", confidence_level=0.9)
    frame = rep.to_frame()["score"]
    tests = table.paired.mcnemar(baseline="zeta", adjust="holm", confidence_level=0.9)
    for row in tests.itertuples(index=False):
        got = frame.loc[row.system_b]
        assert got["mean"] == row.rate_b
        assert got["pvalue"] == row.pvalue_adjusted
        assert (got["ci_low"], got["ci_high"]) == (row.ci_low, row.ci_high)
        marked = row.pvalue_adjusted < 0.1
        assert got["mark"] == ((DAGGER if row.difference > 0 else DDAGGER) if marked else "")
    assert frame.loc["alpha", "mark"] == DAGGER
    # each system's pass rate with Wilson's interval, Clopper-Pearson's bound at 100% (scipy)
    for system in table.columns:
        passes, n = int(table[system].sum()), len(table)
        test = stats.binomtest(passes, n)
        method = "exact" if passes in (0, n) else "wilson"
        want = test.proportion_ci(0.9, method=method)
        np.testing.assert_allclose(frame.loc[system, ["rate_low", "rate_high"]].to_numpy(float),
                                   [want.low, want.high], rtol=1e-9)  # fmt: skip
    assert "| zeta | 0.600 [0.525, 0.671] |" in rep.to_markdown(intervals=True)
    assert "(McNemar's test, Holm-adjusted p < 0.1)" in str(rep)


def test_a_mcnemar_report_without_baseline_gives_letters_and_refuses_max_t():
    table = _pass_fail()
    rep = table.paired.report(test="mcnemar")
    letters = rep.to_frame()["score"]["letters"].to_dict()
    expected = pairedstats.display.letters(table.paired.mcnemar(adjust="holm", as_result=True))
    assert letters == dict(zip(expected["system"], expected["letters"]))
    assert letters["alpha"] == "a"
    with pytest.raises(ValueError, match="max-t needs the bootstrap's joint replicates"):
        table.paired.report(test="mcnemar", adjust="max-t")
    with pytest.raises(ValueError, match="letters need decisions over the family"):
        table.paired.report(test="mcnemar", adjust=None)


def test_command_line_report_with_mcnemar(capsys, tmp_path):
    path = tmp_path / "pass_fail.csv"
    _pass_fail().rename_axis("question").reset_index().to_csv(path, index=False)
    args = ["report", str(path), "--item", "question", "--test", "mcnemar", "--baseline", "zeta"]
    assert cli.main(args) == 0
    out = capsys.readouterr().out
    assert "† significantly better than zeta (McNemar's test, Holm-adjusted p < 0.05)." in out
