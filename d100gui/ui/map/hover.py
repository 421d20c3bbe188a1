"""What hovering the map shows: the hero's exits lit up, the edit tools' marks, the tooltip text.

Pure functions over the engine's dungeon and the scene's geometry; the view calls them and
puts the marks on its overlay. :func:`hero_exit_states` asks the engine what a click on each
exit of the hero's area would do (the view never re-derives a rule).
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QPointF, QRectF
from PySide6.QtGui import QColor

from d100gui.engine.dungeon.map import (
    DIRECTION_NAMES,
    ENTRANCE_SIDE,
    OPEN_DOOR,
    Area,
    Dungeon,
    MoveRefused,
    move,
    parse_key,
    pos_key,
)
from d100gui.engine.dungeon.tiles import COLOUR_MEANINGS, COLOUR_NAMES
from d100gui.ui.map.scene import MapScene, Mark

Pos = tuple[int, int]
Square = tuple[int, int]
Colours = tuple[QColor, QColor]  # fill, outline

GO: Colours = (QColor(46, 158, 79, 70), QColor(46, 158, 79, 220))
GO_FAINT: Colours = (QColor(46, 158, 79, 28), QColor(46, 158, 79, 120))
BLOCKED: Colours = (QColor(230, 150, 20, 70), QColor(200, 120, 0, 230))
BLOCKED_FAINT: Colours = (QColor(230, 150, 20, 26), QColor(200, 120, 0, 110))
EDIT: Colours = (QColor(61, 111, 168, 60), QColor(61, 111, 168, 220))
DELETE: Colours = (QColor(192, 57, 43, 70), QColor(192, 57, 43, 230))


@dataclass(frozen=True)
class ExitState:
    """What clicking one exit of the hero's area would do, as the engine sees it."""

    side: str
    state: str  # go | door (a closed or unidentified door) | leave | blocked
    reason: str = ""
    door: tuple[str, str] | None = None  # (pos_key, side) of the door in the way


class _WouldRoll(Exception):
    """Raised by the probe rollers: the move is allowed and would map a new area."""


class _ProbeRoller:
    """Stands in for the dice when asking the engine whether a move is allowed."""

    library = None

    def roll(self, *_args, **_kwargs):
        raise _WouldRoll


_PROBE = _ProbeRoller()


def hero_exit_states(dungeon: Dungeon | None) -> dict[str, ExitState]:
    """Each exit of the hero's area and what a click on it would do.

    The engine's :func:`move` is the judge (with dice that refuse to roll), so the reasons
    are the engine's own sentences and no rule is re-derived here.
    """
    if dungeon is None or dungeon.hero is None:
        return {}
    area = dungeon.hero_area()
    if area is None:
        return {}
    out: dict[str, ExitState] = {}
    for side in area.exits:
        if dungeon.hero == dungeon.entrance and side == ENTRANCE_SIDE:
            out[side] = ExitState(side, "leave", "Leave the dungeon through the entrance.")
            continue
        try:
            move(dungeon, side, _PROBE, _PROBE)  # type: ignore[arg-type]
        except _WouldRoll:
            out[side] = ExitState(side, "go")
        except MoveRefused as exc:
            door = (pos_key(exc.door[0]), exc.door[1]) if exc.door is not None else None
            out[side] = ExitState(side, "door" if door else "blocked", str(exc), door)
        else:
            out[side] = ExitState(side, "go")
    return out


def exit_marks(
    scene: MapScene, hero: Pos, exits: dict[str, ExitState], side: str | None, near: bool
) -> tuple[list[Mark], list[tuple[str, str]]]:
    """Marks on the hero's exits a click could use: the one under the pointer (``side``) strong,
    the others faint while the pointer is ``near``; and ``(side, state)`` of each, strongest first."""
    marks: list[Mark] = []
    lit: list[tuple[str, str]] = []
    for s, state in exits.items():
        if state.state not in ("go", "door"):
            continue
        strong = s == side
        if not (strong or near):
            continue
        colours = (GO if strong else GO_FAINT) if state.state == "go" else (BLOCKED if strong else BLOCKED_FAINT)
        marks.append(Mark(scene.exit_mark_rect(hero, s), *colours))
        if strong:
            lit.insert(0, (s, state.state))
        else:
            lit.append((s, state.state))
    return marks, lit


def square_mark(scene: MapScene, pos: Pos, square: Square, colours: Colours) -> Mark:
    """A mark on one square of an area (where a note goes, or would be dropped)."""
    s = scene.style.square
    rect = scene.area_rect(pos)
    return Mark(QRectF(rect.x() + square[0] * s, rect.y() + square[1] * s, s, s), *colours)


def tool_mark(scene: MapScene, dungeon: Dungeon, at: QPointF, tool: str) -> Mark | None:
    """What the delete, door or note tool would act on at ``at`` (None: nothing there)."""
    pos, square = scene.cell_at(at)
    if tool == "delete":
        return Mark(scene.area_rect(pos), *DELETE) if dungeon.area_at(pos) is not None else None
    if tool == "door":
        found = scene.exit_at(at)
        return Mark(scene.exit_mark_rect(parse_key(found[0]), found[1]), *EDIT) if found is not None else None
    return square_mark(scene, pos, square, EDIT) if dungeon.area_at(pos) is not None else None


def describe_area(area: Area, exit_side: str | None = None) -> list[str]:
    """The tooltip lines of an area: tile, colour, marks, features, notes, and the exit hovered."""
    lines = [f"Area {area.col},{area.row}: tile {area.tile}" + (f" ({area.tile_name})" if area.tile_name else "")]
    lines.append(f"{COLOUR_NAMES[area.colour].capitalize()}: {COLOUR_MEANINGS[area.colour]}")
    if area.searched:
        lines.append("Searched (S)")
    if area.interacted:
        lines.append("Interacted with (I)")
    if area.escaped:
        lines.append(f"Escaped monster: {area.escaped}")
    lines += [f"Feature: {feature}" for feature in area.features]
    lines += [f"[{note.ref}] {note.text}" for note in area.notes]
    ex = area.exits.get(exit_side) if exit_side is not None else None  # type: ignore[call-overload]
    if ex is None or exit_side is None:
        return lines
    name = DIRECTION_NAMES[exit_side].capitalize()
    if ex.kind == "door" and ex.door is not None:
        state = "open" if ex.door.is_open or ex.door.type == OPEN_DOOR else "closed"
        lines.append(f"{name} door: {ex.door.label}, {state}")
    elif ex.kind == "dead_end":
        lines.append(f"{name} exit: dead end")
    elif ex.kind == "secret":
        lines.append(f"{name}: secret passage")
    return lines
