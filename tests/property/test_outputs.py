"""Every output of every method keeps each number beside its own label.

The subjects are found, not listed: every public method of the ``.paired`` DataFrame
accessor (the registry's specs and the summaries built beside them), called with keywords
chosen from its signature, and every rendering its result offers (its frame, ``str``,
``_repr_html_``, ``to_markdown``, ``to_latex``), every format of its command, and the labels
of its plot. A method added to the accessor is covered here without a new test; one whose
keywords cannot be chosen from its signature fails :func:`test_every_method_is_a_subject`.

The properties:

* **Labels move their numbers.** Renaming the systems (in order: Tukey HSD's streams follow
  the labels' sorted order, so only an order-preserving renaming leaves every draw alone) and
  reordering them in the table changes nothing but the labels and the order of the rows:
  each output, its labels mapped back, holds the same rows. The systems are never named in
  sorted order (:data:`NAMES`).
* **Direction.** Negating the scores and declaring ``lower_is_better`` gives the same marks,
  letters, rank sets and bold cells.
* **Groups.** A ``by=`` group holds the rows of the same call on that group alone, through
  ``groupby(...).apply``.
"""

from __future__ import annotations

import contextlib
import inspect
import io
import json
import os
import re
import tempfile
import warnings

import matplotlib
import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from pairedstats import cli
from pairedstats.accessors import PairedDataFrameAccessor
from pairedstats.methods._shared.registry import SPECS

matplotlib.use("Agg")

#: System (or group) labels, never in sorted order; and the labels they are renamed to,
#: order-preserving, of the same length (so that text tables keep their widths).
NAMES = ("zqv", "zqk", "zqx", "zqm", "zqb")
NEW_NAMES = ("kfw", "kfc", "kfr", "kfh", "kfn")
RENAMED = dict(zip(sorted(NAMES), sorted(NEW_NAMES)))
_LABEL = re.compile("|".join(NEW_NAMES + NAMES))
METRICS = ("s2", "s1")  # the metrics of a report, not in sorted order either

#: The accessor's public methods (the registry's specs and the summaries).
SUBJECTS = sorted(n for n in dir(PairedDataFrameAccessor) if not n.startswith("_"))
#: Keyword values a subject is called with, when its signature has the keyword (a required
#: one, such as items_for's ``difference``, too).
_SETTINGS = {"n_resamples": 199, "rng": 7, "workers": 1}
#: Variants that reach the outputs each keyword of these values switches on.
_VARIANTS = {
    "report": (
        {"test": "bootstrap", "ranks": True, "bold_best": True, "mcs": True},
        {"test": "tukey_hsd"},
    ),
    "rank": ({"simultaneous": True}, {"simultaneous": False}),
    "mcs": ({"statistic": "max"}, {"statistic": "range"}),
}


def _parameters(method: str) -> dict:
    return dict(inspect.signature(getattr(PairedDataFrameAccessor, method)).parameters)


def _binary(method: str) -> bool:
    """The subject takes pass/fail scores only (its spec's ``binary_scores``)."""
    return method in SPECS and SPECS[method].binary_scores


def _settings(method: str) -> dict:
    """This suite's settings and the method's spec's ``example_keywords`` (a value of each
    required keyword: ``items_for``'s ``difference``)."""
    return {**_SETTINGS, **(SPECS[method].example_keywords if method in SPECS else {})}


def _two_sample(method: str) -> bool:
    return "group" in _parameters(method)


def test_every_method_is_a_subject():
    # every keyword without a default is one this suite knows how to give
    assert {"bootstrap", "tukey_hsd", "ranksum", "signrank", "report", "rank", "items_for"} <= set(
        SUBJECTS
    )
    for method in SUBJECTS:
        params = _parameters(method)
        required = [n for n, p in params.items() if n != "self" and p.default is p.empty]
        unknown = [n for n in required if n not in _settings(method)]
        assert not unknown, f"{method}: give {unknown} in its spec's example_keywords"
        assert "score" in params, method
        assert "system" in params or "group" in params, method


# --------------------------------------------------------------------------- data
@st.composite
def tables(draw, by: bool = False, binary: bool = False):
    """A tidy table ``item, system, s2, s1`` (and ``grp`` with ``by``), the systems in the
    order of :data:`NAMES`; scores on a grid of 0.01 with system effects, or with
    ``binary`` 0/1 outcomes whose rates differ by system."""
    k = draw(st.integers(3, len(NAMES)), label="systems")
    n = draw(st.integers(6, 10), label="items")
    seed = draw(st.integers(0, 2**32 - 1), label="seed")
    rng = np.random.default_rng(seed)
    groups = ("g2", "g1") if by else (None,)
    parts = []
    for key in groups:
        effects = rng.normal(0, 0.6, size=k)
        items = [f"i{j:02d}" for j in range(n)]
        part = pd.DataFrame(
            {
                "item": np.repeat(items, k),
                "system": np.tile(NAMES[:k], n),
                **{m: _scores(rng, n, effects, binary) for m in METRICS},
            }
        )
        if key is not None:
            part.insert(0, "grp", key)
        parts.append(part)
    return pd.concat(parts, ignore_index=True)


def _scores(rng, n: int, effects: np.ndarray, binary: bool) -> np.ndarray:
    """``n`` items' scores of each system (item-major), with the systems' ``effects``."""
    latent = rng.normal(0, 1, size=n * len(effects)) + np.tile(effects, n)
    return (latent > 0).astype(float) if binary else np.round(latent, 2)


def _keywords(method: str, table: pd.DataFrame, variant: dict, baseline: bool) -> dict:
    """The subject's keywords for ``table`` (tidy): labels, settings, the variant."""
    params = _parameters(method)
    systems = list(dict.fromkeys(table["system"]))
    if _two_sample(method):
        out = {"score": METRICS[0], "group": "system", "a": systems[0], "b": systems[1]}
    else:
        score = list(METRICS) if method == "report" else METRICS[0]
        out = {"item": "item", "system": "system", "score": score}
    out.update({k: v for k, v in _settings(method).items() if k in params})
    if baseline:
        out["baseline"] = NAMES[0]
    return {**out, **variant}


def _call(method: str, table: pd.DataFrame, keywords: dict):
    """The result object of the subject (``as_result=True`` where it returns a frame)."""
    extra = {"as_result": True} if "as_result" in _parameters(method) else {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a warning is not what is compared here
        return getattr(table.paired, method)(**keywords, **extra)


# --------------------------------------------------------------------------- outputs
def _frame_of(result) -> pd.DataFrame:
    frame = result.to_frame() if hasattr(result, "to_frame") else result.to_dataframe()
    frame = frame.copy()
    frame.attrs = {}
    return frame


def _rows_of_frame(frame: pd.DataFrame, mapping: dict) -> list[str]:
    """A frame as sorted row texts, index included, labels mapped."""
    flat = frame.reset_index() if frame.index.name or frame.index.nlevels > 1 else frame
    rows = []
    for row in flat.itertuples(index=False):
        cells = [mapping.get(v, v) if isinstance(v, str) else v for v in row]
        rows.append(repr(cells))
    return sorted(rows)


def _units(text: str, kind: str) -> list[str]:
    """The row units of a rendering: lines, or ``<tr>`` chunks of HTML, or JSON records."""
    if kind == "html":
        text = _html_cells(text)
        rows = re.findall(r"<tr.*?</tr>", text, flags=re.S)
        return sorted([*rows, re.sub(r"<tr.*?</tr>", "", text, flags=re.S)])
    if kind == "json":
        data = json.loads(text)
        rows = sorted(json.dumps(r, sort_keys=True) for r in data.pop("rows"))
        return [*rows, json.dumps(data, sort_keys=True)]
    return sorted(text.splitlines())


def _html_cells(text: str) -> str:
    """HTML with each cell's style written into the cell: a ``Styler`` table styles cells by
    their position (``#T_<id>_row2_col1 {font-weight: bold}``), which this resolves, then
    drops the ids, classes and style block that name positions."""
    bold = set()
    for rule, body in re.findall(r"([^{}]*)\{([^}]*)\}", text.partition("</style>")[0]):
        if "bold" in body:
            bold |= set(re.findall(r"_row(\d+)_col(\d+)", rule))

    def cell(match):
        tag, attributes = match.group(1), match.group(2)
        where = re.search(r"_row(\d+)_col(\d+)", attributes)
        strong = " bold" if where and where.groups() in bold else ""
        return f"<{tag}{strong}>"

    text = re.sub(r"<style.*?</style>", "", text, flags=re.S)
    text = re.sub(r"<(td|th)([^>]*)>", cell, text)
    return re.sub(r' id="T_\w+"', "", text)


def _renderings(result) -> dict:
    """Every text rendering the result offers: name -> (text, kind)."""
    out = {"str": (str(result), "text")}
    for name, kind in (("_repr_html_", "html"), ("to_markdown", "text"), ("to_latex", "text")):
        if hasattr(result, name):
            out[name] = (getattr(result, name)(), kind)
    return {k: v for k, v in out.items() if v[0] is not None}


def _command(method: str) -> str:
    return method.replace("_", "-")


def _subparser(method: str):
    parser = cli.build_parser()
    sub = next(a for a in parser._subparsers._actions if a.choices)  # the subcommands
    return sub.choices[_command(method)]


def _formats(method: str) -> tuple:
    formats = next(a for a in _subparser(method)._actions if a.dest == "format")
    return tuple(formats.choices)


#: Keywords the command line does not offer, which change no number.
_NOT_OPTIONS = {"workers"}


def _argv(method: str, path: str, keywords: dict, fmt: str) -> list[str]:
    """The command line of the subject's call."""
    argv = [_command(method), path, "--format", fmt]
    for name, value in keywords.items():
        if name in _NOT_OPTIONS:
            continue
        option = "-" + name if name in ("a", "b") else "--" + name.replace("_", "-")
        if isinstance(value, bool):
            if name == "simultaneous":
                argv += [] if value else ["--marginal"]
            elif value:
                argv.append(option)
        elif isinstance(value, list):
            argv += [option, *map(str, value)]
        else:
            argv += [option, str(value)]
    return argv


def _command_outputs(method: str, table: pd.DataFrame, keywords: dict) -> dict:
    """Every format of the subject's command on ``table`` written as CSV: name -> (text, kind).
    The text format through ``cli.main`` itself, whole; every other format renders the result
    of one more run of the command line's road (its parser, the CSV read back, the labels
    typed), as ``main`` renders it, instead of running the method once per format."""
    out = {}
    with tempfile.TemporaryDirectory() as folder, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        path = os.path.join(folder, "scores.csv")
        table.to_csv(path, index=False)
        stdout = io.StringIO()
        with contextlib.redirect_stdout(stdout):
            assert cli.main(_argv(method, path, keywords, "text")) == 0, method
        out["cli text"] = (stdout.getvalue(), "text")
        parser = cli.build_parser()
        args = parser.parse_args(_argv(method, path, keywords, "text"))
        result = cli.run(args, parser)
        for fmt in _formats(method):
            if fmt != "text":
                text = cli.format_result(result, fmt, alpha=cli._markers_level(args)) + "\n"
                out[f"cli {fmt}"] = (text, "json" if fmt == "json" else "text")
    return out


def _mapped(text: str, mapping: dict) -> str:
    """``text`` with every label in it mapped."""
    return _LABEL.sub(lambda m: mapping.get(m.group(), m.group()), text)


def _plot_labels(result, mapping: dict) -> list:
    """The plot's labels with what they label: ``(tick label, estimate)`` for each dot, and
    ``(x tick label, y tick label, text)`` for each text in a cell."""
    if not hasattr(result, "plot"):
        return []
    import matplotlib.pyplot as plt

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ax = result.plot()
    except (TypeError, ValueError):  # no plot for this result (e.g. one group needed)
        return []
    ax = ax if hasattr(ax, "get_yticks") else ax.axes[0]
    ticks = {
        axis: {round(float(t)): _mapped(lab.get_text(), mapping)
               for t, lab in zip(getattr(ax, f"get_{axis}ticks")(),
                                 getattr(ax, f"get_{axis}ticklabels")())}
        for axis in ("x", "y")
    }  # fmt: skip
    found = []
    for line in ax.get_lines():
        if line.get_gid() == "estimate":
            found += [(ticks["y"][round(y)], x) for x, y in zip(*line.get_data())]
    for text in ax.texts:
        x, y = text.get_position()
        label = _mapped(text.get_text(), mapping)  # a text may be a label (a system's name)
        found.append((ticks["x"].get(round(x)), ticks["y"].get(round(y)), label))
    plt.close(ax.figure)
    return sorted(found + _distribution_labels(result, mapping), key=repr)


def _distribution_labels(result, mapping: dict) -> list:
    """``(x label, difference)`` of each comparison's bootstrap distribution plot, chosen
    by its labels."""
    import matplotlib.pyplot as plt

    if getattr(result, "bootstrap_distribution", None) is None or len(result.group_keys) > 1:
        return []
    found = []
    for pair in zip(result.label_a, result.label_b):
        ax = result.plot("distribution", comparison=pair)
        line = next(x for x in ax.get_lines() if x.get_gid() == "difference")
        found.append((_mapped(ax.get_xlabel(), mapping), float(line.get_xdata()[0])))
        plt.close(ax.figure)
    return found


def _all_outputs(method, table, keywords, mapping) -> dict:
    """Every output of one call, as comparable row units with the labels mapped."""
    result = _call(method, table, keywords)
    out = {"frame": _rows_of_frame(_frame_of(result), mapping)}
    if hasattr(result, "to_dataset"):  # the Dataset's cells, each with its coordinates
        cells = result.to_dataset().to_dataframe().reset_index()
        cells.attrs = {}
        out["dataset"] = _rows_of_frame(cells, mapping)
    texts = {**_renderings(result), **_command_outputs(method, table, keywords)}
    for name, (text, kind) in texts.items():
        out[name] = _units(_mapped(text, mapping), kind)
    out["plot"] = _plot_labels(result, mapping)
    return out


def _renamed_and_reordered(table: pd.DataFrame, order: list) -> pd.DataFrame:
    """The table with its systems renamed (:data:`RENAMED`) and first appearing in ``order``
    (rows of an item in that order)."""
    position = {s: i for i, s in enumerate(order)}
    out = table.assign(_at=table["system"].map(position))
    out = out.sort_values(["item", "_at"], kind="stable").drop(columns="_at")
    out["system"] = out["system"].map(RENAMED)
    return out.reset_index(drop=True)


#: The methods whose first case the quick loop runs: a table of comparisons with its plots,
#: one of systems, the paper table, a two-sample test (the full run: every method and case).
QUICK_SUBJECTS = ("bootstrap", "rank", "report", "ranksum")


def _cases():
    """(method, variant, baseline): each variant, with and without a baseline where the
    method takes one; reordering all pairs would swap a and b (the mirror properties), so
    comparison tables are reordered against a baseline."""
    for method in SUBJECTS:
        first = method in QUICK_SUBJECTS  # the quick loop runs these methods' first case
        for variant in _VARIANTS.get(method, ({},)):
            for baseline in (False, True) if "baseline" in _parameters(method) else (False,):
                yield pytest.param(method, variant, baseline,
                                   id=f"{method}-{'-'.join(map(str, variant.values()))}"
                                   f"{'-baseline' if baseline else ''}",
                                   marks=() if first else pytest.mark.slow)  # fmt: skip
                first = False


def _per_system(method: str, table: pd.DataFrame, keywords: dict) -> bool:
    """A table of systems (the report, the ranking), whose rows reordering the systems only
    moves; a table of all pairs (``label_a``: Friedman's post-hoc tests, which take
    ``lower_is_better`` too) would swap a and b instead."""
    if method in ("report", "rank"):
        return True
    return "lower_is_better" in _parameters(method) and not hasattr(
        _call(method, table, keywords), "label_a"
    )


@pytest.mark.parametrize(("method", "variant", "baseline"), list(_cases()))
@given(data=st.data())
def test_renaming_and_reordering_systems_moves_every_number_with_its_label(
    method, variant, baseline, data
):
    table = data.draw(tables(binary=_binary(method)))
    systems = list(dict.fromkeys(table["system"]))
    keywords = _keywords(method, table, variant, baseline)
    if _two_sample(method) or baseline or _per_system(method, table, keywords):
        order = data.draw(st.permutations(systems), label="order")
    else:
        order = systems  # all pairs: a and b keep their sides
    if _two_sample(method):  # a and b stay the first two groups named
        order = [*systems[:2], *[s for s in order if s not in systems[:2]]]
    back = {new: old for old, new in RENAMED.items()}
    moved = _renamed_and_reordered(table, order)
    moved_keywords = {k: (RENAMED.get(v, v) if isinstance(v, str) else v)
                      for k, v in keywords.items()}  # fmt: skip
    expected = _all_outputs(method, table, keywords, {})
    got = _all_outputs(method, moved, moved_keywords, back)
    assert got.keys() == expected.keys()
    for name in expected:
        assert got[name] == expected[name], f"{method} {variant}: {name}"


def test_the_report_of_unsorted_systems_puts_each_mean_on_its_system():
    # the defect these properties found: the index came from sorted levels
    table = pd.DataFrame({"zeta": [0.1, 0.2, 0.3, 0.2], "alpha": [0.5, 0.6, 0.7, 0.9],
                          "mid": [0.9, 1.1, 1.0, 1.2]})  # fmt: skip
    rep = table.paired.report(baseline="zeta", n_resamples=199, rng=1)
    means = rep.to_frame()[("score", "mean")].to_dict()
    assert means == pytest.approx({"zeta": 0.2, "alpha": 0.675, "mid": 1.05})
    assert rep.to_frame().loc["zeta", ("score", "mark")] == ""
    assert re.search(r"^zeta +0\.200 *$", str(rep), flags=re.M)


# --------------------------------------------------------------------------- direction
_DECISIONS = (
    "mark",
    "letters",
    "rank",
    "rank_low",
    "rank_high",
    "may_be_best",
    "in_set",
    "mcs_pvalue",
    "eliminated",
)
_NUMBER = re.compile(r"-?\d+\.\d+")


def _decisions(result) -> list:
    frame = _frame_of(result)
    if isinstance(frame.columns, pd.MultiIndex):
        keep = [c for c in frame.columns if c[-1] in _DECISIONS]
    else:
        keep = [c for c in frame.columns if c in _DECISIONS or c == "system"]
    shown = []  # the table's bold cells and superscripts, the numbers blanked
    if hasattr(result, "to_markdown"):
        lines = result.to_markdown().splitlines()
        shown = [_NUMBER.sub("#", line) for line in lines if line.startswith("|")]
    return [frame[keep].to_dict("list"), shown]


@pytest.mark.parametrize("method", [m for m in SUBJECTS if "lower_is_better" in _parameters(m)])
@pytest.mark.parametrize("baseline", [False, True])
@given(data=st.data())
def test_negated_scores_lower_is_better_give_the_same_decisions(method, baseline, data):
    if baseline and "baseline" not in _parameters(method):
        return
    table = data.draw(tables(binary=_binary(method)))
    negated = table.assign(**{m: -table[m] for m in METRICS})
    for variant in _VARIANTS.get(method, ({},)):
        keywords = _keywords(method, table, variant, baseline)
        higher = _call(method, table, keywords)
        lower = _call(method, negated, {**keywords, "lower_is_better": True})
        assert _decisions(lower) == _decisions(higher), (method, variant)


# --------------------------------------------------------------------------- groups
@pytest.mark.parametrize(
    "method",  # the report (the bootstrap and the Tukey HSD in one) in the full run only
    [pytest.param(m, marks=pytest.mark.slow) if m == "report" else m
     for m in SUBJECTS if "by" in _parameters(m)],
)  # fmt: skip
@given(data=st.data())
def test_a_by_group_holds_the_rows_of_its_groupby_call(method, data):
    table = data.draw(tables(by=True, binary=_binary(method)))
    for variant in _VARIANTS.get(method, ({},)):
        keywords = _keywords(method, table, variant, False)
        whole = _frame_of(_call(method, table, {**keywords, "by": "grp"}))
        alone = table.groupby("grp", sort=False)[list(table.columns)].apply(
            lambda g, keywords=keywords: _call(method, g, keywords)
        )
        for key in ("g2", "g1"):
            if "grp" in whole.columns:
                part = whole[whole["grp"] == key].drop(columns="grp").reset_index(drop=True)
            else:
                part = whole.xs(key, level="grp")
            expected = _frame_of(alone[key])
            pd.testing.assert_frame_equal(part, expected, check_dtype=False)
