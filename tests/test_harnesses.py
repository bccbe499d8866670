"""pairedstats.read_lm_eval and read_inspect: evaluation logs of language-model harnesses.

Fixtures (tests/reference/harnesses/README.md): inspect-ai logs written by inspect-ai 0.3.260
itself (source read at commit 499e6152e7b8fc8cbd8ac5283536572aa6e4ab17); lm-evaluation-harness
logs laid out and filled as lm-evaluation-harness 0.4 (0.4.13.dev0, commit
4e7e0d47f33bc71070c1d38394bafbb52b117163: ``lm_eval/evaluator.py``,
``lm_eval/loggers/evaluation_tracker.py``) writes them with ``--log_samples``.
"""

import json
import shutil
import sys
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import pairedstats
from pairedstats import PlanningWarning

HERE = Path(__file__).parent / "reference" / "harnesses"
LM_EVAL = HERE / "lm_eval"
KESTREL, ATLAS = LM_EVAL / "org__kestrel-7b", LM_EVAL / "org__atlas-8b"
INSPECT_JSON = next((HERE / "inspect").glob("*.json"))
INSPECT_EVAL = next((HERE / "inspect").glob("*.eval"))


def _zstd_readable() -> bool:
    if sys.version_info >= (3, 14):
        return True
    try:
        import zstandard  # noqa: F401
    except ImportError:
        return False
    return True


# --------------------------------------------------------------------- lm-eval: the table
@pytest.fixture(scope="module")
def lm():
    return pairedstats.read_lm_eval([KESTREL, ATLAS])


def test_lm_eval_columns_and_model_order(lm):
    assert list(lm.columns) == ["task", "group", "doc_id", "item", "model", "filter", "repeat",
                                "exact_match", "acc", "acc_norm"]  # fmt: skip
    # the models in the order of the paths given (not sorted); kestrel's name from
    # model_name, atlas's from config.model_args (a results file without model_name)
    assert lm["model"].unique().tolist() == ["org/kestrel-7b", "org/atlas-8b"]
    assert lm.groupby("model", sort=False).size().to_dict() == {
        "org/kestrel-7b": 20, "org/atlas-8b": 20}  # fmt: skip


def test_lm_eval_values_by_label(lm):
    acc = lm.dropna(subset="acc").set_index(["model", "task", "doc_id"]).sort_index()
    assert acc.loc[("org/kestrel-7b", "mini_mmlu_algebra"), "acc"].tolist() == [1, 1, 0, 1]
    assert acc.loc[("org/kestrel-7b", "mini_mmlu_algebra"), "acc_norm"].tolist() == [1, 0, 0, 1]
    assert acc.loc[("org/atlas-8b", "mini_mmlu_biology"), "acc"].tolist() == [1, 0, 1, 0]
    assert acc.loc[("org/atlas-8b", "mini_mmlu_biology", 0), "acc_norm"] == 0.0
    assert set(acc["group"]) == {"mini_mmlu"}  # from the results' group_subtasks
    assert acc.loc[("org/kestrel-7b", "mini_mmlu_biology", 2), "item"] == "mini_mmlu_biology/2"
    gsm = lm[lm["task"] == "mini_gsm"].set_index(["model", "repeat", "filter", "doc_id"])
    gsm = gsm.sort_index()
    assert gsm["group"].eq("mini_gsm").all()  # a task in no group is its own
    em = gsm["exact_match"]
    assert em.loc[("org/kestrel-7b", 0, "strict-match")].tolist() == [1, 0, 0]
    assert em.loc[("org/kestrel-7b", 0, "flexible-extract")].tolist() == [1, 1, 0]
    assert em.loc[("org/kestrel-7b", 1, "flexible-extract")].tolist() == [1, 1, 1]
    assert em.loc[("org/atlas-8b", 1, "strict-match")].tolist() == [0, 1, 0]
    assert gsm["acc"].isna().all()  # a metric the task does not have


def test_lm_eval_folder_doc_fields_and_metrics():
    df = pairedstats.read_lm_eval(LM_EVAL, doc_fields="subject", metrics=["acc"])
    assert list(df.columns) == ["task", "group", "doc_id", "item", "model", "filter",
                                "repeat", "subject", "acc"]  # fmt: skip
    assert df.loc[df["task"] == "mini_gsm", "subject"].isna().all()  # docs without it
    mmlu = df[df["group"] == "mini_mmlu"]
    assert mmlu.groupby("task")["subject"].unique().map(list).to_dict() == {
        "mini_mmlu_algebra": ["algebra"], "mini_mmlu_biology": ["biology"]}  # fmt: skip


def test_lm_eval_doc_field_missing_is_refused():
    with pytest.raises(ValueError, match=r"doc_fields: no doc has the field 'topic'; the "
                       r"docs' fields: answer, question"):  # fmt: skip
        pairedstats.read_lm_eval(LM_EVAL, doc_fields=["topic"])


def test_lm_eval_unknown_metric_is_refused():
    with pytest.raises(ValueError, match=r"metrics: no sample holds 'accuracy'; the files' "
                       r"metrics: .*'acc'"):  # fmt: skip
        pairedstats.read_lm_eval(LM_EVAL, metrics=["accuracy"])


# -------------------------------------------------------------------- lm-eval: refusals
def _copy(tmp_path, *folders):
    for folder in folders:
        shutil.copytree(folder, tmp_path / folder.name)
    return tmp_path


def test_lm_eval_one_model_is_refused():
    with pytest.raises(ValueError, match=r"of one model only \(org/kestrel-7b\); a comparison "
                       r"needs the logs of two models or more"):  # fmt: skip
        pairedstats.read_lm_eval(KESTREL)


def test_lm_eval_a_copied_run_is_refused(tmp_path):
    root = _copy(tmp_path, KESTREL, ATLAS)
    copy = root / "copy"
    copy.mkdir()
    for path in KESTREL.glob("*2026-01-05T10*"):
        shutil.copy(path, copy / path.name)
    with pytest.raises(ValueError, match=r"rows share their \(task, doc_id, model, filter, "
                       r"repeat\) with another; the first: task='mini_gsm', doc_id=0, "
                       r"model='org/kestrel-7b'.*remove copies"):  # fmt: skip
        pairedstats.read_lm_eval(root)
    # the same file given twice (by its folder and by its path) is read once
    again = pairedstats.read_lm_eval([KESTREL, ATLAS, next(KESTREL.glob("samples_*"))])
    assert len(again) == 40


def test_lm_eval_a_metric_that_is_not_a_number_is_refused(tmp_path):
    root = _copy(tmp_path, KESTREL, ATLAS)
    path = next((root / KESTREL.name).glob("samples_mini_gsm_2026-01-05*"))
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    for line in lines:  # a corpus-level metric: lm-eval logs its inputs per document
        line["metrics"].append("bleu")
        line["bleu"] = [line["target"], line["filtered_resps"][0]]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    with pytest.raises(ValueError, match=r"the metric 'bleu' of task 'mini_gsm' in .* line 1 "
                       r"is \['0', '0'\], not a number; .*metrics=\[\.\.\.\]"):  # fmt: skip
        pairedstats.read_lm_eval(root)
    assert "bleu" not in pairedstats.read_lm_eval(root, metrics=["exact_match", "acc"])


def test_lm_eval_files_not_of_lm_eval_are_refused(tmp_path):
    other = tmp_path / "scores.jsonl"
    other.write_text('{"doc_id": 0}\n')
    with pytest.raises(ValueError, match=r"not named as lm-evaluation-harness names its "
                       r"samples \(samples_<task>_<time>.jsonl"):  # fmt: skip
        pairedstats.read_lm_eval(other)
    with pytest.raises(ValueError, match=r"holds no lm-evaluation-harness samples files"):
        pairedstats.read_lm_eval(tmp_path)
    with pytest.raises(FileNotFoundError, match=r"no file or folder"):
        pairedstats.read_lm_eval(tmp_path / "absent")
    bad = tmp_path / "samples_t_2026-01-01T00-00-00.0.jsonl"
    bad.write_text('{"doc_id": 0, "acc": 1}\nnot json\n')
    with pytest.raises(ValueError, match=r"line 2 is not a JSON object"):
        pairedstats.read_lm_eval(bad)


def test_lm_eval_documents_of_one_model_only_are_left_to_missing(tmp_path):
    root = _copy(tmp_path, KESTREL, ATLAS)
    path = next((root / ATLAS.name).glob("samples_mini_mmlu_biology_*"))
    path.write_text("".join(path.read_text().splitlines(keepends=True)[:2]))  # docs 0, 1
    df = pairedstats.read_lm_eval([root / KESTREL.name, root / ATLAS.name])
    mmlu = df[df["group"] == "mini_mmlu"]
    assert len(mmlu) == 8 + 6  # kept: nothing is dropped by the reader
    with pytest.raises(ValueError, match=r"2 item\(s\) are missing for some systems"):
        mmlu.paired.mcnemar(item="item", system="model", score="acc")
    with pytest.warns(pairedstats.DroppedDataWarning, match="dropped 2 of 8"):
        res = mmlu.paired.mcnemar(item="item", system="model", score="acc", missing="complete")
    assert res["n_items"].tolist() == [6]


# --------------------------------------------------------------------- lm-eval: end to end
def test_lm_eval_mcnemar_end_to_end(lm):
    mmlu = lm[lm["group"] == "mini_mmlu"]
    res = mmlu.paired.mcnemar(item="item", system="model", score="acc")
    # kestrel 1101 1011, atlas 0100 1010: kestrel alone right on 3 documents, atlas on none
    row = res.iloc[0]
    assert (row["system_a"], row["system_b"]) == ("org/kestrel-7b", "org/atlas-8b")
    assert (row["n_items"], row["only_a"], row["only_b"]) == (8, 3, 0)
    assert row["rate_a"] == 0.75
    assert row["rate_b"] == 0.375
    assert row["pvalue"] == pytest.approx(0.25)  # exact: 2 * P(Binom(3, 1/2) = 0)


def test_lm_eval_bootstrap_with_cluster_and_replicate(lm):
    mmlu = lm[lm["group"] == "mini_mmlu"]
    res = mmlu.paired.bootstrap(item="item", system="model", score="acc", cluster="task",
                                rng=3, n_resamples=2000)  # fmt: skip
    assert res["n_clusters"].tolist() == [2]
    assert res["difference"].tolist() == [pytest.approx(-0.375)]
    gsm = lm[lm["task"] == "mini_gsm"]
    res = gsm.paired.bootstrap(item="doc_id", system="model", score="exact_match",
                               by="filter", replicate="repeat", rng=3,
                               n_resamples=2000)  # fmt: skip
    got = res.set_index("filter")
    # strict-match: kestrel (1,0,0),(1,1,0) mean 1/2; atlas (0,0,0),(0,1,0) mean 1/6
    assert got.loc["strict-match", "mean_a"] == pytest.approx(0.5)
    assert got.loc["strict-match", "mean_b"] == pytest.approx(1 / 6)
    # flexible-extract: kestrel (1,1,0),(1,1,1) 5/6; atlas (1,0,0),(0,1,1) 1/2
    assert got.loc["flexible-extract", "difference"] == pytest.approx(0.5 - 5 / 6)


def test_lm_eval_items_for(lm):
    mmlu = lm[lm["group"] == "mini_mmlu"]
    given = dict(item="item", system="model", score="acc", mcnemar_method="asymptotic")
    with pytest.warns(PlanningWarning, match="No difference is detectable at the table's size"):
        plan = mmlu.paired.items_for(-0.2, **given)
    assert plan["n_items"].tolist() == [8]
    assert plan["discordant_rate"].tolist() == [pytest.approx(3 / 8)]
    # Connor (1987): n = (z_a sqrt(psi) + z_b sqrt(psi - d^2))^2 / d^2, psi 3/8, d 0.2
    z_a, z_b = 1.959963984540054, 0.8416212335729143
    connor = (z_a * (3 / 8) ** 0.5 + z_b * (3 / 8 - 0.04) ** 0.5) ** 2 / 0.04
    assert plan["n_items_needed"].tolist() == [np.ceil(connor)] == [72]


# ----------------------------------------------------------------------------- inspect-ai
#: the scores of the fixtures (make_logs.py): per model, per epoch, q1..q5
MATCH = {"mockllm/kestrel": [[1, 1, 0, 1, 1], [1, 0, 1, 1, 1]],
         "mockllm/atlas": [[1, 0, 0, 0, 1], [0, 0, 1, 0, 1]]}  # fmt: skip
CLOSENESS_ATLAS = [[1, 0.2, 0.25, 1 / 6, 1], [0.5, 0.2, 1, 1 / 6, 1]]


def test_inspect_json_and_packaged_eval_values_by_label():
    packaged = sorted(pairedstats.datasets.inspect_example_folder().glob("*.eval"))
    df = pairedstats.read_inspect([INSPECT_JSON, packaged[0]], metadata=["subject"])
    assert list(df.columns) == ["task", "sample_id", "item", "model", "epoch", "subject",
                                "match", "closeness"]  # fmt: skip
    assert df["model"].unique().tolist() == ["mockllm/atlas", "mockllm/kestrel"]
    got = df.set_index(["model", "epoch", "sample_id"]).sort_index()
    for model, epochs in MATCH.items():
        for epoch, values in enumerate(epochs, start=1):
            assert got.loc[(model, epoch), "match"].tolist() == values
    for epoch, values in enumerate(CLOSENESS_ATLAS, start=1):
        np.testing.assert_allclose(got.loc[("mockllm/atlas", epoch), "closeness"], values)
    assert got.loc[("mockllm/atlas", 1), "subject"].tolist() == ["add", "add", "mul", "mul",
                                                                 "add"]  # fmt: skip
    assert df["item"].iloc[0] == "arith/q1"
    assert df["task"].eq("arith").all()


def test_inspect_eval_as_written_by_inspect_ai():
    if _zstd_readable():
        df = pairedstats.read_inspect([INSPECT_EVAL, INSPECT_JSON])
        got = df.set_index(["model", "epoch"]).sort_index()
        assert got.loc[("mockllm/kestrel", 2), "match"].tolist() == MATCH["mockllm/kestrel"][1]
    else:
        with pytest.raises(ValueError, match=r"compressed with Zstandard.*pip install "
                           r"zstandard.*inspect log convert"):  # fmt: skip
            pairedstats.read_inspect([INSPECT_EVAL, INSPECT_JSON])


def test_inspect_grades_and_dict_values(tmp_path):
    log = json.loads(INSPECT_JSON.read_text())
    other = json.loads(INSPECT_JSON.read_text())
    other["eval"]["model"] = "mockllm/birch"
    values = ["P", "N", "yes", "0.25", True, {"a": "C", "b": 2}, None, 1, 0, "I"]
    for sample, value in zip(other["samples"], values):
        sample["scores"]["match"]["value"] = value
    (tmp_path / "a.json").write_text(json.dumps(log))
    (tmp_path / "b.json").write_text(json.dumps(other))
    df = pairedstats.read_inspect(tmp_path, scorers=["match"])
    birch = df[df["model"] == "mockllm/birch"]
    np.testing.assert_array_equal(birch["match"], [0.5, 0, 1, 0.25, 1, np.nan, np.nan, 1, 0, 0])
    assert birch["match.a"].tolist()[5] == 1.0
    assert birch["match.b"].tolist()[5] == 2.0
    for sample in other["samples"]:
        sample["scores"]["match"]["value"] = "B"
    (tmp_path / "b.json").write_text(json.dumps(other))
    with pytest.raises(ValueError, match=r"the score 'match' of sample 'q1' \(epoch 1\) of .* "
                       r"is 'B', not a number or grade; .*scorers=\[\.\.\.\]"):  # fmt: skip
        pairedstats.read_inspect(tmp_path)


def test_inspect_refusals(tmp_path):
    with pytest.raises(ValueError, match=r"of one model only \(mockllm/atlas\)"):
        pairedstats.read_inspect(INSPECT_JSON)
    log = json.loads(INSPECT_JSON.read_text())
    log["samples"] = None
    (tmp_path / "empty.json").write_text(json.dumps(log))
    with pytest.raises(ValueError, match=r"no samples\b.*--no-log-samples"):
        pairedstats.read_inspect([tmp_path / "empty.json"])
    (tmp_path / "x.json").write_text('{"rows": []}')
    with pytest.raises(ValueError, match=r"has no 'eval' header: is it an inspect-ai"):
        pairedstats.read_inspect(tmp_path / "x.json")
    (tmp_path / "y.eval").write_text("plain text")
    with pytest.raises(ValueError, match=r"is not a \.eval log \(not a zip file\)"):
        pairedstats.read_inspect(tmp_path / "y.eval")
    with pytest.raises(ValueError, match=r"scorers: no sample holds a score of 'accuracy'; "
                       r"the logs' scores: 'match', 'closeness'"):  # fmt: skip
        pairedstats.read_inspect([INSPECT_JSON, _packaged()[0]], scorers=["accuracy"])
    with pytest.raises(ValueError, match=r"metadata: no sample's metadata has the field "
                       r"'topic'; the samples' metadata fields: subject"):  # fmt: skip
        pairedstats.read_inspect([INSPECT_JSON, _packaged()[0]], metadata=["topic"])


def _packaged():
    return sorted(pairedstats.datasets.inspect_example_folder().glob("*.eval"))


def test_inspect_the_same_run_twice_is_refused(tmp_path):
    shutil.copy(INSPECT_JSON, tmp_path / "copy.json")
    with pytest.raises(ValueError, match=r"rows share their \(task, sample_id, model, epoch\) "
                       r"with another; the first: task='arith', sample_id='q1', "
                       r"model='mockllm/atlas', epoch=1"):  # fmt: skip
        pairedstats.read_inspect([INSPECT_JSON, tmp_path / "copy.json", _packaged()[0]])


def test_inspect_end_to_end():
    df = pairedstats.read_inspect(pairedstats.datasets.inspect_example_folder(),
                                  metadata="subject")  # fmt: skip
    res = df.paired.bootstrap(item="sample_id", system="model", score="match",
                              replicate="epoch", rng=5, n_resamples=1000)  # fmt: skip
    # kestrel (its log written first) 8 of 10 right, atlas 4 of 10: b - a = -0.4
    assert res[["system_a", "system_b"]].values.tolist() == [["mockllm/kestrel",
                                                              "mockllm/atlas"]]  # fmt: skip
    assert res["difference"].tolist() == [pytest.approx(-0.4)]
    first = df[df["epoch"] == 1]
    res = first.paired.mcnemar(item="sample_id", system="model", score="match",
                               cluster="subject", method="asymptotic")  # fmt: skip
    assert res["n_items"].tolist() == [5]
    assert isinstance(pd.DataFrame(res), pd.DataFrame)


def test_read_from_the_package_namespace():
    assert pairedstats.read_lm_eval is pairedstats.harnesses.read_lm_eval
    assert {"read_lm_eval", "read_inspect"} <= set(pairedstats.__all__)
    assert zipfile.is_zipfile(_packaged()[0])
