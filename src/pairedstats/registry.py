"""The methods, each declared once: a :class:`MethodSpec` names the method's keywords (with
their defaults, documentation and command-line options) and the function that computes it on a
design. The functions on arrays, the ``.paired`` accessors of DataFrames, Datasets and
DataArrays, and the command line are built from the specs, so a keyword is typed in one place.

A method module declares its spec and registers it (``SPEC = register(MethodSpec(...))``);
:func:`array_function` and :func:`design_function` make its public functions, and
:mod:`pairedstats.accessors` and :mod:`pairedstats.cli` read :data:`SPECS`.
"""

from __future__ import annotations

import inspect
import textwrap
from collections.abc import Callable
from dataclasses import dataclass, field

from .core.inference import ALTERNATIVES

__all__ = [
    "AS_RESULT",
    "INPUTS",
    "PROGRESS",
    "RNG",
    "SPECS",
    "WORKERS",
    "Keyword",
    "MethodSpec",
    "alternative_keyword",
    "array_function",
    "baseline_keyword",
    "design_function",
    "docstring",
    "register",
    "signature",
]


@dataclass(frozen=True)
class Keyword:
    """One keyword of a method or of an input road.

    Attributes
    ----------
    name : str
        The keyword.
    default : object
        Its default.
    type : str
        The numpydoc type line (``"int, default 10_000"``).
    doc : str
        What it means (numpydoc description, plain text).
    option : dict or None
        Keywords of :meth:`argparse.ArgumentParser.add_argument` for the command line (the
        flag is ``--name`` with dashes unless ``flags`` is given); None: not an option.
    labels : str or None
        On the command line, the typed text is matched against the labels of this input
        (``"system"``, ``"group"``): ``--baseline 0`` finds the integer label 0.
    """

    name: str
    default: object = None
    type: str = ""
    doc: str = ""
    option: dict | None = None
    labels: str | None = None


@dataclass(frozen=True)
class MethodSpec:
    """A method: its name, its keywords and the function that computes it on a design.

    Attributes
    ----------
    name : str
        The method's name, as a function and accessor method (``"tukey_hsd"``).
    command : str
        The command-line subcommand (``"tukey-hsd"``).
    summary : str
        The first line of every docstring.
    description : str
        What the method does (the docstrings' extended summary).
    road : {"paired", "two-sample"}
        Which input road reads the data: items x systems, or two independent samples.
    inputs : dict
        Container (``"frame"``, ``"dataset"``, ``"array"``) -> the names of the input
        keywords it takes (see :data:`INPUTS`).
    keywords : tuple of Keyword
        The method's own keywords, in signature order.
    run : callable
        ``run(design, keep, **keywords) -> result``: validates the keywords and computes
        every group; ``keep`` asks to keep what only the result object holds (e.g. the
        bootstrap distribution).
    returns, warns, notes : str
        numpydoc sections of the function's docstring (without their headers).
    examples : dict
        Container (``"array"``, ``"frame"``, ``"dataset"``, ``"design"``) -> doctest text.
    refuses : dict
        Keywords of other methods that this one refuses on purpose -> why (a TypeError
        that says so, rather than "unexpected keyword").
    """

    name: str
    command: str
    summary: str
    description: str
    road: str
    inputs: dict
    keywords: tuple
    run: Callable
    returns: str = ""
    warns: str = ""
    notes: str = ""
    examples: dict = field(default_factory=dict)
    refuses: dict = field(default_factory=dict)

    def keyword(self, name: str) -> Keyword:
        """The keyword ``name`` of the method (a StopIteration if it has none)."""
        return next(k for k in self.keywords if k.name == name)

    def compute(self, design, *, keep: bool = True, **keywords):
        """``run`` on ``design`` with the keywords checked and their defaults filled in."""
        arguments = bind(self, "design", (design,), keywords)
        return self.run(arguments.pop("design"), keep=keep, **arguments)


#: Registered specs by name, in registration order.
SPECS: dict[str, MethodSpec] = {}


def register(spec: MethodSpec) -> MethodSpec:
    """Add ``spec`` to :data:`SPECS` and return it."""
    if spec.road not in ROADS:
        raise ValueError(f"unknown road {spec.road!r}; one of {sorted(ROADS)}")
    for container, names in spec.inputs.items():
        unknown = [n for n in names if n not in INPUTS[spec.road][container]]
        if unknown:
            raise ValueError(f"{spec.name}: unknown {container} inputs {unknown}")
    SPECS[spec.name] = spec
    return spec


# ------------------------------------------------------------------ input keywords
_MISSING = Keyword(
    "missing",
    "raise",
    '{"raise", "complete"}, default "raise"',
    "Missing scores (NaN, or an item without a row for some system) raise a ValueError "
    'that counts them; "complete" keeps the items scored for every system and reports how '
    "many were dropped (the ``n_dropped`` column).",
    option=dict(type=str.lower, choices=("raise", "complete"), help="'complete': keep the "
                "items scored for every system"),
)  # fmt: skip
_SYSTEMS = Keyword(
    "systems",
    None,
    "sequence, optional",
    "The systems to compare, in the order that sets the pairs and which side of a pair is "
    "a (any ordered collection: list, array, Index). Default: every system, in order of "
    "first appearance (tidy) or of the columns (wide, arrays).",
    option=dict(nargs="+", metavar="NAME", help="select and order systems"),
    labels="system",
)
_BY = Keyword(
    "by",
    None,
    "str or list of str, optional",
    "Columns whose values split the table into groups, each computed on its own (its "
    "numbers do not depend on the other groups); the group keys lead the result's columns.",
    option=dict(nargs="+", metavar="COL", help="run per group of these columns"),
)
_CLUSTER_DOC = (
    ": whole clusters are resampled, and the estimate is the item mean (total of the "
    "cluster sums over the total count), not the mean of cluster means."
)
_REPLICATE_DOC = (
    ": repeated runs of each system (training seeds, epochs, folds). Items and replicates "
    "are resampled crossed (the pigeonhole bootstrap), so the interval covers both the "
    "sampling of the items and the run-to-run variation. Replicates are paired when two "
    "systems have the same labels (resampled once for both) and unpaired when their labels "
    "are disjoint; partly overlapping labels are refused. Every item needs a score for every "
    "replicate of every system (a balanced design)."
)
_STRATA_DOC = (
    ": items (or clusters) are resampled within each stratum, with the same draws for "
    "every system, and stratum mean differences are combined with ``weights``."
)


def _paired_frame() -> dict:
    return {
        "item": Keyword(
            "item", None, "str, optional",
            "Column of the item labels. A tidy table needs it; a wide table's items are "
            "its index unless ``item`` names a column.",
            option=dict(metavar="COL", help="item column (query, example, ...)"),
        ),
        "system": Keyword(
            "system", None, "str, optional",
            "Column of the system labels: the table is tidy, one row per item and system "
            "(``item`` and ``score`` are needed too). Without it the table is wide: one row "
            "per item, one column per system.",
            option=dict(metavar="COL", help="system column (tidy tables)"),
        ),
        "score": Keyword(
            "score", None, "str or list of str, optional",
            "Column of the scores of a tidy table (several columns for ``statistic``).",
            option=dict(metavar="COL", help="score column (tidy tables)"),
        ),
        "systems": _SYSTEMS,
        "by": _BY,
        "cluster": Keyword(
            "cluster", None, "str, optional", f"Column of each item's cluster{_CLUSTER_DOC}",
            option=dict(metavar="COL", help="resample whole clusters"),
        ),
        "strata": Keyword(
            "strata", None, "str, optional", f"Column of each item's stratum{_STRATA_DOC}",
            option=dict(metavar="COL", help="resample within strata"),
        ),
        "replicate": Keyword(
            "replicate", None, "str, optional",
            f"Column of the replicate labels of a tidy table, one row per (item, system, "
            f"replicate){_REPLICATE_DOC}",
            option=dict(metavar="COL", help="repeated runs (seeds): resample them crossed"),
        ),
        "missing": _MISSING,
    }  # fmt: skip


def _paired_dataset() -> dict:
    return {
        "item": Keyword("item", "item", 'str, default "item"', "Dimension of the items."),
        "system": Keyword(
            "system", "system", 'str, default "system"', "Dimension of the systems."
        ),
        "score": Keyword(
            "score", None, "str or list of str, optional",
            "Data variables to compare (default: all). Several add a ``score`` dimension to "
            "the result; with ``statistic`` they are the statistic's columns instead.",
        ),
        "systems": _SYSTEMS,
        "cluster": Keyword(
            "cluster", None, "str, optional",
            f"A coordinate along the items naming each item's cluster{_CLUSTER_DOC}",
        ),
        "strata": Keyword(
            "strata", None, "str, optional",
            f"A coordinate along the items naming each item's stratum{_STRATA_DOC}",
        ),
        "replicate": Keyword(
            "replicate", None, "str, optional",
            "Dimension of the repeated runs; a system's replicates are the labels along it "
            f"where it has scores (NaN elsewhere){_REPLICATE_DOC}",
        ),
        "missing": _MISSING,
    }  # fmt: skip


def _paired_array() -> dict:
    return {
        "scores": Keyword(
            "scores", inspect.Parameter.empty,
            "array_like, shape (n_items, n_systems) or (n_items, n_systems, n_columns)",
            "One row per item, one column per system (several score columns for "
            "``statistic``).",
        ),
        "systems": Keyword(
            "systems", None, "sequence, optional",
            "Labels of the systems, in column order (default ``0, 1, ...``).",
        ),
        "cluster": Keyword(
            "cluster", None, "array_like, shape (n_items,), optional",
            f"Each item's cluster label{_CLUSTER_DOC}",
        ),
        "strata": Keyword(
            "strata", None, "array_like, shape (n_items,), optional",
            f"Each item's stratum label{_STRATA_DOC}",
        ),
        "replicate": Keyword(
            "replicate", None, "array_like, shape (n_replicates,), optional",
            "Labels of the runs along the last axis of ``scores``, which then has shape "
            "(n_items, n_systems, n_replicates), NaN where a system has no such run"
            f"{_REPLICATE_DOC}",
        ),
        "missing": _MISSING,
    }  # fmt: skip


_AB_DOC = (
    "Which two groups: labels in the ``group`` column (tidy) or two column names (wide). "
    "Differences read b minus a."
)


def _two_sample_frame() -> dict:
    return {
        "score": Keyword(
            "score", None, "str, optional", "Column of the scores (tidy tables).",
            option=dict(metavar="COL", help="score column (tidy tables)"),
        ),
        "group": Keyword(
            "group", None, "str, optional", "Column of the group labels (tidy tables).",
            option=dict(metavar="COL", help="column of the group labels (tidy)"),
        ),
        "a": Keyword(
            "a", None, "label, optional", _AB_DOC,
            option=dict(flags=("-a", "--a"), metavar="LABEL", help="group (or column) a"),
            labels="group",
        ),
        "b": Keyword(
            "b", None, "label, optional", _AB_DOC,
            option=dict(flags=("-b", "--b"), metavar="LABEL", help="group (or column) b"),
            labels="group",
        ),
        "by": _BY,
    }  # fmt: skip


def _two_sample_dataset() -> dict:
    return {
        "score": Keyword(
            "score", None, "str, optional", "The data variable of the scores (default: all)."
        ),
        "group": Keyword(
            "group", "group", 'str, default "group"',
            "A dimension holding the two group labels, or a coordinate along ``item`` giving "
            "each value's group.",
        ),
        "a": Keyword("a", None, "label, optional", "The label of group a."),
        "b": Keyword("b", None, "label, optional", "The label of group b (b minus a)."),
        "item": Keyword(
            "item", "item", 'str, default "item"', "Dimension of the values of a sample."
        ),
    }  # fmt: skip


def _two_sample_array() -> dict:
    sample = "array_like, 1-D"
    return {
        "a": Keyword("a", inspect.Parameter.empty, sample, "The scores of group a."),
        "b": Keyword(
            "b", inspect.Parameter.empty, sample,
            "The scores of group b (finite numbers, at least one each). Differences read b "
            "minus a.",
        ),
    }  # fmt: skip


#: Input keywords by road and container: the same keyword means the same on every method.
INPUTS = {
    "paired": {"frame": _paired_frame(), "dataset": _paired_dataset(), "array": _paired_array()},
    "two-sample": {
        "frame": _two_sample_frame(),
        "dataset": _two_sample_dataset(),
        "array": _two_sample_array(),
    },
}
ROADS = tuple(INPUTS)
#: Positional inputs of the functions on arrays.
POSITIONAL = {"scores", "a", "b"}

RNG = Keyword(
    "rng",
    None,
    "None, int, SeedSequence, BitGenerator or Generator",
    "Seed material (SPEC 7), the root of the random streams; recorded as "
    '``metadata["seed_entropy"]``, which passed back as ``rng`` re-runs the call.',
    option=dict(type=int, metavar="SEED", help="random seed"),
)
PROGRESS = Keyword(
    "progress",
    False,
    "bool, default False",
    "Show a tqdm progress bar (needs ``pairedstats[progress]``). The numbers do not depend on it.",
)
WORKERS = Keyword(
    "workers",
    None,
    "int, optional",
    "Threads (default: the CPUs this process may use). The numbers do not depend on it.",
)


def baseline_keyword(doc: str) -> Keyword:
    """The ``baseline`` keyword (a system label, a = baseline), with the method's description."""
    return Keyword(
        "baseline",
        None,
        "label, optional",
        doc,
        option=dict(metavar="NAME", help="compare every system with this one"),
        labels="system",
    )


def alternative_keyword(doc: str) -> Keyword:
    """The ``alternative`` keyword (about b - a), with the method's own description."""
    return Keyword(
        "alternative",
        "two-sided",
        '{"two-sided", "less", "greater"}, default "two-sided"',
        doc,
        option=dict(type=str.lower, choices=ALTERNATIVES, help="about b - a (default two-sided)"),
    )


AS_RESULT = Keyword(
    "as_result",
    False,
    "bool, default False",
    "Return the result object (its numbers as arrays, displays, plots and, for the "
    "bootstrap, the distribution of the replicates) instead of a table.",
)


# ------------------------------------------------------------------ signatures and docs
def input_keywords(spec: MethodSpec, container: str) -> list[Keyword]:
    """The input keywords ``spec`` takes in ``container``, in signature order."""
    table = INPUTS[spec.road][container]
    return [table[name] for name in spec.inputs[container]]


def all_keywords(spec: MethodSpec, container: str) -> list[Keyword]:
    """Inputs, then the method's keywords, then ``as_result`` for the accessors."""
    extra = [AS_RESULT] if container in ("frame", "dataset") else []
    if container == "design":
        return [*spec.keywords]
    return [*input_keywords(spec, container), *spec.keywords, *extra]


def signature(spec: MethodSpec, container: str, *, self_: bool = False) -> inspect.Signature:
    """The signature of ``spec``'s function (``"array"``, ``"design"``) or accessor method."""
    params = [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)] if self_ else []
    if container == "design":
        params.append(inspect.Parameter("design", inspect.Parameter.POSITIONAL_OR_KEYWORD))
    for k in all_keywords(spec, container):
        kind = (
            inspect.Parameter.POSITIONAL_OR_KEYWORD
            if k.name in POSITIONAL and container == "array"
            else inspect.Parameter.KEYWORD_ONLY
        )
        params.append(inspect.Parameter(k.name, kind, default=k.default))
    return inspect.Signature(params)


_CONTAINER_TEXT = {
    "array": "",
    "design": "\n\nThe function of the accessors: every group of a design, each on its own "
    "streams (keyed by the seed and the group key), so its numbers do not depend on the "
    "other groups.",
    "frame": "\n\nOn a tidy table (one row per item and system) or a wide one (one row per "
    "item, one column per system); see the reading rules in the inputs guide. Returns a "
    "DataFrame, one row per comparison and group.",
    "dataset": "\n\nOn a Dataset: every dimension other than the input dimensions is a sweep, "
    "computed in one call; the result is a Dataset over the sweep dimensions plus a "
    "comparison dimension, with the numbers of the pandas path on each slice. A dask-backed "
    "Dataset stays lazy, with the same numbers as in memory.",
}


def _section(title: str, body: str) -> str:
    body = textwrap.dedent(body).strip("\n")
    return f"\n\n{title}\n{'-' * len(title)}\n{body}" if body else ""


def parameters_text(keywords: list[Keyword]) -> str:
    """The numpydoc Parameters section's body for ``keywords``."""
    lines = []
    for k in keywords:
        lines.append(f"{k.name} : {k.type}" if k.type else k.name)
        lines.extend("    " + line for line in textwrap.wrap(k.doc, 88))
    return "\n".join(lines)


def docstring(spec: MethodSpec, container: str) -> str:
    """The numpydoc docstring of ``spec``'s function or accessor method in ``container``."""
    keywords = all_keywords(spec, container)
    if container == "design":
        design = "TwoSampleDesign" if spec.road == "two-sample" else "PairedDesign"
        keywords = [Keyword("design", None, design, "The data, in groups."), *keywords]
    returns = spec.returns
    if container == "frame":
        returns = "pandas.DataFrame or result\n    The result's table (``as_result=False``)."
    elif container == "dataset":
        returns = "xarray.Dataset or result\n    The result's Dataset (``as_result=False``)."
    text = spec.summary + "\n\n" + textwrap.dedent(spec.description).strip("\n")
    text += _CONTAINER_TEXT[container]
    text += _section("Parameters", parameters_text(keywords))
    text += _section("Returns", returns)
    text += _section("Warns", spec.warns)
    if container in ("array", "design"):
        text += _section("Notes", spec.notes)
    text += _section("Examples", spec.examples.get(container, ""))
    return text


# ------------------------------------------------------------------ the functions
def bind(spec: MethodSpec, container: str, args: tuple, kwargs: dict) -> dict:
    """Every keyword of a call, defaults filled in; an unknown one is a TypeError naming it
    and listing the method's keywords."""
    sig = signature(spec, container)
    refuse(spec.name, spec.refuses, kwargs)
    try:
        bound = sig.bind(*args, **kwargs)
    except TypeError as exc:
        known = ", ".join(sig.parameters)
        raise TypeError(f"{spec.name}: {exc}; its keywords are {known}.") from None
    bound.apply_defaults()
    return dict(bound.arguments)


def refuse(name: str, refuses: dict, kwargs: dict) -> None:
    """A TypeError saying why ``name`` does not take a keyword of ``refuses`` given in
    ``kwargs`` (e.g. ``replicate``, which only the bootstrap resamples)."""
    for keyword, reason in refuses.items():
        if keyword in kwargs:
            raise TypeError(f"{name} does not take `{keyword}`: {reason}")


#: Why the methods that do not resample repeated runs refuse ``replicate=``.
NO_REPLICATE = (
    "Use bootstrap(..., replicate=...), which resamples items and replicates crossed, or "
    "average the replicates first (then the items are the only random factor)."
)


def _split(spec: MethodSpec, container: str, arguments: dict) -> tuple[dict, dict]:
    names = set(spec.inputs[container]) if container != "design" else {"design"}
    inputs = {k: v for k, v in arguments.items() if k in names}
    method = {k: v for k, v in arguments.items() if k not in names and k != "as_result"}
    return inputs, method


def _finish(fn: Callable, spec: MethodSpec, container: str, module: str) -> Callable:
    fn.__name__ = fn.__qualname__ = spec.name + ("_design" if container == "design" else "")
    fn.__module__ = module
    fn.__doc__ = docstring(spec, container)
    fn.__signature__ = signature(spec, container)
    return fn


def array_function(spec: MethodSpec, read: Callable, module: str) -> Callable:
    """The public function of ``spec`` on arrays: ``read(**inputs)`` makes the design."""

    def function(*args, **kwargs):
        inputs, keywords = _split(spec, "array", bind(spec, "array", args, kwargs))
        return spec.run(read(**inputs), keep=True, **keywords)

    return _finish(function, spec, "array", module)


def design_function(spec: MethodSpec, module: str) -> Callable:
    """The public function of ``spec`` on a design (all groups)."""

    def function(*args, **kwargs):
        arguments = bind(spec, "design", args, kwargs)
        return spec.compute(arguments.pop("design"), **arguments)

    return _finish(function, spec, "design", module)
