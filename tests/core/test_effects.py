"""Paired effect sizes against scipy's paired t statistic and pandas counts."""

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from pairedstats.core.effects import paired_effects


def test_dz_is_the_paired_t_statistic_over_root_n():
    gen = np.random.default_rng(1)
    scores = gen.normal(size=(37, 3)) + np.array([0.0, 0.4, -0.2])
    out = paired_effects(scores, [(0, 1), (0, 2), (2, 1)])
    for c, (a, b) in enumerate([(0, 1), (0, 2), (2, 1)]):
        t = stats.ttest_rel(scores[:, b], scores[:, a]).statistic
        assert out.effect_size[c] == pytest.approx(t / np.sqrt(37), rel=1e-12)


def test_wins_ties_losses_count_items():
    frame = pd.DataFrame({"a": [1, 2, 3, 3, 0.5], "b": [2, 2, 1, 4, 0.5]})
    out = paired_effects(frame.to_numpy(float), [(0, 1)])
    assert out.wins[0] == (frame.b > frame.a).sum() == 2
    assert out.ties[0] == (frame.b == frame.a).sum() == 2
    assert out.losses[0] == (frame.b < frame.a).sum() == 1


def test_degenerate_differences():
    same = paired_effects(np.array([[1.0, 1.0], [2.0, 2.0]]), [(0, 1)])
    assert np.isnan(same.effect_size[0])
    shift = paired_effects(np.array([[1.0, 2.0], [2.0, 3.0]]), [(0, 1)])
    assert shift.effect_size[0] == np.inf
    one = paired_effects(np.array([[1.0, 2.0]]), [(0, 1)])
    assert np.isnan(one.effect_size[0])
    assert one.wins[0] == 1


def test_rounding_of_the_scores_is_not_a_spread():
    # 0.1 - 0.0 and 0.3 - 0.2 are an ulp apart: the same difference, d_z infinite at any scale
    scores = np.array([[0.0, 0.1], [0.2, 0.3]])
    for scale in (1.0, 1e-10, 1e10):
        assert paired_effects(scale * scores, [(0, 1)]).effect_size[0] == np.inf
    # differences of mean 0 in exact arithmetic: d_z 0, not an ulp over the spread
    balanced = np.array([[0.0, 0.1], [0.3, 0.2], [0.5, 0.5]])
    assert paired_effects(balanced, [(0, 1)]).effect_size[0] == 0.0
