"""The ``.paired`` accessor of :class:`dask.dataframe.DataFrame`: the pandas road's methods on
tables that a dask cluster holds in pieces (``dd.read_parquet``), with the same keywords and
the same results, computed.

**Registration.** dask is an extra (``pip install "pairedstats[dask]"``), and importing
``dask.dataframe`` would add about a third to ``import pairedstats``, so the package never
imports it itself: :func:`install` (run by ``import pairedstats``) registers the accessor at once
when ``dask.dataframe`` is imported already, and otherwise puts a finder on
:data:`sys.meta_path` that registers it right after ``dask.dataframe`` is first imported
(and then leaves). Either order of the two imports gives ``ddf.paired``; ``import
pairedstats.dask_frames`` imports no dask either.

**Roads.** :func:`road` decides how a call is computed; :data:`ROADS` holds each road. The one
road today is ``"memory"`` (:func:`in_memory`): each ``by=`` group (the whole table without
``by=``) is gathered into one task by dask (a shuffle on the ``by=`` columns), where the
pandas road reads its rows, in the table's order, with the same ``by=``: its random streams
are keyed by the group's key, so its numbers are those of the pandas road on
``ddf.compute()``, whatever the partitions. The results of the tasks are joined by their
group keys, in the table's order of first appearance (never by the order of the tasks). A
group's items x systems matrix must fit in a worker's memory; the rows may be many. The
warnings of the tasks are collected there and issued at the caller's line.
"""

from __future__ import annotations

import importlib.abc
import sys

import numpy as np

from . import accessors
from .core._warn import collected, warn
from .core.draws import root_entropy
from .core.summed import SummedDesign, merge_summed
from .inputs import DroppedDataWarning, dropped_message
from .inputs.frames import group_codes
from .inputs.labels import (
    as_list,
    missing_keys_error,
    missing_labels_error,
    object_array,
    pandas_module,
)
from .inputs.two_sample import missing_group_labels_error
from .methods._shared import registry
from .methods._shared.base import concat_groups

__all__ = [
    "MEMORY_PER_ROW",
    "MEMORY_SHARE",
    "ROADS",
    "STREAM_ROWS",
    "PairedDaskDataFrameAccessor",
    "in_memory",
    "install",
    "largest_group",
    "memory_share",
    "register",
    "road",
    "streamed",
    "worker_memory",
]

#: The module whose first import registers the accessor when it comes after pairedstats'.
TRIGGER = "dask.dataframe"
#: The columns that carry each row's place in the table (partition, row) through the shuffle.
PLACE = ("__pairedstats_partition__", "__pairedstats_row__")


class PairedDaskDataFrameAccessor:
    """Paired comparisons of the systems in a tidy or wide dask DataFrame.

    The methods of :class:`~pairedstats.accessors.PairedDataFrameAccessor`, with its keywords
    and its results (a pandas DataFrame, or the result object with ``as_result=True``),
    computed on the cluster: each ``by=`` group runs as a task of its own, on its rows in
    the table's order, with the numbers of the pandas road on ``ddf.compute()``.

    Examples
    --------
    >>> import dask.dataframe as dd
    >>> import pairedstats
    >>> runs = pairedstats.datasets.load_runs()
    >>> ddf = dd.from_pandas(runs, npartitions=4)
    >>> kw = dict(item="query", system="run", score="ndcg", by="collection")
    >>> table = ddf.paired.signtest(**kw, baseline="bm25")
    >>> table[["collection", "system_b", "wins", "losses"]]
      collection  system_b  wins  losses
    0   robust04  bm25+rm3    27      13
    1   robust04     dense    29      11
    2   robust04    hybrid    27      13
    3    msmarco  bm25+rm3    18      22
    4    msmarco     dense    24      16
    5    msmarco    hybrid    29      11
    >>> table.equals(ddf.compute().paired.signtest(**kw, baseline="bm25"))
    True
    """

    def __init__(self, frame):
        self._obj = frame


def _method(spec: registry.MethodSpec):
    def method(self, *args, **kwargs):
        given, keywords, as_result = accessors.call_arguments(spec, "frame", args, kwargs)
        seed = spec.role("seed")
        if seed is not None:  # one root for every task
            keywords[seed] = root_entropy(keywords[seed])
        run = ROADS[road(spec, self._obj, given, keywords)]
        result = run(spec, self._obj, given, keywords, as_result)
        return result if as_result else result.to_dataframe()

    # the pandas accessor's method, made from the same spec: its name, docs and signature
    pandas = getattr(accessors.PairedDataFrameAccessor, spec.name)
    method.__name__ = method.__qualname__ = spec.name
    method.__doc__, method.__signature__ = pandas.__doc__, pandas.__signature__
    method.__annotations__ = dict(pandas.__annotations__)
    return method


for _spec in registry.SPECS.values():
    setattr(PairedDaskDataFrameAccessor, _spec.name, _method(_spec))


# ------------------------------------------------------------------ registration
def register() -> None:
    """Register the accessor as ``dask.dataframe.DataFrame.paired`` (imports
    ``dask.dataframe``); a second call does nothing."""
    import dask.dataframe as dd
    from dask.dataframe.extensions import register_dataframe_accessor

    if vars(dd.DataFrame).get("paired") is None:
        register_dataframe_accessor("paired")(PairedDaskDataFrameAccessor)


class _AfterImport(importlib.abc.MetaPathFinder):
    """Finds nothing itself: when ``dask.dataframe`` is first imported, it hands the import
    system that module's own spec, whose loader registers the accessor once the module has
    run, and leaves :data:`sys.meta_path`."""

    def find_spec(self, fullname, path, target=None):
        if fullname != TRIGGER:
            return None
        for finder in list(sys.meta_path):
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(fullname, path, target)
            if spec is not None:
                break
        else:
            return None
        if spec.loader is not None and hasattr(spec.loader, "exec_module"):
            spec.loader = _RegisterAfter(spec.loader)
        return spec


class _RegisterAfter(importlib.abc.Loader):
    def __init__(self, loader):
        self.loader = loader

    def create_module(self, spec):
        return self.loader.create_module(spec)

    def exec_module(self, module):
        module.__loader__ = module.__spec__.loader = self.loader  # the module's own loader
        self.loader.exec_module(module)
        uninstall()
        try:
            register()
        except Exception as exc:  # never break the user's import of dask
            warn(
                f"pairedstats: the dask DataFrame accessor is not registered: {exc}",
                RuntimeWarning,
            )

    def __getattr__(self, name):
        return getattr(self.loader, name)


def install() -> None:
    """Register the accessor now if ``dask.dataframe`` is imported, else when it is (one
    finder on :data:`sys.meta_path`, removed once it has served)."""
    if TRIGGER in sys.modules:
        register()
    elif not any(isinstance(f, _AfterImport) for f in sys.meta_path):
        sys.meta_path.insert(0, _AfterImport())


def uninstall() -> None:
    """Remove the finder of :func:`install`, if it is there."""
    sys.meta_path[:] = [f for f in sys.meta_path if not isinstance(f, _AfterImport)]


# ------------------------------------------------------------------ the roads
def road(spec: registry.MethodSpec, frame, given: dict, keywords: dict) -> str:
    """The road of a call: a key of :data:`ROADS`.

    ``"stream"`` (:func:`streamed`) when the method has a streaming road (a keyword of role
    ``"stream"``) and the call asks for it (``stream=True``), or leaves it to the budget
    (``stream=None``) and the largest group (:func:`largest_group`), at
    :data:`MEMORY_PER_ROW` bytes a row, does not fit :func:`memory_share` of a worker's
    memory (:func:`worker_memory`); ``"memory"`` (:func:`in_memory`) otherwise: each group's
    items x systems matrix is built in one task. A streaming road chosen by the budget sets
    the call's keyword to True; a method without one refuses a group over the budget (a
    MemoryError that says what to do) rather than load it.
    """
    name = spec.role("stream")
    if name is not None and keywords[name] is not None:
        return "stream" if keywords[name] is True or keywords[name] is np.True_ else "memory"
    try:
        by = as_list(given.get("by"), "by")
    except (TypeError, ValueError):
        by = None
    if by is None or not all(_is_column(frame, b) for b in by):
        return "memory"  # whose reading says what is wrong
    largest = largest_group(frame, by)
    if largest * MEMORY_PER_ROW <= memory_share() * worker_memory():
        return "memory"
    if name is None:
        raise MemoryError(
            f"{spec.name} needs every item of a group at once (ranks, permutations, exact "
            f"tails or draws over the whole group), and the largest group, {largest:,} rows "
            f"(about {largest * MEMORY_PER_ROW / 2**20:,.0f} MiB on the in-memory road), does "
            f"not fit {memory_share():.0%} of a worker's memory "
            f"({worker_memory() / 2**20:,.0f} MiB). Sample the items of each group by a hash "
            "of their labels that every process computes alike (keep = ddf[item]"
            ".map_partitions(pd.util.hash_pandas_object, index=False) % 10 == 0; ddf[keep] "
            "keeps whole items, one in ten) or aggregate per group first; or, when the "
            "workers hold more than that, raise the share: "
            "dask.config.set({'pairedstats.memory-share': 0.9})."
        )
    keywords[name] = True
    return "stream"


#: Bytes of a worker's memory per row of a group that the in-memory road takes: the pandas
#: road's peak on a tidy table of 10 million rows (1 million items x 10 systems, 1,000
#: resamples, Parquet read included) was 1,482 MiB, 155 bytes a row.
MEMORY_PER_ROW = 160
#: The share of a worker's memory the in-memory road may fill.
MEMORY_SHARE = 0.5
#: Rows of a task of the streaming road: the rows are shuffled into this many per partition
#: (about 40 MB of a worker's memory each, at :data:`MEMORY_PER_ROW`), whatever the
#: partitions they are read in.
STREAM_ROWS = 250_000


def largest_group(frame, by: list) -> int:
    """The rows of the largest ``by=`` group, or of the table: the in-memory road's largest
    task (one pass over the ``by=`` columns, or the Parquet footers)."""
    rows = frame.groupby(by).size().max() if by else frame.shape[0]
    return int(rows.compute())


def memory_share() -> float:
    """The share of a worker's memory the in-memory road may fill: dask's configuration
    ``pairedstats.memory-share``, else :data:`MEMORY_SHARE`."""
    import dask

    return float(dask.config.get("pairedstats.memory-share", MEMORY_SHARE))


def worker_memory() -> float:
    """The memory of the smallest worker of the current ``distributed`` client (its
    ``memory_limit``), or without a client (dask's local schedulers, which hold a task in
    this process) this machine's physical memory."""
    try:
        from distributed import get_client

        client = get_client()
    except (ImportError, ValueError):
        client = None
    if client is not None:
        limits = [w.get("memory_limit") or 0 for w in client.scheduler_info()["workers"].values()]
        if limits and min(limits) > 0:
            return float(min(limits))
    import os

    return float(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES"))


def in_memory(spec: registry.MethodSpec, frame, given: dict, keywords: dict, keep: bool):
    """The in-memory road: the pandas road on each ``by=`` group's rows in a task of its own
    (on the whole table in one task without ``by=``), the results joined by group key.

    A call whose arguments or column names are wrong is read first on the first partition
    alone, where the pandas road raises its own error (the names of the columns are the same
    in every partition); the error of a task (a group's duplicates, missing cells, labels or
    scores) is the pandas road's on the rows of that task's groups, the first in table order
    when several tasks fail.
    """
    import dask

    parts = frame.to_delayed()
    call = (spec.name, given, keywords, keep)
    try:
        by = as_list(given.get("by"), "by")
        named = all(_is_column(frame, n) for n in _names(spec, given))
    except (TypeError, ValueError):
        by, named = None, False
    if not named:  # the pandas road says which argument or column is wrong
        dask.delayed(_whole)(call, parts[0]).compute()
    if not (named and by):
        result, found = dask.compute(dask.delayed(_whole)(call, *parts))[0]
        _issued(found)
        return result
    return _grouped(spec, frame, call, by)


def streamed(spec: registry.MethodSpec, frame, given: dict, keywords: dict, keep: bool):
    """The streaming road: the table reduced to sums, partition by partition
    (:class:`~pairedstats.core.summed.SummedDesign`), the method run on the sums merged.

    One pass finds the systems and the group keys (as :func:`in_memory`'s); the keywords are
    checked on them before the rows are read. dask then shuffles the rows by ``by=`` and
    item, so that each partition holds every row of its items: there the pandas road reads
    them (its checks: duplicated pairs, missing cells, labels, scores; ``missing=``), and
    the method's ``summed`` reduces them to sums, which are merged in a tree of tasks. Memory
    per task: a partition's rows and the sums (of the order of resamples x systems per
    group). The numbers do not depend on the partitions: each item's weights are keyed by
    its label.
    """
    import dask

    item, system = given.get("item"), given.get("system")
    if spec.road != "paired" or item is None or system is None:
        raise ValueError(
            f"`stream=True`: the streaming road of {spec.name} reads a tidy table, each item's "
            "label keying its weights: give `item=` and `system=` (a wide table becomes tidy "
            "with ddf.melt(id_vars=[item], var_name='system', value_name='score'))."
        )
    other = [k for k in ("cluster", "strata", "replicate", "repeat") if given.get(k) is not None]
    if other:
        raise ValueError(
            f"`stream=True`: the streaming road sums items alone; `{other[0]}` is not "
            "supported on it. Use stream=False (each group in one task)."
        )
    by = as_list(given.get("by"), "by")
    if not all(_is_column(frame, n) for n in _names(spec, given)):
        dask.delayed(_whole)((spec.name, given, keywords, keep), frame.to_delayed()[0]).compute()
    label, counted = _labelled(spec, given)
    read = list(dict.fromkeys([*by, label, *(column for _, column in counted)]))
    found = dask.compute([dask.delayed(_found)(p, by, label, counted)
                          for p in frame[read].to_delayed()])[0]  # fmt: skip
    keys, systems = _table_labels(found, spec.road, by, label, counted)
    probe = SummedDesign(groups=(), systems=tuple(systems), pairs=(), group_names=tuple(by))
    if spec.metrics:  # a design per metric
        probe = {m: probe for m in as_list(given.get("score"), "score")}
    settings = spec.check(probe, spec.options(**keywords), keep=keep)  # before the pass
    columns = list(dict.fromkeys([*by, item, system, *as_list(given.get("score"), "score")]))
    tasks = max(1, -(-sum(f["rows"] for f in found) // STREAM_ROWS))
    shuffled = frame[columns].shuffle(on=[*by, item], npartitions=tasks)
    parts = [dask.delayed(_sums)(spec.name, given, settings, systems, p, i)
             for i, p in enumerate(shuffled.to_delayed())]  # fmt: skip
    while len(parts) > 1:  # a tree of merges, in the partitions' order
        parts = [dask.delayed(_merged)(*parts[i : i + 2]) for i in range(0, len(parts), 2)]
    _, sums, found = dask.compute(parts[0])[0]
    if isinstance(sums, BaseException):
        raise sums
    summed = _merge(sums, None, keys)
    _issued([w for w in found if w[1] is not DroppedDataWarning])  # one for the table:
    for design in summed.values() if spec.metrics else (summed,):
        dropped = int(design.n_dropped().sum())
        if dropped:
            items = dropped + int(design.n_items().sum())
            warn(dropped_message(dropped, items, bool(by)), DroppedDataWarning)
    return spec.execute(summed, keep, keywords)


#: The roads of a call, by the name :func:`road` gives.
ROADS = {"memory": in_memory, "stream": streamed}


def _names(spec, given: dict) -> list:
    """The column names a call gives (each must name a column of the table)."""
    names = [given[k] for k in ("item", "system", "group", "cluster", "strata", "replicate",
                                "repeat") if given.get(k) is not None]  # fmt: skip
    if given.get("score") is not None:
        names += as_list(given["score"], "score")
    if spec.road == "paired" and given.get("system") is None and given.get("systems") is not None:
        names += as_list(given["systems"], "systems")  # the columns of a wide table
    if spec.road == "two-sample" and given.get("group") is None:
        names += [given[k] for k in ("a", "b") if given.get(k) is not None]
    return [*names, *as_list(given.get("by"), "by")]


def _is_column(frame, name) -> bool:
    try:
        return name in frame.columns
    except TypeError:  # unhashable
        return False


def _whole(call: tuple, *parts):
    """The pandas road on the rows of ``parts`` (partitions, in the table's order)."""
    pd = pandas_module()
    frame = parts[0] if len(parts) == 1 else pd.concat(parts)
    return _run(call, frame, {})


def _run(call: tuple, frame, reader: dict) -> tuple:
    """The pandas road's result on ``frame``, and the warnings it issued (collected, for the
    caller to issue at the user's line)."""
    name, given, keywords, keep = call
    spec = registry.SPECS[name]
    with collected() as found:
        result = spec.execute(accessors.read_design(spec, "frame", frame, given, **reader),
                              keep, keywords)  # fmt: skip
    return result, found


def _issued(found: list) -> None:
    """Issue the warnings of the tasks at the user's line, each distinct one once."""
    for message, category in dict.fromkeys(found):
        warn(message, category)


def _labelled(spec, given: dict) -> tuple:
    """The column of the compared labels (a tidy table's systems or two groups), and the
    columns whose missing labels are counted over the whole table, as the pandas road counts
    them."""
    if spec.road == "paired" and given.get("system") is not None:
        counted = [("system", given["system"])]
        if given.get("item") is not None and given.get("repeat") is None:
            counted.insert(0, ("item", given["item"]))
        return given["system"], counted
    if spec.road == "two-sample" and given.get("group") is not None:
        return given["group"], [("group", given["group"])]
    return None, []


def _grouped(spec, frame, call: tuple, by: list):
    """The road with ``by=``: labels and keys found partition by partition, the rows shuffled
    by their keys, each partition of groups read by the pandas road in the table's order."""
    import dask

    threads = spec.role("threads")
    if threads is not None and call[2][threads] is None:
        # dask runs the tasks in parallel: one thread each (the numbers do not move)
        call = (call[0], call[1], {**call[2], threads: 1}, call[3])
    taken = [c for c in PLACE if _is_column(frame, c)]
    if taken:
        raise ValueError(
            f"`by`: the table has a column named {taken[0]!r}, the name the dask road gives "
            "each row's place in the table while it shuffles the groups; rename it first."
        )
    label, counted = _labelled(spec, call[1])
    found = [dask.delayed(_found)(p, by, label, counted) for p in frame.to_delayed()]
    labels = dask.delayed(_table_labels)(found, spec.road, by, label, counted)
    placed = frame.map_partitions(_placed, meta=_placed(frame._meta, None))
    shuffled = placed.shuffle(on=by, npartitions=frame.npartitions, shuffle_method="tasks")
    runs = [dask.delayed(_groups)(call, p, labels) for p in shuffled.to_delayed()]
    (keys, _), outcomes = dask.compute(labels, runs)
    outcomes = sorted((o for o in outcomes if o is not None), key=lambda o: o[1])
    failed = [o for o in outcomes if o[0] == "error"]
    if failed:
        raise failed[0][2]
    _issued([w for o in outcomes for w in o[2][1]])
    return concat_groups([o[2][0] for o in outcomes], keys)


def _placed(part, partition_info=None):
    """The partition with each row's place in the table: partition number, row number."""
    number = 0 if partition_info is None else partition_info["number"]
    return part.assign(**{PLACE[0]: np.int64(number), PLACE[1]: np.arange(len(part))})


def _sums(name: str, given: dict, settings, systems: list, part, place: int) -> tuple:
    """A partition of whole items reduced to sums by the method's ``summed``:
    ``(place, sums, warnings)``, ``sums`` None for an empty partition, or the exception of
    the pandas road's checks."""
    spec = registry.SPECS[name]
    if not len(part):
        return place, None, []
    with collected() as found:
        try:
            design = accessors.read_design(spec, "frame", part, given, system_order=systems,
                                           items_slice=True)  # fmt: skip
            sums = spec.summed(design, settings)
        except (TypeError, ValueError) as exc:  # the pandas road's refusals
            sums = exc
    return place, sums, found


def _merged(first: tuple, second: tuple | None = None) -> tuple:
    """Two partitions' sums merged (:func:`_sums`): the error of the first partition that
    failed, if any."""
    if second is None:
        return first
    (place, a, found), (_, b, more) = first, second
    for sums in (a, b):
        if isinstance(sums, BaseException):
            return place, sums, []
    if a is None or b is None:
        return place, (b if a is None else a), found + more
    return place, _merge(a, b), found + more


def _merge(a, b=None, keys=None):
    """The sums ``a`` and ``b`` merged (:func:`~pairedstats.core.summed.merge_summed`; per
    metric for a method of several), their groups in the order of ``keys``."""
    if isinstance(a, dict):
        return {m: _merge(a[m], None if b is None else b[m], keys) for m in a}
    return merge_summed([a] if b is None else [a, b], keys)


def _found(part, by: list, label, counted: list) -> dict:
    """What the whole table's order and checks need of one partition: its first rows of each
    key, its labels in order of appearance, and its counts of missing labels."""
    return {
        "rows": len(part),
        "keys": part[by].drop_duplicates() if by else None,
        "null_keys": int(part[by].isna().any(axis=1).sum()) if by else 0,
        "labels": None if label is None else part[label].drop_duplicates(),
        "nulls": [int(part[column].isna().sum()) for _, column in counted],
    }


def _table_labels(found: list, road_name: str, by: list, label, counted: list):
    """The table's group keys and compared labels in order of first appearance, once its
    labels are checked as the pandas road checks them (counted over every partition)."""
    pd = pandas_module()
    for at, (arg, column) in enumerate(counted):
        missing = sum(f["nulls"][at] for f in found)
        if missing:
            if arg == "group":
                raise missing_group_labels_error(column, missing)
            raise missing_labels_error(arg, column, missing)
    missing = sum(f["null_keys"] for f in found)
    if missing:
        raise missing_keys_error(missing, by)
    keys = group_codes(pd.concat([f["keys"] for f in found]), by)[1] if by else [()]
    if label is None:
        return keys, None
    seen = pd.concat([f["labels"] for f in found])
    if road_name == "two-sample":  # as two_sample_from_frame codes them
        return keys, list(pd.factorize(object_array(seen.tolist()))[1])
    return keys, list(seen.factorize(sort=False)[1])


def _groups(call: tuple, part, labels: tuple):
    """The pandas road on a partition of whole groups, its rows in the table's order: None
    for an empty partition, else ``("result", place, (result, warnings))`` or ``("error",
    place, exception)``, ``place`` the (partition, row) of its first row in the table."""
    if not len(part):
        return None
    ordered = part.sort_values(list(PLACE), kind="stable")
    place = tuple(int(v) for v in ordered[list(PLACE)].iloc[0])
    frame = ordered.drop(columns=list(PLACE))
    spec = registry.SPECS[call[0]]
    reader = {}
    if labels[1] is not None:
        reader = {"system_order" if spec.road == "paired" else "group_order": labels[1]}
    try:
        return "result", place, _run(call, frame, reader)
    except (TypeError, ValueError) as exc:  # the pandas road's refusals
        return "error", place, exc
