"""``pairedstats compare METHOD RUN ... --qrels FILE --measure ...``: measures of TREC run files
computed by ir_measures, then any paired method on them."""

import contextlib
import io
import shutil
import sys

import numpy as np
import pandas as pd
import pytest
from tests import specs
from tests.data import assert_same_table

from pairedstats import cli
from pairedstats.__main__ import main as module_main
from pairedstats.cli_files import evaluate_runs
from pairedstats.datasets import trec_example_files

ir_measures = pytest.importorskip("ir_measures")

QRELS, RUNS = trec_example_files()
NAMES = ["tfidf", "bm25", "splade"]  # the order of the files, which is not sorted
FILES = [str(p) for p in RUNS]
FAST = ["--n-resamples", "300", "--rng", "3"]


def _by_ir_measures(measures) -> pd.DataFrame:
    """The long table built here from ir_measures' own per-query values: every query of the
    qrels, a query a run did not retrieve scored 0."""
    qrels = list(ir_measures.read_trec_qrels(str(QRELS)))
    queries = list(dict.fromkeys(q.query_id for q in qrels))
    rows = []
    for name, path in zip(NAMES, RUNS):
        got = {
            (m.query_id, str(m.measure)): m.value
            for m in ir_measures.iter_calc(
                [ir_measures.parse_measure(x) for x in measures],
                qrels,
                list(ir_measures.read_trec_run(str(path))),
            )
        }
        rows += [(q, name, x, got.get((q, x), 0.0)) for q in queries for x in measures]
    return pd.DataFrame(rows, columns=["query", "run", "measure", "score"])


def _value(frame, run, query, measure):
    row = frame[(frame["run"] == run) & (frame["query"] == query) & (frame["measure"] == measure)]
    assert len(row) == 1
    return float(row["score"].iloc[0])


# ---------------------------------------------------------------------------- the measures
def test_the_measures_are_ir_measures_own_values():
    measures = ["P@5", "AP", "nDCG@10", "RR"]
    frame, _ = evaluate_runs(RUNS, QRELS, measures)
    expected = _by_ir_measures(measures)
    assert frame[["query", "run", "measure"]].equals(expected[["query", "run", "measure"]])
    np.testing.assert_array_equal(frame["score"].to_numpy(), expected["score"].to_numpy())
    assert frame["run"].unique().tolist() == NAMES  # the files' order, the stems
    assert frame["query"].unique().tolist() == ["101", "102", "103", "104"]  # no 999


def test_measures_worked_out_by_hand():
    frame, note = evaluate_runs(RUNS, QRELS, ["P@5", "AP", "nDCG@5", "RR"])
    # Query 101 judges d1 (1), d3 (2), d4 (1) relevant, d2 and d5 not: R = 3.
    # bm25 ranks d3 d2 d1 d20 d4 (d20 unjudged: not relevant), relevant at ranks 1, 3, 5:
    #   P@5 = 3/5; AP = (1/1 + 2/3 + 3/5) / 3 = 34/45; RR = 1;
    #   nDCG@5 (trec_eval: gain = relevance, discount log2(rank + 1))
    #     = (2 + 1/log2(4) + 1/log2(6)) / (2 + 1/log2(3) + 1/log2(4)).
    assert _value(frame, "bm25", "101", "P@5") == pytest.approx(3 / 5, abs=1e-12)
    assert _value(frame, "bm25", "101", "AP") == pytest.approx(34 / 45, abs=1e-12)
    assert _value(frame, "bm25", "101", "RR") == 1.0
    ndcg = (2 + 1 / np.log2(4) + 1 / np.log2(6)) / (2 + 1 / np.log2(3) + 1 / np.log2(4))
    assert _value(frame, "bm25", "101", "nDCG@5") == pytest.approx(ndcg, abs=1e-12)
    # tfidf ranks d2 d5 d1 d3 d21: relevant at ranks 3 and 4, d4 never retrieved:
    #   P@5 = 2/5; AP = (1/3 + 2/4) / 3 = 5/18; RR = 1/3.
    assert _value(frame, "tfidf", "101", "P@5") == pytest.approx(2 / 5, abs=1e-12)
    assert _value(frame, "tfidf", "101", "AP") == pytest.approx(5 / 18, abs=1e-12)
    assert _value(frame, "tfidf", "101", "RR") == pytest.approx(1 / 3, abs=1e-12)
    # bm25 retrieved nothing for query 104: an empty ranking, 0 on every measure
    for measure in ["P@5", "AP", "nDCG@5", "RR"]:
        assert _value(frame, "bm25", "104", measure) == 0.0
    assert note == (
        f"4 queries of {str(QRELS)!r} evaluated in 3 runs; 'bm25' retrieved nothing for 1 "
        "query (104), scored as an empty ranking (0), as trec_eval -c does; 1 retrieved "
        "query not in the qrels not evaluated"
    )


def test_trec_eval_names_are_the_same_measures():
    ours, _ = evaluate_runs(RUNS, QRELS, ["nDCG@10", "P@10", "AP", "RR"])
    trec, _ = evaluate_runs(RUNS, QRELS, ["ndcg_cut_10", "P_10", "map", "recip_rank"])
    np.testing.assert_array_equal(ours["score"].to_numpy(), trec["score"].to_numpy())
    assert trec["measure"].unique().tolist() == ["ndcg_cut_10", "P_10", "map", "recip_rank"]


def test_wide_has_one_column_per_measure():
    long, _ = evaluate_runs(RUNS, QRELS, ["AP", "P@5"])
    wide, _ = evaluate_runs(RUNS, QRELS, ["AP", "P@5"], wide=True)
    assert list(wide.columns) == ["query", "run", "AP", "P@5"]
    for measure in ["AP", "P@5"]:
        part = long[long["measure"] == measure]
        np.testing.assert_array_equal(wide[measure].to_numpy(), part["score"].to_numpy())


# ---------------------------------------------------------------------------- the command
def _run(capsys, argv):
    assert cli.main(argv) == 0
    captured = capsys.readouterr()
    return captured.out, captured.err


def test_bootstrap_equals_the_accessor_on_the_table_built_independently(capsys):
    argv = ["compare", "bootstrap", *FILES, "--qrels", str(QRELS), "--measure", "AP",
            "--measure", "P@5", "--baseline", "bm25", *FAST, "--format", "csv"]  # fmt: skip
    out, err = _run(capsys, argv)
    got = pd.read_csv(io.StringIO(out))
    expected = _by_ir_measures(["AP", "P@5"]).paired.bootstrap(
        item="query", system="run", score="score", by="measure", baseline="bm25",
        n_resamples=300, rng=3,
    )  # fmt: skip
    assert_same_table(got, expected)
    assert got["measure"].tolist() == ["AP", "AP", "P@5", "P@5"]
    assert got["system_b"].tolist() == ["tfidf", "splade"] * 2  # the files' order
    assert (got["n_items"] == 4).all()
    assert err == (
        f"pairedstats compare bootstrap: 4 queries of {str(QRELS)!r} evaluated in 3 runs; "
        "'bm25' retrieved nothing for 1 query (104), scored as an empty ranking (0), as "
        "trec_eval -c does; 1 retrieved query not in the qrels not evaluated\n"
    )


def test_report_takes_the_measures_as_its_metrics(capsys):
    argv = ["compare", "report", *FILES, "--qrels", str(QRELS), "--measure", "ndcg_cut_10",
            "AP", "--baseline", "tfidf", *FAST, "--format", "csv"]  # fmt: skip
    out, _ = _run(capsys, argv)
    wide, _ = evaluate_runs(RUNS, QRELS, ["ndcg_cut_10", "AP"], wide=True)
    expected = wide.paired.report(
        item="query", system="run", score=["ndcg_cut_10", "AP"], baseline="tfidf",
        n_resamples=300, rng=3,
    )  # fmt: skip
    assert out.rstrip("\n") == expected.to_frame().to_csv().rstrip("\n")


def test_names_and_the_module_entry(capsys):
    argv = ["compare", "tukey-hsd", *FILES, "--qrels", str(QRELS), "--measure", "AP",
            "--names", "C", "A", "B", *FAST, "--format", "csv"]  # fmt: skip
    got = pd.read_csv(io.StringIO(_run(capsys, argv)[0]))
    assert got[["system_a", "system_b"]].values.tolist() == [["C", "A"], ["C", "B"], ["A", "B"]]
    assert module_main(argv) == 0
    assert pd.read_csv(io.StringIO(capsys.readouterr().out)).equals(got)


PAIRED = [s.command for s in cli.registry.SPECS.values() if s.road == "paired"]


@pytest.mark.filterwarnings("always")  # 4 queries: signrank warns that 0.95 is out of reach
@pytest.mark.parametrize("command", PAIRED)
def test_every_paired_method_runs_on_runs(command, capsys):
    spec = next(s for s in cli.registry.SPECS.values() if s.command == command)
    measure = "Success@1" if spec.binary_scores else "AP"  # 0/1 scores for McNemar
    # the default call's options (tests/specs.py): the spec's example keywords, and FAST's
    # --n-resamples and --rng where the method has them
    given = specs.keywords(spec, n_resamples=300, rng=3)
    extra = specs.command_argv(spec, given, runs=True)
    out, err = _run(capsys, ["compare", command, *FILES, "--qrels", str(QRELS),
                             "--measure", measure, *extra])  # fmt: skip
    assert out.strip()
    assert f"pairedstats compare {command}: 4 queries of " in err


def _help(argv) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit):
        cli.main([*argv, "--help"])
    return out.getvalue()


def _option_strings(parser_of) -> set:
    return {o for action in parser_of._actions for o in action.option_strings}


def test_compare_offers_each_method_its_own_options():
    """``compare METHOD`` has the options of ``METHOD`` but those that name the columns of a
    table and the trec_eval files, and the runs' options instead."""
    parser = cli.build_parser()
    commands = next(a for a in parser._actions if a.dest == "command").choices
    methods = next(a for a in commands["compare"]._actions if a.dest == "method_command")
    assert list(methods.choices) == PAIRED
    table_only = {"--item", "--system", "--score", "--by", "--cluster", "--strata",
                  "--replicate", "--missing", "--trec-eval"}  # fmt: skip
    for command in PAIRED:
        own = _option_strings(commands[command])
        runs = _option_strings(methods.choices[command])
        logs = {"--lm-eval", "--inspect", "--metric"}  # compare's evaluation logs
        assert runs == (own - table_only) | {"--qrels"} | logs, command
    assert "compare" in _help([])
    text = _help(["compare"])
    assert "pip install 'pairedstats[ir]'" in " ".join(text.split())
    for command in PAIRED:
        assert f"    {command}" in text
    text = " ".join(_help(["compare", "bootstrap"]).split())
    assert "--method {percentile,basic,bca,studentized}" in text  # the bootstrap's --method


# ---------------------------------------------------------------------------- errors
def _error(capsys, argv, command="bootstrap"):
    """Exit 2, one line on standard error naming the option or the file."""
    assert cli.main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 1, captured.err
    assert lines[0].startswith(f"pairedstats compare {command}: error: ")
    return lines[0].split(": error: ", 1)[1]


def _compare(*args, measure="AP", files=FILES, qrels=QRELS):
    return ["compare", "bootstrap", *files, "--qrels", str(qrels), "--measure", measure,
            *args, *FAST]  # fmt: skip


def test_without_ir_measures_the_error_names_the_extra(capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "ir_measures", None)  # import ir_measures fails
    message = _error(capsys, _compare())
    assert message == (
        "computing measures from run files needs ir-measures: pip install 'pairedstats[ir]'"
    )


def test_unknown_ambiguous_and_repeated_measures(capsys):
    message = _error(capsys, _compare(measure="nDCG@x"))
    assert message.startswith("--measure: ir_measures knows no measure 'nDCG@x'; write it as")
    assert "ndcg_cut_10" in message
    # the names it accepts, those that need a cutoff written with one
    assert ": AP, AP_IA, Accuracy, " in message
    assert ", P@k, " in message
    assert "(@k: a cutoff, e.g. P@10)" in message
    message = _error(capsys, _compare(measure="ndcg_cut"))
    assert message.startswith("--measure: 'ndcg_cut' names 9 measures in trec_eval (nDCG@5, ")
    message = _error(capsys, _compare("--measure", "ndcg_cut_10", measure="nDCG@10"))
    assert message == (
        "--measure: 'nDCG@10' and 'ndcg_cut_10' are the same measure (nDCG@10); give it once"
    )
    message = _error(capsys, _compare(measure="alpha_nDCG@10"))
    assert message.startswith("--measure: ir_measures cannot compute 'alpha_nDCG@10': ")


def test_a_measure_without_its_cutoff_says_so(capsys):
    for typed, example in (("P", "P@10"), ("Recall", "R@10"), ("Success", "Success@10")):
        message = _error(capsys, _compare(measure=typed))
        assert message == (
            f"--measure: {typed!r} needs a cutoff, the depth of the ranking it scores; write "
            f"it with one, as {example}"
        )
    message = _error(capsys, _compare(measure="INSQ"))
    assert message.startswith("--measure: 'INSQ' needs max_rel (")
    assert message.endswith("; write it with one, as INSQ(max_rel=...)")


def _edited_run(tmp_path, edit):
    """The first example run with ``edit(lines)`` applied, a blank line first."""
    lines = ["", *RUNS[0].read_text().splitlines()]
    path = tmp_path / "edited.run"
    path.write_text("\n".join(edit(lines)) + "\n")
    return path


def test_a_run_with_a_score_that_is_no_number_is_refused(capsys, tmp_path):
    def edit(lines):  # lines 3 and 9 of the file: 101 d5, 102 d22
        lines[2] = lines[2].replace(" 8.7 ", " nan ")
        lines[8] = lines[8].replace(" 3.9 ", " -inf ")
        return lines

    path = _edited_run(tmp_path, edit)
    message = _error(capsys, _compare(files=[str(path), *FILES[1:]]))
    assert message == (
        f"RUN: {str(path)!r} has 2 scores that are not finite numbers (nan, inf), on lines "
        "3, 9; trec_eval ranks a query's documents by score: give each a finite score"
    )


def test_a_run_that_lists_a_document_twice_is_refused(capsys, tmp_path):
    def edit(lines):  # 101 d1 again at line 7, 104 d12 again at the end
        return [*lines[:6], "101 Q0 d1 6 5.0 x", *lines[6:], "104 Q0 d12 4 1.0 x"]

    path = _edited_run(tmp_path, edit)
    message = _error(capsys, _compare(files=[*FILES[:2], str(path)]))
    assert message == (
        f"RUN: {str(path)!r} lists 2 documents twice for a query: document 'd1' of query "
        "'101' on lines 4 and 7, document 'd12' of query '104' on lines 13 and 17; "
        "trec_eval refuses such a run: keep one line per query and document"
    )


def test_missing_files_and_unreadable_ones(capsys, tmp_path):
    message = _error(capsys, _compare(files=[*FILES, str(tmp_path / "none.run")]))
    assert message == f"RUN: no file {str(tmp_path / 'none.run')!r}"
    message = _error(capsys, _compare(qrels=tmp_path / "qrels"))
    assert message == f"--qrels: no file {str(tmp_path / 'qrels')!r}"
    bad = tmp_path / "bad.run"
    bad.write_text("101 Q0 d1\n")
    message = _error(capsys, _compare(files=[FILES[0], str(bad)]))
    assert message.startswith(f"RUN: {str(bad)!r} is not a run file (")
    assert message.endswith("each line of it is 'query Q0 document rank score tag'")
    empty = tmp_path / "empty.run"
    empty.write_text("")
    message = _error(capsys, _compare(files=[FILES[0], str(empty)]))
    assert message == f"RUN: {str(empty)!r} is empty; it holds no run line"


def test_a_line_of_too_few_or_too_many_fields_is_refused_naming_it(capsys, tmp_path):
    for text, said in [("101 Q0 d1 1 2.0 t\n\n101 Q0 d2 2 1.0\n",
                        "non-blank line 2 has fewer than 6 fields"),
                       ("101 Q0 d1 1 2.0 t x\n101 Q0 d2 2 1.0 t\n",
                        "non-blank line 1 has 7 fields"),
                       ("101 Q0 d1 1 2.0 t\n101 Q0 d2 2 1.0 t x\n", "saw 7"),
                       ("101 Q0 d1 1 high t\n", "could not convert string to float")]:  # fmt: skip
        bad = tmp_path / "bad.run"
        bad.write_text(text)
        message = _error(capsys, _compare(files=[FILES[0], str(bad)]))
        assert message.startswith(f"RUN: {str(bad)!r} is not a run file (")
        assert said in message


def test_runs_read_as_ir_measures_reads_them(tmp_path):
    """Labels as written (``NA``, ``None``, ``nan``, a quote, a hash), tabs, runs of spaces,
    blank and CRLF lines, exponents: the measures equal ir_measures' on its own reader."""
    gen = np.random.default_rng(11)
    queries = ["NA", "101", "None", "1e3", "q#4"]
    docs = ["nan", '"d', "#x", "null", *[f"d{i}" for i in range(12)]]
    qrels = tmp_path / "q.txt"
    qrels.write_text("".join(f"{q} 0 {d} {gen.integers(0, 3)}\n" for q in queries for d in docs))
    paths = []
    for r in ("zeta", "alpha", "mid"):
        lines = []
        for q in queries[: 4 if r == "mid" else 5]:
            for rank, d in enumerate(gen.permutation(docs)[:10], 1):
                sep = "\t" if rank % 3 == 0 else "   "
                score = repr(gen.normal()) if rank % 4 else f"{gen.normal():.17e}"
                lines.append(f"  {q}{sep}Q0 {d} {rank} {score} {r}\r\n")
            lines.append("\n")
        paths.append(tmp_path / f"{r}.run")
        paths[-1].write_text("".join(lines))
    with paths[0].open("a") as f:  # scores only Python's float() reads
        f.write("q#4 Q0 x1 11 1_0 zeta\nq#4 Q0 x2 12 +1E-2 zeta\n")
    frame, _ = evaluate_runs(paths, qrels, ["nDCG@10", "AP"])
    judged = list(ir_measures.read_trec_qrels(str(qrels)))
    for path in paths:
        ranked = list(ir_measures.read_trec_run(str(path)))
        found = {(m.query_id, str(m.measure)): m.value for m in ir_measures.iter_calc(
            [ir_measures.nDCG @ 10, ir_measures.AP], judged, ranked)}  # fmt: skip
        for q in queries:
            for m in ("nDCG@10", "AP"):
                assert _value(frame, path.stem, q, m) == found.get((q, m), 0.0), (path, q, m)
    assert frame["query"].unique().tolist() == queries


def test_a_run_of_other_queries_is_refused(capsys, tmp_path):
    other = tmp_path / "other.run"
    other.write_text("301 Q0 d1 1 2.0 x\n302 Q0 d2 1 1.0 x\n")
    message = _error(capsys, _compare(files=[FILES[0], str(other)]))
    assert message == (
        f"RUN: {str(other)!r} retrieved none of the 4 queries of the qrels (its queries: "
        "301, 302; the qrels': 101, 102, 103, 104); are they of the same topics?"
    )


@pytest.mark.filterwarnings("always")  # a copy of a run: a single-point bootstrap
def test_two_runs_with_one_name_are_refused(capsys, tmp_path):
    (tmp_path / "a").mkdir()
    copy = tmp_path / "a" / "bm25.run"
    shutil.copy(RUNS[1], copy)
    message = _error(capsys, _compare(files=[*FILES, str(copy)]))
    assert message == (
        "RUN: two run files have the name 'bm25' (names are the file names without suffix: "
        "['tfidf', 'bm25', 'splade', 'bm25']); rename a file or give --names"
    )
    argv = _compare("--names", "a", "b", "c", "d", files=[*FILES, str(copy)])
    assert cli.main([*argv, "--format", "csv"]) == 0
    capsys.readouterr()


def test_options_of_a_table_are_not_options_of_compare(capsys):
    with pytest.raises(SystemExit):
        cli.main(_compare("--score", "AP"))
    assert "unrecognized arguments: --score" in capsys.readouterr().err


# ---------------------------------------------------------------------------- no METHOD
def test_without_a_method_compare_reports_the_runs_against_the_first(capsys):
    given = [*FILES, "--qrels", str(QRELS), "--measure", "AP", "P@5", *FAST, "--format", "csv"]
    assert cli.main(["compare", *given]) == 0
    out, err = capsys.readouterr()
    assert err.splitlines()[0] == (
        "pairedstats compare: no METHOD given: the report of the runs, each marked against the "
        "first run, 'tfidf' (--baseline NAME for another); for one method's table: pairedstats "
        "compare METHOD RUN ... (pairedstats compare -h)"
    )
    assert cli.main(["compare", "report", *given, "--baseline", "tfidf"]) == 0
    assert capsys.readouterr().out == out  # the report, against the first file's run
    frame, _ = evaluate_runs(RUNS, QRELS, ["AP", "P@5"], wide=True)
    expected = frame.paired.report(
        item="query", system="run", score=["AP", "P@5"], baseline="tfidf", n_resamples=300,
        rng=3,
    )  # fmt: skip
    assert out.rstrip("\n") == expected.to_frame().to_csv().rstrip("\n")
    # the text says it too: the baseline in the settings, splade marked better on AP
    assert cli.main(["compare", *given[:-2]]) == 0
    text = capsys.readouterr().out.splitlines()
    assert "baseline=tfidf" in text[1]
    assert [line.split()[:2] for line in text if line.startswith("splade")] == [
        ["splade", "0.958†"]
    ]


def test_without_a_method_the_baseline_and_names_can_be_given(capsys):
    given = [*FILES, "--qrels", str(QRELS), "--measure", "AP", *FAST]
    assert cli.main(["compare", *given, "--baseline", "bm25"]) == 0
    out, err = capsys.readouterr()
    assert "each marked against 'bm25' (--baseline)" in err.splitlines()[0]
    assert "baseline=bm25" in out.splitlines()[1]
    assert cli.main(["compare", *given, "--names", "C", "A", "B"]) == 0
    out, err = capsys.readouterr()
    assert "against the first run, 'C'" in err.splitlines()[0]
    assert "baseline=C" in out.splitlines()[1]


@pytest.mark.parametrize(
    ("typed", "meant"),
    [("bootstrp", "bootstrap"), ("tukey_hsd", "tukey-hsd"), ("Friedman", "friedman")],
)
def test_a_misspelled_method_gets_a_suggestion(typed, meant, capsys):
    with pytest.raises(SystemExit) as exit_:
        cli.main(["compare", typed, *FILES, "--qrels", str(QRELS), "--measure", "AP"])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert f"compare: no METHOD {typed!r}; did you mean {meant!r}?" in err


def test_a_method_named_like_a_run_file_is_the_method(capsys, tmp_path, monkeypatch):
    """A run file whose name is close to a method's is a run (it exists), not a typo."""
    monkeypatch.chdir(tmp_path)
    for path, name in zip(RUNS, ["bootstrp", "bm25", "splade"]):
        shutil.copy(path, tmp_path / name)
    argv = ["compare", "bootstrp", "bm25", "splade", "--qrels", str(QRELS), "--measure", "AP"]
    assert cli.main([*argv, *FAST]) == 0
    out, err = capsys.readouterr()
    assert "against the first run, 'bootstrp'" in err
    assert "baseline=bootstrp" in out
