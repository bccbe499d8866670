"""The data of the property suite: labels, scores, designs and method settings.

Every generated object knows how to present itself in each shape the library reads (a tidy
table, a wide table, an :class:`xarray.Dataset`), so a property compares the same data in two
presentations and nothing else.
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pandas as pd
import xarray as xr
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from tests import specs
from tests.specs import SPECS

import pairedstats  # noqa: F401  (registers the .paired accessors the tests call)

#: Column and dimension names of the generated tables and datasets.
ITEM, SYSTEM, SCORE, CLUSTER, STRATA, GROUP, SWEEP = (
    "item",
    "system",
    "score",
    "cluster",
    "strata",
    "group",
    "sweep",
)
#: The keywords naming the columns of a generated tidy table.
TIDY = {"item": ITEM, "system": SYSTEM, "score": SCORE}

LABEL_KINDS = ("str", "int", "mixed")
#: Labels of one type: order-preserving renamings are defined within a type, and xarray
#: cannot select a list of labels of mixed types.
ONE_TYPE = ("str", "int")
#: Text labels use separators and digits so that label encodings must stay injective
#: ("1" and 1, "a,b" and ("a", "b") are distinct labels).
_TEXT = st.text(alphabet="ab,:(0 ", min_size=1, max_size=3)
_INT = st.integers(-(2**40), 2**40)
_LABELS = {"str": _TEXT, "int": _INT, "mixed": st.one_of(_TEXT, _INT)}

SEEDS = st.integers(0, 2**32 - 1)


def distinct_labels(kind: str, n: int) -> st.SearchStrategy[list]:
    """``n`` distinct labels of one kind ("str", "int" or "mixed")."""
    return st.lists(_LABELS[kind], min_size=n, max_size=n, unique=True)


def order_preserving_map(labels: list) -> st.SearchStrategy[dict]:
    """A renaming of same-typed ``labels`` to new labels of their type, in the same order."""
    kind = "str" if isinstance(labels[0], str) else "int"
    old = sorted(labels)
    return distinct_labels(kind, len(labels)).map(lambda new: dict(zip(old, sorted(new))))


# --------------------------------------------------------------------------- scores
def on_grid(integers, decimals: int) -> np.ndarray:
    """``integers / 10**decimals``: scores as metrics are reported."""
    return np.asarray(integers) / 10**decimals


def normal(seed: int, shape) -> np.ndarray:
    """Scores on no grid: standard normal draws."""
    return np.random.default_rng(seed).normal(size=shape)


def grid_scores(shape) -> st.SearchStrategy[np.ndarray]:
    """Scores on a decimal grid (10**-d for d in 0, 1, 2, 4), as metrics are reported."""

    def scaled(decimals):
        top = 10**decimals
        integers = hnp.arrays(np.int64, shape, elements=st.integers(-top, top))
        return st.builds(on_grid, integers, st.just(decimals))

    return st.sampled_from([0, 1, 2, 4]).flatmap(scaled)


def continuous_scores(shape) -> st.SearchStrategy[np.ndarray]:
    return st.builds(normal, SEEDS, st.just(shape))


def scores(shape) -> st.SearchStrategy[np.ndarray]:
    """Scores on a grid (ties, exact sums) or on none."""
    return st.one_of(grid_scores(shape), continuous_scores(shape))


def binary_scores(shape) -> st.SearchStrategy[np.ndarray]:
    """Pass/fail scores: 0.0 or 1.0 (a method of ``MethodSpec.binary_scores``)."""
    return hnp.arrays(np.float64, shape, elements=st.sampled_from([0.0, 1.0]))


# --------------------------------------------------------------------------- paired data
@dataclasses.dataclass(frozen=True, repr=False)
class Paired:
    """Scores of systems on items: ``scores[i, j]`` is system ``systems[j]`` on item
    ``items[i]``; ``cluster`` and ``strata`` give a label per item (or are None)."""

    scores: np.ndarray
    items: list
    systems: list
    cluster: list | None = None
    strata: list | None = None

    def __post_init__(self):
        object.__setattr__(self, "scores", np.asarray(self.scores))

    def __repr__(self) -> str:
        fields = ", ".join(
            f"{f.name}={_plain(getattr(self, f.name))!r}" for f in dataclasses.fields(self)
        )
        return f"Paired({fields})"

    def _repr_pretty_(self, printer, cycle):  # how hypothesis prints a falsifying example
        printer.text(repr(self))

    @property
    def keywords(self) -> dict:
        """The ``cluster=`` and ``strata=`` keywords of this design (tables and datasets)."""
        out = {}
        if self.cluster is not None:
            out["cluster"] = CLUSTER
        if self.strata is not None:
            out["strata"] = STRATA
        return out

    def _per_item(self) -> dict:
        return {
            name: values
            for name, values in ((CLUSTER, self.cluster), (STRATA, self.strata))
            if values is not None
        }

    def tidy(self, rows=None, columns=None) -> pd.DataFrame:
        """One row per (item, system), item-major; ``rows``/``columns``: permutations."""
        n, k = self.scores.shape
        data = {
            ITEM: pd.Series(np.repeat(np.array(self.items, dtype=object), k), dtype=object),
            SYSTEM: pd.Series(np.tile(np.array(self.systems, dtype=object), n), dtype=object),
            SCORE: self.scores.reshape(-1),
        }
        for name, values in self._per_item().items():
            data[name] = pd.Series(np.repeat(np.array(values, dtype=object), k), dtype=object)
        frame = pd.DataFrame(data).infer_objects()
        return _permuted(frame, rows, columns)

    def wide(self, rows=None, columns=None) -> pd.DataFrame:
        """Items as the index (named ``item``), one column per system, then the labels."""
        index = pd.Index(self.items, name=ITEM, dtype=object).infer_objects()
        frame = pd.DataFrame(self.scores, index=index, columns=list(self.systems))
        for name, values in self._per_item().items():
            frame[name] = pd.Series(values, index=index, dtype=object).infer_objects()
        return _permuted(frame, rows, columns)

    def dataset(self) -> xr.Dataset:
        """Dimensions ``item`` and ``system``; ``cluster``/``strata`` as item coordinates."""
        coords = {ITEM: coordinate(self.items), SYSTEM: coordinate(self.systems)}
        coords.update({name: (ITEM, coordinate(v)) for name, v in self._per_item().items()})
        return xr.Dataset({SCORE: ((ITEM, SYSTEM), self.scores)}, coords=coords)

    @property
    def shape(self) -> tuple:
        return self.scores.shape

    def with_values(self, values: np.ndarray) -> Paired:
        return self.replace(scores=values)

    def with_labels_of(self, other: Paired) -> Paired:
        """The same scores for the systems of ``other``."""
        return self.replace(systems=other.systems)

    def replace(self, **changes) -> Paired:
        return dataclasses.replace(self, **changes)


def _plain(value):
    """Arrays as nested lists, so that a printed example can be pasted back."""
    return value.tolist() if isinstance(value, np.ndarray) else value


def coordinate(labels) -> np.ndarray:
    """Labels as a coordinate: a numeric array if they are all ints, else objects."""
    if all(isinstance(x, int) for x in labels):
        return np.array(labels, dtype=np.int64)
    out = np.empty(len(labels), dtype=object)
    out[:] = list(labels)
    return out


def _permuted(frame: pd.DataFrame, rows, columns) -> pd.DataFrame:
    if rows is not None:
        frame = frame.iloc[list(rows)]
    if columns is not None:
        frame = frame.iloc[:, list(columns)]
    return frame


def _spread(draw, n_units: int, n_parts: int) -> list[int]:
    """A part number per unit, every part used at least ``n_units // n_parts`` times."""
    return draw(st.permutations([u % n_parts for u in range(n_units)]))


@st.composite
def paired(
    draw,
    *,
    items=(2, 10),
    systems=(2, 4),
    kinds=LABEL_KINDS,
    clustered=False,
    stratified=False,
    binary=False,
) -> Paired:
    """A :class:`Paired` design; ``items`` and ``systems`` bound the sizes.

    With ``clustered``, at least 2 clusters; with ``stratified``, every stratum has at least 2
    resampled units (items, or clusters) and clusters are nested in strata; with ``binary``,
    pass/fail scores.
    """
    n = draw(st.integers(*items))
    k = draw(st.integers(*systems))
    kind = draw(st.sampled_from(kinds))
    data = Paired(
        scores=draw((binary_scores if binary else scores)((n, k))),
        items=draw(distinct_labels(kind, n)),
        systems=draw(distinct_labels(kind, k)),
    )
    unit_of_item = list(range(n))
    n_units = n
    if clustered:
        n_units = draw(st.integers(2, n))
        unit_of_item = _spread(draw, n, n_units)
        names = draw(distinct_labels(kind, n_units))
        data = data.replace(cluster=[names[u] for u in unit_of_item])
    if stratified:
        n_strata = draw(st.integers(1, max(1, n_units // 2)))
        stratum_of_unit = _spread(draw, n_units, n_strata)
        names = draw(distinct_labels(kind, n_strata))
        data = data.replace(strata=[names[stratum_of_unit[u]] for u in unit_of_item])
    return data


def tukey_exact_size(k: int) -> int:
    """Most items for which every within-item arrangement can be enumerated (2**18 cases)."""
    return 1 + int(math.log(2**18) / math.log(math.factorial(k)))


@st.composite
def paired_for_exact(draw, *, systems=(2, 3), kinds=LABEL_KINDS) -> Paired:
    """A design small enough for the exact Tukey p-value (``method="exact"``)."""
    k = draw(st.integers(*systems))
    return draw(paired(items=(2, min(10, tukey_exact_size(k))), systems=(k, k), kinds=kinds))


# --------------------------------------------------------------------------- two samples
@dataclasses.dataclass(frozen=True, repr=False)
class TwoSample:
    """The two samples of the rank-sum test, labelled ``labels = (a, b)``."""

    a: np.ndarray
    b: np.ndarray
    labels: tuple

    def __post_init__(self):
        object.__setattr__(self, "a", np.asarray(self.a))
        object.__setattr__(self, "b", np.asarray(self.b))

    def __repr__(self) -> str:
        return f"TwoSample(a={_plain(self.a)!r}, b={_plain(self.b)!r}, labels={self.labels!r})"

    def _repr_pretty_(self, printer, cycle):
        printer.text(repr(self))

    @property
    def keywords(self) -> dict:
        return {"a": self.labels[0], "b": self.labels[1]}

    @property
    def shape(self) -> tuple:
        return (len(self.a) + len(self.b),)

    def with_values(self, values: np.ndarray) -> TwoSample:
        return self.replace(a=values[: len(self.a)], b=values[len(self.a) :])

    def with_labels_of(self, other: TwoSample) -> TwoSample:
        return self.replace(labels=other.labels)

    def replace(self, **changes) -> TwoSample:
        return dataclasses.replace(self, **changes)

    def tidy(self, rows=None, columns=None) -> pd.DataFrame:
        """A ``group`` column of labels and a ``score`` column, the a rows first."""
        group = [self.labels[0]] * len(self.a) + [self.labels[1]] * len(self.b)
        frame = pd.DataFrame(
            {GROUP: pd.Series(group, dtype=object), SCORE: np.concatenate([self.a, self.b])}
        ).infer_objects()
        return _permuted(frame, rows, columns)

    def wide(self) -> pd.DataFrame:
        """One column per label; the shorter one padded with trailing NaN."""
        n = max(len(self.a), len(self.b))
        pad = lambda x: np.concatenate([x, np.full(n - len(x), np.nan)])
        return pd.DataFrame({self.labels[0]: pad(self.a), self.labels[1]: pad(self.b)})

    def dataset(self) -> xr.Dataset:
        """A ``group`` dimension holding the two labels (the samples must have equal sizes)."""
        data = np.column_stack([self.a, self.b])
        return xr.Dataset({SCORE: ((ITEM, GROUP), data)}, coords={GROUP: coordinate(self.labels)})


@st.composite
def two_samples(draw, *, sizes=(1, 12), kinds=LABEL_KINDS, equal=False) -> TwoSample:
    """Two samples of 1 to 12 values (``equal``: of one size), with distinct labels."""
    n_a = draw(st.integers(*sizes))
    n_b = n_a if equal else draw(st.integers(*sizes))
    values = draw(scores((n_a + n_b,)))
    labels = draw(distinct_labels(draw(st.sampled_from(kinds)), 2))
    return TwoSample(values[:n_a], values[n_a:], tuple(labels))


# --------------------------------------------------------------------------- groups
@dataclasses.dataclass(frozen=True)
class Groups:
    """Designs (:class:`Paired` or :class:`TwoSample`) with common labels, keyed by ``by=``
    keys: one tuple per design, one value per name."""

    names: tuple
    keys: list
    parts: list

    @property
    def by(self):
        """The ``by=`` keyword: one column name, or a list of two."""
        return self.names[0] if len(self.names) == 1 else list(self.names)

    def tidy(self) -> pd.DataFrame:
        frames = [self._keyed(p.tidy(), key) for key, p in zip(self.keys, self.parts)]
        return pd.concat(frames, ignore_index=True).infer_objects()

    def _keyed(self, frame, key) -> pd.DataFrame:
        keys = {
            name: pd.Series([value] * len(frame), index=frame.index, dtype=object)
            for name, value in zip(self.names, key)
        }
        return pd.concat([pd.DataFrame(keys), frame], axis=1)

    def dataset(self) -> xr.Dataset:
        """The designs as the cells of a ``sweep`` dimension (one key name, equal shapes)."""
        cells = [p.dataset() for p in self.parts]
        sweep = coordinate([key[0] for key in self.keys])
        return xr.concat(cells, dim=SWEEP).assign_coords({SWEEP: sweep})

    def without(self, position: int) -> Groups:
        drop = lambda seq: [x for i, x in enumerate(seq) if i != position]
        return Groups(self.names, drop(self.keys), drop(self.parts))


@st.composite
def groups(
    draw,
    case,
    *,
    n_groups=(1, 4),
    n_names=(1, 2),
    same_shape=False,
    key_kinds=LABEL_KINDS,
    **options,
) -> Groups:
    """Designs of ``case`` over common labels, keyed by distinct ``by=`` keys.

    ``options`` go to the case's first design; the others have its number of systems (and,
    with ``same_shape``, its items and sizes: sweep cells), with values of their own.
    """
    m = draw(st.integers(*n_groups))
    n_key_names = draw(st.integers(*n_names))
    kind = draw(st.sampled_from(key_kinds))
    key = st.tuples(*[_LABELS[kind]] * n_key_names)
    keys = draw(st.lists(key, min_size=m, max_size=m, unique=True))
    first = draw(case.data(**options))
    same_systems = {} if case is RANKSUM else {"systems": (first.shape[1],) * 2}
    values = binary_scores if case.options.get("binary") else scores
    parts = [first]
    for _ in range(m - 1):
        if same_shape:
            other = first.with_values(draw(values(first.shape)))
        else:
            other = draw(case.data(**same_systems))
        parts.append(other.with_labels_of(first))
    return Groups(("by", "by2")[:n_key_names], keys, parts)


# --------------------------------------------------------------------------- settings
_INTERVALS = ("percentile", "basic", "bca", "studentized")
_ALTERNATIVES = ("two-sided", "less", "greater")
#: Every family-wise adjustment, and none.
ADJUSTMENTS = (None, "holm", "bonferroni", "max-t", "fdr_bh", "fdr_by")


def bootstrap_settings(methods=_INTERVALS, resampling=("auto",), adjust=(None,)):
    """Settings of the bootstrap; the counts path draws no joint replicates and no standard
    error per resample, so it goes without the studentized interval and max-t."""
    if "counts" in resampling:
        methods = tuple(m for m in methods if m != "studentized")
        adjust = tuple(a for a in adjust if a != "max-t")
    return st.fixed_dictionaries(
        {
            "method": st.sampled_from(methods),
            "alternative": st.sampled_from(_ALTERNATIVES),
            "adjust": st.sampled_from(adjust),
            "resampling": st.sampled_from(resampling),
            "confidence_level": st.sampled_from([0.9, 0.95]),
            "n_resamples": st.sampled_from([200, 600]),
            "rng": SEEDS,
        }
    )


def tukey_settings(exact):
    return st.fixed_dictionaries(
        {
            "method": st.just("exact" if exact else "monte-carlo"),
            "n_resamples": st.sampled_from([200, 600]),
            "rng": SEEDS,
        }
    )


RANKSUM_SETTINGS = st.fixed_dictionaries(
    {
        "alternative": st.sampled_from(["two-sided", "less", "greater"]),
        "confidence_level": st.sampled_from([0.8, 0.9, 0.95]),
        "method": st.sampled_from(["auto", "exact", "asymptotic"]),
        "correction": st.booleans(),
    }
)


# --------------------------------------------------------------------------- cases
@dataclasses.dataclass(frozen=True)
class Case:
    """A method of the ``.paired`` accessor, the designs it runs on and its settings."""

    method: str
    make: object  # a strategy factory: paired, paired_for_exact or two_samples
    options: dict
    settings: st.SearchStrategy

    def data(self, **options) -> st.SearchStrategy:
        """The case's designs, with ``options`` (e.g. ``kinds``) for the factory."""
        return self.make(**{**self.options, **options})


def default_case(spec) -> Case:
    """The case of a registered method from its spec (:mod:`tests.specs`): any paired design
    (of 0/1 scores for a method of ``binary_scores``), its example keywords, and an ``rng``
    and a small ``n_resamples`` where it takes them."""
    fixed = specs.keywords(spec, n_resamples=200)
    settings = {name: st.just(value) for name, value in fixed.items()}
    if "rng" in specs.keywords(spec, rng=0):
        settings["rng"] = SEEDS
    options = {"binary": True} if spec.binary_scores else {}
    return Case(spec.name, paired, options, st.fixed_dictionaries(settings))


#: The accessor methods of paired designs.
METHODS = ("bootstrap", "tukey_hsd")
#: The paired methods, each on the designs it accepts: those whose cases are special (the
#: bootstrap's designs, Tukey HSD's exact and Monte Carlo p-values, the signed-rank test's
#: settings) are written here, and every other registered method of one row per comparison
#: (a paired ``table`` that stays ``lazy``) gets its :func:`default_case`.
PAIRED = {
    "bootstrap": Case("bootstrap", paired, {}, bootstrap_settings(adjust=ADJUSTMENTS)),
    "bootstrap-cluster": Case(
        "bootstrap", paired, {"clustered": True}, bootstrap_settings(adjust=ADJUSTMENTS)
    ),
    "bootstrap-strata": Case(
        "bootstrap", paired, {"stratified": True}, bootstrap_settings(adjust=ADJUSTMENTS)
    ),
    "bootstrap-cluster-strata": Case(
        "bootstrap",
        paired,
        {"items": (4, 10), "clustered": True, "stratified": True},
        bootstrap_settings(adjust=ADJUSTMENTS),
    ),
    "tukey-exact": Case("tukey_hsd", paired_for_exact, {}, tukey_settings(True)),
    "tukey-monte-carlo": Case("tukey_hsd", paired, {}, tukey_settings(False)),
    "signrank": Case("signrank", paired, {}, RANKSUM_SETTINGS),
}
PAIRED.update(
    (name, default_case(spec))
    for name, spec in SPECS.items()
    if spec.road == "paired" and spec.table and spec.lazy
    and name not in {case.method for case in PAIRED.values()}
)  # fmt: skip
RANKSUM = Case("ranksum", two_samples, {}, RANKSUM_SETTINGS)


#: The kinds of bootstrap design: options of :func:`paired`.
DESIGNS = {
    "plain": {},
    "cluster": {"clustered": True},
    "strata": {"stratified": True},
    "cluster-strata": {"items": (4, 10), "clustered": True, "stratified": True},
}


def with_resampling(resampling: str, methods=_INTERVALS, designs=tuple(DESIGNS)) -> Case:
    """The bootstrap on ``designs`` with interval ``methods``, resampling by ``resampling``."""
    make = lambda **options: st.one_of([paired(**DESIGNS[d], **options) for d in designs])
    return Case("bootstrap", make, {}, bootstrap_settings(methods, (resampling,)))


def sweeps(case: Case, n_cells=(1, 4)) -> st.SearchStrategy[Groups]:
    """Cells of one sweep coordinate with the items and labels of the first cell."""
    options = {"equal": True} if case is RANKSUM else {}
    return groups(
        case,
        n_groups=n_cells,
        n_names=(1, 1),
        same_shape=True,
        key_kinds=ONE_TYPE,
        kinds=ONE_TYPE,
        **options,
    )


def column_names(case: Case) -> dict:
    """The keywords naming the columns of the case's tidy tables."""
    return {"score": SCORE, "group": GROUP} if case is RANKSUM else TIDY


#: Every way the bootstrap draws its resamples.
RESAMPLING = {f"bootstrap-{r}": with_resampling(r) for r in ("auto", "index", "counts")}


# --------------------------------------------------------------------------- maps
#: Positive factors over twenty decades, the extremes included.
SCALES = st.one_of(
    st.sampled_from([1e-10, 1e10]), st.floats(-10, 10).map(lambda e: float(10.0**e))
)
#: Constants added to every score.
SHIFTS = st.one_of(st.integers(-100, 100).map(float), st.floats(-100, 100)).filter(bool)
