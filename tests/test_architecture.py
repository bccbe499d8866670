"""The shape of the package (issue "one engine"): small modules and functions, and an import
graph without cycles in which the core sits at the bottom."""

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).parents[1] / "src" / "pairedstats"
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
