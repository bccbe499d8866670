"""Small example data sets bundled with pairedstats.

Most tables are simulated with explicit seeds by ``examples/make_datasets.py`` in the
repository; the TREC files (:func:`trec_example_files`) are written by hand, small enough to
check their measures by hand. :func:`load_demsar` is a published table (Demšar 2006, Table 6).
:func:`load_grid_search` and :func:`load_model_sweep` are cross-validation scores of
scikit-learn models, written by ``tests/reference/cv_ttest/grid_search.py`` and
``model_sweep.py`` in the repository (scikit-learn is not needed to load them).
"""

from __future__ import annotations

from importlib import resources

__all__ = [
    "inspect_example_folder",
    "lm_eval_example_folder",
    "load_demsar",
    "load_grid_search",
    "load_leaderboard",
    "load_model_sweep",
    "load_ratings",
    "load_runs",
    "trec_example_files",
]


def _read(name: str):
    import pandas as pd

    with resources.files("pairedstats").joinpath("data", name).open("rb") as fh:
        return pd.read_csv(fh)


def load_runs():
    """Per-query scores of four retrieval runs on two collections (tidy).

    Returns
    -------
    pandas.DataFrame
        Columns ``collection`` (``"robust04"``, ``"msmarco"``), ``query`` (40 per
        collection), ``run`` (``"bm25"``, ``"bm25+rm3"``, ``"dense"``, ``"hybrid"``),
        ``ndcg`` (nDCG@10, 4 decimals) and ``p10`` (precision at 10, on the 0.1 grid).

    Examples
    --------
    >>> df = load_runs()
    >>> df.shape
    (320, 5)
    >>> df.groupby("run", sort=False).size().to_dict()
    {'bm25': 80, 'bm25+rm3': 80, 'dense': 80, 'hybrid': 80}
    """
    return _read("runs.csv")


def load_ratings():
    """A simulated social-influence survey: who changed their rating, and by how much.

    Returns
    -------
    pandas.DataFrame
        One row per participant: ``median_seen`` (the median of earlier ratings shown to
        the participant), ``initial`` and ``final`` ratings (0 to 10 in steps of 0.5),
        ``changed`` (``"changed"`` or ``"unchanged"``) and ``deviation``
        (``|final - median_seen|``).

    Examples
    --------
    >>> df = load_ratings()
    >>> df["changed"].value_counts().to_dict()
    {'unchanged': 160, 'changed': 80}
    """
    return _read("ratings.csv")


def load_demsar():
    """Demšar's (2006) Table 6: the AUC of four C4.5 variants on 14 UCI data sets (wide).

    The table of J. Demšar, "Statistical comparisons of classifiers over multiple data
    sets", *Journal of Machine Learning Research* 7 (2006), 1-30, Table 6, as printed (three
    decimals): the worked example of the Friedman test, the post-hoc tests and the
    critical-difference diagram (``docs/friedman.md``). The paper ranks the variants from
    the unrounded AUCs, so where the printed AUCs tie (``voting``) its ranks differ from the
    ranks of this table; its average ranks of ``C4.5`` (3.143) and ``C4.5+m`` (2.000) are
    those of this table.

    Returns
    -------
    pandas.DataFrame
        One row per data set, indexed by ``dataset`` (``"adult (sample)"`` ...
        ``"wine"``), a column of AUCs per variant: ``C4.5``, ``C4.5+m`` (the m of the m-estimate of
        probabilities fitted), ``C4.5+cf`` (the pruning confidence fitted) and ``C4.5+m+cf``
        (both).

    Examples
    --------
    >>> import pairedstats
    >>> auc = load_demsar()
    >>> auc.shape, list(auc.columns)
    ((14, 4), ['C4.5', 'C4.5+m', 'C4.5+cf', 'C4.5+m+cf'])
    >>> res = auc.paired.friedman(as_result=True)
    >>> round(float(res.friedman[0, 0]), 4), round(float(res.mean_rank[0][0]), 3)
    (10.9524, 3.143)
    """
    return _read("demsar_table6.csv").set_index("dataset")


def load_grid_search():
    """The test scores of scikit-learn's gallery example "Statistical comparison of models
    using grid search": four SVCs on the 100 folds of a 10 x 10 cross-validation (tidy).

    The example's experiment, rerun with scikit-learn 1.9: ``make_moons(noise=0.352,
    random_state=1, n_samples=100)``; ``SVC(random_state=0)`` with a linear kernel, a
    polynomial one of degree 2 and of degree 3, and an RBF kernel; scored by the ROC AUC on
    the test folds of ``RepeatedStratifiedKFold(n_splits=10, n_repeats=10, random_state=0)``
    (90 training and 10 test rows each, so ``test_fraction=0.1``). Every model is scored on
    the same folds; the scores keep every digit. The guide ``docs/model_sweeps.md``
    reproduces the example's numbers from this table.

    Returns
    -------
    pandas.DataFrame
        400 rows: ``model`` (the example's names, ``"linear"``, ``"2_poly"``, ``"3_poly"``,
        ``"rbf"``, in its grid's order), ``repeat`` (0 to 9), ``fold`` (0 to 9) and
        ``score`` (the ROC AUC).

    Examples
    --------
    >>> scores = load_grid_search()
    >>> scores.shape, scores["model"].unique().tolist()
    ((400, 4), ['linear', '2_poly', '3_poly', 'rbf'])
    >>> scores.groupby("model", sort=False)["score"].mean().round(4).to_dict()
    {'linear': 0.93, '2_poly': 0.6852, '3_poly': 0.9044, 'rbf': 0.94}
    """
    return _read("grid_search.csv")


def load_model_sweep():
    """A small model sweep: three classifiers on four of scikit-learn's bundled data sets,
    scored by accuracy on the folds of a 10 x 10 cross-validation (an xarray Dataset).

    The data sets are scikit-learn's ``wine`` (178 rows), ``breast_cancer`` (569),
    ``iris`` (150) and ``digits`` (1,797); the models ``logreg`` (standardized features,
    logistic regression), ``forest`` (a random forest of 100 trees) and ``knn`` (standardized
    features, 5 nearest neighbours). Every model of a data set is scored on the same test
    folds of ``RepeatedStratifiedKFold(n_splits=10, n_repeats=10, random_state=0)``
    (``test_fraction=0.1``); accuracies to 6 decimals. ``.to_dataframe().reset_index()``
    gives the tidy table.

    Returns
    -------
    xarray.Dataset
        One variable, ``accuracy``, with dimensions ``dataset``, ``model`` (in the orders
        above, which are not sorted), ``repeat`` (0 to 9) and ``fold`` (0 to 9).

    Examples
    --------
    >>> sweep = load_model_sweep()
    >>> dict(sweep.sizes)
    {'dataset': 4, 'model': 3, 'repeat': 10, 'fold': 10}
    >>> sweep["accuracy"].mean(["repeat", "fold"]).sel(dataset="iris").round(4).values.tolist()
    [0.9547, 0.9507, 0.9507]
    """
    frame = _read("model_sweep.csv")
    index = ["dataset", "model", "repeat", "fold"]
    ds = frame.set_index(index).to_xarray()
    # to_xarray sorts the labels: put data sets and models back in the file's order
    return ds.reindex(dataset=frame["dataset"].unique(), model=frame["model"].unique())


#: The model families and sizes of :func:`load_leaderboard` (names in no sorted order).
_FAMILIES = ("kestrel", "atlas", "juniper", "fjord", "cedar", "lumen", "birch", "heron",
             "ember", "gale", "dune", "iris")  # fmt: skip
_SIZES = ("8b", "1b", "70b", "3b", "34b")


def load_leaderboard(seed: int = 2026):
    """A simulated public-style leaderboard: 120 language models scored right or wrong on
    the same 1,000 questions of 10 subjects (tidy, 120,000 rows).

    The models are 12 families x 5 sizes x 2 versions (``"atlas-8b-v2"``), listed in no
    sorted order. Each answer is right with the probability of a two-parameter item
    response model, ``1 / (1 + exp(-a_q (theta_m - b_q)))``: each question has a
    difficulty ``b_q`` and a discrimination ``a_q``, each model an ability ``theta_m`` that
    grows with its family's level, the log of its size and its version, so that many
    models are close (as on real leaderboards) and a few are clearly ahead. Simulated from
    ``numpy.random.default_rng(seed)`` uniform draws only, so the table is the same on
    every machine.

    Returns
    -------
    pandas.DataFrame
        Columns ``model``, ``question`` (``"q0000"``...), ``subject`` (``"s0"``...
        ``"s9"``, 100 questions each) and ``correct`` (0 or 1).

    Examples
    --------
    >>> board = load_leaderboard()
    >>> board.shape, board["model"].nunique(), board["question"].nunique()
    ((120000, 4), 120, 1000)
    >>> board["model"].iloc[0], round(float(board["correct"].mean()), 3)
    ('kestrel-8b-v1', 0.57)
    """
    import numpy as np
    import pandas as pd

    gen = np.random.default_rng(seed)
    n_questions = 1000
    u = gen.random((4, n_questions))
    difficulty = 2.0 * (u[0] + u[1] - 1.0)  # triangular on (-2, 2)
    discrimination = 0.6 + 1.2 * u[2]
    subject = (np.arange(n_questions) * 10) // n_questions
    level = dict(zip(_FAMILIES, 0.9 * gen.random(len(_FAMILIES)) - 0.45, strict=True))
    names, ability = [], []
    for family in _FAMILIES:
        for size in _SIZES:
            for version in (1, 2):
                names.append(f"{family}-{size}-v{version}")
                params = float(size[:-1])
                ability.append(level[family] + 0.35 * np.log(params) + 0.12 * version - 0.7)
    theta = np.array(ability)[:, None]
    p = 1.0 / (1.0 + np.exp(-discrimination * (theta - difficulty)))
    correct = (gen.random(p.shape) < p).astype(np.int64)
    return pd.DataFrame({
        "model": np.repeat(names, n_questions),
        "question": np.tile([f"q{q:04d}" for q in range(n_questions)], len(names)),
        "subject": np.tile([f"s{s}" for s in subject], len(names)),
        "correct": correct.ravel(),
    })  # fmt: skip


def trec_example_files():
    """A tiny TREC example: qrels of 4 queries and 3 run files, for ``pairedstats compare``.

    The runs are ``tfidf``, ``bm25`` and ``splade`` (in that order, which is not sorted);
    ``bm25`` retrieved nothing for query 104, and ``tfidf`` retrieved a query the qrels do
    not judge (999).

    Returns
    -------
    qrels : pathlib.Path
        ``qrels.txt`` (``query iteration document relevance``).
    runs : list of pathlib.Path
        The run files (``query Q0 document rank score tag``).

    Examples
    --------
    >>> qrels, runs = trec_example_files()
    >>> qrels.name, [run.stem for run in runs]
    ('qrels.txt', ['tfidf', 'bm25', 'splade'])
    """
    from pathlib import Path

    folder = Path(str(resources.files("pairedstats").joinpath("data", "trec")))
    return folder / "qrels.txt", [folder / f"{name}.run" for name in ("tfidf", "bm25", "splade")]


def _data_folder(name: str):
    from pathlib import Path

    return Path(str(resources.files("pairedstats").joinpath("data", name)))


def lm_eval_example_folder():
    """A small lm-evaluation-harness output folder, for :func:`pairedstats.read_lm_eval`.

    Two models, ``org/kestrel-7b`` and ``org/atlas-8b`` (in that order, which is not
    sorted), each in its own folder as ``lm_eval --log_samples`` writes it: the group
    ``mini_mmlu`` (4 subject tasks of 20 multiple-choice questions, metrics ``acc`` and
    ``acc_norm``) and, run twice, ``mini_gsm`` (30 questions answered in words, metric
    ``exact_match`` under the filters ``strict-match`` and ``flexible-extract``). The
    answers are simulated (``examples/make_lm_eval_logs.py`` in the repository); the files
    are laid out and filled as lm-evaluation-harness 0.4 writes them.

    Returns
    -------
    pathlib.Path
        The folder (``<folder>/org__kestrel-7b/samples_mini_gsm_<time>.jsonl``, ...).

    Examples
    --------
    >>> folder = lm_eval_example_folder()
    >>> sorted(p.name for p in folder.iterdir())
    ['org__atlas-8b', 'org__kestrel-7b']
    """
    return _data_folder("lm_eval")


def inspect_example_folder():
    """Two inspect-ai eval logs (``.eval``), for :func:`pairedstats.read_inspect`.

    The task ``arith`` (5 questions in two subjects, sample metadata ``subject``), 2 epochs,
    scorers ``match`` (``"C"``/``"I"``) and ``closeness`` (a float), run on two models:
    inspect-ai's ``mockllm`` provider replaying fixed answers as ``mockllm/kestrel`` and
    ``mockllm/atlas``. Written by inspect-ai 0.3.260 itself
    (``tests/reference/harnesses/inspect/make_logs.py`` in the repository).

    Returns
    -------
    pathlib.Path
        The folder of the two ``.eval`` files.

    Examples
    --------
    >>> sorted(p.suffix for p in inspect_example_folder().iterdir())
    ['.eval', '.eval']
    """
    return _data_folder("inspect")
