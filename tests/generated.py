"""Everything made from the method registry, rewritten by one command (from the repository's
root)::

    python -m tests.generated --write   # after adding or changing a method, a keyword, an export
    python -m tests.generated --check   # exit 1, listing what is stale

What it makes, each a part of its own (``--check`` lists the stale ones by these names):

* the type stubs, ``src/pairedstats/accessors.pyi`` and ``__init__.pyi``
  (:mod:`pairedstats._stubs`, from the live signatures);
* ``docs/cli.md``: the help of every command (block ``help``);
* ``docs/api.rst``: the accessor methods on DataFrame, Dataset and DataArray (one per
  registered method), the functions on arrays and designs (every function of
  :data:`pairedstats.methods.EXPORTS`), the methods' result classes and their warning classes
  (every class of ``EXPORTS`` that no hand-written list of the page names already);
* ``docs/architecture.md``: the method folders of the map, each with its spec's summary.

A generated block lies between two marker lines, ``.. generated: NAME (COMMAND)`` and
``.. end generated`` in reStructuredText (comments), ``<!-- generated: NAME (COMMAND) -->`` and
``<!-- end generated -->`` in Markdown, ``    # generated: NAME (COMMAND)`` and
``    # end generated`` in the map (a code block). Everything outside the markers is written
by hand and kept. ``tests/test_generated.py`` fails, naming the command, when a part is stale.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import re
import sys
import textwrap
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pairedstats
from pairedstats import _stubs, cli
from pairedstats.methods import EXPORTS, FOLDERS
from pairedstats.methods._shared.registry import SPECS, MethodSpec

#: The one command (named by every check of what it makes).
COMMAND = "python -m tests.generated --write"
ROOT = Path(__file__).resolve().parents[1]
API = "docs/api.rst"
ARCHITECTURE = "docs/architecture.md"
CLI = "docs/cli.md"
#: The map's width (docs/architecture.md) and the column where a folder's summary starts.
MAP_WIDTH, MAP_COLUMN = 92, 19


# ---------------------------------------------------------------------------- blocks
@dataclass(frozen=True)
class Markers:
    """The marker lines of a generated block in one kind of file (``{}``: its name)."""

    begin: str
    end: str
    padded: bool  # a blank line after the begin marker and before the end marker

    def begin_pattern(self) -> re.Pattern:
        before, after = self.begin.split("{}")
        return re.compile(f"^{re.escape(before)}(?P<name>[\\w-]+){re.escape(after)}$")


RST = Markers(f".. generated: {{}} ({COMMAND})", ".. end generated", padded=True)
MARKDOWN = Markers(f"<!-- generated: {{}} (`{COMMAND}`) -->", "<!-- end generated -->", True)
MAP = Markers(f"    # generated: {{}} ({COMMAND})", "    # end generated", padded=False)


def blocks(text: str, markers: Markers, where: str) -> dict[str, tuple[int, int]]:
    """Each generated block's name -> the line numbers of its begin and end markers."""
    lines, out, begin = text.splitlines(), {}, None
    pattern = markers.begin_pattern()
    for number, line in enumerate(lines):
        match = pattern.match(line)
        if match and begin is None:
            begin = (match["name"], number)
        elif line == markers.end and begin is not None:
            if begin[0] in out:
                raise ValueError(f"{where}: the generated block {begin[0]!r} twice")
            out[begin[0]] = (begin[1], number)
            begin = None
        elif match or line == markers.end:
            raise ValueError(
                f"{where}, line {number + 1}: a generated block's marker out of order"
            )
    if begin is not None:
        raise ValueError(f"{where}: the generated block {begin[0]!r} has no {markers.end!r}")
    return out


def outside_blocks(text: str, markers: Markers, where: str) -> str:
    """``text`` without its generated blocks (what is written by hand)."""
    lines = text.splitlines()
    spans = sorted(blocks(text, markers, where).values())
    keep = [
        line for number, line in enumerate(lines)
        if not any(begin <= number <= end for begin, end in spans)
    ]  # fmt: skip
    return "\n".join(keep) + "\n"


def block_text(text: str, markers: Markers, name: str, where: str) -> str:
    """The lines between the markers of block ``name``."""
    begin, end = blocks(text, markers, where)[name]
    return "\n".join(text.splitlines()[begin + 1 : end])


def _body(content: str, markers: Markers) -> str:
    return f"\n{content}\n" if markers.padded else content


def replace_blocks(text: str, markers: Markers, contents: dict, where: str) -> str:
    """``text`` with each block's lines replaced by ``contents[name]`` (None: kept as is)."""
    found = blocks(text, markers, where)
    unknown, missing = sorted(set(found) - set(contents)), sorted(set(contents) - set(found))
    if unknown:
        raise ValueError(
            f"{where}: unknown generated block(s) {unknown}: {sorted(contents)} known"
        )
    if missing:
        raise ValueError(
            f"{where} has no generated block {missing}: put the lines "
            f"{markers.begin.format(missing[0])!r} and {markers.end!r} where it goes"
        )
    lines = text.splitlines()
    for name, (begin, end) in sorted(found.items(), key=lambda item: -item[1][0]):
        if contents[name] is not None:
            lines[begin + 1 : end] = _body(contents[name], markers).split("\n")
    return "\n".join(lines) + ("\n" if text.endswith("\n") else "")


# ---------------------------------------------------------------------------- docs/api.rst
_DIRECTIVE = re.compile(r"^\.\. (?P<name>[\w:-]+)::\s*(?P<argument>\S*)")


def listed(text: str) -> list[str]:
    """The entries of an rst page's autosummary lists, qualified by their ``currentmodule``."""
    module, names, inside = "", [], False
    for line in text.splitlines():
        directive = _DIRECTIVE.match(line)
        if directive:
            inside = directive["name"] == "autosummary"
            if directive["name"] == "currentmodule":
                module = directive["argument"]
        elif inside and line.startswith("   ") and not line.strip().startswith(":"):
            names.append(f"{module}.{line.strip()}")
        elif line.strip() and not line.startswith(" "):
            inside = False
    return names


def _current_module(text: str, line_number: int) -> str:
    modules = [m["argument"] for m in map(_DIRECTIVE.match, text.splitlines()[:line_number])
               if m and m["name"] == "currentmodule"]  # fmt: skip
    return modules[-1] if modules else ""


def _autosummary(names: list[str], template: str | None = None) -> str | None:
    if not names:
        return ""
    options = ["   :toctree: generated/", *([f"   :template: {template}"] if template else [])]
    return "\n".join([".. autosummary::", *options, "", *(f"   {n}" for n in names)])


_ACCESSOR_TEMPLATE = "autosummary/accessor_method.rst"
_CLASS_TEMPLATE = "class_with_methods.rst"


def api_lists() -> dict[str, tuple[str, list[str], str | None]]:
    """Each block of docs/api.rst -> its ``currentmodule``, the names the registry gives it
    (those listed by hand elsewhere on the page left in), its autosummary template."""
    methods = [spec.name for spec in SPECS.values()]
    functions = [n for n, obj in EXPORTS.items() if callable(obj) and not isinstance(obj, type)]
    classes = [n for n, obj in EXPORTS.items() if isinstance(obj, type)]
    warnings = [n for n in classes if issubclass(EXPORTS[n], Warning)]
    return {
        "dataframe-accessor": (
            "pandas", [f"DataFrame.paired.{m}" for m in methods], _ACCESSOR_TEMPLATE),
        "dataset-accessor": (
            "xarray", [f"Dataset.paired.{m}" for m in methods], _ACCESSOR_TEMPLATE),
        "dataarray-accessor": (
            "xarray", [f"DataArray.paired.{m}" for m in methods], _ACCESSOR_TEMPLATE),
        "functions": ("pairedstats", functions, None),
        "results": ("pairedstats", [n for n in classes if n not in warnings], _CLASS_TEMPLATE),
        "warnings": ("pairedstats", warnings, _CLASS_TEMPLATE),
    }  # fmt: skip


def api_blocks(text: str) -> dict[str, str]:
    """docs/api.rst's generated blocks: every name of the registry that the page does not
    list by hand (outside the blocks), under the block's ``currentmodule``."""
    by_hand = set(listed(outside_blocks(text, RST, API)))
    found = blocks(text, RST, API)
    out = {}
    for name, (module, names, template) in api_lists().items():
        if name in found and _current_module(text, found[name][0]) != module:
            raise ValueError(
                f"{API}: the generated block {name!r} lists names of {module}: it belongs "
                f"after `.. currentmodule:: {module}`"
            )
        out[name] = _autosummary([n for n in names if f"{module}.{n}" not in by_hand], template)
    return out


# ---------------------------------------------------------------------------- the map
def folder_spec(folder: str) -> MethodSpec:
    """The spec that the method folder ``folder`` registers (the one whose ``run`` it holds)."""
    package = f"{pairedstats.__name__}.methods.{folder}"
    found = [s for s in SPECS.values() if s.run.__module__.startswith(package + ".")]
    if len(found) != 1:
        raise ValueError(
            f"methods/{folder}/ registers {len(found)} specs (the map reads one per folder): "
            f"{[s.name for s in found]}"
        )
    return found[0]


def map_line(folder: str, summary: str) -> str:
    """A folder's line of the map: its name, then its summary wrapped at the map's width."""
    summary = re.sub(r"``([^`]+)``", r"\1", " ".join(summary.split()))
    summary = summary.replace(" - ", "\N{NO-BREAK SPACE}-\N{NO-BREAK SPACE}")  # b - a: one word
    head = f"    {folder}/ ".ljust(MAP_COLUMN)
    text = textwrap.fill(summary, MAP_WIDTH, initial_indent=head, break_on_hyphens=False,
                         subsequent_indent=" " * MAP_COLUMN)  # fmt: skip
    return text.replace("\N{NO-BREAK SPACE}", " ")


def map_blocks(text: str) -> dict[str, str]:
    """docs/architecture.md's generated block: one line per method folder."""
    del text  # made from the registry alone
    lines = [map_line(folder, folder_spec(folder).summary) for folder in FOLDERS]
    return {"method-folders": "\n".join(lines)}


# ---------------------------------------------------------------------------- docs/cli.md
def _help_of(argv: list[str]) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.suppress(SystemExit):
        cli.main([*argv, "--help"])
    return out.getvalue().rstrip()


def help_section() -> str:
    """The help of ``pairedstats`` and of each command, as docs/cli.md shows them (at 90
    columns)."""
    saved = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = "90"
    try:
        parts = ["```text", _help_of([]), "```"]
        # compare METHOD has METHOD's options (tests/test_cli_compare.py checks it): the
        # bootstrap's stands for them all
        for command in [*cli.COMMANDS, cli.COMPARE, f"{cli.COMPARE} bootstrap"]:
            parts += ["", f"### `pairedstats {command}`", "", "```text",
                      _help_of(command.split()), "```"]  # fmt: skip
    finally:
        if saved is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = saved
    return "\n".join(parts)


#: argparse 3.13 lays the help out anew: docs/cli.md shows (and is checked against) the
#: help of the Pythons before it, and is kept as it is on a later one.
HELP_CURRENT = sys.version_info < (3, 13)


def cli_blocks(text: str) -> dict[str, str | None]:
    """docs/cli.md's generated block: the help of every command."""
    del text
    return {"help": help_section() if HELP_CURRENT else None}


# ---------------------------------------------------------------------------- the parts
#: Each page with generated blocks -> its markers and what makes its blocks from its text.
PAGES: dict[str, tuple[Markers, Callable[[str], dict]]] = {
    API: (RST, api_blocks),
    ARCHITECTURE: (MAP, map_blocks),
    CLI: (MARKDOWN, cli_blocks),
}


def _stub_name(path: Path) -> str:
    return f"src/pairedstats/{path.name}"


def _page_parts(page: str, text: str) -> dict[str, tuple[str, str]]:
    """Each block of ``page``: its part name -> (its text now, its text generated)."""
    markers, make = PAGES[page]
    generated = replace_blocks(text, markers, make(text), page)
    return {
        f"{page}: {name}": (
            block_text(text, markers, name, page), block_text(generated, markers, name, page))
        for name in blocks(text, markers, page)
    }  # fmt: skip


def _wanted(name: str, only: str) -> bool:
    """A part (or a page, ``name``) that ``only`` asks for: one whose name starts with it."""
    return name.startswith(only) or only.startswith(name)


def stale(only: str = "") -> list[str]:
    """The parts whose committed text differs from what the registry gives (those whose name
    starts with ``only``), by name: ``docs/api.rst: functions``, ``src/pairedstats/...``."""
    out = []
    if any(_wanted(_stub_name(p), only) for p in _stubs.stubs()):
        out += [_stub_name(p) for p in _stubs.check()]
    for page in PAGES:
        if _wanted(page, only):
            text = (ROOT / page).read_text()
            out += [name for name, (now, made) in _page_parts(page, text).items() if now != made]
    return [name for name in out if name.startswith(only)]


def _this_checkout() -> None:
    """Refuse a package imported from elsewhere (another checkout, an installed wheel): the
    stubs would be written there, and the docs checked against its registry."""
    package = ROOT / "src" / "pairedstats"
    if package != _stubs.PACKAGE:
        raise SystemExit(
            f"pairedstats is imported from {_stubs.PACKAGE}, not from this checkout's "
            f"{package}: install it from here (pip install -e .) or set PYTHONPATH=src"
        )


def write() -> list[str]:
    """Rewrite every stale part; return the files written."""
    _this_checkout()
    written = [_stub_name(p) for p in _stubs.write()]
    for page, (markers, make) in PAGES.items():
        path = ROOT / page
        text = path.read_text()
        new = replace_blocks(text, markers, make(text), page)
        if new != text:
            path.write_text(new)
            written.append(page)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tests.generated",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    action = parser.add_mutually_exclusive_group(required=True)
    action.add_argument("--write", action="store_true", help="rewrite what is stale")
    action.add_argument("--check", action="store_true", help="exit 1 if a part is stale")
    args = parser.parse_args(argv)
    _this_checkout()
    if not HELP_CURRENT:
        print(f"{CLI}'s help kept as it is: it is written with Python < 3.13", file=sys.stderr)
    if args.write:
        for name in write():
            print(f"wrote {name}")
        return 0
    parts = stale()
    for name in parts:
        print(f"stale: {name}", file=sys.stderr)
    if parts:
        print(f"run `{COMMAND}` and commit the changes", file=sys.stderr)
    return 1 if parts else 0


if __name__ == "__main__":
    raise SystemExit(main())
