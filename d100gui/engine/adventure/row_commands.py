"""Commands that finish what an effect's table roll left waiting: a typed row, a find the full backpack cannot take.

* ``apply_typed_row`` — an effect's roll fell on a row the player's tables lack (it waits in
  ``Campaign.adventure.rows_waiting`` by its dice-history line, :mod:`d100gui.engine.dice.waiting`):
  with ``row`` it is typed here; without, the row was typed
  in the dice panel (``provide_row``). Either way the row is then applied as if it had been printed
  (a Table G feature, a Table F find, a treasure). The window sends it as soon as the row is typed.
  ``skip_typed_row`` goes without it. With ``sample`` the roll is re-rolled among the printed rows
  instead (sample play) and that row applies: the roll that asked is settled either way. A quest's
  end drops what it left waiting.
* ``keep_loot`` — drop backpack item ``drop`` (0-based) to keep the waiting find;
  ``leave_loot`` — leave it behind.
"""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field

from d100gui.engine.command_registry import register_command
from d100gui.engine.dice.events import RowProvided
from d100gui.engine.dice.tables import Row
from d100gui.engine.dice.waiting import RowWaiting, waiting_on, without_entry
from d100gui.engine.dice_commands import SampleRow
from d100gui.engine.effects.interpreter import apply_option, apply_outcome
from d100gui.engine.effects.rows import RowCall, apply_row
from d100gui.engine.game import Command, GameContext
from d100gui.engine.hero.events import Narrative
from d100gui.engine.hero.guards import living_character, refuse
from d100gui.engine.phases import ANSWER, OUTSIDE_FIGHT, Phases
from d100gui.engine.protocol import Event, told
from d100gui.engine.quest import events as ev
from d100gui.engine.quest.access import adventure_of
from d100gui.engine.rules.notation import Option, Outcome


def _then(ctx: GameContext, option: Option, source: str, depth: int) -> list[Event]:
    return apply_option(ctx, option, source, depth=depth)


def _choose(ctx: GameContext, outcome: Outcome, source: str, depth: int) -> list[Event]:
    return apply_outcome(ctx, outcome, source, depth=depth)


def waiting_row(ctx: GameContext, entry: int) -> RowWaiting:
    """The waiting roll of dice-history ``entry``; refused when that roll waits for nothing."""
    found = waiting_on(adventure_of(ctx.campaign).rows_waiting, entry)
    if found is None:
        refuse(f"Roll {entry + 1} of the dice history is not waiting for a row to apply.")
    return found


@register_command
class ApplyTypedRow(Command):
    """Apply the row of an effect's table roll that waited for the player to type it (see the module)."""

    kind: Literal["apply_typed_row"] = "apply_typed_row"
    when: ClassVar[Phases] = ANSWER
    entry: int = Field(ge=0)
    row: Row | None = None
    sample: bool = False  # re-roll among the printed rows (sample play) and apply the row it lands on

    def apply(self, ctx: GameContext) -> list[Event]:
        living_character(ctx.campaign)
        waiting = waiting_row(ctx, self.entry)
        history = ctx.campaign.dice_history
        held = history[self.entry].table if self.entry < len(history) else None
        if held is None:
            refuse(f"Roll {self.entry + 1} of the dice history is not a table roll.")
        events: list[Event] = []
        if held.row is None and self.sample:
            if self.row is not None:
                refuse("Either type the row or re-roll among the printed rows, not both.")
            events += SampleRow(entry=self.entry).apply(ctx)  # the re-roll joins the dice history, marked sample
            sampled = history[-1].table
            if sampled is None or sampled.row is None:
                refuse(f"{held.table_title} prints no row to re-roll among: type the row from your rulebook.")
            held = sampled
        elif held.row is None:
            if self.row is None:
                lo, hi = held.missing or (held.value, held.value)
                refuse(f"{held.table_title} rows {lo}-{hi} are not in your tables: type the row first.")
            try:
                held = ctx.tables.resolve_missing(held, self.row)
            except ValueError as exc:
                refuse(str(exc))
            history[self.entry] = history[self.entry].model_copy(update={"table": held})
            provided = RowProvided(table_id=held.table_id, index=self.entry)
            events.append(Event.of(provided, f"Row added to your tables: {held.describe()}"))
        state = adventure_of(ctx.campaign)
        state.rows_waiting = without_entry(state.rows_waiting, self.entry)
        call = RowCall(ctx, held, waiting.source, waiting.depth + 1, _then, _choose)
        return [*events, told(ev.TypedRowApplied(table_roll=held, source=waiting.source)), *apply_row(call)]


@register_command
class SkipTypedRow(Command):
    """Go without the row an effect's roll waits for: the roll stays reported, nothing of it is applied."""

    kind: Literal["skip_typed_row"] = "skip_typed_row"
    when: ClassVar[Phases] = ANSWER
    entry: int = Field(ge=0)

    def apply(self, ctx: GameContext) -> list[Event]:
        waiting_row(ctx, self.entry)
        state = adventure_of(ctx.campaign)
        state.rows_waiting = without_entry(state.rows_waiting, self.entry)
        held = ctx.campaign.dice_history[self.entry].table
        said = f"{held.describe() if held else f'Roll {self.entry + 1}'}: gone without (nothing of it is applied)."
        return [Event.of(Narrative(), said)]


@register_command
class KeepLoot(Command):
    """The backpack is full: drop item ``drop`` (0-based) and keep the waiting find in its place."""

    kind: Literal["keep_loot"] = "keep_loot"
    when: ClassVar[Phases] = OUTSIDE_FIGHT
    drop: int = Field(ge=0)

    def apply(self, ctx: GameContext) -> list[Event]:
        ch = living_character(ctx.campaign)
        state = adventure_of(ctx.campaign)
        item = state.loot_waiting
        if item is None:
            refuse("No find is waiting for room in the backpack.")
        if self.drop >= len(ch.backpack):
            refuse(f"There is no item {self.drop + 1} in the backpack ({len(ch.backpack)} held).")
        dropped = ch.backpack.pop(self.drop)
        ch.backpack.append(item)
        state.loot_waiting = None
        return [told(ev.LootSettled(item=item, kept=True, dropped=dropped.name))]


@register_command
class LeaveLoot(Command):
    """The backpack is full: leave the waiting find behind."""

    kind: Literal["leave_loot"] = "leave_loot"
    when: ClassVar[Phases] = OUTSIDE_FIGHT

    def apply(self, ctx: GameContext) -> list[Event]:
        state = adventure_of(ctx.campaign)
        item = state.loot_waiting
        if item is None:
            refuse("No find is waiting for room in the backpack.")
        state.loot_waiting = None
        return [told(ev.LootSettled(item=item, kept=False))]


ROW_COMMANDS: tuple[type[Command], ...] = (ApplyTypedRow, SkipTypedRow, KeepLoot, LeaveLoot)
