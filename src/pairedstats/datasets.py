"""Small example data sets bundled with pairedstats.

The tables are simulated with explicit seeds by ``examples/make_datasets.py`` in the
repository; the TREC files (:func:`trec_example_files`) are written by hand, small enough to
check their measures by hand.
"""

from __future__ import annotations

from importlib import resources

__all__ = ["load_ratings", "load_runs", "trec_example_files"]


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
