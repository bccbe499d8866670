"""A method's keywords as one typed record: each keyword is a field of a frozen dataclass,
its type the field's annotation, its default the field's default, and its documentation and
command-line option an :class:`About` in ``Annotated`` metadata.

A method declares ``class Options(OptionsRecord)`` in its ``settings.py``; the registry
reads it (:func:`keywords_of`) to build the signatures (with their annotations, which the
type stubs are written from), the docstrings' Parameters sections and the command-line
options. The method's ``check(design, options, *, keep)`` returns its ``Settings``, a
subclass of its ``Options`` (:class:`Checked`) that keeps every keyword under its name,
checked, and adds only what it derives; :meth:`OptionsRecord.record` is that record as a
dict, and the results' metadata is made from it (:meth:`Checked.metadata`).

Keywords several methods share are ``Annotated`` aliases in
:mod:`pairedstats.methods._shared.keywords` (``Alternative``, ``Progress``, ``Rng``...); a
method gives its own description by wrapping one in another ``Annotated`` with an
``About(doc)``: the innermost ``About`` gives the option, the outer ones override what they set.
"""

from __future__ import annotations

import collections.abc as abc
import dataclasses
import functools
import inspect
import types
import typing
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

import numpy as np

from ... import _validation

__all__ = ["About", "Checked", "OptionsRecord", "keywords_of", "plain_type", "type_text"]

#: What a keyword ``role`` tells the generic accessors (:class:`About`).
ROLES = ("seed", "threads", "columns", "stream")


@dataclass(frozen=True)
class About:
    """The documentation and command-line option of a keyword (``Annotated`` metadata).

    Attributes
    ----------
    doc : str
        What the keyword means (numpydoc description, plain text).
    option : dict or None
        Keywords of :meth:`argparse.ArgumentParser.add_argument` (``flags`` for other flags
        than ``--name``); None: not a command-line option. The choices of a ``Literal``
        type are added when the option gives none.
    labels : str or None
        On the command line the typed text is matched against the labels of this input
        (``"system"``): ``--baseline 0`` finds the integer label 0.
    type : str
        The numpydoc type line, when the one made from the annotation (:func:`type_text`)
        would not say it well; "" to make it.
    role : str or None
        What the generic accessors do with it: ``"seed"`` (one root entropy for every chunk
        of a lazy sweep), ``"threads"`` (one thread per dask task), ``"columns"`` (given,
        the score variables are the columns of one design, not a sweep), ``"stream"``
        (chooses the streaming road of a dask DataFrame: :mod:`pairedstats.dask_frames`).
    recorded : bool
        Whether the results' metadata records it (False for what does not change the
        numbers: a progress bar, threads, a monitor).
    """

    doc: str = ""
    option: dict | None = None
    labels: str | None = None
    type: str = ""
    role: str | None = None
    recorded: bool = True

    def __post_init__(self):
        if self.role is not None and self.role not in ROLES:
            raise ValueError(f"unknown keyword role {self.role!r}; one of {ROLES}")

    def over(self, inner: About) -> About:
        """``inner`` with what this one sets (its non-default fields) replacing it."""
        changed = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)
                   if getattr(self, f.name) != f.default}  # fmt: skip
        return dataclasses.replace(inner, **changed)


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
    positional : bool
        A method's required argument, given by position or by name: it comes first in
        every signature (after ``self``, ``design`` or the arrays), without a default
        (``default`` is ``inspect.Parameter.empty``; ``items_for``'s ``difference``). On the
        command line its option is required.
    annotation : object
        Its type, as the signatures and the type stubs give it.
    role : str or None
        What the generic accessors do with it (:class:`~.options.About`).
    recorded : bool
        Whether the results' metadata records it (:class:`~.options.About`).
    """

    name: str
    default: object = None
    type: str = ""
    doc: str = ""
    option: dict | None = None
    labels: str | None = None
    positional: bool = False
    annotation: object = typing.Any
    role: str | None = None
    recorded: bool = True

    def __post_init__(self):
        if self.positional and self.default is not inspect.Parameter.empty:
            raise ValueError(f"{self.name}: a positional keyword has no default")


def _unwrap(hint) -> tuple[object, About]:
    """The plain type of an annotation and its :class:`About`, the outer ones over the inner."""
    about = About()
    while typing.get_origin(hint) is typing.Annotated:
        hint, *extras = typing.get_args(hint)
        for extra in extras:
            if isinstance(extra, About):
                about = extra.over(about)
    # Annotated flattens nested metadata innermost first: apply it in that order
    return hint, about


def plain_type(hint) -> object:
    """The annotation without its ``Annotated`` metadata."""
    return _unwrap(hint)[0]


@dataclass(frozen=True, kw_only=True)
class OptionsRecord:
    """The base of every method's options record: a frozen dataclass whose fields are the
    method's keywords, in signature order (see the module's documentation)."""

    @classmethod
    def options_type(cls) -> type:
        """The options record itself (for a ``Settings``, the record it extends)."""
        return next(c for c in cls.__mro__ if issubclass(c, OptionsRecord)
                    and not issubclass(c, Checked) and dataclasses.is_dataclass(c))  # fmt: skip

    def record(self) -> dict:
        """The keywords by name, as given (an options record) or checked (``Settings``)."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self.options_type())}


@dataclass(frozen=True, kw_only=True)
class Checked(OptionsRecord):
    """The base of a method's ``Settings``: ``class Settings(Options, Checked)`` keeps every
    keyword of the record, checked, and declares the fields the check derives."""

    #: The method's name in the metadata (``"signrank"``).
    method_name: ClassVar[str] = ""

    @classmethod
    def of(cls, options: OptionsRecord, /, **derived) -> Checked:
        """The settings from ``options`` (checked values replace given ones by name in
        ``derived``) and the derived fields."""
        return cls(**{**options.record(), **derived})

    def metadata(self, **facts) -> dict:
        """The re-run metadata of a result (:func:`pairedstats._validation.metadata`): the
        record's keywords by name (those whose :class:`About` is ``recorded``), then
        ``facts``. Two names are taken by the package: the method's name is ``method``, so
        a keyword ``method`` is recorded as ``method_requested``; a seed (``role="seed"``)
        is recorded as ``seed_entropy``, the root entropy that re-runs the call; a callable
        is recorded by its name."""
        out = {}
        for keyword in keywords_of(self.options_type()):
            if not keyword.recorded:
                continue
            value = getattr(self, keyword.name)
            if callable(value):
                value = getattr(value, "__name__", repr(value))
            if keyword.role == "seed":
                out["seed_entropy"] = value
            else:
                out["method_requested" if keyword.name == "method" else keyword.name] = value
        return _validation.metadata(self.method_name, **out, **facts)


# ------------------------------------------------------------------ reading a record
@functools.cache
def keywords_of(options: type) -> tuple[Keyword, ...]:
    """The keywords of an options record, in field order (the registry's view of them)."""
    hints = typing.get_type_hints(options, include_extras=True)
    out = []
    for f in dataclasses.fields(options):
        plain, about = _unwrap(hints[f.name])
        default = inspect.Parameter.empty if f.default is dataclasses.MISSING else f.default
        out.append(Keyword(
            f.name, default, about.type or type_text(plain, default), about.doc,
            option=_option(about.option, plain), labels=about.labels,
            positional=default is inspect.Parameter.empty, annotation=plain,
            role=about.role, recorded=about.recorded,
        ))  # fmt: skip
    return tuple(out)


def _option(option: dict | None, plain) -> dict | None:
    """The command-line option, with the choices of a ``Literal`` type."""
    if option is None:
        return None
    choices = _literals(plain)
    if choices and "choices" not in option and "action" not in option:
        return {"type": str.lower, **option, "choices": tuple(c for c in choices if c is not None)}
    return dict(option)


def _members(hint) -> tuple:
    """The members of a union (the type itself when it is not one)."""
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        return typing.get_args(hint)
    return (hint,)


def _literals(hint) -> tuple:
    """The values of the ``Literal`` members of ``hint``."""
    return tuple(v for m in _members(hint) if typing.get_origin(m) is Literal
                 for v in typing.get_args(m))  # fmt: skip


#: Types -> their word in a numpydoc type line.
_WORDS = {
    bool: "bool", int: "int", float: "float", str: "str", abc.Hashable: "label",
    abc.Callable: "callable", abc.Mapping: "mapping", abc.Iterable: "sequence",
    abc.Sequence: "sequence", np.random.SeedSequence: "SeedSequence",
    np.random.BitGenerator: "BitGenerator", np.random.Generator: "Generator",
}  # fmt: skip


def _word(hint) -> str:
    origin = typing.get_origin(hint)
    if origin is Literal:
        return "{" + ", ".join(_shown(v) for v in typing.get_args(hint)) + "}"
    if origin in (abc.Sequence, abc.Iterable) and typing.get_args(hint):
        return f"list of {_word(typing.get_args(hint)[0])}"
    if hint in _WORDS or origin in _WORDS:
        return _WORDS.get(hint) or _WORDS[origin]
    return getattr(hint, "__name__", str(hint))


def _shown(value) -> str:
    """A default as a docstring shows it: strings in double quotes, large ints grouped."""
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10_000:
        return f"{value:_}"
    return repr(value)


def type_text(hint, default: Any = inspect.Parameter.empty) -> str:
    """The numpydoc type line of a keyword from its annotation and default
    (``'{"auto", "exact"}, default "auto"'``, ``"int, optional"``).

    Examples
    --------
    >>> type_text(Literal["two-sided", "less"], "two-sided")
    '{"two-sided", "less"}, default "two-sided"'
    >>> type_text(int | None, None)
    'int, optional'
    """
    members = [m for m in _members(hint) if m is not type(None)]
    words = " or ".join(dict.fromkeys(_word(m) for m in members)) or "None"
    if default is inspect.Parameter.empty:
        return words
    if default is None:
        return f"{words}, optional" if len(members) < len(_members(hint)) else words
    return f"{words}, default {_shown(default)}"
