"""The registry: every method keyword is declared once and reaches every entry point.

The functions on arrays, the DataFrame, Dataset and DataArray accessors and the command line
are generated from the specs; these tests hold them to it: each keyword of each method, set
to a value other than its default, gives the same numbers through the array function and
every accessor, and the signatures, docstrings and options list exactly the spec's keywords.
"""

import argparse
import inspect
import types
import typing

import numpy as np
import pandas as pd
import pytest
import xarray as xr
from tests import specs
from tests.data import unsorted_runs

import pairedstats
from pairedstats import cli
from pairedstats.methods._shared import registry

N_ITEMS, SYSTEMS = 12, ["s0", "s1", "s2"]
_RNG = np.random.default_rng(4)
SCORES = _RNG.normal(size=(N_ITEMS, 3)) + np.array([0.0, 0.3, 0.5])
CLUSTER = np.repeat(np.arange(6), 2)
STRATA = np.where(np.arange(N_ITEMS) < 6, "p", "q")
SAMPLE_A, SAMPLE_B = _RNG.normal(size=9), _RNG.normal(size=11) + 0.4
#: The pass/fail scores of a method that takes only those (``MethodSpec.binary_scores``).
BINARY = (SCORES > 0.2).astype(float)

#: The keywords whose value other than the default cannot be made from their type (a
#: callable, a mapping, a required number), or whose value needs other data:
#: ``(method, keyword): (value, needs)``, ``needs`` a dict of ``strata=True`` (the data have
#: strata), ``items=n`` (the first n items only) and ``keywords={...}`` (other keywords the
#: value needs, given to both calls). Every other keyword's value comes from its options
#: record (:func:`other_value`).
OVERRIDES = {
    ("bootstrap", "weights"): ({"p": 0.3, "q": 0.7}, {"strata": True}),
    ("bootstrap", "statistic"): (np.median, {}),
    ("rank", "weights"): ({"p": 0.3, "q": 0.7}, {"strata": True}),
    ("tukey_hsd", "method"): ("monte-carlo", {"items": 6}),  # auto: exact on 6 items
    ("tukey_hsd", "monitor"): (lambda checkpoint: CHECKPOINTS.append(checkpoint), {}),
    ("items_for", "difference"): (0.5, {}),
    ("cv_ttest", "test_fraction"): (0.1, {}),
    ("bayes_signrank", "rope"): (0.2, {}),
    ("mcs", "statistic"): ("range", {}),
    ("items_for", "alternative"): ("greater", {}),  # "less" refuses a positive difference
    ("report", "adjust"): ("bonferroni", {}),  # "holm" is what "auto" gives the bootstrap
    ("report", "margin"): (0.8, {"keywords": {"baseline": SYSTEMS[1]}}),  # marks about it
    ("report", "margin_test"): (
        "noninferiority",
        {"keywords": {"baseline": SYSTEMS[1], "margin": 0.8}},
    ),
}
CHECKPOINTS: list = []


def other_value(keyword) -> object:
    """A valid value other than ``keyword``'s default, from its type in its method's options
    record: another choice of a ``Literal`` (the first), the other bool, another level (0.9,
    0.8 if that is the default, a fifth of a small one), a quarter of an integer, True, 300
    or 0.8 for an optional flag or number, a system label for a keyword read against the
    systems, a seed, one thread; None when its type says nothing usable."""
    default, hint = keyword.default, keyword.annotation
    members = (
        typing.get_args(hint)
        if typing.get_origin(hint) in (typing.Union, types.UnionType)
        else (hint,)
    )
    choices = [v for m in members if typing.get_origin(m) is typing.Literal
               for v in typing.get_args(m) if v != default and v is not None]  # fmt: skip
    if choices:
        return choices[0]
    if isinstance(default, bool):
        return not default
    if isinstance(default, float) and 0 < default < 1:
        return default / 5 if default < 0.5 else 0.8 if default == 0.9 else 0.9
    if isinstance(default, int):
        return max(1, default // 4)
    if default in (None, ()):  # an optional number or flag: one of its type
        for kind, value in ((bool, True), (int, 300), (float, 0.8)):
            if kind in members:
                return value
    if keyword.labels == "system":
        return SYSTEMS[1]
    return {"seed": 7, "threads": 1}.get(keyword.role)


def _values() -> tuple[dict, list]:
    """Every keyword's case ``(value, needs)``, by method, and the keywords that have none."""
    values, missing = {}, []
    for name, spec in registry.SPECS.items():
        for k in spec.keywords:
            case = OVERRIDES.get((name, k.name))
            if case is None and (value := other_value(k)) is not None:
                case = (value, {})
            if case is None:
                missing.append((name, k.name))
            else:
                values.setdefault(name, {})[k.name] = case
    return values, missing


#: A value other than the default for every keyword of every method (and what it needs).
VALUES, NO_VALUE = _values()
#: Keywords that do not change the numbers (threads, reporting: not recorded).
SAME_NUMBERS = {
    k.name for spec in registry.SPECS.values() for k in spec.keywords if not k.recorded
}
CASES = [(name, k) for name, values in VALUES.items() for k in values]


def test_every_keyword_of_every_method_has_a_case():
    """Every keyword of every registered method has a value other than its default: from its
    type, or from OVERRIDES (which names no keyword that does not exist)."""
    assert not NO_VALUE, (
        "no value other than the default can be made from the type of these keywords (a "
        "callable, a mapping, a required number): add each to OVERRIDES in "
        "tests/test_registry.py as (method, keyword): (value, needs): " + repr(NO_VALUE)
    )
    known = {(n, k.name) for n, spec in registry.SPECS.items() for k in spec.keywords}
    stale = [key for key in OVERRIDES if key not in known]
    assert not stale, (
        f"remove from OVERRIDES these (method, keyword), declared by no spec: {stale}"
    )
    assert other_value(registry.SPECS["signtest"].keyword("adjust")) == "holm"
    assert other_value(registry.SPECS["bootstrap"].keyword("n_resamples")) == 2500


def test_every_method_has_a_default_call():
    for spec in registry.SPECS.values():
        missing = specs.missing_examples(spec)
        assert not missing, specs.missing_message(spec, missing)


def _paired_calls(name: str, keyword: str, value, needs: dict) -> dict:
    strata = needs.get("strata", False)
    n = needs.get("items", N_ITEMS)
    scores = BINARY[:n] if registry.SPECS[name].binary_scores else SCORES[:n]
    strata_labels = STRATA[:n]
    settings = specs.keywords(registry.SPECS[name], rng=3, n_resamples=300)
    settings.update(needs.get("keywords", {}))
    settings[keyword] = value
    extra_array = {"strata": strata_labels} if strata else {}
    tidy = pd.DataFrame(
        {
            "item": np.repeat(np.arange(n), 3),
            "system": SYSTEMS * n,
            "score": scores.ravel(),
            "stratum": np.repeat(strata_labels, 3),
        }
    )
    ds = xr.Dataset(
        {"score": (("item", "system"), scores)},
        coords={"system": SYSTEMS, "stratum": ("item", strata_labels)},
    )
    strata_kw = {"strata": "stratum"} if strata else {}
    result = {"as_result": True} if registry.SPECS[name].table else {}
    calls = {
        "frame": lambda: getattr(tidy.paired, name)(
            item="item", system="system", score="score", **result, **strata_kw, **settings
        ),
        "dataset": lambda: getattr(ds.paired, name)(**strata_kw, **settings, **result),
        "dataarray": lambda: getattr(ds["score"].paired, name)(**strata_kw, **settings, **result),
    }
    if "array" in registry.SPECS[name].inputs:  # the reference: the function on arrays
        function = getattr(pairedstats, name)
        array = lambda: function(scores, systems=SYSTEMS, **extra_array, **settings)
        calls = {"array": array, **calls}
    return calls


def _table(result):
    """A result's table: its frame (``to_dataframe``, or the report's ``to_frame``)."""
    return result.to_frame() if hasattr(result, "to_frame") else result.to_dataframe()


def _two_sample_calls(name: str, keyword: str, value) -> dict:
    settings = {**specs.keywords(registry.SPECS[name]), keyword: value}
    tidy = pd.DataFrame(
        {
            "x": np.concatenate([SAMPLE_A, SAMPLE_B]),
            "g": ["a"] * SAMPLE_A.size + ["b"] * SAMPLE_B.size,
        }
    )
    ds = xr.Dataset(
        {"x": ("item", tidy["x"].to_numpy())}, coords={"g": ("item", tidy["g"].to_numpy())}
    )
    result = {"as_result": True} if registry.SPECS[name].table else {}
    calls = {
        "frame": lambda: getattr(tidy.paired, name)(
            score="x", group="g", a="a", b="b", **settings, **result
        ),
        "dataset": lambda: getattr(ds.paired, name)(
            score="x", group="g", a="a", b="b", **settings, **result
        ),
        "dataarray": lambda: getattr(ds["x"].paired, name)(
            group="g", a="a", b="b", **settings, **result
        ),
    }
    if "array" in registry.SPECS[name].inputs:  # the reference: the function on arrays
        array = lambda: getattr(pairedstats, name)(SAMPLE_A, SAMPLE_B, **settings)
        calls = {"array": array, **calls}
    return calls


def _default_calls(name: str, keyword: str, needs: dict) -> dict:
    spec = registry.SPECS[name]
    default = spec.keyword(keyword).default
    if default is inspect.Parameter.empty:  # a required keyword: its value in other calls
        if keyword not in spec.example_keywords:
            pytest.fail(specs.missing_message(spec, [keyword]))
        default = spec.example_keywords[keyword]
    if spec.road == "paired":
        return _paired_calls(name, keyword, default, needs)
    return _two_sample_calls(name, keyword, default)


@pytest.mark.parametrize(("name", "keyword"), CASES)
def test_a_keyword_reaches_the_function_and_every_accessor(name, keyword):
    value, needs = VALUES[name][keyword]
    spec = registry.SPECS[name]
    if spec.road == "paired":
        calls = _paired_calls(name, keyword, value, needs)
    else:
        calls = _two_sample_calls(name, keyword, value)
    CHECKPOINTS.clear()
    results = {container: call() for container, call in calls.items()}
    first = next(iter(results))  # the array function, or the frame accessor
    reference = results.pop(first)
    expected = _table(reference)
    if keyword == "monitor":  # called at the end of every run at least
        assert len(CHECKPOINTS) >= len(calls)
    if keyword not in SAME_NUMBERS:  # the value was applied: the numbers (or, for a
        # summary whose integers need not move, the settings it records) differ
        default = {**calls, **_default_calls(name, keyword, needs)}[first]()
        assert not expected.equals(_table(default)) or reference.metadata != default.metadata
    numbers = [c for c in expected.columns if expected[c].dtype.kind == "f"]
    assert numbers
    for container, got in results.items():
        table = _table(got)
        for column in numbers:
            np.testing.assert_array_equal(
                table[column].to_numpy(), expected[column].to_numpy(), err_msg=container
            )


@pytest.mark.parametrize("name", list(registry.SPECS))
def test_signatures_and_docstrings_list_the_spec_keywords(name):
    spec = registry.SPECS[name]
    own = [k.name for k in spec.keywords]
    functions = {"array": name, "design": f"{name}_design"} if "array" in spec.inputs else {}
    entries = {
        **{container: getattr(pairedstats, f) for container, f in functions.items()},
        "frame": getattr(pairedstats.accessors.PairedDataFrameAccessor, name),
        "dataset": getattr(pairedstats.accessors.PairedDatasetAccessor, name),
        "dataarray": getattr(pairedstats.accessors.PairedDataArrayAccessor, name),
    }
    for container, entry in entries.items():
        params = list(inspect.signature(entry).parameters)
        assert [p for p in params if p in own] == own, container
        for keyword in own:
            assert f"\n{keyword} : " in entry.__doc__, (container, keyword)
    parser = cli.build_parser()
    (commands,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    dests = {a.dest for a in commands.choices[spec.command]._actions}
    assert {k.name for k in spec.keywords if k.option is not None} <= dests


def test_an_unknown_keyword_is_named_with_the_method_s_keywords():
    runs = unsorted_runs()
    with pytest.raises(TypeError, match=r"tukey_hsd: got an unexpected keyword argument "
                       r"'confidence_level'; its keywords are .*n_resamples"):  # fmt: skip
        runs.paired.tukey_hsd(item="query", system="run", score="ndcg", confidence_level=0.9)
    with pytest.raises(TypeError, match="ranksum: got an unexpected keyword argument 'rng'"):
        pairedstats.ranksum([1.0, 2.0], [3.0, 4.0], rng=1)
    with pytest.raises(TypeError, match="`design` must be a PairedDesign; got ndarray"):
        pairedstats.bootstrap_design(np.zeros((3, 2)))
