"""The command line's words before argparse reads them: a misspelled command gets a
suggestion (``tukey_hsd``: did you mean ``tukey-hsd``?), and ``compare`` without a METHOD
runs the report of the runs."""

from __future__ import annotations

import difflib
import sys
from pathlib import Path


def did_you_mean(word: str, choices) -> str:
    """The suggestion for a misspelled command or method: ``"; did you mean 'tukey-hsd'?"``
    (underscores read as dashes, any case; the choices it begins, else the close ones), or
    ``""`` when none is close.

    Examples
    --------
    >>> did_you_mean("tukey_hsd", ["bootstrap", "tukey-hsd"])
    "; did you mean 'tukey-hsd'?"
    >>> did_you_mean("bootstrp", ["bootstrap", "tukey-hsd"])
    "; did you mean 'bootstrap'?"
    >>> did_you_mean("anova", ["bootstrap", "tukey-hsd"])
    ''
    """
    typed = word.lower().replace("_", "-")
    close = [c for c in choices if typed and c.startswith(typed)]
    close = close or difflib.get_close_matches(typed, list(choices), n=3, cutoff=0.6)
    return f"; did you mean {' or '.join(map(repr, close))}?" if close else ""


def command_argv(argv, commands, methods, error) -> tuple[list[str], bool]:
    """``argv`` as the parser reads it, and whether ``compare`` was given no METHOD.

    A misspelled command (or ``compare`` method) is refused by ``error`` (the parser's: the
    usage and the message, exit status 2) with a suggestion; ``compare RUN ...`` (a word
    that is no method, and a file or close to no method) becomes ``compare report RUN ...``.

    Parameters
    ----------
    argv : list of str or None
        The arguments (None: ``sys.argv[1:]``).
    commands, methods : list of str
        The commands (``compare`` the last) and the methods of ``compare``.
    error : callable
        ``error(message)``, which does not return.

    Examples
    --------
    >>> command_argv(["compare", "a.run", "b.run"], ["bootstrap", "compare"], ["bootstrap"],
    ...              print)
    (['compare', 'report', 'a.run', 'b.run'], True)
    """
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0].startswith("-"):
        return argv, False
    compare = commands[-1]
    if argv[0] not in commands:
        error(f"no command {argv[0]!r}{did_you_mean(argv[0], commands)} "
              f"(the commands: {', '.join(commands)})")  # fmt: skip
    if argv[0] != compare or len(argv) < 2 or argv[1] in ("-h", "--help"):
        return argv, False
    word = argv[1]
    if word in methods:
        return argv, False
    hint = did_you_mean(word, methods)
    if hint and not word.startswith("-") and not Path(word).exists():
        error(f"{compare}: no METHOD {word!r}{hint} (the methods: {', '.join(methods)})")
    return [compare, "report", *argv[1:]], True
