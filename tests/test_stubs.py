"""The type stubs of the generated methods (``accessors.pyi``, ``__init__.pyi``): current with
the live signatures, and read by a type checker as meant.

The calls checked are made from the live signatures too (every public method of every
accessor class, every generated function of ``pairedstats.__all__``), so a method or a
keyword added later is covered without editing this file.
"""

from __future__ import annotations

import ast
import inspect
import keyword
import re
import subprocess
import sys
import textwrap
import typing
from pathlib import Path

import pytest

import pairedstats
from pairedstats import _stubs, accessors

#: mypy reads the package and its stubs, and xarray and numpy (typed); pandas (untyped
#: without pandas-stubs) and the heavy untyped libraries are skipped: a cold run takes
#: a few seconds.
MYPY_CONFIG = """\
[mypy]
python_executable = {python}
mypy_path = {source}
follow_imports = silent
show_error_codes = True
no_error_summary = True
warn_unused_ignores = False

[mypy-pandas.*,scipy.*,numba.*,matplotlib.*,dask.*,distributed.*,tqdm.*,jinja2.*,pyarrow.*]
follow_imports = skip
ignore_missing_imports = True
"""

HEADER = """\
from typing import Any

import numpy as np
from typing_extensions import assert_type  # (typing's from Python 3.11; mypy knows both)
import xarray as xr

import pairedstats
from pairedstats.accessors import (
    PairedDataArrayAccessor,
    PairedDataFrameAccessor,
    PairedDatasetAccessor,
)

_any: Any = None
ds = xr.Dataset()
da = xr.DataArray()
"""


def _accessor_methods():
    """(receiver expression, method name, function) for every public accessor method."""
    for name in accessors.__all__:
        cls = getattr(accessors, name)
        for method, fn in vars(cls).items():
            if not method.startswith("_") and inspect.isfunction(fn):
                yield f"{name}(_any)", method, fn


def _functions():
    """(receiver, name, function) for every generated function of ``pairedstats.__all__``."""
    for name in pairedstats.__all__:
        obj = getattr(pairedstats, name)
        if _stubs._generated(obj):
            yield "pairedstats", name, obj


def _targets():
    yield from _accessor_methods()
    yield from _functions()
    # the typed road to the accessors (xarray is typed, so paired() resolves without stubs
    # of pandas; a DataFrame's road is the class, above)
    for receiver in ("pairedstats.paired(ds)", "pairedstats.paired(da)"):
        for method, fn in vars(accessors.PairedDatasetAccessor).items():
            if not method.startswith("_") and inspect.isfunction(fn):
                yield receiver, method, fn


def _required(sig: inspect.Signature) -> list[str]:
    """Placeholders for the required positional parameters (``scores``, ``a, b``,
    ``difference``)."""
    return [
        "_any"
        for p in sig.parameters.values()
        if p.name != "self" and p.default is p.empty and p.kind is not p.KEYWORD_ONLY
    ]


def _misspelled(name: str, taken: set[str]) -> str:
    """A likely typo of ``name`` that is no parameter (``n_resamples`` -> ``n_resample``)."""
    for wrong in (name[:-1], name + "s", name + "_x"):  # "a" -> "as" (a keyword) -> "a_x"
        if wrong.isidentifier() and not keyword.iskeyword(wrong) and wrong not in taken:
            return wrong
    raise AssertionError(name)


def misspelled_snippet() -> tuple[str, dict[int, str]]:
    """One call per keyword of every method and function, that keyword misspelled; and the
    line of each call -> the misspelled keyword."""
    lines = HEADER.splitlines()
    expected = {}
    for receiver, name, fn in _targets():
        sig = inspect.signature(fn)
        taken = set(sig.parameters)
        for p in sig.parameters.values():
            if p.name == "self" or p.default is p.empty:
                continue
            wrong = _misspelled(p.name, taken)
            args = ", ".join([*_required(sig), f"{wrong}=1"])
            lines.append(f"{receiver}.{name}({args})")
            expected[len(lines)] = wrong
    return "\n".join(lines) + "\n", expected


def _literal(value) -> str | None:
    text = repr(value)
    try:
        return text if ast.literal_eval(text) == value else None
    except (ValueError, SyntaxError):
        return None


def correct_snippet() -> str:
    """Every method and function called with every keyword at its default (the declared
    types must take the defaults), and calls as the docs write them, with their types."""
    lines = HEADER.splitlines()
    for receiver, name, fn in _targets():
        sig = inspect.signature(fn)
        args = _required(sig)
        for p in sig.parameters.values():
            if p.name != "self" and p.default is not p.empty:
                value = _literal(p.default)
                if value is not None:
                    args.append(f"{p.name}={value}")
        lines.append(f"{receiver}.{name}({', '.join(args)})")
    lines += textwrap.dedent("""\
        frame = PairedDataFrameAccessor(_any)
        frame.bootstrap(item="query", system="run", score="ndcg", baseline="bm25",
                        by="collection", rng=1)
        frame.bootstrap(score=("ndcg", "p10"), by=["collection"], systems=np.array(["a", "b"]),
                        n_resamples=np.int64(2000), confidence_level=np.float64(0.9),
                        rng=np.random.default_rng(1), weights={"x": 0.5}, workers=2,
                        statistic=lambda x: x.mean(0), adjust="holm")
        frame.tukey_hsd(item="query", system="run", score="p10", rng=1, monitor=print, every=100)
        frame.ranksum(score="deviation", group="changed", a="unchanged", b="changed")
        frame.report(item="query", system="run", score=["ndcg", "p10"], baseline="bm25")
        frame.rank(item="query", system="run", score="ndcg", lower_is_better="ndcg")
        frame.items_for(0.02, item="query", system="run", score="ndcg", baseline="bm25")
        frame.items_for(difference=-0.02, alternative="less", power=0.9, alpha=0.01)
        flag: bool = bool(_any)
        assert_type(frame.bootstrap(as_result=True), pairedstats.BootstrapResult)
        assert_type(pairedstats.paired(ds), PairedDatasetAccessor)
        assert_type(pairedstats.paired(da), PairedDataArrayAccessor)
        assert_type(pairedstats.paired(ds).bootstrap(rng=1), xr.Dataset)
        assert_type(pairedstats.paired(ds).tukey_hsd(as_result=True), pairedstats.TukeyHSDResult)
        assert_type(pairedstats.paired(da).rank(as_result=True), pairedstats.RankResult)
        assert_type(pairedstats.paired(ds).signrank(as_result=flag),
                    xr.Dataset | pairedstats.SignrankResult)
        assert_type(pairedstats.paired(ds).report(), pairedstats.Report)
        assert_type(pairedstats.paired(ds).items_for(0.05, as_result=True),
                    pairedstats.ItemsForResult)
        assert_type(pairedstats.bootstrap([[0.1, 0.2], [0.3, 0.5]], baseline=0),
                    pairedstats.BootstrapResult)
        assert_type(pairedstats.ranksum([1.0, 2.0], np.array([3.0]), alternative="less"),
                    pairedstats.RanksumResult)
        assert_type(pairedstats.signrank_design(_any, method="exact"), pairedstats.SignrankResult)
        """).splitlines()  # fmt: skip
    return "\n".join(lines) + "\n"


def _mypy(tmp_path, files: dict[str, str]) -> dict[str, list[tuple[int, str]]]:
    """mypy on ``files`` (name -> text) in a fresh cache: each file's (line, message) list."""
    pytest.importorskip("mypy", reason="mypy is in the test dependency group")
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    # the package this test imported (a checkout's src/), not another install of it
    source = Path(pairedstats.__file__).parents[1]
    source = "" if source.name in ("site-packages", "dist-packages") else source
    (tmp_path / "mypy.ini").write_text(MYPY_CONFIG.format(python=sys.executable, source=source))
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", "mypy.ini", "--cache-dir", ".cache",
         *files],
        cwd=tmp_path, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode in (0, 1), done.stdout + done.stderr
    out: dict[str, list[tuple[int, str]]] = {name: [] for name in files}
    for line in done.stdout.splitlines():
        match = re.match(r"^(.+?):(\d+): error: (.*)$", line)
        if match:
            out[match[1]].append((int(match[2]), match[3]))
        else:
            assert ": note: " in line, line
    return out


def test_stubs_match_the_live_signatures():
    stale = _stubs.check()
    assert not stale, (
        f"{', '.join(p.name for p in stale)} differ from the live signatures (a method, "
        f"keyword, type line or export changed): run `{_stubs.COMMAND}` and commit them."
    )


def test_every_method_and_function_is_in_the_stubs():
    text = (_stubs.PACKAGE / "accessors.pyi").read_text()
    for name in accessors.__all__:
        body = text.split(f"class {name}:\n", 1)[1].split("\nclass ", 1)[0]
        for method, fn in vars(getattr(accessors, name)).items():
            if not method.startswith("_") and inspect.isfunction(fn):
                assert f"    def {method}(" in body, (name, method)
                assert "**" not in body, name
    package = (_stubs.PACKAGE / "__init__.pyi").read_text()
    for _, name, _ in _functions():
        assert f"\ndef {name}(" in package, name
    for name in pairedstats.__all__:
        assert f'"{name}"' in package, name


def test_generated_stubs_write_the_annotations():
    """The stubs' parameter types are the options records' annotations, written as a type
    checker reads them: Literal choices, unions, generic collections, numpy's scalars too."""
    from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
    from typing import Any, Literal

    from numpy.random import Generator
    from numpy.typing import ArrayLike

    w = _stubs._Writer()
    assert w.hint(Literal["raise", "complete"]) == 'Literal["raise", "complete"]'
    assert w.hint(Hashable | Sequence[Hashable] | None) == "Hashable | Sequence[Hashable] | None"
    assert w.hint(Literal["holm", "max-t"] | None) == 'Literal["holm", "max-t"] | None'
    assert w.hint(ArrayLike | None) == "ArrayLike | None"
    assert w.hint(int | Generator | None) == "_Int | Generator | None"
    assert w.hint(Iterable[Hashable] | None) == "Iterable[Hashable] | None"
    assert w.hint(Mapping[Any, float]) == "Mapping[Any, _Float]"
    assert w.hint(Callable[..., Any] | None) == "Callable[..., Any] | None"
    assert w.hint(type("Unknown", (), {})) == "Any"  # wider, never wrong
    assert _stubs.numpydoc_returns(pairedstats.bootstrap.__doc__) == "BootstrapResult"
    hints = typing.get_type_hints(pairedstats.signtest)
    assert hints["alternative"] == Literal["two-sided", "less", "greater"]


@pytest.mark.slow
def test_mypy_flags_each_misspelled_keyword_and_passes_correct_calls(tmp_path):
    bad, expected = misspelled_snippet()
    found = _mypy(tmp_path, {"misspelled.py": bad, "correct.py": correct_snippet()})
    assert found["correct.py"] == [], found["correct.py"][:10]
    # a call of an overloaded method (the accessors' as_result) with another argument beside
    # the misspelled one (items_for's difference) gets mypy's "No overload variant of ...
    # matches argument types" too: that companion of the keyword's error is not counted
    errors = found["misspelled.py"]
    flagged = {line for line, message in errors if message.startswith("Unexpected keyword")}
    companion = "No overload variant of"
    errors = [(line, m) for line, m in errors if not (line in flagged and m.startswith(companion))]
    lines = [line for line, _ in errors]
    assert sorted(lines) == sorted(expected), (
        "one error per misspelled keyword",
        sorted(set(expected) ^ set(lines))[:10],
    )
    for line, message in errors:
        assert message.startswith(f'Unexpected keyword argument "{expected[line]}"'), message


def test_paired_returns_the_accessor_of_each_container():
    import pandas as pd
    import xarray as xr

    frame = pd.DataFrame(
        {"a": [0.1, 0.4, 0.3, 0.2, 0.5, 0.1, 0.9], "b": [0.2, 0.6, 0.2, 0.4, 0.8, 0.3, 1.2]}
    )
    dataset = xr.Dataset({"s": (("item", "system"), frame.to_numpy())})
    assert isinstance(pairedstats.paired(frame), accessors.PairedDataFrameAccessor)
    assert isinstance(pairedstats.paired(dataset), accessors.PairedDatasetAccessor)
    assert isinstance(pairedstats.paired(dataset["s"]), accessors.PairedDataArrayAccessor)
    assert (
        pairedstats.paired(frame)
        .signrank(confidence_level=0.5)
        .equals(frame.paired.signrank(confidence_level=0.5))
    )
    with pytest.raises(TypeError, match=r"paired\(\) takes a pandas DataFrame.*got ndarray"):
        pairedstats.paired(frame.to_numpy())
