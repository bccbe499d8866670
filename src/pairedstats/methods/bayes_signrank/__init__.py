"""The Bayesian signed-rank test over items (data sets): the posterior probabilities that a
is better, that the two are practically equal, that b is better (:mod:`.spec`)."""

from .result import BayesSignrankResult
from .spec import bayes_signrank, bayes_signrank_design

__all__ = ["BayesSignrankResult", "bayes_signrank", "bayes_signrank_design"]
