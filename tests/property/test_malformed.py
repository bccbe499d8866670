"""Malformed input is refused, clearly.

"A table is never guessed ... a table that does not fit them is refused with a message that
says which keyword to give": every malformation below raises a ValueError or TypeError whose
message names the argument (the keyword in backticks), never a KeyError, IndexError,
AttributeError, ZeroDivisionError or a numba error, and never a number. Each malformation is
applied to generated tables (at a generated row, with a generated bad value).
"""

import numpy as np
import pandas as pd
import pytest
import xarray as xr
from hypothesis import given
from hypothesis import strategies as st

import pairedstats

from .checks import assert_identical, assert_names, cases, outcome, result
from .strategies import (
    CLUSTER,
    GROUP,
    ITEM,
    METHODS,
    ONE_TYPE,
    SCORE,
    STRATA,
    SWEEP,
    SYSTEM,
    TIDY,
    coordinate,
    paired,
    two_samples,
)

PAIRED_METHODS = st.sampled_from(METHODS)
#: A valid call of each method on the tables of ``_tables``: its keywords.
_BASE = {
    "bootstrap": {**TIDY, "cluster": CLUSTER, "strata": STRATA, "by": "by", "n_resamples": 200},
    "tukey_hsd": {**TIDY, "by": "by", "n_resamples": 200},
    "ranksum": {"score": SCORE, "group": GROUP, "by": "by"},
}
_MISSING = [None, np.nan]


class _Started(RuntimeError):
    """Raised by a monitor: the run began although its settings were malformed."""


def _stop(checkpoint):
    raise _Started(f"the run started ({checkpoint.trials} trials done)")


@st.composite
def _tables(draw, kinds=("str", "int", "mixed")):
    """A tidy table with cluster, strata and a ``by`` column (one group), its design."""
    design = draw(paired(items=(4, 8), kinds=kinds, clustered=True, stratified=True))
    return design.tidy().assign(by="g"), design


def _call(frame, method, /, **keywords):
    return lambda: getattr(frame.paired, method)(rng=0, **keywords)


def _call_ranksum(frame, **keywords):
    return lambda: frame.paired.ranksum(**keywords)


def _row(data, frame) -> int:
    return data.draw(st.integers(0, len(frame) - 1), label="row")


def _with(frame, row, column, value):
    out = frame.astype({column: object})
    out.iat[row, list(out.columns).index(column)] = value
    return out


# ------------------------------------------------------------------ the malformations
MALFORMED = {}


def malformed(*variants):
    """Register ``function(data[, variant]) -> (call, names)``, once per variant if any.

    The call must raise a ValueError or TypeError naming one of ``names``.
    """

    def register(function):
        name = function.__name__.replace("_", "-")
        if not variants:
            MALFORMED[name] = function
        for variant in variants:
            MALFORMED[f"{name}-{variant}"] = lambda data, v=variant: function(data, v)
        return function

    return register


@malformed()
def unknown_column(data):
    method = data.draw(PAIRED_METHODS, label="method")
    tidy, _ = data.draw(_tables())
    keywords = _BASE[method]
    argument = data.draw(st.sampled_from([k for k in keywords if k != "n_resamples"]))
    return _call(tidy, method, **{**keywords, argument: "nope"}), [argument]


@malformed()
def unknown_ranksum_column(data):
    sample = data.draw(two_samples())
    tidy = sample.tidy().assign(by="g")
    argument = data.draw(st.sampled_from(["score", "group", "by"]))
    keywords = {**_BASE["ranksum"], **sample.keywords, argument: "nope"}
    return _call_ranksum(tidy, **keywords), [argument]


@malformed()
def unknown_ranksum_label(data):
    sample = data.draw(two_samples())
    side = data.draw(st.sampled_from(["a", "b"]))
    wide = data.draw(st.booleans(), label="wide")
    keywords = {**sample.keywords, side: "nope"}
    if wide:
        return _call_ranksum(sample.wide(), **keywords), ["a", "b"]
    return _call_ranksum(sample.tidy(), score=SCORE, group=GROUP, **keywords), ["a", "b"]


@malformed()
def missing_label(data):
    method = data.draw(PAIRED_METHODS, label="method")
    tidy, _ = data.draw(_tables())
    keywords = _BASE[method]
    argument = data.draw(
        st.sampled_from([k for k in keywords if k not in ("n_resamples", "score")])
    )
    bad = _with(tidy, _row(data, tidy), keywords[argument], data.draw(st.sampled_from(_MISSING)))
    return _call(bad, method, **keywords), [argument]


@malformed("item", "by", "cluster", "strata")
def missing_label_in_a_wide_table(data, where):
    methods = ["bootstrap"] if where in ("cluster", "strata") else ["bootstrap", "tukey_hsd"]
    method = data.draw(st.sampled_from(methods), label="method")
    _, design = data.draw(_tables())
    wide = design.wide().assign(by="g")
    row, value = _row(data, wide), data.draw(st.sampled_from(_MISSING))
    keywords = {"by": "by", "n_resamples": 200}
    if method == "bootstrap":
        keywords.update(cluster=CLUSTER, strata=STRATA)
    else:  # Tukey has no use for them: they would be read as systems
        wide = wide.drop(columns=[CLUSTER, STRATA])
    if where == "item":
        labels = list(wide.index)
        labels[row] = value
        wide.index = pd.Index(labels, name=ITEM, dtype=object)
    else:
        wide = _with(wide, row, where, value)
    return _call(wide, method, **keywords), [where]


@malformed()
def missing_ranksum_group(data):
    sample = data.draw(two_samples(sizes=(2, 8)))
    tidy = sample.tidy()
    bad = _with(tidy, _row(data, tidy), GROUP, data.draw(st.sampled_from(_MISSING)))
    return _call_ranksum(bad, score=SCORE, group=GROUP, **sample.keywords), ["group"]


@malformed()
def duplicated_row(data):
    method = data.draw(PAIRED_METHODS, label="method")
    tidy, _ = data.draw(_tables())
    row = _row(data, tidy)
    bad = pd.concat([tidy, tidy.iloc[[row]]], ignore_index=True)
    return _call(bad, method, **_BASE[method]), ["item", "system"]


@malformed()
def duplicated_item_in_a_wide_table(data):
    method = data.draw(PAIRED_METHODS, label="method")
    _, design = data.draw(_tables())
    wide = design.wide()[design.systems]
    bad = pd.concat([wide, wide.iloc[[_row(data, wide)]]])
    return _call(bad, method, n_resamples=200), ["item"]


@malformed()
def missing_pair(data):
    method = data.draw(PAIRED_METHODS, label="method")
    tidy, _ = data.draw(_tables())
    bad = tidy.drop(index=tidy.index[_row(data, tidy)])
    return _call(bad, method, **_BASE[method]), ["score", "item", "system", "missing"]


@malformed()
def non_numeric_score(data):
    method = data.draw(PAIRED_METHODS, label="method")
    tidy, _ = data.draw(_tables())
    value = data.draw(st.sampled_from(["x", "1,5", b"1", [1.0], {}]), label="value")
    bad = _with(tidy, _row(data, tidy), SCORE, value)
    return _call(bad, method, **_BASE[method]), ["score"]


@malformed()
def non_numeric_system_column(data):
    method = data.draw(PAIRED_METHODS, label="method")
    _, design = data.draw(_tables())
    wide = design.wide()[design.systems]
    column = data.draw(st.sampled_from(design.systems), label="column")
    bad = _with(wide, _row(data, wide), column, "x")
    return _call(bad, method, systems=design.systems, n_resamples=200), ["systems", "score"]


@malformed()
def non_numeric_ranksum_score(data):
    sample = data.draw(two_samples(sizes=(2, 8)))
    tidy = sample.tidy()
    bad = _with(tidy, _row(data, tidy), SCORE, "x")
    return _call_ranksum(bad, score=SCORE, group=GROUP, **sample.keywords), ["score"]


@malformed("tidy", "wide")
def empty_table(data, shape):
    method = data.draw(PAIRED_METHODS, label="method")
    tidy, design = data.draw(_tables())
    if shape == "wide":
        return _call(design.wide().iloc[:0], method, n_resamples=200), ["item", "systems", "score"]
    return _call(tidy.iloc[:0], method, **_BASE[method]), ["item", "system", "systems", "score"]


@malformed()
def empty_ranksum_table(data):
    sample = data.draw(two_samples())
    call = _call_ranksum(sample.tidy().iloc[:0], score=SCORE, group=GROUP, **sample.keywords)
    return call, ["score", "group", "a", "b"]


@malformed()
def one_item(data):
    method = data.draw(PAIRED_METHODS, label="method")
    design = data.draw(paired(items=(1, 1)))
    wide = data.draw(st.booleans(), label="wide")
    keywords = {"n_resamples": 200} if wide else {**TIDY, "n_resamples": 200}
    table = design.wide() if wide else design.tidy()
    return _call(table, method, **keywords), ["item", "score"]


@malformed()
def one_system(data):
    method = data.draw(PAIRED_METHODS, label="method")
    design = data.draw(paired(systems=(1, 1)))
    if data.draw(st.booleans(), label="wide"):
        return _call(design.wide(), method, n_resamples=200), ["systems", "system"]
    return _call(design.tidy(), method, **TIDY, n_resamples=200), ["system", "systems"]


@malformed()
def one_ranksum_group(data):
    sample = data.draw(two_samples())
    tidy = sample.tidy()
    only_a = tidy[[g == sample.labels[0] for g in tidy[GROUP].tolist()]]
    return _call_ranksum(only_a, score=SCORE, group=GROUP, **sample.keywords), ["a", "b", "group"]


def _setting(data, method, argument, values):
    tidy, _ = data.draw(_tables())
    keywords = {**_BASE[method], argument: data.draw(st.sampled_from(values), label=argument)}
    return _call(tidy, method, **keywords), [argument]


_LEVELS = [0, 1, 1.5, -0.1, float("nan"), "0.95", True, None]


@malformed()
def bad_confidence_level(data):
    return _setting(data, "bootstrap", "confidence_level", _LEVELS)


@malformed()
def bad_ranksum_confidence_level(data):
    sample = data.draw(two_samples())
    level = data.draw(st.sampled_from(_LEVELS), label="confidence_level")
    call = _call_ranksum(sample.wide(), **sample.keywords, confidence_level=level)
    return call, ["confidence_level"]


_COUNTS = [0, -1, 1.5, True, "200", None]


@malformed()
def bad_n_resamples(data):
    return _setting(data, data.draw(PAIRED_METHODS, label="method"), "n_resamples", _COUNTS)


@malformed("bootstrap", "tukey_hsd")
def absurd_n_resamples(data, method):
    """10**13 resamples are refused before any is drawn (a monitor stops a run that starts)."""
    tidy, _ = data.draw(_tables())
    keywords = {**_BASE[method], "n_resamples": 10**13}
    if method == "tukey_hsd":
        keywords.update(method="monte-carlo", monitor=_stop, every=256)
    return _call(tidy, method, **keywords), ["n_resamples"]


@malformed()
def bad_workers(data):
    function = data.draw(st.sampled_from([pairedstats.bootstrap, pairedstats.tukey_hsd]))
    _, design = data.draw(_tables())
    workers = data.draw(st.sampled_from([0, -1, 1.5, True, "2"]), label="workers")
    call = lambda: function(design.scores, n_resamples=200, rng=0, workers=workers)
    return call, ["workers"]


@malformed()
def bad_rng(data):
    method = data.draw(PAIRED_METHODS, label="method")
    tidy, _ = data.draw(_tables())
    rng = data.draw(st.sampled_from(["seed", -1, 1.5, True, object()]), label="rng")
    return lambda: getattr(tidy.paired, method)(**_BASE[method], rng=rng), ["rng"]


_CHOICES = ["nope", "", None, 1, "percentile "]


@malformed()
def bad_method(data):
    return _setting(data, "bootstrap", "method", _CHOICES)


@malformed()
def bad_ranksum_method(data):
    sample = data.draw(two_samples())
    value = data.draw(st.sampled_from(_CHOICES), label="method")
    return _call_ranksum(sample.wide(), **sample.keywords, method=value), ["method"]


_ALTERNATIVES = ["two_sided", "both", None, 1]


@malformed()
def bad_alternative(data):
    return _setting(data, "bootstrap", "alternative", _ALTERNATIVES)


@malformed()
def bad_ranksum_alternative(data):
    sample = data.draw(two_samples())
    value = data.draw(st.sampled_from(_ALTERNATIVES), label="alternative")
    return _call_ranksum(sample.wide(), **sample.keywords, alternative=value), ["alternative"]


@malformed("item", "system", "score", "by")
def duplicate_column_name(data, argument):
    method = data.draw(PAIRED_METHODS, label="method")
    tidy, _ = data.draw(_tables())
    keywords = _BASE[method]
    bad = pd.concat([tidy, tidy[[keywords[argument]]]], axis=1)
    return _call(bad, method, **keywords), [argument]


@malformed()
def duplicate_system_column(data):
    method = data.draw(PAIRED_METHODS, label="method")
    _, design = data.draw(_tables())
    wide = design.wide()[design.systems]
    column = data.draw(st.sampled_from(design.systems), label="column")
    bad = pd.concat([wide, wide[[column]]], axis=1)
    return _call(bad, method, n_resamples=200), ["systems"]


@malformed()
def zero_length_sweep(data):
    method = data.draw(PAIRED_METHODS, label="method")
    design = data.draw(paired(kinds=ONE_TYPE))
    empty = design.dataset().expand_dims({SWEEP: [0]}).isel({SWEEP: slice(0, 0)})
    return lambda: getattr(empty.paired, method)(n_resamples=200, rng=0), [SWEEP, "score"]


def _dataset_with(data, dimension, labels_of):
    method = data.draw(PAIRED_METHODS, label="method")
    design = data.draw(paired(kinds=ONE_TYPE, items=(3, 8), systems=(3, 4)))
    cells = xr.concat([design.dataset(), design.dataset()], dim=SWEEP)
    dataset = cells.assign_coords({SWEEP: coordinate(["s", "t"])})
    labels = labels_of(data, list(dataset[dimension].values.tolist()))
    dataset = dataset.assign_coords({dimension: coordinate(labels)})
    call = lambda: getattr(dataset.paired, method)(n_resamples=200, rng=0)
    # no keyword names a sweep dimension: `score` picks the variables that have it
    names = {ITEM: [ITEM], SYSTEM: [SYSTEM, "systems"], SWEEP: [SWEEP, "score"]}
    return call, names[dimension]


def _duplicated(data, labels):
    i, j = data.draw(
        st.lists(st.integers(0, len(labels) - 1), min_size=2, max_size=2, unique=True),
        label="positions",
    )
    labels[j] = labels[i]
    return labels


def _none(data, labels):
    labels[data.draw(st.integers(0, len(labels) - 1), label="position")] = None
    return labels


@malformed(ITEM, SYSTEM, SWEEP)
def duplicate_coordinate(data, dimension):
    return _dataset_with(data, dimension, _duplicated)


@malformed(ITEM, SYSTEM, SWEEP)
def none_coordinate(data, dimension):
    return _dataset_with(data, dimension, _none)


@malformed()
def masked_score(data):
    """A masked cell is a missing score (never the data under the mask): refused."""
    function = data.draw(st.sampled_from([pairedstats.bootstrap, pairedstats.tukey_hsd]))
    _, design = data.draw(_tables())
    mask = np.zeros(design.shape, dtype=bool)
    mask[_row(data, design.scores), data.draw(st.integers(0, design.shape[1] - 1))] = True
    masked = np.ma.masked_array(design.scores, mask=mask)
    return lambda: function(masked, n_resamples=200, rng=0), ["scores"]


def _ranksum_arrays(data, change):
    sample = data.draw(two_samples())
    side = data.draw(st.sampled_from(["a", "b"]), label="side")
    samples = {"a": sample.a, "b": sample.b}
    samples[side] = change(data, samples[side])
    return lambda: pairedstats.ranksum(samples["a"], samples["b"]), [side]


@malformed()
def masked_ranksum_value(data):
    def mask_one(data, x):
        mask = np.zeros(len(x), dtype=bool)
        mask[data.draw(st.integers(0, len(x) - 1), label="masked")] = True
        return np.ma.masked_array(x, mask=mask)

    return _ranksum_arrays(data, mask_one)


@malformed()
def empty_ranksum_sample(data):
    return _ranksum_arrays(data, lambda data, x: x[:0])


@malformed("dimension", "coordinate")
def missing_ranksum_label_in_a_dataset(data, form):
    """As in a table's group column: not left out of both samples, nor a third group."""
    sample = data.draw(two_samples(sizes=(2, 8), equal=form == "dimension"))
    value = data.draw(st.sampled_from(_MISSING), label="label")
    if form == "dimension":
        labels = list(sample.labels)
        labels[data.draw(st.integers(0, 1), label="side")] = value
        dataset = sample.dataset().assign_coords({GROUP: coordinate(labels)})
        keywords = {}
    else:
        tidy = sample.tidy()
        labels = tidy[GROUP].tolist()
        labels[_row(data, tidy)] = value
        dataset = xr.Dataset(
            {SCORE: (ITEM, tidy[SCORE].to_numpy())}, coords={GROUP: (ITEM, coordinate(labels))}
        )
        keywords = sample.keywords
    return lambda: dataset.paired.ranksum(score=SCORE, group=GROUP, **keywords), ["group"]


@malformed("item", "system", "score", "ranksum-group", "ranksum-score")
def by_names_a_role_column(data, role):
    """``by=`` naming the item, system, score or group column would group by it."""
    if role.startswith("ranksum-"):
        sample = data.draw(two_samples(sizes=(2, 8)))
        column = {"group": GROUP, "score": SCORE}[role.removeprefix("ranksum-")]
        keywords = {"score": SCORE, "group": GROUP, **sample.keywords, "by": column}
        return _call_ranksum(sample.tidy(), **keywords), ["by"]
    method = data.draw(PAIRED_METHODS, label="method")
    tidy, _ = data.draw(_tables())
    keywords = {**_BASE[method], "by": _BASE[method][role]}
    return _call(tidy, method, **keywords), ["by"]


# ------------------------------------------------------------------ the properties
#: What each malformation does today, and the exception that shows it.
TODAY: dict = {}


@pytest.mark.parametrize(
    "name",
    cases(
        MALFORMED,
        {name: reason for name, (reason, _) in TODAY.items()},
        raises={name: error for name, (_, error) in TODAY.items()},
    ),
)
@given(data=st.data())
def test_malformed_input_is_refused_with_a_message_naming_the_argument(name, data):
    call, arguments = MALFORMED[name](data)
    error, got = outcome(call)
    assert error is not None, f"accepted and returned:\n{got}"
    assert_names(error, arguments)


@pytest.mark.parametrize("method", METHODS)
@given(data=st.data())
def test_an_index_named_like_a_column_changes_nothing_or_is_refused(method, data):
    tidy, _ = data.draw(_tables())
    keywords = _BASE[method]
    argument = data.draw(st.sampled_from(["item", "system", "score", "by"]), label="argument")
    named = tidy.rename_axis(keywords[argument])
    error, got = outcome(_call(named, method, **keywords))
    if error is not None:
        assert_names(error, [argument])
        return
    assert_identical(got, result(tidy, method, rng=0, **keywords))


_CONTAINERS = {"array": np.asarray, "index": pd.Index, "tuple": tuple}


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("container", _CONTAINERS)
@given(data=st.data())
def test_systems_may_be_any_list_like(method, container, data):
    design = data.draw(paired(kinds=ONE_TYPE, systems=(3, 4)))
    chosen = data.draw(st.permutations(design.systems), label="systems")[:2]
    wrap = _CONTAINERS[container]
    for table, keywords in ((design.tidy(), TIDY), (design.wide(), {})):
        expected = result(table, method, systems=chosen, rng=0, n_resamples=200, **keywords)
        got = result(table, method, systems=wrap(chosen), rng=0, n_resamples=200, **keywords)
        assert_identical(got, expected)
