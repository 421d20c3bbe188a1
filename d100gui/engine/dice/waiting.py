"""A roll waiting for a row the player's tables lack: one model, one list, for every feature that leaves one.

A table roll that falls in a gap of the player's tables comes back with ``row`` None
(:class:`~d100gui.engine.dice.roller.TableRoll`). What asked for it then waits for the row, kept
in one list (``Campaign.adventure.rows_waiting``) as a :class:`RowWaiting` that says what the row
does once it is typed from the rulebook (or re-rolled among the printed rows, sample play):

* ``"effect"`` — an effect's "roll on Table X" (a search's Table F, a Table G feature, a loot
  table): the roll is in the dice history (``entry``), the row applies through the effects'
  row handlers (``apply_typed_row``), and the player may go without it (``skip_typed_row``);
  a quest's end drops it;
* ``"curse"`` — a Table C roll made outside a fight (a failed CAST SPELL, a curse the sheet asks
  for): the roll is not in the dice history, so it is kept here (``table_roll``); the curse then
  applies in full (``provide_curse_row``), it cannot be skipped, and no other spell or curse is
  rolled while it waits. It outlives the quest it was rolled in.

The model and the list's questions live on the dice floor, below every feature that leaves a
roll waiting (magic, the adventure's effects, the town), so each imports them downward.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from pydantic import Field

from d100gui.engine.dice.roller import TableRoll
from d100gui.engine.model import Model

#: what a waiting roll's row does once it is there (see the module)
WaitingFor = Literal["effect", "curse"]


class RowWaiting(Model):
    """A table roll that fell on a row the player's tables lack: applied once the row is there.

    ``entry`` is its dice-history index (an effect's roll); ``table_roll`` the roll itself when the
    dice history does not hold it (a curse's). ``source`` and ``depth`` are what applying an
    effect's row needs (the log's prefix, how deep in nested rolls it was)."""

    entry: int | None = Field(default=None, ge=0)
    table_id: str
    source: str = ""
    depth: int = Field(default=0, ge=0)
    then: WaitingFor = "effect"
    table_roll: TableRoll | None = None

    @classmethod
    def curse(cls, table_roll: TableRoll) -> RowWaiting:
        """A Table C roll made outside a fight, waiting for its row (the curse then applies in full)."""
        return cls(table_id=table_roll.table_id, source=table_roll.roll.purpose, then="curse", table_roll=table_roll)


def waiting_on(rows: Iterable[RowWaiting], entry: int) -> RowWaiting | None:
    """The roll waiting on dice-history line ``entry``, or None."""
    return next((w for w in rows if w.entry is not None and w.entry == entry), None)


def curse_waiting(rows: Iterable[RowWaiting]) -> TableRoll | None:
    """The Table C roll a curse outside a fight waits on, or None (there is at most one)."""
    return next((w.table_roll for w in rows if w.then == "curse" and w.table_roll is not None), None)


def without_entry(rows: Iterable[RowWaiting], entry: int) -> list[RowWaiting]:
    """``rows`` less the roll waiting on dice-history line ``entry`` (it is answered)."""
    return [w for w in rows if w.entry is None or w.entry != entry]


def without_curse(rows: Iterable[RowWaiting]) -> list[RowWaiting]:
    """``rows`` less the curse waiting (it is answered)."""
    return [w for w in rows if w.then != "curse"]


def past_quest(rows: Iterable[RowWaiting]) -> list[RowWaiting]:
    """What still waits once a quest ends (or its hero with it): a curse does; an effect's roll ends with its quest."""
    return [w for w in rows if w.then == "curse"]
