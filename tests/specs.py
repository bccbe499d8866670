"""The default case of each registered method, built from its spec.

The suites that run every method (the registry's, the command line's, ``compare``'s, the
property suite's) build a method's small default call here rather than list the methods:
the spec's ``road`` and ``inputs`` say what data it reads, ``binary_scores`` whether its
scores are 0/1, ``example_keywords`` the keywords such a call gives (the value of a required
keyword: ``items_for``'s ``difference``). A method added to the registry is run by those
suites without editing them; one whose default call cannot be built fails
``tests/test_registry.py::test_every_method_has_a_default_call``, saying what to add to its
spec. (``tests/golden/calls.py``, run as a script too, builds its default calls itself.)
"""

from __future__ import annotations

import argparse
import inspect

from pairedstats import cli
from pairedstats.methods._shared.registry import SPECS, MethodSpec, signature

__all__ = ["SPECS", "command_argv", "keywords", "missing_examples", "missing_message"]


def _own(spec: MethodSpec) -> dict:
    """The method's own keywords (its function on designs, without ``design``)."""
    return dict(list(signature(spec, "design").parameters.items())[1:])


def missing_examples(spec: MethodSpec) -> list[str]:
    """The required keywords of ``spec`` (no default) that ``example_keywords`` gives no
    value."""
    return [
        name
        for name, p in _own(spec).items()
        if p.default is inspect.Parameter.empty and name not in spec.example_keywords
    ]


def missing_message(spec: MethodSpec, missing) -> str:
    """What to add to ``spec`` so that its default call can be made."""
    return (
        f"{spec.name}: the test suites' default call needs a value for the required "
        f"keyword(s) {list(missing)}: give them in its spec, "
        f"src/pairedstats/methods/{spec.name}/spec.py, as MethodSpec(..., "
        "example_keywords={" + ", ".join(f"{m!r}: ..." for m in missing) + "}) (items_for "
        "gives {'difference': 0.3})"
    )


def keywords(spec: MethodSpec, **settings) -> dict:
    """The method keywords of the default call: those of ``settings`` (a suite's small
    ``n_resamples``, its ``rng``) that the method takes, then the spec's
    ``example_keywords``."""
    own = _own(spec)
    return {**{k: v for k, v in settings.items() if k in own}, **spec.example_keywords}


def _command(spec: MethodSpec, runs: bool) -> argparse.ArgumentParser:
    parser = cli.build_parser()
    (commands,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    if not runs:
        return commands.choices[spec.command]
    compare = commands.choices[cli.COMPARE]
    (methods,) = [a for a in compare._actions if isinstance(a, argparse._SubParsersAction)]
    return methods.choices[spec.command]


def command_argv(spec: MethodSpec, given: dict, *, runs: bool = False) -> list[str]:
    """``given`` (keyword -> value) as options of ``spec``'s command (``runs``: of
    ``compare``'s), those it has not left out: ``{"difference": 0.3}`` ->
    ``["--difference", "0.3"]``; a list is one option with several values, True a flag."""
    actions = {a.dest: a for a in _command(spec, runs)._actions if a.option_strings}
    argv = []
    for name, value in given.items():
        if name not in actions:
            continue
        option = max(actions[name].option_strings, key=len)
        if actions[name].nargs == 0:  # a flag
            argv += [option] if value else []
        elif isinstance(value, list | tuple):
            argv += [option, *map(str, value)]
        else:
            argv += [option, str(value)]
    return argv
