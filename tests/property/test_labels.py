"""Labels name things; they do not move numbers.

Items are put in a canonical order sorted by label, so an order-preserving renaming keeps
that order and every number. Streams are keyed by the seed and the group keys, so renaming
systems (or rank-sum groups) changes only the label columns. Labels come back as given.
"""

import pytest
import xarray as xr
from hypothesis import given
from hypothesis import strategies as st

from .checks import assert_identical, assert_names, label_order, outcome, result
from .strategies import (
    METHODS,
    ONE_TYPE,
    PAIRED,
    RANKSUM,
    SWEEP,
    TIDY,
    column_names,
    coordinate,
    distinct_labels,
    order_preserving_map,
    paired,
)

_GROUP_KW = column_names(RANKSUM)


def _relabelled(frame, columns, mapping):
    out = frame.copy()
    for column in columns:
        out[column] = [mapping[v] for v in frame[column].tolist()]
    return out


@pytest.mark.parametrize("name", PAIRED)
@given(data=st.data())
def test_renaming_items_in_order_changes_no_number(name, data):
    case = PAIRED[name]
    design = data.draw(case.data(kinds=ONE_TYPE))
    settings = data.draw(case.settings)
    mapping = data.draw(order_preserving_map(design.items), label="items")
    renamed = design.replace(items=[mapping[i] for i in design.items])
    keywords = {**TIDY, **design.keywords, **settings}
    assert_identical(
        result(renamed.tidy(), case.method, **keywords),
        result(design.tidy(), case.method, **keywords),
    )


@pytest.mark.parametrize("name", PAIRED)
@given(data=st.data())
def test_renaming_systems_changes_only_the_label_columns(name, data):
    case = PAIRED[name]
    design = data.draw(case.data(kinds=ONE_TYPE))
    settings = data.draw(case.settings)
    mapping = data.draw(order_preserving_map(design.systems), label="systems")
    renamed = design.replace(systems=[mapping[s] for s in design.systems])
    keywords = {**design.keywords, **settings}
    expected = _relabelled(
        result(design.wide(), case.method, **keywords), ["system_a", "system_b"], mapping
    )
    assert_identical(result(renamed.wide(), case.method, **keywords), expected)


@pytest.mark.parametrize("name", ["tukey-exact", "tukey-monte-carlo"])
@given(data=st.data())
def test_tukey_baseline_numbers_follow_the_labels_not_their_names_or_order(name, data):
    # against a baseline: renaming the systems (in order) and shuffling the rows of a tidy
    # table (which reorders the systems too) change the labels and the order of the rows,
    # and no number
    case = PAIRED[name]
    design = data.draw(case.data(kinds=ONE_TYPE))
    settings = data.draw(case.settings)
    baseline = data.draw(st.sampled_from(design.systems), label="baseline")
    mapping = data.draw(order_preserving_map(design.systems), label="systems")
    renamed = design.replace(systems=[mapping[s] for s in design.systems])
    rows = data.draw(st.permutations(range(len(design.items) * len(design.systems))))
    keywords = {**TIDY, **design.keywords, **settings}
    before = result(design.tidy(), case.method, baseline=baseline, **keywords)
    assert before["system_a"].tolist() == [baseline] * (len(design.systems) - 1)
    after = result(renamed.tidy(rows), case.method, baseline=mapping[baseline], **keywords)
    labels = ["system_a", "system_b"]
    expected = label_order(_relabelled(before, labels, mapping), labels)
    assert_identical(label_order(after, labels), expected)


@given(data=st.data(), settings=RANKSUM.settings)
def test_renaming_ranksum_groups_changes_only_the_label_columns(data, settings):
    sample = data.draw(RANKSUM.data(kinds=ONE_TYPE))
    mapping = data.draw(order_preserving_map(list(sample.labels)), label="groups")
    renamed = sample.replace(labels=tuple(mapping[g] for g in sample.labels))
    expected = result(sample.tidy(), "ranksum", **_GROUP_KW, **sample.keywords, **settings)
    expected = _relabelled(expected, ["group_a", "group_b"], mapping)
    got = result(renamed.tidy(), "ranksum", **_GROUP_KW, **renamed.keywords, **settings)
    assert_identical(got, expected)


def _kept_or_refused(call, arguments, labels_of):
    """Either a ValueError/TypeError naming one of ``arguments``, or the labels as given."""
    error, dataset = outcome(call)
    if error is not None:
        assert_names(error, arguments)
        return
    for got, given_labels in labels_of(dataset):
        assert [(type(x), x) for x in got] == [(type(x), x) for x in given_labels]


@pytest.mark.parametrize("method", METHODS)
@given(design=paired(kinds=("mixed",)), rng=st.integers(0, 2**32 - 1))
def test_mixed_system_labels_of_a_dataset_are_kept_or_refused(method, design, rng):
    call = lambda: result(design.dataset(), method, n_resamples=200, rng=rng)
    wide = result(design.wide(), method, n_resamples=200, rng=rng)

    def labels(dataset):
        yield dataset["system_a"].values.tolist(), wide["system_a"].tolist()
        yield dataset["system_b"].values.tolist(), wide["system_b"].tolist()

    _kept_or_refused(call, ["system", "systems"], labels)


@pytest.mark.parametrize("method", METHODS)
@given(design=paired(kinds=ONE_TYPE), keys=distinct_labels("mixed", 2), rng=st.integers(0, 99))
def test_mixed_sweep_coordinates_are_kept_or_refused(method, design, keys, rng):
    cells = [design.dataset(), design.dataset()]
    dataset = xr.concat(cells, dim=SWEEP).assign_coords({SWEEP: coordinate(keys)})
    call = lambda: result(dataset, method, n_resamples=200, rng=rng)
    _kept_or_refused(call, [SWEEP], lambda dataset: [(dataset[SWEEP].values.tolist(), keys)])
