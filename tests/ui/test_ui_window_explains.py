"""Issue 10 #19 and Deliver 4: a window that explains itself.

The title names the hero and the dungeon; file dialogs start in the documents folder or the
last one used; the map keeps the hero in view; every greyed control says why; nothing is cut
short at 1280x720 or 1400x900.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QAbstractButton, QApplication, QDockWidget, QFileDialog, QLabel, QTabBar, QWidget

from d100gui.engine.dice.dice import ScriptedSource
from d100gui.engine.hero.creation import creation_commands
from d100gui.storage import packs
from d100gui.storage.paths import user_data_dir
from d100gui.storage.store import STORE_SUFFIX
from d100gui.ui.common.settings import Preferences
from d100gui.ui.main_window import MainWindow

pytestmark = pytest.mark.gui


def new_window(qtbot, **kwargs) -> MainWindow:
    win = MainWindow(packs.load_library(user_data_dir()), Preferences(), seed=7, **kwargs)
    qtbot.addWidget(win)
    return win


@pytest.fixture
def window(qtbot):
    return new_window(qtbot)


def make_hero(win: MainWindow, name: str = "Harry") -> None:
    """A hero made by the rulebook's creation steps on scripted dice."""
    win.game.override = ScriptedSource([0, 5, 0, 1, 0, 5, 1, 0])
    for command in creation_commands(name, {"STR": 50, "DEX": 40, "INT": 30}, ["Locks", "Traps"]):
        assert win.bridge.send(command), command
    win.game.override = None


def new_dungeon(win: MainWindow) -> None:
    """Map > New dungeon: entrance tile 3 (straight north)."""
    win.game.override = ScriptedSource([0, 3])
    win.new_dungeon_action.trigger()
    win.game.override = None


class FileDialogs:
    """Stands in for QFileDialog's static functions: records where each opened, answers ``answer``."""

    def __init__(self, monkeypatch) -> None:
        self.started: list[str] = []
        self.answer = ""
        monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(self._ask))
        monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(self._ask))

    def _ask(self, _parent, _title, directory="", _filter="", *args, **kwargs):
        self.started.append(directory)
        return self.answer, ""


# --------------------------------------------------------------------------- the title


def test_the_title_names_the_hero_and_the_dungeon(window):
    assert window.windowTitle() == "New campaign — d100gui"
    make_hero(window)
    assert window.windowTitle() == "Harry — d100gui"
    new_dungeon(window)
    assert window.windowTitle() == "Harry — Dungeon 1 — d100gui"
    new_dungeon(window)
    assert window.windowTitle() == "Harry — Dungeon 2 — d100gui"
    assert window.game.campaign.meta.id not in window.windowTitle()


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_the_title_follows_the_campaign_opened_from_the_menu(qtbot, monkeypatch):
    first = new_window(qtbot)
    make_hero(first, "Judith")
    new_dungeon(first)
    saved = first.campaign_path
    assert saved is not None and saved.name == f"{first.game.campaign.meta.id}{STORE_SUFFIX}"
    first.close()  # its store is locked while the window plays it
    other = new_window(qtbot)
    dialogs = FileDialogs(monkeypatch)
    dialogs.answer = str(saved)
    other.open_action.trigger()  # File > Open...
    assert other.windowTitle() == "Judith — Dungeon 1 — d100gui"
    other.new_action.trigger()  # File > New campaign
    assert other.windowTitle() == "New campaign — d100gui"


# --------------------------------------------------------------------------- file dialogs


def test_file_dialogs_start_in_the_documents_folder_then_where_the_last_one_was_used(qtbot, window, monkeypatch, tmp_path):
    from d100gui.ui.common.settings import documents_dir

    dialogs = FileDialogs(monkeypatch)
    window.open_action.trigger()  # answered with nothing: cancelled
    assert Path(dialogs.started[-1]) == documents_dir()
    assert documents_dir().is_relative_to(tmp_path)  # D100GUI_HOME: never the real documents folder
    elsewhere = tmp_path / "my games"
    elsewhere.mkdir()
    dialogs.answer = str(elsewhere / "hero")
    qtbot.mouseClick(window.dice_panel.d6_button, Qt.MouseButton.LeftButton)
    window.save_as_action.trigger()  # File > Save As..., into another folder
    assert window.campaign_path == elsewhere / f"hero{STORE_SUFFIX}"
    dialogs.answer = ""
    new_dungeon(window)
    window.export_map_action.trigger()  # Map > Export map... starts where Save As was used
    assert Path(dialogs.started[-1]).parent == elsewhere and dialogs.started[-1].endswith(".pdf")
    window.tile_editor_action.trigger()  # Map > Tile editor, then its Import JSON... button
    qtbot.mouseClick(window.map_actions.tile_editor.import_button, Qt.MouseButton.LeftButton)
    assert Path(dialogs.started[-1]) == elsewhere
    window.map_actions.tile_editor.reject()
    again = new_window(qtbot)  # remembered for the next start
    again.open_action.trigger()
    assert Path(dialogs.started[-1]) == elsewhere


def test_the_table_pack_and_sheet_dialogs_start_in_the_documents_folder_too(qtbot, window, monkeypatch, tmp_path):
    """Tables > Export/Import and Hero > Export sheet open where the player keeps their files, not the source folder."""
    from d100gui.ui.common.settings import documents_dir

    dialogs = FileDialogs(monkeypatch)
    window.export_pack_action.trigger()  # Tables > Export my table pack..., cancelled
    assert Path(dialogs.started[-1]) == documents_dir() / "my-tables.json"
    elsewhere = tmp_path / "packs"
    elsewhere.mkdir()
    dialogs.answer = str(elsewhere / "mine.json")
    window.export_pack_action.trigger()
    assert (elsewhere / "mine.json").exists()
    dialogs.answer = ""
    window.import_pack_action.trigger()  # starts where the last one was used
    assert Path(dialogs.started[-1]) == elsewhere
    make_hero(window)
    window.export_sheet_action.trigger()  # Hero/File > Export sheet to PDF...
    assert Path(dialogs.started[-1]).parent == elsewhere and dialogs.started[-1].endswith("-sheet.pdf")


# --------------------------------------------------------------------------- the map follows the hero


def click_exit(win: MainWindow, qtbot, side: str) -> None:
    view = win.map_area.view
    hero = win.game.campaign.dungeons.current_dungeon.hero
    at = view.mapFromScene(view.map_scene.exit_mark_rect(hero, side).center())
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=at)


def zoomed_in_on_the_hero(win: MainWindow, qtbot):
    """The window on screen, the map zoomed in so about two areas show, centred on the hero."""
    win.resize(1400, 900)
    win.show()
    qtbot.waitExposed(win)
    win.game.override = ScriptedSource([0, 3, 0, 3, 0, 3, 0, 3])  # tile 3 (straight N-S) every time
    win.new_dungeon_action.trigger()
    qtbot.wait(20)  # the first fit is done
    view = win.map_area.view
    scene = view.map_scene
    view.set_zoom(view.viewport().height() / (2.2 * scene.style.area))
    view.centerOn(scene.area_rect(win.game.campaign.dungeons.current_dungeon.hero).center())
    return view


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_the_map_keeps_the_hero_in_view_as_they_move(window, qtbot):
    assert window.follow_hero_action.isChecked()  # on by default
    view = zoomed_in_on_the_hero(window, qtbot)
    zoom = view.zoom
    for _ in range(3):
        click_exit(window, qtbot, "N")
        hero = window.game.campaign.dungeons.current_dungeon.hero
        assert view.visible_scene_rect().contains(view.map_scene.area_rect(hero)), hero
    assert hero == (7, 7) and view.zoom == pytest.approx(zoom)  # it scrolls; the zoom stays


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_keeping_the_hero_in_view_is_a_preference(window, qtbot):
    window.follow_hero_action.trigger()  # Map > Keep the hero in view: off
    assert Preferences().follow_hero is False
    view = zoomed_in_on_the_hero(window, qtbot)
    before = view.visible_scene_rect()
    click_exit(window, qtbot, "N")
    click_exit(window, qtbot, "N")
    assert view.visible_scene_rect() == before  # the map stays where the player put it
    assert not new_window(qtbot).follow_hero_action.isChecked()


# --------------------------------------------------------------------------- greyed controls say why


def _default_tip(action: QAction) -> str:
    return action.text().replace("&", "").removesuffix("...")


def greyed_without_reason(win: QWidget) -> list[str]:
    """Every disabled action or button of the window whose tooltip and status tip say nothing."""
    missing = []
    for action in win.findChildren(QAction):
        if action.isEnabled() or action.isSeparator() or action.menu() is not None:
            continue
        tips = [action.statusTip(), action.toolTip()]
        if not any(tip and tip != _default_tip(action) for tip in tips):
            missing.append(f"action {action.text()!r}")
    for button in win.findChildren(QAbstractButton):
        if button.isEnabled() or isinstance(button.parentWidget(), QTabBar):  # the tab bar's own scroll arrows
            continue
        if not (button.toolTip() or button.statusTip()):
            missing.append(f"{type(button).__name__} {button.text()!r} in {type(button.parentWidget()).__name__}")
    return missing


def test_every_greyed_control_of_a_fresh_window_says_why(window):
    window.resize(1400, 900)
    window.show()
    assert greyed_without_reason(window) == []


def test_undo_and_redo_say_why_they_are_greyed_and_what_they_do_when_not(window, qtbot):
    assert not window.undo_action.isEnabled() and "Nothing to undo" in window.undo_action.toolTip()
    assert not window.redo_action.isEnabled() and "Nothing to redo" in window.redo_action.toolTip()
    qtbot.mouseClick(window.dice_panel.d6_button, Qt.MouseButton.LeftButton)
    assert window.undo_action.isEnabled() and "Nothing" not in window.undo_action.toolTip()
    window.undo_action.trigger()
    assert window.redo_action.isEnabled() and "Nothing" not in window.redo_action.toolTip()


def test_the_dice_panels_greyed_buttons_say_why(window, qtbot):
    panel = window.dice_panel
    assert not panel.table_button.isEnabled() and "Choose a table" in panel.table_button.toolTip()
    panel.select_table("d100.E")
    assert panel.table_button.isEnabled() and "Choose a table" not in panel.table_button.toolTip()
    assert "select them" in panel.reroll_button.toolTip()


def test_the_map_edit_tools_say_how_to_use_them(window):
    new_dungeon(window)
    panel = window.map_area.edit_panel
    greyed = [b for b in panel.findChildren(QAbstractButton) if not b.isEnabled()]
    assert greyed and all("Edit map by hand" in b.toolTip() for b in greyed)
    window.edit_map_action.trigger()
    assert all(b.isEnabled() and "Edit map by hand" not in b.toolTip() for b in panel.findChildren(QAbstractButton))


# --------------------------------------------------------------------------- nothing cut short


def too_wide(win: MainWindow, width: int) -> list[str]:
    """The docks and the central widget whose minimum width keeps the window wider than ``width``."""
    parts = {"central": win.centralWidget(), **{d.objectName(): d for d in win.findChildren(QDockWidget)}}
    widest = {name: part.minimumSizeHint().width() for name, part in parts.items() if part.isVisible()}
    return [f"{name}: {w}px" for name, w in sorted(widest.items(), key=lambda kv: -kv[1])] if win.width() > width else []


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_the_window_fits_on_a_1280x720_screen(qtbot):
    from d100gui.demo import build_demo_campaign

    loaded = packs.load_library(user_data_dir())
    win = MainWindow(loaded, Preferences(), campaign=build_demo_campaign(loaded.library))
    qtbot.addWidget(win)
    win.resize(1280, 720)
    win.show()
    qtbot.waitExposed(win)
    assert too_wide(win, 1280) == []
    assert win.height() == 720


def cut_short(widgets: list[QWidget]) -> list[str]:
    """Single-line labels and buttons whose text is wider than the room they have."""
    found = []
    for widget in widgets:
        if not widget.isVisible():
            continue
        if isinstance(widget, QLabel):
            if widget.wordWrap() or widget.textFormat() == Qt.TextFormat.RichText or "\n" in widget.text():
                continue
            if "<" in widget.text() and widget.textFormat() != Qt.TextFormat.PlainText:
                continue  # rich text: laid out as a document
            room = widget.contentsRect().width() - 2 * widget.margin()
            text = widget.text()
        elif isinstance(widget, QAbstractButton):
            room = widget.width() - 12  # the frame and the padding of the style
            text = widget.text().replace("&", "")
        else:
            continue
        need = widget.fontMetrics().horizontalAdvance(text)
        if text and need > room:
            found.append(f"{type(widget).__name__} {text!r}: needs {need}px, has {room}px")
        shown = widget.visibleRegion().boundingRect()
        if text and not shown.isEmpty() and shown.width() < widget.width():  # a scroll area hides its end
            found.append(f"{type(widget).__name__} {text!r}: {shown.width()}px of {widget.width()}px show")
    return found


def owned_widgets(win: MainWindow) -> list[QWidget]:
    """The map area and the dice panel with everything in them."""
    out: list[QWidget] = []
    for root in (win.map_area, win.dice_panel):
        out.append(root)
        out.extend(root.findChildren(QWidget))
    return out


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
@pytest.mark.parametrize("size", [(1280, 720), (1400, 900)])
def test_nothing_is_cut_short(qtbot, size):
    from d100gui.demo import build_demo_campaign

    loaded = packs.load_library(user_data_dir())
    win = MainWindow(loaded, Preferences(), campaign=build_demo_campaign(loaded.library))
    qtbot.addWidget(win)
    win.resize(*size)
    win.show()
    qtbot.waitExposed(win)
    win.dice_panel.select_table("classic.wilderness_evasion")
    win.dice_panel.roll_selected_table()
    for _ in range(3):
        QApplication.processEvents()
    assert cut_short(owned_widgets(win)) == []
    win.edit_map_action.trigger()  # the edit tools show above the map
    QApplication.processEvents()
    assert cut_short(owned_widgets(win)) == []
