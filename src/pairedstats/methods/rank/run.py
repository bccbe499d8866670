"""Rankings with uncertainty: each system's rank, and the set of ranks the data allow.

``df.paired.rank(item="query", system="run", score="ndcg", rng=1)`` orders the systems by
their mean score and gives each one a *rank set* ``[rank_low, rank_high]``: the ranks it may
hold given the data. The sets come from simultaneous confidence intervals of all pairwise
differences of the systems' means (Mogstad, Romano, Shaikh and Wilhelm 2024): the paired
bootstrap of all pairs with ``adjust="max-t"`` (its single-step simultaneous intervals
``ci_low_adjusted, ci_high_adjusted``), run through the ``.paired`` accessor, so the
resampling, its streams and its keywords are the bootstrap's own.

With ``p`` systems, system ``k`` is *surely better* than ``j`` when the simultaneous
interval of ``mean_k - mean_j`` lies entirely above 0 (below 0 with
``lower_is_better=True``). Then

* ``rank_low = 1 + #{k: k surely better than j}`` and
  ``rank_high = p - #{k: k surely worse than j}``;
* ``rank = 1 + #{k: mean_k > mean_j}`` (ties share the smaller rank);
* ``may_be_best``: ``rank_low == 1``.

With probability about ``confidence_level`` every interval holds, and then every system's
true rank lies in its set: the sets hold *together* (simultaneous). ``simultaneous=False``
gives marginal sets instead: each system's set from the max-t intervals of its own ``p - 1``
comparisons only (the bootstrap with that system as ``baseline``), narrower, and each holds
on its own with probability about ``confidence_level``.

Reference: Mogstad, M., Romano, J. P., Shaikh, A. M. and Wilhelm, D. (2024). Inference for
ranks with applications to mobility across neighbourhoods and academic achievement across
countries. *Review of Economic Studies* 91(1), 476-518.

The accessors are made in :mod:`pairedstats.accessors` from :data:`KEYWORDS` (declared once
here), as the report's are: a ranking is one row per system, not a comparison table.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ... import _validation, display
from ...core.draws import root_entropy
from .._shared.registry import AS_RESULT, INPUTS, NO_REPLICATE, PROGRESS, RNG, WORKERS, Keyword
from .._shared.results import _coordinate_values, _group_grid, _label_array, _with_missing

__all__ = ["KEYWORDS", "RankResult", "rank"]

SUMMARY = """Rank the systems by their mean, with the set of ranks each may hold
(simultaneous at ``confidence_level``).

The rank sets come from the simultaneous (max-t) bootstrap intervals of all pairwise
differences of the means (Mogstad, Romano, Shaikh and Wilhelm 2024): system ``k`` is surely
better than ``j`` when the interval of ``mean_k - mean_j`` lies above 0, and ``j``'s set is
``[1 + #surely better, p - #surely worse]``. ``may_be_best`` marks the systems whose set
holds rank 1. See the rankings guide."""

RETURNS = {
    "frame": """pandas.DataFrame or RankResult
    One row per system (per group): the group keys, then ``system, mean, rank, rank_low,
    rank_high, may_be_best``; ``attrs`` holds the settings. With ``as_result=True`` the
    :class:`~pairedstats.methods.rank.run.RankResult`.""",
    "dataset": """xarray.Dataset or RankResult
    The variables ``mean, rank, rank_low, rank_high, may_be_best`` over the sweep
    dimensions and a ``system`` dimension. With ``as_result=True`` the
    :class:`~pairedstats.methods.rank.run.RankResult`.""",
}

EXAMPLES = {
    "frame": """>>> import pairedstats
>>> runs = pairedstats.datasets.load_runs()
>>> ranks = runs.paired.rank(item="query", system="run", score="ndcg", by="collection",
...                          n_resamples=2000, rng=1)
>>> ranks[ranks.collection == "robust04"][["system", "rank", "rank_low", "rank_high"]]
     system  rank  rank_low  rank_high
0      bm25     4         3          4
1  bm25+rm3     3         1          4
2     dense     2         1          3
3    hybrid     1         1          3""",
    "dataset": """>>> import numpy as np, xarray as xr
>>> scores = np.random.default_rng(0).normal(size=(30, 3)) + [0.0, 0.1, 1.5]
>>> ds = xr.Dataset({"acc": (("item", "system"), scores)}, coords={"system": ["a", "b", "c"]})
>>> res = ds.paired.rank(n_resamples=1000, rng=1)
>>> res["rank_low"].values.tolist(), res["rank_high"].values.tolist()
([2, 2, 1], [3, 3, 1])""",
}

#: Keywords refused on purpose, with why (:func:`pairedstats.methods._shared.registry.refuse`).
REFUSES = {
    "replicate": "its bootstrap of all pairs takes one score per item and system; the run-to-run "
    "(seed) variance of repeated runs would be left out. " + NO_REPLICATE
}

#: The ranking's own keywords, declared once: the accessors' signatures, their docstrings
#: and the command line's options are made from them. The rest are passed to the bootstrap.
KEYWORDS = (
    Keyword(
        "lower_is_better", False, "bool or str, default False",
        "Rank the lowest mean first (losses, error rates): rank 1 is the smallest mean, and "
        "\"surely better\" means an interval entirely below 0. True, or the name of the "
        "``score`` column.",
        option=dict(action="store_true", help="rank the lowest mean first"),
    ),
    Keyword(
        "simultaneous", True, "bool, default True",
        "True: the rank sets hold all together with probability ``confidence_level`` (the "
        "max-t intervals of all pairs). False: marginal sets, each from the max-t "
        "intervals of that system's own comparisons (the bootstrap with it as "
        "``baseline``): narrower, each holding on its own.",
        option=dict(flags=("--marginal",), action="store_false",
                    help="marginal rank sets (each on its own)"),
    ),
    Keyword(
        "n_resamples", 10_000, "int, default 10_000", "Bootstrap resamples.",
        option=dict(type=int, metavar="N", help="resamples (default 10000)"),
    ),
    Keyword(
        "confidence_level", 0.95, "float, default 0.95",
        "The level of the rank sets (of the simultaneous intervals they come from).",
        option=dict(type=float, metavar="LEVEL"),
    ),
    Keyword(
        "weights", None, "mapping, optional",
        "``{stratum label: population weight}`` with ``strata``: as the bootstrap's.",
    ),
    RNG,
    PROGRESS,
    WORKERS,
    AS_RESULT,
)  # fmt: skip

_INPUTS = ("item", "system", "score", "systems", "by", "cluster", "strata", "missing")
_COLUMNS = ("mean", "rank", "rank_low", "rank_high", "may_be_best")


def input_keywords(container: str) -> list[Keyword]:
    """The input keywords of the ranking on ``container`` (``"frame"`` or ``"dataset"``):
    the bootstrap's."""
    table = INPUTS["paired"][container]
    return [table[n] for n in _INPUTS if n in table]


def _check_flag(value, name: str) -> bool:
    if not isinstance(value, bool | np.bool_):
        raise TypeError(f"`{name}` must be True or False; got {value!r}.")
    return bool(value)


# ------------------------------------------------------------------------ computing
def rank(accessor, container: str, **keywords):
    """The ranking of a ``.paired`` accessor (``container``: ``"frame"`` or ``"dataset"``):
    the bootstrap of all pairs with ``adjust="max-t"`` (and with ``simultaneous=False``
    one per system as baseline), then :class:`RankResult`; its table or Dataset unless
    ``as_result``."""
    given = {k.name: keywords.pop(k.name) for k in input_keywords(container)}
    as_result = _check_flag(keywords.pop("as_result"), "as_result")
    score = given.get("score")  # lower_is_better may name it, as the report's metrics
    lower = keywords.pop("lower_is_better")
    lower = bool(_validation.check_lower_is_better(lower, ["score" if score is None else score]))
    simultaneous = _check_flag(keywords.pop("simultaneous"), "simultaneous")
    keywords["rng"] = root_entropy(keywords["rng"])
    options = dict(keywords, adjust="max-t", as_result=True)
    pairs = accessor.bootstrap(**given, **options)
    systems, columns = _systems(pairs)
    if simultaneous:
        runs = (pairs,)
        against = [_against(pairs, columns, s, systems) for s in systems]
    else:
        runs = tuple(accessor.bootstrap(**given, baseline=s, **options) for s in systems)
        against = [_against(run, _systems(run)[1], s, systems) for s, run in zip(systems, runs)]
    mean = np.stack([_mean_of(pairs, columns, s) for s in systems], axis=-1)
    sets = ranks(mean, against, lower)
    meta = _validation.metadata(
        "rank", confidence_level=pairs.metadata["confidence_level"], simultaneous=simultaneous,
        lower_is_better=lower, n_resamples=pairs.metadata["n_resamples"], adjust="max-t",
        seed_entropy=keywords["rng"], cluster=pairs.metadata["cluster"],
        strata=pairs.metadata["strata"], weights=pairs.metadata["weights"],
    )  # fmt: skip
    result = RankResult(group_names=pairs.group_names, group_keys=pairs.group_keys,
                        systems=systems, mean=mean, **sets, comparisons=runs,
                        metadata=meta)  # fmt: skip
    if as_result:
        return result
    return result.to_dataframe() if container == "frame" else result.to_dataset()


def _systems(pairs) -> tuple[tuple, dict]:
    """The systems of a comparison result in system order (first appearance in its pairs),
    and its columns by label: ``(system_a, system_b) -> column``."""
    columns = {(a, b): c for c, (a, b) in enumerate(zip(pairs.label_a, pairs.label_b))}
    return tuple(dict.fromkeys(x for pair in columns for x in pair)), columns


def _mean_of(pairs, columns: dict, system) -> np.ndarray:
    """The mean of ``system`` per group, found by its label in ``pairs``."""
    for (a, b), c in columns.items():
        if system in (a, b):
            return np.asarray(pairs.mean_a if system == a else pairs.mean_b)[:, c]
    raise KeyError(system)


def _against(pairs, columns: dict, system, systems) -> tuple[np.ndarray, np.ndarray]:
    """The simultaneous intervals of ``mean_k - mean_system`` for every other system ``k``
    (in system order), looked up by label in ``pairs`` (``b - a``; a pair ``(k, system)``
    is negated): shape ``(n_groups, p - 1)``."""
    low, high = np.asarray(pairs.ci_low_adjusted), np.asarray(pairs.ci_high_adjusted)
    lows, highs = [], []
    for k in systems:
        if k == system:
            continue
        if (system, k) in columns:  # mean_k - mean_system
            c = columns[system, k]
            lows.append(low[:, c])
            highs.append(high[:, c])
        else:  # mean_system - mean_k, negated
            c = columns[k, system]
            lows.append(-high[:, c])
            highs.append(-low[:, c])
    return np.stack(lows, axis=-1), np.stack(highs, axis=-1)


def ranks(mean, against, lower_is_better: bool = False) -> dict:
    """Ranks and rank sets from the means and, per system, the intervals of the others'
    differences from it.

    Parameters
    ----------
    mean : ndarray, shape (n_groups, p)
    against : sequence of p pairs (low, high), each of shape (n_groups, p - 1)
        For system ``j``: the confidence intervals of ``mean_k - mean_j`` over the other
        systems ``k``. A NaN interval decides nothing.
    lower_is_better : bool

    Returns
    -------
    dict
        ``rank``, ``rank_low``, ``rank_high`` (int64) and ``may_be_best`` (bool), each
        of shape (n_groups, p).

    Examples
    --------
    Three systems: the third is surely above both others, which cannot be told apart.

    >>> mean = np.array([[0.1, 0.2, 0.9]])
    >>> against = [(np.array([[-0.1, 0.5]]), np.array([[0.3, 1.1]])),
    ...            (np.array([[-0.3, 0.4]]), np.array([[0.1, 1.0]])),
    ...            (np.array([[-1.1, -1.0]]), np.array([[-0.5, -0.4]]))]
    >>> out = ranks(mean, against)
    >>> out["rank"].tolist(), out["rank_low"].tolist(), out["rank_high"].tolist()
    ([[3, 2, 1]], [[2, 2, 1]], [[3, 3, 1]])
    """
    mean = np.asarray(mean, dtype=float)
    p = mean.shape[-1]
    low = np.stack([np.asarray(a[0], dtype=float) for a in against], axis=-2)
    high = np.stack([np.asarray(a[1], dtype=float) for a in against], axis=-2)
    above, below = low > 0, high < 0  # NaN compares False: it decides nothing
    if lower_is_better:
        above, below = below, above
    sign = -1.0 if lower_is_better else 1.0
    ahead = (sign * mean[..., None, :]) > (sign * mean[..., :, None])  # [g, j, k]: k ahead of j
    rank_low = 1 + above.sum(axis=-1)
    return dict(
        rank=(1 + ahead.sum(axis=-1)).astype(np.int64),
        rank_low=rank_low.astype(np.int64),
        rank_high=(p - below.sum(axis=-1)).astype(np.int64),
        may_be_best=rank_low == 1,
    )


# ------------------------------------------------------------------------ the result
@dataclass(frozen=True, kw_only=True)
class RankResult:
    """The systems' ranks with their rank sets: one row per system (per group). Made by
    ``df.paired.rank(..., as_result=True)``.

    Attributes
    ----------
    group_names, group_keys : tuple
        The groups, as in :class:`~pairedstats.ComparisonResult`.
    systems : tuple
        The system labels, in system order (the arrays' last axis).
    mean : ndarray, shape (n_groups, n_systems)
        Each system's mean score.
    rank : ndarray of int, shape (n_groups, n_systems)
        ``1 +`` the number of systems with a better mean (ties share the smaller rank).
    rank_low, rank_high : ndarray of int, shape (n_groups, n_systems)
        The rank set ``[rank_low, rank_high]``: the ranks the system may hold at
        ``confidence_level`` (simultaneous unless ``metadata["simultaneous"]`` is False).
    may_be_best : ndarray of bool, shape (n_groups, n_systems)
        ``rank_low == 1``: no system is surely better.
    comparisons : tuple of BootstrapResult
        The bootstrap(s) the sets come from: all pairs (simultaneous), or one per system as
        baseline, in system order (marginal).
    metadata : dict
        The settings that re-run the call (``rng=metadata["seed_entropy"]``).
    """

    group_names: tuple = ()
    group_keys: tuple = ((),)
    systems: tuple
    mean: np.ndarray
    rank: np.ndarray
    rank_low: np.ndarray
    rank_high: np.ndarray
    may_be_best: np.ndarray
    comparisons: tuple = field(default=(), repr=False)
    metadata: dict = field(default_factory=dict)

    def __post_init__(self):
        for name in _COLUMNS:
            getattr(self, name).flags.writeable = False

    @property
    def columns(self) -> dict:
        """The quantity columns: name -> 1-D array, one value per row of :meth:`to_dataframe`
        (group-major, systems in order)."""
        return {name: np.asarray(getattr(self, name)).reshape(-1) for name in _COLUMNS}

    def to_dataframe(self):
        """The ranking as a table.

        Returns
        -------
        pandas.DataFrame
            One row per group and system: the group keys, then ``system, mean, rank,
            rank_low, rank_high, may_be_best``. ``attrs`` holds the metadata.
        """
        import pandas as pd

        n_groups, p = len(self.group_keys), len(self.systems)
        data = {}
        for j, name in enumerate(self.group_names):
            data[name] = np.repeat(_label_array([key[j] for key in self.group_keys]), p)
        data["system"] = np.tile(_label_array(self.systems), n_groups)
        data.update({k: v.copy() for k, v in self.columns.items()})
        frame = pd.DataFrame(data)
        for name in (*self.group_names, "system"):
            frame[name] = frame[name].infer_objects()
        frame.attrs.update(self.metadata)
        return frame

    def to_dataset(self):
        """The ranking as an :class:`xarray.Dataset`.

        Returns
        -------
        xarray.Dataset
            The variables of :attr:`columns` over the group dimensions (sweep dimensions or
            ``by=`` keys) and ``system``. ``by=`` keys that do not form a full grid leave
            NaN in the missing cells.
        """
        import xarray as xr

        names = list(self.group_names)
        levels, positions = _group_grid(self.group_keys, len(names))
        shape = tuple(len(v) for v in levels)
        full = int(np.prod(shape, dtype=np.int64)) == len(self.group_keys)
        data = {}
        for name in _COLUMNS:
            values = np.asarray(getattr(self, name))
            if not full:
                values = values.astype(_with_missing(values.dtype))
            out = np.empty((*shape, len(self.systems)), dtype=values.dtype)
            if not full:
                out[...] = np.nan
            out[(*positions, slice(None))] = values
            data[name] = ((*names, "system"), out)
        coords = {n: (n, _coordinate_values(v)) for n, v in zip(names, levels)}
        coords["system"] = ("system", _coordinate_values(self.systems))
        ds = xr.Dataset(data, coords=coords)
        ds.attrs.update({k: v for k, v in self.metadata.items() if v is not None})
        return ds

    def __str__(self) -> str:
        m = self.metadata
        kind = "simultaneous" if m.get("simultaneous", True) else "marginal"
        order = "lowest" if m.get("lower_is_better") else "highest"
        head = (
            f"Ranks of {len(self.systems)} systems by mean ({order} first), with "
            f"{m.get('confidence_level', 0.95):g} {kind} rank sets [rank_low, rank_high]"
        )
        settings = (f"max-t bootstrap intervals of the pairwise differences, n_resamples="
                    f"{m.get('n_resamples')}, seed_entropy={m.get('seed_entropy')}")  # fmt: skip
        # the rows as the head says: by rank within each group (ties in system order)
        frame = self.to_dataframe()
        group = np.repeat(np.arange(len(self.group_keys)), len(self.systems))
        frame = frame.iloc[np.lexsort((self.columns["rank"], group))]
        table = display.text_cells(frame, _COLUMNS).to_string(index=False)
        return f"{head}\n{settings}\n\n{table}"

    def __repr__(self) -> str:
        shape = f"{len(self.group_keys)} group(s) x {len(self.systems)} systems"
        return f"<RankResult: {shape}>\n{self}"
