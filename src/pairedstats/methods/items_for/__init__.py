"""Planning from the data: the items each comparison needs to detect a difference, with the
spread of its per-item differences observed in the table (the discordant rate for 0/1
scores), and the difference detectable at the table's size (:mod:`.spec`)."""

from .findings import PlanningWarning
from .result import ItemsForResult
from .spec import SPEC

__all__ = ["SPEC", "ItemsForResult", "PlanningWarning"]
