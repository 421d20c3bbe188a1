"""The dungeon map: areas placed from Table M tiles, exits, doors, dead ends and secret passages.

The map sheet is a grid of areas (15 wide x 11 high by default), addressed ``(col, row)``
with row 0 at the top. The hero enters at the bottom middle area from the south edge.
Map sides are ``N``, ``E``, ``S``, ``W``.

Placement rule (PRODUCT.md §5, the rulebook's Turns step 3): a tile is drawn
with its entry at the bottom. Moving through an exit means turning the map so that exit is
furthest away, so in map coordinates the new tile is turned clockwise by the direction of
travel: N 0°, E 90°, S 180°, W 270°. Its entry then faces back the way the hero came.
Tiles are never turned any other way.

Exits meet in the middle of a side. An exit that runs off the sheet, or into a mapped area
with no exit on the facing side, is a dead end; one that faces unmapped rock inside the
sheet stays open, since it leads to an area not yet explored.

Every command here is pure: it takes a :class:`Dungeon` and returns a new one (areas that
did not change are shared, never modified), so undo is keeping the old value, and the
result depends only on the dice. Refusals raise :class:`MoveRefused` or
:class:`EditRefused` with a sentence the player can read.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Iterable
from typing import Literal

from pydantic import Field, field_validator, model_validator

from d100gui.engine.dice.dice import RollRecord
from d100gui.engine.dice.roller import TableRoll, TableRoller
from d100gui.engine.dice.tables import Row, Table, TableLibrary
from d100gui.engine.dungeon.tiles import TILE_SIDES, Colour, Tile, TileRoll, TileRoller, check_tile
from d100gui.engine.model import Model

Direction = Literal["N", "E", "S", "W"]
Rotation = Literal[0, 90, 180, 270]
ExitKind = Literal["open", "door", "dead_end", "secret"]
DrawnExit = Literal["open", "door", "secret"]
Pos = tuple[int, int]
Square = tuple[int, int]

DIRECTIONS: tuple[Direction, ...] = ("N", "E", "S", "W")
DIRECTION_NAMES: dict[str, str] = {"N": "north", "E": "east", "S": "south", "W": "west"}
DELTAS: dict[str, Pos] = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
ROTATIONS: tuple[Rotation, ...] = (0, 90, 180, 270)

DEFAULT_WIDTH = 15
DEFAULT_HEIGHT = 11
#: The hero comes in from the south edge, travelling north.
ENTRANCE_SIDE: Direction = "S"

DOOR_TABLE = "d100.D"
OPEN_DOOR = "OPEN"
PENDING_DOOR = "?"

# The tile frame, at rotation 0: entry (back) at the bottom.
_TILE_SIDE_AT_0: dict[str, Direction] = {"ahead": "N", "right": "E", "back": "S", "left": "W"}


class DungeonError(ValueError):
    """A dungeon command that cannot be carried out; the message says why."""


class MoveRefused(DungeonError):
    """The hero cannot go that way. ``door`` names the door in the way, if that is the reason."""

    def __init__(self, message: str, door: tuple[Pos, Direction] | None = None) -> None:
        super().__init__(message)
        self.door = door


class EditRefused(DungeonError):
    """A map edit that would break the map (occupied square, off the sheet, no such area...)."""


# --------------------------------------------------------------------------- geometry


def opposite(side: Direction) -> Direction:
    return DIRECTIONS[(DIRECTIONS.index(side) + 2) % 4]


def turn_clockwise(side: Direction, quarter_turns: int) -> Direction:
    return DIRECTIONS[(DIRECTIONS.index(side) + quarter_turns) % 4]


def travel_rotation(direction: Direction) -> Rotation:
    """How a tile entered while travelling ``direction`` is turned on the map."""
    return ROTATIONS[DIRECTIONS.index(direction)]


def _check_rotation(rotation: int) -> int:
    if rotation not in ROTATIONS:
        raise EditRefused(f"A tile is turned 0, 90, 180 or 270 degrees, not {rotation}.")
    return rotation // 90


def _as_rotation(rotation: int) -> Rotation:
    """``rotation`` as one of the four turns; :class:`EditRefused` for any other angle."""
    for turn in ROTATIONS:
        if turn == rotation:
            return turn
    raise EditRefused(f"A tile is turned 0, 90, 180 or 270 degrees, not {rotation}.")


def tile_side_to_map(side: str, rotation: int) -> Direction:
    """The map side a tile-frame side (``ahead``, ``left``, ``right``, ``back``) lands on."""
    return turn_clockwise(_TILE_SIDE_AT_0[side], _check_rotation(rotation))


def map_side_to_tile(side: Direction, rotation: int) -> str:
    """The tile-frame side shown on map side ``side`` for a tile turned ``rotation``."""
    unturned = turn_clockwise(side, -_check_rotation(rotation))
    return next(k for k, v in _TILE_SIDE_AT_0.items() if v == unturned)


def tile_square_to_map(square: Square, rotation: int) -> Square:
    """Where tile square ``(x, y)`` lands in the area on the map (turned clockwise)."""
    x, y = square
    for _ in range(_check_rotation(rotation)):
        x, y = 2 - y, x
    return x, y


def map_square_to_tile(square: Square, rotation: int) -> Square:
    """The tile square shown at map square ``(x, y)`` of an area turned ``rotation``."""
    x, y = square
    for _ in range(_check_rotation(rotation)):
        x, y = y, 2 - x
    return x, y


def rotate_floor(floor: list[list[bool]], rotation: int) -> list[list[bool]]:
    """A tile's floor (rows top to bottom) as it lies on the map."""
    out = [[False] * 3 for _ in range(3)]
    for y in range(3):
        for x in range(3):
            mx, my = tile_square_to_map((x, y), rotation)
            out[my][mx] = floor[y][x]
    return out


def neighbour(pos: Pos, side: Direction) -> Pos:
    dx, dy = DELTAS[side]
    return pos[0] + dx, pos[1] + dy


def pos_key(pos: Pos) -> str:
    """The key of an area in :attr:`Dungeon.areas`: ``"col,row"``."""
    return f"{pos[0]},{pos[1]}"


def parse_key(key: str) -> Pos:
    col, row = key.split(",")
    return int(col), int(row)


def _where(pos: Pos) -> str:
    return f"area {pos[0]},{pos[1]}"


# --------------------------------------------------------------------------- models


class Door(Model):
    """A door on an exit: its Table D type (abbreviation), the roll, and whether it stands open.

    ``type`` is ``"?"`` while the roll landed on a row the player's tables do not have.
    """

    type: str = PENDING_DOOR
    roll: int | None = None
    is_open: bool = False

    @property
    def pending(self) -> bool:
        return self.type == PENDING_DOOR

    @property
    def label(self) -> str:
        """What is written next to the door: ``OPEN``, ``TLD (54)``, ``? (54)``."""
        if self.type == OPEN_DOOR:
            return OPEN_DOOR
        return f"{self.type} ({self.roll})" if self.roll is not None else self.type


class Exit(Model):
    """One exit of an area on a map side.

    ``drawn`` is what the tile shows there; ``kind`` is what it is now: a drawn exit that
    runs into the sheet edge or a wall becomes ``dead_end`` (and comes back if that wall is
    deleted). A door that is a dead end from the start is not rolled.
    """

    kind: ExitKind
    drawn: DrawnExit
    door: Door | None = None


class AreaNote(Model):
    """A reference-numbered note, optionally pinned to a square ``(x, y)`` of its area."""

    ref: int
    text: str
    square: Square | None = None

    @field_validator("square")
    @classmethod
    def _on_area(cls, value: Square | None) -> Square | None:
        if value is not None and not all(0 <= v <= 2 for v in value):
            raise ValueError("a square is (x, y) with x and y 0-2")
        return value


class Area(Model):
    """One mapped 3x3 area. ``floor`` and ``exits`` are in map orientation (already turned)."""

    col: int
    row: int
    tile: int
    tile_name: str = ""
    rotation: Rotation = 0
    colour: Colour
    floor: list[list[bool]]
    exits: dict[Direction, Exit] = Field(default_factory=dict)
    searched: bool = False
    interacted: bool = False
    escaped: str = ""
    notes: list[AreaNote] = Field(default_factory=list)
    features: list[str] = Field(default_factory=list)

    @property
    def pos(self) -> Pos:
        return self.col, self.row

    @property
    def key(self) -> str:
        return pos_key(self.pos)

    @property
    def entry(self) -> Direction:
        """The map side of the tile's entry (where the hero first came in)."""
        return tile_side_to_map("back", self.rotation)


class DeadEnd(Model):
    """A dead-end exit, for drawing hatched rock: ``edge`` (sheet edge) or ``area`` (a wall)."""

    col: int
    row: int
    side: Direction
    reason: Literal["edge", "area"]

    @property
    def pos(self) -> Pos:
        return self.col, self.row


class Dungeon(Model):
    """One quest's map sheet, everything on it, and where the hero stands."""

    id: str
    name: str = ""
    quest: str = ""
    tileset: str = "standard"
    width: int = Field(default=DEFAULT_WIDTH, ge=1, le=1000)
    height: int = Field(default=DEFAULT_HEIGHT, ge=1, le=1000)
    unbounded: bool = False
    areas: dict[str, Area] = Field(default_factory=dict)
    hero: Pos | None = None
    facing: Direction = "N"
    next_note: int = Field(default=1, ge=1)
    dead_ends: list[DeadEnd] = Field(default_factory=list)
    closed: bool = False  # the quest is over (completed or failed): the sheet is kept, nobody walks in again

    @model_validator(mode="after")
    def _keys_match(self) -> Dungeon:
        for key, area in self.areas.items():
            if key != area.key:
                raise ValueError(f"area stored under {key!r} says it is at {area.key!r}")
        # The record is derived from the exits and kept up to date by every edit (_Draft.finish);
        # a loaded record is checked against the exits (cheap, no new models) and rebuilt only if
        # it disagrees, so a hand-edited file can never show hatching where there is none.
        if not _dead_ends_agree(self):
            self.dead_ends = _collect_dead_ends(self)
        return self

    @property
    def entrance(self) -> Pos:
        """The bottom middle area, entered from the south edge."""
        return self.width // 2, self.height - 1

    @property
    def outside(self) -> Pos:
        """The square beyond the entrance: the world outside, never mapped."""
        return neighbour(self.entrance, ENTRANCE_SIDE)

    def in_sheet(self, pos: Pos) -> bool:
        return self.unbounded or (0 <= pos[0] < self.width and 0 <= pos[1] < self.height)

    def placeable(self, pos: Pos) -> bool:
        """Could an area ever be mapped here (on the sheet, and not outside the entrance)?"""
        return self.in_sheet(pos) and pos != self.outside

    def area_at(self, pos: Pos) -> Area | None:
        return self.areas.get(pos_key(pos))

    def hero_area(self) -> Area | None:
        return self.area_at(self.hero) if self.hero is not None else None

    def find_note(self, ref: int) -> tuple[Area, AreaNote] | None:
        for area in self.areas.values():
            for note in area.notes:
                if note.ref == ref:
                    return area, note
        return None


class DungeonBook(Model):
    """All the dungeons of a campaign (one per quest attempt) and which one is in play."""

    dungeons: list[Dungeon] = Field(default_factory=list)
    current: int = 0

    @model_validator(mode="after")
    def _current_in_range(self) -> DungeonBook:
        if self.dungeons and not 0 <= self.current < len(self.dungeons):
            raise ValueError(f"current dungeon {self.current} is not one of the {len(self.dungeons)} dungeons")
        return self

    @property
    def current_dungeon(self) -> Dungeon | None:
        return self.dungeons[self.current] if self.dungeons else None


def add_dungeon(book: DungeonBook, dungeon: Dungeon) -> DungeonBook:
    """A new dungeon at the end of the book, made the current one."""
    if any(d.id == dungeon.id for d in book.dungeons):
        raise EditRefused(f"There is already a dungeon with id {dungeon.id!r}.")
    # a copy, not DungeonBook(...): building the book anew would validate every dungeon in it again
    return book.model_copy(update={"dungeons": [*book.dungeons, dungeon], "current": len(book.dungeons)})


def replace_current(book: DungeonBook, dungeon: Dungeon) -> DungeonBook:
    """The book with its current dungeon replaced by a newer state of it."""
    if not book.dungeons:
        return add_dungeon(book, dungeon)
    dungeons = list(book.dungeons)
    dungeons[book.current] = dungeon
    return book.model_copy(update={"dungeons": dungeons})  # same length, same current: nothing to validate


def select_dungeon(book: DungeonBook, index: int) -> DungeonBook:
    if not 0 <= index < len(book.dungeons):
        raise EditRefused(f"There is no dungeon number {index + 1}.")
    return book.model_copy(update={"current": index})


# --------------------------------------------------------------------------- doors


class DoorRoll(Model):
    """A Table D roll for the door on one side of an area, and the door it gave."""

    col: int
    row: int
    side: Direction
    roll: TableRoll
    door: Door

    @property
    def pending(self) -> bool:
        """The roll landed on a row the player's tables lack: the UI asks for it."""
        return self.door.pending


_ABBREVIATION = re.compile(r"\(([^()]+)\)\s*$")


def door_type_from_row(row: Row, table: Table) -> str:
    """The abbreviation in the row's first column: ``TRAP LOCKED (TLD)`` gives ``TLD``."""
    text = row.fields.get(table.columns[0].key, "").strip() if table.columns else ""
    match = _ABBREVIATION.search(text)
    value = (match.group(1) if match else text).strip().upper()
    return value or PENDING_DOOR


def door_from_roll(result: TableRoll, library: TableLibrary) -> Door:
    """The door a Table D roll gives; a roll into a missing row gives a pending ``?`` door."""
    if result.row is None:
        return Door(type=PENDING_DOOR, roll=result.value)
    kind = door_type_from_row(result.row, library.get(result.table_id))
    return Door(type=kind, roll=result.value, is_open=kind == OPEN_DOOR)


class DoorAt(Model):
    """A doorway named by an area (``"col,row"``) and the side of it the door is on."""

    pos: str
    side: Direction

    @property
    def where(self) -> Pos:
        return parse_key(self.pos)


def doorway(dungeon: Dungeon, pos: Pos, side: Direction) -> tuple[Pos, Direction] | None:
    """Where the door of the doorway on ``side`` of ``pos`` is kept, or None if it has no door.

    A doorway is one door seen from both areas: one Table D roll, one label, one open state.
    The area mapped first keeps it; the exit of the other area is an opening into it.
    """
    area = dungeon.area_at(pos)
    ex = area.exits.get(side) if area else None
    if ex is None or ex.drawn == "secret":
        return None
    if _keeps_door(ex):
        return pos, side
    target = neighbour(pos, side)
    other = dungeon.area_at(target)
    if other is not None and _keeps_door(other.exits.get(opposite(side))):
        return target, opposite(side)
    return None


def door_at(dungeon: Dungeon, where: DoorAt) -> Door | None:
    """The door of a doorway (whichever of its two areas keeps it), or None."""
    found = doorway(dungeon, where.where, where.side)
    if found is None:
        return None
    area = dungeon.area_at(found[0])
    assert area is not None
    return area.exits[found[1]].door


def doorways_of(dungeon: Dungeon, pos: Pos) -> list[DoorAt]:
    """The doorways on the sides of the area at ``pos`` that have a door, named where the door is kept."""
    area = dungeon.area_at(pos)
    if area is None:
        return []
    found = [doorway(dungeon, pos, side) for side in DIRECTIONS if side in area.exits]
    return [DoorAt(pos=pos_key(p), side=s) for p, s in (f for f in found if f is not None)]


# --------------------------------------------------------------------------- results


class Placement(Model):
    """A newly mapped area and everything it took: the Table M roll, door rolls, dead ends."""

    area: Area
    tile_roll: TileRoll | None = None
    door_rolls: list[DoorRoll] = Field(default_factory=list)
    dead_ends: list[DeadEnd] = Field(default_factory=list)

    @property
    def rolls(self) -> list[RollRecord]:
        out: list[RollRecord] = [self.tile_roll.roll] if self.tile_roll else []
        for door in self.door_rolls:
            out.extend([*door.roll.discarded, door.roll.roll])
        return out


class MoveResult(Model):
    """What a move did: the new dungeon, where the hero went and any area it mapped."""

    dungeon: Dungeon
    start: Pos | None
    end: Pos
    direction: Direction
    placement: Placement | None = None

    @property
    def placed(self) -> bool:
        return self.placement is not None

    @property
    def area(self) -> Area:
        area = self.dungeon.area_at(self.end)
        assert area is not None
        return area

    @property
    def rolls(self) -> list[RollRecord]:
        """Every roll made, in order, so the UI can show the dice."""
        return self.placement.rolls if self.placement else []

    @property
    def door_rolls(self) -> list[DoorRoll]:
        return self.placement.door_rolls if self.placement else []

    @property
    def pending_doors(self) -> list[DoorRoll]:
        """Door rolls that landed on rows missing from the player's tables."""
        return [d for d in self.door_rolls if d.pending]

    @property
    def dead_ends(self) -> list[DeadEnd]:
        return self.placement.dead_ends if self.placement else []


# --------------------------------------------------------------------------- editing core


class _Draft:
    """Copy-on-write editing: the dungeon and its area dict are copied, an area only when touched."""

    def __init__(self, dungeon: Dungeon) -> None:
        self.d = dungeon.model_copy()
        self.d.areas = dict(dungeon.areas)
        self._owned: set[str] = set()
        self._removed: set[Pos] = set()
        self.added: list[DeadEnd] = []

    def area(self, pos: Pos) -> Area:
        key = pos_key(pos)
        if key not in self.d.areas:
            raise EditRefused(f"There is no mapped {_where(pos)}.")
        if key not in self._owned:
            self.d.areas[key] = _own_copy(self.d.areas[key])
            self._owned.add(key)
        return self.d.areas[key]

    def add(self, area: Area) -> None:
        self.d.areas[area.key] = area
        self._owned.add(area.key)

    def remove(self, pos: Pos) -> None:
        del self.d.areas[pos_key(pos)]
        self._owned.discard(pos_key(pos))
        self._removed.add(pos)

    def finish(self, refresh: Iterable[Pos] = ()) -> Dungeon:
        """The edited dungeon, its dead-end record brought up to date where the edit touched it.

        Only areas this edit touched can have gained or lost a dead end, so only their entries
        are taken out of the (sorted) record and put back: the cost does not grow with the map.
        ``added`` is left holding the dead ends that are new.
        """
        for pos in refresh:
            self._refresh(pos)
        touched = {parse_key(k) for k in self._owned} | self._removed
        ends = list(self.d.dead_ends)  # the old dungeon's record is shared, never changed
        was: set[tuple[int, int, str]] = set()
        for col, row in touched:
            lo = bisect.bisect_left(ends, (row, col, 0), key=_dead_end_order)
            hi = bisect.bisect_left(ends, (row, col, len(DIRECTIONS)), key=_dead_end_order)
            was.update((e.col, e.row, e.side) for e in ends[lo:hi])
            del ends[lo:hi]
        fresh = _collect_dead_ends(self.d, [a for p in touched if (a := self.d.area_at(p)) is not None])
        for end in fresh:
            bisect.insort(ends, end, key=_dead_end_order)
        self.added = [e for e in fresh if (e.col, e.row, e.side) not in was]
        self.d.dead_ends = ends
        return self.d

    def _refresh(self, pos: Pos) -> None:
        area = self.d.area_at(pos)
        if area is None:
            return
        states = {side: _exit_state(self.d, pos, side, ex) for side, ex in area.exits.items()}
        stale = [
            side
            for side, ex in area.exits.items()
            if ex.kind != states[side][0] or (states[side][0] == "door" and ex.door is None)
        ]
        if not stale:
            return
        area = self.area(pos)
        for side in stale:
            ex = area.exits[side]
            ex.kind = states[side][0]
            if ex.kind == "door" and ex.door is None:
                ex.door = Door()


#: the fields of an Area :func:`_own_copy` knows how to copy (a test keeps this in step with the model)
AREA_COPIED_FIELDS = frozenset(
    {"col", "row", "tile", "tile_name", "rotation", "colour", "floor", "exits"}
    | {"searched", "interacted", "escaped", "notes", "features"}
)


def _own_copy(area: Area) -> Area:
    """A copy of ``area`` that shares nothing mutable with it, a few times faster than a deep copy
    (placing an area touches up to five, so this is most of what a placement costs)."""
    exits = {
        side: ex.model_copy(update={"door": ex.door.model_copy()}) if ex.door is not None else ex.model_copy()
        for side, ex in area.exits.items()
    }
    update = {
        "floor": [list(row) for row in area.floor],
        "exits": exits,
        "notes": [note.model_copy() for note in area.notes],
        "features": list(area.features),
    }
    return area.model_copy(update=update)


def _exit_state(d: Dungeon, pos: Pos, side: Direction, ex: Exit) -> tuple[ExitKind, Literal["edge", "area"] | None]:
    """What a drawn exit is, given the sheet and its neighbours."""
    if ex.drawn == "secret":
        return "secret", None
    if pos == d.entrance and side == ENTRANCE_SIDE:
        return ex.drawn, None
    target = neighbour(pos, side)
    if not d.placeable(target):
        return "dead_end", "edge"
    other = d.area_at(target)
    if other is not None and opposite(side) not in other.exits:
        return "dead_end", "area"
    if ex.drawn == "door" and ex.door is None and other is not None and _keeps_door(other.exits[opposite(side)]):
        return "open", None  # one doorway, one door: the neighbour keeps it (see doorway())
    return ex.drawn, None


def _keeps_door(ex: Exit | None) -> bool:
    return ex is not None and ex.drawn == "door" and ex.door is not None


def _dead_end_order(e: DeadEnd) -> tuple[int, int, int]:
    return e.row, e.col, DIRECTIONS.index(e.side)


def _collect_dead_ends(d: Dungeon, areas: Iterable[Area] | None = None) -> list[DeadEnd]:
    """The dead ends of ``areas`` (all areas by default), top row first, N E S W."""
    out = []
    for area in sorted(d.areas.values() if areas is None else areas, key=lambda a: (a.row, a.col)):
        for side in DIRECTIONS:
            ex = area.exits.get(side)
            if ex is None or ex.kind != "dead_end":
                continue
            _, reason = _exit_state(d, area.pos, side, ex)
            out.append(DeadEnd(col=area.col, row=area.row, side=side, reason=reason or "area"))
    return out


def _dead_ends_agree(d: Dungeon) -> bool:
    """Is ``d.dead_ends`` exactly what :func:`_collect_dead_ends` would give (order included)?"""
    count = sum(1 for area in d.areas.values() for ex in area.exits.values() if ex.kind == "dead_end")
    if count != len(d.dead_ends):
        return False
    previous: tuple[int, int, int] | None = None
    for end in d.dead_ends:
        order = _dead_end_order(end)
        if previous is not None and order <= previous:
            return False
        previous = order
        area = d.areas.get(pos_key(end.pos))
        ex = area.exits.get(end.side) if area is not None else None
        if ex is None or ex.kind != "dead_end" or end.reason != (_exit_state(d, end.pos, end.side, ex)[1] or "area"):
            return False
    return True


def _around(pos: Pos) -> list[Pos]:
    return [pos, *(neighbour(pos, s) for s in DIRECTIONS)]


def _place(
    draft: _Draft,
    pos: Pos,
    tile: Tile,
    rotation: Rotation,
    door_roller: TableRoller | None,
    tile_roll: TileRoll | None = None,
) -> Placement:
    """Map ``tile`` at ``pos`` turned ``rotation``, settle dead ends around it, roll its doors."""
    d = draft.d
    exits: dict[Direction, Exit] = {tile_side_to_map("back", rotation): Exit(kind="open", drawn="open")}
    for tile_side, kind in tile.exits.items():
        exits[tile_side_to_map(tile_side, rotation)] = Exit(kind=kind, drawn=kind)
    for side in DIRECTIONS:
        other = d.area_at(neighbour(pos, side))
        facing = other.exits.get(opposite(side)) if other else None
        if side not in exits and facing is not None and facing.drawn == "secret":
            exits[side] = Exit(kind="secret", drawn="secret")  # the passage breaks through
    area = Area(
        col=pos[0],
        row=pos[1],
        tile=tile.number,
        tile_name=tile.name,
        rotation=rotation,
        colour=tile.colour,
        floor=rotate_floor(tile.floor, rotation),
        exits=exits,
    )
    draft.add(area)
    for p in _around(pos):
        draft._refresh(p)
    area = draft.area(pos)

    door_rolls: list[DoorRoll] = []
    for tile_side in TILE_SIDES:
        if tile.exits.get(tile_side) != "door":
            continue
        map_side = tile_side_to_map(tile_side, rotation)
        ex = area.exits[map_side]
        if ex.kind != "door" or door_roller is None:
            continue  # a dead-end door leads nowhere and is not rolled
        result = door_roller.roll(DOOR_TABLE, f"Table D: door on the {DIRECTION_NAMES[map_side]} side of {_where(pos)}")
        door = door_from_roll(result, door_roller.library)
        ex.door = door
        door_rolls.append(DoorRoll(col=pos[0], row=pos[1], side=map_side, roll=result, door=door))

    dungeon = draft.finish()
    return Placement(area=dungeon.areas[area.key], tile_roll=tile_roll, door_rolls=door_rolls, dead_ends=draft.added)


def _door_passable(door: Door | None) -> bool:
    return door is not None and not door.pending and door.is_open


def _unidentified(door: Door | None) -> str:
    if door is None or door.roll is None:
        return f"The door {PENDING_DOOR} has not been identified yet: roll it on Table D first."
    return f"The door {door.label} has not been identified yet: type in Table D row {door.roll} from your rulebook first."


def _check_door(door: Door | None, pos: Pos, side: Direction) -> None:
    if door is None or door.pending:
        raise MoveRefused(_unidentified(door), (pos, side))
    if not door.is_open:
        raise MoveRefused(f"The door {door.label} is closed: open it first.", (pos, side))


def _dead_end_reason(d: Dungeon, pos: Pos, side: Direction) -> str:
    target = neighbour(pos, side)
    if not d.placeable(target):
        return "it runs off the edge of the map sheet"
    return f"it runs into the wall of {_where(target)}, which has no exit on that side"


# --------------------------------------------------------------------------- moving


def enter(dungeon: Dungeon, tile_roller: TileRoller, door_roller: TableRoller) -> MoveResult:
    """Step into the dungeon from the south edge: map the entrance area if it is new."""
    if dungeon.closed:
        raise MoveRefused(
            f"{dungeon.name or 'This dungeon'} is closed: its quest is over. Begin a new quest for a new map sheet."
        )
    if dungeon.hero is not None:
        raise MoveRefused("The hero is already in the dungeon.")
    pos = dungeon.entrance
    if dungeon.area_at(pos) is not None:
        moved = dungeon.model_copy(update={"hero": pos, "facing": "N"})
        return MoveResult(dungeon=moved, start=None, end=pos, direction="N")
    tile_roll = tile_roller.roll()
    draft = _Draft(dungeon)
    placement = _place(draft, pos, tile_roll.tile, 0, door_roller, tile_roll)
    draft.d.hero = pos
    draft.d.facing = "N"
    return MoveResult(dungeon=draft.d, start=None, end=pos, direction="N", placement=placement)


def close(dungeon: Dungeon) -> Dungeon:
    """The quest is over: the hero is out and the sheet is closed (kept to look at, never entered again)."""
    return dungeon.model_copy(update={"hero": None, "closed": True})


def leave(dungeon: Dungeon) -> Dungeon:
    """Walk out through the entrance (the hero must stand in the entrance area)."""
    if dungeon.hero != dungeon.entrance:
        raise MoveRefused("The way out is the south side of the entrance area: go back there first.")
    return dungeon.model_copy(update={"hero": None, "facing": "S"})


def move(dungeon: Dungeon, side: Direction, tile_roller: TileRoller, door_roller: TableRoller) -> MoveResult:
    """Move the hero through the exit on map side ``side`` of their area.

    Into a mapped area the hero just walks. Into an unmapped one Table M is rolled, the tile
    is placed turned by the direction of travel, and each door on it is rolled on Table D.
    """
    if side not in DIRECTIONS:
        raise MoveRefused(f"{side!r} is not a side: use N, E, S or W.")
    here = dungeon.hero
    if here is None:
        raise MoveRefused("The hero is not in the dungeon yet: enter it first.")
    area = dungeon.area_at(here)
    if area is None:
        raise MoveRefused(f"The hero stands in {_where(here)}, which is not mapped.")
    name = DIRECTION_NAMES[side]
    ex = area.exits.get(side)
    if ex is None:
        raise MoveRefused(f"There is no exit on the {name} side of this area.")
    if here == dungeon.entrance and side == ENTRANCE_SIDE:
        raise MoveRefused("The south exit of the entrance area leads out of the dungeon, not onto the map.")
    if ex.kind == "dead_end":
        raise MoveRefused(f"The {name} exit is a dead end: {_dead_end_reason(dungeon, here, side)}.")
    if ex.kind == "door":
        _check_door(ex.door, here, side)
    target = neighbour(here, side)
    other = dungeon.area_at(target)
    if other is not None:
        facing = other.exits.get(opposite(side))
        if facing is not None and facing.kind == "door":
            _check_door(facing.door, target, opposite(side))
        moved = dungeon.model_copy(update={"hero": target, "facing": side})
        return MoveResult(dungeon=moved, start=here, end=target, direction=side)
    if not dungeon.placeable(target):  # only reachable through a hand-edited save
        raise MoveRefused(f"The {name} exit leads off the map sheet.")
    tile_roll = tile_roller.roll()
    draft = _Draft(dungeon)
    placement = _place(draft, target, tile_roll.tile, travel_rotation(side), door_roller, tile_roll)
    draft.d.hero = target
    draft.d.facing = side
    return MoveResult(dungeon=draft.d, start=here, end=target, direction=side, placement=placement)


#: asked of a closed door: can the hero open it with what they hold? (see ``adventure.doors.openable``)
DoorCheck = Callable[[Pos, Direction, Door], bool]


def progress_blocked(dungeon: Dungeon, openable: DoorCheck | None = None) -> bool:
    """True when no exit to an unexplored area can be reached without passing a closed door.

    That is when the rules let the player add a secret passage through solid rock. With
    ``openable``, a closed door the hero can open (a jammed door forced again, a seal with an
    Open Magic scroll on the belt) is a way on, not a wall.
    """

    def shut(pos: Pos, side: Direction, ex: Exit) -> bool:
        if _door_passable(ex.door):
            return False
        return not (openable is not None and ex.door is not None and not ex.door.pending and openable(pos, side, ex.door))

    if dungeon.hero is None or dungeon.area_at(dungeon.hero) is None:
        return False
    seen = {dungeon.hero}
    todo = [dungeon.hero]
    while todo:
        pos = todo.pop()
        area = dungeon.area_at(pos)
        if area is None:
            continue
        for side, ex in area.exits.items():
            if ex.kind == "dead_end" or (ex.kind == "door" and shut(pos, side, ex)):
                continue
            if pos == dungeon.entrance and side == ENTRANCE_SIDE:
                continue
            target = neighbour(pos, side)
            other = dungeon.area_at(target)
            if other is None:
                if dungeon.placeable(target):
                    return False
                continue
            facing = other.exits.get(opposite(side))
            if facing is not None and facing.kind == "door" and shut(target, opposite(side), facing):
                continue
            if target not in seen:
                seen.add(target)
                todo.append(target)
    return True


def secret_passage(
    dungeon: Dungeon, pos: Pos, side: Direction, force: bool = False, openable: DoorCheck | None = None
) -> Dungeon:
    """Add a secret passage through the solid rock on ``side`` of a mapped area.

    Allowed where there is no exit (or only a dead end) and the passage leads to a square
    on the sheet, and only while :func:`progress_blocked` holds unless ``force`` (a map edit).
    Into a mapped neighbour the passage breaks through its wall too.
    """
    area = dungeon.area_at(pos)
    if area is None:
        raise EditRefused(f"There is no mapped {_where(pos)}.")
    name = DIRECTION_NAMES[side]
    ex = area.exits.get(side)
    if ex is not None and ex.kind != "dead_end":
        raise EditRefused(f"The {name} side of {_where(pos)} already has an exit: a secret passage goes through solid rock.")
    target = neighbour(pos, side)
    if (pos == dungeon.entrance and side == ENTRANCE_SIDE) or not dungeon.placeable(target):
        raise EditRefused(f"A secret passage on the {name} side of {_where(pos)} would lead off the map sheet.")
    if not force and not progress_blocked(dungeon, openable):
        if progress_blocked(dungeon):
            raise EditRefused(
                "A secret passage may only be added when no way on can be opened: a closed door here can still be"
                " opened with what you have (force it again, pick it, or cast Open Magic)."
            )
        raise EditRefused("A secret passage may only be added when the dungeon blocks all progress.")
    draft = _Draft(dungeon)
    draft.area(pos).exits[side] = Exit(kind="secret", drawn="secret")
    other = dungeon.area_at(target)
    if other is not None:
        facing = other.exits.get(opposite(side))
        if facing is None or facing.kind == "dead_end":
            draft.area(target).exits[opposite(side)] = Exit(kind="secret", drawn="secret")
    return draft.finish(refresh=[*_around(pos), *_around(target)])


# --------------------------------------------------------------------------- map edits


def place_manual(
    dungeon: Dungeon,
    col: int,
    row: int,
    tile: Tile,
    rotation: int,
    door_roller: TableRoller | None = None,
) -> tuple[Dungeon, Placement]:
    """Map a tile by hand (any of the four turns) on an empty square of the sheet.

    Its doors are rolled when a ``door_roller`` is given, otherwise left as ``?`` for the
    player to fill in with :func:`set_door`.
    """
    pos = (col, row)
    turned = _as_rotation(rotation)
    if dungeon.area_at(pos) is not None:
        raise EditRefused(f"{_where(pos).capitalize()} is already mapped: delete it first.")
    if not dungeon.placeable(pos):
        raise EditRefused(f"{_where(pos).capitalize()} is off the map sheet.")
    problems = check_tile(tile)
    if problems:
        raise EditRefused(f"Tile {tile.number} cannot be placed: {'; '.join(problems)}.")
    draft = _Draft(dungeon)
    placement = _place(draft, pos, tile, turned, door_roller)
    return draft.d, placement


def delete_area(dungeon: Dungeon, pos: Pos) -> Dungeon:
    """Remove a mapped area (a map edit); walls it made into dead ends open up again."""
    if dungeon.area_at(pos) is None:
        raise EditRefused(f"There is no mapped {_where(pos)}.")
    if dungeon.hero == pos:
        raise EditRefused(f"The hero stands in {_where(pos)}: move the hero before deleting it.")
    draft = _Draft(dungeon)
    draft.remove(pos)
    return draft.finish(refresh=_around(pos))


def move_hero(dungeon: Dungeon, pos: Pos | None) -> Dungeon:
    """Put the hero in a mapped area by hand (or take them off the map with ``None``)."""
    if pos is not None and dungeon.area_at(pos) is None:
        raise EditRefused(f"There is no mapped {_where(pos)} for the hero to stand in.")
    return dungeon.model_copy(update={"hero": pos})


def _exit_for_door(draft: _Draft, pos: Pos, side: Direction) -> Exit:
    area = draft.area(pos)
    ex = area.exits.get(side)
    if ex is None or ex.drawn == "secret":
        raise EditRefused(f"There is no exit with a door on the {DIRECTION_NAMES[side]} side of {_where(pos)}.")
    return ex


def open_door(dungeon: Dungeon, pos: Pos, side: Direction) -> Dungeon:
    """Mark the door on ``side`` of the area open (after its Table D procedure succeeded).

    From either side of a doorway it is the same door (:func:`doorway`)."""
    draft = _Draft(dungeon)
    _exit_for_door(draft, pos, side)
    pos, side = doorway(dungeon, pos, side) or (pos, side)
    ex = _exit_for_door(draft, pos, side)
    if ex.door is None or ex.drawn != "door":
        raise EditRefused(f"There is no door on the {DIRECTION_NAMES[side]} side of {_where(pos)}.")
    if ex.door.pending:
        raise EditRefused(_unidentified(ex.door))
    ex.door.is_open = True
    return draft.finish()


def set_door(
    dungeon: Dungeon,
    pos: Pos,
    side: Direction,
    door_type: str | None,
    roll: int | None = None,
    is_open: bool | None = None,
) -> Dungeon:
    """Edit the door on an exit by hand: its type (``None`` removes the door), roll, state.

    ``roll`` None keeps the roll already recorded; ``is_open`` None means open for
    ``OPEN`` doors, closed for a new type, unchanged for the same type. A doorway has one
    door: from either of its areas the edit changes that door (:func:`doorway`).
    """
    draft = _Draft(dungeon)
    _exit_for_door(draft, pos, side)
    here = pos, side
    pos, side = doorway(dungeon, pos, side) or (pos, side)
    ex = _exit_for_door(draft, pos, side)
    if door_type is None:
        for p, s in {here, (pos, side)}:
            gone = _exit_for_door(draft, p, s)
            gone.drawn = "open"
            gone.door = None
            if gone.kind == "door":
                gone.kind = "open"
        return draft.finish(refresh=[*_around(pos), *_around(here[0])])
    kind = door_type.strip().upper()
    if not kind:
        raise EditRefused("A door needs a type, such as OPEN, LD or TLD.")
    old = ex.door
    if is_open is None:
        is_open = True if kind == OPEN_DOOR else (old.is_open if old is not None and old.type == kind else False)
    ex.door = Door(type=kind, roll=roll if roll is not None else (old.roll if old else None), is_open=is_open)
    ex.drawn = "door"
    if ex.kind == "open":
        ex.kind = "door"
    return draft.finish(refresh=[pos])


def _check_square(square: Square | None) -> Square | None:
    if square is not None and not all(isinstance(v, int) and 0 <= v <= 2 for v in square):
        raise EditRefused(f"A square of an area is (x, y) with x and y 0-2, not {square}.")
    return square


def add_note(dungeon: Dungeon, pos: Pos, text: str, square: Square | None = None) -> tuple[Dungeon, AreaNote]:
    """Write a note with the next reference number on an area (optionally on one square)."""
    note = AreaNote(ref=dungeon.next_note, text=text, square=_check_square(square))
    draft = _Draft(dungeon)
    draft.area(pos).notes.append(note)
    draft.d.next_note = dungeon.next_note + 1
    return draft.finish(), note


def _pop_note(draft: _Draft, ref: int) -> AreaNote:
    found = draft.d.find_note(ref)
    if found is None:
        raise EditRefused(f"There is no note {ref} on this map.")
    area = draft.area(found[0].pos)
    index = next(i for i, n in enumerate(area.notes) if n.ref == ref)
    return area.notes.pop(index)


def move_note(dungeon: Dungeon, ref: int, pos: Pos, square: Square | None = None) -> Dungeon:
    """Move note ``ref`` to another area and/or square; it keeps its reference number."""
    _check_square(square)
    if dungeon.area_at(pos) is None:
        raise EditRefused(f"There is no mapped {_where(pos)}.")
    draft = _Draft(dungeon)
    note = _pop_note(draft, ref)
    draft.area(pos).notes.append(note.model_copy(update={"square": square}))
    return draft.finish()


def edit_note(dungeon: Dungeon, ref: int, text: str) -> Dungeon:
    draft = _Draft(dungeon)
    found = draft.d.find_note(ref)
    if found is None:
        raise EditRefused(f"There is no note {ref} on this map.")
    for note in draft.area(found[0].pos).notes:
        if note.ref == ref:
            note.text = text
    return draft.finish()


def delete_note(dungeon: Dungeon, ref: int) -> Dungeon:
    """Remove a note; its reference number is not reused."""
    draft = _Draft(dungeon)
    _pop_note(draft, ref)
    return draft.finish()


def add_feature(dungeon: Dungeon, pos: Pos, text: str) -> Dungeon:
    draft = _Draft(dungeon)
    draft.area(pos).features.append(text)
    return draft.finish()


def mark_searched(dungeon: Dungeon, pos: Pos, searched: bool = True) -> Dungeon:
    """The circled S: an area may be searched once per quest."""
    draft = _Draft(dungeon)
    draft.area(pos).searched = searched
    return draft.finish()


def mark_interacted(dungeon: Dungeon, pos: Pos, interacted: bool = True) -> Dungeon:
    """The (I) at the bottom right: a feature of the area has been interacted with."""
    draft = _Draft(dungeon)
    draft.area(pos).interacted = interacted
    return draft.finish()


def mark_escaped(dungeon: Dungeon, pos: Pos, monster: str) -> Dungeon:
    """Mark a monster the hero escaped from in this area (back at full health next time); "" clears."""
    draft = _Draft(dungeon)
    draft.area(pos).escaped = monster.strip()
    return draft.finish()
