"""Write lm-evaluation-harness logs without a model: the test fixtures and the bundled example.

    python examples/make_lm_eval_logs.py

The files are laid out and filled as lm-evaluation-harness 0.4 writes them with
``--log_samples`` (read from its source, EleutherAI/lm-evaluation-harness at commit
4e7e0d47f33bc71070c1d38394bafbb52b117163, version 0.4.13.dev0: the sample dict built in
``lm_eval/evaluator.py``, ``EvaluationTracker.save_results_samples`` and
``save_results_aggregated`` in ``lm_eval/loggers/evaluation_tracker.py``): in
``<output>/<model, sanitized>/``, one ``results_<time>.json`` per run and one
``samples_<task>_<time>.jsonl`` per task of the run, each line a document and filter with
``doc_id``, ``doc``, ``target``, ``arguments`` (``gen_args_<i>``/``arg_<j>``), ``resps``,
``filtered_resps`` (as text), ``filter``, ``metrics`` (the names), the three hashes, then
each metric's value.

* ``tests/reference/harnesses/lm_eval/``: two models, hand-set scores (see ``FIXTURE``).
* ``src/pairedstats/data/lm_eval/``: :func:`pairedstats.datasets.lm_eval_example_folder`,
  two models simulated from ``numpy.random.default_rng(2045)``.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
MMLU = "mini_mmlu"
SUBJECTS = ("algebra", "biology", "history", "law")


def _sanitized(model: str) -> str:
    """The folder of a model, as lm-eval's ``sanitize_model_name`` names it."""
    return re.sub(r"[\"<>:/|\\?*\[\]]+", "__", model)


def _hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _choice_line(task, doc_id, doc, answer, correct, filt="none"):
    """A multiple-choice document (loglikelihood of each choice): acc and acc_norm."""
    prompt = f"Question: {doc['question']}\nAnswer:"
    arguments = {f"gen_args_{i}": {"arg_0": prompt, "arg_1": f" {c}"}
                 for i, c in enumerate(doc["choices"])}  # fmt: skip
    picked = answer if correct[0] else (answer + 1) % len(doc["choices"])
    lls = [[[str(-1.0 - (i != picked) - 0.25 * i), "False"]] for i in range(len(doc["choices"]))]
    return {
        "doc_id": doc_id, "doc": doc, "target": str(answer), "arguments": arguments,
        "resps": lls, "filtered_resps": [r[0] for r in lls], "filter": filt,
        "metrics": ["acc", "acc_norm"], "doc_hash": _hash(json.dumps(doc, indent=2)),
        "prompt_hash": _hash(prompt), "target_hash": _hash(str(answer)),
        "acc": float(correct[0]), "acc_norm": float(correct[1]),
    }  # fmt: skip


def _gsm_lines(doc_id, doc, right: dict):
    """A generated answer, scored under two filters: exact_match per filter."""
    prompt = f"Question: {doc['question']}\nAnswer:"
    answer = doc["answer"]
    strict, flexible = right["strict-match"], right["flexible-extract"]
    text = (f"The answer is {answer}." if strict else "So") + (
        "" if strict and flexible else f" {answer if flexible else answer + 1}."
    )
    lines = []
    for filt in ("strict-match", "flexible-extract"):
        found = re.findall(r"The answer is (\d+)" if filt == "strict-match" else r"(\d+)", text)
        extracted = found[-1] if found else "[invalid]"
        lines.append({
            "doc_id": doc_id, "doc": doc, "target": str(answer),
            "arguments": {"gen_args_0": {"arg_0": prompt, "arg_1": {"until": ["Question:"]}}},
            "resps": [[text]], "filtered_resps": [extracted], "filter": filt,
            "metrics": ["exact_match"], "doc_hash": _hash(json.dumps(doc, indent=2)),
            "prompt_hash": _hash(prompt), "target_hash": _hash(str(answer)),
            "exact_match": float(extracted == str(answer)),
        })  # fmt: skip
    return lines


def _results(model: str, time: str, tasks: list[str], groups: dict, old: bool) -> dict:
    """A results file; ``old``: as lm-eval before ``model_name`` was written (0.4.2), the
    model only in ``config.model_args``."""
    results = {
        "results": {t: {"alias": t} for t in tasks},
        "group_subtasks": {**groups, **{t: [] for t in tasks
                                        if not any(t in g for g in groups.values())}},
        "configs": {t: {"task": t, "output_type": "multiple_choice"} for t in tasks},
        "versions": dict.fromkeys(tasks, 1.0), "n-shot": dict.fromkeys(tasks, 0),
        "config": {"model": "hf", "model_args": f"pretrained={model},dtype=bfloat16",
                   "batch_size": "auto", "device": "cuda:0", "limit": None},
        "git_hash": "4e7e0d4", "date": 1767606000.0,
    }  # fmt: skip
    if not old:
        results.update({"model_source": "hf", "model_name": model,
                        "model_name_sanitized": _sanitized(model)})  # fmt: skip
    return results


def _write_run(out: Path, model: str, time: str, tasks: dict, groups: dict, old=False) -> None:
    folder = out / _sanitized(model)
    folder.mkdir(parents=True, exist_ok=True)
    results = _results(model, time, list(tasks), groups, old)
    (folder / f"results_{time}.json").write_text(json.dumps(results, indent=2), "utf-8")
    for task, lines in tasks.items():
        text = "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines)
        (folder / f"samples_{task}_{time}.jsonl").write_text(text, "utf-8")


#: The test fixtures: per model, the (acc, acc_norm) of documents 0..3 of each subject, and
#: per run, the (strict-match, flexible-extract) exact matches of 3 arithmetic documents.
FIXTURE = {
    "org/kestrel-7b": {
        "algebra": [(1, 1), (1, 0), (0, 0), (1, 1)], "biology": [(1, 1), (0, 1), (1, 1), (1, 1)],
        "gsm": [[(1, 1), (0, 1), (0, 0)], [(1, 1), (1, 1), (0, 1)]],
    },
    "org/atlas-8b": {
        "algebra": [(0, 0), (1, 1), (0, 1), (0, 0)], "biology": [(1, 0), (0, 0), (1, 1), (0, 0)],
        "gsm": [[(0, 1), (0, 0), (0, 0)], [(0, 0), (1, 1), (0, 1)]],
    },
}  # fmt: skip


def _choice_doc(subject, i):
    return {"question": f"{subject} question {i}", "choices": ["A", "B", "C", "D"],
            "answer": i % 4, "subject": subject}  # fmt: skip


def write_fixtures(out: Path) -> None:
    groups = {MMLU: [f"{MMLU}_{s}" for s in SUBJECTS[:2]]}
    times = ("2026-01-05T10-00-00.000001", "2026-01-06T09-30-00.000002")
    for m, (model, table) in enumerate(FIXTURE.items()):
        for run, time in enumerate(times):
            time = time.replace("10-00", f"1{m}-00")
            tasks = {} if run else {f"{MMLU}_{s}": [
                _choice_line(f"{MMLU}_{s}", i, _choice_doc(s, i), i % 4, c)
                for i, c in enumerate(table[s])] for s in SUBJECTS[:2]}  # fmt: skip
            tasks["mini_gsm"] = [line for i, (strict, flex) in enumerate(table["gsm"][run])
                                 for line in _gsm_lines(i, {"question": f"{i}+{i}=?",
                                                            "answer": 2 * i},
                                                        {"strict-match": strict,
                                                         "flexible-extract": flex})]  # fmt: skip
            _write_run(out, model, time, tasks, groups if not run else {}, old=m == 1)


def write_example(out: Path, seed: int = 2045) -> None:
    """Two models on 4 subjects x 20 questions (acc, acc_norm) and, in 2 runs each, 30
    arithmetic questions under two filters; ``kestrel`` is the stronger by a little."""
    gen = np.random.default_rng(seed)
    difficulty = gen.random((len(SUBJECTS), 20)) + 0.4 * gen.random((len(SUBJECTS), 1))
    hard = gen.random(30)
    groups = {MMLU: [f"{MMLU}_{s}" for s in SUBJECTS]}
    times = ("2026-02-02T08-15-00.123456", "2026-02-03T08-15-00.654321")
    for model, skill in (("org/kestrel-7b", 0.78), ("org/atlas-8b", 0.62)):
        for run, time in enumerate(times):
            tasks = {}
            if run == 0:
                for s, subject in enumerate(SUBJECTS):
                    u = gen.random((20, 2))
                    tasks[f"{MMLU}_{subject}"] = [
                        _choice_line(f"{MMLU}_{subject}", i, _choice_doc(subject, i), i % 4,
                                     (int(u[i, 0] < skill + 0.5 - difficulty[s, i]),
                                      int(u[i, 1] < skill + 0.45 - difficulty[s, i])))
                        for i in range(20)]  # fmt: skip
            u = gen.random((30, 2))
            tasks["mini_gsm"] = [line for i in range(30) for line in _gsm_lines(
                i, {"question": f"{i}+{i}=?", "answer": 2 * i},
                {"strict-match": int(u[i, 0] < skill - 0.2 - 0.3 * hard[i]),
                 "flexible-extract": int(u[i, 1] < skill + 0.1 - 0.3 * hard[i])})]  # fmt: skip
            _write_run(out, model, time, tasks, groups if run == 0 else {})


if __name__ == "__main__":
    write_fixtures(ROOT / "tests" / "reference" / "harnesses" / "lm_eval")
    write_example(ROOT / "src" / "pairedstats" / "data" / "lm_eval")
