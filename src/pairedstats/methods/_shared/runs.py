"""The skeleton every method's run shares: a design's groups become per-comparison arrays,
computed group by group or many groups per core call (batching and threads live in the core:
:mod:`pairedstats.core.parallel`, the one fork-safe executor), and one result with the labels
and metadata of the call.

A method's run (``run.run(settings)`` in its folder under :mod:`pairedstats.methods`) fills
an :class:`Outputs` with its core's numbers and hands it, with :func:`comparison_labels`, to its
result type; what differs between methods is only the core call and the columns.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

__all__ = ["Outputs", "ProgressBar", "comparison_labels", "labelled_pairs", "side_of"]


def comparison_labels(design, pairs: Sequence[tuple[int, int]]) -> dict:
    """The labels of a result: group names and keys, and the two sides of each comparison.

    ``design`` is a paired design (``systems``) or a two-sample one (``labels``).
    """
    labels = design.systems if hasattr(design, "systems") else design.labels
    return {
        "group_names": tuple(design.group_names),
        "group_keys": tuple(design.group_keys),
        "label_a": tuple(labels[a] for a, _ in pairs),
        "label_b": tuple(labels[b] for _, b in pairs),
    }


def labelled_pairs(result) -> tuple[tuple, dict]:
    """The systems of a comparison result in system order (first appearance in its pairs),
    and its columns by label: ``(system_a, system_b) -> column``."""
    columns = {(a, b): c for c, (a, b) in enumerate(zip(result.label_a, result.label_b))}
    return tuple(dict.fromkeys(x for pair in columns for x in pair)), columns


def side_of(result, columns: dict, system) -> np.ndarray:
    """``system``'s own number per group (its mean, or its rate: the result's
    ``side_columns``), found by its label in ``columns`` (:func:`labelled_pairs`)."""
    for (a, b), c in columns.items():
        if system in (a, b):
            name = result.side_columns[0 if system == a else 1]
            return np.asarray(getattr(result, name))[:, c]
    raise KeyError(system)


class Outputs:
    """The ``(n_groups, n_comparisons)`` arrays of a call, filled group by group.

    Examples
    --------
    >>> out = Outputs(2, 3)
    >>> low = out.add("ci_low")
    >>> out.set(1, ci_low=[1.0, 2.0, 3.0])
    >>> out.per_group("n_items", [10, 12], np.int64)[:, 0].tolist()
    [10, 12]
    >>> sorted(out.arrays), low[1].tolist()
    (['ci_low', 'n_items'], [1.0, 2.0, 3.0])
    """

    def __init__(self, n_groups: int, n_comparisons: int):
        self.shape = (n_groups, n_comparisons)
        self.arrays: dict[str, np.ndarray] = {}

    def add(self, name: str, dtype=np.float64, fill=np.nan) -> np.ndarray:
        """A new column, filled with ``fill``."""
        self.arrays[name] = np.full(self.shape, fill, dtype=dtype)
        return self.arrays[name]

    def per_group(self, name: str, values, dtype=np.float64) -> np.ndarray:
        """A column whose value is the group's, the same for each comparison."""
        values = np.asarray(values, dtype=dtype).reshape(-1, 1)
        self.arrays[name] = np.repeat(values, self.shape[1], axis=1)
        return self.arrays[name]

    def set(self, g, **values) -> None:
        """Group ``g``'s (or an array of groups') values of some columns."""
        for name, value in values.items():
            self.arrays[name][g] = value

    def __getitem__(self, name: str) -> np.ndarray:
        return self.arrays[name]

    def get(self, name: str) -> np.ndarray | None:
        """The column ``name``, or None where the call made none."""
        return self.arrays.get(name)


class ProgressBar:
    """The progress bar of a call with ``progress=True`` (tqdm), or nothing.

    A context manager; :meth:`update` advances it. The methods advance it as their work is
    done: the bootstrap and the rank-sum test group by group (a batch of groups at a time
    where one core call serves many), the Tukey HSD trial block by trial block.

    Examples
    --------
    >>> with ProgressBar(False, total=3, unit="group") as bar:
    ...     bar.update(3)
    """

    def __init__(self, enabled: bool, *, total: int, unit: str, initial: int = 0):
        self._bar = None
        if enabled:
            from tqdm.auto import tqdm  # checked by _validation.check_progress

            self._bar = tqdm(total=total, initial=initial, unit=unit)

    def update(self, n: int) -> None:
        if self._bar is not None:
            self._bar.update(n)

    def __enter__(self) -> ProgressBar:
        return self

    def __exit__(self, *exc) -> None:
        if self._bar is not None:
            self._bar.close()
