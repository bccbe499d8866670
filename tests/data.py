"""Data shared by the tests, with the systems never in sorted order, and the runner of the
docs pages' examples (:func:`run_page`).

A table whose systems appear in sorted order hides every defect that sorts labels where it
should keep them (a frame indexed by sorted levels, a dictionary rebuilt in sorted order):
the sorted and the given order agree. The bundled runs name their systems in sorted order,
so the tests read them through :data:`RUNS`, whose rows put the systems in another order.
"""

import re

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


#: A fenced code block of a docs page: its language and its code.
FENCE = re.compile(r"^```([a-z]*)\n(.*?)^```", re.M | re.S)
#: The comment that marks the next code block as illustrative, not run, with its reason.
NOT_RUN = re.compile(r"<!--\s*not run:\s*(\S.*?)\s*-->\s*$", re.S)


def page_blocks(path):
    """The code a docs page runs, in the page's order: ``("doctest", code, line)`` for a block
    of ``>>>`` lines, ``("python", code, line)`` for a ```python block; a block right after a
    ``<!-- not run: reason -->`` comment is left out (``("not run", reason, line)``)."""
    from pathlib import Path

    text = Path(path).read_text(encoding="utf-8")
    blocks = []
    for match in FENCE.finditer(text):
        language, code = match.groups()
        line = text.count("\n", 0, match.start()) + 1
        marked = NOT_RUN.search(text[: match.start()].rstrip().rsplit("\n\n", 1)[-1])
        if any(row.startswith(">>> ") for row in code.splitlines()):
            kind = "doctest"
        elif language == "python":
            kind = "python"
        else:
            continue
        blocks.append(("not run", marked.group(1), line) if marked else (kind, code, line))
    return blocks


def run_page(path, min_examples: int = 0):
    """Run a docs page's code as a reader does after installing the package: from a fresh
    temporary working directory outside the repository (so that no repository path can
    help), its ``>>>`` blocks and ```python blocks in the page's order in one namespace.
    Every printed output of a ``>>>`` line is compared with the page (``NORMALIZE_WHITESPACE``,
    ``ELLIPSIS``); a ```python block must run without an error. Fail naming the block."""
    import doctest
    import os
    import tempfile
    from pathlib import Path

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    path = Path(path)
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
    namespace = {"__name__": "__guide__"}
    examples = 0
    here = os.getcwd()
    with tempfile.TemporaryDirectory(prefix="guide-") as workdir:
        os.chdir(workdir)
        try:
            for kind, code, line in page_blocks(path):
                where = f"{path.name}, the block at line {line}"
                if kind == "doctest":
                    test = parser.get_doctest(code, {}, where, str(path), line)
                    test.globs = namespace  # get_doctest copies: the page shares one
                    examples += len(test.examples)
                    result = runner.run(test, clear_globs=False)
                    assert result.failed == 0, f"{where}: {result.failed} examples differ"
                elif kind == "python":
                    try:
                        exec(compile(code, where, "exec"), namespace)
                    except Exception as error:
                        raise AssertionError(f"{where} fails: {error!r}") from error
        finally:
            os.chdir(here)
            plt.close("all")
    assert examples >= min_examples, f"{path.name}: {examples} examples"


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
