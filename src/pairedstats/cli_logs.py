"""``pairedstats compare METHOD --lm-eval PATH ...`` and ``--inspect PATH ...``: the
evaluation logs of language-model harnesses as the table a paired method reads.

Each document is an item (``item``, ``"<task>/<doc_id>"``), each model a system, each metric
(or scorer) a comparison of its own, as are lm-evaluation-harness's groups (a task in no group
is its own) and filters and inspect-ai's tasks; several runs of a model (lm-eval's repeats,
inspect-ai's epochs) are the bootstrap's ``replicate=``.
"""

from __future__ import annotations

from .harnesses import read_inspect, read_lm_eval

__all__ = ["add_log_options", "log_table"]


def add_log_options(p) -> None:
    """The options of ``compare``'s evaluation logs (instead of run files and qrels)."""
    logs = p.add_argument_group("evaluation logs of language models (instead of RUN, --qrels)")
    logs.add_argument("--lm-eval", nargs="+", metavar="PATH",
                      help="lm-evaluation-harness --log_samples output: samples_*.jsonl files "
                           "or their folders, one model or more each")  # fmt: skip
    logs.add_argument("--inspect", nargs="+", metavar="PATH",
                      help="inspect-ai eval logs (.eval, .json) or their folders")  # fmt: skip
    logs.add_argument("--metric", nargs="+", action="extend", metavar="METRIC",
                      help="the metrics (lm-eval) or scorers (inspect-ai) to compare; "
                           "default: all, one comparison each")  # fmt: skip


def _long(frame, keys: list[str], measures: list[str]):
    """One row per (keys, measure), the measures a task does not have left out (a column
    that is missing in every row of the task)."""
    long = frame.melt(id_vars=keys, value_vars=measures, var_name="measure", value_name="score")
    scored = long.groupby(["task", "measure"], sort=False)["score"].transform("count")
    return long[scored.to_numpy() > 0].reset_index(drop=True)


def log_table(args, parser):
    """The table and the names (item, system, score, by, replicate) of ``compare``'s logs;
    ``None`` when no log option was given (TREC runs)."""
    lm_eval, inspect = getattr(args, "lm_eval", None), getattr(args, "inspect", None)
    if not lm_eval and not inspect:
        if not args.runs or args.qrels is None or not args.measure:
            parser.error("give RUN files with --qrels and --measure, or --lm-eval or --inspect")
        return None
    if args.runs or args.qrels is not None or args.measure or (lm_eval and inspect):
        parser.error("give one input: RUN files with --qrels, --lm-eval, or --inspect")
    if lm_eval:
        frame = read_lm_eval(lm_eval, metrics=args.metric)
        fixed, repeat, by = 7, "repeat", ["group", "filter"]
    else:
        frame = read_inspect(inspect, scorers=args.metric)
        fixed, repeat, by = 5, "epoch", ["task"]
    measures = [c for c in frame.columns[fixed:] if args.metric is None or c in args.metric
                or c.split(".")[0] in args.metric]  # fmt: skip
    # the tasks that have none of the metrics are not compared (a model's document without a
    # score under a metric its task has stays, for the method's missing= rule)
    frame = frame[frame[measures].notna().any(axis=1).to_numpy()]
    repeats = frame[repeat].nunique() > 1
    runs = frame.groupby(by, sort=False)[repeat].nunique()
    if runs.nunique() > 1:  # the replicates of one call are those of every comparison
        several = ", ".join(map(str, runs.index[runs > 1].tolist()))
        raise ValueError(
            f"the logs hold several runs of a model ({repeat}) for some comparisons only "
            f"({', '.join(by)}: {several}); compare the logs of those tasks and of the "
            "others in two commands"
        )
    if repeats and "replicate" not in args.spec.inputs["frame"]:
        raise ValueError(
            f"the logs hold {frame[repeat].nunique()} runs of a model on a task "
            f"({repeat} {', '.join(map(str, sorted(frame[repeat].unique())))}); "
            f"{args.spec.command} compares one run per model: use 'pairedstats compare "
            "bootstrap', which takes every run (replicate=), or give the logs of one run"
        )
    names = dict(item="item", system="model", **({"replicate": repeat} if repeats else {}))
    if args.spec.metrics:  # the report: one column per metric
        return frame, dict(names, score=measures, by=by)
    keys = ["task", *(b for b in by if b != "task"), "item", "model", repeat]
    long = _long(frame, keys, measures)
    return long, dict(names, score="score", by=[*by, "measure"])
