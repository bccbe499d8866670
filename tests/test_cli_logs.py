"""``pairedstats compare METHOD --lm-eval PATH ...`` and ``--inspect PATH ...``: evaluation logs
of language-model harnesses compared on the command line (fixtures: see
tests/reference/harnesses/README.md; lm-evaluation-harness 0.4, inspect-ai 0.3.260)."""

import io
from pathlib import Path

import pandas as pd
import pytest

import pairedstats
from pairedstats import cli

HERE = Path(__file__).parent / "reference" / "harnesses"
LM_EVAL = HERE / "lm_eval"
MMLU = [str(p) for name in ("org__kestrel-7b", "org__atlas-8b")
        for p in sorted((LM_EVAL / name).glob("samples_mini_mmlu_*"))]  # fmt: skip
GSM = [str(p) for p in sorted(LM_EVAL.glob("*/samples_mini_gsm_*"))]
PACKAGED = sorted(pairedstats.datasets.inspect_example_folder().glob("*.eval"))
INSPECT = [str(next((HERE / "inspect").glob("*.json"))), str(PACKAGED[0])]


def _csv(capsys, argv) -> pd.DataFrame:
    assert cli.main([*argv, "--format", "csv"]) == 0
    return pd.read_csv(io.StringIO(capsys.readouterr().out))


def test_mcnemar_on_lm_eval_equals_the_accessor_on_the_reader(capsys):
    got = _csv(capsys, ["compare", "mcnemar", "--lm-eval", *MMLU])
    assert got["measure"].tolist() == ["acc", "acc_norm"]
    assert got[["system_a", "system_b"]].drop_duplicates().values.tolist() == [
        ["org/kestrel-7b", "org/atlas-8b"]]  # fmt: skip
    df = pairedstats.read_lm_eval(MMLU)
    for measure in ("acc", "acc_norm"):
        want = df.paired.mcnemar(item="item", system="model", score=measure)
        row = got[got["measure"] == measure].iloc[0]
        for column in ("n_items", "only_a", "only_b", "pvalue", "ci_low", "ci_high"):
            assert row[column] == pytest.approx(want[column].iloc[0], rel=1e-12)
    assert got.loc[0, ["only_a", "only_b", "pvalue"]].tolist() == [3, 0, 0.25]


def test_bootstrap_on_lm_eval_repeats_is_replicated(capsys):
    argv = ["compare", "bootstrap", "--lm-eval", *GSM, "--rng", "3", "--n-resamples", "500"]
    got = _csv(capsys, argv).set_index("filter")
    # the same groups (each group's draws follow from its keys): group, filter, measure
    long = pairedstats.read_lm_eval(GSM).assign(measure="exact_match")
    want = long.paired.bootstrap(
        item="item", system="model", score="exact_match", by=["group", "filter", "measure"],
        replicate="repeat", rng=3, n_resamples=500).set_index("filter")  # fmt: skip
    assert got["group"].tolist() == ["mini_gsm"] * 2
    for column in ("difference", "ci_low", "ci_high", "standard_error"):
        pd.testing.assert_series_equal(got[column], want[column], check_names=False)


def test_bootstrap_on_inspect_logs_with_a_scorer(capsys):
    argv = ["compare", "bootstrap", "--inspect", *INSPECT, "--metric", "match", "--rng", "3",
            "--n-resamples", "500"]  # fmt: skip
    got = _csv(capsys, argv)
    assert got[["task", "measure", "system_a", "system_b"]].values.tolist() == [
        ["arith", "match", "mockllm/atlas", "mockllm/kestrel"]]  # fmt: skip
    assert got["difference"].tolist() == [pytest.approx(0.4)]  # 8 of 10 against 4 of 10


def test_the_report_takes_the_metrics_as_its_columns(capsys):
    assert cli.main(["compare", "report", "--lm-eval", *MMLU]) == 0
    out = capsys.readouterr().out
    assert "acc_norm" in out
    assert "org/kestrel-7b  0.750" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["compare", "mcnemar", "--lm-eval", str(LM_EVAL)],
         "the logs hold several runs of a model (repeat) for some comparisons only"),
        (["compare", "mcnemar", "--lm-eval", *GSM],
         "the logs hold 2 runs of a model on a task (repeat 0, 1); mcnemar compares one run"),
        (["compare", "mcnemar", "--lm-eval", MMLU[0]], "of one model only"),
    ],
)  # fmt: skip
def test_refusals_name_the_fix(capsys, argv, message):
    assert cli.main(argv) == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["compare", "mcnemar"], "give RUN files with --qrels and --measure, or --lm-eval"),
        (["compare", "mcnemar", "x.run", "--lm-eval", *MMLU], "give one input: RUN files"),
        (["compare", "mcnemar", "--lm-eval", *MMLU, "--inspect", *INSPECT], "give one input"),
    ],
)  # fmt: skip
def test_one_input_is_given(capsys, argv, message):
    with pytest.raises(SystemExit):
        cli.main(argv)
    assert message in capsys.readouterr().err


def test_a_metric_chooses_the_tasks_that_have_it(capsys):
    folder = pairedstats.datasets.lm_eval_example_folder()
    argv = ["compare", "mcnemar", "--lm-eval", str(folder), "--metric", "acc"]
    got = _csv(capsys, argv)  # mini_gsm, run twice, has no acc: not compared, not refused
    assert got[["group", "measure", "n_items", "only_a", "only_b"]].values.tolist() == [
        ["mini_mmlu", "acc", 80, 10, 21]]  # fmt: skip
