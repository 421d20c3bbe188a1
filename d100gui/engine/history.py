"""The dice history: every roll made from the dice panel, kept in the campaign."""

from __future__ import annotations

from pydantic import BaseModel

from .dice import RollRecord
from .roller import TableRoll


class HistoryEntry(BaseModel):
    """One line of the roll history: a plain roll or a table roll."""

    roll: RollRecord
    table: TableRoll | None = None
    parent: int | None = None

    def describe(self) -> str:
        if self.table is not None:
            faces = " ".join(f"[{d.shown}]" for d in self.roll.dice)
            return f"{faces} {self.table.describe()}"
        return self.roll.describe()
