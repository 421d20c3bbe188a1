"""The map's edit tools (Map > Edit map by hand): place a tile, delete an area, set a door, write or move a note.

:class:`EditTools` holds the chosen tool, tile and rotation and works out what an edit click, an
edit hover and a note's drag mean. Like the view it never changes the dungeon: it emits the
view's request signals (``place_tile_requested``, ``door_set_requested``...) or says with
``message`` why a click did nothing. :class:`~d100gui.ui.map.view.MapView` hands it the clicks and
hovers while edit mode is on and keeps the playing ones.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from PySide6.QtCore import QPointF, Qt

from d100gui.engine.dungeon.map import DIRECTION_NAMES, Door, Dungeon, parse_key, pos_key
from d100gui.ui.map.drawing import AreaDrawing
from d100gui.ui.map.hover import DELETE, EDIT, square_mark, tool_mark
from d100gui.ui.map.scene import Mark

if TYPE_CHECKING:  # the view owns the tools; only its type is named here
    from d100gui.ui.map.view import DoorChoice, MapView

Ghost = tuple[QPointF, AreaDrawing, bool]  # where a tile would be placed, its drawing, whether it may be

#: Table D's door abbreviations, offered by the door dialog (the player may type any other).
DEFAULT_DOOR_TYPES: tuple[str, ...] = ("OPEN", "LD", "TLD", "JD", "LVD", "TD", "MS")
TOOLS: tuple[str, ...] = ("place", "delete", "door", "note")


class EditTools:
    """The edit tools of one map view: the tool, tile and rotation chosen, and what an edit click means."""

    def __init__(
        self,
        view: MapView,
        ask_door: Callable[[str, Door | None], DoorChoice | None],
        ask_note_text: Callable[[str], str | None],
    ) -> None:
        self.view = view
        self.tool = "place"
        self.tile = 1
        self.rotation = 0
        self.note_drag: tuple[str, int] | None = None  # the note being dragged: its area's key and its ref
        self._ghost_key: tuple[int, int] | None = None
        self._ghost_drawing: AreaDrawing | None = None
        self.door_types: Sequence[str] = DEFAULT_DOOR_TYPES
        #: Asks the player for a door's values; replaceable (tests answer without a dialog).
        self.ask_door = ask_door
        #: Asks the player for a note's text; replaceable like ``ask_door``.
        self.ask_note_text = ask_note_text

    # ------------------------------------------------------------------ choices
    def set_tool(self, tool: str) -> None:
        if tool not in TOOLS:
            raise ValueError(f"unknown map tool {tool!r}: use one of {', '.join(TOOLS)}")
        self.tool = tool

    def set_tile(self, number: int) -> None:
        self.tile = number
        self.forget_ghost()

    def set_rotation(self, rotation: int) -> None:
        if rotation not in (0, 90, 180, 270):
            raise ValueError(f"a tile turns 0, 90, 180 or 270 degrees, not {rotation}")
        self.rotation = rotation
        self.forget_ghost()

    def forget_ghost(self) -> None:
        """The faint tile is drawn again at the next hover (a new tile, rotation, tile set, style or dungeon)."""
        self._ghost_key = None

    # ------------------------------------------------------------------ clicks and drags
    def click(self, scene_pos: QPointF) -> None:
        """An edit click: the chosen tool's request, or why it does nothing there."""
        view = self.view
        d = view.dungeon
        if d is None:
            view.message.emit("There is no map to edit yet.")
            return
        pos, _ = view.map_scene.cell_at(scene_pos)
        where = f"area {pos[0]},{pos[1]}"
        if self.tool == "place":
            if d.area_at(pos) is not None:
                view.message.emit(f"{where.capitalize()} is already mapped: delete it first.")
            elif not d.placeable(pos):
                view.message.emit(f"{where.capitalize()} is off the map sheet.")
            else:
                view.place_tile_requested.emit(pos[0], pos[1], self.tile, self.rotation)
        elif self.tool == "delete":
            if d.area_at(pos) is None:
                view.message.emit(f"There is no mapped {where} to delete.")
            else:
                view.delete_area_requested.emit(pos_key(pos))
        elif self.tool == "door":
            self._door_click(d, scene_pos)
        elif self.tool == "note":
            if d.area_at(pos) is None:
                view.message.emit("Notes are written on mapped areas.")
                return
            text = self.ask_note_text(where)
            if text is not None and text.strip():
                view.note_add_requested.emit(pos_key(pos), text.strip())

    def _door_click(self, d: Dungeon, scene_pos: QPointF) -> None:
        view = self.view
        found = view.map_scene.exit_at(scene_pos)
        if found is None:
            view.message.emit("Click the middle of an area's side where an exit is drawn to edit its door.")
            return
        key, side = found
        area = d.areas[key]
        ex = area.exits[side]  # type: ignore[index]
        if ex.drawn == "secret":
            view.message.emit("A secret passage has no door.")
            return
        view.door_edit_requested.emit(key, side)
        c, r = parse_key(key)
        choice = self.ask_door(f"the {DIRECTION_NAMES[side]} exit of area {c},{r}", ex.door)
        if choice is not None:
            view.door_set_requested.emit(key, side, choice.type, choice.roll, choice.is_open)

    def press(self, scene_pos: QPointF) -> None:
        """A left press: a note under it starts a drag."""
        self.note_drag = self.view.map_scene.note_at(scene_pos)

    def drop_note(self, drag: tuple[str, int], scene_pos: QPointF) -> None:
        """A dragged note let go: moved onto the square under it, if that is a mapped area."""
        view = self.view
        d = view.dungeon
        if d is None:
            return
        pos, square = view.map_scene.cell_at(scene_pos)
        if d.area_at(pos) is None:
            view.message.emit("A note can only be moved onto a mapped area.")
            return
        view.note_move_requested.emit(pos_key(pos), drag[1], square[0], square[1])

    # ------------------------------------------------------------------ hover
    def hover(self, d: Dungeon, at: QPointF, marks: list[Mark]) -> tuple[Ghost | None, Qt.CursorShape]:
        """What hovering ``at`` shows while editing: the faint tile to place, or the tool's mark, and the cursor."""
        scene = self.view.map_scene
        if scene.note_at(at) is not None:
            return None, Qt.CursorShape.OpenHandCursor
        if self.tool == "place":
            pos, _ = scene.cell_at(at)
            ok = d.placeable(pos) and d.area_at(pos) is None
            if not (d.in_sheet(pos) or ok):
                return None, Qt.CursorShape.ForbiddenCursor
            drawing = self._ghost()
            if drawing is None:
                return None, Qt.CursorShape.ForbiddenCursor
            ghost = (scene.area_rect(pos).topLeft(), drawing, ok)
            return ghost, Qt.CursorShape.PointingHandCursor if ok else Qt.CursorShape.ForbiddenCursor
        mark = tool_mark(scene, d, at, self.tool)
        if mark is None:
            return None, Qt.CursorShape.ArrowCursor
        marks.append(mark)
        return None, Qt.CursorShape.PointingHandCursor

    def _ghost(self) -> AreaDrawing | None:
        """The chosen tile, drawn faint where it would be placed (kept until the tile or rotation changes)."""
        if self._ghost_key != (self.tile, self.rotation) or self._ghost_drawing is None:
            try:
                tile = self.view.tileset().tile(self.tile)
            except KeyError:
                return None
            self._ghost_drawing = self.view.map_scene.ghost_drawing(tile, self.rotation)
            self._ghost_key = (self.tile, self.rotation)
        return self._ghost_drawing

    def show_note_drop(self, at: QPointF) -> None:
        """While a note is dragged: the square it would land on, marked (red off the mapped areas)."""
        scene = self.view.map_scene
        d = self.view.dungeon
        if d is None:
            return
        pos, square = scene.cell_at(at)
        colours = EDIT if d.area_at(pos) is not None else DELETE
        scene.overlay.set_marks([square_mark(scene, pos, square, colours)])
