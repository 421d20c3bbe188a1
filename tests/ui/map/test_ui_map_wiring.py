"""The map in the window: starting a dungeon, moving by the view's requests, doors, export, tile sets."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QFileDialog, QMessageBox

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
    win.new_dungeon_action.trigger()  # Map > New dungeon
    assert win.game.campaign.dungeons.current_dungeon is not None
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


def choose_save_path(monkeypatch, *paths):
    """The save dialog answers with these paths, one per opening."""
    chosen = [str(p) for p in paths]
    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(lambda *a, **k: (chosen.pop(0), "")))


def test_export_png_svg_pdf_from_the_menu(window, tmp_path, monkeypatch):
    choose_save_path(monkeypatch, tmp_path / "m.png", tmp_path / "m.svg", tmp_path / "m")
    window.export_map_action.trigger()  # no dungeon yet: said, nothing asked
    assert "no dungeon to print yet" in window.dice_panel.result_text.text()
    assert not (tmp_path / "m.png").exists()
    explore(window)
    window.export_map_action.trigger()
    assert QImage(str(tmp_path / "m.png")).width() > 300
    window.export_map_action.trigger()
    assert (tmp_path / "m.svg").read_text(encoding="utf-8").lstrip().startswith("<?xml")
    window.export_map_action.trigger()  # no suffix: a PDF
    assert (tmp_path / "m.pdf").read_bytes().startswith(b"%PDF")
    assert window.print_map_action.shortcut().toString() == "Ctrl+Alt+P"


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_export_at_a_chosen_resolution(window, tmp_path):
    explore(window)
    small = window.map_actions.export_map(str(tmp_path / "s.png"), dpi=50)
    large = window.map_actions.export_map(str(tmp_path / "l.png"), dpi=100)
    assert QImage(str(large)).width() > QImage(str(small)).width() > 100


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_export_map_menu_action_and_shortcut_write_the_file(window, qtbot, tmp_path, monkeypatch):
    """The real action (and its Ctrl+Alt+E shortcut) reaches the export with the chosen path, not ``checked``."""
    choose_save_path(monkeypatch, tmp_path / "menu.png", tmp_path / "key.svg")
    explore(window)
    window.export_map_action.trigger()
    assert QImage(str(tmp_path / "menu.png")).width() > 300
    window.show()
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    window.map_area.view.setFocus()
    qtbot.keyClick(window.map_area.view, Qt.Key.Key_E, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.AltModifier)
    assert (tmp_path / "key.svg").read_text(encoding="utf-8").lstrip().startswith("<?xml")
    assert "Map exported to" in window.statusBar().currentMessage()


def test_tile_set_menu_and_editor(window):
    window.menus.tilesets.aboutToShow.emit()
    [standard] = window.menus.tilesets.actions()
    assert standard.isChecked()
    standard.trigger()
    assert window.game.campaign.tileset == "standard"
    window.tile_editor_action.trigger()
    assert isinstance(window.map_actions.tile_editor, TileEditorDialog)


def test_undo_removes_the_mapped_area(window):
    explore(window)
    window.undo_action.trigger()
    dungeon = window.game.campaign.dungeons.current_dungeon
    assert sorted(dungeon.areas) == ["7,10"]
    assert "1 area ·" in window.map_area.title.text()


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_sheet_size_preference_is_used_for_new_dungeons(window):
    window.prefs_action.trigger()
    dialog = window.preferences_dialog
    dialog.sheet_width.setValue(21)
    dialog.sheet_height.setValue(9)
    dialog.unbounded.setChecked(True)
    dialog.accept()
    assert Preferences().sheet_size == (21, 9) and Preferences().unbounded_sheet
    window.game.override = ScriptedSource([0, 3])
    window.new_dungeon_action.trigger()
    dungeon = window.game.campaign.dungeons.current_dungeon
    assert (dungeon.width, dungeon.height, dungeon.unbounded) == (21, 9, True)
    assert dungeon.hero == (10, 8)


def test_dungeons_menu_lists_each_quest_attempt(window, qtbot):
    window.game.override = ScriptedSource([0, 3, 0, 4])
    qtbot.mouseClick(window.map_area.new_button, Qt.MouseButton.LeftButton)  # "New dungeon and enter it"
    window.new_dungeon_action.trigger()  # a second quest attempt's sheet
    window.menus.dungeons.aboutToShow.emit()
    actions = window.menus.dungeons.actions()
    assert [a.isChecked() for a in actions] == [False, True]
    actions[0].trigger()
    assert window.game.campaign.dungeons.current == 0
    assert window.map_area.title.text().startswith("<b>Dungeon 1</b>")


def test_hall_of_the_fallen(window):
    from d100gui.engine.hero.model import new_character
    from d100gui.storage.resources import bundled_rules

    window.fallen_action.trigger()
    assert "No hero has fallen" in window.fallen_box.text()
    dead = new_character(bundled_rules())
    dead.name, dead.dead = "Brave Sir Robin", True
    window.game.campaign.hall_of_fallen.append(dead)
    window.fallen_action.trigger()
    assert "Brave Sir Robin" in window.fallen_box.text()


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
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
