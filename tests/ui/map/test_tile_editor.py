"""The tile editor: toggle floor, cycle exits, colour, live checks, saving and importing sets."""

from __future__ import annotations

import copy
import json

import pytest
from PySide6.QtCore import Qt

from d100gui.engine.dungeon.tiles import load_tileset_text
from d100gui.storage import tilesets as storage
from d100gui.storage.resources import standard_tileset, standard_tileset_path
from d100gui.ui.map.tile_editor import TileEditorDialog

pytestmark = pytest.mark.gui


@pytest.fixture
def editor(qtbot) -> TileEditorDialog:
    dialog = TileEditorDialog(standard_tileset())
    qtbot.addWidget(dialog)
    dialog.resize(1100, 720)
    dialog.show()
    qtbot.waitExposed(dialog)
    dialog.confirm_discard = lambda: True
    return dialog


def click_canvas(qtbot, editor: TileEditorDialog, point) -> None:
    qtbot.mouseClick(editor.canvas, Qt.MouseButton.LeftButton, pos=point.toPoint())


@pytest.fixture
def standard_data() -> dict:
    return json.loads(standard_tileset_path().read_text(encoding="utf-8"))


def test_overview_click_selects_a_tile(qtbot, editor: TileEditorDialog) -> None:
    qtbot.mouseClick(editor.overview, Qt.MouseButton.LeftButton, pos=editor.overview.cell_rect(37).center().toPoint())
    assert editor.current == 37
    assert editor.tile_title.text().startswith("Tile 37")
    assert editor.canvas._tile.number == 37


def test_click_a_square_toggles_floor(qtbot, editor: TileEditorDialog) -> None:
    editor.select(8)  # a full room
    assert editor.tile().floor[0][0] is True
    click_canvas(qtbot, editor, editor.canvas.square_centre(0, 0))
    assert editor.tile().floor[0][0] is False
    assert editor.dirty
    click_canvas(qtbot, editor, editor.canvas.square_centre(0, 0))
    assert editor.tile().floor[0][0] is True
    assert editor.tile(9).floor == standard_tileset().tile(9).floor  # other tiles untouched


def test_click_a_side_middle_cycles_none_open_door(qtbot, editor: TileEditorDialog) -> None:
    editor.select(8)  # exits: left open only
    assert "ahead" not in editor.tile().exits
    seen = []
    for _ in range(3):
        click_canvas(qtbot, editor, editor.canvas.side_point("ahead"))
        seen.append(editor.tile().exits.get("ahead"))
    assert seen == ["open", "door", None]
    click_canvas(qtbot, editor, editor.canvas.side_point("left"))
    assert editor.tile().exits.get("left") == "door"
    click_canvas(qtbot, editor, editor.canvas.side_point("back"))
    assert "always open" in editor.status.text()
    assert set(editor.tile().exits) == {"left"}


def test_colour_picker_sets_the_tile_colour(qtbot, editor: TileEditorDialog) -> None:
    editor.select(8)
    assert editor.tile().colour == "Y"
    editor.colour_buttons["G"].click()
    assert editor.tile().colour == "G"
    assert editor.edited_tileset().tile(8).colour == "G"


def test_live_check_names_the_tile_and_the_reason(qtbot, editor: TileEditorDialog) -> None:
    editor.select(6)
    assert editor.problems_label.text() == "" and editor.overview.problems == set()
    click_canvas(qtbot, editor, editor.canvas.square_centre(1, 1))  # the middle becomes rock
    assert "Tile 6: the middle square must be floor" in editor.problems_label.text()
    assert editor.overview.problems == {6}
    assert "6" in editor.set_summary.text()
    click_canvas(qtbot, editor, editor.canvas.square_centre(1, 1))
    assert editor.problems_label.text() == "" and editor.overview.problems == set()


def test_exit_on_rock_is_a_problem(editor: TileEditorDialog) -> None:
    editor.select(11)  # right exit only; its top-left is rock
    tile = editor.tile()
    assert not tile.floor[1][0]  # left side middle is rock
    editor.cycle_exit("left")
    assert any("left exit sits on a rock square" in p for p in editor.tile_problems())


def test_save_as_named_set_and_load_it_back(qtbot, editor: TileEditorDialog) -> None:
    saved_ids = []
    editor.tileset_saved.connect(saved_ids.append)
    editor.select(8)
    editor.toggle_square(0, 0)
    editor.set_tile_name("My chamber")
    saved = editor.save("My Printed Sheet")
    assert saved is not None and saved.id == "my-printed-sheet"
    assert saved_ids == ["my-printed-sheet"]
    assert not editor.dirty
    loaded = storage.load_tileset("my-printed-sheet")
    assert loaded.title == "My Printed Sheet"
    assert loaded.tile(8).floor[0][0] is False and loaded.tile(8).name == "My chamber"
    assert [e.id for e in storage.list_tilesets()] == ["standard", "my-printed-sheet"]
    assert storage.load_tileset("standard").tile(8).floor[0][0] is True  # the standard set is untouched


def test_invalid_set_is_not_saved_and_says_why(editor: TileEditorDialog) -> None:
    editor.select(6)
    editor.toggle_square(1, 1)
    assert editor.save("Broken") is None
    assert "Not saved" in editor.status.text()
    assert "Tile 6: the middle square must be floor" in editor.status.text()
    assert storage.list_tilesets()[1:] == []


def test_the_standard_name_is_refused(editor: TileEditorDialog) -> None:
    assert editor.save("Standard") is None
    assert "never overwritten" in editor.status.text()


@pytest.mark.parametrize(
    ("break_it", "tile", "reason"),
    [
        (
            lambda d: d["tiles"][4].update(floor=[[False, True, True], [False, False, True], [False, True, False]]),
            5,
            "disconnected floor",
        ),
        (lambda d: d["tiles"][6]["exits"].update(up="open"), 7, "off a side middle"),
        (lambda d: d["tiles"].pop(), None, "wrong tile count"),
        (lambda d: d["tiles"][9].update(colour="P"), 10, "bad colour"),
    ],
)
def test_refused_import_names_tile_and_reason_and_keeps_the_standard_set(
    tmp_path, editor: TileEditorDialog, standard_data: dict, break_it, tile, reason
) -> None:
    data = copy.deepcopy(standard_data)
    data["id"] = "mine"
    break_it(data)
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert editor.import_file(path) is None
    status = editor.status.text()
    assert "Not imported (mine.json)" in status and "standard set stays in use" in status
    assert reason in status
    if tile is not None:
        assert f"Tile {tile}:" in status
    assert editor.edited_tileset().id == "standard"
    assert editor.edited_tileset().tiles == standard_tileset().tiles
    assert storage.list_tilesets()[1:] == []


def test_import_valid_file_then_export(tmp_path, editor: TileEditorDialog, standard_data: dict) -> None:
    data = copy.deepcopy(standard_data)
    data.update(id="sheet-b", title="Sheet B")
    data["tiles"][0]["colour"] = "B"
    source = tmp_path / "sheet-b.json"
    source.write_text(json.dumps(data), encoding="utf-8")
    editor.ask_open_path = lambda: source
    editor.import_button.click()
    assert editor.edited_tileset().id == "sheet-b"
    assert editor.tile(1).colour == "B"
    assert "Imported" in editor.status.text()
    out = tmp_path / "out.json"
    editor.ask_save_path = lambda suggested: out
    editor.export_button.click()
    exported = load_tileset_text(out.read_text(encoding="utf-8"))
    assert exported.title == "Sheet B" and exported.tile(1).colour == "B"


def test_export_refuses_a_set_with_problems(tmp_path, editor: TileEditorDialog) -> None:
    editor.select(3)
    editor.toggle_square(1, 2)  # the entry square becomes rock
    out = tmp_path / "out.json"
    assert editor.export_file(out) is False
    assert not out.exists()
    assert "Tile 3: the entry square (bottom middle) must be floor" in editor.status.text()


def test_closing_with_changes_asks_first(qtbot, editor: TileEditorDialog) -> None:
    asked = []
    editor.confirm_discard = lambda: asked.append(True) or False
    editor.toggle_square(0, 0)
    editor.close_button.click()
    assert asked == [True] and editor.isVisible()
    editor.confirm_discard = lambda: True
    editor.close_button.click()
    assert not editor.isVisible()
