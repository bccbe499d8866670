"""The keywords of the methods and of the input roads, each declared once.

A :class:`Keyword` holds a name, its default, its documentation and its command-line option.
:data:`INPUTS` declares the input keywords of each road (paired, two-sample) and container
(frame, dataset, array); the rest are the keywords several methods share, each with the one
description it needs (``baseline_keyword(doc)``, ``alternative_keyword(doc)``, ...).
:mod:`pairedstats.methods._shared.registry` builds the methods' signatures, docstrings and
command-line options from them.
"""

from __future__ import annotations

import argparse
import inspect
import typing
from collections.abc import Hashable, Iterable, Mapping, Sequence
from typing import Annotated, Any, Literal

from numpy.random import BitGenerator, Generator, SeedSequence
from numpy.typing import ArrayLike

from .options import About, Keyword

# ------------------------------------------------------------------ input keywords
_LABEL = Hashable | None
_LABELS = Hashable | Sequence[Hashable] | None
_SEQUENCE = Iterable[Hashable] | None
_ARRAY = ArrayLike | None
_MISSING = Keyword(
    "missing",
    "raise",
    '{"raise", "complete"}, default "raise"',
    "Missing scores (NaN, or an item without a row for some system) raise a ValueError "
    'that counts them; "complete" keeps the items scored for every system and reports how '
    "many were dropped (the ``n_dropped`` column).",
    option=dict(type=str.lower, choices=("raise", "complete"), help="'complete': keep the "
                "items scored for every system"),
    annotation=Literal["raise", "complete"],
)  # fmt: skip
_SYSTEMS = Keyword(
    "systems",
    None,
    "sequence, optional",
    "The systems to compare, in the order that sets the pairs and which side of a pair is "
    "a (any ordered collection: list, array, Index). Default: every system, in order of "
    "first appearance (tidy) or of the columns (wide, arrays).",
    option=dict(nargs="+", metavar="NAME", help="select and order systems"),
    labels="system",
    annotation=_SEQUENCE,
)


def columns_keyword(name: str, doc: str, help: str) -> Keyword:
    """An input keyword naming one column or several (``--name COL [COL ...]``)."""
    return Keyword(
        name,
        None,
        "label or list of label, optional",
        doc,
        option=dict(nargs="+", metavar="COL", help=help),
        annotation=_LABELS,
    )


_BY = columns_keyword(
    "by",
    "Columns whose values split the table into groups, each computed on its own (its "
    "numbers do not depend on the other groups); the group keys lead the result's columns.",
    "run per group of these columns",
)
_CLUSTER_DOC = (
    ": whole clusters are resampled, and the estimate is the item mean (total of the "
    "cluster sums over the total count), not the mean of cluster means."
)
_REPLICATE_DOC = (
    ": repeated runs of each system (training seeds, epochs, folds). Items and replicates "
    "are resampled crossed (the pigeonhole bootstrap), so the interval covers both the "
    "sampling of the items and the run-to-run variation. Replicates are paired when two "
    "systems have the same labels (resampled once for both) and unpaired when their labels "
    "are disjoint; partly overlapping labels are refused. Every item needs a score for every "
    "replicate of every system (a balanced design)."
)
_REPEAT_DOC = (
    ": the repetitions of an r x k cross-validation (the corrected resampled t-test). The "
    "items are the (repetition, fold) cells, the folds labelled by ``item``; every "
    "repetition needs the same number of folds."
)
_STRATA_DOC = (
    ": items (or clusters) are resampled within each stratum, with the same draws for "
    "every system, and stratum mean differences are combined with ``weights``."
)


def _paired_frame() -> dict:
    return {
        "item": Keyword(
            "item",
            None,
            "label, optional",
            "Column of the item labels. A tidy table needs it; a wide table's items are "
            "its index unless ``item`` names a column.",
            option=dict(metavar="COL", help="item column (query, example, ...)"),
            annotation=_LABEL,
        ),
        "system": Keyword(
            "system",
            None,
            "label, optional",
            "Column of the system labels: the table is tidy, one row per item and system "
            "(``item`` and ``score`` are needed too). Without it the table is wide: one row "
            "per item, one column per system.",
            option=dict(metavar="COL", help="system column (tidy tables)"),
            annotation=_LABEL,
        ),
        "score": Keyword(
            "score",
            None,
            "label or list of label, optional",
            "Column of the scores of a tidy table (several columns for ``statistic``).",
            option=dict(metavar="COL", help="score column (tidy tables)"),
            annotation=_LABELS,
        ),
        "systems": _SYSTEMS,
        "by": _BY,
        "cluster": Keyword(
            "cluster",
            None,
            "label, optional",
            f"Column of each item's cluster{_CLUSTER_DOC}",
            option=dict(metavar="COL", help="resample whole clusters"),
            annotation=_LABEL,
        ),
        "strata": Keyword(
            "strata",
            None,
            "label, optional",
            f"Column of each item's stratum{_STRATA_DOC}",
            option=dict(metavar="COL", help="resample within strata"),
            annotation=_LABEL,
        ),
        "replicate": Keyword(
            "replicate",
            None,
            "label, optional",
            f"Column of the replicate labels of a tidy table, one row per (item, system, "
            f"replicate){_REPLICATE_DOC}",
            option=dict(metavar="COL", help="repeated runs (seeds): resample them crossed"),
            annotation=_LABEL,
        ),
        "repeat": Keyword(
            "repeat",
            None,
            "label, optional",
            f"Column of the repetition labels{_REPEAT_DOC}",
            option=dict(metavar="COL", help="repetition of the cross-validation"),
            annotation=_LABEL,
        ),
        "missing": _MISSING,
    }


def _paired_dataset() -> dict:
    return {
        "item": Keyword(
            "item", "item", 'str, default "item"', "Dimension of the items.", annotation=str
        ),
        "system": Keyword(
            "system",
            "system",
            'str, default "system"',
            "Dimension of the systems.",
            annotation=str,
        ),
        "score": Keyword(
            "score",
            None,
            "label or list of label, optional",
            "Data variables to compare (default: all). Several add a ``score`` dimension to "
            "the result; with ``statistic`` they are the statistic's columns instead.",
            annotation=_LABELS,
        ),
        "systems": _SYSTEMS,
        "cluster": Keyword(
            "cluster",
            None,
            "label, optional",
            f"A coordinate along the items naming each item's cluster{_CLUSTER_DOC}",
            annotation=_LABEL,
        ),
        "strata": Keyword(
            "strata",
            None,
            "label, optional",
            f"A coordinate along the items naming each item's stratum{_STRATA_DOC}",
            annotation=_LABEL,
        ),
        "replicate": Keyword(
            "replicate",
            None,
            "label, optional",
            "Dimension of the repeated runs; a system's replicates are the labels along it "
            f"where it has scores (NaN elsewhere){_REPLICATE_DOC}",
            annotation=_LABEL,
        ),
        "repeat": Keyword(
            "repeat",
            None,
            "label, optional",
            f"Dimension of the repetitions, beside the ``item`` dimension{_REPEAT_DOC}",
            annotation=_LABEL,
        ),
        "missing": _MISSING,
    }


def _paired_array() -> dict:
    return {
        "scores": Keyword(
            "scores",
            inspect.Parameter.empty,
            "array_like, shape (n_items, n_systems) or (n_items, n_systems, n_columns)",
            "One row per item, one column per system (several score columns for ``statistic``).",
            annotation=ArrayLike,
        ),
        "systems": Keyword(
            "systems",
            None,
            "sequence, optional",
            "Labels of the systems, in column order (default ``0, 1, ...``).",
            annotation=_SEQUENCE,
        ),
        "cluster": Keyword(
            "cluster",
            None,
            "array_like, shape (n_items,), optional",
            f"Each item's cluster label{_CLUSTER_DOC}",
            annotation=_ARRAY,
        ),
        "strata": Keyword(
            "strata",
            None,
            "array_like, shape (n_items,), optional",
            f"Each item's stratum label{_STRATA_DOC}",
            annotation=_ARRAY,
        ),
        "replicate": Keyword(
            "replicate",
            None,
            "array_like, shape (n_replicates,), optional",
            "Labels of the runs along the last axis of ``scores``, which then has shape "
            "(n_items, n_systems, n_replicates), NaN where a system has no such run"
            f"{_REPLICATE_DOC}",
            annotation=_ARRAY,
        ),
        "repeat": Keyword(
            "repeat",
            None,
            "array_like, shape (n_items,), optional",
            f"Each row's repetition label{_REPEAT_DOC}",
            annotation=_ARRAY,
        ),
        "missing": _MISSING,
    }


_AB_DOC = (
    "Which two groups: labels in the ``group`` column (tidy) or two column names (wide). "
    "Differences read b minus a."
)


def _two_sample_frame() -> dict:
    return {
        "score": Keyword(
            "score",
            None,
            "label, optional",
            "Column of the scores (tidy tables).",
            option=dict(metavar="COL", help="score column (tidy tables)"),
            annotation=_LABEL,
        ),
        "group": Keyword(
            "group",
            None,
            "label, optional",
            "Column of the group labels (tidy tables).",
            option=dict(metavar="COL", help="column of the group labels (tidy)"),
            annotation=_LABEL,
        ),
        "a": Keyword(
            "a",
            None,
            "label, optional",
            _AB_DOC,
            option=dict(flags=("-a", "--a"), metavar="LABEL", help="group (or column) a"),
            labels="group",
            annotation=_LABEL,
        ),
        "b": Keyword(
            "b",
            None,
            "label, optional",
            _AB_DOC,
            option=dict(flags=("-b", "--b"), metavar="LABEL", help="group (or column) b"),
            labels="group",
            annotation=_LABEL,
        ),
        "by": _BY,
    }


def _two_sample_dataset() -> dict:
    return {
        "score": Keyword(
            "score",
            None,
            "label, optional",
            "The data variable of the scores (default: all).",
            annotation=_LABEL,
        ),
        "group": Keyword(
            "group",
            "group",
            'str, default "group"',
            "A dimension holding the two group labels, or a coordinate along ``item`` giving "
            "each value's group.",
            annotation=str,
        ),
        "a": Keyword("a", None, "label, optional", "The label of group a.", annotation=_LABEL),
        "b": Keyword(
            "b", None, "label, optional", "The label of group b (b minus a).", annotation=_LABEL
        ),
        "item": Keyword(
            "item",
            "item",
            'str, default "item"',
            "Dimension of the values of a sample.",
            annotation=str,
        ),
    }


def _two_sample_array() -> dict:
    sample = "array_like, 1-D"
    return {
        "a": Keyword(
            "a", inspect.Parameter.empty, sample, "The scores of group a.", annotation=ArrayLike
        ),
        "b": Keyword(
            "b",
            inspect.Parameter.empty,
            sample,
            "The scores of group b (finite numbers, at least one each). Differences read b "
            "minus a.",
            annotation=ArrayLike,
        ),
    }


#: Input keywords by road and container: the same keyword means the same on every method.
INPUTS = {
    "paired": {"frame": _paired_frame(), "dataset": _paired_dataset(), "array": _paired_array()},
    "two-sample": {
        "frame": _two_sample_frame(),
        "dataset": _two_sample_dataset(),
        "array": _two_sample_array(),
    },
}
ROADS = tuple(INPUTS)
#: Positional inputs of the functions on arrays.
POSITIONAL = {"scores", "a", "b"}


#: The inputs of a method on the paired road without clusters or strata.
PAIRED_INPUTS = {
    "frame": ("item", "system", "score", "systems", "by", "missing"),
    "dataset": ("item", "system", "score", "systems", "missing"),
    "array": ("scores", "systems", "missing"),
}


class EveryIfNoneNamed(argparse.Action):
    """A command-line option of names that, given alone (no name), means True: every one
    (``--lower-is-better`` alone: every metric)."""

    def __call__(self, parser, namespace, values, option_string=None):
        setattr(namespace, self.dest, list(values) if values else True)


AS_RESULT = Keyword(
    "as_result",
    False,
    "bool, default False",
    "Return the result object (its numbers as arrays, displays, plots and, for the "
    "bootstrap, the distribution of the replicates) instead of a table.",
    annotation=bool,
)


#: Why the methods that do not resample repeated runs refuse ``replicate=``.
NO_REPLICATE = (
    "Use bootstrap(..., replicate=...), which resamples items and replicates crossed, or "
    "average the replicates first (then the items are the only random factor)."
)

#: Why a method without a streaming road refuses ``stream`` (:func:`.registry.bind`).
NO_STREAM = (
    "it has no streaming road: it reads every item of a group at once (ranks, permutations, "
    "exact tails or draws over the whole group), so a dask DataFrame computes each group in "
    "one task. For a group too large for a worker, sample its items or aggregate per group "
    "first."
)


# ------------------------------------------------------------------ shared method keywords
# Annotated aliases: a method's options record declares ``name: Alias = default``, or
# ``name: Annotated[Alias, About("its own description")] = default`` (options.About.over).
Baseline = Annotated[
    Hashable | None,
    About(
        "Compare every other system with this one (a = baseline); default: all pairs, a "
        "before b in system order.",
        option=dict(metavar="NAME", help="compare every system with this one"),
        labels="system",
    ),
]
Alternative = Annotated[
    Literal["two-sided", "less", "greater"], About(option=dict(help="about b - a"))
]
ConfidenceLevel = Annotated[
    float, About(option=dict(type=float, metavar="LEVEL", help="level of the intervals"))
]
NResamples = Annotated[int, About(option=dict(type=int, metavar="N", help="resamples"))]
Rng = Annotated[
    int | SeedSequence | BitGenerator | Generator | None,
    About(
        "Seed material (SPEC 7), the root of the random streams; recorded as "
        '``metadata["seed_entropy"]``, which passed back as ``rng`` re-runs the call.',
        option=dict(
            type=int,
            metavar="SEED",
            help="random seed (an integer); without it, a seed is drawn from the operating "
            "system and printed with the result (seed_entropy), and --rng with that number "
            "repeats the run",
        ),
        type="None, int, SeedSequence, BitGenerator or Generator",
        role="seed",
    ),
]
Progress = Annotated[
    bool,
    About(
        "Show a tqdm progress bar (needs ``pairedstats[progress]``). The numbers do not "
        "depend on it.",
        recorded=False,
    ),
]
Workers = Annotated[
    int | None,
    About(
        "Threads (default: the CPUs this process may use). The numbers do not depend on it.",
        role="threads",
        recorded=False,
    ),
]
Stream = Annotated[
    bool | None,
    About(
        "The road of a dask DataFrame (:doc:`/dask`): ``True`` reduces the table to sums "
        "partition by partition (the streaming road: memory of the order of resamples x "
        "systems whatever the number of items), ``False`` gathers each ``by=`` group's rows "
        "into one task (the in-memory road). Default: chosen by the workers' memory.",
        role="stream",
        type="bool or None",
        option=dict(
            flags=("--stream",),
            action="store_const",
            const=True,
            help="the streaming road (sums partition by partition)",
        ),
    ),
]
Correction = Annotated[
    bool,
    About(
        "Continuity correction of the normal approximation (p-value, ``z`` and the "
        "asymptotic interval).",
        option=dict(
            flags=("--no-correction",), action="store_false", help="no continuity correction"
        ),
    ),
]
#: The ``method`` of the rank tests: the p-value's road.
RankTestMethod = Annotated[
    Literal["auto", "exact", "asymptotic"],
    About(
        option=dict(
            help="the p-value: auto (exact when it can be computed), exact, or asymptotic "
            "(the normal approximation)"
        )
    ),
]
#: The ``method`` choices of the rank tests.
RANK_TEST_METHODS = typing.get_args(typing.get_args(RankTestMethod)[0])
#: The rank tests' (rank-sum, signed-rank) ``alternative`` and ``confidence_level``.
RankTestAlternative = Annotated[
    Alternative,
    About(
        'About b - a: ``"greater"`` means b tends to exceed a. One-sided alternatives give '
        "one-sided intervals."
    ),
]
ShiftConfidenceLevel = Annotated[
    float,
    About("Level of the interval of the shift.", option=dict(type=float, metavar="LEVEL")),
]
#: ``adjust`` of the methods whose p-values are per comparison (:data:`PVALUE_METHODS`,
#: checked by :func:`pairedstats._validation.check_pvalue_adjust`).
PValueAdjust = Annotated[
    Literal["holm", "bonferroni", "fdr_bh", "fdr_by"] | None,
    About(option=dict(metavar="METHOD", help="adjust the p-values over the comparisons")),
]
#: Population weights by stratum label: the bootstrap's ``weights``, and those of the methods
#: that pass them on to it (the ranking).
StratumWeights = Mapping[Any, float] | None
#: ``margin`` of the methods that test b - a against a margin
#: (:mod:`pairedstats.methods._shared.margins`).
Margin = Annotated[
    float | None,
    About(
        "A margin m > 0 in the units of b - a: adds the test against it at ``alpha = 1 - "
        'confidence_level``. With ``alternative="greater"``, non-inferiority of b '
        "(``H0: b - a <= -m``; columns ``noninferior``, ``pvalue_noninferiority``); with "
        '``"less"``, the same when lower is better (``H0: b - a >= m``); two-sided, '
        "equivalence by two one-sided tests (``H0: |b - a| >= m``; columns ``equivalent``, "
        "``pvalue_equivalence``: the ``1 - 2 alpha`` interval inside ``(-m, m)``). "
        "Default: none.",
        option=dict(type=float, metavar="M", help="equivalence / non-inferiority margin"),
    ),
]
