"""The dice-and-tables session: commands in, events out, every roll kept in a history.

This is the engine side of the dice panel. A widget builds a command (roll ``2d6``, roll
Table E with -40, follow a nested link, re-roll a die with Fate), the session carries it
out and returns events; the Qt bridge turns events into signals. Nothing here knows Qt.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field

from .dice import Dice, RollRecord
from .roller import MissingRowPolicy, TableRoll, TableRoller
from .tables import Row, TableError, TableLibrary

# --------------------------------------------------------------------------- commands


class RollDice(BaseModel):
    kind: Literal["roll_dice"] = "roll_dice"
    expression: str
    purpose: str = ""


class RollTable(BaseModel):
    kind: Literal["roll_table"] = "roll_table"
    table_id: str
    modifier: int = 0
    purpose: str = ""


class FollowLink(BaseModel):
    """Roll the nested table that entry ``entry`` of the history links to."""

    kind: Literal["follow_link"] = "follow_link"
    entry: int
    link: int


class RerollDice(BaseModel):
    """Re-roll some dice of a history entry (what Fate does)."""

    kind: Literal["reroll"] = "reroll"
    entry: int
    dice: list[int]


class ProvideRow(BaseModel):
    """The player typed the row a roll landed on (missing-row policy "ask me")."""

    kind: Literal["provide_row"] = "provide_row"
    entry: int
    row: Row


Command = Annotated[RollDice | RollTable | FollowLink | RerollDice | ProvideRow, Field(discriminator="kind")]

# --------------------------------------------------------------------------- events


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


class RollMade(BaseModel):
    kind: Literal["roll_made"] = "roll_made"
    index: int
    entry: HistoryEntry


class RowMissing(BaseModel):
    """A table roll landed in a gap of the player's tables and the policy is "ask me"."""

    kind: Literal["row_missing"] = "row_missing"
    index: int
    entry: HistoryEntry


class RowProvided(BaseModel):
    kind: Literal["row_provided"] = "row_provided"
    index: int
    entry: HistoryEntry
    table_id: str
    row: Row


Event = RollMade | RowMissing | RowProvided


class SessionError(ValueError):
    """A command that cannot be carried out; the message is for the player."""


class DiceSession:
    """Carries out dice commands against the library and keeps the history."""

    def __init__(self, library: TableLibrary, dice: Dice, policy: MissingRowPolicy = MissingRowPolicy.ASK) -> None:
        self.roller = TableRoller(library, dice, policy)
        self.history: list[HistoryEntry] = []

    @property
    def library(self) -> TableLibrary:
        return self.roller.library

    @property
    def dice(self) -> Dice:
        return self.roller.dice

    def execute(self, command: RollDice | RollTable | FollowLink | RerollDice | ProvideRow) -> list[Event]:
        if isinstance(command, RollDice):
            record = self.dice.roll(command.expression, command.purpose or command.expression)
            return [self._add(HistoryEntry(roll=record))]
        if isinstance(command, RollTable):
            try:
                result = self.roller.roll(command.table_id, command.purpose, command.modifier)
            except TableError as exc:
                raise SessionError(str(exc)) from None
            return [self._add_table(result, None)]
        if isinstance(command, FollowLink):
            entry = self._entry(command.entry)
            if entry.table is None or entry.table.row is None or not 0 <= command.link < len(entry.table.row.links):
                raise SessionError("That roll has no such follow-up roll.")
            link = entry.table.row.links[command.link]
            if link.table not in self.library:
                raise SessionError(f"The follow-up table {link.table!r} is not in your tables.")
            return [self._add_table(r, command.entry) for r in self.roller.follow(link)]
        if isinstance(command, RerollDice):
            entry = self._entry(command.entry)
            record = self.dice.reroll(entry.roll, command.dice)
            if entry.table is None:
                return [self._add(HistoryEntry(roll=record, parent=command.entry))]
            table = self.library.get(entry.table.table_id)
            row = table.find(record.final)
            result = entry.table.model_copy(
                update={
                    "roll": record,
                    "row": row,
                    "missing": None if row else table.gap_containing(record.final),
                    "sample": False,
                }
            )
            return [self._add_table(result, command.entry)]
        if isinstance(command, ProvideRow):
            entry = self._entry(command.entry)
            if entry.table is None or entry.table.row is not None:
                raise SessionError("That roll is not waiting for a row.")
            try:
                resolved = self.roller.resolve_missing(entry.table, command.row)
            except ValueError as exc:
                raise SessionError(str(exc)) from None
            new_entry = entry.model_copy(update={"table": resolved})
            self.history[command.entry] = new_entry
            assert resolved.row is not None
            return [RowProvided(index=command.entry, entry=new_entry, table_id=resolved.table_id, row=resolved.row)]
        raise SessionError(f"Unknown command {command!r}")

    def _entry(self, index: int) -> HistoryEntry:
        if not 0 <= index < len(self.history):
            raise SessionError(f"There is no roll number {index + 1} in the history.")
        return self.history[index]

    def _add(self, entry: HistoryEntry) -> RollMade:
        self.history.append(entry)
        return RollMade(index=len(self.history) - 1, entry=entry)

    def _add_table(self, result: TableRoll, parent: int | None) -> RollMade | RowMissing:
        entry = HistoryEntry(roll=result.roll, table=result, parent=parent)
        self.history.append(entry)
        index = len(self.history) - 1
        if result.row is None:
            return RowMissing(index=index, entry=entry)
        return RollMade(index=index, entry=entry)

    def history_text(self) -> str:
        return "\n".join(f"{i + 1}. {e.describe()}" for i, e in enumerate(self.history))
