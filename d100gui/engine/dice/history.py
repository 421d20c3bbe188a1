"""The dice history: every roll made from the dice panel, kept in the campaign."""

from __future__ import annotations

from pydantic import BaseModel

from d100gui.engine.dice.dice import RollRecord
from d100gui.engine.dice.roller import TableRoll

MAX_LINE = 110


class HistoryEntry(BaseModel):
    """One line of the roll history: a plain roll or a table roll."""

    roll: RollRecord
    table: TableRoll | None = None
    parent: int | None = None
    note: str = ""  # what the roll decided when it is not a table row (e.g. the Table M tile)

    def describe(self) -> str:
        if self.table is not None:
            faces = " ".join(f"[{d.shown}]" for d in self.roll.dice)
            text = f"{faces} {self.table.describe()}"
        else:
            text = self.roll.describe()
            if self.note:
                text = f"{text}: {self.note}"
        return text if len(text) <= MAX_LINE else text[: MAX_LINE - 1].rstrip() + "…"
