"""Checks of the method keywords shared by all methods.

Each message names the argument, the rule and the value received, e.g.
"`confidence_level` must be strictly between 0 and 1; got 1.5".
It imports numpy and the core only (never pandas or xarray), so that the method layer and
the input road share it.
"""

from __future__ import annotations

import numbers
from collections.abc import Mapping, Sequence

import numpy as np

from ._version import __version__
from .core import checks
from .core.checks import plain
from .core.draws import STREAM_VERSION, root_entropy

__all__ = [
    "check_alpha",
    "check_baseline",
    "check_choice",
    "check_confidence_level",
    "check_n_resamples",
    "check_progress",
    "check_pvalue_adjust",
    "check_rank_test",
    "check_weights",
    "check_workers",
    "metadata",
    "normalise_rng",
]


def check_confidence_level(value) -> float:
    """Return ``value`` as a float strictly between 0 and 1, or raise ``ValueError``."""
    return checks.probability(value, "confidence_level")


def check_alpha(value) -> float:
    """Return the level ``alpha`` as a float strictly between 0 and 1, or raise (a
    ``TypeError`` for what is not a number, a ``ValueError`` for 0, 1, 1.5 or NaN)."""
    return checks.probability(value, "alpha")


#: Largest number of resamples or trials of any method. At a few nanoseconds per drawn item
#: a run this long already takes minutes to hours, and its Monte Carlo error (a standard error
#: of at most 1.6e-5 for a p-value) is far below any digit a comparison reports.
MAX_RESAMPLES = 10**9

#: Largest number of resamples of the bootstrap, which holds its replicates in memory to
#: take their quantiles: 80 MB per comparison and group at this size.
MAX_BOOTSTRAP_RESAMPLES = 10**7


def check_n_resamples(value, name: str = "n_resamples", maximum: int = MAX_RESAMPLES) -> int:
    """Return ``value`` as a positive int of at most ``maximum``, or raise.

    Examples
    --------
    >>> check_n_resamples(10_000)
    10000
    >>> check_n_resamples(10**12)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: `n_resamples` must be at most 1000000000; got 1000000000000. ...
    """
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise TypeError(f"`{name}` must be a positive integer; got {plain(value)!r}.")
    if value < 1:
        raise ValueError(f"`{name}` must be a positive integer; got {value}.")
    if value > maximum:
        raise ValueError(
            f"`{name}` must be at most {maximum}; got {value}. Such a run would take hours "
            "or exhaust memory, and its Monte Carlo error is already negligible at the "
            "maximum (see the method's documentation)."
        )
    return int(value)


def check_baseline(baseline, systems):
    """``baseline`` if it is None or one of ``systems``, else raise."""
    if baseline is not None and baseline not in systems:
        raise ValueError(
            f"`baseline` must be one of the systems {[plain(s) for s in systems]!r}; got "
            f"{plain(baseline)!r}."
        )
    return baseline


def check_lower_is_better(value, metrics: Sequence) -> tuple:
    """The metrics (of ``metrics``) whose lower values are better, from ``lower_is_better``:
    True (all of them), False or None (none), a metric's name or a list of names.

    Examples
    --------
    >>> check_lower_is_better(True, ["loss", "error"]), check_lower_is_better("loss", ["loss"])
    (('loss', 'error'), ('loss',))
    """
    if isinstance(value, bool | np.bool_) or value is None:
        return tuple(metrics) if value else ()
    names = (value,) if isinstance(value, str) else value
    try:
        names = tuple(names)
    except TypeError:
        raise TypeError(
            "`lower_is_better` must be True, False, a metric's name or a list of names; got "
            f"{plain(value)!r}."
        ) from None
    unknown = [m for m in names if m not in metrics]
    if unknown:
        raise ValueError(
            f"`lower_is_better`: {plain(unknown[0])!r} is not one of the metrics "
            f"{[plain(m) for m in metrics]!r}; give their names, or True for all."
        )
    return tuple(m for m in metrics if m in names)


def check_rank_test(options, methods: Sequence[str]) -> dict:
    """The keywords both rank tests take, checked, by name (``alternative``,
    ``confidence_level``, ``method`` one of ``methods``, ``correction``, ``progress``), read
    from their options record."""
    from .core.inference import ALTERNATIVES

    return {
        "alternative": check_choice(options.alternative, "alternative", ALTERNATIVES),
        "confidence_level": check_confidence_level(options.confidence_level),
        "method": check_choice(options.method, "method", methods),
        "correction": checks.flag(options.correction, "correction"),
        "progress": check_progress(options.progress),
    }


def check_pvalue_adjust(value) -> str | None:
    """``adjust`` of the methods whose p-values are per comparison: None, or one of
    :data:`pairedstats.core.adjust.PVALUE_METHODS` whatever its case."""
    from .core.adjust import PVALUE_METHODS

    return None if value is None else check_choice(value, "adjust", PVALUE_METHODS)


def check_flag(value, name: str) -> bool:
    """``value`` as a bool if it is True or False (numpy's too), else a TypeError naming
    ``name`` (:func:`pairedstats.core.checks.flag`)."""
    return checks.flag(value, name)


def check_progress(value) -> bool:
    """``progress`` as a bool; True needs tqdm (the ``progress`` extra), else raise."""
    if checks.flag(value, "progress"):
        try:
            import tqdm  # noqa: F401
        except ImportError:
            raise ImportError(
                "`progress=True` needs tqdm; install it with `pip install pairedstats[progress]`."
            ) from None
    return bool(value)


def check_workers(value) -> int | None:
    """``None`` (all the CPUs available) or a positive integer, else raise.

    Examples
    --------
    >>> check_workers(None), check_workers(2)
    (None, 2)
    """
    if value is None:
        return None
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise TypeError(f"`workers` must be a positive integer or None; got {plain(value)!r}.")
    if value < 1:
        raise ValueError(f"`workers` must be a positive integer or None; got {value}.")
    return int(value)


def check_choice(value, name: str, choices: Sequence[str]) -> str:
    """The one of ``choices`` that ``value`` names, whatever its case, else raise
    (:func:`pairedstats.core.checks.choice`)."""
    return checks.choice(value, name, choices)


def normalise_rng(rng) -> int:
    """The root entropy of a call's streams (see :mod:`pairedstats.core.draws`)."""
    return root_entropy(rng)


def metadata(method: str, **settings) -> dict:
    """The re-run metadata of a result: method, settings, package version and the version
    of the layout of the random streams (:data:`pairedstats.core.draws.STREAM_VERSION`)."""
    out = {"method": method}
    out.update(settings)
    out["pairedstats_version"] = __version__
    out["stream_version"] = STREAM_VERSION
    return out


def check_weights(weights, design, statistic=None) -> dict | None:
    """The population weights of :func:`pairedstats.bootstrap` (and of the methods that pass
    them to it) checked against ``design``'s strata: ``{stratum label: float}`` in the order
    of the strata, or None; a bootstrap with ``statistic`` refuses them."""
    if weights is None:
        return None
    if design.strata is None:
        raise ValueError("`weights` needs `strata`: population weights are given per stratum.")
    if statistic is not None:
        raise ValueError(
            "`weights` apply to the default mean only; with `statistic` the metric is "
            "computed on the items of each resample. Drop `weights` or `statistic`."
        )
    if not isinstance(weights, Mapping):
        raise TypeError(
            "`weights` must be a mapping {stratum label: population weight}; "
            f"got {type(weights).__name__}."
        )
    labels = list(design.strata_labels)
    unknown = [k for k in weights if k not in labels]
    if unknown:
        raise ValueError(f"`weights`: no stratum named {unknown!r}; the strata are {labels!r}.")
    present = sorted({int(c) for c in np.unique(design.strata)})
    missing = [labels[c] for c in present if labels[c] not in weights]
    if missing:
        raise ValueError(f"`weights` must give a weight for every stratum; missing {missing!r}.")
    out = {}
    for label in labels:
        if label not in weights:
            continue
        w = weights[label]
        if isinstance(w, (bool, np.bool_)) or not isinstance(w, numbers.Real):
            raise TypeError(f"`weights`: the weight of {label!r} must be a number; got {w!r}.")
        if not np.isfinite(w) or w <= 0:
            raise ValueError(
                f"`weights`: the weight of {label!r} must be finite and positive; got {w}."
            )
        out[label] = float(w)
    return out
