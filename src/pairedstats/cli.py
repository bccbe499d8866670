"""The ``pairedstats`` command line: the three methods on a CSV, Parquet or trec_eval file.

::

    pairedstats bootstrap runs.csv --item query --system run --score ndcg --baseline bm25
    pairedstats tukey-hsd runs.csv --item query --system run --score p10 --by collection
    pairedstats ranksum ratings.csv --score deviation --group changed -a unchanged -b changed
    pairedstats tukey-hsd --trec-eval bm25.txt dense.txt --measure ndcg_cut_10

A table is tidy when ``--system`` and ``--score`` are given (one row per item and system),
and wide otherwise (one row per item, one column per system; ``--item`` names the item
column, else the first column is used). The result is written as text, CSV, JSON, Markdown
or LaTeX (``--format``) to standard output or ``-o FILE``; CSV and JSON keep every digit,
text and Markdown show 6 significant digits, LaTeX 3 decimals (display only).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

__all__ = ["main", "read_table", "read_trec_eval"]

FORMATS = ("text", "csv", "json", "markdown", "latex")
COMMANDS = ("bootstrap", "tukey-hsd", "ranksum")


# ---------------------------------------------------------------------------- reading
def read_table(path):
    """Read a CSV (``-`` for standard input) or Parquet (``.parquet``, ``.pq``) file.

    Parquet is read by :func:`pandas.read_parquet`, which needs pyarrow (or fastparquet).
    """
    import pandas as pd

    if str(path) == "-":
        return pd.read_csv(sys.stdin)
    path = Path(path)
    if not path.exists():
        raise FileNotFoundError(f"FILE: no file {str(path)!r}")
    if path.suffix.lower() in (".parquet", ".pq"):
        try:
            return pd.read_parquet(path)
        except ImportError as err:
            raise ImportError(
                f"reading the Parquet file {str(path)!r} needs pyarrow: "
                "python -m pip install pyarrow"
            ) from err
    return pd.read_csv(path)


def read_trec_eval(paths, measure: str, names=None):
    """Per-query scores of runs from ``trec_eval -q`` output, as a tidy table.

    Each file holds one run's whitespace-separated ``measure  query  value`` lines. Only the
    lines of ``measure`` are kept, and the summary rows (query ``all``) are excluded: they
    are averages over the queries, not items.

    Parameters
    ----------
    paths : sequence of path
        One ``trec_eval -q`` output per run.
    measure : str
        The measure to read, as trec_eval names it (e.g. ``ndcg_cut_10``, ``P_10``, ``map``).
    names : sequence of str, optional
        Run names; default: the file names without their suffix.

    Returns
    -------
    pandas.DataFrame
        Columns ``query``, ``run`` and ``measure`` (the values as floats).
    """
    import pandas as pd

    paths = [Path(p) for p in paths]
    if names is None:
        names = [p.stem for p in paths]
    elif len(names) != len(paths):
        raise ValueError(f"--names: {len(names)} name(s) for {len(paths)} trec_eval file(s)")
    if len(set(names)) != len(names):
        raise ValueError(f"--trec-eval: run names must differ; got {names} (use --names)")
    rows = []
    for path, name in zip(paths, names):
        if not path.exists():
            raise FileNotFoundError(f"--trec-eval: no file {str(path)!r}")
        found = set()
        kept = 0
        for number, line in enumerate(path.read_text().splitlines(), start=1):
            fields = line.split()
            if not fields:
                continue
            if len(fields) != 3:
                raise ValueError(
                    f"--trec-eval: {str(path)!r} line {number}: expected 'measure query value' "
                    f"(trec_eval -q output); got {line.strip()!r}"
                )
            found.add(fields[0])
            if fields[0] != measure or fields[1] == "all":
                continue
            try:
                value = float(fields[2])
            except ValueError:
                raise ValueError(
                    f"--trec-eval: {str(path)!r} line {number}: the value of {measure} must be "
                    f"a number; got {fields[2]!r}"
                ) from None
            rows.append((fields[1], name, value))
            kept += 1
        if kept == 0:
            known = ", ".join(sorted(found)[:12])
            raise ValueError(
                f"--measure: {str(path)!r} has no per-query {measure!r} lines (was it written "
                f"with trec_eval -q?); its measures: {known}"
            )
    return pd.DataFrame(rows, columns=["query", "run", measure])


# ---------------------------------------------------------------------------- writing
def _markdown(frame) -> str:
    def cell(v):
        if isinstance(v, float):
            return f"{v:.6g}" if math.isfinite(v) else str(v)
        return str(v).replace("|", "\\|")

    head = "| " + " | ".join(str(c) for c in frame.columns) + " |"
    rule = "|" + "|".join(
        "---:" if frame[c].dtype.kind in "biuf" else "---" for c in frame.columns
    ) + "|"  # fmt: skip
    body = ["| " + " | ".join(cell(v) for v in row) + " |"
            for row in frame.itertuples(index=False)]  # fmt: skip
    return "\n".join([head, rule, *body])


def _json_value(value):
    if hasattr(value, "item"):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None if math.isnan(value) else str(value)
    return value


def format_result(result, fmt: str, *, alpha=None) -> str:
    """The result as text, CSV, JSON (``{"metadata": ..., "rows": [...]}``), Markdown or
    LaTeX (:meth:`~pairedstats.results.ComparisonResult.to_latex`)."""
    if fmt == "text":
        return str(result)
    if fmt == "latex":
        return result.to_latex(alpha=alpha)
    frame = result.to_dataframe()
    if fmt == "csv":
        return frame.to_csv(index=False).rstrip("\n")
    if fmt == "markdown":
        return _markdown(frame)
    rows = [{k: _json_value(v) for k, v in zip(frame.columns, row)}
            for row in frame.itertuples(index=False)]  # fmt: skip
    meta = {k: _json_value(v) if not isinstance(v, dict | list | tuple) else v
            for k, v in result.metadata.items()}  # fmt: skip
    return json.dumps({"metadata": meta, "rows": rows}, indent=1, default=str)


# ---------------------------------------------------------------------------- parser
def _common(p: argparse.ArgumentParser, *, paired: bool = True) -> None:
    p.add_argument("file", nargs="?", metavar="FILE",
                   help="CSV (or '-' for standard input) or Parquet (.parquet, .pq)")  # fmt: skip
    p.add_argument("--by", nargs="+", metavar="COL", help="run per group of these columns")
    out = p.add_argument_group("output")
    out.add_argument("--format", choices=FORMATS, default="text", help="default: text")
    out.add_argument("-o", "--output", metavar="OUT", help="write here (default: stdout)")
    out.add_argument("--alpha", type=float, default=None,
                     help="LaTeX significance markers: p < ALPHA (default 0.05)")  # fmt: skip
    if not paired:
        return
    p.add_argument("--item", metavar="COL", help="item column (query, example, ...)")
    p.add_argument("--system", metavar="COL", help="system column (tidy tables)")
    p.add_argument("--score", metavar="COL", help="score column (tidy tables)")
    p.add_argument("--systems", nargs="+", metavar="NAME", help="select and order systems")
    p.add_argument("--missing", choices=("raise", "complete"), default="raise",
                   help="'complete': keep the items scored for every system")  # fmt: skip
    p.add_argument("--rng", type=int, default=None, metavar="SEED", help="random seed")
    p.add_argument("--n-resamples", type=int, default=10_000, metavar="N",
                   help="resamples or trials (default 10000)")  # fmt: skip
    trec = p.add_argument_group("trec_eval input (instead of FILE)")
    trec.add_argument("--trec-eval", nargs="+", metavar="RUN",
                      help="trec_eval -q outputs, one file per run; rows of query 'all' "
                           "(the summary) are excluded")  # fmt: skip
    trec.add_argument("--measure", help="the measure to compare, e.g. ndcg_cut_10")
    trec.add_argument("--names", nargs="+", help="run names (default: the file stems)")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``pairedstats``."""
    parser = argparse.ArgumentParser(
        prog="pairedstats", description=__doc__.split("\n\n")[0],
        epilog="Run 'pairedstats METHOD -h' for a method's options; with no METHOD, "
               "'python -m pairedstats' runs the demo on the bundled data.",
    )  # fmt: skip
    from ._version import __version__

    parser.add_argument("--version", action="version", version=f"pairedstats {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="METHOD")

    boot = sub.add_parser("bootstrap", help="paired bootstrap intervals of b - a")
    _common(boot)
    boot.add_argument("--baseline", help="compare every system with this one")
    boot.add_argument("--confidence-level", type=float, default=0.95, metavar="LEVEL")
    boot.add_argument("--method", choices=("percentile", "basic", "bca"), default="percentile")
    boot.add_argument("--cluster", metavar="COL", help="resample whole clusters")
    boot.add_argument("--strata", metavar="COL", help="resample within strata")

    hsd = sub.add_parser("tukey-hsd", help="randomized Tukey HSD over all pairs")
    _common(hsd)
    hsd.add_argument("--exact", choices=("auto", "true", "false"), default=None,
                     help="exact p-values: auto (when they can be computed; default), "
                          "true (always), false (Monte Carlo)")  # fmt: skip

    rank = sub.add_parser("ranksum", help="Wilcoxon rank-sum test with Hodges-Lehmann shift")
    _common(rank, paired=False)
    rank.add_argument("--score", metavar="COL", help="score column (tidy tables)")
    rank.add_argument("--group", metavar="COL", help="column of the group labels (tidy)")
    rank.add_argument("-a", "--a", dest="a", metavar="LABEL", help="group (or column) a")
    rank.add_argument("-b", "--b", dest="b", metavar="LABEL", help="group (or column) b")
    rank.add_argument("--alternative", choices=("two-sided", "less", "greater"),
                      default="two-sided", help="about b - a (default two-sided)")  # fmt: skip
    rank.add_argument("--confidence-level", type=float, default=0.95, metavar="LEVEL")
    rank.add_argument("--method", choices=("auto", "exact", "asymptotic"), default="auto")
    rank.add_argument("--no-correction", dest="correction", action="store_false",
                      help="no continuity correction")  # fmt: skip
    return parser


def _frame_and_columns(args, parser):
    """The input table and the item/system/score names of a paired method."""
    if args.trec_eval:
        if args.file is not None:
            parser.error("give FILE or --trec-eval, not both")
        if not args.measure:
            parser.error("--trec-eval needs --measure (e.g. --measure ndcg_cut_10)")
        frame = read_trec_eval(args.trec_eval, args.measure, args.names)
        return frame, dict(item="query", system="run", score=args.measure)
    if args.file is None:
        parser.error("give a FILE (CSV or Parquet) or --trec-eval RUN ...")
    frame = read_table(args.file)
    if (args.system is None) != (args.score is None):
        parser.error("a tidy table needs both --system and --score (a wide table neither)")
    if args.system is None:  # wide: items are a column; systems the numeric columns
        item = args.item if args.item is not None else frame.columns[0]
        return frame, dict(item=item)
    return frame, dict(item=args.item, system=args.system, score=args.score)


def run(args, parser):
    """The result object of the parsed command."""
    if args.command == "ranksum":
        if args.file is None:
            parser.error("give a FILE (CSV or Parquet)")
        frame = read_table(args.file)
        return frame.paired.ranksum(
            score=args.score, group=args.group, a=args.a, b=args.b, by=args.by,
            alternative=args.alternative, confidence_level=args.confidence_level,
            method=args.method, correction=args.correction, as_result=True,
        )  # fmt: skip
    frame, names = _frame_and_columns(args, parser)
    common = dict(
        systems=args.systems, by=args.by, missing=args.missing, rng=args.rng,
        n_resamples=args.n_resamples, as_result=True,
    )  # fmt: skip
    if args.command == "bootstrap":
        return frame.paired.bootstrap(
            **names, **common, baseline=args.baseline, cluster=args.cluster,
            strata=args.strata, confidence_level=args.confidence_level, method=args.method,
        )  # fmt: skip
    exact = {None: None, "auto": "auto", "true": True, "false": False}[args.exact]
    extra = {} if exact is None else {"exact": exact}
    return frame.paired.tukey_hsd(**names, **common, **extra)


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status (0, or 2 for a usage or data error)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        result = run(args, parser)
        text = format_result(result, args.format, alpha=args.alpha)
    except (ValueError, TypeError, KeyError, FileNotFoundError, ImportError) as err:
        message = err.args[0] if isinstance(err, KeyError) and err.args else err
        print(f"pairedstats {args.command}: error: {message}", file=sys.stderr)
        return 2
    if args.output:
        Path(args.output).write_text(text + "\n")
    else:
        print(text)
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
