"""The map in the window: starting a dungeon, moving by the view's requests, doors, export, tile sets."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QMessageBox

from d100gui.engine.dice.dice import ScriptedSource
from d100gui.storage import packs
from d100gui.storage.paths import user_data_dir
from d100gui.ui.common.settings import Preferences
from d100gui.ui.main_window import MainWindow
from d100gui.ui.map.tile_editor import TileEditorDialog

pytestmark = pytest.mark.gui


@pytest.fixture
def window(qtbot):
    win = MainWindow(packs.load_library(user_data_dir()), Preferences(), seed=5)
    qtbot.addWidget(win)
    return win


def explore(win) -> None:
    """Entrance tile 3 (straight N); north tile 12 (fork, E door rolls 32 = TLD)."""
    win.game.override = ScriptedSource([0, 3, 1, 2, 3, 2])
    assert win.map_area.new_dungeon()
    win.map_area.view.move_requested.emit("N")


def test_no_dungeon_prompt_then_new_dungeon_shows_the_map(window):
    assert window.map_area.stack.currentIndex() == 0
    assert "No dungeon yet" in window.map_placeholder.text()
    explore(window)
    assert window.map_area.stack.currentIndex() == 1
    dungeon = window.game.campaign.dungeons.current_dungeon
    assert sorted(dungeon.areas) == ["7,10", "7,9"]
    assert dungeon.hero == (7, 9)
    assert "2 areas" in window.map_area.title.text()
    assert window.dice_panel.history.count() == 3  # Table M twice, Table D once


def test_closed_door_is_offered_to_open(window):
    explore(window)
    box = window.map_area.offer_door("7,9", "E")
    assert "TLD (32)" in box.text()
    assert "Test: Dex" in box.informativeText()
    [mark] = [b for b in box.buttons() if b.text() == "Mark it open"]
    mark.click()
    assert window.game.campaign.dungeons.current_dungeon.areas["7,9"].exits["E"].door.is_open


def test_refused_move_says_why(window):
    explore(window)
    window.map_area.view.move_requested.emit("E")
    assert "closed" in window.dice_panel.result_text.text()


def test_secret_passage_is_confirmed_before_it_is_made(window):
    explore(window)
    box = window.map_area.offer_secret_passage("7,10", "W")
    box.button(QMessageBox.StandardButton.No).click()
    assert window.game.campaign.dungeons.current_dungeon.areas["7,10"].exits.get("W") is None


def test_export_png_svg_pdf_from_the_window(window, tmp_path):
    assert window.export_map(str(tmp_path / "m.png")) is None  # no dungeon yet
    explore(window)
    png = window.export_map(str(tmp_path / "m.png"), dpi=100)
    assert QImage(str(png)).width() > 300
    assert window.export_map(str(tmp_path / "m.svg")).read_text(encoding="utf-8").lstrip().startswith("<?xml")
    assert window.export_map(str(tmp_path / "m.pdf")).read_bytes().startswith(b"%PDF")
    assert window.print_map_action.shortcut().toString() == "Ctrl+Alt+P"


def test_tile_set_menu_and_editor(window):
    window._fill_tileset_menu()
    [standard] = window.tileset_menu.actions()
    assert standard.isChecked()
    assert isinstance(window.open_tile_editor(), TileEditorDialog)


def test_undo_removes_the_mapped_area(window):
    explore(window)
    window.undo_action.trigger()
    dungeon = window.game.campaign.dungeons.current_dungeon
    assert sorted(dungeon.areas) == ["7,10"]
    assert "1 area ·" in window.map_area.title.text()


def test_sheet_size_preference_is_used_for_new_dungeons(window):
    dialog = window.edit_preferences()
    dialog.sheet_width.setValue(21)
    dialog.sheet_height.setValue(9)
    dialog.unbounded.setChecked(True)
    dialog.accept()
    assert Preferences().sheet_size == (21, 9) and Preferences().unbounded_sheet
    window.game.override = ScriptedSource([0, 3])
    assert window.map_area.new_dungeon()
    dungeon = window.game.campaign.dungeons.current_dungeon
    assert (dungeon.width, dungeon.height, dungeon.unbounded) == (21, 9, True)
    assert dungeon.hero == (10, 8)


def test_dungeons_menu_lists_each_quest_attempt(window):
    window.game.override = ScriptedSource([0, 3, 0, 4])
    window.map_area.new_dungeon()
    window.map_area.new_dungeon()
    window._fill_dungeons_menu()
    actions = window.dungeons_menu.actions()
    assert [a.isChecked() for a in actions] == [False, True]
    actions[0].trigger()
    assert window.game.campaign.dungeons.current == 0
    assert window.map_area.title.text().startswith("<b>Dungeon 1</b>")


def test_hall_of_the_fallen(window):
    from d100gui.engine.hero.character import new_character
    from d100gui.storage.resources import bundled_rules

    assert "No hero has fallen" in window.show_hall_of_fallen().text()
    dead = new_character(bundled_rules())
    dead.name, dead.dead = "Brave Sir Robin", True
    window.game.campaign.hall_of_fallen.append(dead)
    assert "Brave Sir Robin" in window.show_hall_of_fallen().text()


def test_window_geometry_and_docks_are_kept(qtbot):
    first = MainWindow(packs.load_library(user_data_dir()), Preferences())
    qtbot.addWidget(first)
    first.show()
    first.sheet_dock.hide()
    first.close()
    assert Preferences().qsettings.value("window/geometry") is not None
    second = MainWindow(packs.load_library(user_data_dir()), Preferences())
    qtbot.addWidget(second)
    assert not second.sheet_dock.isHidden()
    assert second.restore_window_state()
    assert second.sheet_dock.isHidden()
