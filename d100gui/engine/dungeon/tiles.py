"""Table M tiles: the 3x3 area diagrams a d100 roll picks, their checks, and the tile roller.

A tile is drawn the way the hero meets it: the entry is the bottom middle square and is
always open, so only the other three side middles can hold exits, named in the tile's own
frame: ``ahead`` (top middle), ``left`` (left middle) and ``right`` (right middle). Where
the tile lands on the map and how it is turned is the dungeon's business
(:mod:`d100gui.engine.dungeon.map`).

Squares are addressed ``(x, y)``: column then row, 0-2, row 0 at the top. ``floor`` is a
list of rows, so square ``(x, y)`` is ``floor[y][x]``.

A tile set holds exactly 100 tiles numbered 1-100. The schema (types, the 3x3 shape) is
checked by pydantic; :func:`check_tile` adds the rules a schema cannot say (entry and middle
are floor, exits sit on floor, every exit is reachable from the entry).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import Field, ValidationError, field_validator

from d100gui.engine.dice.dice import Dice, RollRecord
from d100gui.engine.model import Model

TILESET_SCHEMA_VERSION = 1
TILE_COUNT = 100
MAX_TILESET_BYTES = 5 * 1024 * 1024

TileSide = Literal["ahead", "left", "right"]
ExitType = Literal["open", "door"]
Colour = Literal["Y", "R", "G", "B"]

#: The tile-frame sides that may hold exits, in the order they are listed and rolled.
TILE_SIDES: tuple[TileSide, ...] = ("ahead", "left", "right")
#: The square each side's exit sits on, ``(x, y)``; ``back`` is the entry.
SIDE_SQUARE: dict[str, tuple[int, int]] = {"ahead": (1, 0), "left": (0, 1), "right": (2, 1), "back": (1, 2)}
ENTRY_SQUARE = SIDE_SQUARE["back"]
MIDDLE_SQUARE = (1, 1)

COLOUR_NAMES: dict[str, str] = {"Y": "yellow", "R": "red", "G": "green", "B": "blue"}
COLOUR_MEANINGS: dict[str, str] = {
    "Y": "Nothing",
    "R": "Roll Encounter",
    "G": "Roll Geographic",
    "B": "Objective, see quest",
}


class Tile(Model):
    """One Table M diagram: the floor (True = floor, False = rock), its exits and colour."""

    number: int = Field(ge=1, le=TILE_COUNT)
    name: str = Field(default="", max_length=40)
    colour: Colour
    floor: list[list[bool]]
    exits: dict[TileSide, ExitType] = Field(default_factory=dict)

    @field_validator("floor")
    @classmethod
    def _three_by_three(cls, value: list[list[bool]]) -> list[list[bool]]:
        if len(value) != 3 or any(len(row) != 3 for row in value):
            raise ValueError("the floor must be 3 rows of 3 squares")
        return value

    @property
    def kind(self) -> str:
        """A plain description of the shape by its exits, for lists and the editor."""
        return tile_kind(self.exits)


def tile_kind(exits: Iterable[str]) -> str:
    """A tile's shape named by its exit sides (``ahead``, ``left``, ``right``): straight, bend, T junction, fork..."""
    sides = set(exits)
    if not sides:
        return "dead end"
    if sides == {"ahead"}:
        return "straight"
    if sides == {"left"}:
        return "bend left"
    if sides == {"right"}:
        return "bend right"
    if sides == {"left", "right"}:
        return "T junction"
    if len(sides) == 2:
        return "fork"
    return "crossroads"


class TileSet(Model):
    """A full Table M: exactly 100 tiles numbered 1-100, in any order in the file."""

    schema_version: int = TILESET_SCHEMA_VERSION
    id: str
    title: str
    source: str = ""
    tiles: list[Tile]

    def tile(self, number: int) -> Tile:
        """The tile for a Table M roll."""
        for tile in self.tiles:
            if tile.number == number:
                return tile
        raise KeyError(f"Tile set {self.id!r} has no tile {number}.")

    def colour_counts(self) -> dict[str, int]:
        counts = dict.fromkeys(COLOUR_NAMES, 0)
        for tile in self.tiles:
            counts[tile.colour] += 1
        return counts


# --------------------------------------------------------------------------- checks


@dataclass(frozen=True)
class TileProblem:
    """One thing wrong in a tile set, named down to the tile and field."""

    file: str
    tile: int | None
    field: str
    message: str

    def __str__(self) -> str:
        where = [self.file]
        if self.tile is not None:
            where.append(f"tile {self.tile}")
        if self.field:
            where.append(f"field {self.field}")
        return f"{', '.join(where)}: {self.message}"


class TileSetInvalid(ValueError):
    """A tile set that cannot be used, with every problem found."""

    def __init__(self, problems: Sequence[TileProblem]) -> None:
        self.problems = list(problems)
        lines = "\n".join(f"  - {p}" for p in self.problems[:20])
        more = f"\n  ... and {len(self.problems) - 20} more" if len(self.problems) > 20 else ""
        super().__init__(f"{len(self.problems)} problem(s):\n{lines}{more}")


def _reachable(floor: list[list[bool]], start: tuple[int, int]) -> set[tuple[int, int]]:
    """Floor squares 4-connected to ``start``."""
    if not floor[start[1]][start[0]]:
        return set()
    seen = {start}
    todo = [start]
    while todo:
        x, y = todo.pop()
        for nx, ny in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if 0 <= nx < 3 and 0 <= ny < 3 and (nx, ny) not in seen and floor[ny][nx]:
                seen.add((nx, ny))
                todo.append((nx, ny))
    return seen


def check_tile(tile: Tile) -> list[str]:
    """The drawing rules a valid tile keeps; each broken one as a sentence."""
    problems: list[str] = []
    ex, ey = ENTRY_SQUARE
    if not tile.floor[ey][ex]:
        problems.append("the entry square (bottom middle) must be floor")
    mx, my = MIDDLE_SQUARE
    if not tile.floor[my][mx]:
        problems.append("the middle square must be floor")
    reach = _reachable(tile.floor, ENTRY_SQUARE)
    for side in TILE_SIDES:
        if side not in tile.exits:
            continue
        x, y = SIDE_SQUARE[side]
        if not tile.floor[y][x]:
            problems.append(f"the {side} exit sits on a rock square: its side middle ({x},{y}) must be floor")
        elif reach and (x, y) not in reach:
            problems.append(f"disconnected floor: the {side} exit cannot be reached from the entry")
    return problems


def _tile_label(raw: object, index: int) -> int | None:
    if isinstance(raw, dict):
        number = raw.get("number")
        if isinstance(number, int) and not isinstance(number, bool):
            return number
    return None


def _exit_key_problems(raw: dict[str, Any], file: str, label: int | None, index: int) -> list[TileProblem]:
    """Exits listed under a name that is not a side middle get a sentence of their own."""
    exits = raw.get("exits")
    if not isinstance(exits, dict):
        return []
    problems = []
    for key in exits:
        if key == "back":
            message = "the entry (back) is always open and is not listed as an exit"
        elif key not in TILE_SIDES:
            message = f"exit {key!r} is off a side middle: exits are 'ahead', 'left' or 'right'"
        else:
            continue
        problems.append(
            TileProblem(file, label, f"exits.{key}", message if label is not None else f"tile #{index + 1}: {message}")
        )
    return problems


def validate_tileset(data: object, file: str = "<tile set>") -> list[TileProblem]:
    """Every problem in a parsed tile set, each naming the tile number and the reason."""
    return _validate(data, file)[1]


def _validate(data: object, file: str) -> tuple[TileSet | None, list[TileProblem]]:
    p = TileProblem
    if not isinstance(data, dict):
        return None, [p(file, None, "", "a tile set must be a JSON object with 'id', 'title' and 'tiles'")]
    version = data.get("schema_version", TILESET_SCHEMA_VERSION)
    if isinstance(version, int) and version > TILESET_SCHEMA_VERSION:
        return None, [p(file, None, "schema_version", f"tile set format {version} is newer than this app reads")]
    problems: list[TileProblem] = []
    head = {k: v for k, v in data.items() if k != "tiles"}
    try:
        TileSet.model_validate({**head, "tiles": []})
    except ValidationError as exc:
        for err in exc.errors():
            problems.append(p(file, None, ".".join(str(x) for x in err["loc"]), err["msg"]))
    raw_tiles = data.get("tiles")
    if not isinstance(raw_tiles, list):
        problems.append(p(file, None, "tiles", "'tiles' must be a list of tiles"))
        return None, problems
    tiles: list[Tile] = []
    for index, raw in enumerate(raw_tiles):
        tile, tile_problems = _validate_tile(raw, file, index)
        problems.extend(tile_problems)
        if tile is not None:
            tiles.append(tile)
    problems.extend(_numbering_problems(raw_tiles, file))
    if problems:
        return None, problems
    return TileSet.model_validate({**head, "tiles": tiles}), []


def _validate_tile(raw: object, file: str, index: int) -> tuple[Tile | None, list[TileProblem]]:
    """One tile of a tile set: the tile (None if it does not validate) and its problems."""
    label = _tile_label(raw, index)

    def named(msg: str) -> str:
        return msg if label is not None else f"tile #{index + 1}: {msg}"

    if not isinstance(raw, dict):
        return None, [TileProblem(file, label, "", named("a tile must be a JSON object"))]
    key_problems = _exit_key_problems(raw, file, label, index)
    problems = list(key_problems)
    try:
        tile = Tile.model_validate(raw)
    except ValidationError as exc:
        for err in exc.errors():
            loc = [str(x) for x in err["loc"]]
            if loc and loc[0] == "exits" and len(loc) > 1 and key_problems and loc[1] not in TILE_SIDES:
                continue  # already said in plain words above
            message = err["msg"]
            if loc and loc[0] == "colour":
                message = f"bad colour {raw.get('colour')!r}: use Y (yellow), R (red), G (green) or B (blue)"
            problems.append(TileProblem(file, label, ".".join(loc), named(message)))
        return None, problems
    for message in check_tile(tile):
        field = "floor" if "floor" in message or "square" in message else "exits"
        problems.append(TileProblem(file, tile.number, field, message))
    return tile, problems


def _numbering_problems(raw_tiles: list[Any], file: str) -> list[TileProblem]:
    """Exactly 100 tiles, each number once."""
    problems: list[TileProblem] = []
    if len(raw_tiles) != TILE_COUNT:
        message = f"wrong tile count: a tile set holds exactly {TILE_COUNT} tiles, this one has {len(raw_tiles)}"
        problems.append(TileProblem(file, None, "tiles", message))
    seen: set[int] = set()
    for number in (_tile_label(raw, i) for i, raw in enumerate(raw_tiles)):
        if number is None:
            continue
        if number in seen:
            problems.append(TileProblem(file, number, "number", f"duplicate number: tile {number} appears more than once"))
        seen.add(number)
    missing = [n for n in range(1, TILE_COUNT + 1) if n not in seen]
    if missing:
        shown = ", ".join(str(n) for n in missing[:20]) + (" ..." if len(missing) > 20 else "")
        problems.append(TileProblem(file, None, "tiles", f"missing number(s): no tile for roll {shown}"))
    return problems


def load_tileset_data(data: object, file: str = "<tile set>") -> TileSet:
    """A parsed tile set, checked; :class:`TileSetInvalid` carries every problem."""
    tileset, problems = _validate(data, file)
    if problems or tileset is None:
        raise TileSetInvalid(problems)
    return tileset


def load_tileset_text(text: str, file: str = "<tile set>") -> TileSet:
    """Parse and check tile set JSON; :class:`TileSetInvalid` carries every problem."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise TileSetInvalid(
            [TileProblem(file, None, "", f"not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})")]
        ) from None
    return load_tileset_data(data, file)


# --------------------------------------------------------------------------- rolling


class TileRoll(Model):
    """A Table M roll and the tile it picked."""

    roll: RollRecord
    tile: Tile
    tileset_id: str

    def describe(self) -> str:
        return f"Table M: {self.roll.final} -> tile {self.tile.number} ({COLOUR_NAMES[self.tile.colour]}, {self.tile.kind})"


class TileRoller:
    """Rolls Table M (a d100) with the dice and looks the tile up in a tile set."""

    def __init__(self, tileset: TileSet, dice: Dice) -> None:
        self.tileset = tileset
        self.dice = dice

    def roll(self, purpose: str = "Table M") -> TileRoll:
        record = self.dice.d100(purpose)
        return TileRoll(roll=record, tile=self.tileset.tile(record.final), tileset_id=self.tileset.id)
