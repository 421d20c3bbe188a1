"""Stocking the rooms of a dungeon level at random, room by room.

For each room not placed by hand a d6: 1-2 puts a monster there (drawn from the monster
matrix in the level's column, as a wandering monster is). A second d6 decides treasure:
1-3 where there is a monster, only a 1 in an empty room; the treasure is the level's
kind-of-treasure row, rolled through. How many monsters is the referee's call by level and
kind, so the tool names the kind and leaves the number to them.
"""

from __future__ import annotations

from pydantic import Field

from d100gui.engine.dice.dice import RollRecord
from d100gui.engine.dice.roller import TableRoller
from d100gui.engine.model import Model
from d100gui.engine.toolbox.classic.levels import check_level
from d100gui.engine.toolbox.classic.monsters import WanderingMonster, wandering_monster
from d100gui.engine.toolbox.classic.treasure import Hoard, hoard
from d100gui.engine.toolbox.inputs import in_range

__all__ = ["MAX_ROOMS", "StockedRoom", "Stocking", "stock_rooms"]

STOCK_DIE = "1d6"
RULES_TABLE = "classic.stocking_rules"
#: (row key, the text's own top face): 1-2 a monster lives here; treasure on 1-3 in an occupied room, only a 1 in an empty one
_FACES = {
    "monster": ("A monster in the room", 2),
    "with": ("Treasure with monsters", 3),
    "empty": ("Treasure in an empty room", 1),
}
MAX_ROOMS = 500


class StockedRoom(Model):
    """One room: its dice, the monster living there (if any), the treasure (if any)."""

    number: int
    monster_die: RollRecord
    monster: WanderingMonster | None = None
    treasure_die: RollRecord
    treasure: Hoard | None = None

    def describe(self) -> str:
        if self.monster is not None:
            extra = "".join(f", {d.describe()}" for d in self.monster.monster.dice)
            who = f"{self.monster.name}{extra} ({self.monster.matrix.text})"
        else:
            who = "empty"
        found = f"treasure: {self.treasure.short()}" if self.treasure is not None else "no treasure"
        return f"Room {self.number}: {who}; {found}"


class Stocking(Model):
    """A level's rooms, stocked."""

    level: int
    rooms: list[StockedRoom] = Field(default_factory=list)

    @property
    def total_gp(self) -> int:
        return sum(r.treasure.total_gp for r in self.rooms if r.treasure is not None)

    def describe(self) -> str:
        occupied = sum(1 for r in self.rooms if r.monster is not None)
        treasures = sum(1 for r in self.rooms if r.treasure is not None)
        head = (
            f"Level {self.level}, {len(self.rooms)} room(s): {occupied} with monsters, {treasures} with treasure "
            f"worth {self.total_gp:,} GP besides any magic (how many monsters: by level and kind, the referee's call)"
        )
        return "\n".join([head, *(r.describe() for r in self.rooms)])


def stocking_faces(roller: TableRoller) -> dict[str, int]:
    """The top face of each stocking die, as the stocking rules table prints it (the text's when the player lacks it)."""
    table = roller.library.get(RULES_TABLE) if RULES_TABLE in roller.library else None
    faces = {}
    for name, (key, text_face) in _FACES.items():
        row = table.find_key(key) if table is not None else None
        value = row.fields.get("value", "") if row is not None else ""
        faces[name] = int(value.rpartition("-")[2]) if value else text_face
    return faces


def _room(roller: TableRoller, level: int, number: int, faces: dict[str, int]) -> StockedRoom:
    monster_die = roller.dice.roll(STOCK_DIE, f"room {number}: a monster?")
    monster = wandering_monster(roller, level, 1) if monster_die.final <= faces["monster"] else None
    treasure_die = roller.dice.roll(STOCK_DIE, f"room {number}: treasure?")
    needed = faces["with"] if monster is not None else faces["empty"]
    treasure = hoard(roller, level) if treasure_die.final <= needed else None
    return StockedRoom(number=number, monster_die=monster_die, monster=monster, treasure_die=treasure_die, treasure=treasure)


def stock_inputs(level: int, rooms: int) -> None:
    """Refuse a level under 1 or a number of rooms outside 1 to :data:`MAX_ROOMS`."""
    check_level(level)
    in_range("Number of rooms", rooms, 1, MAX_ROOMS)


def stock_rooms(roller: TableRoller, level: int, rooms: int) -> Stocking:
    """Stock ``rooms`` rooms of dungeon ``level``: monster, then treasure, room by room."""
    stock_inputs(level, rooms)
    faces = stocking_faces(roller)
    return Stocking(level=level, rooms=[_room(roller, level, n + 1, faces) for n in range(rooms)])
