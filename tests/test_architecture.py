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
