"""The command line: reading CSV, Parquet and trec_eval files, the output formats."""

import io
import json
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
from tests import generated, specs
from tests.data import assert_same_table, unsorted_runs

import pairedstats
from pairedstats import cli
from pairedstats.__main__ import main as module_main
from pairedstats.cli_figures import figure_kind

RUNS = unsorted_runs()
TIDY = ["--item", "query", "--system", "run", "--score", "ndcg"]


@pytest.fixture(scope="module")
def runs_csv(tmp_path_factory):
    path = tmp_path_factory.mktemp("cli") / "runs.csv"
    RUNS.to_csv(path, index=False)
    return path


def _csv(capsys, argv):
    assert cli.main([*argv, "--format", "csv"]) == 0
    return pd.read_csv(io.StringIO(capsys.readouterr().out))


def test_bootstrap_tidy_csv_equals_the_accessor(capsys, runs_csv):
    argv = [
        "bootstrap",
        str(runs_csv),
        *TIDY,
        "--baseline",
        "bm25",
        "--by",
        "collection",
        "--n-resamples",
        "500",
        "--rng",
        "7",
        "--method",
        "bca",
    ]
    got = _csv(capsys, argv)
    expected = RUNS.paired.bootstrap(
        item="query",
        system="run",
        score="ndcg",
        baseline="bm25",
        by="collection",
        n_resamples=500,
        rng=7,
        method="bca",
    )
    assert_same_table(got, expected)  # every digit: CSV writes round-trip floats
    assert got["ci_low"].tolist() != got["difference"].tolist()


def test_tukey_wide_parquet_equals_the_tidy_accessor(capsys, tmp_path):
    pytest.importorskip("pyarrow")
    part = RUNS[RUNS["collection"] == "robust04"]
    wide = part.pivot(index="query", columns="run", values="p10")
    wide = wide[list(part["run"].unique())].reset_index()  # the runs in the tidy order
    path = tmp_path / "wide.parquet"
    wide.to_parquet(path)
    got = _csv(
        capsys, ["tukey-hsd", str(path), "--item", "query", "--n-resamples", "400", "--rng", "3"]
    )
    expected = part.paired.tukey_hsd(
        item="query", system="run", score="p10", n_resamples=400, rng=3
    )
    assert_same_table(got, expected)


def test_parquet_without_pyarrow_names_it(monkeypatch, tmp_path, capsys):
    path = tmp_path / "x.parquet"
    path.write_bytes(b"PAR1")

    def missing(*args, **kwargs):
        raise ImportError("Unable to find a usable engine")

    monkeypatch.setattr(pd, "read_parquet", missing)
    with pytest.raises(ImportError, match=r"needs pyarrow: python -m pip install pyarrow"):
        cli.read_table(path)
    assert cli.main(["bootstrap", str(path)]) == 2
    assert "needs pyarrow" in capsys.readouterr().err


def test_ranksum_json_equals_the_accessor(capsys, tmp_path):
    ratings = pairedstats.datasets.load_ratings()
    path = tmp_path / "ratings.csv"
    ratings.to_csv(path, index=False)
    argv = [
        "ranksum",
        str(path),
        "--score",
        "deviation",
        "--group",
        "changed",
        "-a",
        "unchanged",
        "-b",
        "changed",
        "--format",
        "json",
        "--alternative",
        "less",
    ]
    assert cli.main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    expected = ratings.paired.ranksum(
        score="deviation", group="changed", a="unchanged", b="changed", alternative="less"
    )
    assert out["metadata"]["alternative"] == "less"
    (row,) = out["rows"]
    for name in ("n_a", "rank_sum_a", "z", "pvalue", "shift", "ci_high"):
        assert row[name] == expected[name].iloc[0]
    assert row["ci_low"] == "-inf"  # one-sided (b - a less): open below


def _trec_file(path, part, measure):
    lines = [f"runid                 \tall\t{part['run'].iloc[0]}"]
    for q, v in zip(part["query"], part["ndcg"]):
        lines += [f"map                   \t{q}\t0.1234", f"{measure:22s}\t{q}\t{v:.4f}"]
    lines += [f"{measure:22s}\tall\t{part['ndcg'].mean():.4f}", f"num_q       \tall\t{len(part)}"]
    path.write_text("\n".join(lines) + "\n")


def test_trec_eval_files_equal_the_accessor_and_skip_all(capsys, tmp_path):
    part = RUNS[RUNS["collection"] == "msmarco"]
    paths = []
    for run, rows in part.groupby("run", sort=False):
        paths.append(tmp_path / f"{run}.txt")
        _trec_file(paths[-1], rows, "ndcg_cut_10")
    table = cli.read_trec_eval(paths, "ndcg_cut_10")
    assert len(table) == len(part)  # the 'all' rows are not items
    assert "all" not in set(table["query"])
    got = _csv(
        capsys,
        [
            "bootstrap",
            "--trec-eval",
            *map(str, paths),
            "--measure",
            "ndcg_cut_10",
            "--baseline",
            "bm25",
            "--n-resamples",
            "300",
            "--rng",
            "2",
        ],
    )
    expected = part.paired.bootstrap(
        item="query", system="run", score="ndcg", baseline="bm25", n_resamples=300, rng=2
    )
    assert_same_table(got, expected)
    # custom names, and a measure that is not there
    assert cli.read_trec_eval(paths[:2], "ndcg_cut_10", ["A", "B"])["run"].unique().tolist() == [
        "A",
        "B",
    ]
    with pytest.raises(ValueError, match=r"no per-query 'P_10' lines .*its measures: map, "):
        cli.read_trec_eval(paths, "P_10")
    bad = tmp_path / "bad.txt"
    bad.write_text("ndcg_cut_10 q1\n")
    with pytest.raises(ValueError, match=r"line 1: expected 'measure query value'"):
        cli.read_trec_eval([bad], "ndcg_cut_10")
    with pytest.raises(ValueError, match=r"--names: 1 name\(s\) for 2 trec_eval file\(s\)"):
        cli.read_trec_eval(paths[:2], "ndcg_cut_10", ["A"])


def test_text_markdown_latex_and_output_file(capsys, runs_csv, tmp_path):
    base = ["tukey-hsd", str(runs_csv), *TIDY, "--n-resamples", "300", "--rng", "1"]
    expected = RUNS.paired.tukey_hsd(
        item="query", system="run", score="ndcg", n_resamples=300, rng=1, as_result=True
    )
    assert cli.main(base) == 0
    assert capsys.readouterr().out.strip() == str(expected)
    assert cli.main([*base, "--format", "markdown"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("| system_a | system_b | mean_a |")
    assert len(lines) == 2 + len(expected.label_a)
    out = tmp_path / "table.tex"
    assert cli.main([*base, "--format", "latex", "-o", str(out)]) == 0
    assert capsys.readouterr().out == ""
    assert out.read_text() == expected.to_latex() + "\n"


def test_usage_and_data_errors(capsys, runs_csv):
    with pytest.raises(SystemExit):
        cli.main(["bootstrap", str(runs_csv), "--system", "run"])
    assert "needs both --system and --score" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        cli.main(["bootstrap", "--trec-eval", "a.txt"])
    assert "--trec-eval needs --measure" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        cli.main(["tukey-hsd"])
    assert "give a FILE" in capsys.readouterr().err
    assert (
        cli.main(
            ["bootstrap", str(runs_csv), "--item", "query", "--system", "run", "--score", "map"]
        )
        == 2
    )
    assert "error: --score: no column named 'map'" in capsys.readouterr().err
    assert cli.main(["ranksum", "nowhere.csv"]) == 2
    assert "FILE: no file 'nowhere.csv'" in capsys.readouterr().err


def test_module_entry_dispatches_to_the_command_line(capsys, runs_csv):
    assert (
        module_main(
            [
                "bootstrap",
                str(runs_csv),
                *TIDY,
                "--baseline",
                "bm25",
                "--n-resamples",
                "200",
                "--rng",
                "5",
                "--format",
                "csv",
            ]
        )
        == 0
    )
    got = pd.read_csv(io.StringIO(capsys.readouterr().out))
    assert got["system_b"].tolist() == ["hybrid", "dense", "bm25+rm3"]


@pytest.mark.slow
def test_subprocess(runs_csv):
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pairedstats",
            "bootstrap",
            str(runs_csv),
            *TIDY,
            "--by",
            "collection",
            "--baseline",
            "bm25",
            "--n-resamples",
            "300",
            "--rng",
            "11",
            "--format",
            "csv",
        ],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    expected = RUNS.paired.bootstrap(
        item="query",
        system="run",
        score="ndcg",
        baseline="bm25",
        by="collection",
        n_resamples=300,
        rng=11,
    )
    assert_same_table(pd.read_csv(io.StringIO(done.stdout)), expected)


# ------------------------------------------------------------------ user errors: one line
def _error(capsys, argv):
    """Run a command that must fail: exit 2, one line on stderr, no traceback; the line."""
    assert cli.main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 1, captured.err
    assert "Traceback" not in lines[0]
    assert lines[0].startswith(f"pairedstats {argv[0]}: error: ")
    return lines[0]


def test_a_folder_as_file(capsys, tmp_path):
    line = _error(capsys, ["bootstrap", str(tmp_path), *TIDY])
    assert line.endswith(f"error: FILE: {str(tmp_path)!r} is a folder; give a file")


def test_output_into_a_missing_folder_is_refused_before_the_work(capsys, runs_csv, tmp_path):
    target = tmp_path / "nowhere" / "out.csv"
    line = _error(capsys, ["bootstrap", str(runs_csv), *TIDY, "-o", str(target)])
    assert f"--output: no folder {str(target.parent)!r} to write 'out.csv' in" in line
    line = _error(capsys, ["bootstrap", str(runs_csv), *TIDY, "-o", str(tmp_path)])
    assert f"--output: {str(tmp_path)!r} is a folder" in line


def test_non_utf8_and_empty_files(capsys, tmp_path):
    latin = tmp_path / "latin.csv"
    latin.write_bytes("query,run,ndcg\nr\xe9sum\xe9,a,0.5\n".encode("latin-1"))
    line = _error(capsys, ["bootstrap", str(latin), *TIDY])
    assert line.endswith(f"FILE: {str(latin)!r} is not UTF-8 text; save it as UTF-8 and try again")
    trec = tmp_path / "run.txt"
    trec.write_bytes("ndcg_cut_10\tr\xe9sum\xe9\t0.5\n".encode("latin-1"))
    line = _error(capsys, ["bootstrap", "--trec-eval", str(trec), "--measure", "ndcg_cut_10"])
    assert f"--trec-eval: {str(trec)!r} is not UTF-8 text" in line
    empty = tmp_path / "empty.csv"
    empty.touch()
    assert _error(capsys, ["tukey-hsd", str(empty)]).endswith(f"FILE: {str(empty)!r} is empty")


def test_words_in_the_score_column_and_an_unknown_column(capsys, tmp_path):
    words = RUNS.astype({"ndcg": object})
    words.loc[5, "ndcg"] = "high"
    path = tmp_path / "words.csv"
    words.to_csv(path, index=False)
    line = _error(capsys, ["bootstrap", str(path), *TIDY])
    assert "error: --score: column 'ndcg' must be numeric" in line
    assert "`score`" not in line
    line = _error(capsys, ["bootstrap", str(path), *TIDY[:4], "--score", "map"])
    assert "error: --score: no column named 'map'" in line


def test_library_keywords_become_options():
    options = cli.build_parser().parse_args(["ranksum"]).options
    assert options["a"] == "-a"
    assert options["confidence_level"] == "--confidence-level"
    assert options["output"] == "--output"
    assert "correction" not in options  # --no-correction does not spell the keyword
    text = cli._command_line_text(
        "`a`, `b`: got a=None, b='x'.\nUse confidence_level=0.9 or `by`; alpha=0.1, p=0.5",
        options,
    )
    assert (
        text == "-a, -b: got -a None, -b x. Use --confidence-level 0.9 or --by; alpha=0.1, p=0.5"
    )


# ------------------------------------------------------------------ byte-order mark
def test_a_byte_order_mark_does_not_hide_the_first_line(capsys, tmp_path, monkeypatch):
    # trec_eval: the first line's measure must not read '\ufeffndcg_cut_10' (dropped)
    part = RUNS[RUNS["collection"] == "msmarco"]
    paths = []
    for run, rows in part.groupby("run", sort=False):
        paths.append(tmp_path / f"{run}.txt")
        lines = [f"ndcg_cut_10\t{q}\t{v!r}" for q, v in zip(rows["query"], rows["ndcg"])]
        paths[-1].write_text("\ufeff" + "\n".join(lines) + "\n", encoding="utf-8")
    table = cli.read_trec_eval(paths, "ndcg_cut_10")
    assert len(table) == len(part)
    assert table["query"].iloc[0] == part["query"].iloc[0]
    # CSV, from a file and from standard input: the first column is 'collection'
    path = tmp_path / "bom.csv"
    path.write_bytes(b"\xef\xbb\xbf" + RUNS.to_csv(index=False).encode())
    assert cli.read_table(path).columns[0] == "collection"
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(path.read_bytes())))
    frame = cli.read_table("-")
    assert frame.columns[0] == "collection"
    pd.testing.assert_frame_equal(frame, RUNS)


# ------------------------------------------------------------------ typed labels
def test_typed_labels_match_integer_and_boolean_labels(capsys, tmp_path):
    codes = {run: i for i, run in enumerate(RUNS["run"].unique())}
    numbered = RUNS.assign(run=RUNS["run"].map(codes))
    path = tmp_path / "numbered.csv"
    numbered.to_csv(path, index=False)
    base = [str(path), *TIDY, "--n-resamples", "300", "--rng", "4"]
    got = _csv(capsys, ["bootstrap", *base, "--baseline", "0"])
    expected = numbered.paired.bootstrap(
        item="query", system="run", score="ndcg", baseline=0, n_resamples=300, rng=4
    )
    assert_same_table(got, expected)
    got = _csv(capsys, ["tukey-hsd", *base, "--systems", "2", "1", "--method", "monte-carlo"])
    expected = numbered.paired.tukey_hsd(
        item="query", system="run", score="ndcg", systems=[2, 1], n_resamples=300, rng=4,
        method="monte-carlo",
    )  # fmt: skip
    assert_same_table(got, expected)
    line = _error(capsys, ["bootstrap", *base, "--baseline", "bm25"])
    assert line.endswith("--baseline: no label 'bm25' in column 'run'; its labels: 0, 1, 2, 3")

    ratings = pairedstats.datasets.load_ratings()
    flagged = ratings.assign(changed=ratings["changed"] == "changed")
    path = tmp_path / "flagged.csv"
    flagged.to_csv(path, index=False)
    args = ["ranksum", str(path), "--score", "deviation", "--group", "changed"]
    got = _csv(capsys, [*args, "-a", "False", "-b", "True"])
    expected = flagged.paired.ranksum(score="deviation", group="changed", a=False, b=True)
    assert_same_table(got, expected)
    assert "-a: no label 'false' in column 'changed'; its labels: False, True" in _error(
        capsys, [*args, "-a", "false", "-b", "True"]
    )


def test_a_typed_label_with_two_readings_is_an_error():
    # files give a column one type; a table built in Python may mix them
    mixed = pd.DataFrame({"run": [1, "1", 2]})
    with pytest.raises(ValueError, match=r"--baseline: '1' is the text of 2 labels of column "
                                         r"'run' \(1, '1'\); rename them"):  # fmt: skip
        cli._typed_labels("1", "--baseline", mixed, "run")
    assert cli._typed_labels(["2"], "--systems", mixed, "run") == [2]
    assert cli._typed_labels("x", "--baseline", mixed, "nothing") == "x"  # the library names it


# ------------------------------------------------------------------ wide tables
def test_wide_tables_leave_the_items_to_the_library(capsys, tmp_path):
    part = RUNS[RUNS["collection"] == "robust04"]
    wide = part.pivot(index="query", columns="run", values="ndcg").reset_index()
    numbered = wide.assign(query=np.arange(301, 301 + len(wide)))  # TREC topic numbers
    path = tmp_path / "wide.csv"
    numbered.to_csv(path, index=False)
    # not guessed: an id column is not taken as the items (nor as a system) without --item
    line = _error(capsys, ["bootstrap", str(path)])
    assert "--item" in line
    assert "item=" not in line
    got = _csv(capsys, ["bootstrap", str(path), "--item", "query", "--n-resamples", "300",
                        "--rng", "8"])  # fmt: skip
    assert_same_table(got, numbered.paired.bootstrap(item="query", n_resamples=300, rng=8))
    assert got["system_b"].tolist() == ["bm25+rm3", "dense", "hybrid", "dense", "hybrid", "hybrid"]


# ------------------------------------------------------------------ warnings and pipes
def _command(*args):
    return [sys.executable, "-m", "pairedstats", *map(str, args)]


@pytest.mark.slow
def test_a_warning_is_one_line_without_source_lines(tmp_path):
    incomplete = RUNS[RUNS["collection"] == "msmarco"].iloc[1:]  # one item lacks bm25
    path = tmp_path / "incomplete.csv"
    incomplete.to_csv(path, index=False)
    done = subprocess.run(
        _command("bootstrap", path, *TIDY, "--missing", "complete", "--n-resamples", "100"),
        capture_output=True, text=True, timeout=120, check=True,
    )  # fmt: skip
    (line,) = done.stderr.splitlines()
    assert line.startswith("pairedstats bootstrap: warning: --missing complete dropped 1 of 40")
    assert "missing=" not in line
    assert len(pd.read_fwf(io.StringIO(done.stdout), skiprows=3)) == 6


@pytest.mark.slow
@pytest.mark.parametrize(
    "argv",
    [
        ["tukey-hsd", "RUNS", *TIDY, "--n-resamples", "100", "--format", "csv"],
        ["--n-resamples", "50"],  # the demo
    ],
    ids=["method", "demo"],
)
def test_a_closed_pipe_ends_quietly(runs_csv, argv):
    # the reader is gone before the first write (the interpreter has not started yet)
    argv = [str(runs_csv) if a == "RUNS" else a for a in argv]
    with subprocess.Popen(_command(*argv), stdout=subprocess.PIPE, stderr=subprocess.PIPE) as proc:
        proc.stdout.close()
        err = proc.stderr.read().decode()
        status = proc.wait(timeout=120)
    assert status == 141
    assert err == ""


def test_a_monte_carlo_zero_in_text_and_markdown_but_not_in_csv(capsys, tmp_path):
    rng = np.random.default_rng(3)
    a = rng.normal(size=30)
    wide = pd.DataFrame({"query": [f"q{i:02d}" for i in range(30)], "a": a,
                         "b": a + 1.0 + rng.uniform(0.0, 0.5, 30)})  # fmt: skip
    path = tmp_path / "separated.csv"
    wide.to_csv(path, index=False)
    argv = ["tukey-hsd", str(path), "--item", "query", "--method", "monte-carlo", "--rng", "1"]
    assert _csv(capsys, argv)["pvalue"].tolist() == [0.0]  # p = 2 / 2**30: no trial reaches it
    assert cli.main(argv) == 0
    row = capsys.readouterr().out.splitlines()[-1].split()
    assert row[:2] == ["a", "b"]
    assert row[5] == "<0.0001"
    assert cli.main([*argv, "--format", "markdown"]) == 0
    assert "| <0.0001 |" in capsys.readouterr().out.splitlines()[-1]


def test_option_values_are_case_insensitive_as_in_python(capsys, runs_csv):
    """``--method BCa`` is ``method="BCa"`` in Python, which reads as "bca"."""
    base = ["bootstrap", str(runs_csv), *TIDY, "--baseline", "bm25", "--n-resamples", "300"]
    upper = _csv(capsys, [*base, "--rng", "2", "--method", "BCa", "--missing", "RAISE"])
    expected = RUNS.paired.bootstrap(
        item="query", system="run", score="ndcg", baseline="bm25", n_resamples=300, rng=2,
        method="BCA", missing="Raise",
    )  # fmt: skip
    assert_same_table(upper, expected)
    rank = ["ranksum", str(runs_csv), "--score", "ndcg", "--group", "run", "-a", "bm25"]
    got = _csv(capsys, [*rank, "-b", "dense", "--alternative", "Greater", "--method", "EXACT"])
    assert_same_table(
        got,
        RUNS.paired.ranksum(
            score="ndcg", group="run", a="bm25", b="dense", alternative="greater", method="exact"
        ),
    )
    assert cli.main([*base, "--format", "Markdown"]) == 0
    assert capsys.readouterr().out.startswith("| system_a | system_b |")


# ------------------------------------------------------- one display rule per number
def _unsorted_csv(tmp_path, shift=(2.0, 0.0, 1.0), name="unsorted.csv", seed=4):
    """A wide table whose systems are not named in sorted order: zeta, alpha, mid."""
    rng = np.random.default_rng(seed)
    base = rng.normal(size=40)
    wide = pd.DataFrame({"item": [f"q{i:02d}" for i in range(40)]})
    for system, offset in zip(["zeta", "alpha", "mid"], shift):
        wide[system] = base + offset + rng.normal(scale=0.1, size=40)
    path = tmp_path / name
    wide.to_csv(path, index=False)
    return path


def _cells(text: str, name: str) -> list[str]:
    """The cells of column ``name`` of a printed table (its header: the line naming it)."""
    lines = text.splitlines()
    head = next(i for i, line in enumerate(lines) if name in line.split())
    at = lines[head].split().index(name)
    return [line.split()[at] for line in lines[head + 1 :]]


@pytest.mark.parametrize("command", ["bootstrap", "tukey-hsd"])
def test_a_pvalue_of_zero_is_its_bound_in_the_displays_and_zero_in_the_data(capsys, tmp_path,
                                                                            command):  # fmt: skip
    argv = [command, str(_unsorted_csv(tmp_path)), "--item", "item", "--rng", "1"]
    assert _csv(capsys, argv)["pvalue"].tolist() == [0.0, 0.0, 0.0]  # data: the number
    assert cli.main([*argv, "--format", "json"]) == 0
    assert [row["pvalue"] for row in json.loads(capsys.readouterr().out)["rows"]] == [0.0] * 3
    assert cli.main(argv) == 0  # 10,000 resamples or trials by default
    assert _cells(capsys.readouterr().out, "pvalue") == ["<0.0001"] * 3
    assert cli.main([*argv, "--format", "markdown"]) == 0
    assert capsys.readouterr().out.count("| <0.0001 |") == 3


def test_counts_are_integers_in_csv_and_json(capsys, tmp_path):
    argv = ["tukey-hsd", str(_unsorted_csv(tmp_path, shift=(0.02, 0.0, 0.01))), "--item",
            "item", "--rng", "1", "--n-resamples", "2000"]  # fmt: skip
    assert cli.main([*argv, "--format", "csv"]) == 0
    text = capsys.readouterr().out
    exceeding = pd.read_csv(io.StringIO(text), dtype=str)["exceeding"].tolist()
    assert all(value.isdigit() for value in exceeding), exceeding  # 1164, not 1164.0
    assert cli.main([*argv, "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)["rows"]
    assert [type(row["exceeding"]) for row in rows] == [int] * 3
    # an exact p-value counts no trials: an empty cell, null
    small = _unsorted_csv(tmp_path, name="small.csv")
    pd.read_csv(small).head(5).to_csv(small, index=False)  # 6**5 arrangements
    exact = ["tukey-hsd", str(small), "--item", "item", "--method", "exact", "--format"]
    assert cli.main([*exact, "json"]) == 0
    assert [row["exceeding"] for row in json.loads(capsys.readouterr().out)["rows"]] == [None] * 3
    assert cli.main([*exact, "csv"]) == 0
    assert capsys.readouterr().out.splitlines()[1].split(",")[9] == ""


def test_bootstrap_latex_explains_only_the_marks_that_appear(capsys, tmp_path):
    same = _unsorted_csv(tmp_path, shift=(0.0, 0.0, 0.0), name="same.csv")
    frame = pd.read_csv(same)
    systems = ["zeta", "alpha", "mid"]  # no system differs from another (p > 0.4)
    frame[systems] = np.random.default_rng(9).normal(size=(len(frame), 3))
    frame.to_csv(same, index=False)
    argv = ["bootstrap", str(same), "--item", "item", "--rng", "1", "--format", "latex"]
    assert cli.main(argv) == 0
    latex = capsys.readouterr().out
    assert "^{*}" not in latex
    assert r"\footnotesize" not in latex
    assert latex.splitlines()[-2:] == [r"\bottomrule", r"\end{tabular}"]
    argv[1] = str(_unsorted_csv(tmp_path))
    assert cli.main(argv) == 0
    latex = capsys.readouterr().out
    assert "^{*}" in latex
    assert r"\footnotesize $^{*}$" in latex.splitlines()[-2]


def test_rank_text_lists_the_systems_in_the_order_its_header_says(capsys, tmp_path):
    path = _unsorted_csv(tmp_path, shift=(1.0, 0.0, 2.0))  # mid > zeta > alpha
    argv = ["rank", str(path), "--item", "item", "--rng", "1", "--n-resamples", "1000"]
    assert cli.main(argv) == 0
    text = capsys.readouterr().out
    assert "(highest first)" in text.splitlines()[0]
    assert _cells(text, "system") == ["mid", "zeta", "alpha"]
    assert cli.main([*argv, "--lower-is-better"]) == 0
    text = capsys.readouterr().out
    assert "(lowest first)" in text.splitlines()[0]
    assert _cells(text, "system") == ["alpha", "zeta", "mid"]


# ------------------------------------------------------------------ reading a CSV as written
def test_a_header_naming_a_column_twice_is_refused(capsys, tmp_path, monkeypatch):
    # pandas would read the second 'bm25' as a system 'bm25.1' that no one ran
    text = "query,bm25,dense,bm25\nq1,0.1,0.2,0.3\nq2,0.2,0.3,0.5\nq3,0.3,0.1,0.2\n"
    path = tmp_path / "twice.csv"
    path.write_text(text)
    line = _error(capsys, ["bootstrap", str(path), "--item", "query"])
    assert line.endswith(
        f"error: FILE: {str(path)!r} names the column 'bm25' 2 times in its header; each "
        "column needs a name of its own (pandas would read the second as 'bm25.1', a column "
        "the file does not name). Rename or remove the repeated columns."
    )
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode())))
    line = _error(capsys, ["tukey-hsd", "-", "--item", "query"])
    assert "FILE: standard input names the column 'bm25' 2 times" in line
    with pytest.raises(ValueError, match="names the column 'bm25' 2 times"):
        cli.read_table(path)


def test_na_none_and_nan_in_label_columns_are_labels(capsys, tmp_path):
    # items and systems named NA, None, nan (a query 'NA', a run 'None') are labels there;
    # in the score column the same markers are missing scores
    text = (
        "query,run,ndcg\nNA,nan,0.1\nNA,None,0.2\nNone,nan,0.3\nNone,None,0.1\n"
        "nan,nan,0.5\nnan,None,0.4\n"
    )
    path = tmp_path / "labels.csv"
    path.write_text(text)
    frame = cli.read_table(path, labels=["query", "run"])
    assert frame["query"].tolist() == ["NA", "NA", "None", "None", "nan", "nan"]
    assert frame["run"].tolist() == ["nan", "None"] * 3
    args = [str(path), *TIDY, "--n-resamples", "200", "--rng", "5", "--format", "csv"]
    assert cli.main(["bootstrap", *args, "--baseline", "None"]) == 0
    got = pd.read_csv(io.StringIO(capsys.readouterr().out), keep_default_na=False)
    expected = frame.paired.bootstrap(
        item="query", system="run", score="ndcg", baseline="None", n_resamples=200, rng=5
    )
    assert_same_table(got, expected)
    assert got[["system_a", "system_b", "n_items"]].astype(str).values.tolist() == [
        ["None", "nan", "3"]
    ]
    scores = tmp_path / "scores.csv"
    scores.write_text("query,run,ndcg\nNA,a,0.1\nNA,b,NA\nx,a,0.3\nx,b,0.1\ny,a,0.2\ny,b,0.4\n")
    line = _error(capsys, ["bootstrap", str(scores), *TIDY])
    assert "--score: every item needs a score for every system; found 1 NaN" in line
    assert "the first for item 'NA' and system 'b'" in line
    # an empty cell is a missing label
    empty = tmp_path / "empty_label.csv"
    empty.write_text("query,run,ndcg\n,a,0.1\nq,b,0.2\n")
    line = _error(capsys, ["bootstrap", str(empty), *TIDY])
    assert "--item: column 'query' has 1 missing value(s)" in line


def test_ranksum_group_labels_na_and_none(capsys, tmp_path):
    path = tmp_path / "groups.csv"
    frame = pd.DataFrame({"g": ["NA", "None"] * 5, "x": np.arange(10.0) ** 1.5})
    frame.to_csv(path, index=False)
    argv = ["ranksum", str(path), "--score", "x", "--group", "g", "-a", "NA", "-b", "None"]
    assert cli.main([*argv, "--format", "csv"]) == 0
    got = pd.read_csv(io.StringIO(capsys.readouterr().out), keep_default_na=False)
    assert "NA" in path.read_text()
    assert_same_table(got, frame.paired.ranksum(score="x", group="g", a="NA", b="None"))
    assert got[["group_a", "group_b", "n_a", "n_b"]].values.tolist() == [["NA", "None", 5, 5]]


def test_a_csv_parse_error_names_the_file(capsys, tmp_path):
    path = tmp_path / "ragged.csv"
    path.write_text("query,run,ndcg\nq1,a,0.1\nq1,b,0.2,7\n")
    line = _error(capsys, ["bootstrap", str(path), *TIDY])
    assert f"error: FILE: {str(path)!r} is not a readable CSV file (Error tokenizing data" in line
    assert line.endswith("Expected 3 fields in line 3, saw 4)")
    quote = tmp_path / "quote.csv"
    quote.write_text('query,run,ndcg\nq1,a,0.1\n"q1,b,0.2\n')
    line = _error(capsys, ["bootstrap", str(quote), *TIDY])
    assert f"FILE: {str(quote)!r} is not a readable CSV file" in line


# ---------------------------------------------------------------------------- every command
def _command_inputs(tmp_path):
    """One small real run of each command: its argv after the command's name, built from
    its spec (:mod:`tests.specs`): a paired method on a tidy table of three systems (0/1
    scores, ``hit``, for a method of pass/fail scores) against ``bm25`` where it takes a
    baseline, a method of two samples on two groups; with the spec's example keywords and a
    small ``--n-resamples`` and an ``--rng`` where the command has them."""
    rng = np.random.default_rng(7)
    runs = pd.DataFrame(
        [dict(query=q, run=r, ndcg=float(rng.random()), hit=int(rng.random() < 0.5 + 0.1 * i))
         for q in range(16) for i, r in enumerate(["bm25", "dense", "hybrid"])]
    )  # fmt: skip
    paired = tmp_path / "runs.csv"
    runs.to_csv(paired, index=False)
    groups = tmp_path / "groups.csv"
    pd.DataFrame({"score": rng.random(20), "group": ["x"] * 10 + ["y"] * 10}).to_csv(groups)
    tidy = [str(paired), "--item", "query", "--system", "run", "--score"]
    two_samples = [str(groups), "--score", "score", "--group", "group", "-a", "x", "-b", "y"]
    out = {}
    for spec in cli.registry.SPECS.values():
        given = {"baseline": "bm25", **specs.keywords(spec, n_resamples=200, rng=1)}
        if spec.road == "paired":
            argv = [*tidy, "hit" if spec.binary_scores else "ndcg"]
        else:
            argv = two_samples
        out[spec.command] = [*argv, *specs.command_argv(spec, given)]
    return out


@pytest.mark.parametrize("command", cli.COMMANDS)
def test_every_command_has_plain_help_and_runs(command, capsys, tmp_path):
    with pytest.raises(SystemExit) as exit_:
        cli.main([command, "--help"])
    assert exit_.value.code == 0
    help_text = " ".join(capsys.readouterr().out.split())
    for markup in ("``", ":func:", ":class:", ":meth:"):
        assert markup not in help_text
    if "--rng" in help_text:
        assert "drawn from the operating system" in help_text
    if "--alpha" in help_text:  # only a method's own planned level
        assert cli._owns_alpha(cli.registry.SPECS[command.replace("-", "_")])
    assert cli.main([command, *_command_inputs(tmp_path)[command]]) == 0
    assert capsys.readouterr().out.strip()


def test_the_top_level_help_lists_every_command_in_plain_words(capsys):
    with pytest.raises(SystemExit):
        cli.main(["--help"])
    text = capsys.readouterr().out
    assert "``" not in text
    for command in cli.COMMANDS:
        assert f"    {command}" in text


def test_option_helps_state_the_defaults(capsys):
    with pytest.raises(SystemExit):
        cli.main(["bootstrap", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    for stated in ["(default: 10,000)", "(default: 0.95)", "(default: percentile)",
                   "(default: two-sided)", "(default: none, unadjusted)", "(default: raise)",
                   "(default: text)"]:  # fmt: skip
        assert stated in text


def test_plain_renders_the_markup():
    assert (
        cli._plain("``baseline`` and :func:`~pairedstats.bootstrap`") == "baseline and bootstrap"
    )
    assert cli._plain(":class:`pairedstats.Result` `x`") == "pairedstats.Result x"
    assert cli._plain("`the guide <https://x.org>`_ says") == "the guide says"


def test_latex_markers_follow_the_confidence_level(capsys, tmp_path):
    inputs = _command_inputs(tmp_path)
    argv = ["mcnemar", *inputs["mcnemar"], "--format", "latex", "--confidence-level", "0.9"]
    assert cli.main(argv) == 0
    latex = capsys.readouterr().out
    frame = pd.read_csv(tmp_path / "runs.csv")
    expected = frame.paired.mcnemar(
        item="query", system="run", score="hit", baseline="bm25", confidence_level=0.9,
        as_result=True,
    )  # fmt: skip
    assert latex == expected.to_latex(alpha=0.1) + "\n"
    with pytest.raises(SystemExit):  # one way to give the level: no --alpha besides it
        cli.main([*argv, "--alpha", "0.1"])
    assert "unrecognized arguments: --alpha" in capsys.readouterr().err


def test_the_caveat_under_the_settings_names_the_option(capsys, tmp_path):
    inputs = _command_inputs(tmp_path)
    argv = ["bootstrap", *inputs["bootstrap"]]
    assert cli.main(argv) == 0
    text = capsys.readouterr().out
    assert "--adjust controls them together" in text
    assert "adjust=" not in text
    assert "n_resamples=200" in text  # the settings line: the library's keywords
    frame = pd.read_csv(tmp_path / "runs.csv")
    expected = frame.paired.bootstrap(
        item="query", system="run", score="ndcg", baseline="bm25", n_resamples=200, rng=1,
        as_result=True,
    )  # fmt: skip
    assert text.strip() == str(expected).replace("adjust= controls", "--adjust controls")


# ---------------------------------------------------------------------------- --plot
#: The commands whose result draws a figure, and the figure (pairedstats.plotting's kinds).
FIGURES = {"bayes-signrank": "posterior", "bootstrap": "forest", "cv-ttest": "forest",
           "friedman": "critical_difference",
           "mcnemar": "forest", "rank": "ranks", "ranksum": "forest", "signrank": "forest",
           "signtest": "forest", "tukey-hsd": "pvalues"}  # fmt: skip
SIGNATURES = {"png": b"\x89PNG\r\n\x1a\n", "pdf": b"%PDF-", "svg": b"<?xml"}


def test_the_commands_with_a_figure_are_those_whose_result_draws_one():
    got = {spec.command: figure_kind(spec) for spec in cli.registry.SPECS.values()}
    assert {c: k for c, k in got.items() if k is not None} == FIGURES
    assert {c for c, k in got.items() if k is None} == {
        "items-for",
        "mcs",
        "report",
    }


def _image(path, fmt):
    data = path.read_bytes()
    assert data.startswith(SIGNATURES[fmt]), data[:20]
    if fmt == "png":  # a whole PNG: its last chunk is IEND
        assert data[-12:-4] == b"\x00\x00\x00\x00IEND"
    if fmt == "pdf":
        assert data.rstrip().endswith(b"%%EOF")
    if fmt == "svg":
        assert data.rstrip().endswith(b"</svg>")


@pytest.mark.parametrize("command", list(FIGURES))
def test_plot_writes_the_figure_of_every_command_that_has_one(command, capsys, tmp_path):
    pytest.importorskip("matplotlib")
    fmt = ["png", "pdf", "svg"][list(FIGURES).index(command) % 3]
    path = tmp_path / f"figure.{fmt}"
    argv = [command, *_command_inputs(tmp_path)[command], "--plot", str(path)]
    assert cli.main(argv) == 0
    out = capsys.readouterr().out
    assert out.strip()  # the table is written as without --plot
    _image(path, fmt)
    assert path.stat().st_size > 1000


@pytest.mark.parametrize("command", ["items-for", "mcs", "report"])
def test_a_command_without_a_figure_has_no_plot_option(command, capsys, tmp_path):
    with pytest.raises(SystemExit):
        cli.main([command, "--help"])
    assert "--plot" not in capsys.readouterr().out
    with pytest.raises(SystemExit):
        cli.main([command, *_command_inputs(tmp_path)[command], "--plot", "x.png"])
    assert "unrecognized arguments: --plot" in capsys.readouterr().err


def test_plot_writes_one_figure_per_group_when_it_shows_one(capsys, tmp_path, runs_csv):
    pytest.importorskip("matplotlib")
    argv = ["friedman", str(runs_csv), *TIDY, "--by", "collection", "--plot",
            str(tmp_path / "cd.pdf")]  # fmt: skip
    assert cli.main(argv) == 0
    collections = list(RUNS["collection"].unique())
    written = sorted(p.name for p in tmp_path.iterdir())
    assert written == sorted(f"cd-{c}.pdf" for c in collections)
    for name in written:
        _image(tmp_path / name, "pdf")
    assert "one figure per group" in capsys.readouterr().err
    forest = tmp_path / "forest.png"
    argv = ["bootstrap", str(runs_csv), *TIDY, "--baseline", "bm25", "--by", "collection",
            "--n-resamples", "200", "--rng", "1", "--plot", str(forest)]  # fmt: skip
    assert cli.main(argv) == 0  # the forest plot shows every group in one figure
    _image(forest, "png")


def test_plot_refuses_a_format_it_cannot_write_and_a_missing_matplotlib(
    capsys, tmp_path, runs_csv, monkeypatch
):
    argv = ["friedman", str(runs_csv), *TIDY, "--by", "collection"]
    line = _error(capsys, [*argv, "--plot", str(tmp_path / "cd.jpeg")])
    assert "--plot: " in line
    assert "end the file name in .png, .pdf, .svg" in line
    line = _error(capsys, [*argv, "--plot", str(tmp_path / "no" / "cd.png")])
    assert "--plot: no folder" in line
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib fails
    line = _error(capsys, [*argv, "--plot", str(tmp_path / "cd.png")])
    assert line.endswith(
        "--plot needs matplotlib, an optional extra: python -m pip install 'pairedstats[plot]'"
    )
    assert list(tmp_path.iterdir()) == []


# ---------------------------------------------------------------------------- Nemenyi's CD
def test_friedman_text_prints_nemenyis_critical_difference(capsys, tmp_path, runs_csv):
    from scipy.stats import studentized_range

    argv = ["friedman", str(runs_csv), *TIDY, "--by", "collection"]
    assert cli.main([*argv, "--posthoc", "nemenyi"]) == 0
    text = capsys.readouterr().out
    k = RUNS["run"].nunique()
    shown = []
    for collection in RUNS["collection"].unique():  # Demšar (2006): q_alpha sqrt(k(k+1)/6N)
        n = RUNS.loc[RUNS["collection"] == collection, "query"].nunique()
        q = studentized_range.ppf(0.95, k, np.inf) / np.sqrt(2)
        shown.append(f"{collection}: {q * np.sqrt(k * (k + 1) / (6 * n)):.4g}")
    line = [x for x in text.splitlines() if x.startswith("Nemenyi's critical difference")]
    assert line == [
        f"Nemenyi's critical difference at alpha = 0.05: CD = {'; '.join(shown)} "
        "(by collection) (mean ranks further apart than CD differ)"
    ]
    lines = text.splitlines()
    assert lines[lines.index(line[0]) - 1].startswith("Mean ranks (1 = best)")
    assert cli.main(argv) == 0  # Wilcoxon-Holm: no CD
    assert "critical difference" not in capsys.readouterr().out


# ---------------------------------------------------------------------------- misspelled
@pytest.mark.parametrize(
    ("typed", "meant"),
    [("tukey_hsd", "'tukey-hsd'"), ("tukey", "'tukey-hsd'"), ("Bootstrap", "'bootstrap'"),
     ("items_for", "'items-for'"), ("sign", "'signrank' or 'signtest'"),
     ("bootstap", "'bootstrap'")],
)  # fmt: skip
@pytest.mark.parametrize("entry", [cli.main, module_main])
def test_a_misspelled_command_gets_a_suggestion(typed, meant, entry, capsys):
    with pytest.raises(SystemExit) as exit_:
        entry([typed, "runs.csv"])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert (
        f"pairedstats: error: no command {typed!r}; did you mean {meant}? (the commands: " in err
    )


def test_an_unknown_command_far_from_all_lists_them(capsys):
    with pytest.raises(SystemExit):
        module_main(["anova"])
    err = capsys.readouterr().err
    assert "no command 'anova' (the commands: bayes-signrank, bootstrap, cv-ttest, friedman" in err
    assert "did you mean" not in err


def test_the_module_help_is_plain_words_and_lists_every_command(capsys):
    with pytest.raises(SystemExit) as exit_:
        module_main(["--help"])
    assert exit_.value.code == 0
    text = capsys.readouterr().out
    for markup in ("``", ":mod:", ":func:", "tests/", "test_", ".py"):
        assert markup not in text
    starts = [line.split()[0] for line in text.splitlines() if line.startswith("  ") and
              not line.startswith("   ") and not line.lstrip().startswith("-")]  # fmt: skip
    assert starts == [*cli.COMMANDS, "compare"]


# ---------------------------------------------------------------------------- docs/cli.md
@pytest.mark.skipif(not generated.HELP_CURRENT, reason="argparse 3.13 lays the help out anew")
def test_docs_cli_shows_the_current_help_of_every_command():
    assert not generated.stale(generated.CLI), (
        f"docs/cli.md's help of the commands is stale: run `{generated.COMMAND}`"
    )


if __name__ == "__main__":  # python -m tests.test_cli: the help in docs/cli.md (and the rest)
    raise SystemExit(generated.main(["--write"]))
