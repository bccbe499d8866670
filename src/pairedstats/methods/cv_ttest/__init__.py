"""The corrected resampled t-test of cross-validation folds (Nadeau and Bengio 2003), with the
Bayesian correlated t-test's posterior probabilities with a rope (Corani and Benavoli 2015)
(:mod:`.spec`)."""

from .result import CvTtestResult
from .spec import cv_ttest, cv_ttest_design

__all__ = ["CvTtestResult", "cv_ttest", "cv_ttest_design"]
