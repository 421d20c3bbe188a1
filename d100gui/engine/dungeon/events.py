"""The events of the map: the dungeon changed, a door roll needs its row, an escaped monster is met.

The map also adds its Table M and Table D rolls to the dice history; those are ``roll_made``
events (:class:`d100gui.engine.dice.events.RollMade`), and a typed Table D row is a
``row_provided`` event (:class:`d100gui.engine.dice.events.RowProvided`).
"""

from __future__ import annotations

from d100gui.engine.dungeon.map import Direction
from d100gui.engine.protocol import Payload, declare

Side = Direction  # a map side: N, E, S or W


@declare("map_changed", topic="map")
class MapChanged(Payload):
    """The campaign's dungeons changed: the map view re-reads them (``pos``: the hero's new area, after a move)."""

    pos: str | None = None


@declare("door_row_missing", topic="decision")
class DoorRowMissing(Payload):
    """A door's Table D roll landed on a row the player's tables lack: ask them to type it."""

    pos: str
    side: Side
    roll: int


@declare("escaped_monster_here", topic="decision")
class EscapedMonsterHere(Payload):
    """The hero walked into the area of a monster they escaped from: it must be encountered again."""

    pos: str
    monster: str = ""


__all__ = ["DoorRowMissing", "EscapedMonsterHere", "MapChanged", "Side"]
