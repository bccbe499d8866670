"""The Bayesian signed-rank test's keywords (:class:`Options`), checked into the frozen
settings of one call (:func:`check`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from ... import _validation
from ...core import checks
from .._shared.compared import Compared, compared
from .._shared.keywords import Baseline, Rng
from .._shared.options import About, OptionsRecord

__all__ = ["MAX_SAMPLES", "Options", "Settings", "check"]

#: The most posterior samples of one comparison.
MAX_SAMPLES = 10_000_000


@dataclass(frozen=True, kw_only=True)
class Options(OptionsRecord):
    """The Bayesian signed-rank test's keywords, in signature order (the registry reads
    them); ``rope`` is required (given by position or by name)."""

    rope: Annotated[
        float,
        About(
            "Half-width of the region of practical equivalence, in the scores' units: "
            "differences b - a within ``[-rope, rope]`` are practically equal (e.g. 0.01 for "
            "one accuracy point). Required, as the answer depends on it; 0 is allowed "
            "(then ``prob_equivalent`` is 0: only a better or b better).",
            option=dict(type=float, metavar="ROPE", help="half-width of the rope (score units)"),
        ),
    ]
    baseline: Baseline = None
    prior_strength: Annotated[
        float,
        About(
            "Weight of the Dirichlet process prior's one pseudo-observation at 0 (b - a = 0), "
            "positive; baycomp's and Benavoli et al.'s default 0.5.",
            option=dict(type=float, metavar="S", help="weight of the prior point at 0"),
        ),
    ] = 0.5
    n_samples: Annotated[
        int,
        About(
            "Posterior samples of each comparison (the Monte Carlo error of a probability is "
            "at most ``0.5 / sqrt(n_samples)``).",
            option=dict(type=int, metavar="N", help="posterior samples"),
        ),
    ] = 50_000
    rng: Rng = None


@dataclass(frozen=True, kw_only=True)
class Settings(Options, Compared):
    """What a run reads: the keywords, checked (``rng`` as the root entropy of the random
    streams), the design and the comparisons, and ``keep`` (the result keeps the posterior
    samples)."""

    method_name = "bayes_signrank"
    keep: bool


def check(design, options: Options, *, keep: bool) -> Settings:
    """The keywords of :func:`bayes_signrank` and :func:`bayes_signrank_design` and the design
    (one score column), checked; every message names the keyword, the rule and the value
    received. ``keep`` keeps the posterior samples in the result."""
    o = options
    return Settings.of(
        o,
        **compared(design, o.baseline, "bayes_signrank"),
        rope=checks.nonnegative(o.rope, "rope"),
        prior_strength=checks.nonnegative(o.prior_strength, "prior_strength", zero=False),
        n_samples=_validation.check_n_resamples(o.n_samples, "n_samples", MAX_SAMPLES),
        rng=_validation.normalise_rng(o.rng),
        keep=bool(keep),
    )
