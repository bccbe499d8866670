"""The Bayesian signed-rank test's run: each comparison's posterior samples of (p_left,
p_rope, p_right) from its own label-keyed stream, then the fractions of the samples in which
each is the largest and their means (:func:`run`)."""

from __future__ import annotations

import numpy as np

from ...core.bayes_signrank import item_order, largest_fractions, posterior_samples, stream
from .._shared.runs import Outputs, comparison_labels
from .result import BayesSignrankResult
from .settings import Settings

__all__ = ["run"]

#: The result's probability columns, in the order of the samples' three columns.
PROBS = ("prob_a_better", "prob_equivalent", "prob_b_better")
MEANS = ("mean_a_better", "mean_equivalent", "mean_b_better")


def run(s: Settings) -> BayesSignrankResult:
    """The posterior of every comparison (b - a) of every group."""
    design = s.design
    out = Outputs(design.n_groups, len(s.pairs))
    out.add("n_items", np.int64, 0)
    for name in PROBS + MEANS:
        out.add(name)
    out.per_group("n_dropped", design.n_dropped(), np.int64)
    kept = np.empty((*out.shape, s.n_samples, 3)) if s.keep else None
    systems = design.systems
    for g in range(design.n_groups):
        rows = design.group(g)
        scores = design.scores[rows, :, 0][item_order(design.items[rows])]
        out.set(g, n_items=scores.shape[0])
        for c, (a, b) in enumerate(s.pairs):
            labels = stream(design.stream_key(g), systems[a], systems[b])
            samples = posterior_samples(scores[:, b] - scores[:, a], s.rope,
                                        s.prior_strength, s.rng, labels, s.n_samples)  # fmt: skip
            for name, value in zip(PROBS, largest_fractions(samples), strict=True):
                out[name][g, c] = value
            for name, value in zip(MEANS, samples.mean(axis=0), strict=True):
                out[name][g, c] = value
            if kept is not None:
                kept[g, c] = samples
    return BayesSignrankResult(**comparison_labels(design, s.pairs), metadata=s.metadata(),
                               posterior=kept, **out.arrays)  # fmt: skip
