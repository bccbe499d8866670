"""Small example data sets bundled with pairedstats.

Both are simulated with explicit seeds by ``examples/make_datasets.py`` in the repository.
"""

from __future__ import annotations

from importlib import resources

__all__ = ["load_ratings", "load_runs"]


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
