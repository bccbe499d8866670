"""The shape of the package (issue "one engine"): small modules and functions, an import
graph without cycles in which the core sits at the bottom, and a map of the code
(docs/architecture.md) that names what is there."""

import ast
import re
from pathlib import Path

import pytest
from tests import generated

SRC = Path(__file__).parents[1] / "src" / "pairedstats"
ARCHITECTURE = Path(__file__).parents[1] / "docs" / "architecture.md"
FILES = sorted(SRC.rglob("*.py"))


def _module(path: Path) -> str:
    parts = path.relative_to(SRC.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module(p): p for p in FILES}


def _code_lines(node) -> int:
    """Lines of a function without its docstring."""
    body = node.body
    first = body[0]
    if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
        if len(body) == 1:
            return 0
        first = body[1]
    return node.end_lineno - first.lineno + 1


@pytest.mark.parametrize("path", FILES, ids=[_module(p) for p in FILES])
def test_modules_under_600_lines_and_functions_under_80(path):
    text = path.read_text()
    assert len(text.splitlines()) <= 600
    long = [
        (node.name, _code_lines(node))
        for node in ast.walk(ast.parse(text))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and _code_lines(node) > 80
    ]
    assert not long


def _imports(name: str, path: Path) -> set[str]:
    """The package modules ``name`` imports when it is imported (module level only)."""
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    out = set()
    for node in ast.parse(path.read_text()).body:  # top level: lazy imports do not count
        if isinstance(node, ast.ImportFrom):
            base = package
            for _ in range(node.level - 1):
                base = base.rsplit(".", 1)[0]
            target = (
                node.module if node.level == 0 else ".".join(filter(None, [base, node.module]))
            )
            if not target or not target.startswith("pairedstats"):
                continue
            for alias in node.names:  # `from . import x` imports the module x
                sub = f"{target}.{alias.name}"
                out.add(sub if sub in MODULES else target)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name.startswith("pairedstats"))
    return {m for m in out if m in MODULES and m != name}


def test_the_import_graph_has_no_cycles_and_the_core_is_at_the_bottom():
    graph = {name: _imports(name, path) for name, path in MODULES.items()}
    # a package imports its own submodules when it is imported; that is not a cycle
    for name in graph:
        graph[name] = {m for m in graph[name] if not (m + ".").startswith(name + ".")}
    done, active = set(), []

    def visit(node):
        if node in active:
            cycle = [*active[active.index(node) :], node]
            pytest.fail("import cycle: " + " -> ".join(cycle))
        if node in done:
            return
        active.append(node)
        for nxt in sorted(graph[node]):
            visit(nxt)
        active.pop()
        done.add(node)

    for node in sorted(graph):
        visit(node)
    for name, targets in graph.items():
        if name.startswith("pairedstats.core"):
            assert all(t.startswith("pairedstats.core") for t in targets), name


def _method_imports(path: Path) -> set[str]:
    """Every package module a module imports, lazily or not (each ``from ... import``
    resolved, at any depth of the module)."""
    name = _module(path)
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            base = package
            for _ in range(max(node.level - 1, 0)):
                base = base.rsplit(".", 1)[0]
            target = (
                node.module if node.level == 0 else ".".join(filter(None, [base, node.module]))
            )
            out.update(f"{target}.{a.name}" for a in node.names)
            out.add(target)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
    return {m for m in out if m.startswith("pairedstats.methods.")}


def test_no_method_folder_imports_another():
    """A method is its folder: it reaches another method's pieces only through what they
    share (``methods/_shared``) or the registry, so that one method can be read, changed or
    removed alone. Found: ``folder -> the other folder's module``; move the shared piece to
    ``methods/_shared``."""
    methods = SRC / "methods"
    found = []
    for path in sorted(methods.rglob("*.py")):
        parts = path.relative_to(methods).parts
        if len(parts) < 2 or parts[0] == "_shared":
            continue
        for target in sorted(_method_imports(path)):
            other = target.split(".")[2]
            if other not in (parts[0], "_shared") and (methods / other).is_dir():
                found.append(f"{parts[0]}/{'/'.join(parts[1:])} -> {target}")
    assert not found, "method folders import each other: " + "; ".join(found)


def test_no_private_name_is_imported_from_another_module():
    """A name with a leading underscore stays in its module: what two modules share is
    public in one of them (a private module, such as ``_validation``, is imported as a
    whole or for its public names)."""
    found = []
    for path in FILES:
        name = _module(path)
        package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.ImportFrom) or node.level == 0:
                continue
            base = package
            for _ in range(node.level - 1):
                base = base.rsplit(".", 1)[0]
            target = ".".join(filter(None, [base, node.module]))
            for alias in node.names:
                private = alias.name.startswith("_") and not alias.name.startswith("__")
                if private and f"{target}.{alias.name}" not in MODULES:
                    found.append(f"{name} imports {alias.name} from {target}")
    assert not found, "; ".join(found)


# ---------------------------------------------------------------------------- the map
#: A folder named in the map: ``bootstrap/`` (not ``<method>/``, nor the ``draws/`` of
#: ``draws/jit.py``); a module: ``tukey.py`` or ``draws/jit.py``.
_FOLDER = re.compile(r"(?<![\w/<>.-])([a-z_][a-z0-9_]*)/(?![\w/])")
_MODULE = re.compile(r"(?<![\w/.-])((?:[a-z_][a-z0-9_]*/)*[a-z_][a-z0-9_]*\.py)\b")


def _map_sections() -> dict[str, str]:
    """The map (the first code block of docs/architecture.md) by section: a line that starts
    at the margin opens one, named by its first word (``methods/``, ``core/``), and the
    indented lines after it belong to it."""
    block = ARCHITECTURE.read_text().split("```")[1]
    sections: dict[str, str] = {}
    name = ""
    for line in block.splitlines():
        if line[:1].strip():
            name = line.split()[0]
        sections[name] = sections.get(name, "") + line + "\n"
    return sections


def _folders(path: Path) -> set[str]:
    return {p.name for p in path.iterdir() if p.is_dir() and p.name != "__pycache__"}


def _named(section: str, header: str) -> tuple[set[str], set[str]]:
    """The folders and modules a section names, its own header left out."""
    text = section.split(header, 1)[1]
    return set(_FOLDER.findall(text)), set(_MODULE.findall(text))


def test_the_map_names_every_method_folder_and_core_module_and_nothing_else():
    """docs/architecture.md's map names every method folder (``methods/``: its generated
    block, one line per folder with its spec's summary, made by ``tests/generated.py``),
    every module and folder of the core (``core/``, written by hand), and nothing in either
    that does not exist."""
    sections = _map_sections()
    assert {"methods/", "core/"} <= set(sections), "the map has lost its methods/ or core/"
    methods, core = SRC / "methods", SRC / "core"
    text = ARCHITECTURE.read_text()
    block = generated.block_text(text, generated.MAP, "method-folders", generated.ARCHITECTURE)
    listed = {line.split()[0].rstrip("/") for line in block.splitlines() if line[4:5].strip()}
    unnamed = sorted(_folders(methods) - {"_shared"} - listed)
    stale = f"docs/architecture.md's map of the method folders is stale: run `{generated.COMMAND}`"
    assert not unnamed, f"{stale} (it does not name {unnamed})"
    assert not generated.stale(generated.ARCHITECTURE), stale
    assert "_shared/" in sections["methods/"], "the map has lost methods/_shared/"
    folders, modules = _named(sections["methods/"], "methods/")
    places = [methods, *(methods / d for d in _folders(methods))]  # report/render.py, run.py
    where = [m for m in modules if not any((d / m).is_file() for d in places)]
    gone = sorted(folders - _folders(methods)) + sorted(where)
    assert not gone, f"docs/architecture.md's map names under methods/ {gone}: none exists"
    folders, modules = _named(sections["core/"], "core/")
    own = {p.name for p in core.glob("*.py") if p.name != "__init__.py"} | {
        f"{d}/" for d in _folders(core)
    }
    unnamed = sorted(own - modules - {f"{d}/" for d in folders})
    assert not unnamed, (
        f"docs/architecture.md's map does not name the core module(s) {unnamed}: add each "
        "under core/ in the map (the first code block), with what it computes"
    )
    gone = sorted({f"{d}/" for d in folders - _folders(core)} | {
        m for m in modules if not (core / m).is_file()
    })  # fmt: skip
    assert not gone, f"docs/architecture.md's map names under core/ {gone}: none exists"
