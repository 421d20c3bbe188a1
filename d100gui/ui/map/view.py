"""The map view: zoom, pan, hover highlights and clicks that ask for moves; the edit tools in edit_tools.py.

:class:`MapView` never changes the dungeon. Every click becomes a request signal the main
window turns into an engine command; when a click can do nothing the view says why with
``message`` (the engine's own sentence wherever the engine has one).

:class:`MapEditPanel` is the small tool bar for map edits (tool, tile with a drawn preview,
rotation) and :class:`DoorEditDialog` the dialog the door tool opens.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from PySide6.QtCore import QEvent, QPoint, QPointF, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QHelpEvent, QKeyEvent, QMouseEvent, QPainter, QPaintEvent
from PySide6.QtWidgets import (
    QAbstractButton,
    QApplication,
    QButtonGroup,
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QFrame,
    QGraphicsView,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QLineEdit,
    QSpinBox,
    QToolButton,
    QToolTip,
    QVBoxLayout,
    QWidget,
)

from d100gui.engine.adventure.doors import secret_passage_allowed
from d100gui.engine.campaign import Campaign
from d100gui.engine.dice.tables import TableLibrary
from d100gui.engine.dungeon.map import (
    DIRECTION_NAMES,
    OPEN_DOOR,
    Door,
    Dungeon,
    neighbour,
    progress_blocked,
)
from d100gui.engine.dungeon.tiles import COLOUR_NAMES, TILE_COUNT, Tile, TileSet
from d100gui.engine.rules.model import Rules
from d100gui.storage.resources import standard_tileset
from d100gui.ui.map.clicks import hero_side_at, in_entrance, play_click
from d100gui.ui.map.drawing import paint_tile
from d100gui.ui.map.edit_tools import DEFAULT_DOOR_TYPES, TOOLS, EditTools
from d100gui.ui.map.hover import GO_FAINT, ExitState, describe_area, exit_marks, hero_exit_states
from d100gui.ui.map.scene import MapScene, Mark
from d100gui.ui.map.style import OVERVIEW_BELOW_PX, MapStyle

# The zoom limits moved to zoom.py with ZoomView; they stay importable from here.
from d100gui.ui.map.zoom import ZoomView

#: what the secret-passage rule asks about: the campaign (its hero's means), the rules and the tables
PassageMeans = Callable[[], tuple[Campaign, Rules, TableLibrary]]

TOOL_NAMES: dict[str, str] = {"place": "Place tile", "delete": "Delete area", "door": "Door", "note": "Note"}
TOOL_TIPS: dict[str, str] = {
    "place": "Click the sheet to place the chosen Table M tile, turned as chosen",
    "delete": "Click a mapped area to take it off the sheet",
    "door": "Click an exit to set its door: type, Table D roll, open or closed",
    "note": "Click an area to write a note on it; drag a note to move it",
    "tile": "The Table M tile to place",
    "rotation": "How the tile is turned on the map (clockwise)",
}
#: Why the edit tools are greyed while the map is played, not edited.
EDIT_OFF_TIP = "Turn on Edit map by hand (Map menu, Ctrl+E, or the Edit map button) to use this tool"


@dataclass(frozen=True)
class DoorChoice:
    """The door dialog's answer. ``type`` "" means: no door on this exit."""

    type: str
    roll: int | None
    is_open: bool


# --------------------------------------------------------------------------- the view


class FreshBackgroundView(ZoomView):
    """A zoomable view whose cached background is drawn afresh after each scroll: at a fractional zoom the
    cache, moved by whole pixels, no longer meets the strip drawn beside it (a grid line one pixel off).
    A full background repaint is within the pan benchmark's bar (tests/benchmarks/bench_map.py)."""

    def scrollContentsBy(self, dx: int, dy: int) -> None:
        super().scrollContentsBy(dx, dy)
        if dx or dy:
            self.resetCachedContent()


class MapView(FreshBackgroundView):
    """The dungeon map on screen. Emits requests; never edits the dungeon itself."""

    move_requested = Signal(str)  # side N/E/S/W of the hero's area
    enter_requested = Signal()  # the entrance clicked while the hero is outside
    leave_requested = Signal()  # the entrance's south exit clicked from the entrance area
    door_open_requested = Signal(str, str)  # pos_key, side: a closed door clicked (try to open it)
    secret_passage_requested = Signal(str, str)  # pos_key, side: solid rock clicked while progress is blocked
    place_tile_requested = Signal(int, int, int, int)  # col, row, tile, rotation
    delete_area_requested = Signal(str)
    door_edit_requested = Signal(str, str)  # pos_key, side: the door tool clicked an exit
    door_set_requested = Signal(str, str, str, object, bool)  # pos_key, side, type ("" = no door), roll|None, is_open
    note_add_requested = Signal(str, str)  # pos_key, text
    note_move_requested = Signal(str, int, int, int)  # pos_key, ref, square x, square y
    edit_mode_changed = Signal(bool)
    message = Signal(str)  # why a click did nothing

    def __init__(self, scene: MapScene | None = None, parent: QWidget | None = None, tileset: TileSet | None = None) -> None:
        super().__init__(parent)
        self.setAccessibleName("Dungeon map")
        self._scene = scene or MapScene(parent=self)
        self.setScene(self._scene)
        self._tileset = tileset
        self._edit = False
        self._exits: dict[str, ExitState] = {}
        self._blocked: bool | None = None
        self._means: PassageMeans | None = None  # the hero's means, for the secret-passage rule (set_passage_means)
        self._press: QPoint | None = None
        self._press_button = Qt.MouseButton.NoButton
        self._panning = False
        self._last: QPoint | None = None
        self._hover: QPointF | None = None
        self._highlighted: list[tuple[str, str]] = []
        #: the edit tools (tool, tile, rotation, the door and note dialogs); their ``ask_door`` and
        #: ``ask_note_text`` are replaceable (tests answer without a dialog)
        self.edit_tools = EditTools(self, self._ask_door_dialog, self._ask_note_dialog)

        self.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.TextAntialiasing)
        self.setViewportUpdateMode(QGraphicsView.ViewportUpdateMode.MinimalViewportUpdate)
        self.setOptimizationFlag(QGraphicsView.OptimizationFlag.DontSavePainterState, True)
        self.setCacheMode(QGraphicsView.CacheModeFlag.CacheBackground)
        self.setMouseTracking(True)
        self.setFrameShape(QFrame.Shape.NoFrame)

    # ------------------------------------------------------------------ model
    @property
    def map_scene(self) -> MapScene:
        return self._scene

    @property
    def dungeon(self) -> Dungeon | None:
        return self._scene.dungeon

    def set_dungeon(self, dungeon: Dungeon | None) -> None:
        """Show a new state of the dungeon (the main window calls this on ``map_changed``)."""
        self._scene.set_dungeon(dungeon)
        self._exits = hero_exit_states(dungeon)
        self._blocked = None
        self.edit_tools.forget_ghost()
        self._refresh_hover()

    def set_style(self, style: MapStyle) -> None:
        """Change the look (e.g. dark theme, black-and-white); the dungeon is drawn again."""
        self._scene.set_style(style)
        self.edit_tools.forget_ghost()
        self._zoomed()
        self.resetCachedContent()

    def set_tileset(self, tileset: TileSet) -> None:
        self._tileset = tileset
        self.edit_tools.forget_ghost()

    def tileset(self) -> TileSet:
        if self._tileset is None:
            self._tileset = standard_tileset()
        return self._tileset

    # ------------------------------------------------------------------ edit mode
    @property
    def edit_mode(self) -> bool:
        return self._edit

    @property
    def tool(self) -> str:
        return self.edit_tools.tool

    def set_edit_mode(self, on: bool) -> None:
        if on == self._edit:
            return
        self._edit = on
        self.edit_tools.note_drag = None
        self._refresh_hover()
        self.edit_mode_changed.emit(on)

    def set_tool(self, tool: str) -> None:
        self.edit_tools.set_tool(tool)
        self._refresh_hover()

    def set_tile(self, number: int) -> None:
        self.edit_tools.set_tile(number)
        self._refresh_hover()

    def set_rotation(self, rotation: int) -> None:
        self.edit_tools.set_rotation(rotation)
        self._refresh_hover()

    # ------------------------------------------------------------------ zoom and pan
    def fit_to_dungeon(self) -> None:
        """Show every mapped area (the whole sheet while nothing is mapped)."""
        self.fit_rect(self._scene.dungeon_rect())

    def _zoomed(self) -> None:
        self._scene.set_overview(self.zoom * self._scene.style.square < OVERVIEW_BELOW_PX)
        super()._zoomed()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        key = event.key()
        if self.navigate(event, max(40.0, self._scene.style.area * self.zoom)):
            event.accept()
            return
        if key in (Qt.Key.Key_Home, Qt.Key.Key_F):
            self.fit_to_dungeon()
        elif key == Qt.Key.Key_Escape and self.edit_tools.note_drag is not None:
            self.edit_tools.note_drag = None
            self._refresh_hover()
        else:
            super().keyPressEvent(event)
            return
        event.accept()

    # ------------------------------------------------------------------ mouse
    def mousePressEvent(self, event: QMouseEvent) -> None:
        self._press = event.position().toPoint()
        self._last = self._press
        self._press_button = event.button()
        self._panning = event.button() == Qt.MouseButton.MiddleButton
        self.edit_tools.note_drag = None
        if event.button() == Qt.MouseButton.LeftButton and self._edit:
            self.edit_tools.press(self.mapToScene(self._press))
        if self._panning:
            self.viewport().setCursor(Qt.CursorShape.ClosedHandCursor)
        event.accept()

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        pos = event.position().toPoint()
        if self._press is not None and event.buttons() != Qt.MouseButton.NoButton:
            far = (pos - self._press).manhattanLength() >= QApplication.startDragDistance()
            if self.edit_tools.note_drag is not None:
                if far:
                    self.edit_tools.show_note_drop(self.mapToScene(pos))
            else:
                if far and not self._panning:
                    self._panning = True
                    self.viewport().setCursor(Qt.CursorShape.ClosedHandCursor)
                if self._panning and self._last is not None:
                    d = pos - self._last
                    self.pan_by(-d.x(), -d.y())
            self._last = pos
            event.accept()
            return
        self._hover = self.mapToScene(pos)
        self._refresh_hover()
        event.accept()

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        pos = event.position().toPoint()
        press, button, panning, drag = self._press, self._press_button, self._panning, self.edit_tools.note_drag
        self._press = None
        self._panning = False
        self.edit_tools.note_drag = None
        self.viewport().unsetCursor()
        if press is None or event.button() != button:
            return
        scene_pos = self.mapToScene(pos)
        far = (pos - press).manhattanLength() >= QApplication.startDragDistance()
        if drag is not None and far:
            self.edit_tools.drop_note(drag, scene_pos)
        elif button == Qt.MouseButton.LeftButton and not panning:
            self.click_at(scene_pos)
        self._hover = scene_pos
        self._refresh_hover()
        event.accept()

    def leaveEvent(self, event: QEvent) -> None:
        self._hover = None
        self._refresh_hover()
        super().leaveEvent(event)

    def viewportEvent(self, event: QEvent) -> bool:
        if isinstance(event, QHelpEvent) and event.type() == QEvent.Type.ToolTip:
            text = self.tooltip_at(self.mapToScene(event.pos()))
            if text:
                QToolTip.showText(event.globalPos(), text, self.viewport())
            else:
                QToolTip.hideText()
            return True
        return super().viewportEvent(event)

    # ------------------------------------------------------------------ what a click means
    def click_at(self, scene_pos: QPointF) -> None:
        """Act on a left click at a scene point (also called by tests and keyboard helpers)."""
        if self._edit:
            self.edit_tools.click(scene_pos)
        else:
            self._play_click(scene_pos)

    def set_passage_means(self, means: PassageMeans | None) -> None:
        """Where the secret-passage offer reads the hero's means (the window gives the campaign, rules and tables).

        With them a secret passage is offered only when no way on can be opened with what the hero
        has (:func:`~d100gui.engine.adventure.doors.secret_passage_allowed`: a jammed door can always be
        forced, a magic seal opens with an Open Magic scroll); without, only when every way on is shut."""
        self._means = means
        self._blocked = None

    def _progress_blocked(self) -> bool:
        if self._blocked is None:
            d = self.dungeon
            if d is None:
                self._blocked = False
            elif self._means is not None:
                campaign, rules, library = self._means()
                self._blocked = secret_passage_allowed(campaign, rules, library)
            else:
                self._blocked = progress_blocked(d)
        return self._blocked

    def _hero_side_at(self, scene_pos: QPointF) -> str | None:
        return hero_side_at(self._scene, self.dungeon, scene_pos)

    def _play_click(self, scene_pos: QPointF) -> None:
        signals = {
            "enter": self.enter_requested,
            "leave": self.leave_requested,
            "move": self.move_requested,
            "door_open": self.door_open_requested,
            "secret_passage": self.secret_passage_requested,
            "message": self.message,
        }
        self._blocked = None  # the hero's means may have changed since (a pick spent, a scroll read)
        for request in play_click(self._scene, self.dungeon, self._exits, scene_pos, self._progress_blocked):
            signals[request.kind].emit(*request.args)

    # ------------------------------------------------------------------ hover
    def highlighted_exits(self) -> list[tuple[str, str]]:
        """``(side, state)`` of the hero's exits highlighted now (strongest first)."""
        return list(self._highlighted)

    def _refresh_hover(self) -> None:
        marks: list[Mark] = []
        ghost = None
        highlighted: list[tuple[str, str]] = []
        at = self._hover
        cursor = Qt.CursorShape.ArrowCursor
        d = self.dungeon
        if at is not None and d is not None:
            if self._edit:
                ghost, cursor = self.edit_tools.hover(d, at, marks)
            else:
                cursor = self._play_hover(d, at, marks, highlighted)
        self._highlighted = highlighted
        self._scene.overlay.set_marks(marks, ghost)
        if self._press is None:
            self.viewport().setCursor(cursor)

    def _play_hover(self, d: Dungeon, at: QPointF, marks: list[Mark], highlighted: list[tuple[str, str]]) -> Qt.CursorShape:
        if d.hero is None:
            if in_entrance(self._scene, d, at):
                marks.append(Mark(self._scene.area_rect(d.entrance), *GO_FAINT))
                return Qt.CursorShape.PointingHandCursor
            return Qt.CursorShape.ArrowCursor
        side = self._hero_side_at(at)
        near = self._scene.area_rect(d.hero).adjusted(-20, -20, 20, 20).contains(at)
        found, lit = exit_marks(self._scene, d.hero, self._exits, side, near)
        marks.extend(found)
        highlighted.extend(lit)
        strong = side is not None and any(s == side for s, _ in lit)
        return Qt.CursorShape.PointingHandCursor if strong else Qt.CursorShape.ArrowCursor

    def tooltip_at(self, scene_pos: QPointF) -> str:
        """What hovering a point tells the player: the area, its notes, the exit's door."""
        d = self.dungeon
        if d is None:
            return ""
        area = self._scene.area_at(scene_pos)
        if area is None:
            return ""
        found = self._scene.exit_at(scene_pos)
        lines = describe_area(area, found[1] if found is not None and found[0] == area.key else None)
        if d.hero == area.pos and not self._edit:
            side = self._hero_side_at(scene_pos)
            state = self._exits.get(side) if side else None
            if state is not None and state.state == "go":
                target = neighbour(area.pos, side)  # type: ignore[arg-type]
                verb = "Move" if d.area_at(target) is not None else "Explore"
                lines.append(f"Click: {verb} {DIRECTION_NAMES[side]}")  # type: ignore[index]
            elif state is not None and state.reason:
                lines.append(state.reason)
        return "\n".join(lines)

    # ------------------------------------------------------------------ default dialogs
    def _ask_door_dialog(self, where: str, door: Door | None) -> DoorChoice | None:
        dialog = DoorEditDialog(door, where, self.edit_tools.door_types, self)
        return dialog.choice() if dialog.exec() == QDialog.DialogCode.Accepted else None

    def _ask_note_dialog(self, where: str) -> str | None:
        text, ok = QInputDialog.getText(self, "Add a note", f"Note on {where}:")
        return text if ok else None


# --------------------------------------------------------------------------- door dialog


class DoorEditDialog(QDialog):
    """Edit the door on one exit: type (Table D abbreviation or any other), roll, open or closed."""

    OTHER = "Other…"
    NO_DOOR = "No door"

    def __init__(
        self,
        door: Door | None,
        where: str = "this exit",
        types: Sequence[str] = DEFAULT_DOOR_TYPES,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Edit door")
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel(f"Door on {where}"))
        form = QFormLayout()
        self.type_box = QComboBox()
        self.type_box.addItems([*types, self.OTHER, self.NO_DOOR])
        self.other_edit = QLineEdit()
        self.other_edit.setPlaceholderText("type, e.g. PD")
        self.other_edit.setMaxLength(12)
        self.roll_spin = QSpinBox()
        self.roll_spin.setRange(0, 100)
        self.roll_spin.setSpecialValueText("none")
        self.open_box = QCheckBox("The door stands open")
        form.addRow("Type", self.type_box)
        form.addRow("Other type", self.other_edit)
        form.addRow("Table D roll", self.roll_spin)
        form.addRow("", self.open_box)
        layout.addLayout(form)
        self.error_label = QLabel()
        self.error_label.setStyleSheet("color: #c0392b;")
        layout.addWidget(self.error_label)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self._try_accept)
        self.buttons.rejected.connect(self.reject)
        layout.addWidget(self.buttons)
        self.type_box.currentTextChanged.connect(self._type_changed)

        if door is not None and not door.pending:
            if door.type in types:
                self.type_box.setCurrentText(door.type)
            else:
                self.type_box.setCurrentText(self.OTHER)
                self.other_edit.setText(door.type)
        self.roll_spin.setValue(door.roll or 0 if door is not None else 0)
        self.open_box.setChecked(bool(door is not None and door.is_open))
        self._type_changed(self.type_box.currentText())

    def _type_changed(self, text: str) -> None:
        self.other_edit.setEnabled(text == self.OTHER)
        self.roll_spin.setEnabled(text != self.NO_DOOR)
        self.open_box.setEnabled(text not in (self.NO_DOOR, OPEN_DOOR))
        if text == OPEN_DOOR:
            self.open_box.setChecked(True)

    def choice(self) -> DoorChoice:
        text = self.type_box.currentText()
        if text == self.NO_DOOR:
            return DoorChoice("", None, True)
        kind = self.other_edit.text().strip().upper() if text == self.OTHER else text
        roll = self.roll_spin.value() or None
        return DoorChoice(kind, roll, True if kind == OPEN_DOOR else self.open_box.isChecked())

    def _try_accept(self) -> None:
        if self.type_box.currentText() == self.OTHER and not self.other_edit.text().strip():
            self.error_label.setText("Type the door's abbreviation, e.g. PD.")
            return
        self.accept()


# --------------------------------------------------------------------------- edit panel


class TilePreview(QWidget):
    """A drawn Table M tile at a rotation, as it would land on the map."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._tile: Tile | None = None
        self._rotation = 0
        self.setFixedSize(QSize(60, 60))

    def set_tile(self, tile: Tile | None, rotation: int = 0) -> None:
        self._tile = tile
        self._rotation = rotation
        self.update()

    def paintEvent(self, event: QPaintEvent) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        p.fillRect(self.rect(), MapStyle().palette.paper)
        if self._tile is not None:
            paint_tile(p, QRectF(self.rect()).adjusted(4, 4, -4, -4), self._tile, self._rotation)
        p.end()


class MapEditPanel(QWidget):
    """The map-edit tool bar: edit mode, tool, tile (with a preview) and rotation.

    It only reports choices; the main window connects it to a :class:`MapView`.
    """

    edit_mode_toggled = Signal(bool)
    tool_changed = Signal(str)
    tile_changed = Signal(int)
    rotation_changed = Signal(int)

    def __init__(self, tileset: TileSet | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._tileset = tileset or standard_tileset()
        rows = QVBoxLayout(self)  # the tools above, the tile below: narrow enough for a 1280 px screen
        rows.setContentsMargins(4, 2, 4, 2)
        rows.setSpacing(2)
        row = QHBoxLayout()
        rows.addLayout(row)
        self.edit_button = QToolButton()
        self.edit_button.setText("Edit map")
        self.edit_button.setCheckable(True)
        self.edit_button.setToolTip("Edit the map by hand: place or delete tiles, edit doors, add or move notes")
        row.addWidget(self.edit_button)
        self.tool_group = QButtonGroup(self)
        self.tool_group.setExclusive(True)
        self.tool_buttons: dict[str, QToolButton] = {}
        for tool in TOOLS:
            button = QToolButton()
            button.setText(TOOL_NAMES[tool])
            button.setToolTip(TOOL_TIPS[tool])
            button.setCheckable(True)
            self.tool_group.addButton(button)
            self.tool_buttons[tool] = button
            row.addWidget(button)
        self.tool_buttons["place"].setChecked(True)
        row.addStretch(1)
        row = QHBoxLayout()
        rows.addLayout(row)
        row.addWidget(QLabel("Tile"))
        self.tile_spin = QSpinBox()
        self.tile_spin.setRange(1, TILE_COUNT)
        row.addWidget(self.tile_spin)
        self.preview = TilePreview()
        row.addWidget(self.preview)
        self.rotation_box = QComboBox()
        for r in (0, 90, 180, 270):
            self.rotation_box.addItem(f"{r}°", r)
        row.addWidget(self.rotation_box)
        self.tile_label = QLabel()  # as wide as its words: the panel scrolls sideways if it must
        row.addWidget(self.tile_label)
        row.addStretch(1)

        self.edit_button.toggled.connect(self._edit_toggled)
        self.tool_group.buttonToggled.connect(self._tool_toggled)
        self.tile_spin.valueChanged.connect(self._tile_changed)
        self.rotation_box.currentIndexChanged.connect(self._rotation_changed)
        self._edit_toggled(False)
        self._update_preview()

    @property
    def tool(self) -> str:
        return next((t for t, b in self.tool_buttons.items() if b.isChecked()), "place")

    @property
    def tile(self) -> int:
        return self.tile_spin.value()

    @property
    def rotation(self) -> int:
        return int(self.rotation_box.currentData())

    def set_tileset(self, tileset: TileSet) -> None:
        self._tileset = tileset
        self._update_preview()

    def set_edit_mode(self, on: bool) -> None:
        """Follow the view's edit mode without echoing the change back."""
        blocked = self.edit_button.blockSignals(True)
        self.edit_button.setChecked(on)
        self.edit_button.blockSignals(blocked)
        self._enable(on)

    def set_rotation(self, rotation: int) -> None:
        self.rotation_box.setCurrentIndex((0, 90, 180, 270).index(rotation))

    def _enable(self, on: bool) -> None:
        """The tools work only in edit mode; greyed, each says how to turn it on."""
        tools: list[tuple[str, QWidget]] = [*self.tool_buttons.items(), ("tile", self.tile_spin), ("rotation", self.rotation_box)]
        for name, widget in tools:
            widget.setEnabled(on)
            widget.setToolTip(TOOL_TIPS[name] if on else f"{TOOL_TIPS[name]}. {EDIT_OFF_TIP}")
        self.preview.setEnabled(on)

    def _edit_toggled(self, on: bool) -> None:
        self._enable(on)
        self.edit_mode_toggled.emit(on)

    def _tool_toggled(self, button: QAbstractButton, checked: bool) -> None:
        if checked:
            self.tool_changed.emit(self.tool)

    def _tile_changed(self, value: int) -> None:
        self._update_preview()
        self.tile_changed.emit(value)

    def _rotation_changed(self, _index: int) -> None:
        self._update_preview()
        self.rotation_changed.emit(self.rotation)

    def _update_preview(self) -> None:
        try:
            tile = self._tileset.tile(self.tile)
        except KeyError:
            self.preview.set_tile(None)
            self.tile_label.setText("(no such tile)")
            return
        self.preview.set_tile(tile, self.rotation)
        name = tile.name or f"Tile {tile.number}"
        self.tile_label.setText(f"{name} — {COLOUR_NAMES[tile.colour]}, {tile.kind}")
