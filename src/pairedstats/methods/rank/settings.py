"""The ranking's keywords (:class:`Options`), checked into the frozen settings of one call
(:func:`check`); those of the bootstrap of all pairs are passed on to it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from ... import _validation
from ...core.design import PairedDesign
from ...core.summed import SummedDesign
from .._shared.keywords import (
    ConfidenceLevel,
    NResamples,
    Progress,
    Rng,
    StratumWeights,
    Stream,
    Workers,
)
from .._shared.options import About, Checked, OptionsRecord

__all__ = ["Options", "Settings", "check"]


@dataclass(frozen=True, kw_only=True)
class Options(OptionsRecord):
    """The ranking's keywords, in signature order (the registry reads them)."""

    lower_is_better: Annotated[
        bool | str,
        About(
            "Rank the lowest mean first (losses, error rates): rank 1 is the smallest mean, "
            'and "surely better" means an interval entirely below 0. True, or the name of '
            "the ``score`` column.",
            option=dict(action="store_true", help="rank the lowest mean first"),
        ),
    ] = False
    simultaneous: Annotated[
        bool,
        About(
            "True: the rank sets hold all together with probability ``confidence_level`` "
            "(the max-t intervals of all pairs). False: marginal sets, each from the max-t "
            "intervals of that system's own comparisons (the bootstrap with it as "
            "``baseline``): narrower, each holding on its own.",
            option=dict(
                flags=("--marginal",),
                action="store_false",
                help="marginal rank sets (each on its own)",
            ),
        ),
    ] = True
    n_resamples: Annotated[NResamples, About("Bootstrap resamples.")] = 10_000
    confidence_level: Annotated[
        ConfidenceLevel,
        About("The level of the rank sets (of the simultaneous intervals they come from)."),
    ] = 0.95
    weights: Annotated[
        StratumWeights,
        About("``{stratum label: population weight}`` with ``strata``: as the bootstrap's."),
    ] = None
    stream: Annotated[
        Stream,
        About(
            "The bootstrap's streaming road (:doc:`/dask`; the bootstrap's ``stream``): "
            "``True`` ranks from the Poisson bootstrap of sums, whose numbers do not depend on "
            "how the rows are cut (a dask DataFrame read partition by partition, or a table "
            "in memory), without ``weights``. Default: ``False`` on tables in memory; on a "
            "dask DataFrame, chosen by the workers' memory."
        ),
    ] = None
    rng: Rng = None
    progress: Progress = False
    workers: Workers = None


@dataclass(frozen=True, kw_only=True)
class Settings(Options, Checked):
    """What a ranking reads: the keywords, checked (``lower_is_better`` as a bool, ``rng``
    as the root entropy of the random streams, ``weights`` by stratum label), and the design.

    Attributes
    ----------
    design : PairedDesign or SummedDesign
        The data (one score column), or its sums (the streaming road).
    """

    method_name = "rank"
    design: PairedDesign | SummedDesign

    def bootstrap(self) -> dict:
        """The keywords of the bootstrap of all pairs the sets come from (``n_resamples``,
        ``confidence_level``, ``weights``, ``stream``, ``rng``, ``progress``, ``workers``),
        which the
        bootstrap checks again when it runs."""
        names = ("n_resamples", "confidence_level", "weights", "stream", "rng", "progress",
                 "workers")  # fmt: skip
        return {name: getattr(self, name) for name in names}


def check(design: PairedDesign | SummedDesign, options: Options, *, keep: bool) -> Settings:
    """The ranking's keywords checked; ``lower_is_better`` may name the score column, as the
    report's metrics. ``keep`` is not used: the ranking keeps its bootstrap results, without
    their replicates."""
    o = options
    lower = _validation.check_lower_is_better(o.lower_is_better, list(design.columns))
    summed = isinstance(design, SummedDesign)  # the streaming road's sums
    return Settings.of(
        o, lower_is_better=bool(lower),
        simultaneous=_validation.check_flag(o.simultaneous, "simultaneous"),
        n_resamples=_validation.check_n_resamples(
            o.n_resamples, maximum=_validation.MAX_BOOTSTRAP_RESAMPLES),
        confidence_level=_validation.check_confidence_level(o.confidence_level),
        weights=_validation.check_weights(o.weights, design),
        stream=True if summed else o.stream,
        rng=_validation.normalise_rng(o.rng), workers=_validation.check_workers(o.workers),
        progress=_validation.check_progress(o.progress), design=design,
    )  # fmt: skip
