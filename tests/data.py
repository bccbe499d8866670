"""Data shared by the tests, with the systems never in sorted order, and the runner of the
docs pages' examples (:func:`run_page`).

A table whose systems appear in sorted order hides every defect that sorts labels where it
should keep them (a frame indexed by sorted levels, a dictionary rebuilt in sorted order):
the sorted and the given order agree. The bundled runs name their systems in sorted order,
so the tests read them through :data:`RUNS`, whose rows put the systems in another order.
"""

import numpy as np
from scipy import stats

import pairedstats

#: The order in which the systems of :data:`RUNS` first appear: not sorted.
SYSTEM_ORDER = ("hybrid", "bm25", "dense", "bm25+rm3")


def unsorted_runs():
    """The bundled runs (:func:`pairedstats.datasets.load_runs`), each query's rows in the
    order of :data:`SYSTEM_ORDER`."""
    runs = pairedstats.datasets.load_runs()
    position = runs["run"].map({s: i for i, s in enumerate(SYSTEM_ORDER)})
    item = runs.groupby(["collection", "query"], sort=False).ngroup()  # in the given order
    order = runs.assign(_item=item, _at=position).sort_values(["_item", "_at"], kind="stable")
    return order.drop(columns=["_item", "_at"]).reset_index(drop=True)


RUNS = unsorted_runs()
assert tuple(RUNS["run"].unique()) == SYSTEM_ORDER != tuple(sorted(SYSTEM_ORDER))

#: The integer group labels of :func:`integer_folds`, in the order they first appear: no
#: label is its own position, so a position read as a label (or a label as a position)
#: picks another group.
FOLD_ORDER = (2, 0, 1)


def integer_folds():
    """Tidy scores of the systems of :data:`SYSTEM_ORDER` on 16 items in each of three
    groups labelled by integers (column ``fold``, in the order of :data:`FOLD_ORDER`), whose
    systems differ differently: fold 2 all alike, fold 0 in two tiers, fold 1 one system
    apart."""
    import numpy as np
    import pandas as pd

    shifts = {2: (0.0, 0.0, 0.0, 0.0), 0: (0.0, 0.0, 3.0, 3.0), 1: (3.0, 0.0, 0.0, 0.0)}
    rng = np.random.default_rng(40)
    rows = [(fold, item, system, rng.normal() + shifts[fold][s])
            for fold in FOLD_ORDER for item in range(16)
            for s, system in enumerate(SYSTEM_ORDER)]  # fmt: skip
    return pd.DataFrame(rows, columns=["fold", "item", "system", "score"])


def run_page(path, min_examples: int):
    """Run a docs page's ``>>>`` lines as one doctest (a fresh namespace, the page's order),
    every printed output compared with the page (``NORMALIZE_WHITESPACE``, ``ELLIPSIS``);
    fail naming how many examples differ."""
    import doctest
    from pathlib import Path

    path = Path(path)
    test = doctest.DocTestParser().get_doctest(path.read_text(), {}, path.name, str(path), 0)
    assert len(test.examples) > min_examples
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
    runner.run(test, clear_globs=True)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples differ"


def assert_same_table(got, expected) -> None:
    """A table read back from CSV equals ``expected``: the same columns, every float to the
    bit (CSV writes round-trip floats), every other value as text."""
    import numpy as np

    expected = expected.reset_index(drop=True)
    assert list(got.columns) == list(expected.columns)
    for name in expected.columns:
        if expected[name].dtype.kind == "f":
            np.testing.assert_array_equal(got[name].to_numpy(), expected[name].to_numpy())
        else:
            assert got[name].astype(str).tolist() == expected[name].astype(str).tolist()


def binomtest_half(n: int, alternative: str = "two-sided") -> np.ndarray:
    """scipy's ``binomtest(k, n, 0.5, alternative).pvalue`` of every count ``k = 0..n``, from
    scipy's binomial cdf and sf in one call: the null is symmetric at 1/2, so the two-sided
    p-value (the outcomes no likelier than ``k``) is both tails beyond ``min(k, n - k)``, at
    most 1. One call instead of ``n + 1`` calls of ``binomtest``, which the enumerations of
    the power of McNemar's test make for every number of discordant items;
    ``tests/core/test_mcnemar.py`` checks it against ``binomtest`` itself."""
    k = np.arange(n + 1)
    if alternative == "less":
        return stats.binom.cdf(k, n, 0.5)
    if alternative == "greater":
        return stats.binom.sf(k - 1, n, 0.5)
    return np.minimum(1.0, 2.0 * stats.binom.cdf(np.minimum(k, n - k), n, 0.5))
