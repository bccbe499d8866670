"""The Bayesian signed-rank test (``bayes_signrank``): baycomp's ``two_on_multiple`` within
Monte Carlo error (``tests/reference/bayes_signrank``), the posterior means against the
Dirichlet expectation worked by hand, the streams (same rng, same numbers; a comparison's
numbers independent of the other systems and groups; b - a the mirror of a - b), every road
(arrays, tidy and wide DataFrames with ``by=``, Datasets, DataArrays, the command line) and
the refusals."""

from __future__ import annotations

import doctest
import io
import json
import os
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import xarray as xr
from tests.data import run_page

import pairedstats
from pairedstats import bayes_signrank, cli
from pairedstats.core.bayes_signrank import (
    largest_fractions,
    posterior_samples,
    stream,
    walsh_sides,
)

REFERENCE = json.loads(
    (Path(__file__).parent / "reference/bayes_signrank/baycomp.json").read_text()
)
#: Systems in an order that is not sorted.
SYSTEMS = ["tuned", "base", "distilled"]
PROBS = ["prob_a_better", "prob_equivalent", "prob_b_better"]
MEANS = ["mean_a_better", "mean_equivalent", "mean_b_better"]


def _scores(seed: int, n: int = 12) -> np.ndarray:
    rng = np.random.default_rng(seed)
    base = 0.8 + rng.normal(0, 0.05, (n, 1))
    return np.round(base + rng.normal([0.02, 0.0, -0.004], 0.015, (n, 3)), 3)


@pytest.mark.parametrize("case", REFERENCE["cases"], ids=lambda c: c["name"])
def test_probabilities_and_means_agree_with_baycomp(case):
    """Both sample 50,000 times: each probability within 4 standard errors of the difference
    of two proportions, each posterior mean within 4 standard errors of a difference of
    means."""
    n = REFERENCE["meta"]["nsamples"]
    frame = pd.DataFrame({"x": case["a"], "y": case["b"]})
    res = frame.paired.bayes_signrank(rope=case["rope"], prior_strength=case["prior"],
                                      n_samples=n, rng=43, as_result=True)  # fmt: skip
    probs = np.array([float(getattr(res, c)[0, 0]) for c in PROBS])
    means = np.array([float(getattr(res, c)[0, 0]) for c in MEANS])
    p = (probs + np.array(case["probs"])) / 2
    se = np.sqrt(2 * p * (1 - p) / n) + 1 / n
    assert np.all(np.abs(probs - case["probs"]) < 4 * se), (probs, case["probs"])
    sd = res.posterior[0, 0].std(axis=0)
    assert np.all(np.abs(means - case["means"]) <= 4 * np.sqrt(2 / n) * sd + 1e-12)
    assert probs.sum() == pytest.approx(1.0, abs=1e-12)
    if case["rope"] == 0:
        assert probs[1] == 0
        assert means[1] == 0


def _dirichlet_mean(z, rope, prior):
    """The posterior mean of ``(p_left, p_rope, p_right)`` in closed form: with ``alpha =
    (prior, 1, .., 1)`` and ``a0 = sum(alpha)``, ``E[w_i w_j] = alpha_i alpha_j / (a0 (a0 +
    1))`` for ``i != j`` and ``alpha_i (alpha_i + 1) / (a0 (a0 + 1))`` for ``i == j``."""
    alpha = np.array([prior] + [1.0] * len(z))
    a0 = alpha.sum()
    e = np.outer(alpha, alpha) + np.diag(alpha)
    e /= a0 * (a0 + 1)
    right, left = walsh_sides(np.asarray(z), rope)
    pl, pr = float((e * left).sum()), float((e * right).sum())
    return np.array([pl, 1 - pl - pr, pr])


def test_posterior_mean_by_hand_on_three_items():
    """z = (0.3, -0.1, 0.2), rope 0, prior weight -> 0: the Dirichlet(1, 1, 1) weights have
    E[w_i^2] = 2/12 and E[w_i w_j] = 1/12; the Walsh sums z_i + z_j are positive for two of
    the three i == j (0.6, 0.4; not -0.2) and for all six ordered pairs i != j (0.2, 0.5,
    0.1), so the posterior mean of p_right is (2 * 2 + 6 * 1) / 12 = 5/6."""
    z = np.array([0.3, -0.1, 0.2])
    n = 200_000
    s = posterior_samples(z, 0.0, 1e-9, 5, stream(()), n)[0]
    se = s.std(axis=0) / np.sqrt(n)
    assert abs(s[:, 2].mean() - 5 / 6) < 4 * se[2]
    assert abs(s[:, 0].mean() - 1 / 6) < 4 * se[0]
    np.testing.assert_allclose(_dirichlet_mean(z, 0.0, 0.0), [1 / 6, 0, 5 / 6], atol=1e-15)
    # with the prior point of weight 0.5 and a rope, against the closed form
    for rope, prior in ((0.0, 0.5), (0.15, 0.5), (0.1, 2.0)):
        s = posterior_samples(z, rope, prior, 6, stream(()), n)[0]
        expected = _dirichlet_mean(z, rope, prior)
        se = s.std(axis=0) / np.sqrt(n) + 1e-15
        assert np.all(np.abs(s.mean(axis=0) - expected) < 4 * se), (rope, prior)


def test_walsh_averages_on_the_rope_edge_count_half():
    right, left = walsh_sides(np.array([0.5, 0.0]), 0.25)
    # points (0, 0.5, 0): sums 0, 0.5, 0 / 0.5, 1, 0.5 / 0, 0.5, 0; the edge is 2 rope = 0.5
    assert right.tolist() == [[0, 0.5, 0], [0.5, 1, 0.5], [0, 0.5, 0]]
    assert not left.any()
    assert largest_fractions(np.array([[0.4, 0.2, 0.4]])).tolist() == [0.5, 0.0, 0.5]


def test_same_rng_same_numbers_and_other_rng_others():
    frame = pd.DataFrame(_scores(1), columns=SYSTEMS)
    one = frame.paired.bayes_signrank(rope=0.01, n_samples=3000, rng=7)
    two = frame.paired.bayes_signrank(rope=0.01, n_samples=3000, rng=7)
    pd.testing.assert_frame_equal(one, two)
    other = frame.paired.bayes_signrank(rope=0.01, n_samples=3000, rng=8)
    assert not np.array_equal(one[MEANS].to_numpy(), other[MEANS].to_numpy())
    entropy = one.attrs["seed_entropy"]
    again = frame.paired.bayes_signrank(rope=0.01, n_samples=3000, rng=entropy)
    pd.testing.assert_frame_equal(one, again)


def test_a_comparison_does_not_depend_on_the_other_systems_or_groups():
    scores = _scores(2)
    three = pd.DataFrame(scores, columns=SYSTEMS)
    two = pd.DataFrame(scores[:, [2, 1]], columns=["distilled", "base"])
    kw = dict(rope=0.005, n_samples=2000, rng=11)
    all_pairs = three.paired.bayes_signrank(**kw).set_index(["system_a", "system_b"])
    alone = two.paired.bayes_signrank(baseline="base", **kw).iloc[0]
    assert (alone["system_a"], alone["system_b"]) == ("base", "distilled")
    row = all_pairs.loc[("base", "distilled")]
    for c in PROBS + MEANS:
        assert row[c] == alone[c], c
    # b - a is the mirror of a - b: the same draws, left and right exchanged
    swapped = two.paired.bayes_signrank(baseline="distilled", **kw).iloc[0]
    assert swapped["prob_a_better"] == alone["prob_b_better"]
    assert swapped["mean_b_better"] == alone["mean_a_better"]
    # groups: a group's numbers are its own; equal data in two groups get other draws
    tidy = pd.concat([_tidy(scores, "north"), _tidy(_scores(3), "south"),
                      _tidy(scores, "east")])  # fmt: skip
    by = tidy.paired.bayes_signrank(item="item", system="system", score="score", by="site",
                                    **kw).set_index(["site", "system_a", "system_b"])  # fmt: skip
    north_only = (
        tidy[tidy.site == "north"]
        .paired.bayes_signrank(item="item", system="system", score="score", by="site", **kw)
        .set_index(["site", "system_a", "system_b"])
    )
    pd.testing.assert_frame_equal(by.loc[["north"]], north_only, check_like=True)
    assert by.loc["north"]["mean_b_better"].tolist() != by.loc["east"]["mean_b_better"].tolist()


def _items(scores) -> list[str]:
    return [f"d{len(scores) - i}" for i in range(len(scores))]  # not in sorted order


def _tidy(scores, site: str) -> pd.DataFrame:
    n, items = len(scores), _items(scores)
    return pd.DataFrame({"site": site, "item": np.repeat(items, len(SYSTEMS)),
                         "system": np.tile(SYSTEMS, n), "score": scores.ravel()})  # fmt: skip


def _expected(scores, key, a: int, b: int, items=None, rope=0.01, n=2000, root=5):
    """The numbers of one comparison from the core, the items in the order of the rows, or
    of their labels ``items`` (a tidy table's design sorts its items by label)."""
    if items is not None:
        scores = scores[np.argsort(np.array(items), kind="stable")]
    s = posterior_samples(scores[:, b] - scores[:, a], rope, 0.5, root,
                          stream(key), n)[0]  # fmt: skip
    return np.concatenate([largest_fractions(s), s.mean(axis=0)])


def _row(row) -> np.ndarray:
    return np.array([float(row[c]) for c in PROBS + MEANS])


def test_every_road_gives_the_same_numbers(tmp_path, capsys):
    cases = {"north": _scores(10), "south": _scores(11, n=9)}
    tidy = pd.concat([_tidy(s, site) for site, s in cases.items()]).sample(
        frac=1.0, random_state=3
    )
    kw = dict(rope=0.01, n_samples=2000, rng=5, baseline="base")
    out = tidy.paired.bayes_signrank(item="item", system="system", score="score", by="site",
                                     **kw)  # fmt: skip
    assert len(out) == 4
    assert set(out.system_a) == {"base"}
    for site, scores in cases.items():
        for other in ("tuned", "distilled"):
            row = out[(out.site == site) & (out.system_b == other)].iloc[0]
            expected = _expected(scores, (site,), 1, SYSTEMS.index(other), _items(scores))
            np.testing.assert_array_equal(_row(row), expected)
    scores = cases["north"]
    wide = pd.DataFrame(scores, columns=SYSTEMS).paired.bayes_signrank(**kw)
    np.testing.assert_array_equal(_row(wide.set_index("system_b").loc["tuned"]),
                                  _expected(scores, (), 1, 0))  # fmt: skip
    array = bayes_signrank(scores, systems=SYSTEMS, **kw)
    np.testing.assert_array_equal(array.mean_b_better[0], wide["mean_b_better"].to_numpy())
    da = xr.DataArray(
        np.stack([cases["north"], _scores(12, n=12)]),
        dims=("site", "item", "system"),
        coords={"site": ["north", "west"], "system": SYSTEMS},
        name="acc",
    )
    for res in (da.to_dataset().paired.bayes_signrank(**kw), da.paired.bayes_signrank(**kw)):
        cell = res.sel(site="north", system_b="distilled")
        np.testing.assert_array_equal(
            np.array([cell[c].item() for c in PROBS + MEANS]),
            _expected(cases["north"], ("north",), 1, 2),
        )
    path = tmp_path / "scores.csv"
    tidy.to_csv(path, index=False)
    code = cli.main(["bayes-signrank", str(path), "--item", "item", "--system", "system",
                     "--score", "score", "--by", "site", "--baseline", "base", "--rope", "0.01",
                     "--n-samples", "2000", "--rng", "5", "--format", "csv"])  # fmt: skip
    assert code == 0
    csv = pd.read_csv(io.StringIO(capsys.readouterr().out))
    row = csv[(csv.site == "south") & (csv.system_b == "tuned")].iloc[0]
    expected = _expected(cases["south"], ("south",), 1, 0, _items(cases["south"]))
    np.testing.assert_allclose(_row(row), expected, rtol=1e-12)


def test_the_posterior_draws_are_kept_for_a_plot():
    frame = pd.DataFrame(_scores(4), columns=SYSTEMS)
    res = frame.paired.bayes_signrank(rope=0.01, n_samples=1500, rng=1, as_result=True)
    assert res.posterior.shape == (1, 3, 1500, 3)
    np.testing.assert_allclose(res.posterior.sum(axis=-1), 1.0, atol=1e-12)
    np.testing.assert_array_equal(res.posterior.mean(axis=2)[..., 2], res.mean_b_better)
    assert res.metadata["rope"] == 0.01
    assert res.metadata["prior_strength"] == 0.5
    assert "posterior" not in frame.paired.bayes_signrank(rope=0.01, n_samples=10, rng=1)


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"rope": -0.1}, ValueError, r"`rope` must be finite and >= 0; got -0.1"),
        ({"rope": float("nan")}, ValueError, r"`rope` must be finite"),
        ({"rope": "wide"}, TypeError, r"`rope` must be a real number"),
        (
            {"rope": 0.1, "prior_strength": 0},
            ValueError,
            r"`prior_strength` must be finite and > 0",
        ),
        ({"rope": 0.1, "n_samples": 0}, ValueError, r"`n_samples` must be a positive integer"),
        ({"rope": 0.1, "baseline": "nobody"}, ValueError, r"`baseline` must be one of"),
        ({"rope": 0.1, "replicate": "seed"}, TypeError, r"bayes_signrank does not take"),
    ],
)
def test_bad_keywords_are_refused(kwargs, error, match):
    frame = pd.DataFrame(np.arange(12.0).reshape(4, 3), columns=SYSTEMS)
    with pytest.raises(error, match=match):
        frame.paired.bayes_signrank(**kwargs)


def test_rope_is_required():
    frame = pd.DataFrame(np.arange(12.0).reshape(4, 3), columns=SYSTEMS)
    with pytest.raises(TypeError, match="rope"):
        frame.paired.bayes_signrank()


def test_exported_and_documented():
    assert pairedstats.bayes_signrank is bayes_signrank
    assert "BayesSignrankResult" in pairedstats.__all__
    assert "prob_equivalent" in pairedstats.bayes_signrank.__doc__


def test_the_docstring_examples_run():
    from pairedstats import bayes_signrank_design

    functions = (bayes_signrank, bayes_signrank_design, pd.DataFrame.paired.bayes_signrank,
                 xr.Dataset.paired.bayes_signrank)  # fmt: skip
    for function in functions:
        parsed = doctest.DocTestParser().get_doctest(function.__doc__, {}, "example", None, 0)
        runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
        runner.run(parsed)
        assert runner.summarize(verbose=False).failed == 0, function


def test_the_docs_page_runs():
    run_page(Path(__file__).parents[1] / "docs/bayes_signrank.md", min_examples=4)


def test_significant_marks_a_probable_winner():
    frame = pd.DataFrame(_scores(7), columns=SYSTEMS)
    res = frame.paired.bayes_signrank(rope=0.005, n_samples=4000, rng=3, as_result=True)
    best = np.maximum(res.prob_a_better, res.prob_b_better)
    for alpha in (0.05, 0.2):
        flags = res.significant(alpha).to_numpy()
        np.testing.assert_array_equal(flags, best >= 1 - alpha)
    assert res.significant().to_numpy().any()
    assert not res.significant().to_numpy().all()
    with pytest.raises(ValueError, match="alpha"):
        res.significant(1.5)


@pytest.mark.slow  # a fresh interpreter
def test_the_calibration_table_is_the_committed_study():
    """docs/bayes_signrank.md shows validation/results/bayes_signrank.csv as
    ``validation/calibration_bayes.py --report`` prints it."""
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[1]
    table = subprocess.run(
        [sys.executable, str(root / "validation" / "calibration_bayes.py"), "--report"],
        capture_output=True, text=True, check=True,
    ).stdout.strip()  # fmt: skip
    assert table.count("\n") == 7
    assert table in (root / "docs" / "bayes_signrank.md").read_text(encoding="utf-8")


def test_the_running_sums_equal_the_matrix_form():
    """Each sample's ``w^T H w`` read from running sums in sorted order equals the matrix
    product with :func:`walsh_sides`' matrices, on differences with ties, zeros and sums on
    the rope's edge (0.01 steps, rope 0.01 or 0.02)."""
    from pairedstats.core.bayes_signrank import _right, walsh_counts

    gen = np.random.default_rng(17)
    for _ in range(100):
        z = np.round(gen.normal(0.0, 0.03, size=int(gen.integers(1, 30))), 2)
        rope = float(gen.choice([0.0, 0.01, 0.02]))
        w = gen.dirichlet(np.ones(len(z) + 1), size=40)
        right, left = walsh_sides(z, rope)
        np.testing.assert_allclose(_right(w, *walsh_counts(z, rope)),
                                   np.einsum("ri,ij,rj->r", w, right, w), atol=1e-14)  # fmt: skip
        np.testing.assert_allclose(_right(w, *walsh_counts(-z, rope)),
                                   np.einsum("ri,ij,rj->r", w, left, w), atol=1e-14)  # fmt: skip


@pytest.mark.slow  # two fresh interpreters
def test_the_samples_do_not_depend_on_the_blas_threads():
    """No matrix product: the same bytes with one BLAS thread and with two."""
    import subprocess
    import sys

    code = ("import hashlib, numpy as np; from pairedstats.core.bayes_signrank import "
            "posterior_samples, stream; d = np.random.default_rng(2).normal(0, .02, (200, 3)); "
            "print(hashlib.sha256(posterior_samples(d, 0.01, 0.5, 9, stream(()), 3000)"
            ".tobytes()).hexdigest())")  # fmt: skip
    digests = set()
    for threads in ("1", "2"):
        env = {**os.environ, "OPENBLAS_NUM_THREADS": threads, "OMP_NUM_THREADS": threads,
               "MKL_NUM_THREADS": threads}  # fmt: skip
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             check=True, env=env)  # fmt: skip
        digests.add(out.stdout.strip())
    assert len(digests) == 1
