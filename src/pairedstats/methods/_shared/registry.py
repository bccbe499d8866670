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
import typing
from collections.abc import Callable
from dataclasses import dataclass, field

from ...core.design import PairedDesign, TwoSampleDesign
from .keywords import AS_RESULT, INPUTS, NO_STREAM, POSITIONAL, ROADS
from .options import Keyword, keywords_of

__all__ = [
    "SPECS",
    "MethodSpec",
    "annotations",
    "array_function",
    "bind",
    "design_function",
    "docstring",
    "read_arrays",
    "register",
    "signature",
]


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
    options : type
        The method's options record (:class:`~.options.OptionsRecord`): its keywords, in
        signature order, with their types, defaults, documentation and command-line options
        (read as :attr:`keywords`, a tuple of :class:`~.options.Keyword` in signature
        order, which the signatures, docstrings and command line are built from).
    check : callable
        ``check(design, options, *, keep) -> Settings``: the one validation of the method's
        keywords against the design (or ``{metric: design}`` with ``metrics``), a frozen
        ``Settings`` that keeps the record, checked, and adds what it derives (its
        ``settings.py``); ``keep`` asks to keep what only the result object holds (e.g. the
        bootstrap distribution).
    run : callable
        ``run(settings) -> result``: computes every group (its ``run.py``).
    returns : str or dict
        numpydoc Returns section (without its header); a dict gives it per container.
    warns, notes : str
        numpydoc sections of the function's docstring (without their headers).
    examples : dict
        Container (``"array"``, ``"frame"``, ``"dataset"``, ``"design"``) -> doctest text.
    refuses : dict
        Keywords of other methods that this one refuses on purpose -> why (a TypeError
        that says so, rather than "unexpected keyword").
    table : bool
        The result has a table (``to_dataframe``, ``to_dataset``), which the accessors return
        unless ``as_result=True``; False: the accessors return the result object itself
        (the report).
    metrics : bool
        ``score`` names several metrics, each read as a design of its own and computed on
        its own (the report): ``check`` receives ``{metric: design}``.
    lazy : bool
        A dask-backed Dataset stays lazy (the result is computed chunk by chunk of the sweep
        dimensions); False: it is computed in memory (methods whose result is not one row
        per comparison).
    formats : tuple
        The command line's ``--format`` choices.
    input_docs : dict
        Input keyword name -> the Keyword that replaces the road's declaration for this
        method (the report's ``score``, a list of metrics), or a dict of them by container
        (``"frame"``, ``"dataset"``, ``"array"``) where the containers declare it apart.
    binary_scores : bool
        The method takes pass/fail scores only (0 or 1, bool or numbers; McNemar's test):
        its check refuses any other score, and the test suites draw such scores for it.
    example_keywords : dict
        Keyword -> value: the method's keywords in the small default call that the test
        suites build for it (the registry, command-line and property tests, the golden
        calls): a value for every required keyword (``items_for``'s ``difference``), and any
        keyword such a call needs. Without it, the default call gives only the inputs (and
        a small ``n_resamples`` and an ``rng`` where the method takes them).
    report_test : str or None
        The method can be the report's ``test`` (``report(test=name)``): the name the
        report prints for it (``"paired bootstrap"``); None: it cannot.
    summed : callable or None
        ``summed(design, settings) -> SummedDesign``: a slice of the items, reduced to the
        sums the method reads on its streaming road
        (:class:`~pairedstats.core.summed.SummedDesign`; ``settings`` checked on the
        table's labels); ``check`` and ``run`` then take the slices' sums merged. None: the
        method has no streaming road (:mod:`pairedstats.dask_frames`).
    """

    name: str
    command: str
    summary: str
    description: str
    road: str
    inputs: dict
    options: type
    check: Callable
    run: Callable
    returns: str = ""
    warns: str = ""
    notes: str = ""
    examples: dict = field(default_factory=dict)
    refuses: dict = field(default_factory=dict)
    table: bool = True
    metrics: bool = False
    lazy: bool = True
    formats: tuple = ("text", "csv", "json", "markdown", "latex")
    input_docs: dict = field(default_factory=dict)
    binary_scores: bool = False
    keywords: tuple = field(init=False, repr=False)
    example_keywords: dict = field(default_factory=dict)
    report_test: str | None = None
    summed: Callable | None = None

    def __post_init__(self):
        object.__setattr__(self, "keywords", keywords_of(self.options))

    def role(self, role: str) -> str | None:
        """The keyword with this role (``"seed"``, ``"threads"``, ``"columns"``), if any."""
        return next((k.name for k in self.keywords if k.role == role), None)

    def keyword(self, name: str) -> Keyword:
        """The keyword ``name`` of the method (a StopIteration if it has none)."""
        return next(k for k in self.keywords if k.name == name)

    def compute(self, design, *, keep: bool = True, **keywords):
        """The method on ``design``, its keywords bound to the signature (defaults filled in)."""
        arguments = bind(self, "design", (design,), keywords)
        return self.execute(arguments.pop("design"), keep, arguments)

    def execute(self, design, keep: bool, keywords: dict):
        """The run of every method: ``run(check(design, Options(**keywords), keep=keep))``."""
        return self.run(self.check(design, self.options(**keywords), keep=keep))


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


# ------------------------------------------------------------------ signatures and docs
def input_keywords(spec: MethodSpec, container: str) -> list[Keyword]:
    """The input keywords ``spec`` takes in ``container``, in signature order."""
    own = {name: doc.get(container) if isinstance(doc, dict) else doc
           for name, doc in spec.input_docs.items()}  # fmt: skip
    table = {**INPUTS[spec.road][container], **{k: v for k, v in own.items() if v is not None}}
    return [table[name] for name in spec.inputs[container]]


def _positional(keyword: Keyword, container: str) -> bool:
    """Given by position too: the arrays of a function on arrays, a method's required
    argument (``Keyword.positional``)."""
    return keyword.positional or (container == "array" and keyword.name in POSITIONAL)


def all_keywords(spec: MethodSpec, container: str) -> list[Keyword]:
    """The positional ones first (the arrays, then the method's required arguments), then
    the inputs, the method's keywords and ``as_result`` for the accessors."""
    extra = [AS_RESULT] if container in ("frame", "dataset") and spec.table else []
    inputs = [] if container == "design" else input_keywords(spec, container)
    ordered = [*inputs, *spec.keywords, *extra]
    first = [k for k in ordered if _positional(k, container)]
    return [*first, *(k for k in ordered if not _positional(k, container))]


def signature(spec: MethodSpec, container: str, *, self_: bool = False) -> inspect.Signature:
    """The signature of ``spec``'s function (``"array"``, ``"design"``) or accessor method."""
    params = [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)] if self_ else []
    if container == "design":
        design = TwoSampleDesign if spec.road == "two-sample" else PairedDesign
        params.append(
            inspect.Parameter("design", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=design)
        )
    for k in all_keywords(spec, container):
        kind = (
            inspect.Parameter.POSITIONAL_OR_KEYWORD
            if _positional(k, container)
            else inspect.Parameter.KEYWORD_ONLY
        )
        annotation = k.annotation if k.annotation is not typing.Any else inspect.Parameter.empty
        params.append(inspect.Parameter(k.name, kind, default=k.default, annotation=annotation))
    return inspect.Signature(params)


def annotations(sig: inspect.Signature) -> dict:
    """The ``__annotations__`` of a generated function with signature ``sig`` (read by
    :func:`typing.get_type_hints`, hence by the type stubs)."""
    return {name: p.annotation for name, p in sig.parameters.items()
            if p.annotation is not p.empty}  # fmt: skip


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
#: The same, for a method whose result is not one row per comparison (its own Returns).
_OWN_CONTAINER_TEXT = {
    "frame": "\n\nOn a tidy table (one row per item and system) or a wide one (one row per "
    "item, one column per system); see the reading rules in the inputs guide.",
    "dataset": "\n\nOn a Dataset: every dimension other than the input dimensions is a sweep, "
    "whose cells are groups.",
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
    returns = spec.returns.get(container, "") if isinstance(spec.returns, dict) else spec.returns
    if container == "frame" and not isinstance(spec.returns, dict):
        returns = "pandas.DataFrame or result\n    The result's table (``as_result=False``)."
    elif container == "dataset" and not isinstance(spec.returns, dict):
        returns = "xarray.Dataset or result\n    The result's Dataset (``as_result=False``)."
    text = spec.summary + "\n\n" + textwrap.dedent(spec.description).strip("\n")
    own = isinstance(spec.returns, dict)
    text += _OWN_CONTAINER_TEXT.get(container, "") if own else _CONTAINER_TEXT[container]
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
    streamless = {} if spec.role("stream") else {"stream": NO_STREAM}
    refuse(spec.name, {**streamless, **spec.refuses}, kwargs)
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
    fn.__annotations__ = annotations(fn.__signature__)
    return fn


def read_arrays(road: str, inputs: dict):
    """The design of a call on arrays, its ``inputs`` read by the road's reader:
    :func:`pairedstats.inputs.design_from_array` (paired) or
    :func:`pairedstats.inputs.two_sample_from_arrays` (two samples)."""
    from ...inputs import design_from_array, two_sample_from_arrays

    if road == "two-sample":
        return two_sample_from_arrays(inputs["a"], inputs["b"])
    return design_from_array(inputs.pop("scores"), **inputs)


def array_function(spec: MethodSpec, module: str, read: Callable | None = None) -> Callable:
    """The public function of ``spec`` on arrays: ``read(**inputs)`` makes the design (by
    default :func:`read_arrays` of the spec's road)."""

    def function(*args, **kwargs):
        inputs, keywords = _split(spec, "array", bind(spec, "array", args, kwargs))
        design = read_arrays(spec.road, inputs) if read is None else read(**inputs)
        return spec.execute(design, True, keywords)

    return _finish(function, spec, "array", module)


def design_function(spec: MethodSpec, module: str) -> Callable:
    """The public function of ``spec`` on a design (all groups)."""

    def function(*args, **kwargs):
        arguments = bind(spec, "design", args, kwargs)
        return spec.compute(arguments.pop("design"), **arguments)

    return _finish(function, spec, "design", module)
