"""Planning from the data: the items each comparison needs to detect a difference, with the
spread of its per-item differences observed in the table (the discordant rate for 0/1
scores), and the difference detectable at the table's size (:mod:`.spec`)."""

from . import spec  # noqa: F401  (registers)
from .findings import PlanningWarning
from .result import ItemsForResult

__all__ = ["ItemsForResult", "PlanningWarning"]
