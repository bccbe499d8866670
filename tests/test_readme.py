"""The README's snippet is the demo (``python -m pairedstats``): the same calls, the same seed,
the same numbers."""

import ast
import contextlib
import inspect
import io
import re
from pathlib import Path

from pairedstats import __main__ as demo_module

README = Path(__file__).resolve().parents[1] / "README.md"


def _snippet() -> str:
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    assert blocks, "README.md has no python block"
    return blocks[0]


def _calls(tree: ast.AST, defaults: dict[str, ast.expr] | None = None) -> list[str]:
    """Each ``x.paired.<method>(...)`` call as text, keywords sorted; names in ``defaults``
    (the demo's parameters) replaced by their default values."""
    defaults = defaults or {}
    out = []
    for node in ast.walk(tree):
        if not (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Attribute)
            and node.func.value.attr == "paired"
        ):
            continue
        keywords = []
        for kw in node.keywords:
            value = kw.value
            if isinstance(value, ast.Name) and value.id in defaults:
                value = defaults[value.id]
            keywords.append(f"{kw.arg}={ast.literal_eval(value)!r}")
        receiver = ast.unparse(node.func.value.value)
        out.append(f"{receiver}.paired.{node.func.attr}({', '.join(sorted(keywords))})")
    return sorted(out)


def test_readme_snippet_makes_the_demos_calls():
    demo_tree = ast.parse(inspect.getsource(demo_module.demo))
    function = demo_tree.body[0]
    assert isinstance(function, ast.FunctionDef)
    args = function.args.args
    defaults = dict(
        zip([a.arg for a in args[-len(function.args.defaults) :]], function.args.defaults)
    )
    readme_calls = _calls(ast.parse(_snippet()))
    assert len(readme_calls) == 3
    assert readme_calls == _calls(demo_tree, defaults)
    # the command line's defaults are the demo's
    parser_defaults = inspect.signature(demo_module.demo).parameters
    assert parser_defaults["rng"].default == 2026
    assert parser_defaults["n_resamples"].default == 10_000


def test_readme_snippet_prints_the_demos_numbers():
    out = io.StringIO()
    namespace: dict = {}
    with contextlib.redirect_stdout(out):
        exec(compile(_snippet(), str(README), "exec"), namespace)
    printed = out.getvalue()
    demo = demo_module.demo()
    for name in ("boot", "hsd", "rank"):
        table = str(namespace[name])
        assert table in printed
        assert table in demo
    assert "seed_entropy=2026" in printed
    # what ``python -m pairedstats`` prints (its default --rng and --n-resamples)
    with contextlib.redirect_stdout(io.StringIO()) as shown:
        assert demo_module.main([]) == 0
    assert shown.getvalue().strip() == demo.strip()
