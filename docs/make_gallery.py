"""Make the plot gallery: docs/_static/gallery/*.png and docs/gallery.md.

Run from anywhere (needs matplotlib): ``python docs/make_gallery.py``. Each plot is made by
the snippet shown above it on the page: the script runs that very text, on the bundled data
with fixed seeds, so the page's code and its picture cannot drift apart. Commit the images
and the page it writes; rerun it when a plot's look changes.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # no display needed

import matplotlib.pyplot as plt

HERE = Path(__file__).resolve().parent
OUT = HERE / "_static" / "gallery"

SETUP = """\
import pairedstats
from pairedstats import plotting

runs = pairedstats.datasets.load_runs()   # 2 collections x 40 queries x 4 runs
"""

# (file stem, title, what it shows, the code; the code ends with `fig` as the figure)
PLOTS = [
    (
        "forest",
        "Forest plot",
        "Each run's nDCG@10 difference from BM25 (b minus a) with its 95% paired bootstrap "
        "interval, a row per comparison labelled by its collection; the dashed line is zero.",
        """\
boot = runs.paired.bootstrap(item="query", system="run", score="ndcg",
                             baseline="bm25", by="collection", rng=1,
                             as_result=True)
ax = plotting.forest(boot)          # = boot.plot()
fig = ax.figure
""",
    ),
    (
        "pvalue_matrix",
        "P-value matrix",
        "The randomized Tukey HSD p-values of all pairs of runs (P@10, pooled over both "
        "collections), as a symmetric heatmap with the values written in.",
        """\
hsd = runs.paired.tukey_hsd(item="query", system="run", score="p10",
                            rng=1, as_result=True)
ax = plotting.pvalue_matrix(hsd)    # = hsd.plot()
fig = ax.figure
""",
    ),
    (
        "critical_difference",
        "Critical-difference diagram",
        "Demšar's diagram of a Friedman test with the queries as blocks: the mean ranks of "
        "the runs on MS MARCO (1 = best), a bar over each clique of runs no pair of which "
        "differs (Nemenyi, alpha = 0.05), and the critical difference above the axis.",
        """\
fri = runs.paired.friedman(item="query", system="run", score="ndcg",
                           by="collection", posthoc="nemenyi",
                           as_result=True)
fig = plotting.critical_difference(fri, group="msmarco")
""",
    ),
    (
        "distribution",
        "Bootstrap distribution",
        "The bootstrap distribution of one comparison (dense minus BM25 on MS MARCO) with "
        "its 95% interval (solid) and the observed difference (dashed).",
        """\
boot = runs.paired.bootstrap(item="query", system="run", score="ndcg",
                             baseline="bm25", by="collection", rng=1,
                             as_result=True)
ax = plotting.distribution(boot, group="msmarco",
                           comparison=("bm25", "dense"))
fig = ax.figure
""",
    ),
    (
        "leaderboard_ranks",
        "Rank intervals of a leaderboard",
        "The simultaneous 95% rank sets of 120 simulated language models on 1,000 questions "
        "(`load_leaderboard()`), a row per model from the first rank down: the set as a line "
        "(red: may be the best), the rank as a dot.",
        """\
board = pairedstats.datasets.load_leaderboard()
ranks = board.paired.rank(item="question", system="model",
                          score="correct", n_resamples=2000, rng=1,
                          as_result=True)
ax = plotting.rank_intervals(ranks)   # = ranks.plot()
fig = ax.figure
""",
    ),
    (
        "posterior_bars",
        "Posterior probabilities of cross-validated models",
        "The corrected t-test with a rope of 0.01 on the four SVMs of scikit-learn's grid "
        "search example (`load_grid_search()`, 10 x 10 folds): for each pair, the posterior "
        "probabilities that the left model is better by more than the rope, that the two are "
        "practically equivalent, and that the right model is better.",
        """\
scores = pairedstats.datasets.load_grid_search()
pairs = scores.paired.cv_ttest(item="fold", repeat="repeat",
                               system="model", score="score",
                               systems=["2_poly", "3_poly", "linear", "rbf"],
                               test_fraction=0.1, rope=0.01,
                               as_result=True)
ax = plotting.posterior(pairs)
fig = ax.figure
""",
    ),
    (
        "posterior_triangle",
        "Posterior of the Bayesian signed-rank test",
        "The Bayesian signed-rank test of a random forest against a logistic regression "
        "over four data sets (`load_model_sweep()`, each model's mean accuracy per data set, "
        "rope 0.01): each posterior draw of (logreg better, equivalent, forest better) as a "
        "point of the triangle; the dashed lines bound where each of the three is the largest.",
        """\
sweep = pairedstats.datasets.load_model_sweep()
means = sweep.mean(["repeat", "fold"])
across = means.paired.bayes_signrank(item="dataset", system="model",
                                     score="accuracy", rope=0.01,
                                     n_samples=5000, rng=1, as_result=True)
ax = plotting.posterior(across, comparison=("logreg", "forest"))
fig = ax.figure
""",
    ),
]

HEADER = """\
# Gallery

The plots of `pairedstats.plotting` on the bundled data
(`pairedstats.datasets.load_runs()`: nDCG@10 and P@10 of four retrieval runs on 40 queries
of each of two collections). Each picture is made by the code above it, after this setup
(plotting needs matplotlib: `pip install 'pairedstats[plot]'`):

```python
{setup}```

[Plots and tables for papers](plotting.md) says what each plot reads from a result and its
options; [Many data sets](friedman.md) explains the critical-difference diagram.

<!-- Written by docs/make_gallery.py, which runs the code shown: edit the script, not
this page, and rerun `python docs/make_gallery.py`. -->
"""


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    plt.rcParams.update({"figure.dpi": 100, "savefig.dpi": 150})
    parts = [HEADER.format(setup=SETUP)]
    for stem, title, caption, code in PLOTS:
        namespace: dict = {}
        exec(SETUP + code, namespace)  # the page's own text, so code and picture agree
        fig = namespace["fig"]
        fig.savefig(
            OUT / f"{stem}.png", bbox_inches="tight", metadata={"Software": None}
        )  # fmt: skip  (no version: stable bytes)
        plt.close("all")
        parts.append(
            textwrap.dedent(f"""
            ## {title}

            {caption}

            ```python
            {{code}}```

            ![{title.lower()}](_static/gallery/{stem}.png)
            """).replace("{code}", code)
        )
    (HERE / "gallery.md").write_text("".join(parts))
    print(f"wrote {len(PLOTS)} images to {OUT} and {HERE / 'gallery.md'}")


if __name__ == "__main__":
    main()
