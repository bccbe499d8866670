"""The ``pairedstats`` command line: one command per method (and the report and the
ranking), on a CSV, Parquet or trec_eval file.

::

    pairedstats bootstrap runs.csv --item query --system run --score ndcg --baseline bm25
    pairedstats tukey-hsd runs.csv --item query --system run --score p10 --by collection
    pairedstats ranksum ratings.csv --score deviation --group changed -a unchanged -b changed
    pairedstats tukey-hsd --trec-eval bm25.txt dense.txt --measure ndcg_cut_10
    pairedstats report --trec-eval bm25.txt dense.txt --measure ndcg_cut_10 P_10 --baseline bm25
    pairedstats rank runs.csv --item query --system run --score ndcg --by collection
    pairedstats friedman accuracy.csv --item dataset --posthoc nemenyi --plot cd.pdf
    pairedstats compare bootstrap bm25.run dense.run --qrels qrels.txt --measure nDCG@10 AP
    pairedstats compare mcnemar --lm-eval logs/model_a logs/model_b --metric acc

``pairedstats compare METHOD RUN ...`` computes the per-query measures of TREC run files from
their qrels with ir_measures (an optional extra: ``pip install 'pairedstats[ir]'``), then runs
the method on them as on any table, as it does with the per-item logs of
lm-evaluation-harness (``--lm-eval``) and inspect-ai (``--inspect``); without a METHOD, the
report of the runs, each marked against the first run. A misspelled command gets a
suggestion (``tukey_hsd``: did you mean ``tukey-hsd``?); ``--plot FILE`` draws the result's
figure, where it has one.

A table is tidy when ``--system`` and ``--score`` are given (one row per item and system),
and wide otherwise (one row per item, one column per system; ``--item`` names the item
column, which the table's rules may require). Labels typed on the command line (``--baseline``,
``--systems``, ``-a``, ``-b``) are the labels whose text they are, so ``--baseline 0`` finds
the integer system 0. The result is written as text, CSV, JSON, Markdown or LaTeX
(``--format``) to standard output or ``-o FILE``; CSV and JSON keep every digit, text and
Markdown show 6 significant digits, LaTeX 3 decimals (display only). Errors in the data or
the options exit with status 2 and one line naming the option or the file.
"""

from __future__ import annotations

import argparse
import functools
import json
import math
import os
import re
import sys
import warnings
from pathlib import Path

from . import cli_figures, display
from .cli_argv import command_argv
from .cli_files import evaluate_runs, read_table, read_trec_eval, read_trec_eval_measures
from .cli_logs import add_log_options, log_table
from .methods._shared import registry as registry

__all__ = ["main", "read_table", "read_trec_eval"]

#: The subcommands, one per registered method, the report and the ranking.
COMMANDS = tuple(spec.command for spec in registry.SPECS.values())

#: ``compare METHOD RUN ...``: TREC runs or evaluation logs, with any paired method.
COMPARE = "compare"

#: What ``compare`` does, in one sentence (its help).
COMPARE_SUMMARY = ("Compare TREC runs (measures from qrels) or lm-evaluation-harness and "
                   "inspect-ai logs, with any paired method, or report them all.")  # fmt: skip


# ---------------------------------------------------------------------------- writing
def _json_value(value):
    import pandas as pd

    if value is pd.NA:  # a missing count (Tukey HSD's exceeding of an exact p-value)
        return None
    if hasattr(value, "item"):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None if math.isnan(value) else str(value)
    return value


def format_result(result, fmt: str, *, alpha=None) -> str:
    """The result as text, CSV, JSON (``{"metadata": ..., "rows": [...]}``), Markdown
    (:meth:`~pairedstats.ComparisonResult.to_markdown`) or LaTeX
    (:meth:`~pairedstats.ComparisonResult.to_latex`).

    Text, Markdown and LaTeX are displays (:mod:`pairedstats.display`'s rule: a p-value of
    0 from ``B`` random draws as ``<1/B``, counts as integers); CSV and JSON are data
    (:func:`pairedstats.display.data_table`): every digit, a p-value of 0 as 0, counts as
    integers."""
    if fmt == "text":
        return str(result)
    if fmt == "latex":
        return result.to_latex() if alpha is None else result.to_latex(alpha=alpha)
    if fmt == "markdown":
        return result.to_markdown()
    if hasattr(result, "to_frame"):  # the report: its table, unrounded, with its index
        return result.to_frame().to_csv().rstrip("\n")
    frame = display.data_table(result)
    if fmt == "csv":
        return frame.to_csv(index=False).rstrip("\n")
    rows = [{k: _json_value(v) for k, v in zip(frame.columns, row)}
            for row in frame.itertuples(index=False)]  # fmt: skip
    meta = {k: _json_value(v) if not isinstance(v, dict | list | tuple) else v
            for k, v in result.metadata.items()}  # fmt: skip
    return json.dumps({"metadata": meta, "rows": rows}, indent=1, default=str)


# ---------------------------------------------------------------------------- parser
def _output_options(p: argparse.ArgumentParser, spec) -> None:
    out = p.add_argument_group("output")
    out.add_argument("--format", type=str.lower, choices=spec.formats, default="text",
                     help="how the result is written (default: text)")  # fmt: skip
    out.add_argument("-o", "--output", metavar="OUT",
                     help="write the result to this file (default: standard output)")  # fmt: skip
    kind = cli_figures.figure_kind(spec)
    if kind is not None:
        out.add_argument("--plot", metavar="FILE", help=cli_figures.plot_help(kind))


def _owns_alpha(spec) -> bool:
    """The method has a keyword ``alpha`` of its own (a planned level), which is what
    ``--alpha`` sets; no other command has ``--alpha``."""
    return any(k.name == "alpha" for k in spec.keywords)


def _markers_level(args) -> float | None:
    """The level of the LaTeX significance markers: ``1 - --confidence-level`` when the
    command has a confidence level and it was given; otherwise None (the result's own
    default: 0.05, or ``1 - confidence_level`` for the intervals)."""
    level = getattr(args, "confidence_level", None)
    if _owns_alpha(args.spec) or level is None:
        return None
    return round(1 - level, 12)


_ROLE = re.compile(r":(?:func|class|meth|mod|attr|data|ref|doc):`~?(?P<target>[^`]+)`")
_LINK = re.compile(r"`(?P<text>[^`<]+?)\s*<[^>]+>`_+")


def _plain(text: str) -> str:
    """Documentation text (numpydoc, reStructuredText) as plain words on one line:
    ``literal`` -> literal, :func:`~pkg.f` -> f, a link -> its text.

    Examples
    --------
    >>> _plain("marked against ``baseline`` (see :func:`~pairedstats.bootstrap`)")
    'marked against baseline (see bootstrap)'
    """

    def role(match):
        target = match["target"]
        if "<" in target:  # :ref:`text <target>`
            return target.split("<")[0].strip()
        return target.rsplit(".", 1)[-1] if match[0].find("~") >= 0 else target

    text = _ROLE.sub(role, text)
    text = _LINK.sub(lambda m: m["text"], text)
    text = text.replace("``", "").replace("`", "")
    return " ".join(text.split())


def _first_sentence(doc: str) -> str:
    match = re.match(r"(.+?\.)(?:\s|$)", " ".join(doc.split()))
    return match[1] if match else doc


def _option_help(keyword, help: str | None) -> str:
    """The help of a keyword's option: its short help (or the first sentence of its doc)
    in plain words, with the library's default when the help does not say it."""
    text = _plain(help if help else _first_sentence(keyword.doc))
    default = keyword.default
    stated = "default" in text.lower()
    if stated or keyword.positional or isinstance(default, bool) or default in (None, "", ()):
        return text
    shown = f"{default:,}" if isinstance(default, int) else default
    return f"{text.rstrip('.')} (default: {shown})"
    return text


def _add_option(p, keyword) -> None:
    """The option of a spec's keyword; absent from ``args`` unless given, so that the
    library's default applies (typed once, in the spec)."""
    option = dict(keyword.option)
    if keyword.positional:  # a method's required argument
        option.setdefault("required", True)
    flags = option.pop("flags", (f"--{keyword.name.replace('_', '-')}",))
    if option.get("help") is not argparse.SUPPRESS:
        option["help"] = _option_help(keyword, option.get("help"))
    p.add_argument(*flags, dest=keyword.name, default=argparse.SUPPRESS, **option)


def _trec_eval_options(p: argparse.ArgumentParser, metrics: bool) -> None:
    trec = p.add_argument_group("trec_eval input (instead of FILE)")
    trec.add_argument("--trec-eval", nargs="+", metavar="RUN",
                      help="trec_eval -q outputs, one file per run; rows of query 'all' "
                           "(the summary) are excluded")  # fmt: skip
    if metrics:
        trec.add_argument(
            "--measure",
            nargs="+",
            action="extend",
            metavar="MEASURE",
            help="the measures, e.g. ndcg_cut_10 P_10 (or --measure repeated)",
        )
    else:
        trec.add_argument("--measure", help="the measure to compare, e.g. ndcg_cut_10")
    trec.add_argument("--names", nargs="+", help="run names (default: the file stems)")


def _runs_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("runs", nargs="*", metavar="RUN",
                   help="TREC run files ('query Q0 document rank score tag'), one per run, "
                        "named by the file names without suffix")  # fmt: skip
    measures = p.add_argument_group("measures (computed by ir_measures)")
    measures.add_argument("--qrels", metavar="FILE",
                          help="the relevance judgements ('query iteration document "
                               "relevance'); each of their queries is an item")  # fmt: skip
    measures.add_argument(
        "--measure", nargs="+", action="extend", metavar="MEASURE",
        help="ir_measures' names (nDCG@10, P@10, AP, RR) or trec_eval's (ndcg_cut_10, P_10, "
             "map); several (or --measure repeated): one comparison per measure",
    )  # fmt: skip
    measures.add_argument("--names", nargs="+", help="run names (default: the file stems)")
    add_log_options(p)


#: Input options that name columns of a table: a table computed from run files has its
#: own (query, run, measure, score), so ``compare`` has none of them.
_COLUMN_OPTIONS = ("item", "system", "score", "group", "by", "cluster", "strata", "replicate",
                   "missing")  # fmt: skip


def _subcommand(sub, spec, *, runs: bool = False) -> None:
    """The subcommand of ``spec``: its input options, then its keywords' options. With
    ``runs``, ``compare``'s subcommand: TREC run files and their qrels instead of a table."""
    summary = _plain(spec.summary)
    p = sub.add_parser(spec.command, help=summary, description=summary)
    inputs = registry.input_keywords(spec, "frame")
    if runs:
        _runs_options(p)
        inputs = [k for k in inputs if k.name not in _COLUMN_OPTIONS]
    else:
        table = "CSV (or '-' for standard input) or Parquet (.parquet, .pq)"
        p.add_argument("file", nargs="?", metavar="FILE", help=table)
    for keyword in [*inputs, *spec.keywords]:
        if keyword.option is not None:
            _add_option(p, keyword)
    if spec.road == "paired" and not runs:
        _trec_eval_options(p, spec.metrics)
    _output_options(p, spec)
    p.set_defaults(spec=spec, options=_options(p))


def _compare_command(sub) -> None:
    """``compare METHOD RUN ... --qrels FILE --measure MEASURE``: one subcommand per paired
    method, with that method's options."""
    summary = COMPARE_SUMMARY
    p = sub.add_parser(
        COMPARE, help=summary, description=summary + " ir_measures is an optional extra: "
        "pip install 'pairedstats[ir]'.",
        epilog="Run 'pairedstats compare METHOD -h' for a method's options: those of "
               "'pairedstats METHOD', with the run files and --qrels, --measure in place of a "
               "table. Without a METHOD ('pairedstats compare RUN RUN ... --qrels FILE "
               "--measure MEASURE'): the report of the runs, each marked against the first run "
               "(or the run --baseline names), as 'pairedstats compare report'.",
    )  # fmt: skip
    methods = p.add_subparsers(dest="method_command", required=True, metavar="METHOD",
                               title="methods")  # fmt: skip
    for spec in registry.SPECS.values():
        if spec.road == "paired":
            _subcommand(methods, spec, runs=True)


def command_lines() -> list[tuple[str, str]]:
    """Each command with the first sentence of its summary, in plain words.

    Examples
    --------
    >>> dict(command_lines())["bootstrap"]
    'Paired bootstrap confidence intervals of the differences b minus a.'
    """
    specs = registry.SPECS.values()
    rows = [(spec.command, _first_sentence(_plain(spec.summary))) for spec in specs]
    return [*rows, (COMPARE, COMPARE_SUMMARY)]


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``pairedstats``: one subcommand per registered method."""
    parser = argparse.ArgumentParser(
        prog="pairedstats", description=_plain(__doc__.split("\n\n")[0]),
        epilog="Run 'pairedstats COMMAND -h' for a command's options, each with its default; "
               "with no COMMAND, 'python -m pairedstats' runs the demo on the bundled data.",
    )  # fmt: skip
    from ._version import __version__

    parser.add_argument("--version", action="version", version=f"pairedstats {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND", title="commands")
    for spec in registry.SPECS.values():
        _subcommand(sub, spec)
    _compare_command(sub)
    return parser


def _options(parser: argparse.ArgumentParser) -> dict[str, str]:
    """Keyword -> the option that spells it (``n_resamples`` -> ``--n-resamples``, ``a`` ->
    ``-a``): how library messages name the options."""
    out = {}
    for action in parser._actions:  # argparse lists a parser's actions nowhere else
        spelled = [
            o for o in action.option_strings if o.lstrip("-").replace("-", "_") == action.dest
        ]
        if spelled:
            out[action.dest] = min(spelled, key=len)
    return out


_BACKTICKED = re.compile(r"`(?P<keyword>[a-z_]+)=?`")
_ASSIGNED = re.compile(r"(?<![\w.-])(?P<keyword>[a-z_]+)=(?:'(?P<word>[\w.+-]*)'(?![\w']))?")


def _command_line_text(message: str, options: dict[str, str]) -> str:
    """A library message in the command line's words, on one line: the keywords that are
    options become the options (`` `item=` `` and ``item=`` -> ``--item``,
    ``missing='complete'`` -> ``--missing complete``).

    Examples
    --------
    >>> options = {"item": "--item", "score": "--score", "missing": "--missing"}
    >>> _command_line_text("`score`: pass `item=` or item=; got item=None", options)
    '--score: pass --item or --item; got --item None'
    >>> _command_line_text("pass missing='complete' (see `weights=`).", options)
    'pass --missing complete (see `weights=`).'
    """

    def backticked(match):
        return options.get(match["keyword"], match[0])

    def assigned(match):
        option = options.get(match["keyword"])
        if option is None:
            return match[0]
        if match["word"] is not None:
            return f"{option} {match['word']}"
        value_follows = re.match(r"[^\s,.;:)`]", match.string[match.end() :])
        return f"{option} " if value_follows else option

    text = _ASSIGNED.sub(assigned, _BACKTICKED.sub(backticked, message))
    return " ".join(text.splitlines())


def _caveat_in_options(text: str, result, options: dict[str, str]) -> str:
    """The text output with the result's caveat (the line under the settings) in the
    command line's words: ``adjust= controls them together`` -> ``--adjust controls them
    together``. The settings line keeps the library's keywords (its metadata)."""
    caveat = getattr(result, "caveat", None)
    if not caveat:
        return text
    shown = "\n".join(_command_line_text(line, options) for line in caveat.splitlines())
    return text.replace(caveat, shown, 1)


#: The options that name columns of labels, whose cells a CSV file gives as written.
_LABEL_OPTIONS = ("item", "system", "group", "by", "cluster", "strata", "replicate")


def _label_columns(args) -> list:
    """The columns of labels the command names (``NA`` in them is a label, not missing)."""
    named = [getattr(args, option, None) for option in _LABEL_OPTIONS]
    return [c for value in named for c in (value if isinstance(value, list) else [value]) if c]


def _frame_and_columns(args, parser):
    """The input table and the item/system/score names of a paired method."""
    if getattr(args, "runs", None) is not None:  # compare: measures of TREC runs, or logs
        if (logs := log_table(args, parser)) is not None:
            return logs
        frame, args.note = evaluate_runs(
            args.runs, args.qrels, args.measure, args.names, wide=args.spec.metrics
        )
        if args.spec.metrics:  # the report: one column per measure
            return frame, dict(item="query", system="run", score=list(frame.columns[2:]))
        return frame, dict(item="query", system="run", score="score", by="measure")
    if args.trec_eval:
        if args.file is not None:
            parser.error("give FILE or --trec-eval, not both")
        if not args.measure:
            parser.error("--trec-eval needs --measure (e.g. --measure ndcg_cut_10)")
        if isinstance(args.measure, list):  # the report: several measures
            frame = read_trec_eval_measures(args.trec_eval, args.measure, args.names)
        else:
            frame = read_trec_eval(args.trec_eval, args.measure, args.names)
        return frame, dict(item="query", system="run", score=args.measure)
    if args.file is None:
        parser.error("give a FILE (CSV or Parquet) or --trec-eval RUN ...")
    frame = read_table(args.file, _label_columns(args))
    item, system, score = (getattr(args, k, None) for k in ("item", "system", "score"))
    if (system is None) != (score is None):
        parser.error("a tidy table needs both --system and --score (a wide table neither)")
    if system is None:  # wide: the library's rules say what the items are
        return frame, dict(item=item)
    return frame, dict(item=item, system=system, score=score)


def _label(typed: str, labels, option: str, source: str):
    matches = [label for label in labels if str(label) == typed]
    if len(matches) == 1:
        return matches[0]
    if not matches:
        raise ValueError(
            f"{option}: no label {typed!r} in {source}; its labels: {_listing(labels)}"
        )
    raise ValueError(
        f"{option}: {typed!r} is the text of {len(matches)} labels of {source} "
        f"({_listing(matches)}); rename them in the table so that they read differently"
    )


def _listing(labels: list, limit: int = 20) -> str:
    text = ", ".join(map(repr, labels[:limit]))
    return text + (f", ... ({len(labels)} in all)" if len(labels) > limit else "")


def _typed_labels(value, option: str, frame, column=None):
    """Labels typed on the command line as the labels of the table.

    Each typed string becomes the label of ``column`` (or, when ``column`` is None, the
    column name) whose ``str()`` it is, so that ``--baseline 0`` finds the integer 0 and
    ``-a False`` the boolean False. No match, or several, is an error listing the labels.

    Parameters
    ----------
    value : str, list of str or None
        What was typed (None: nothing; returned as is).
    option : str
        The option, for messages (``--baseline``).
    frame : pandas.DataFrame
        The table.
    column : str, optional
        The column of the labels; default: the labels are the table's column names. An
        unknown column is returned to the library, which names it.

    Examples
    --------
    >>> import pandas as pd
    >>> runs = pd.DataFrame({"run": [0, 1, 2], "ok": [True, False, True]})
    >>> _typed_labels(["2", "0"], "--systems", runs, "run")
    [2, 0]
    >>> _typed_labels("False", "-a", runs, "ok")
    False
    """
    if value is None or (column is not None and column not in frame.columns):
        return value
    if column is None:
        labels, source = list(frame.columns), "the table's columns"
    else:
        labels, source = frame[column].dropna().unique().tolist(), f"column {column!r}"
    if isinstance(value, list):
        return [_label(v, labels, option, source) for v in value]
    return _label(value, labels, option, source)


def run(args, parser):
    """The result object of the parsed command."""
    spec = args.spec
    if spec.road == "paired":
        frame, names = _frame_and_columns(args, parser)
    else:
        if args.file is None:
            parser.error("give a FILE (CSV or Parquet)")
        frame, names = read_table(args.file, _label_columns(args)), {}
    known = {*spec.inputs["frame"], *(k.name for k in spec.keywords)}
    given = {k: v for k, v in vars(args).items() if k in known}
    given.update(names)
    for keyword in [*registry.input_keywords(spec, "frame"), *spec.keywords]:
        if keyword.name not in given or keyword.option is None:
            continue
        if keyword.labels is not None:
            column = given.get(keyword.labels)  # the system or group column (tidy tables)
            option = args.options.get(keyword.name, keyword.name)
            given[keyword.name] = _typed_labels(given[keyword.name], option, frame, column)
    return getattr(frame.paired, spec.name)(**given, **({"as_result": True} if spec.table else {}))


def _check_output(path) -> None:
    """``-o``: a file in an existing folder, checked before the work starts."""
    if path is None:
        return
    path = Path(path)
    if path.is_dir():
        raise IsADirectoryError(f"--output: {str(path)!r} is a folder; give a file name")
    if not path.parent.is_dir():
        raise FileNotFoundError(
            f"--output: no folder {str(path.parent)!r} to write {path.name!r} in; create it first"
        )


def _error_text(err: Exception) -> str:
    if isinstance(err, OSError) and err.filename is not None:
        return f"{err.strerror}: {err.filename!r}"
    return str(err)


def emit(text: str) -> int:
    """Print ``text``: 0, or 141 (as a shell reports SIGPIPE) when the reader is gone
    (``pairedstats ... | head -1``), quietly."""
    try:
        print(text)
        sys.stdout.flush()
    except BrokenPipeError:
        # Python flushes standard output again at exit: send that to /dev/null
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
    return 0


@functools.lru_cache(maxsize=1)
def _parser(methods: tuple) -> argparse.ArgumentParser:
    """The parser of the registered ``methods`` (their specs' ids), built once for calls in one
    process (a notebook, the tests): 19 subcommands take 15-40 ms to build."""
    return build_parser()


def _report_note(args) -> str:
    """What ``compare`` without a METHOD runs (the first line it writes): the report of the
    runs, each marked against the first run unless ``--baseline`` names another."""
    if "baseline" not in vars(args):
        args.baseline = (args.names or [Path(args.runs[0]).stem])[0]
        against = f"the first run, {args.baseline!r} (--baseline NAME for another)"
    else:
        against = f"{args.baseline!r} (--baseline)"
    return (
        f"no METHOD given: the report of the runs, each marked against {against}; for "
        "one method's table: pairedstats compare METHOD RUN ... (pairedstats compare -h)"
    )


def _text_output(text: str, result, args) -> str:
    """The text output: the caveat in the command line's words, and Nemenyi's critical
    difference under the mean ranks of a Friedman result with Nemenyi's post-hoc test."""
    text = _caveat_in_options(text, result, args.options)
    extra = cli_figures.critical_difference_lines(result)
    if not extra:
        return text
    lines = text.split("\n")
    at = next((i for i, line in enumerate(lines) if line.startswith("Mean ranks")), None)
    if at is None:
        return f"{text}\n\n{extra}"
    return "\n".join([*lines[: at + 1], extra, *lines[at + 1 :]])


def _draw(result, args, prefix: str) -> None:
    """``--plot FILE``: the result's figure, written (one file per group, said on stderr)."""
    if getattr(args, "plot", None) is None:
        return
    written = cli_figures.save_figures(result, args.plot, cli_figures.figure_kind(args.spec))
    if len(written) > 1:
        files = ", ".join(str(p) for p in written)
        print(f"{prefix}: --plot: one figure per group: {files}", file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status: 0; 2 for an error in the data or the
    options (one line on standard error); 141 when standard output was closed early."""
    parser = _parser(tuple(map(id, registry.SPECS.values())))
    methods = [spec.command for spec in registry.SPECS.values() if spec.road == "paired"]
    argv, report = command_argv(argv, [*COMMANDS, COMPARE], methods, parser.error)
    args = parser.parse_args(argv)
    prefix = " ".join(
        ["pairedstats", args.command, *([args.method_command] if args.command == COMPARE else [])]
    )
    if report:
        print(f"pairedstats compare: {_report_note(args)}", file=sys.stderr)

    def show_warning(message, *_, **__):
        text = _command_line_text(str(message), args.options)
        print(f"{prefix}: warning: {text}", file=sys.stderr)

    with warnings.catch_warnings():
        warnings.showwarning = show_warning  # one line, not the package's source lines
        try:
            _check_output(args.output)
            cli_figures.check_plot(getattr(args, "plot", None))
            result = run(args, parser)
            if getattr(args, "note", None):  # what compare evaluated
                print(f"{prefix}: {args.note}", file=sys.stderr)
            text = format_result(result, args.format, alpha=_markers_level(args))
            if args.format == "text":
                text = _text_output(text, result, args)
            if args.output:
                Path(args.output).write_text(text + "\n")
            _draw(result, args, prefix)
        except (ValueError, TypeError, OSError, ImportError) as err:
            message = _command_line_text(_error_text(err), args.options)
            print(f"{prefix}: error: {message}", file=sys.stderr)
            return 2
    return 0 if args.output else emit(text)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
