"""Dice-panel commands: free rolls and table rolls, kept in the campaign's dice history.

They run through :class:`d100gui.engine.game.Game` like every other command, so each roll
is in the command log, undo restores the generator (undo never fishes for a better roll),
and a save restores the history.
"""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field

from d100gui.engine.command_registry import register_command
from d100gui.engine.dice.dice import DiceError, RollRecord
from d100gui.engine.dice.events import RollMade, RowMissing, RowProvided
from d100gui.engine.dice.history import HistoryEntry
from d100gui.engine.dice.roller import MissingRowPolicy
from d100gui.engine.dice.tables import Row, TableError
from d100gui.engine.game import Command, GameContext
from d100gui.engine.phases import ANSWER, ANY_TIME, Phases
from d100gui.engine.protocol import CommandRefused, Event

#: the longest dice expression a command takes (``3d6+2`` is 5 characters; none printed is near this)
MAX_EXPRESSION = 100


def _history(ctx: GameContext) -> list[HistoryEntry]:
    return ctx.campaign.dice_history


def _entry(ctx: GameContext, index: int) -> HistoryEntry:
    history = _history(ctx)
    if not 0 <= index < len(history):
        raise CommandRefused(f"There is no roll number {index + 1} in the history.")
    return history[index]


def _added(ctx: GameContext, entry: HistoryEntry) -> Event:
    history = _history(ctx)
    history.append(entry)
    index = len(history) - 1
    missing = entry.table is not None and entry.table.row is None
    payload = RowMissing(index=index) if missing else RollMade(index=index)
    return Event.of(payload, f"{index + 1}. {entry.describe()}")


@register_command
class RollDice(Command):
    """Roll an expression: ``d100``, ``d%``, ``2d6``, ``3d4+1``."""

    kind: Literal["roll_dice"] = "roll_dice"
    when: ClassVar[Phases] = ANY_TIME
    expression: str = Field(max_length=MAX_EXPRESSION)  # a longer one is refused, never parsed
    purpose: str = ""

    def apply(self, ctx: GameContext) -> list[Event]:
        record = ctx.dice.roll(self.expression.strip(), self.purpose or self.expression.strip())
        return [_added(ctx, HistoryEntry(roll=record))]


@register_command
class RollTable(Command):
    """Roll a table's die plus ``modifier`` (clamped), and look up the row."""

    kind: Literal["roll_table"] = "roll_table"
    when: ClassVar[Phases] = ANY_TIME
    table_id: str
    modifier: int = 0
    purpose: str = ""

    def apply(self, ctx: GameContext) -> list[Event]:
        try:
            result = ctx.tables.roll(self.table_id, self.purpose, self.modifier)
        except TableError as exc:
            raise CommandRefused(str(exc)) from None
        return [_added(ctx, HistoryEntry(roll=result.roll, table=result))]


@register_command
class FollowLink(Command):
    """Roll the nested table that history entry ``entry`` links to."""

    kind: Literal["follow_link"] = "follow_link"
    when: ClassVar[Phases] = ANY_TIME
    entry: int
    link: int

    def apply(self, ctx: GameContext) -> list[Event]:
        entry = _entry(ctx, self.entry)
        if entry.table is None or entry.table.row is None or not 0 <= self.link < len(entry.table.row.links):
            raise CommandRefused("That roll has no such follow-up roll.")
        link = entry.table.row.links[self.link]
        if link.table not in ctx.tables.library:
            raise CommandRefused(f"The follow-up table {link.table!r} is not in your tables.")
        return [_added(ctx, HistoryEntry(roll=r.roll, table=r, parent=self.entry)) for r in ctx.tables.follow(link)]


@register_command
class RerollDice(Command):
    """Re-roll some dice of a history entry, keeping the others (what Fate does)."""

    kind: Literal["reroll"] = "reroll"
    when: ClassVar[Phases] = ANY_TIME
    entry: int
    dice: list[int]

    def apply(self, ctx: GameContext) -> list[Event]:
        entry = _entry(ctx, self.entry)
        record = ctx.dice.reroll(entry.roll, self.dice)
        if entry.table is None:
            return [_added(ctx, HistoryEntry(roll=record, parent=self.entry))]
        table = ctx.tables.library.get(entry.table.table_id)
        row = table.find(record.final)
        gap = None if row else table.gap_containing(record.final)
        result = entry.table.model_copy(update={"roll": record, "row": row, "missing": gap, "sample": False})
        return [_added(ctx, HistoryEntry(roll=record, table=result, parent=self.entry))]


@register_command
class ProvideRow(Command):
    """The player typed the row a roll landed on (missing-row policy "ask me").

    The row is laid over the table in the library (the UI also saves it to the player's
    pack); the history entry now shows it.
    """

    kind: Literal["provide_row"] = "provide_row"
    when: ClassVar[Phases] = ANSWER
    entry: int
    row: Row

    def apply(self, ctx: GameContext) -> list[Event]:
        entry = _entry(ctx, self.entry)
        if entry.table is None or entry.table.row is not None:
            raise CommandRefused("That roll is not waiting for a row.")
        try:
            resolved = ctx.tables.resolve_missing(entry.table, self.row)
        except ValueError as exc:
            raise CommandRefused(str(exc)) from None
        updated = entry.model_copy(update={"table": resolved})
        _history(ctx)[self.entry] = updated
        provided = RowProvided(table_id=resolved.table_id, index=self.entry)
        return [Event.of(provided, f"Row added to your tables: {updated.describe()}")]


@register_command
class AddTableRow(Command):
    """The player typed a row their tables lack (asked for by a roll outside the dice panel,
    e.g. loot or a curse in a fight): lay it over the table. The result is applied by the
    player on the sheet, as on paper."""

    kind: Literal["add_table_row"] = "add_table_row"
    when: ClassVar[Phases] = ANY_TIME
    table_id: str
    row: Row

    def apply(self, ctx: GameContext) -> list[Event]:
        try:
            table = ctx.tables.library.add_user_row(self.table_id, self.row)
        except (TableError, ValueError) as exc:
            raise CommandRefused(str(exc)) from None
        shown = self.row.model_copy(update={"user": True}).summary(table)
        message = f"Row {self.row.range_label()} added to {table.title}: {shown}. Apply its result on the sheet."
        return [Event.of(RowProvided(table_id=self.table_id), message)]


@register_command
class SampleRow(Command):
    """Re-roll among the printed rows, this time only (sample play), for a roll that found no row.

    The roll is ``entry`` in the dice history, or one made elsewhere (a fight's loot or curse)
    named by ``table_id`` and ``modifier``. The table's die is rolled again, as the ``reroll``
    missing-row policy does, until it lands on a printed row; the result joins the dice history
    marked ``sample``. The player's missing-row preference is not changed.
    """

    kind: Literal["sample_row"] = "sample_row"
    when: ClassVar[Phases] = ANY_TIME
    table_id: str = ""
    entry: int | None = None
    modifier: int = 0
    purpose: str = ""

    def apply(self, ctx: GameContext) -> list[Event]:
        table_id, modifier, label, die, purpose, column = self.table_id, self.modifier, "modifier", None, self.purpose, ""
        discarded: list[RollRecord] = []
        if self.entry is not None:
            waiting = _entry(ctx, self.entry).table
            if waiting is None or waiting.row is not None:
                raise CommandRefused("That roll is not waiting for a row.")
            mods = waiting.roll.modifiers
            table_id, modifier, die, column = (
                waiting.table_id,
                sum(m.value for m in mods),
                waiting.roll.expression,
                waiting.column,
            )
            label, purpose, discarded = (mods[0].label if mods else label), waiting.roll.purpose, [waiting.roll]
        roller = ctx.tables.with_policy(MissingRowPolicy.REROLL)
        try:
            result = roller.roll(table_id, purpose, modifier, label, die, column)
        except (TableError, DiceError) as exc:
            raise CommandRefused(str(exc)) from None
        if result.row is None:
            raise CommandRefused(f"{result.table_title} prints no row to re-roll among: type the row from your rulebook.")
        result = result.model_copy(update={"sample": True, "discarded": [*discarded, *result.discarded]})
        return [_added(ctx, HistoryEntry(roll=result.roll, table=result, parent=self.entry))]


DICE_COMMANDS: tuple[type[Command], ...] = (RollDice, RollTable, FollowLink, RerollDice, ProvideRow, AddTableRow, SampleRow)


def history_text(history: list[HistoryEntry]) -> str:
    return "\n".join(f"{i + 1}. {e.describe()}" for i, e in enumerate(history))
