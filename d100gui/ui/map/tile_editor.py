"""The tile editor: transcribe a printed Table M into a tile set of the player's own.

A 10x10 overview of the 100 tiles (drawn as on the map, bordered in their colour, problems
marked) and a big editor for the selected tile: click a square to toggle floor and rock,
click beside a side middle (ahead, left, right) to cycle its exit none -> open -> door, pick
the colour and the name. Problems are checked live with the engine's own rules
(:func:`~d100gui.engine.dungeon.tiles.check_tile`), and a set with any problem is never saved,
imported or exported: the message names the tile and the reason.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QPointF, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QColor, QImage, QMouseEvent, QPainter, QPaintEvent, QPen, QPolygonF
from PySide6.QtWidgets import (
    QAbstractButton,
    QButtonGroup,
    QDialog,
    QFileDialog,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QRadioButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from d100gui.engine.dungeon.tiles import (
    COLOUR_MEANINGS,
    COLOUR_NAMES,
    TILE_COUNT,
    TILE_SIDES,
    ExitType,
    Tile,
    TileProblem,
    TileSet,
    TileSetInvalid,
    check_tile,
    validate_tileset,
)
from d100gui.storage import tilesets as storage
from d100gui.ui.common.settings import Preferences
from d100gui.ui.map.drawing import paint_drawing, paint_tile, tile_drawing
from d100gui.ui.map.style import DETAIL_FULL, MapPalette, MapStyle

#: The border colours of the printed Table M: yellow/orange, red/pink, green, blue.
BORDER_COLOURS: dict[str, QColor] = {
    "Y": QColor("#e0a100"),
    "R": QColor("#e0566a"),
    "G": QColor("#3a9d4a"),
    "B": QColor("#3a78d0"),
}
EXIT_CYCLE: tuple[ExitType | None, ...] = (None, "open", "door")
PROBLEM_COLOUR = QColor("#c0392b")


def _copy_floor(floor: list[list[bool]]) -> list[list[bool]]:
    return [list(row) for row in floor]


# --------------------------------------------------------------------------- the big editor


class TileCanvas(QWidget):
    """One tile, big: squares to click, and exit handles beside the side middles."""

    square_clicked = Signal(int, int)
    side_clicked = Signal(str)  # ahead | left | right | back

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._tile: Tile | None = None
        self.setMinimumSize(QSize(260, 260))
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setCursor(Qt.CursorShape.PointingHandCursor)

    def set_tile(self, tile: Tile | None) -> None:
        self._tile = tile
        self.update()

    # geometry (public so tests click exactly where a player would)
    def cell(self) -> float:
        return min(self.width(), self.height()) / 4.0

    def grid_rect(self) -> QRectF:
        c = self.cell()
        centre = QRectF(self.rect()).center()
        return QRectF(centre.x() - 1.5 * c, centre.y() - 1.5 * c, 3 * c, 3 * c)

    def square_centre(self, x: int, y: int) -> QPointF:
        g, c = self.grid_rect(), self.cell()
        return QPointF(g.x() + (x + 0.5) * c, g.y() + (y + 0.5) * c)

    def side_point(self, side: str) -> QPointF:
        """The middle of the handle for a tile side (in the margin beside its side middle)."""
        g, c = self.grid_rect(), self.cell()
        centre = g.center()
        return {
            "ahead": QPointF(centre.x(), g.top() - 0.32 * c),
            "left": QPointF(g.left() - 0.32 * c, centre.y()),
            "right": QPointF(g.right() + 0.32 * c, centre.y()),
            "back": QPointF(centre.x(), g.bottom() + 0.25 * c),
        }[side]

    def hit(self, point: QPointF) -> tuple[str, tuple[int, int] | str] | None:
        """``("square", (x, y))``, ``("side", name)`` or None for a widget point."""
        g, c = self.grid_rect(), self.cell()
        if g.contains(point):
            x = min(2, int((point.x() - g.x()) / c))
            y = min(2, int((point.y() - g.y()) / c))
            return "square", (x, y)
        for side in ("ahead", "left", "right", "back"):
            p = self.side_point(side)
            if abs(point.x() - p.x()) <= 0.5 * c and abs(point.y() - p.y()) <= 0.5 * c:
                return "side", side
        return None

    def mousePressEvent(self, event: QMouseEvent) -> None:
        if event.button() != Qt.MouseButton.LeftButton:
            return
        found = self.hit(event.position())
        if found is None:
            return
        value = found[1]
        if isinstance(value, tuple):
            self.square_clicked.emit(value[0], value[1])
        else:
            self.side_clicked.emit(value)

    def paintEvent(self, event: QPaintEvent) -> None:
        p = QPainter(self)
        p.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.TextAntialiasing)
        style = MapStyle()
        p.fillRect(self.rect(), style.palette.paper)
        tile = self._tile
        if tile is not None:
            self._paint_tile(p, tile, style)
            self._paint_handles(p, tile, style.palette)
            self._paint_entry(p, style.palette)
        p.end()

    def _paint_tile(self, p: QPainter, tile: Tile, style: MapStyle) -> None:
        """The tile as it will look on the map, its squares thinly (each a click target), its colour's border."""
        g, c = self.grid_rect(), self.cell()
        pal = style.palette
        p.save()
        p.translate(g.topLeft())
        k = c / style.square
        p.scale(k, k)
        paint_drawing(p, tile_drawing(tile, 0, style.square, code=False), style, DETAIL_FULL)
        p.restore()
        p.setPen(QPen(pal.grid, 1))
        p.setBrush(Qt.BrushStyle.NoBrush)
        for i in range(4):
            p.drawLine(QPointF(g.x() + i * c, g.top()), QPointF(g.x() + i * c, g.bottom()))
            p.drawLine(QPointF(g.left(), g.y() + i * c), QPointF(g.right(), g.y() + i * c))
        p.setPen(QPen(BORDER_COLOURS[tile.colour], max(3.0, c * 0.06)))
        p.drawRect(g.adjusted(-0.5 * c + 2, -0.5 * c + 2, 0.5 * c - 2, 0.5 * c - 2))

    def _paint_handles(self, p: QPainter, tile: Tile, pal: MapPalette) -> None:
        """Exit handles: none / open / door."""
        c = self.cell()
        font = p.font()
        font.setPixelSize(max(8, round(c * 0.12)))
        p.setFont(font)
        for side in TILE_SIDES:
            state = tile.exits.get(side)
            centre = self.side_point(side)
            half_w = 0.3 * c if side == "ahead" else 0.17 * c
            box = QRectF(centre.x() - half_w, centre.y() - 0.13 * c, 2 * half_w, 0.26 * c)
            if state is None:
                p.setPen(QPen(pal.hatch, 1, Qt.PenStyle.DotLine))
                p.setBrush(Qt.BrushStyle.NoBrush)
                text = "none"
            elif state == "open":
                p.setPen(QPen(QColor("#2e7d32"), 2))
                p.setBrush(QColor(46, 158, 79, 40))
                text = "open"
            else:
                p.setPen(QPen(pal.door_closed, 2))
                p.setBrush(QColor(122, 74, 34, 50))
                text = "door"
            p.drawRoundedRect(box, 4, 4)
            p.setPen(pal.ink)
            p.drawText(box, int(Qt.AlignmentFlag.AlignCenter), text)

    def _paint_entry(self, p: QPainter, pal: MapPalette) -> None:
        """The entry: always open, drawn as an arrow coming in from below."""
        c = self.cell()
        entry = self.side_point("back")
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(pal.ink)
        tip = QPointF(entry.x(), entry.y() - 0.12 * c)
        p.drawPolygon(
            QPolygonF(
                [tip, QPointF(entry.x() - 0.1 * c, entry.y() + 0.02 * c), QPointF(entry.x() + 0.1 * c, entry.y() + 0.02 * c)]
            )
        )
        p.setPen(pal.ink)
        p.drawText(QRectF(entry.x() - c, entry.y() + 0.02 * c, 2 * c, 0.22 * c), int(Qt.AlignmentFlag.AlignCenter), "entry")


# --------------------------------------------------------------------------- the overview


class TileOverview(QWidget):
    """All 100 tiles in a 10x10 grid, in their colours; click one to edit it."""

    tile_clicked = Signal(int)

    CELL = 52

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._tiles: dict[int, Tile] = {}
        self._current = 1
        self._problems: set[int] = set()
        self._cache: dict[int, QImage] = {}
        self.setFixedSize(QSize(10 * self.CELL + 2, 10 * self.CELL + 2))
        self.setCursor(Qt.CursorShape.PointingHandCursor)

    def set_tiles(self, tiles: dict[int, Tile]) -> None:
        self._tiles = tiles
        self._cache.clear()
        self.update()

    def tile_changed(self, number: int) -> None:
        self._cache.pop(number, None)
        self.update(self.cell_rect(number).toAlignedRect().adjusted(-2, -2, 2, 2))

    def set_current(self, number: int) -> None:
        self._current = number
        self.update()

    def set_problems(self, numbers: set[int]) -> None:
        if numbers != self._problems:
            self._problems = set(numbers)
            self.update()

    @property
    def problems(self) -> set[int]:
        return set(self._problems)

    def cell_rect(self, number: int) -> QRectF:
        i = number - 1
        return QRectF(1 + (i % 10) * self.CELL, 1 + (i // 10) * self.CELL, self.CELL, self.CELL)

    def number_at(self, point: QPointF) -> int | None:
        col, row = int((point.x() - 1) // self.CELL), int((point.y() - 1) // self.CELL)
        if 0 <= col < 10 and 0 <= row < 10:
            return row * 10 + col + 1
        return None

    def mousePressEvent(self, event: QMouseEvent) -> None:
        number = self.number_at(event.position())
        if number is not None and event.button() == Qt.MouseButton.LeftButton:
            self.tile_clicked.emit(number)

    def _image(self, number: int) -> QImage:
        image = self._cache.get(number)
        if image is None:
            image = QImage(self.CELL, self.CELL, QImage.Format.Format_ARGB32_Premultiplied)
            image.fill(MapStyle().palette.paper)
            p = QPainter(image)
            p.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.TextAntialiasing)
            tile = self._tiles.get(number)
            if tile is not None:
                paint_tile(p, QRectF(7, 9, self.CELL - 14, self.CELL - 14), tile)
                p.setPen(QPen(BORDER_COLOURS.get(tile.colour, QColor("grey")), 3))
                p.setBrush(Qt.BrushStyle.NoBrush)
                p.drawRect(QRectF(2.5, 2.5, self.CELL - 5, self.CELL - 5))
            p.end()
            self._cache[number] = image
        return image

    def paintEvent(self, event: QPaintEvent) -> None:
        p = QPainter(self)
        p.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.TextAntialiasing)
        font = p.font()
        font.setPixelSize(10)
        font.setBold(True)
        p.setFont(font)
        for number in range(1, TILE_COUNT + 1):
            rect = self.cell_rect(number)
            if not rect.intersects(QRectF(event.rect())):
                continue
            p.drawImage(rect.topLeft(), self._image(number))
            bad = number in self._problems
            label = QRectF(rect.x() + 4, rect.y() + 3, 26, 12)
            p.fillRect(label, PROBLEM_COLOUR if bad else QColor(255, 255, 255, 215))
            p.setPen(QColor("white") if bad else QColor("#222222"))
            p.drawText(label, int(Qt.AlignmentFlag.AlignCenter), f"{number}{'!' if bad else ''}")
            if number == self._current:
                p.setPen(QPen(self.palette().highlight().color(), 3))
                p.setBrush(Qt.BrushStyle.NoBrush)
                p.drawRect(rect.adjusted(0.5, 0.5, -0.5, -0.5))
        p.end()


# --------------------------------------------------------------------------- the dialog


class TileEditorDialog(QDialog):
    """Edit a whole tile set; save it as a named set of the player's, import or export JSON."""

    tileset_saved = Signal(str)  # id of a set saved or imported into the player's tile sets

    def __init__(self, tileset: TileSet, parent: QWidget | None = None, folders: Preferences | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Tile editor — Table M")
        self._folders = folders or Preferences()  # where the import/export dialogs start
        self._source = tileset
        self._tiles: dict[int, Tile] = {}
        self._current = 1
        self._dirty = False
        #: Ask for a file to import / a file to export to; replaceable (tests answer directly).
        self.ask_open_path: Callable[[], Path | None] = self._ask_open_dialog
        self.ask_save_path: Callable[[str], Path | None] = self._ask_save_dialog
        self.confirm_discard: Callable[[], bool] = self._confirm_discard_dialog
        self._build()
        self._load(tileset)

    # ------------------------------------------------------------------ build
    def _build(self) -> None:
        outer = QVBoxLayout(self)
        body = QHBoxLayout()
        outer.addLayout(body)
        body.addLayout(self._build_overview())
        body.addLayout(self._build_tile_side(), 1)
        outer.addLayout(self._build_set_row())
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        outer.addWidget(self.status)
        self._connect()

    def _build_overview(self) -> QVBoxLayout:
        left = QVBoxLayout()
        left.addWidget(QLabel("Table M — click a tile to edit it (! marks a tile with a problem)"))
        self.overview = TileOverview()
        left.addWidget(self.overview)
        self.set_summary = QLabel()
        self.set_summary.setWordWrap(True)
        left.addWidget(self.set_summary)
        left.addStretch(1)
        return left

    def _build_tile_side(self) -> QVBoxLayout:
        right = QVBoxLayout()
        self.tile_title = QLabel()
        font = self.tile_title.font()
        font.setPointSizeF(font.pointSizeF() * 1.3)
        font.setBold(True)
        self.tile_title.setFont(font)
        right.addWidget(self.tile_title)
        self.canvas = TileCanvas()
        right.addWidget(self.canvas, 1)
        hint = QLabel(
            "Click a square to switch floor and rock. Click the box beside a side middle to cycle its exit: "
            "none → open → door. The entry (bottom middle) is always open."
        )
        hint.setWordWrap(True)
        right.addWidget(hint)
        right.addWidget(self._build_colours())
        name_row = QHBoxLayout()
        name_row.addWidget(QLabel("Tile name"))
        self.name_edit = QLineEdit()
        self.name_edit.setMaxLength(40)
        self.name_edit.setToolTip("The tile's name, as your printed sheet gives it")
        name_row.addWidget(self.name_edit)
        right.addLayout(name_row)
        self.problems_label = QLabel()
        self.problems_label.setObjectName("errorLabel")
        self.problems_label.setWordWrap(True)
        self.problems_label.setStyleSheet("color: #c0392b;")
        right.addWidget(self.problems_label)
        return right

    def _build_colours(self) -> QGroupBox:
        colours = QGroupBox("Colour")
        grid = QGridLayout(colours)
        self.colour_group = QButtonGroup(self)
        self.colour_buttons: dict[str, QRadioButton] = {}
        for i, code in enumerate(("Y", "R", "G", "B")):
            button = QRadioButton(f"{COLOUR_NAMES[code].capitalize()} ({code}) — {COLOUR_MEANINGS[code]}")
            swatch = BORDER_COLOURS[code].name()
            button.setStyleSheet(f"QRadioButton::indicator {{ border: 3px solid {swatch}; border-radius: 8px; }}")
            self.colour_group.addButton(button)
            self.colour_buttons[code] = button
            button.setToolTip(f"The area's colour: {COLOUR_MEANINGS[code]}")
            grid.addWidget(button, i // 2, i % 2)
        return colours

    def _build_set_row(self) -> QHBoxLayout:
        bottom = QHBoxLayout()
        bottom.addWidget(QLabel("Set name"))
        self.set_name_edit = QLineEdit()
        self.set_name_edit.setMaxLength(60)
        self.set_name_edit.setToolTip("The name of your tile set, as the Map > Tile set menu lists it")
        bottom.addWidget(self.set_name_edit, 1)
        self.save_button = QPushButton("Save as set")
        self.save_button.setToolTip("Save these tiles as your own tile set, usable at once")
        self.import_button = QPushButton("Import JSON…")
        self.import_button.setToolTip("Load a tile set from a JSON file")
        self.export_button = QPushButton("Export JSON…")
        self.export_button.setToolTip("Write this tile set to a JSON file")
        self.close_button = QPushButton("Close")
        self.close_button.setToolTip("Close the tile editor (a set not saved is lost)")
        for b in (self.save_button, self.import_button, self.export_button, self.close_button):
            bottom.addWidget(b)
        return bottom

    def _connect(self) -> None:
        self.overview.tile_clicked.connect(self.select)
        self.canvas.square_clicked.connect(self.toggle_square)
        self.canvas.side_clicked.connect(self._side_clicked)
        self.colour_group.buttonToggled.connect(self._colour_toggled)
        self.name_edit.textEdited.connect(self.set_tile_name)
        self.save_button.clicked.connect(lambda: self.save())
        self.import_button.clicked.connect(self._import_clicked)
        self.export_button.clicked.connect(self._export_clicked)
        self.close_button.clicked.connect(self.reject)

    def _load(self, tileset: TileSet) -> None:
        self._source = tileset
        self._tiles = {t.number: t.model_copy(deep=True) for t in tileset.tiles}
        self.set_name_edit.setText(tileset.title if tileset.id != storage.STANDARD_ID else f"{tileset.title} (my copy)")
        self.overview.set_tiles(self._tiles)
        self._dirty = False
        self.select(min(self._tiles) if self._tiles else 1)
        self._validate_all()

    # ------------------------------------------------------------------ state
    @property
    def current(self) -> int:
        return self._current

    @property
    def dirty(self) -> bool:
        return self._dirty

    def tile(self, number: int | None = None) -> Tile:
        return self._tiles[self._current if number is None else number]

    def edited_tileset(self) -> TileSet:
        """The set as edited (it may still have problems)."""
        return self._source.model_copy(
            update={
                "title": self.set_name_edit.text().strip() or self._source.title,
                "tiles": [self._tiles[n] for n in sorted(self._tiles)],
            }
        )

    def tile_problems(self, number: int | None = None) -> list[str]:
        return check_tile(self.tile(number))

    def set_problems(self) -> list[TileProblem]:
        """Every problem the set has, as the loader would report it (tile number and reason)."""
        data = self.edited_tileset().model_dump()
        return validate_tileset(data, self.set_name_edit.text().strip() or "tile set")

    # ------------------------------------------------------------------ edits
    def select(self, number: int) -> None:
        if number not in self._tiles:
            return
        self._current = number
        tile = self._tiles[number]
        self.overview.set_current(number)
        self.canvas.set_tile(tile)
        self.tile_title.setText(f"Tile {number}" + (f" — {tile.name}" if tile.name else "") + f"  ({tile.kind})")
        blocked = self.colour_group.blockSignals(True)
        self.colour_buttons[tile.colour].setChecked(True)
        self.colour_group.blockSignals(blocked)
        if self.name_edit.text() != tile.name:
            self.name_edit.setText(tile.name)
        self._show_tile_problems()

    def _replace(self, tile: Tile) -> None:
        self._tiles[tile.number] = tile
        self._dirty = True
        self.overview.tile_changed(tile.number)
        self.select(tile.number)
        self._validate_all()

    def toggle_square(self, x: int, y: int) -> None:
        """Floor becomes rock and rock becomes floor."""
        tile = self.tile()
        floor = _copy_floor(tile.floor)
        floor[y][x] = not floor[y][x]
        self._replace(tile.model_copy(update={"floor": floor}))

    def cycle_exit(self, side: str) -> str | None:
        """The exit on ``side`` (ahead, left or right) goes none -> open -> door -> none."""
        if side not in TILE_SIDES:
            raise ValueError(f"{side!r} is not a tile side that holds an exit: use ahead, left or right")
        tile = self.tile()
        tile_side = side
        state = tile.exits.get(tile_side)
        new = EXIT_CYCLE[(EXIT_CYCLE.index(state) + 1) % len(EXIT_CYCLE)]
        exits = dict(tile.exits)
        if new is None:
            exits.pop(tile_side, None)
        else:
            exits[tile_side] = new
        self._replace(tile.model_copy(update={"exits": exits}))
        return new

    def _side_clicked(self, side: str) -> None:
        if side == "back":
            self.status.setText("The entry (bottom middle) is always open: it is where the hero comes in.")
            return
        self.cycle_exit(side)

    def set_colour(self, code: str) -> None:
        if code not in COLOUR_NAMES:
            raise ValueError(f"{code!r} is not a Table M colour: use Y, R, G or B")
        if self.tile().colour != code:
            self._replace(self.tile().model_copy(update={"colour": code}))

    def _colour_toggled(self, button: QAbstractButton, checked: bool) -> None:
        if checked:
            code = next(c for c, b in self.colour_buttons.items() if b is button)
            self.set_colour(code)

    def set_tile_name(self, name: str) -> None:
        tile = self.tile()
        if tile.name != name:
            self._tiles[tile.number] = tile.model_copy(update={"name": name[:40]})
            self._dirty = True
            self.tile_title.setText(f"Tile {tile.number}" + (f" — {name}" if name else "") + f"  ({tile.kind})")

    # ------------------------------------------------------------------ checks
    def _show_tile_problems(self) -> None:
        problems = self.tile_problems()
        if problems:
            self.problems_label.setText("\n".join(f"Tile {self._current}: {p}" for p in problems))
        else:
            self.problems_label.setText("")

    def _validate_all(self) -> None:
        bad = {n for n, t in self._tiles.items() if check_tile(t)}
        self.overview.set_problems(bad)
        if bad:
            shown = ", ".join(str(n) for n in sorted(bad)[:15]) + (" …" if len(bad) > 15 else "")
            self.set_summary.setText(f"{len(bad)} tile(s) with problems: {shown}. A set is saved only when every tile is right.")
            self.set_summary.setStyleSheet("color: #c0392b;")
        else:
            counts = {c: sum(1 for t in self._tiles.values() if t.colour == c) for c in "YRGB"}
            self.set_summary.setText(
                f"{len(self._tiles)} tiles, no problems. " + ", ".join(f"{counts[c]} {COLOUR_NAMES[c]}" for c in "YRGB") + "."
            )
            self.set_summary.setStyleSheet("")

    def _refusal(self, action: str, problems: list[TileProblem]) -> str:
        lines = [f"{action}: the set has {len(problems)} problem(s); the standard set stays in use."]
        for problem in problems[:12]:
            where = f"Tile {problem.tile}" if problem.tile is not None else "The set"
            lines.append(f"  • {where}: {problem.message}")
        if len(problems) > 12:
            lines.append(f"  … and {len(problems) - 12} more")
        return "\n".join(lines)

    # ------------------------------------------------------------------ files
    def save(self, title: str | None = None) -> TileSet | None:
        """Save as a named set of the player's; None (and the reason shown) if refused."""
        if title is not None:
            self.set_name_edit.setText(title)
        name = self.set_name_edit.text().strip()
        problems = self.set_problems()
        if problems:
            self.status.setText(self._refusal("Not saved", problems))
            return None
        try:
            saved = storage.save_tileset(self.edited_tileset(), name)
        except storage.TileSetStorageError as exc:
            self.status.setText(f"Not saved: {exc}")
            return None
        except TileSetInvalid as exc:
            self.status.setText(self._refusal("Not saved", exc.problems))
            return None
        except OSError as exc:
            self.status.setText(f"Not saved: {exc}")
            return None
        self._source = saved
        self._dirty = False
        self.status.setText(f"Saved as “{saved.title}” ({saved.id}.json in your tile sets).")
        self.tileset_saved.emit(saved.id)
        return saved

    def import_file(self, path: Path) -> TileSet | None:
        """Import a tile set file into the player's sets and edit it; refused sets change nothing."""
        try:
            imported = storage.import_tileset(Path(path))
        except TileSetInvalid as exc:
            self.status.setText(self._refusal(f"Not imported ({Path(path).name})", exc.problems))
            return None
        except OSError as exc:
            self.status.setText(f"Not imported: {exc}")
            return None
        self._load(imported)
        self.set_name_edit.setText(imported.title)
        self.status.setText(f"Imported “{imported.title}” as {imported.id}.json in your tile sets.")
        self.tileset_saved.emit(imported.id)
        return imported

    def export_file(self, path: Path) -> bool:
        """Write the edited set to a JSON file; refused (nothing written) if it has problems."""
        problems = self.set_problems()
        if problems:
            self.status.setText(self._refusal("Not exported", problems))
            return False
        try:
            storage.export_tileset(self.edited_tileset(), Path(path))
        except (TileSetInvalid, OSError) as exc:
            self.status.setText(f"Not exported: {exc}")
            return False
        self.status.setText(f"Exported to {path}.")
        return True

    def _import_clicked(self) -> None:
        if self._dirty and not self.confirm_discard():
            return
        path = self.ask_open_path()
        if path is not None:
            self.import_file(path)

    def _export_clicked(self) -> None:
        path = self.ask_save_path(storage.tileset_id_for(self.set_name_edit.text() or "tiles") + ".json")
        if path is not None:
            self.export_file(path)

    def reject(self) -> None:
        if self._dirty and not self.confirm_discard():
            return
        super().reject()

    # ------------------------------------------------------------------ default dialogs
    def _ask_open_dialog(self) -> Path | None:
        name, _ = QFileDialog.getOpenFileName(self, "Import a tile set", self._folders.start_path(), "Tile sets (*.json)")
        if name:
            self._folders.remember_folder(name)
        return Path(name) if name else None

    def _ask_save_dialog(self, suggested: str) -> Path | None:
        start = self._folders.start_path(suggested)
        name, _ = QFileDialog.getSaveFileName(self, "Export the tile set", start, "Tile sets (*.json)")
        if name:
            self._folders.remember_folder(name)
        return Path(name) if name else None

    def _confirm_discard_dialog(self) -> bool:
        answer = QMessageBox.question(self, "Unsaved changes", "Discard the changes to this tile set?")
        return answer == QMessageBox.StandardButton.Yes
