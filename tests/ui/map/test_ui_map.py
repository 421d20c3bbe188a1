"""The map scene and view, built from real dungeons made by the engine with scripted dice."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QEvent, QPoint, QPointF, Qt
from PySide6.QtGui import QColor, QImage, QMouseEvent, QPainter, QWheelEvent
from PySide6.QtWidgets import QApplication, QDialogButtonBox

from d100gui.engine.dice.dice import Dice, ScriptedSource
from d100gui.engine.dice.roller import TableRoller
from d100gui.engine.dice.tables import Column, Pack, Row, Table, TableLibrary
from d100gui.engine.dungeon.map import Dungeon, add_note, enter, move, move_hero, place_manual
from d100gui.engine.dungeon.tiles import Tile, TileRoller, TileSet
from d100gui.storage.resources import standard_tileset
from d100gui.ui.map.scene import MapScene
from d100gui.ui.map.style import OVERVIEW_BELOW_PX, MapStyle
from d100gui.ui.map.view import DoorChoice, DoorEditDialog, MapEditPanel, MapView
from d100gui.ui.map.zoom import FIT_MAX_ZOOM

pytestmark = pytest.mark.gui

ROOM = ("...", "...", "...")
HUB = 1  # room; ahead, left, right open; red
DOOR_AHEAD = 2  # ahead a door, left open; green
DEAD = 3  # closed room: only the entry; yellow
CORRIDOR = 4  # straight corridor, rock both sides; yellow


def grid(*rows: str) -> list[list[bool]]:
    return [[c == "." for c in row] for row in rows]


def make_tileset() -> TileSet:
    special = {
        HUB: Tile(number=HUB, colour="R", floor=grid(*ROOM), exits={"ahead": "open", "left": "open", "right": "open"}),
        DOOR_AHEAD: Tile(number=DOOR_AHEAD, colour="G", floor=grid(*ROOM), exits={"ahead": "door", "left": "open"}),
        DEAD: Tile(number=DEAD, colour="Y", floor=grid(*ROOM), exits={}),
        CORRIDOR: Tile(number=CORRIDOR, colour="Y", floor=grid("#.#", "#.#", "#.#"), exits={"ahead": "open"}),
    }
    tiles = [special.get(n) or Tile(number=n, colour="Y", floor=grid(*ROOM), exits={"ahead": "open"}) for n in range(1, 101)]
    return TileSet(id="test", title="Test tiles", tiles=tiles)


def door_library() -> TableLibrary:
    table = Table(
        id="d100.D",
        title="Table D - Doors",
        columns=[Column(key="door", label="Door Type")],
        rows=[
            Row(range=(1, 29), fields={"door": "OPEN (OPEN)"}),
            Row(range=(30, 49), fields={"door": "LOCKED (LD)"}),
            Row(range=(50, 59), fields={"door": "TRAP LOCKED (TLD)"}),
        ],
    )
    return TableLibrary([Pack(id="test", title="test", tables=[table])])


def faces(*values: int) -> list[int]:
    out: list[int] = []
    for value in values:
        out += [(value // 10) % 10, value % 10]
    return out


class World:
    """The engine's Table M and Table D rollers on scripted dice."""

    def __init__(self) -> None:
        self.source = ScriptedSource()
        dice = Dice(self.source)
        self.tileset = make_tileset()
        self.tiles = TileRoller(self.tileset, dice)
        self.doors = TableRoller(door_library(), dice)

    def enter(self, d: Dungeon, *rolls: int) -> Dungeon:
        self.source.push(*faces(*rolls))
        return enter(d, self.tiles, self.doors).dungeon

    def move(self, d: Dungeon, side: str, *rolls: int) -> Dungeon:
        self.source.push(*faces(*rolls))
        return move(d, side, self.tiles, self.doors).dungeon  # type: ignore[arg-type]


@pytest.fixture(autouse=True)
def _app(qapp):
    """Scenes need a QApplication even in tests that build no widget."""
    return qapp


@pytest.fixture
def world() -> World:
    return World()


@pytest.fixture
def explored(world: World) -> Dungeon:
    """Entrance hub (7,10) red; north of it (7,9) green with a trap-locked door (54) ahead."""
    d = world.enter(Dungeon(id="q", name="Test"), HUB)
    return world.move(d, "N", DOOR_AHEAD, 54)


@pytest.fixture
def view(qtbot, explored: Dungeon) -> MapView:
    v = MapView(tileset=make_tileset())
    qtbot.addWidget(v)
    v.resize(800, 600)
    v.show()
    qtbot.waitExposed(v)
    v.set_dungeon(explored)
    v.set_zoom(1.0)
    v.centerOn(v.map_scene.area_rect((7, 9)).center())
    return v


def recorder(signal) -> list:
    got: list = []
    signal.connect(lambda *args: got.append(args))
    return got


def side_point(scene: MapScene, pos: tuple[int, int], side: str) -> QPointF:
    """The middle of an area's side-middle square: where a player clicks an exit."""
    s = scene.style.square
    x, y = {"N": (1, 0), "E": (2, 1), "S": (1, 2), "W": (0, 1)}[side]
    rect = scene.area_rect(pos)
    return QPointF(rect.x() + (x + 0.5) * s, rect.y() + (y + 0.5) * s)


def square_point(scene: MapScene, pos: tuple[int, int], square: tuple[int, int]) -> QPointF:
    s = scene.style.square
    rect = scene.area_rect(pos)
    return QPointF(rect.x() + (square[0] + 0.5) * s, rect.y() + (square[1] + 0.5) * s)


def click(qtbot, view: MapView, scene_point: QPointF) -> None:
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=view.mapFromScene(scene_point))


def mouse(view: MapView, kind: QEvent.Type, at: QPoint, button=Qt.MouseButton.NoButton, buttons=Qt.MouseButton.NoButton) -> None:
    vp = view.viewport()
    local = QPointF(at)
    event = QMouseEvent(kind, local, QPointF(vp.mapToGlobal(at)), button, buttons, Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(vp, event)


def hover(view: MapView, scene_point: QPointF) -> None:
    mouse(view, QEvent.Type.MouseMove, view.mapFromScene(scene_point))


def render(scene: MapScene, scale: float = 1.0) -> tuple[QImage, QPointF]:
    """The scene's paper rendered at ``scale`` pixels per unit, and the paper's origin."""
    paper = scene.paper_rect()
    image = QImage(round(paper.width() * scale), round(paper.height() * scale), QImage.Format.Format_RGB32)
    image.fill(QColor("magenta"))
    p = QPainter(image)
    scene.render(p, image.rect().toRectF(), paper, Qt.AspectRatioMode.IgnoreAspectRatio)
    p.end()
    return image, paper.topLeft()


def pixel(image: QImage, origin: QPointF, scene_point: QPointF, scale: float = 1.0) -> QColor:
    return image.pixelColor(round((scene_point.x() - origin.x()) * scale), round((scene_point.y() - origin.y()) * scale))


# --------------------------------------------------------------------------- the scene


def test_scene_has_one_shape_per_area_with_door_labels_codes_and_hero(explored: Dungeon) -> None:
    scene = MapScene()
    scene.set_dungeon(explored)
    assert sorted(shape.key for shape in scene.area_shapes()) == ["7,10", "7,9"]
    north = scene.area_shape("7,9")
    entrance = scene.area_shape("7,10")
    assert north is not None and entrance is not None
    assert "TLD (54)" in north.labels
    assert "(GR)" in north.labels  # green is written (GR), as the rulebook says
    assert "(R)" in entrance.labels and "TLD (54)" not in entrance.labels
    assert scene.hero_item.isVisible()
    assert scene.hero_item.pos() == scene.area_rect((7, 9)).center()
    assert scene.hero_item.facing == "N"


def test_scene_paints_paper_walls_hatching_and_the_hero(world: World) -> None:
    d = world.enter(Dungeon(id="q"), CORRIDOR)  # rock on both sides of a corridor
    scene = MapScene()
    scene.set_dungeon(d)
    image, origin = render(scene, 2.0)
    style = scene.style
    pal = style.palette
    s = style.square
    area = scene.area_rect((7, 10))
    # The hero marker sits in the middle of their area.
    assert pixel(image, origin, area.center() + QPointF(0, 0.25 * s), 2.0) == pal.hero
    # Floor squares are paper tinted with the area's colour.
    floor = square_point(scene, (7, 10), (1, 0))
    assert pixel(image, origin, floor, 2.0) == pal.tints["Y"]
    # A rock square is hatched: it holds hatch ink and paper between the strokes.
    rock = scene.area_rect((7, 10)).topLeft()
    row = round((rock.y() - origin.y() + 12) * 2)
    colours = [image.pixelColor(round((rock.x() - origin.x() + dx) * 2), row) for dx in range(2, 23)]
    assert pal.paper in colours
    assert min(c.lightness() for c in colours) <= pal.hatch.lightness() + 40  # the strokes
    # A wall runs between the corridor's floor and the rock: firm ink.
    wall = QPointF(area.x() + s, area.y() + 1.5 * s)
    assert pixel(image, origin, wall, 2.0) == pal.ink
    # Outside the mapped area: grid paper, no hatching.
    blank = square_point(scene, (2, 2), (1, 1))
    assert pixel(image, origin, blank, 2.0) == pal.paper


def test_dead_end_gets_hatched_rock_beyond_it(world: World) -> None:
    d, _ = place_manual(Dungeon(id="q"), 0, 5, world.tileset.tile(HUB), 0)  # its west exit runs off the sheet
    scene = MapScene()
    scene.set_dungeon(d)
    assert d.areas["0,5"].exits["W"].kind == "dead_end"
    drawing = scene.area_shape("0,5").drawing
    s = scene.style.square
    assert any(r.right() <= 0 and r.width() == pytest.approx(0.5 * s) for r in drawing.rock_rects)
    assert any(line.x1() < 0 or line.x2() < 0 for line in drawing.hatch)


def test_scene_reuses_shapes_of_unchanged_areas(world: World, explored: Dungeon) -> None:
    scene = MapScene()
    scene.set_dungeon(explored)
    before = {shape.key: shape for shape in scene.area_shapes()}
    walked = world.move(explored, "S")  # back into the mapped entrance: nothing new drawn
    scene.set_dungeon(walked)
    assert all(scene.area_shape(k) is shape for k, shape in before.items())
    assert scene.hero_item.pos() == scene.area_rect((7, 10)).center()
    grown = world.move(walked, "W", DEAD)
    scene.set_dungeon(grown)
    assert scene.area_shape("6,10") is not None
    assert scene.area_shape("7,9") is before["7,9"]


def test_hit_testing_exits_and_areas(explored: Dungeon) -> None:
    scene = MapScene()
    scene.set_dungeon(explored)
    assert scene.exit_at(side_point(scene, (7, 9), "N")) == ("7,9", "N")
    assert scene.exit_at(side_point(scene, (7, 10), "W")) == ("7,10", "W")
    assert scene.exit_at(square_point(scene, (7, 9), (0, 0))) is None  # a corner is no exit
    assert scene.exit_at(square_point(scene, (7, 9), (2, 1))) is None  # no exit drawn east
    assert scene.area_at(square_point(scene, (7, 9), (1, 1))).key == "7,9"
    assert scene.area_at(square_point(scene, (3, 3), (1, 1))) is None


def test_style_black_and_white_has_no_colour() -> None:
    pal = MapStyle(colour=False).palette
    inks = [pal.paper, pal.grid, pal.block, pal.ink, pal.hatch, pal.rock_fill, pal.door_closed, pal.label, pal.note, pal.hero]
    inks += list(pal.codes.values()) + list(pal.tints.values())
    assert all(c.red() == c.green() == c.blue() for c in inks)
    assert MapStyle(colour=True).palette.codes["R"].name() != MapStyle(colour=False).palette.codes["R"].name()


# --------------------------------------------------------------------------- play clicks


def test_click_on_an_open_exit_asks_to_move(qtbot, view: MapView) -> None:
    moves = recorder(view.move_requested)
    click(qtbot, view, side_point(view.map_scene, (7, 9), "W"))
    click(qtbot, view, side_point(view.map_scene, (7, 9), "S"))
    assert moves == [("W",), ("S",)]


def test_click_on_a_closed_door_says_why_and_offers_to_open_it(qtbot, view: MapView) -> None:
    moves, messages, opens = recorder(view.move_requested), recorder(view.message), recorder(view.door_open_requested)
    click(qtbot, view, side_point(view.map_scene, (7, 9), "N"))
    assert moves == []
    assert messages == [("The door TLD (54) is closed: open it first.",)]
    assert opens == [("7,9", "N")]


def test_click_on_a_dead_end_says_why(qtbot, world: World) -> None:
    d, _ = place_manual(Dungeon(id="q"), 0, 5, world.tileset.tile(HUB), 0)
    d = move_hero(d, (0, 5))
    v = MapView()
    qtbot.addWidget(v)
    v.resize(600, 400)
    v.show()
    qtbot.waitExposed(v)
    v.set_dungeon(d)
    v.set_zoom(1.0)
    v.centerOn(v.map_scene.area_rect((0, 5)).center())
    moves, messages = recorder(v.move_requested), recorder(v.message)
    click(qtbot, v, side_point(v.map_scene, (0, 5), "W"))
    assert moves == []
    assert len(messages) == 1
    assert "dead end" in messages[0][0] and "edge of the map sheet" in messages[0][0]


def test_click_where_there_is_no_exit_says_so(qtbot, view: MapView) -> None:
    messages, secrets = recorder(view.message), recorder(view.secret_passage_requested)
    click(qtbot, view, side_point(view.map_scene, (7, 9), "E"))
    assert messages == [("There is no exit on the east side of this area.",)]
    assert secrets == []


def test_click_inside_an_area_does_nothing(qtbot, view: MapView) -> None:
    signals = [recorder(s) for s in (view.move_requested, view.message, view.secret_passage_requested)]
    click(qtbot, view, square_point(view.map_scene, (7, 9), (1, 1)))
    click(qtbot, view, square_point(view.map_scene, (2, 2), (1, 1)))
    assert all(got == [] for got in signals)


def test_blocked_dungeon_offers_a_secret_passage(qtbot, world: World) -> None:
    d = world.enter(Dungeon(id="q"), DEAD)  # one closed room: every way on is rock
    v = MapView()
    qtbot.addWidget(v)
    v.resize(600, 400)
    v.show()
    qtbot.waitExposed(v)
    v.set_dungeon(d)
    v.set_zoom(1.0)
    v.centerOn(v.map_scene.area_rect((7, 10)).center())
    secrets, leaves = recorder(v.secret_passage_requested), recorder(v.leave_requested)
    click(qtbot, v, side_point(v.map_scene, (7, 10), "E"))
    click(qtbot, v, side_point(v.map_scene, (7, 10), "S"))  # the way out of the dungeon
    assert secrets == [("7,10", "E")]
    assert leaves == [()]


def test_click_on_the_entrance_enters(qtbot) -> None:
    v = MapView()
    qtbot.addWidget(v)
    v.resize(600, 400)
    v.show()
    qtbot.waitExposed(v)
    d = Dungeon(id="q")
    v.set_dungeon(d)
    v.set_zoom(1.0)
    v.centerOn(v.map_scene.area_rect(d.entrance).center())
    enters, messages = recorder(v.enter_requested), recorder(v.message)
    click(qtbot, v, v.map_scene.area_rect(d.entrance).center())
    click(qtbot, v, v.map_scene.area_rect((1, 1)).center())
    assert enters == [()]
    assert len(messages) == 1 and "entrance" in messages[0][0]


# --------------------------------------------------------------------------- hover, zoom, pan


def test_hover_highlights_the_heros_exits(view: MapView) -> None:
    scene = view.map_scene
    hover(view, side_point(scene, (7, 9), "W"))
    assert view.highlighted_exits()[0] == ("W", "go")
    assert ("N", "door") in view.highlighted_exits() and ("S", "go") in view.highlighted_exits()
    assert len(scene.overlay.marks) == 3
    hover(view, side_point(scene, (7, 9), "N"))
    assert view.highlighted_exits()[0] == ("N", "door")
    assert view.viewport().cursor().shape() == Qt.CursorShape.PointingHandCursor
    hover(view, square_point(scene, (2, 2), (1, 1)))  # far from the hero
    assert view.highlighted_exits() == []
    assert scene.overlay.marks == []


def test_tooltip_names_the_area_and_its_door(view: MapView) -> None:
    text = view.tooltip_at(side_point(view.map_scene, (7, 9), "N"))
    assert "tile 2" in text and "Green" in text
    assert "North door: TLD (54), closed" in text
    assert "The door TLD (54) is closed: open it first." in text


def test_wheel_zoom_keeps_the_point_under_the_mouse(view: MapView) -> None:
    at = QPoint(250, 170)
    before = view.mapToScene(at)
    event = QWheelEvent(
        QPointF(at),
        QPointF(view.viewport().mapToGlobal(at)),
        QPoint(0, 0),
        QPoint(0, 240),
        Qt.MouseButton.NoButton,
        Qt.KeyboardModifier.NoModifier,
        Qt.ScrollPhase.NoScrollPhase,
        False,
    )
    QApplication.sendEvent(view.viewport(), event)
    assert view.zoom == pytest.approx(1.0015**240)
    after = view.mapToScene(at)
    assert abs(after.x() - before.x()) <= 1.5 and abs(after.y() - before.y()) <= 1.5
    centre_before = view.mapToScene(view.viewport().rect().center())
    assert centre_before != before  # the anchor was not simply the centre


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_drag_pans_without_clicking(view: MapView) -> None:
    h, v = view.horizontalScrollBar(), view.verticalScrollBar()
    x0, y0 = h.value(), v.value()
    moves = recorder(view.move_requested)
    start, end = QPoint(400, 300), QPoint(300, 250)
    mouse(view, QEvent.Type.MouseButtonPress, start, Qt.MouseButton.LeftButton, Qt.MouseButton.LeftButton)
    mouse(view, QEvent.Type.MouseMove, QPoint(350, 280), Qt.MouseButton.NoButton, Qt.MouseButton.LeftButton)
    mouse(view, QEvent.Type.MouseMove, end, Qt.MouseButton.NoButton, Qt.MouseButton.LeftButton)
    mouse(view, QEvent.Type.MouseButtonRelease, end, Qt.MouseButton.LeftButton, Qt.MouseButton.NoButton)
    assert (h.value() - x0, v.value() - y0) == (100, 50)
    assert moves == []


def test_arrow_keys_pan(qtbot, view: MapView) -> None:
    h, v = view.horizontalScrollBar(), view.verticalScrollBar()
    x0, y0 = h.value(), v.value()
    qtbot.keyClick(view, Qt.Key.Key_Right)
    assert h.value() > x0 and v.value() == y0
    qtbot.keyClick(view, Qt.Key.Key_Up)
    assert v.value() < y0


def test_fit_to_dungeon_shows_every_area(view: MapView) -> None:
    view.set_zoom(6.0)
    view.centerOn(view.map_scene.area_rect((0, 0)).center())
    assert not view.visible_scene_rect().contains(view.map_scene.dungeon_rect())
    view.fit_to_dungeon()
    assert view.visible_scene_rect().contains(view.map_scene.dungeon_rect())
    assert view.zoom <= FIT_MAX_ZOOM + 1e-9


def test_far_out_the_map_is_drawn_as_one_overview(view: MapView) -> None:
    scene = view.map_scene
    view.set_zoom(0.9 * OVERVIEW_BELOW_PX / scene.style.square)
    assert scene.overview and scene.overview_item.isVisible()
    assert not scene.ink_item.isVisible()
    image = view.grab().toImage()
    hero_area = view.mapFromScene(scene.area_rect((7, 10)).center() + QPointF(0, 20))
    assert image.pixelColor(hero_area) == scene.style.palette.tints["R"]  # the red hub, as a block
    view.set_zoom(1.0)
    assert not scene.overview and not scene.overview_item.isVisible() and scene.ink_item.isVisible()


# --------------------------------------------------------------------------- edit mode


def test_edit_mode_place_tile_request(qtbot, view: MapView) -> None:
    places, moves, messages = recorder(view.place_tile_requested), recorder(view.move_requested), recorder(view.message)
    view.set_edit_mode(True)
    view.set_tile(12)
    view.set_rotation(90)
    click(qtbot, view, square_point(view.map_scene, (8, 9), (1, 1)))
    click(qtbot, view, side_point(view.map_scene, (7, 9), "W"))  # a mapped area: refused, not a move
    assert places == [(8, 9, 12, 90)]
    assert moves == []
    assert messages == [("Area 7,9 is already mapped: delete it first.",)]


def test_edit_mode_place_preview_follows_the_mouse(view: MapView) -> None:
    view.set_edit_mode(True)
    hover(view, square_point(view.map_scene, (8, 9), (1, 1)))
    ghost = view.map_scene.overlay._ghost
    assert ghost is not None and ghost[0] == view.map_scene.area_rect((8, 9)).topLeft() and ghost[2] is True
    hover(view, square_point(view.map_scene, (7, 9), (1, 1)))
    assert view.map_scene.overlay._ghost[2] is False


def test_edit_mode_delete_request(qtbot, view: MapView) -> None:
    deletes, messages = recorder(view.delete_area_requested), recorder(view.message)
    view.set_edit_mode(True)
    view.set_tool("delete")
    click(qtbot, view, square_point(view.map_scene, (7, 10), (0, 0)))
    click(qtbot, view, square_point(view.map_scene, (9, 9), (0, 0)))
    assert deletes == [("7,10",)]
    assert messages == [("There is no mapped area 9,9 to delete.",)]


def test_edit_mode_door_dialog_values_become_a_request(qtbot, view: MapView) -> None:
    asked = []

    def answer(where, door):
        asked.append((where, door.label if door else None))
        return DoorChoice("LD", 33, False)

    view.edit_tools.ask_door = answer
    edits, sets = recorder(view.door_edit_requested), recorder(view.door_set_requested)
    view.set_edit_mode(True)
    view.set_tool("door")
    click(qtbot, view, side_point(view.map_scene, (7, 9), "N"))
    assert asked == [("the north exit of area 7,9", "TLD (54)")]
    assert edits == [("7,9", "N")]
    assert sets == [("7,9", "N", "LD", 33, False)]


def test_edit_mode_note_add_and_drag(qtbot, view: MapView, explored: Dungeon) -> None:
    d, note = add_note(explored, (7, 10), "Lever", (0, 0))
    view.set_dungeon(d)
    view.edit_tools.ask_note_text = lambda where: f"Statue in {where}"
    adds, moved = recorder(view.note_add_requested), recorder(view.note_move_requested)
    view.set_edit_mode(True)
    view.set_tool("note")
    click(qtbot, view, square_point(view.map_scene, (7, 9), (2, 2)))
    assert adds == [("7,9", "Statue in area 7,9")]
    # Drag note 1 from its square to the bottom-right square of the area to the north.
    start = view.mapFromScene(square_point(view.map_scene, (7, 10), (0, 0)))
    end = view.mapFromScene(square_point(view.map_scene, (7, 9), (2, 2)))
    mouse(view, QEvent.Type.MouseButtonPress, start, Qt.MouseButton.LeftButton, Qt.MouseButton.LeftButton)
    mouse(view, QEvent.Type.MouseMove, (start + end) / 2, Qt.MouseButton.NoButton, Qt.MouseButton.LeftButton)
    mouse(view, QEvent.Type.MouseMove, end, Qt.MouseButton.NoButton, Qt.MouseButton.LeftButton)
    mouse(view, QEvent.Type.MouseButtonRelease, end, Qt.MouseButton.LeftButton, Qt.MouseButton.NoButton)
    assert moved == [("7,9", note.ref, 2, 2)]
    assert len(adds) == 1  # the drag was not a click


def test_edit_panel_reports_choices_to_the_view(qtbot, view: MapView) -> None:
    panel = MapEditPanel(make_tileset())
    qtbot.addWidget(panel)
    panel.edit_mode_toggled.connect(view.set_edit_mode)
    panel.tool_changed.connect(view.set_tool)
    panel.tile_changed.connect(view.set_tile)
    panel.rotation_changed.connect(view.set_rotation)
    view.edit_mode_changed.connect(panel.set_edit_mode)
    assert not panel.tile_spin.isEnabled()
    qtbot.mouseClick(panel.edit_button, Qt.MouseButton.LeftButton)
    assert view.edit_mode and panel.tile_spin.isEnabled()
    qtbot.mouseClick(panel.tool_buttons["door"], Qt.MouseButton.LeftButton)
    assert view.tool == "door"
    panel.tile_spin.setValue(3)
    panel.set_rotation(270)
    assert (view.edit_tools.tile, view.edit_tools.rotation) == (3, 270)
    assert panel.preview._tile.number == 3 and panel.preview._rotation == 270
    view.set_edit_mode(False)
    assert not panel.edit_button.isChecked() and not panel.tile_spin.isEnabled()


def test_door_dialog_prefills_and_returns_values(qtbot) -> None:
    from d100gui.engine.dungeon.map import Door

    dialog = DoorEditDialog(Door(type="TLD", roll=54, is_open=False), "the north exit")
    qtbot.addWidget(dialog)
    assert dialog.type_box.currentText() == "TLD" and dialog.roll_spin.value() == 54
    assert dialog.choice() == DoorChoice("TLD", 54, False)
    dialog.type_box.setCurrentText(DoorEditDialog.OTHER)
    dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
    assert "abbreviation" in dialog.error_label.text()
    dialog.other_edit.setText("pd")
    assert dialog.choice() == DoorChoice("PD", 54, False)
    dialog.type_box.setCurrentText("OPEN")
    assert dialog.choice().is_open is True
    dialog.type_box.setCurrentText(DoorEditDialog.NO_DOOR)
    assert dialog.choice().type == ""


def test_standard_tiles_draw_in_the_view(qtbot) -> None:
    """Every standard tile at every turn can be drawn (no crash, walls and floor present)."""
    scene = MapScene()
    for tile in standard_tileset().tiles[:12]:
        for rotation in (0, 90, 180, 270):
            d, _ = place_manual(Dungeon(id="q"), 3, 3, tile, rotation)
            scene.set_dungeon(d)
            drawing = scene.area_shape("3,3").drawing
            assert drawing.walls and drawing.floor_rects
