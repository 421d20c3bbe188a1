"""What every toolbox command does with the game: read a table, keep a tool's state."""

from __future__ import annotations

from d100gui.engine.dice.tables import Table, TableError
from d100gui.engine.game import GameContext
from d100gui.engine.protocol import CommandRefused


def table_of(ctx: GameContext, table_id: str) -> Table:
    """The table a tool reads; a missing one refuses the command with the library's reason."""
    try:
        return ctx.tables.library.get(table_id)
    except TableError as exc:
        raise CommandRefused(str(exc)) from None


def keep_state(ctx: GameContext, **state: object) -> None:
    """Write a tool's state after the action into the campaign (a new model: the journal sees the change)."""
    ctx.campaign.toolbox = ctx.campaign.toolbox.model_copy(update=state)
