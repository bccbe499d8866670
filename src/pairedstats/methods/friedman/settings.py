"""Friedman's keywords (:class:`Options`), checked into the frozen settings of one call
(:func:`check`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Literal, get_args

from ... import _validation
from ...core.design import PairedDesign
from ...inputs import check_design
from .._shared.options import About, Checked, OptionsRecord

__all__ = ["POSTHOCS", "Options", "Posthoc", "Settings", "check"]

#: The post-hoc tests of all pairs (``posthoc``).
Posthoc = Literal["wilcoxon-holm", "nemenyi", "conover"]
POSTHOCS = get_args(Posthoc)


@dataclass(frozen=True, kw_only=True)
class Options(OptionsRecord):
    """Friedman's keywords, in signature order (the registry reads them)."""

    posthoc: Annotated[
        Posthoc,
        About(
            '``"wilcoxon-holm"``: the Wilcoxon signed-rank test of each pair\'s scores, '
            "Holm's step-down over the pairs (Benavoli, Corani and Mangili 2016: a pair's "
            "decision does not depend on which other systems are in the comparison, as it "
            'does for the tests of mean ranks); ``"nemenyi"``: the mean ranks\' differences '
            "against the studentized range (Demšar 2006; its critical difference is the "
            "diagram's); ``\"conover\"``: Conover's t-test of the rank sums, Holm's "
            "step-down.",
            option=dict(help="post-hoc tests of the pairs"),
        ),
    ] = "wilcoxon-holm"
    lower_is_better: Annotated[
        bool | str,
        About(
            "Rank the lowest score first (losses, error rates): rank 1 in each data set is "
            "the smallest score. True, or the name of the ``score`` column.",
            option=dict(action="store_true", help="rank the lowest score first"),
        ),
    ] = False
    tie_correction: Annotated[
        bool,
        About(
            "Divide the Friedman chi-square by its tie factor ``1 - sum(t^3 - t) / (N k (k^2 "
            "- 1))``, as R's ``friedman.test`` and scipy do; False gives Demšar's (2006) "
            "formula, which ignores ties (to reproduce a paper that used it). The "
            "Iman-Davenport F follows; the post-hoc tests do not depend on it.",
            option=dict(
                flags=("--no-tie-correction",),
                action="store_false",
                help="Demsar's formula, ties ignored",
            ),
        ),
    ] = True


@dataclass(frozen=True, kw_only=True)
class Settings(Options, Checked):
    """What a Friedman run reads: the keywords, checked, and the design. ``lower_is_better``
    is a bool once checked (True: rank 1 to the lowest score).

    Attributes
    ----------
    design : PairedDesign
        The scores, one score column; each item is a data set.
    """

    method_name = "friedman"
    design: PairedDesign


def check(design, options: Options, *, keep: bool) -> Settings:
    """The keywords of :func:`friedman` and :func:`friedman_design` and the design (one
    score column; at least 2 systems and 2 data sets per group), checked; every message
    names the keyword, the rule and the value received. ``lower_is_better`` may name the
    score column, as the ranking's. ``keep`` is accepted as every method's check accepts
    it: the result holds nothing it would keep."""
    design = check_design(design)
    if design.scores.shape[2] != 1:
        raise ValueError(
            "`score` must name one score column for friedman; got "
            f"{design.scores.shape[2]} columns {tuple(design.columns)!r}."
        )
    lower = _validation.check_lower_is_better(options.lower_is_better, list(design.columns))
    return Settings.of(
        options,
        posthoc=_validation.check_choice(options.posthoc, "posthoc", POSTHOCS),
        lower_is_better=bool(lower),
        tie_correction=_validation.check_flag(options.tie_correction, "tie_correction"),
        design=design,
    )
