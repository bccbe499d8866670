"""The per-item scores of language-model evaluation harnesses, read as tidy tables.

Two harnesses already write a score per item, and their logs are read here as they are
written, one row per (document, model, filter or epoch), so that every paired method runs on
them with ``item=``, ``system="model"`` and a metric as ``score=``:

* :func:`read_lm_eval`: EleutherAI's lm-evaluation-harness run with ``--log_samples``
  (``samples_<task>_<time>.jsonl`` beside ``results_<time>.json``);
* :func:`read_inspect`: inspect-ai's eval logs (``.json`` and ``.eval``).

Nothing is dropped or averaged: a document that one model has and another has not stays in
the table, and the method's ``missing=`` says how many there are (or drops them, counted);
a document scored twice by one model under the same filter and repeat is refused.
"""

from __future__ import annotations

import json
import math
import zipfile
from pathlib import Path

from .inputs.labels import quoted

__all__ = ["read_inspect", "read_lm_eval"]

#: The fields of an lm-evaluation-harness sample line that are not metrics (the metrics
#: are also listed by name in ``metrics``, from lm-eval 0.4.3 on).
_LM_EVAL_FIELDS = frozenset({
    "doc_id", "doc", "target", "arguments", "resps", "filtered_resps", "filter", "metrics",
    "doc_hash", "prompt_hash", "target_hash",
})  # fmt: skip

#: The keys of lm-eval's ``model_args`` that name the model, in the order lm-eval reads them.
_MODEL_KEYS = ("peft", "delta", "pretrained", "model", "path", "engine")

#: inspect-ai's letter grades (``CORRECT``, ``PARTIAL``, ``INCORRECT``, ``NOANSWER``) and its
#: words for yes and no, as its ``value_to_float`` reads them.
_INSPECT_GRADES = {"C": 1.0, "P": 0.5, "I": 0.0, "N": 0.0,
                   "yes": 1.0, "true": 1.0, "no": 0.0, "false": 0.0}  # fmt: skip


def _files(paths, patterns: tuple[str, ...], what: str) -> list[Path]:
    """The files of ``paths`` (a path or a list of them): a file as given, a folder searched
    (with its subfolders) for files matching ``patterns``; each file once."""
    if isinstance(paths, (str, Path)):
        paths = [paths]
    found: dict[Path, Path] = {}
    for path in map(Path, paths):
        if not path.exists():
            raise FileNotFoundError(f"no file or folder {str(path)!r}")
        if path.is_dir():
            inside = sorted(f for pattern in patterns for f in path.rglob(pattern))
            if not inside:
                raise ValueError(
                    f"the folder {str(path)!r} holds no {what} ({' or '.join(patterns)}); "
                    "give the folder the harness wrote its logs to, or the files"
                )
        else:
            inside = [path]
        for file in inside:
            found.setdefault(file.resolve(), file)
    if not found:
        raise ValueError(f"no {what} given: pass a file, a folder or a list of them")
    return list(found.values())


def _number(value, where: str, fix: str) -> float:
    """``value`` as a float: a number or a boolean; None is a missing score (NaN)."""
    if value is None:
        return math.nan
    if isinstance(value, (bool, int, float)):
        return float(value)
    raise ValueError(f"{where} is {value!r}, not a number; {fix}")


def _read_json(path: Path, where: str):
    try:
        return json.loads(path.read_text(encoding="utf-8-sig"))
    except UnicodeDecodeError:
        raise ValueError(f"{where} is not UTF-8 text") from None
    except json.JSONDecodeError as err:
        raise ValueError(f"{where} is not JSON ({err})") from None


def _refuse_one_system(frame, column: str, files: list[Path], fix: str) -> None:
    found = frame[column].unique().tolist()
    if len(found) < 2:
        raise ValueError(
            f"the {len(files)} log file(s) are of one model only ({quoted(found, show=str)}); a "
            f"comparison needs the logs of two models or more: {fix}"
        )


def _refuse_duplicates(frame, key: list[str], sources: list[str]) -> None:
    """Rows that share ``key`` (the same document scored twice) are refused, naming them."""
    twice = frame.duplicated(key, keep=False).to_numpy()
    if not twice.any():
        return
    rows = frame.loc[twice, key]
    first = list(rows.iloc[:1].to_dict("records")[0].values())
    same = rows.eq(rows.iloc[0]).all(axis=1).to_numpy()
    where = sorted({sources[i] for i in rows.index[same]})
    pairs = ", ".join(f"{k}={v!r}" for k, v in zip(key, first))
    raise ValueError(
        f"{int(twice.sum())} rows share their ({', '.join(key)}) with another; the first: "
        f"{pairs}, in {quoted(where, show=str)}. Each document is scored once per model, "
        "filter and repeat: give each log once, and remove copies of a run"
    )


def _refuse_absent_fields(frame, fields, option, where, what, known) -> None:
    """A field asked for that no row has (a row without it is left missing)."""
    absent = [f for f in fields if frame[f].isna().all()]
    if absent:
        raise ValueError(
            f"{option}: no {where} has the field {quoted(absent)}; {what}: "
            f"{quoted(known, 12, show=str)}"
        )


# --------------------------------------------------------------- lm-evaluation-harness
def _lm_eval_name(path: Path) -> tuple[str, str]:
    """The task and the time of a samples file, ``samples_<task>_<time>.jsonl``."""
    name = path.name
    if not (name.startswith("samples_") and name.endswith(".jsonl") and "_" in name[8:]):
        raise ValueError(
            f"{str(path)!r} is not named as lm-evaluation-harness names its samples "
            "(samples_<task>_<time>.jsonl, written with --log_samples); give those files or "
            "the folder that holds them"
        )
    task, _, time = name[len("samples_") : -len(".jsonl")].rpartition("_")
    return task, time


def _lm_eval_model(results: dict | None, folder: Path) -> str:
    """The model of a run: the results file's ``model_name``, else the model named in its
    ``config.model_args``, else the folder (lm-eval names it after the model)."""
    if results is None:
        return folder.name
    if results.get("model_name"):
        return str(results["model_name"])
    args = (results.get("config") or {}).get("model_args")
    if isinstance(args, dict):
        for key in _MODEL_KEYS:
            if key in args:
                return str(args[key])
    elif isinstance(args, str):
        pairs = dict(part.split("=", 1) for part in args.split(",") if "=" in part)
        for key in _MODEL_KEYS:
            if key in pairs:
                return pairs[key]
    return folder.name


def _lm_eval_group(results: dict | None, task: str) -> str:
    """The nearest group of ``task`` in the results' ``group_subtasks``; else the task."""
    groups = (results or {}).get("group_subtasks") or {}
    for group, subtasks in groups.items():
        if task in (subtasks or []):
            return str(group)
    return task


def _lm_eval_lines(path: Path, task: str, metrics, doc_fields) -> list[dict]:
    """The rows of one samples file: doc_id, filter, the doc's fields, the metrics."""
    rows = []
    try:
        lines = path.read_text(encoding="utf-8-sig").splitlines()
    except UnicodeDecodeError:
        raise ValueError(f"{str(path)!r} is not UTF-8 text") from None
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        where = f"{str(path)!r} line {number}"
        try:
            sample = json.loads(line)
        except json.JSONDecodeError as err:
            raise ValueError(f"{where} is not a JSON object ({err})") from None
        if not isinstance(sample, dict) or "doc_id" not in sample:
            raise ValueError(f"{where} has no doc_id: is it a samples file of lm-eval?")
        listed = sample.get("metrics")
        names = listed if isinstance(listed, list) else [
            k for k in sample if k not in _LM_EVAL_FIELDS]  # fmt: skip
        row = {"doc_id": sample["doc_id"], "filter": sample.get("filter", "none")}
        doc = sample.get("doc") if isinstance(sample.get("doc"), dict) else {}
        for field in doc_fields:  # a task whose docs lack it: missing (NaN)
            row[field] = doc.get(field)
        for name in names if metrics is None else [m for m in metrics if m in sample]:
            fix = ("lm-eval logs such a metric's inputs per document and scores it on the "
                   "whole set only; name the numeric metrics to read with "
                   "metrics=[...]")  # fmt: skip
            row[name] = _number(sample.get(name), f"the metric {name!r} of task {task!r} "
                                f"in {where}", fix)  # fmt: skip
        rows.append(row)
    if not rows:
        raise ValueError(f"{str(path)!r} is empty: it holds no sample line")
    return rows


def _lm_eval_results(folder: Path, time: str, cache: dict) -> dict | None:
    path = folder / f"results_{time}.json"
    if path not in cache:
        cache[path] = _read_json(path, repr(str(path))) if path.is_file() else None
    return cache[path]


def read_lm_eval(paths, *, metrics=None, doc_fields=()):
    """Read lm-evaluation-harness per-document scores as a tidy table.

    ``lm_eval --log_samples --output_path OUT`` writes, in ``OUT/<model>/``, one
    ``samples_<task>_<time>.jsonl`` per task (one JSON line per document and filter, with
    its ``doc_id``, ``doc``, ``filter`` and a value of each metric) and one
    ``results_<time>.json`` per run, which names the model (``model_name``, or the model of
    ``config.model_args``) and the task's group (``group_subtasks``). Format of
    lm-evaluation-harness 0.4 (``lm_eval/evaluator.py``, ``EvaluationTracker
    .save_results_samples``).

    Parameters
    ----------
    paths : path or list of paths
        Samples files, or folders searched (with their subfolders) for them.
    metrics : list of str, optional
        The metrics to read; default: every metric the files list. A metric whose value
        is not a number (lm-eval logs the inputs of corpus-level metrics such as BLEU per
        document) is refused: name the numeric ones.
    doc_fields : list of str, optional
        Fields of each ``doc`` to keep as columns, e.g. a subject to give as ``cluster=``.

    Returns
    -------
    pandas.DataFrame
        One row per (task, document, model, filter, repeat): ``task``, ``group`` (the
        task's group in the results file, else the task), ``doc_id``, ``item``
        (``"<task>/<doc_id>"``, an item label across tasks), ``model``, ``filter``,
        ``repeat`` (several runs of a model on a task: 0, 1, ... in the order of their
        times), the ``doc_fields``, then one float column per metric (NaN where a task
        has no such metric). Models in the order they are found.

    Raises
    ------
    ValueError
        A file not named or written as lm-eval writes them; logs of one model only; a
        document scored twice for a model, filter and repeat; a metric that is not a
        number. Documents that one model has and another has not are kept: the methods'
        ``missing=`` counts them (or drops them, counted).

    Examples
    --------
    >>> import pairedstats
    >>> folder = pairedstats.datasets.lm_eval_example_folder()
    >>> df = pairedstats.read_lm_eval(folder)
    >>> df.groupby("model", sort=False).size().to_dict()
    {'org/atlas-8b': 200, 'org/kestrel-7b': 200}
    >>> mmlu = df[df["group"] == "mini_mmlu"]
    >>> res = mmlu.paired.mcnemar(item="item", system="model", score="acc")
    >>> res[["n_items", "only_a", "only_b"]].to_dict("records")
    [{'n_items': 80, 'only_a': 10, 'only_b': 21}]
    """
    import numpy as np
    import pandas as pd

    files = _files(paths, ("samples_*.jsonl",), "lm-evaluation-harness samples files")
    doc_fields = [doc_fields] if isinstance(doc_fields, str) else list(doc_fields)
    if metrics is not None:
        metrics = [metrics] if isinstance(metrics, str) else list(metrics)
    cache: dict = {}
    parts, sources = [], []
    for path in files:
        task, time = _lm_eval_name(path)
        results = _lm_eval_results(path.parent, time, cache)
        rows = _lm_eval_lines(path, task, metrics, doc_fields)
        part = pd.DataFrame(rows)
        part.insert(0, "task", task)
        part.insert(1, "group", _lm_eval_group(results, task))
        part.insert(3, "model", _lm_eval_model(results, path.parent))
        part["_time"] = time
        parts.append(part)
        sources += [str(path)] * len(part)
    frame = pd.concat(parts, ignore_index=True)
    frame.insert(3, "item", frame["task"].astype(str) + "/" + frame["doc_id"].astype(str))
    times: dict = {}
    for key in zip(frame["model"], frame["task"], frame["_time"]):
        times.setdefault(key[:2], set()).add(key[2])
    order = {key: {t: i for i, t in enumerate(sorted(ts))} for key, ts in times.items()}
    repeat = [order[(m, t)][time] for m, t, time in zip(frame["model"], frame["task"],
                                                        frame["_time"])]  # fmt: skip
    frame.insert(6, "repeat", np.asarray(repeat, dtype=np.int64))
    frame = frame.drop(columns="_time")
    fixed = ["task", "group", "doc_id", "item", "model", "filter", "repeat", *doc_fields]
    _refuse_absent_fields(frame, doc_fields, "doc_fields", "doc", "the docs' fields",
                          _doc_fields(files[0]))  # fmt: skip
    found = [c for c in frame.columns if c not in fixed]
    if metrics is not None:
        absent = [m for m in metrics if m not in found]
        if absent:
            raise ValueError(
                f"metrics: no sample holds {quoted(absent)}; the files' metrics: "
                f"{quoted(_all_metrics(files), 12)}"
            )
        found = metrics
    _refuse_one_system(frame, "model", files, "add the folder or files of another model")
    _refuse_duplicates(frame, ["task", "doc_id", "model", "filter", "repeat"], sources)
    return frame[fixed + found]


def _doc_fields(path: Path) -> list[str]:
    """The fields of the doc of the first line of a samples file."""
    with path.open(encoding="utf-8-sig") as fh:
        doc = json.loads(fh.readline() or "{}").get("doc")
    return sorted(doc) if isinstance(doc, dict) else []


def _all_metrics(files: list[Path]) -> list[str]:
    """The metrics listed in the first line of each samples file."""
    names: dict[str, None] = {}
    for path in files:
        with path.open(encoding="utf-8-sig") as fh:
            sample = json.loads(fh.readline() or "{}")
        listed = sample.get("metrics")
        names.update(dict.fromkeys(listed if isinstance(listed, list) else
                                   [k for k in sample if k not in _LM_EVAL_FIELDS]))  # fmt: skip
    return list(names)


# --------------------------------------------------------------------------- inspect-ai
def _zstd_member(path: Path, info: zipfile.ZipInfo) -> bytes:
    """A member of a zip file compressed with Zstandard (method 93), as inspect-ai writes
    ``.eval`` logs: read by Python's zipfile from 3.14 on, before by ``zstandard``."""
    try:
        import zstandard
    except ImportError:
        raise ValueError(
            f"{str(path)!r} is compressed with Zstandard, as recent inspect-ai versions write "
            ".eval logs, which Python reads from 3.14 on; install zstandard (python -m pip "
            "install zstandard), or convert the log to JSON: inspect log convert "
            f"{path} --to json --output-dir DIR"
        ) from None
    with path.open("rb") as fh:
        fh.seek(info.header_offset)
        local = fh.read(30)  # the local file header: its name and extra field follow
        fh.seek(info.header_offset + 30 + int.from_bytes(local[26:28], "little")
                + int.from_bytes(local[28:30], "little"))  # fmt: skip
        raw = fh.read(info.compress_size)
    reader = zstandard.ZstdDecompressor().stream_reader(raw, read_across_frames=True)
    return reader.read()


def _member(archive: zipfile.ZipFile, path: Path, name: str):
    """The JSON of the member ``name`` of an ``.eval`` log."""
    info = archive.getinfo(name)
    try:
        data = archive.read(info)
    except NotImplementedError:  # a compression method this Python's zipfile lacks
        if info.compress_type != 93:
            raise
        data = _zstd_member(path, info)
    return json.loads(data)


def _inspect_log(path: Path) -> tuple[dict, list]:
    """The header (``eval``, ``status``) and the samples of an inspect-ai log: a ``.json``
    EvalLog, or a ``.eval`` zip (``header.json`` or ``_journal/start.json``, and one
    ``samples/<id>_epoch_<epoch>.json`` per sample)."""
    where = repr(str(path))
    if path.suffix == ".eval":
        try:
            with zipfile.ZipFile(path) as archive:
                names = archive.namelist()
                head = next((n for n in ("header.json", "_journal/start.json") if n in names),
                            None)  # fmt: skip
                if head is None:
                    raise ValueError(f"{where} holds no header.json: is it an inspect-ai log?")
                header = _member(archive, path, head)
                samples = [_member(archive, path, n) for n in names
                           if n.startswith("samples/") and n.endswith(".json")]  # fmt: skip
        except zipfile.BadZipFile:
            raise ValueError(f"{where} is not a .eval log (not a zip file)") from None
    else:
        header = _read_json(path, where)
        samples = header.get("samples") if isinstance(header, dict) else None
    if not isinstance(header, dict) or not isinstance(header.get("eval"), dict):
        raise ValueError(f"{where} has no 'eval' header: is it an inspect-ai eval log?")
    if not samples:
        raise ValueError(
            f"{where} holds no samples (status {header.get('status')!r}): write the logs "
            "with their samples (inspect eval without --no-log-samples)"
        )
    return header, samples


def _inspect_value(value, where: str) -> dict[str, float]:
    """A score's value as floats, as inspect-ai's ``value_to_float`` reads it (``C`` 1,
    ``P`` 0.5, ``I`` and ``N`` 0, yes/true 1, no/false 0, numbers and numeric text); a
    dict of values is one column per key (``<scorer>.<key>``)."""
    fix = "give the scorers whose values are numbers or grades with scorers=[...]"
    if isinstance(value, dict):
        return {f".{key}{k}": v for key, item in value.items()
                for k, v in _inspect_value(item, f"{where}[{key!r}]").items()}  # fmt: skip
    if isinstance(value, str):
        text = value.strip()
        graded = _INSPECT_GRADES.get(text, _INSPECT_GRADES.get(text.lower()))
        if graded is not None:
            return {"": graded}
        try:
            return {"": float(text)}
        except ValueError:
            raise ValueError(f"{where} is {value!r}, not a number or grade; {fix}") from None
    return {"": _number(value, where, fix)}


def _inspect_rows(path: Path, scorers, metadata) -> list[dict]:
    header, samples = _inspect_log(path)
    spec = header["eval"]
    rows = []
    for sample in samples:
        where = f"sample {sample.get('id')!r} (epoch {sample.get('epoch')}) of {str(path)!r}"
        row = {"task": spec.get("task"), "sample_id": sample.get("id"),
               "model": spec.get("model"), "epoch": sample.get("epoch", 1)}  # fmt: skip
        fields = sample.get("metadata") or {}
        for field in metadata:  # a sample without it: missing (NaN)
            row[field] = fields.get(field)
        scores = sample.get("scores") or {}
        for name in scores if scorers is None else [s for s in scorers if s in scores]:
            value = (scores[name] or {}).get("value")
            for suffix, number in _inspect_value(value, f"the score {name!r} of {where}").items():
                row[name + suffix] = number
        rows.append(row)
    return rows


def read_inspect(paths, *, scorers=None, metadata=()):
    """Read inspect-ai eval logs' per-sample scores as a tidy table.

    An inspect-ai log (``inspect eval``'s ``.eval`` file, or ``.json`` with
    ``--log-format json``) holds one task run on one model: its ``eval`` header names the
    task and the model, and each sample (one per sample and epoch) its ``scores``, one
    ``Score`` per scorer. Format of inspect-ai 0.3 (``inspect_ai/log/_log.py``:
    ``EvalLog``, ``EvalSample``, ``Score``; ``inspect_ai/log/_recorders/eval.py``).

    Parameters
    ----------
    paths : path or list of paths
        Log files, or folders searched (with their subfolders) for ``*.eval`` and
        ``*.json``.
    scorers : list of str, optional
        The scorers to read; default: every scorer of the samples.
    metadata : list of str, optional
        Fields of each sample's ``metadata`` to keep as columns, e.g. a subject to give as
        ``cluster=``.

    Returns
    -------
    pandas.DataFrame
        One row per (task, sample, model, epoch): ``task``, ``sample_id``, ``item``
        (``"<task>/<sample_id>"``), ``model``, ``epoch``, the ``metadata`` fields, then one
        float column per scorer, read as inspect-ai's ``value_to_float`` reads a value
        (``"C"`` 1, ``"P"`` 0.5, ``"I"`` and ``"N"`` 0); a scorer whose value is a dict has
        one column per key (``"<scorer>.<key>"``). Models in the order they are found.

    Raises
    ------
    ValueError
        A file that is not an inspect-ai log or holds no samples; logs of one model only;
        a sample scored twice for a model and epoch (the same log given twice, or two runs
        of one task and model); a score that is neither a number nor a grade.

    Examples
    --------
    >>> import pairedstats
    >>> df = pairedstats.read_inspect(pairedstats.datasets.inspect_example_folder())
    >>> df.groupby("model", sort=False)["match"].mean().round(2).to_dict()
    {'mockllm/kestrel': 0.8, 'mockllm/atlas': 0.4}
    """
    import pandas as pd

    files = _files(paths, ("*.eval", "*.json"), "inspect-ai logs")
    metadata = [metadata] if isinstance(metadata, str) else list(metadata)
    if scorers is not None:
        scorers = [scorers] if isinstance(scorers, str) else list(scorers)
    parts, sources = [], []
    for path in files:
        rows = _inspect_rows(path, scorers, metadata)
        parts.append(pd.DataFrame(rows))
        sources += [str(path)] * len(rows)
    frame = pd.concat(parts, ignore_index=True)
    frame.insert(2, "item", frame["task"].astype(str) + "/" + frame["sample_id"].astype(str))
    fixed = ["task", "sample_id", "item", "model", "epoch", *metadata]
    known = sorted({k for path in files[:1] for s in _inspect_log(path)[1]
                    for k in (s.get("metadata") or {})})  # fmt: skip
    _refuse_absent_fields(frame, metadata, "metadata", "sample's metadata", "the samples' "
                          "metadata fields", known)  # fmt: skip
    found = [c for c in frame.columns if c not in fixed]
    if scorers is not None:
        absent = [s for s in scorers if not any(c.split(".")[0] == s for c in found)]
        if absent:
            every = {n: None for path in files for row in _inspect_rows(path, None, ())
                     for n in row if n not in ("task", "sample_id", "model", "epoch")}  # fmt: skip
            raise ValueError(
                f"scorers: no sample holds a score of {quoted(absent)}; the logs' "
                f"scores: {quoted(every, 12)}"
            )
    _refuse_one_system(frame, "model", files, "add the log of another model")
    _refuse_duplicates(frame, ["task", "sample_id", "model", "epoch"], sources)
    return frame[fixed + found]
