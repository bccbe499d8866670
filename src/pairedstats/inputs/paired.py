"""The paired design: one builder shared by every container, one check for every method.

:func:`finish` turns validated arrays (from a table, a dataset or an array) into a
:class:`~pairedstats.PairedDesign`; :func:`check_design` is what every paired method calls
on the design it is given, so a design built by hand meets the rules of the containers.
"""

from __future__ import annotations

from functools import partial

import numpy as np

from ..core._warn import warn
from ..core.design import PairedDesign
from .labels import canonical_ranks, check_labels, object_array
from .scores import check_magnitude, finite_sum

__all__ = ["DroppedDataWarning", "check_design"]


class DroppedDataWarning(UserWarning):
    """Data were dropped because the caller asked for it (``missing="complete"``)."""


def finish(
    scores,
    items,
    systems,
    columns,
    group_code,
    group_names,
    group_keys,
    cluster,
    strata,
    complete,
    score_arg,
    precision: float = 2.0**-53,
    replicates=None,
    replicate_labels: tuple = (),
    *,
    missing: str,
    item_ranks=None,
    fresh: bool = False,
    bounded: bool = False,
    items_slice: bool = False,
) -> PairedDesign:
    """Check the labels, drop incomplete rows (if asked: ``missing``, the rule that made
    ``complete``, which the design keeps), put the rows in their canonical order (by group,
    then item label), check sizes and magnitudes, build the design.

    ``item_ranks``, when the caller has them, are integers in the canonical order of the
    items (:func:`canonical_ranks`, or any ranks in the same order), which are then known to
    be labels (none missing); a ``range`` when the rows are in that order already.
    ``fresh``: ``scores`` is a C-ordered float64 array of the caller's own, which the design
    keeps as it is (no copy). ``bounded``: every score is an integer of magnitude at most
    2**53, whose sums cannot overflow (no magnitude pass). ``items_slice``: the rows are
    some of a table's items (a partition of the streaming road), so a group may hold fewer
    than 2 of them."""
    if item_ranks is None:
        check_labels(items, "item", "item")
    check_labels(systems, "systems", "system")
    for arg, values, what in (("cluster", cluster, "cluster"), ("strata", strata, "stratum")):
        if values is not None:
            check_labels(values, arg, what, items)
    for j, name in enumerate(group_names):
        check_labels([key[j] for key in group_keys], "by", f"{name!r} group")
    n_groups = len(group_keys)
    dropped = _dropped(complete, group_code, n_groups, bool(group_names))
    in_order = isinstance(item_ranks, range) and n_groups == 1  # see _row_order
    if isinstance(items, range) and (dropped.any() or not in_order):  # rows to select
        items = np.arange(items.start, items.stop, items.step, dtype=object)
    if dropped.any():
        scores, items, group_code = scores[complete], items[complete], group_code[complete]
        cluster = None if cluster is None else cluster[complete]
        strata = None if strata is None else strata[complete]
        replicates = None if replicates is None else [c[complete] for c in replicates]
        if isinstance(item_ranks, range):  # the rows kept of rows in order are in order
            item_ranks = range(len(items))
        elif item_ranks is not None:
            item_ranks = item_ranks[complete]
    ranks, order = _row_order(items, item_ranks, group_code, n_groups)
    if order is not None:
        scores, items, group_code, ranks = (v[order] for v in (scores, items, group_code, ranks))
        if replicates is not None:
            replicates = [c[order] for c in replicates]
    # the design's own copies, C-ordered (the reordering made them already)
    own = partial(np.array, order="C") if order is None else np.ascontiguousarray
    keep = np.ascontiguousarray if fresh else own
    if ranks is not None:  # else one group of items in their order: distinct
        _check_unique_items(items, ranks, group_code, group_names, group_keys)
    counts = np.bincount(group_code, minlength=n_groups)
    if not items_slice:
        _check_items_per_group(counts, group_names, group_keys, score_arg)
    if not bounded:
        check_magnitude(scores, int(counts.max()), score_arg)
    if replicates is not None:
        replicates = tuple(own(c, dtype=np.float64) for c in replicates)
    cluster_codes, cluster_labels = _codes(cluster, order)
    strata_codes, strata_labels = _codes(strata, order)
    return PairedDesign(
        scores=keep(scores, dtype=np.float64),
        systems=tuple(systems),
        columns=tuple(columns),
        offsets=np.concatenate([[0], np.cumsum(counts)]).astype(np.int64),
        group_names=tuple(group_names),
        group_keys=tuple(group_keys),
        items=items,
        cluster=cluster_codes,
        cluster_labels=cluster_labels,
        strata=strata_codes,
        strata_labels=strata_labels,
        dropped=tuple(int(x) for x in dropped),
        missing=missing,
        precision=precision,
        replicates=replicates,
        replicate_labels=tuple(replicate_labels),
    )


def _row_order(items, item_ranks, group_code, n_groups: int):
    """The ranks of the items and the permutation that puts the rows in their canonical
    order (by group, then item label; None when they are in it already). ``(None, None)``
    for one group whose ``item_ranks`` are a ``range``: its rows are in order."""
    if isinstance(item_ranks, range) and n_groups == 1:
        return None, None
    ranks = canonical_ranks(items) if item_ranks is None else np.asarray(item_ranks)
    order = np.lexsort((ranks, group_code))
    return ranks, None if bool(np.all(order[1:] > order[:-1])) else order  # no row to move


def _dropped(complete: np.ndarray, group_code: np.ndarray, n_groups: int, grouped: bool):
    """Items dropped per group by ``missing="complete"`` (``complete`` is False for them),
    announced with a :class:`DroppedDataWarning`."""
    dropped = np.bincount(group_code[~complete], minlength=n_groups).astype(np.int64)
    if dropped.any():
        warn(dropped_message(int(dropped.sum()), len(complete), grouped), DroppedDataWarning)
    return dropped


def dropped_message(dropped: int, items: int, grouped: bool) -> str:
    """The text of the :class:`DroppedDataWarning` of ``missing="complete"``: ``dropped``
    of ``items`` items (of every group, when ``grouped``)."""
    where = " across groups" if grouped else ""
    return (f"missing='complete' dropped {dropped} of {items} item(s){where} that lacked a "
            "score for some system.")  # fmt: skip


def _codes(values, order):
    """Per-row codes of ``values`` (rows in ``order``) and the labels, in order of first
    appearance; ``(None, ())`` when not given."""
    if values is None:
        return None, ()
    values = object_array(values) if order is None else object_array(values)[order]
    labels = tuple(dict.fromkeys(values.tolist()))
    lookup = {v: i for i, v in enumerate(labels)}
    return np.array([lookup[v] for v in values.tolist()], dtype=np.int64), labels


def group_phrase(group_names, key) -> str:
    return f" in group {dict(zip(group_names, key))}" if group_names else ""


def _check_unique_items(items, ranks, group_code, group_names, group_keys) -> None:
    """Rows sorted by (group, item rank): an item label seen twice in a group is refused."""
    same = (ranks[1:] == ranks[:-1]) & (group_code[1:] == group_code[:-1])
    if same.any():
        first = int(np.argmax(same))
        where = group_phrase(group_names, group_keys[group_code[first]])
        raise ValueError(
            f"`item`: each item must have one row; found {int(same.sum())} duplicated item "
            f"label(s){where} (the first: {items[first]!r}). Aggregate or remove the "
            "duplicates first."
        )


def _check_items_per_group(counts, group_names, group_keys, arg: str) -> None:
    """Every group holds at least 2 items: one item has no variability to compare."""
    small = np.flatnonzero(np.asarray(counts) < 2)
    if small.size:
        g = int(small[0])
        where = group_phrase(group_names, group_keys[g])
        raise ValueError(
            f"`{arg}`: a comparison needs at least 2 items{where}; got {int(counts[g])}."
        )


def check_design(
    design, replicates: bool = False, *, checked_finite: bool = False
) -> PairedDesign:
    """The rules of the containers, applied to a design given to a method as it is.

    A design made by the input layer meets them already; one built by hand is held to
    the same rules: at least 2 systems, at least 2 items per group, finite scores, and
    arrays whose shapes agree. A design with replicates (``replicate=``) is refused unless
    the method resamples them (``replicates=True``). ``checked_finite``: the caller has
    seen every score finite already (as the 0/1 check of pass/fail outcomes does), so the
    scores are not read again.

    Examples
    --------
    >>> import numpy as np
    >>> d = PairedDesign(scores=np.zeros((1, 2, 1)), systems=("a", "b"),
    ...                  offsets=np.array([0, 1]), items=np.arange(1))
    >>> check_design(d)
    Traceback (most recent call last):
    ...
    ValueError: `design`: a comparison needs at least 2 items; got 1.
    """
    if not isinstance(design, PairedDesign):
        raise TypeError(
            f"`design` must be a PairedDesign; got {type(design).__name__}. Make one with "
            "pairedstats.inputs.design_from_array, design_from_frame or design_from_dataset."
        )
    scores, offsets = design.scores, np.asarray(design.offsets)
    rows = int(offsets[-1]) if offsets.size else 0
    if scores.ndim != 3 or scores.shape[:2] != (rows, design.n_systems):
        raise ValueError(
            "`design.scores` must have shape (n_rows, n_systems, n_columns) = "
            f"({rows}, {design.n_systems}, n_columns) by its offsets and systems; got "
            f"{scores.shape}."
        )
    finite = checked_finite or finite_sum(scores)  # else counted
    bad = 0 if finite else int(np.count_nonzero(~np.isfinite(scores)))
    if bad:
        raise ValueError(f"`design.scores` must be finite; got {bad} NaN or infinite values.")
    if design.n_systems < 2:
        raise ValueError(
            f"`design`: a comparison needs at least 2 systems; got {design.n_systems}."
        )
    _check_items_per_group(np.diff(offsets), design.group_names, design.group_keys, "design")
    repeat = design.repeat
    if repeat is not None and (
        np.shape(repeat) != (rows,)
        or not np.all((np.asarray(repeat) >= 0) & (np.asarray(repeat) < len(design.repeat_labels)))
    ):
        raise ValueError(
            f"`design.repeat` must hold one code per row ({rows}) indexing "
            f"`design.repeat_labels` ({len(design.repeat_labels)} labels)."
        )
    if design.replicates is not None:
        if not replicates:
            raise ValueError(
                "`design` holds repeated runs (`replicate=`), which only the bootstrap "
                "resamples; this method would treat the runs' means as exact and leave out "
                "their variance. Build the design without `replicate`."
            )
        _check_replicates(design, rows)
    return design


def check_summed(design):
    """The rules of :func:`check_design` that a design reduced to sums (the streaming
    road's :class:`~pairedstats.core.summed.SummedDesign`, read from a table's ``score``)
    can be held to: at least 2 systems, at least 2 items per group."""
    if design.n_systems < 2:
        raise ValueError(
            f"`design`: a comparison needs at least 2 systems; got {design.n_systems}."
        )
    _check_items_per_group(design.n_items(), design.group_names, design.group_keys, "score")
    return design


def _check_replicates(design: PairedDesign, rows: int) -> None:
    """Per system an array (n_rows, R_s) of finite cells, R_s labels, equal or disjoint."""
    from .replicates import check_replicate_labels

    cells, labels = design.replicates, design.replicate_labels
    if len(cells) != design.n_systems or len(labels) != design.n_systems:
        raise ValueError(
            "`design.replicates` and `design.replicate_labels` must hold one entry per "
            f"system ({design.n_systems}); got {len(cells)} and {len(labels)}."
        )
    for c, t, name in zip(cells, labels, design.systems, strict=True):
        if np.ndim(c) != 2 or np.shape(c) != (rows, len(t)) or len(t) == 0:
            raise ValueError(
                f"`design.replicates`: system {name!r} needs shape (n_rows, n_replicates) = "
                f"({rows}, {len(t)}) by its labels, with at least one replicate; got "
                f"{np.shape(c)}."
            )
        if not np.isfinite(c).all():
            raise ValueError(f"`design.replicates`: system {name!r} has non-finite cells.")
    check_replicate_labels(labels, design.systems)
