"""Door tests: which door a Table D test is for, and opening it when the test passes.

A closed door's Table D row says how to open it (``To open test TRAPPED DOOR – Test: Dex
[S: Open] [F:-1HP] (Traps)``). The skill test carries the door it is for (a
:class:`~d100gui.engine.dungeon.map.DoorAt`), and an ``Open`` outcome of that test opens the
door on the map, as "Mark it open" does. A test that names no door is for the closed door of
the hero's area whose Table D row it is, when there is exactly one such door.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from d100gui.engine.dice.tables import Row, Table, TableLibrary
from d100gui.engine.dungeon import map as dg
from d100gui.engine.dungeon.events import MapChanged
from d100gui.engine.protocol import CommandRefused, Event

if TYPE_CHECKING:  # pragma: no cover
    from d100gui.engine.campaign import Campaign


def door_row(door: dg.Door, table: Table) -> Row | None:
    """The Table D row of a door: the row its roll landed on, or the first row of its type (a door typed by hand)."""
    row = table.find(door.roll) if door.roll is not None else None
    if row is not None and dg.door_type_from_row(row, table) == door.type:
        return row
    return next((r for r in table.rows if dg.door_type_from_row(r, table) == door.type), None)


_door_row = door_row  # the old private name


def _closed(door: dg.Door | None) -> bool:
    return door is not None and not door.pending and not door.is_open


def check_door(campaign: Campaign, where: dg.DoorAt) -> dg.DoorAt:
    """The doorway a test names, as the map keeps it; refused when there is no closed door there."""
    dungeon = campaign.dungeons.current_dungeon
    try:
        pos = where.where
    except (ValueError, TypeError):
        raise CommandRefused(f"{where.pos!r} is not an area position (col,row).") from None
    found = dg.doorway(dungeon, pos, where.side) if dungeon is not None else None
    name = f"the {dg.DIRECTION_NAMES[where.side]} side of area {where.pos}"
    if dungeon is None or found is None:
        raise CommandRefused(f"There is no door on {name}.")
    return dg.DoorAt(pos=dg.pos_key(found[0]), side=found[1])


def door_for_test(campaign: Campaign, library: TableLibrary, text: str) -> dg.DoorAt | None:
    """The closed door of the hero's area whose Table D row holds this test, if exactly one does."""
    dungeon = campaign.dungeons.current_dungeon
    line = text.strip()
    if dungeon is None or dungeon.hero is None or not line or dg.DOOR_TABLE not in library:
        return None
    table = library.get(dg.DOOR_TABLE)
    matches = []
    for where in dg.doorways_of(dungeon, dungeon.hero):
        door = dg.door_at(dungeon, where)
        row = door_row(door, table) if door is not None and _closed(door) else None
        effect = " ".join(row.fields.values()) if row is not None else ""
        if effect and (line in effect or effect in line):
            matches.append(where)
    return matches[0] if len(matches) == 1 else None


def open_tested_door(campaign: Campaign, where: dg.DoorAt) -> list[Event]:
    """A door test passed: the door stands open on the map (nothing happens if it is gone or open already)."""
    dungeon = campaign.dungeons.current_dungeon
    door = dg.door_at(dungeon, where) if dungeon is not None else None
    if dungeon is None or door is None or not _closed(door):
        return []
    opened = dg.open_door(dungeon, where.where, where.side)
    campaign.dungeons = dg.replace_current(campaign.dungeons, opened)
    side = dg.DIRECTION_NAMES[where.side]
    return [Event.of(MapChanged(), f"The door {door.label} on the {side} side of area {where.pos} stands open.")]
