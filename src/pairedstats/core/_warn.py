"""Warnings that point at the user's line.

Every warning of the package goes through :func:`warn`, which sets ``stacklevel`` to the
first frame outside the package, so the warning names the line of the user's script or
notebook whether the method was called as a function, through an accessor, by ``by=`` or
from the command line. This module imports the standard library only.
"""

from __future__ import annotations

import os
import sys
import threading
import warnings
from contextlib import contextmanager

__all__ = ["collected", "warn"]

#: The warnings collected in this thread instead of issued (:func:`collected`), if any.
_COLLECTED = threading.local()

_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep


def user_stacklevel() -> int:
    """The ``stacklevel`` of ``warnings.warn``, called by :func:`warn`, that names the first
    frame outside the package (1 would name :func:`warn` itself)."""
    frame = sys._getframe(1)  # the caller of this function: warn()
    level = 1
    while frame is not None and os.path.abspath(frame.f_code.co_filename).startswith(_PACKAGE):
        frame = frame.f_back
        level += 1
    return level


def warn(message: str, category: type[Warning]) -> None:
    """Issue ``message`` as ``category``, attributed to the user's line.

    Examples
    --------
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     warn("something to know", UserWarning)
    >>> caught[0].filename.endswith("_warn.py")
    False
    """
    found = getattr(_COLLECTED, "found", None)
    if found is not None:
        found.append((message, category))
        return
    warnings.warn(message, category, stacklevel=user_stacklevel())


@contextmanager
def collected():
    """Collect the warnings :func:`warn` would issue in this thread, as ``(message,
    category)`` pairs, instead of issuing them: a dask task hands them to the caller, who
    issues them at the user's line (other threads, and tasks in other threads, are not
    affected).

    Examples
    --------
    >>> with collected() as found:
    ...     warn("something to know", UserWarning)
    >>> found
    [('something to know', <class 'UserWarning'>)]
    """
    previous = getattr(_COLLECTED, "found", None)
    _COLLECTED.found = found = []
    try:
        yield found
    finally:
        _COLLECTED.found = previous
