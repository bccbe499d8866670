"""The command line: reading CSV, Parquet and trec_eval files, the output formats."""

import io
import json
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

import pairedstats
from pairedstats import cli
from pairedstats.__main__ import main as module_main

RUNS = pairedstats.datasets.load_runs()
TIDY = ["--item", "query", "--system", "run", "--score", "ndcg"]


@pytest.fixture(scope="module")
def runs_csv(tmp_path_factory):
    path = tmp_path_factory.mktemp("cli") / "runs.csv"
    RUNS.to_csv(path, index=False)
    return path


def _csv(capsys, argv):
    assert cli.main([*argv, "--format", "csv"]) == 0
    return pd.read_csv(io.StringIO(capsys.readouterr().out))


def _same(got, expected):
    expected = expected.reset_index(drop=True)
    assert list(got.columns) == list(expected.columns)
    for name in expected.columns:
        if expected[name].dtype.kind == "f":
            np.testing.assert_array_equal(got[name].to_numpy(), expected[name].to_numpy())
        else:
            assert got[name].astype(str).tolist() == expected[name].astype(str).tolist()


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
    _same(got, expected)  # every digit: CSV writes round-trip floats
    assert got["ci_low"].tolist() != got["difference"].tolist()


def test_tukey_wide_parquet_equals_the_tidy_accessor(capsys, tmp_path):
    pytest.importorskip("pyarrow")
    part = RUNS[RUNS["collection"] == "robust04"]
    wide = part.pivot(index="query", columns="run", values="p10").reset_index()
    path = tmp_path / "wide.parquet"
    wide.to_parquet(path)
    got = _csv(
        capsys, ["tukey-hsd", str(path), "--item", "query", "--n-resamples", "400", "--rng", "3"]
    )
    expected = part.paired.tukey_hsd(
        item="query", system="run", score="p10", n_resamples=400, rng=3
    )
    _same(got, expected)


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
    _same(got, expected)
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
    assert cli.main([*base, "--format", "latex", "--alpha", "0.1", "-o", str(out)]) == 0
    assert capsys.readouterr().out == ""
    assert out.read_text() == expected.to_latex(alpha=0.1) + "\n"


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
    assert got["system_b"].tolist() == ["bm25+rm3", "dense", "hybrid"]


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
    _same(pd.read_csv(io.StringIO(done.stdout)), expected)
