"""The rank-sum test's keywords, validated into the frozen settings of one call
(:func:`check`)."""

from __future__ import annotations

from dataclasses import dataclass

from ... import _validation
from ...core.design import TwoSampleDesign
from ...inputs import check_two_sample
from .._shared.keywords import RANK_TEST_METHODS

__all__ = ["Settings", "check"]


@dataclass(frozen=True, kw_only=True)
class Settings(_validation.RankTestSettings):
    """What a rank-sum run reads: the design and the rank tests' keywords, checked
    (:class:`~pairedstats._validation.RankTestSettings`).

    Attributes
    ----------
    design : TwoSampleDesign
        The two samples of each group, checked.
    """

    design: TwoSampleDesign


def check(design, *, keep: bool, **keywords) -> Settings:
    """Validate the keywords of :func:`ranksum` and :func:`ranksum_design` (``alternative``,
    ``confidence_level``, ``method``, ``correction``, ``progress``) and the design; every
    message names the keyword, the rule and the value received. ``keep`` is accepted as
    every method's check accepts it: the result holds nothing it would keep."""
    checked = _validation.check_rank_test(methods=RANK_TEST_METHODS, **keywords)
    return Settings(design=check_two_sample(design), **checked)
