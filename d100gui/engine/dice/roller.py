"""Rolling on tables: the roll, the row it lands on, and what happens when the row is missing.

The bundled tables are excerpts, so a roll may land in a gap. That is never an error. The
player's preference decides:

* ``ask`` (default): the result comes back with ``row=None`` and the missing range; the UI
  asks the player to type the row from their rulebook and calls
  :meth:`TableRoller.resolve_missing`, which validates it and lays it over the table.
* ``reroll``: the table's die is rolled again until it lands on a known row, and the result
  is marked ``sample`` so the UI labels it as sample play.
"""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, Field

from d100gui.engine.dice.dice import Dice, DiceError, RollRecord
from d100gui.engine.dice.tables import Link, Row, Table, TableLibrary

MAX_REROLLS = 500


class MissingRowPolicy(StrEnum):
    ASK = "ask"
    REROLL = "reroll"


class TableRoll(BaseModel):
    """One roll on one table, with the row it found (or the gap it fell in)."""

    table_id: str
    table_title: str
    roll: RollRecord
    row: Row | None = None
    missing: tuple[int, int] | None = None
    sample: bool = False
    discarded: list[RollRecord] = Field(default_factory=list)

    @property
    def value(self) -> int:
        return self.roll.final

    def describe(self, table: Table | None = None) -> str:
        mods = "".join(f" {m.value:+d}" for m in self.roll.modifiers)
        head = (
            f"{self.table_title}: {self.roll.natural}{mods} = {self.roll.final}"
            if mods
            else f"{self.table_title}: {self.roll.final}"
        )
        if self.row is None:
            lo, hi = self.missing or (self.roll.final, self.roll.final)
            return f"{head} - row {lo}-{hi} is not in your tables"
        body = self.row.summary(table) if table else " | ".join(self.row.fields.values())
        tag = " (sample play: re-rolled among known rows)" if self.sample else ""
        return f"{head} -> {body}{tag}"


class TableRoller:
    """Rolls on the library's tables with the dice, applying the missing-row policy."""

    def __init__(self, library: TableLibrary, dice: Dice, policy: MissingRowPolicy = MissingRowPolicy.ASK) -> None:
        self.library = library
        self.dice = dice
        self.policy = policy

    def roll(
        self, table_id: str, purpose: str = "", modifier: int = 0, modifier_label: str = "modifier", die: str | None = None
    ) -> TableRoll:
        """Roll ``table_id``'s die (or ``die`` where the text names another), add
        ``modifier`` and clamp into the table die's range."""
        table = self.library.get(table_id)
        if not table.rollable or table.die is None:
            raise DiceError(f"{table.title} is a reference table: it is read, not rolled.")
        lo, hi = table.die_range()
        die = die or table.die
        mods = [(modifier_label, modifier)] if modifier else []
        record = self.dice.roll(die, purpose or table.title, mods, clamp=(lo, hi))
        result = TableRoll(table_id=table.id, table_title=table.title, roll=record)
        row = table.find(record.final)
        if row is not None:
            return result.model_copy(update={"row": row})
        if self.policy is MissingRowPolicy.REROLL and any(r.range for r in table.rows):
            discarded = [record]
            for _ in range(MAX_REROLLS):
                again = self.dice.roll(die, f"{purpose or table.title} (sample re-roll)", mods, clamp=(lo, hi))
                row = table.find(again.final)
                if row is not None:
                    return result.model_copy(update={"roll": again, "row": row, "sample": True, "discarded": discarded})
                discarded.append(again)
        return result.model_copy(update={"missing": table.gap_containing(record.final)})

    def resolve_missing(self, result: TableRoll, row: Row) -> TableRoll:
        """The player typed the missing row: check it covers the roll, lay it over the table."""
        if row.range is None or not row.range[0] <= result.roll.final <= row.range[1]:
            raise ValueError(f"The row you typed must cover the roll of {result.roll.final}.")
        if result.missing and (row.range[0] < result.missing[0] or row.range[1] > result.missing[1]):
            lo, hi = result.missing
            raise ValueError(f"The row must lie inside the missing range {lo}-{hi}; other rows are already known.")
        self.library.add_user_row(result.table_id, row)
        stored = self.library.get(result.table_id).find(result.roll.final)
        return result.model_copy(update={"row": stored, "missing": None})

    def follow(self, link: Link, purpose: str = "") -> list[TableRoll]:
        """Follow a nested roll ("roll x2 on Table TA"): roll ``times`` on the linked table."""
        times_text = link.times.strip() or "1"
        if times_text.isdigit():
            times = int(times_text)
        else:
            times = self.dice.roll(times_text, f"how many rolls on {link.table}").final
        return [
            self.roll(
                link.table, purpose or link.label or f"nested roll on {link.table}", link.modifier, "link modifier", link.die
            )
            for _ in range(max(0, times))
        ]
