"""The command line's input files as tables: CSV, Parquet, ``trec_eval -q`` output, and TREC
run files with their qrels (the measures computed by ir_measures, an optional extra).

A CSV file is read by pandas with two rules of its own, so that a table is not changed on its
way in: a header that names a column twice is refused (pandas would rename the second
``bm25`` to ``bm25.1``, a system no one ran), and the cells of the columns that hold labels
(items, systems, groups, clusters, strata, runs) are read as written, so that ``NA``,
``None`` or ``nan`` is a label there, not a missing one; in every other column pandas'
markers of a missing value (``NA``, ``NaN``, ``null``, ``n/a``, an empty cell, ...) are
missing scores. A file that cannot be read is an error that names it.
"""

from __future__ import annotations

import gzip
import io
import sys
from importlib.metadata import version
from pathlib import Path

__all__ = ["evaluate_runs", "read_table", "read_trec_eval", "read_trec_eval_measures"]

#: pandas' markers of a missing value in a CSV cell (the documented defaults of
#: :func:`pandas.read_csv`), which hold in every column that does not hold labels.
MISSING_MARKERS = (
    "", "#N/A", "#N/A N/A", "#NA", "-1.#IND", "-1.#QNAN", "-NaN", "-nan", "1.#IND", "1.#QNAN",
    "<NA>", "N/A", "NA", "NULL", "NaN", "None", "n/a", "nan", "null",
)  # fmt: skip


def _input_path(path, option: str) -> Path:
    path = Path(path)
    if not path.exists():
        raise FileNotFoundError(f"{option}: no file {str(path)!r}")
    if path.is_dir():
        raise IsADirectoryError(f"{option}: {str(path)!r} is a folder; give a file")
    return path


def _not_utf8(option: str, name: str) -> ValueError:
    return ValueError(f"{option}: {name} is not UTF-8 text; save it as UTF-8 and try again")


def read_table(path, labels=()):
    """Read a CSV (``-`` for standard input) or Parquet (``.parquet``, ``.pq``) file.

    CSV is read as UTF-8 (a byte-order mark is skipped). A header that names a column twice
    is refused. The columns named in ``labels`` hold labels: their cells are read as written
    (``NA``, ``None``, ``nan`` are text), and only an empty cell is a missing label; in the
    other columns pandas' markers (:data:`MISSING_MARKERS`) are missing values. Parquet is
    read by :func:`pandas.read_parquet`, which needs pyarrow (or fastparquet); its columns
    carry their types. A missing, empty, non-UTF-8 or unreadable file is an error that names
    it.
    """
    import pandas as pd

    if str(path) == "-":  # read once: the header is read before the table
        source, name = io.BytesIO(sys.stdin.buffer.read()), "standard input"
    else:
        source = _input_path(path, "FILE")
        name = repr(str(source))
        if source.suffix.lower() in (".parquet", ".pq"):
            return _read_parquet(source, name)
    try:
        header = _csv_header(source, name)
        if isinstance(source, io.BytesIO):
            source.seek(0)
        label_columns = {str(c) for c in labels}
        missing = {
            (column or i): [""] if column in label_columns else list(MISSING_MARKERS)
            for i, column in enumerate(header)
        }
        return pd.read_csv(source, encoding="utf-8-sig", keep_default_na=False, na_values=missing)
    except UnicodeDecodeError:
        raise _not_utf8("FILE", name) from None
    except pd.errors.EmptyDataError:
        raise ValueError(f"FILE: {name} is empty") from None
    except pd.errors.ParserError as err:
        raise ValueError(f"FILE: {name} is not a readable CSV file ({str(err).strip()})") from None


def _csv_header(source, name: str) -> list[str]:
    """The column names of a CSV file as written; a name written twice is refused.

    pandas renames a repeated name (``bm25``, ``bm25.1``), and the renamed column would
    be read as one more system (or score) under a name the file does not hold.
    """
    import pandas as pd

    first = pd.read_csv(
        source, encoding="utf-8-sig", header=None, nrows=1, dtype=str, keep_default_na=False
    )
    header = [str(c) for c in first.iloc[0].tolist()] if len(first) else []
    seen = {}
    for column in header:
        seen[column] = seen.get(column, 0) + 1
    repeated = [c for c, n in seen.items() if n > 1 and c != ""]
    if repeated:
        c = repeated[0]
        raise ValueError(
            f"FILE: {name} names the column {c!r} {seen[c]} times in its header; each column "
            f"needs a name of its own (pandas would read the second as {c + '.1'!r}, a "
            "column the file does not name). Rename or remove the repeated columns."
        )
    return header


def _read_parquet(path: Path, name: str):
    import pandas as pd

    try:
        return pd.read_parquet(path)
    except ImportError as err:
        raise ImportError(
            f"reading the Parquet file {name} needs pyarrow: python -m pip install pyarrow"
        ) from err
    except (ValueError, OSError) as err:  # pyarrow: ArrowInvalid, ArrowIOError
        raise ValueError(f"FILE: {name} is not a readable Parquet file ({err})") from None


def read_trec_eval_measures(paths, measures, names=None):
    """:func:`read_trec_eval` of several measures, one column each (the queries scored for
    every measure; a query missing from one is left to the library's ``missing`` rules).

    Returns
    -------
    pandas.DataFrame
        Columns ``query``, ``run``, then one column per measure.
    """
    import pandas as pd

    parts = [read_trec_eval(paths, m, names).set_index(["query", "run"])
             for m in dict.fromkeys(measures)]  # fmt: skip
    # joined on (query, run) in the order the files give them: an outer merge would sort
    # the keys, and the runs would no longer come in the order of the files
    keys = pd.concat([p.index.to_frame(index=False) for p in parts]).drop_duplicates()
    index = pd.MultiIndex.from_frame(keys)
    return pd.concat([p.reindex(index) for p in parts], axis=1).reset_index()


def read_trec_eval(paths, measure: str, names=None):
    """Per-query scores of runs from ``trec_eval -q`` output, as a tidy table.

    Each file holds one run's whitespace-separated ``measure  query  value`` lines. Only the
    lines of ``measure`` are kept, and the summary rows (query ``all``) are excluded: they
    are averages over the queries, not items. The files are read as UTF-8 (a byte-order mark
    is skipped).

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
        try:
            text = _input_path(path, "--trec-eval").read_text(encoding="utf-8-sig")
        except UnicodeDecodeError:
            raise _not_utf8("--trec-eval", repr(str(path))) from None
        found = set()
        kept = 0
        for number, line in enumerate(text.splitlines(), start=1):
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


# ---------------------------------------------------------------------------- TREC runs
def _ir_measures():
    try:
        import ir_measures
    except ImportError:
        raise ImportError(
            "computing measures from run files needs ir-measures: pip install 'pairedstats[ir]'"
        ) from None
    return ir_measures


def _parse_measure(ir_measures, text: str):
    """A measure as ir_measures writes it (``nDCG@10``) or, failing that, one measure as
    trec_eval names it (``ndcg_cut_10``); refused, naming what it needs, when a parameter
    it cannot do without is not given (``P`` without its cutoff)."""
    try:
        measure = ir_measures.parse_measure(text)
    except (NameError, ValueError, TypeError, SyntaxError):
        measure = None
    if measure is not None:
        return _complete(measure, text)
    try:
        found = ir_measures.parse_trec_measure(text)
    except (NameError, ValueError, TypeError, SyntaxError):
        found = []
    if not found:
        raise ValueError(
            f"--measure: ir_measures knows no measure {text!r}; write it as ir_measures does, "
            f"one of: {_known(ir_measures)} (@k: a cutoff, e.g. P@10), or as trec_eval does "
            "(ndcg_cut_10, P_10, map, recip_rank)"
        )
    if len(found) > 1:
        listed = ", ".join(map(str, found))
        raise ValueError(
            f"--measure: {text!r} names {len(found)} measures in trec_eval ({listed}); "
            "give one of them"
        )
    return found[0]


def _required(measure) -> list[str]:
    """The parameters ``measure`` needs and was not given (``cutoff`` of ``P``)."""
    return [name for name, info in measure.SUPPORTED_PARAMS.items()
            if getattr(info, "required", False) and name not in measure.params]  # fmt: skip


def _known(ir_measures) -> str:
    """The names of ir_measures' measures, ``P@k`` for one that needs its cutoff."""
    registry = ir_measures.measures.registry
    return ", ".join(name + ("@k" if "cutoff" in _required(registry[name]) else "")
                     for name in sorted(registry) if name.isascii())  # fmt: skip


def _complete(measure, text: str):
    """``measure`` if it has every parameter it needs; else a ValueError naming them, with
    the measure written with them (``P@10``)."""
    missing = _required(measure)
    if not missing:
        return measure
    info = measure.SUPPORTED_PARAMS
    needs = " and ".join("a cutoff, the depth of the ranking it scores" if name == "cutoff"
                         else f"{name} ({info[name].desc})" for name in missing)  # fmt: skip
    given = {k: v for k, v in measure.params.items() if k != "cutoff"}
    inside = [f"{k}={v!r}" for k, v in given.items()]
    inside += [f"{name}=..." for name in missing if name != "cutoff"]
    cutoff = measure.params.get("cutoff", 10 if "cutoff" in missing else None)
    example = (measure.NAME + (f"({', '.join(inside)})" if inside else "")
               + ("" if cutoff is None else f"@{cutoff}"))  # fmt: skip
    raise ValueError(f"--measure: {text!r} needs {needs}; write it with one, as {example}")


def _read_qrels(read, path: Path) -> list:
    """The judgements of a qrels file, read by ir_measures' ``read`` (a small file)."""
    try:
        rows = list(read(str(path)))
    except UnicodeDecodeError:
        raise _not_utf8("--qrels", repr(str(path))) from None
    except (ValueError, TypeError, IndexError) as err:
        raise ValueError(
            f"--qrels: {str(path)!r} is not a qrels file ({err}); each line of it is "
            "'query iteration document relevance'"
        ) from None
    if not rows:
        raise ValueError(f"--qrels: {str(path)!r} is empty; it holds no qrels line")
    return rows


#: The fields of a line of a TREC run file.
_RUN_FIELDS = ("query_id", "iteration", "doc_id", "rank", "score", "tag")


#: pandas' C parser reads floats correctly rounded by default from pandas 3 on (which
#: deprecates the option); before, only with ``float_precision="round_trip"``.
_EXACT_FLOATS = (
    {} if int(version("pandas").split(".")[0]) >= 3 else {"float_precision": "round_trip"}
)


def _run_frame(path: Path, score):
    """The six fields of the run file's non-blank lines, the score's read as ``score``."""
    import pandas as pd

    frame = pd.read_csv(path, sep=r"\s+", header=None, na_filter=False,
                        dtype={i: score if i == 4 else object for i in range(6)},
                        skip_blank_lines=True, encoding="utf-8", engine="c", quoting=3,
                        **_EXACT_FLOATS)  # fmt: skip
    if frame.shape[1] != len(_RUN_FIELDS):
        raise ValueError(f"non-blank line 1 has {frame.shape[1]} fields, not 6")
    short = (frame[5].to_numpy() == "").nonzero()[0]
    if len(short):
        raise ValueError(f"non-blank line {short[0] + 1} has fewer than 6 fields")
    return frame


def _read_run(path: Path) -> dict:
    """A TREC run file as arrays (``query_id``, ``doc_id``: text as written, ``score``:
    float), read by pandas' C parser (ir_measures' reader builds a tuple per line, several
    times slower): six whitespace-separated fields per non-blank line, as ir_measures and
    trec_eval read it, each score as Python's ``float`` reads it (``1_0``, ``-Infinity``);
    refused as ir_measures would refuse it, naming the file."""
    import numpy as np
    import pandas as pd

    try:
        try:
            frame = _run_frame(path, np.float64)
        except ValueError:  # a score pandas' parser does not read: each by float()
            frame = _run_frame(path, object)
        score = frame[4].to_numpy().astype(np.float64)
    except UnicodeDecodeError:
        raise _not_utf8("RUN", repr(str(path))) from None
    except pd.errors.EmptyDataError:
        raise ValueError(f"RUN: {str(path)!r} is empty; it holds no run line") from None
    except (ValueError, TypeError) as err:  # pandas' ParserError is a ValueError
        raise ValueError(
            f"RUN: {str(path)!r} is not a run file ({str(err).strip()}); each line of it is "
            "'query Q0 document rank score tag'"
        ) from None
    return {"query_id": frame[0].to_numpy(dtype=object),
            "doc_id": frame[2].to_numpy(dtype=object), "score": score}  # fmt: skip


def _ranking(run: dict, path: Path) -> dict:
    """The run as ir_measures' dict of dicts (query -> document -> score), refused as
    trec_eval refuses it or could not rank it: a score that is not a finite number, or a
    document listed twice for a query; the error names the file and the lines (the file's
    non-blank lines, one per document)."""
    import numpy as np

    ranking: dict = {}
    for query, doc, score in zip(run["query_id"].tolist(), run["doc_id"].tolist(),
                                 run["score"].tolist()):  # fmt: skip
        ranking.setdefault(query, {})[doc] = score
    bad = np.flatnonzero(~np.isfinite(run["score"])).tolist()
    if bad or sum(map(len, ranking.values())) != len(run["score"]):
        _refuse(run, path, bad)
    return ranking


def _refuse(run: dict, path: Path, bad: list) -> None:
    """The error of a run with scores that are not finite (their positions ``bad``) or with
    a document listed twice for a query."""
    opener = gzip.open if path.name.endswith(".gz") else open
    with opener(path, "rt") as lines:
        number = [n for n, line in enumerate(lines, 1) if line.strip()]
    if bad:
        raise ValueError(
            f"RUN: {str(path)!r} has {_count(len(bad), 'score', 'scores')} that "
            f"{'is not a finite number' if len(bad) == 1 else 'are not finite numbers'} "
            f"(nan, inf), on {'line' if len(bad) == 1 else 'lines'} "
            f"{_few([number[i] for i in bad])}; trec_eval ranks a query's documents by "
            "score: give each a finite score"
        )
    first, twice = {}, []
    for i, key in enumerate(zip(run["query_id"].tolist(), run["doc_id"].tolist())):
        at = first.setdefault(key, i)
        if at != i:
            twice.append((at, i))
    where = [f"document {run['doc_id'][i]!r} of query {run['query_id'][i]!r} on lines "
             f"{number[at]} and {number[i]}" for at, i in twice]  # fmt: skip
    raise ValueError(
        f"RUN: {str(path)!r} lists {_count(len(twice), 'document', 'documents')} twice for a "
        f"query: {_few(where, 3)}; trec_eval refuses such a run: keep one line per query "
        "and document"
    )


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def evaluate_runs(paths, qrels, measures, names=None, *, wide: bool = False):
    """Per-query measures of TREC run files against their qrels, computed by ir_measures.

    Every query of the qrels is an item, and a query that a run retrieved nothing for
    scores what ir_measures gives an empty ranking (0 for every measure of trec_eval), as
    ``trec_eval -c`` does: a run is not rewarded for the queries it leaves out. A query of
    the qrels with no relevant document is an item too (0 in every run). Queries a run
    retrieved that the qrels do not judge are not evaluated. A run that retrieved none of
    the qrels' queries is refused (it is probably a run of other topics).

    Parameters
    ----------
    paths : sequence of path
        TREC run files (``query Q0 document rank score tag``), one per run; ranked by score,
        as trec_eval ranks them.
    qrels : path
        The relevance judgements (``query iteration document relevance``).
    measures : sequence of str
        ir_measures' names (``nDCG@10``, ``P@10``, ``AP``, ``RR``) or trec_eval's names of
        one measure (``ndcg_cut_10``, ``P_10``, ``map``, ``recip_rank``). The measures are
        labelled as written.
    names : sequence of str, optional
        Run names; default: the file names without their suffix (the tag column is not
        read).
    wide : bool, default False
        One column per measure (``query``, ``run``, then the measures) instead of the long
        table (``query``, ``run``, ``measure``, ``score``).

    Returns
    -------
    frame : pandas.DataFrame
        The runs in the order given, the queries in the order of the qrels.
    note : str
        How many queries were evaluated, and which were not retrieved or not judged.

    Raises
    ------
    ImportError
        Without ir-measures (``pip install 'pairedstats[ir]'``).
    ValueError
        A measure ir_measures does not know (the message lists those it does) or given
        without a parameter it needs (``P``: its cutoff, ``P@10``); a run file with a score
        that is not a finite number (``nan``, ``inf``) or with a document listed twice for
        a query, which trec_eval refuses (the message names the file and the lines).
    """
    import pandas as pd

    ir_measures = _ir_measures()
    paths = [Path(p) for p in paths]
    if names is None:
        names = [p.stem for p in paths]
    elif len(names) != len(paths):
        raise ValueError(f"--names: {len(names)} name(s) for {len(paths)} run file(s)")
    if len(set(names)) != len(names):
        repeated = sorted({n for n in names if names.count(n) > 1})
        raise ValueError(
            f"RUN: two run files have the name {repeated[0]!r} (names are the file names "
            f"without suffix: {names}); rename a file or give --names"
        )
    typed = list(dict.fromkeys(measures))
    parsed = {}
    for text in typed:
        measure = _parse_measure(ir_measures, text)
        if measure in parsed:
            raise ValueError(
                f"--measure: {parsed[measure]!r} and {text!r} are the same measure "
                f"({measure}); give it once"
            )
        parsed[measure] = text
    judged = _read_qrels(ir_measures.read_trec_qrels, _input_path(qrels, "--qrels"))
    queries = list(dict.fromkeys(q.query_id for q in judged))
    known = set(queries)
    try:
        evaluator = ir_measures.evaluator(list(parsed), judged)
    except Exception as err:  # the providers' own errors (no provider, a bad parameter)
        text = ", ".join(map(repr, parsed.values()))
        raise ValueError(f"--measure: ir_measures cannot compute {text}: {err}") from None
    values = {}
    unretrieved, unjudged = {}, set()
    for path, name in zip(paths, names):
        ranking = _ranking(_read_run(_input_path(path, "RUN")), path)
        retrieved = set(ranking)
        unjudged |= retrieved - known
        if not retrieved & known:
            raise ValueError(
                f"RUN: {str(path)!r} retrieved none of the {len(queries)} queries of the "
                f"qrels (its queries: {_few(sorted(retrieved))}; the qrels': "
                f"{_few(queries)}); are they of the same topics?"
            )
        unretrieved[name] = [q for q in queries if q not in retrieved]
        try:
            for metric in evaluator.iter_calc(ranking):
                values[(name, metric.query_id, metric.measure)] = float(metric.value)
        except Exception as err:
            text = ", ".join(map(repr, parsed.values()))
            raise ValueError(f"--measure: ir_measures cannot compute {text}: {err}") from None
    for name, missed in unretrieved.items():  # the rule, whatever the ir_measures version
        for query in missed:
            for measure in parsed:
                values.setdefault((name, query, measure), float(measure.DEFAULT))
    missing = [(n, q, parsed[m]) for n in names for q in queries for m in parsed
               if (n, q, m) not in values]  # fmt: skip
    if missing:
        raise ValueError(f"--measure: ir_measures gave no value of {missing[0]}")
    if wide:
        rows = [(q, n, *(values[(n, q, m)] for m in parsed)) for n in names for q in queries]
        frame = pd.DataFrame(rows, columns=["query", "run", *parsed.values()])
    else:
        rows = [(q, n, text, values[(n, q, m)])
                for n in names for q in queries for m, text in parsed.items()]  # fmt: skip
        frame = pd.DataFrame(rows, columns=["query", "run", "measure", "score"])
    return frame, _note(queries, qrels, unretrieved, unjudged)


def _few(labels, limit: int = 5) -> str:
    shown = ", ".join(map(str, list(labels)[:limit]))
    return shown + (", ..." if len(labels) > limit else "")


def _note(queries, qrels, unretrieved, unjudged) -> str:
    """What was evaluated: the queries, those a run did not retrieve (scored as an empty
    ranking), and how many retrieved queries the qrels do not judge."""
    text = (f"{_count(len(queries), 'query', 'queries')} of {str(qrels)!r} evaluated in "
            f"{_count(len(unretrieved), 'run', 'runs')}")  # fmt: skip
    missed = [f"{name!r} retrieved nothing for {_count(len(q), 'query', 'queries')} "
              f"({_few(q)})" for name, q in unretrieved.items() if q]  # fmt: skip
    if missed:
        text += "; " + "; ".join(missed) + ", scored as an empty ranking (0), as trec_eval -c does"
    if unjudged:
        counted = _count(len(unjudged), "retrieved query", "retrieved queries")
        text += f"; {counted} not in the qrels not evaluated"
    return text
