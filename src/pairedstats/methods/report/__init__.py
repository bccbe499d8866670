"""The report method (:mod:`.run`)."""

from .run import *  # noqa: F403
from .run import __all__  # noqa: F401
