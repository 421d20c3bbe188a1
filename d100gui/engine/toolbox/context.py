"""What every toolbox command does with the game: read a table, keep a tool's state, ask for a missing row."""

from __future__ import annotations

from collections.abc import Iterator

from pydantic import BaseModel

from d100gui.engine.dice.dice import Dice, RollRecord
from d100gui.engine.dice.events import RowMissing
from d100gui.engine.dice.history import HistoryEntry
from d100gui.engine.dice.roller import TableRoll, TableRoller
from d100gui.engine.dice.tables import Table, TableError
from d100gui.engine.game import GameContext
from d100gui.engine.protocol import CommandRefused, Event


class RunContext(GameContext):
    """The context of a tool's run kept for its missing rows (:mod:`.runs`): its own dice and tables, the rolls
    still waiting in the dice history from the run it continues (``gaps``: a gap met again is not asked twice),
    and the history indexes this run's missing rows wait in (``waiting``)."""

    def __init__(self, ctx: GameContext, dice: Dice, tables: TableRoller, gaps: dict[int, RollRecord]) -> None:
        super().__init__(ctx.campaign, dice, tables, ctx.tilesets, ctx.rules)
        self.gaps = dict(gaps)
        self.waiting: list[int] = []


def table_of(ctx: GameContext, table_id: str) -> Table:
    """The table a tool reads; a missing one refuses the command with the library's reason."""
    try:
        return ctx.tables.library.get(table_id)
    except TableError as exc:
        raise CommandRefused(str(exc)) from None


def keep_state(ctx: GameContext, **state: object) -> None:
    """Write a tool's state after the action into the campaign (a new model: the journal sees the change)."""
    ctx.campaign.toolbox = ctx.campaign.toolbox.model_copy(update=state)


def _table_rolls(value: object) -> Iterator[TableRoll]:
    if isinstance(value, TableRoll):
        yield value
    elif isinstance(value, BaseModel):
        for name in type(value).model_fields:
            yield from _table_rolls(getattr(value, name))
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _table_rolls(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _table_rolls(item)


def missing_rows(ctx: GameContext, result: BaseModel) -> list[Event]:
    """A tool's rolls that landed on a row the player's tables lack, put in the dice history as the dice
    panel's are: the ``row_missing`` event asks the player for the row (policy "ask me"), which is then
    saved to their tables. (Policy "re-roll among known rows" never leaves a gap: the roller re-rolls.)
    In a continued run (:class:`RunContext`) a gap the run it continues already asked for keeps its history
    entry and is not asked again; every gap's entry is noted in ``ctx.waiting``."""
    events = []
    for roll in _table_rolls(result):
        if roll.row is None and roll.missing is not None:
            if isinstance(ctx, RunContext):
                known = next((i for i, asked in ctx.gaps.items() if asked == roll.roll), None)
                if known is not None:
                    del ctx.gaps[known]
                    ctx.waiting.append(known)
                    continue
            history = ctx.campaign.dice_history
            history.append(HistoryEntry(roll=roll.roll, table=roll))
            index = len(history) - 1
            if isinstance(ctx, RunContext):
                ctx.waiting.append(index)
            lo, hi = roll.missing
            message = f"{index + 1}. {roll.describe()}: type row {lo}-{hi} from your rulebook"
            events.append(Event.of(RowMissing(index=index), message))
    return events


def sampled(result: BaseModel) -> str:
    """A tool's note for its rolls the "re-roll among known rows" policy took to another row (sample play), as
    the dice panel marks them; "" when there was none."""
    tables = list(dict.fromkeys(roll.table_title for roll in _table_rolls(result) if roll.sample))
    return f" (sample play: re-rolled among known rows on {', '.join(tables)})" if tables else ""
