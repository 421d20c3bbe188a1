"""Map commands: every change to a campaign's dungeons goes through one of these.

They wrap the pure functions of :mod:`d100gui.engine.dungeon.map` so each map action is
validated, logged with its dice, undoable and autosaved like any other command. Rolls made
while mapping (Table M, Table D for doors) are also added to the dice history, so the dice
panel shows them.

Positions are ``"col,row"`` keys; sides are map sides ``N``/``E``/``S``/``W``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar, Literal, ParamSpec, TypeVar

from d100gui.engine.command_registry import register_command
from d100gui.engine.dice.events import RollMade, RowProvided
from d100gui.engine.dice.history import HistoryEntry
from d100gui.engine.dice.roller import MissingRowPolicy
from d100gui.engine.dice.tables import Row
from d100gui.engine.dungeon import map as dg
from d100gui.engine.dungeon.events import DoorRowMissing, EscapedMonsterHere, MapChanged, Side
from d100gui.engine.dungeon.tiles import TileRoller, TileSet
from d100gui.engine.game import Command, GameContext
from d100gui.engine.phases import DOOR_ROW, LEAVE, MAP_EDIT, MAP_MOVE, NOTES, OUTSIDE_FIGHT, Phases
from d100gui.engine.protocol import CommandRefused, Event

DOOR_TABLE = "d100.D"
_P = ParamSpec("_P")
_R = TypeVar("_R")


def _book(ctx: GameContext) -> dg.DungeonBook:
    return ctx.campaign.dungeons


def current_dungeon(ctx: GameContext) -> dg.Dungeon:
    """The dungeon on the current mapping sheet; refused when there is none."""
    dungeon = _book(ctx).current_dungeon
    if dungeon is None:
        raise CommandRefused("There is no dungeon yet: start one first (Map > New dungeon).")
    return dungeon


def store_dungeon(ctx: GameContext, dungeon: dg.Dungeon) -> None:
    """Put the changed dungeon back on the current mapping sheet."""
    ctx.campaign.dungeons = dg.replace_current(_book(ctx), dungeon)


def parse_pos(key: str) -> dg.Pos:
    """``"col,row"`` as a position; refused when it is not one."""
    try:
        return dg.parse_key(key)
    except (ValueError, TypeError):
        raise CommandRefused(f"{key!r} is not an area position (col,row).") from None


def tileset_for(ctx: GameContext) -> TileSet:
    """The campaign's tile set (the standard set if the chosen one is not installed)."""
    wanted = ctx.campaign.tileset
    return ctx.tilesets.get(wanted) or ctx.tilesets["standard"]


def map_event(message: str, pos: str | None = None) -> Event:
    """The map changed (at ``pos``), told with ``message``."""
    return Event.of(MapChanged(pos=pos), message)


def _dice_events(ctx: GameContext, placement: dg.Placement | None) -> list[Event]:
    """Put the Table M and Table D rolls of a placement in the dice history."""
    if placement is None:
        return []
    events: list[Event] = []
    history = ctx.campaign.dice_history
    if placement.tile_roll is not None:
        tile = placement.tile_roll.tile
        history.append(HistoryEntry(roll=placement.tile_roll.roll, note=f"tile {tile.number} ({tile.colour}, {tile.kind})"))
        events.append(Event.of(RollMade(index=len(history) - 1), placement.tile_roll.describe()))
    for door in placement.door_rolls:
        history.append(HistoryEntry(roll=door.roll.roll, table=door.roll))
        label = f"Door on the {door.side} side of area {door.col},{door.row}: {door.door.label}"
        events.append(Event.of(RollMade(index=len(history) - 1), label))
        if door.pending and door.door.roll is not None:
            missing = DoorRowMissing(pos=dg.pos_key((door.col, door.row)), side=door.side, roll=door.door.roll)
            message = f"Table D roll {door.door.roll}: that row is not in your tables. Type it from your rulebook."
            events.append(Event.of(missing, message))
    return events


def run_map(fn: Callable[_P, _R], *args: _P.args, **kwargs: _P.kwargs) -> _R:
    """Call a map function; a :class:`~d100gui.engine.dungeon.map.DungeonError` becomes a refusal."""
    try:
        return fn(*args, **kwargs)
    except dg.DungeonError as exc:
        raise CommandRefused(str(exc)) from None


# --------------------------------------------------------------------------- dungeons


def new_sheet(
    ctx: GameContext,
    name: str = "",
    quest: str = "",
    width: int = dg.DEFAULT_WIDTH,
    height: int = dg.DEFAULT_HEIGHT,
    unbounded: bool = False,
) -> list[Event]:
    """A blank mapping sheet for a quest (entrance at the bottom middle), made the current one."""
    if not (3 <= width <= 200 and 2 <= height <= 200):
        raise CommandRefused("A sheet is 3-200 areas wide and 2-200 areas high.")
    number = len(_book(ctx).dungeons) + 1
    dungeon = dg.Dungeon(
        id=f"dungeon-{number}",
        name=name or f"Dungeon {number}",
        quest=quest,
        tileset=tileset_for(ctx).id,
        width=width,
        height=height,
        unbounded=unbounded,
    )
    ctx.campaign.dungeons = run_map(dg.add_dungeon, _book(ctx), dungeon)
    return [map_event(f"New mapping sheet: {dungeon.name} ({width}x{height} areas).")]


@register_command
class SelectDungeon(Command):
    """Show (and play in) the campaign's dungeon number ``index`` (0-based)."""

    kind: Literal["select_dungeon"] = "select_dungeon"
    when: ClassVar[Phases] = MAP_EDIT
    index: int

    def apply(self, ctx: GameContext) -> list[Event]:
        ctx.campaign.dungeons = run_map(dg.select_dungeon, _book(ctx), self.index)
        return [map_event(f"Showing {current_dungeon(ctx).name}.")]


@register_command
class SetTileSet(Command):
    """Choose which Table M tile set this campaign rolls on from now on."""

    kind: Literal["set_tileset"] = "set_tileset"
    when: ClassVar[Phases] = OUTSIDE_FIGHT
    tileset: str

    def apply(self, ctx: GameContext) -> list[Event]:
        if self.tileset not in ctx.tilesets:
            raise CommandRefused(f"There is no tile set {self.tileset!r}.")
        ctx.campaign.tileset = self.tileset
        return [map_event(f"Table M now uses the tile set {ctx.tilesets[self.tileset].title}.")]


# --------------------------------------------------------------------------- moving


def enter_here(ctx: GameContext) -> list[Event]:
    """Step in from the entrance (mapping it the first time), nothing more: the turn resolves the area itself."""
    result = run_map(dg.enter, current_dungeon(ctx), TileRoller(tileset_for(ctx), ctx.dice), ctx.tables)
    store_dungeon(ctx, result.dungeon)
    what = f"mapped tile {result.area.tile} ({result.area.colour})" if result.placed else "back in"
    return [*_dice_events(ctx, result.placement), map_event(f"Entered the dungeon: {what}.")]


@register_command
class MoveHero(Command):
    """Go through the exit on ``side`` of the hero's area; an unmapped area rolls Table M."""

    kind: Literal["move_hero"] = "move_hero"
    when: ClassVar[Phases] = MAP_MOVE
    side: Side

    def apply(self, ctx: GameContext) -> list[Event]:
        if ctx.campaign.combat is not None:
            raise CommandRefused(
                f"A fight with {ctx.campaign.combat.monster.name} is on: win it, escape or resolve it before moving on."
            )
        result = run_map(dg.move, current_dungeon(ctx), self.side, TileRoller(tileset_for(ctx), ctx.dice), ctx.tables)
        store_dungeon(ctx, result.dungeon)
        area = result.area
        if result.placed:
            message = f"Moved {self.side} into a new area: tile {area.tile} ({area.colour})."
        else:
            message = f"Moved {self.side} to area {area.col},{area.row}."
        events = [*_dice_events(ctx, result.placement), map_event(message, pos=area.key)]
        if area.escaped:
            message = f"The {area.escaped} you escaped from is here: you must encounter it (back at full HP)."
            events.append(Event.of(EscapedMonsterHere(pos=area.key, monster=area.escaped), message))
        return events


@register_command
class LeaveDungeon(Command):
    """Leave the dungeon by the entrance (the hero must stand on the entrance area)."""

    kind: Literal["leave_dungeon"] = "leave_dungeon"
    when: ClassVar[Phases] = LEAVE

    def apply(self, ctx: GameContext) -> list[Event]:
        store_dungeon(ctx, run_map(dg.leave, current_dungeon(ctx)))
        return [map_event("Left the dungeon by the entrance.")]


# --------------------------------------------------------------------------- doors


@register_command
class OpenDoor(Command):
    """Mark a door open (after its Table D test succeeded)."""

    kind: Literal["open_door"] = "open_door"
    when: ClassVar[Phases] = MAP_EDIT
    pos: str
    side: Side

    def apply(self, ctx: GameContext) -> list[Event]:
        store_dungeon(ctx, run_map(dg.open_door, current_dungeon(ctx), parse_pos(self.pos), self.side))
        return [map_event(f"The door on the {self.side} side of area {self.pos} is open.")]


@register_command
class SetDoor(Command):
    """Edit a door by hand: type (None removes it), roll number, open or closed."""

    kind: Literal["set_door"] = "set_door"
    when: ClassVar[Phases] = MAP_EDIT
    manual = True
    pos: str
    side: Side
    door_type: str | None
    roll: int | None = None
    is_open: bool | None = None

    def apply(self, ctx: GameContext) -> list[Event]:
        if self.roll is not None and not 1 <= self.roll <= 100:
            raise CommandRefused("A Table D roll is 1-100.")
        door_type = self.door_type.strip().upper() if self.door_type else None
        store_dungeon(
            ctx, run_map(dg.set_door, current_dungeon(ctx), parse_pos(self.pos), self.side, door_type, self.roll, self.is_open)
        )
        return [map_event(f"Door on the {self.side} side of area {self.pos} edited by hand.")]


@register_command
class ResolveDoorRow(Command):
    """The player typed the Table D row a door roll landed on: label the door from it. With
    ``sample`` (and no row) Table D is rolled again until it lands on a printed row, and the door
    takes that row and roll (sample play, this door only; the re-roll goes to the dice history)."""

    kind: Literal["resolve_door_row"] = "resolve_door_row"
    when: ClassVar[Phases] = DOOR_ROW
    pos: str
    side: Side
    row: Row | None = None
    sample: bool = False

    def apply(self, ctx: GameContext) -> list[Event]:
        dungeon = current_dungeon(ctx)
        parse_pos(self.pos)
        door = dg.door_at(dungeon, dg.DoorAt(pos=self.pos, side=self.side))
        if door is None or not door.pending or door.roll is None:
            raise CommandRefused("That door is not waiting for a Table D row.")
        if self.row is None:
            if not self.sample:
                raise CommandRefused("Type the Table D row from your rulebook, or re-roll among the printed rows.")
            return _sample_door(ctx, dungeon, self.pos, self.side)
        table = ctx.tables.library.get(DOOR_TABLE)
        gap = table.gap_containing(door.roll)
        if self.row.range is None or not self.row.range[0] <= door.roll <= self.row.range[1]:
            raise CommandRefused(f"The row you typed must cover the roll of {door.roll}.")
        if gap and (self.row.range[0] < gap[0] or self.row.range[1] > gap[1]):
            raise CommandRefused(f"The row must lie inside the missing range {gap[0]}-{gap[1]}.")
        try:
            ctx.tables.library.add_user_row(DOOR_TABLE, self.row)
        except ValueError as exc:
            raise CommandRefused(str(exc)) from None
        found = ctx.tables.library.get(DOOR_TABLE).find(door.roll)
        assert found is not None
        kind = dg.door_type_from_row(found, ctx.tables.library.get(DOOR_TABLE))
        store_dungeon(ctx, run_map(dg.set_door, dungeon, parse_pos(self.pos), self.side, kind, door.roll, kind == dg.OPEN_DOOR))
        return [
            map_event(f"Door on the {self.side} side of area {self.pos}: {kind} ({door.roll})."),
            Event.of(RowProvided(table_id=DOOR_TABLE, row=self.row)),
        ]


def _sample_door(ctx: GameContext, dungeon: dg.Dungeon, pos: str, side: Side) -> list[Event]:
    """Sample play for one door: Table D rolled again until a printed row comes up; the door takes it."""
    rolled = ctx.tables.with_policy(MissingRowPolicy.REROLL).roll(DOOR_TABLE, f"Door on the {side} side of area {pos}")
    if rolled.row is None:
        raise CommandRefused("Table D has no printed row to re-roll among: type the row from your rulebook.")
    table = ctx.tables.library.get(DOOR_TABLE)
    kind = dg.door_type_from_row(rolled.row, table)
    value = rolled.roll.final
    store_dungeon(ctx, run_map(dg.set_door, dungeon, parse_pos(pos), side, kind, value, kind == dg.OPEN_DOOR))
    history = ctx.campaign.dice_history
    history.append(HistoryEntry(roll=rolled.roll, table=rolled.model_copy(update={"sample": True})))
    return [
        Event.of(RollMade(index=len(history) - 1), f"Sample play: {rolled.describe()}"),
        map_event(f"Door on the {side} side of area {pos}: {kind} ({value}), sample play among the printed rows."),
    ]


# --------------------------------------------------------------------------- manual edits


@register_command
class PlaceTile(Command):
    """Map a tile by hand at any of the four turns (doors are rolled on Table D)."""

    kind: Literal["place_tile"] = "place_tile"
    when: ClassVar[Phases] = MAP_EDIT
    manual = True
    pos: str
    tile: int
    rotation: Literal[0, 90, 180, 270] = 0

    def apply(self, ctx: GameContext) -> list[Event]:
        tileset = tileset_for(ctx)
        if not 1 <= self.tile <= len(tileset.tiles):
            raise CommandRefused(f"Tiles are numbered 1-{len(tileset.tiles)}.")
        col, row = parse_pos(self.pos)
        dungeon, placement = run_map(
            dg.place_manual, current_dungeon(ctx), col, row, tileset.tile(self.tile), self.rotation, ctx.tables
        )
        store_dungeon(ctx, dungeon)
        return [*_dice_events(ctx, placement), map_event(f"Placed tile {self.tile} at {self.pos}, turned {self.rotation}°.")]


@register_command
class DeleteArea(Command):
    """Rub a mapped area off the sheet by hand (a correction)."""

    kind: Literal["delete_area"] = "delete_area"
    when: ClassVar[Phases] = MAP_EDIT
    manual = True
    pos: str

    def apply(self, ctx: GameContext) -> list[Event]:
        store_dungeon(ctx, run_map(dg.delete_area, current_dungeon(ctx), parse_pos(self.pos)))
        return [map_event(f"Deleted area {self.pos}.")]


@register_command
class MoveHeroTo(Command):
    """Put the hero marker on a mapped area by hand (a correction)."""

    kind: Literal["move_hero_to"] = "move_hero_to"
    when: ClassVar[Phases] = MAP_MOVE
    manual = True
    pos: str

    def apply(self, ctx: GameContext) -> list[Event]:
        store_dungeon(ctx, run_map(dg.move_hero, current_dungeon(ctx), parse_pos(self.pos)))
        return [map_event(f"Hero placed at {self.pos}.")]


@register_command
class AddNote(Command):
    """Write a note on an area (``square``: the 3x3 square it marks, if any); it gets the next note number."""

    kind: Literal["add_note"] = "add_note"
    when: ClassVar[Phases] = NOTES
    pos: str
    text: str
    square: tuple[int, int] | None = None

    def apply(self, ctx: GameContext) -> list[Event]:
        if not self.text.strip():
            raise CommandRefused("A note needs some text.")
        dungeon, note = run_map(dg.add_note, current_dungeon(ctx), parse_pos(self.pos), self.text.strip(), self.square)
        store_dungeon(ctx, dungeon)
        return [map_event(f"Note ({note.ref}) added at {self.pos}.")]


@register_command
class MoveNote(Command):
    """Move note number ``ref`` to another area (and square)."""

    kind: Literal["move_note"] = "move_note"
    when: ClassVar[Phases] = NOTES
    ref: int
    pos: str
    square: tuple[int, int] | None = None

    def apply(self, ctx: GameContext) -> list[Event]:
        store_dungeon(ctx, run_map(dg.move_note, current_dungeon(ctx), self.ref, parse_pos(self.pos), self.square))
        return [map_event(f"Note ({self.ref}) moved to {self.pos}.")]


@register_command
class EditNote(Command):
    """Rewrite the text of note number ``ref``."""

    kind: Literal["edit_note"] = "edit_note"
    when: ClassVar[Phases] = NOTES
    ref: int
    text: str

    def apply(self, ctx: GameContext) -> list[Event]:
        store_dungeon(ctx, run_map(dg.edit_note, current_dungeon(ctx), self.ref, self.text))
        return [map_event(f"Note ({self.ref}) edited.")]


@register_command
class DeleteNote(Command):
    """Rub out note number ``ref``."""

    kind: Literal["delete_note"] = "delete_note"
    when: ClassVar[Phases] = NOTES
    ref: int

    def apply(self, ctx: GameContext) -> list[Event]:
        store_dungeon(ctx, run_map(dg.delete_note, current_dungeon(ctx), self.ref))
        return [map_event(f"Note ({self.ref}) deleted.")]


@register_command
class MarkArea(Command):
    """Mark an area searched (S), interacted (I), or with an escaped monster."""

    kind: Literal["mark_area"] = "mark_area"
    when: ClassVar[Phases] = MAP_EDIT
    pos: str
    mark: Literal["searched", "interacted", "escaped"]
    value: bool = True
    monster: str = ""

    def apply(self, ctx: GameContext) -> list[Event]:
        dungeon, pos = current_dungeon(ctx), parse_pos(self.pos)
        if self.mark == "searched":
            dungeon = run_map(dg.mark_searched, dungeon, pos, self.value)
        elif self.mark == "interacted":
            dungeon = run_map(dg.mark_interacted, dungeon, pos, self.value)
        else:
            dungeon = run_map(dg.mark_escaped, dungeon, pos, self.monster if self.value else "")
        store_dungeon(ctx, dungeon)
        return [
            map_event(f"Area {self.pos} marked {self.mark}." if self.value else f"Area {self.pos}: {self.mark} mark removed.")
        ]
