"""The Bayesian signed-rank test's run: each comparison's posterior samples of (p_left,
p_rope, p_right) from its own label-keyed stream, then the fractions of the samples in which
each is the largest and their means (:func:`run`)."""

from __future__ import annotations

import numpy as np

from ...core.bayes_signrank import largest_fractions, posterior_samples, stream
from .._shared.runs import Outputs, comparison_labels
from .result import BayesSignrankResult
from .settings import Settings

__all__ = ["run"]

#: The result's probability columns, in the order of the samples' three columns.
PROBS = ("prob_a_better", "prob_equivalent", "prob_b_better")
MEANS = ("mean_a_better", "mean_equivalent", "mean_b_better")
#: Comparisons sampled at once (bounds the memory of their samples: this x n_samples x 3).
BLOCK = 16


def run(s: Settings) -> BayesSignrankResult:
    """The posterior of every comparison (b - a) of every group."""
    design = s.design
    out = Outputs(design.n_groups, len(s.pairs))
    out.add("n_items", np.int64, 0)
    for name in PROBS + MEANS:
        out.add(name)
    out.per_group("n_dropped", design.n_dropped(), np.int64)
    kept = np.empty((*out.shape, s.n_samples, 3)) if s.keep else None
    a, b = (np.array([p[i] for p in s.pairs], dtype=np.intp) for i in (0, 1))
    for g in range(design.n_groups):
        scores = design.scores[design.group(g), :, 0]
        out.set(g, n_items=scores.shape[0])
        for lo in range(0, len(s.pairs), BLOCK):
            cols = slice(lo, lo + BLOCK)
            samples = posterior_samples(scores[:, b[cols]] - scores[:, a[cols]], s.rope,
                                        s.prior_strength, s.rng, stream(design.stream_key(g)),
                                        s.n_samples)  # fmt: skip
            for c, one in enumerate(samples, lo):
                for name, value in zip(PROBS, largest_fractions(one), strict=True):
                    out[name][g, c] = value
                for name, value in zip(MEANS, one.mean(axis=0), strict=True):
                    out[name][g, c] = value
                if kept is not None:
                    kept[g, c] = one
    return BayesSignrankResult(**comparison_labels(design, s.pairs), metadata=s.metadata(),
                               posterior=kept, **out.arrays)  # fmt: skip
