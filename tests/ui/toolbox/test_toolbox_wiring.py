"""The main window's Tools > Toolbox menu shows the Toolbox dock, whose results reach the window like any action."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction

from d100gui.engine.dice.dice import ScriptedSource
from d100gui.storage import packs
from d100gui.storage.paths import user_data_dir
from d100gui.ui.common.settings import Preferences
from d100gui.ui.main_window import MainWindow
from d100gui.ui.toolbox.tool_panel import ToolPanel

pytestmark = pytest.mark.gui


def menu_action(window: MainWindow, menu_title: str, text: str) -> QAction:
    for top in window.menuBar().actions():
        if top.text().replace("&", "") == menu_title and top.menu() is not None:
            for act in top.menu().actions():
                if act.text().replace("&", "") == text:
                    return act
    raise AssertionError(f"no {menu_title} > {text}")


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_tools_toolbox_shows_the_dock_and_a_roll_reaches_the_window(qtbot):
    window = MainWindow(packs.load_library(user_data_dir()), Preferences(), seed=5)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    window.toolbox_dock.hide()
    menu_action(window, "Tools", "Toolbox").trigger()
    assert window.toolbox_dock.isVisible() and window.toolbox_dock.widget() is window.toolbox
    assert not window.toolbox_dock.visibleRegion().isEmpty()  # in front of the docks it shares a tab with
    panel = window.toolbox.choose("scars_distance")
    assert isinstance(panel, ToolPanel)
    window.game.override = ScriptedSource([3, 4])
    qtbot.mouseClick(panel.roll_button, Qt.MouseButton.LeftButton)
    assert "70 feet" in panel.result_box.text.toPlainText() and "70 feet" in window.statusBar().currentMessage()
    assert window.undo_action.isEnabled()  # a toolbox roll is an action like any other: undo takes it back
    window.undo_action.trigger()
    assert window.game.campaign.log == [] and window.toolbox.results.count() == 0


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_a_toolbox_result_is_sent_to_the_adventure_log_with_its_dice_in_the_command_log(qtbot):
    window = MainWindow(packs.load_library(user_data_dir()), Preferences(), seed=5)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    menu_action(window, "Tools", "Toolbox").trigger()
    panel = window.toolbox.choose("classic_hoard")
    assert isinstance(panel, ToolPanel)
    qtbot.mouseClick(panel.roll_button, Qt.MouseButton.LeftButton)
    result = panel.result_box.text.toPlainText()
    assert result.startswith("Treasure, level 1") and "worth" in result
    [line] = [line for line in window.adventure_log.model.shown() if line.command == "toolbox_classic_hoard"]
    assert line.text == result  # the adventure log shows the whole result, every sub-roll
    entry = window.game.campaign.log[line.entry]
    assert entry.rolls and all(r.purpose for r in entry.rolls)  # ...and its action keeps every die, each named


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_a_tool_s_roll_on_an_unprinted_row_opens_the_type_the_row_dialog(qtbot):
    """Issue 22: a missing row in the toolbox behaves as in the dice panel (policy "ask me")."""
    window = MainWindow(packs.load_library(user_data_dir()), Preferences(), seed=5)
    qtbot.addWidget(window)
    window.show()
    menu_action(window, "Tools", "Toolbox").trigger()
    panel = window.toolbox.choose("classic_magic")
    assert isinstance(panel, ToolPanel)
    panel.inputs["maps"].setChecked(False)
    window.game.override = ScriptedSource([9, 3, 2, 7])  # Wands/Staves (93), 27: the text prints no 26-30
    qtbot.mouseClick(panel.roll_button, Qt.MouseButton.LeftButton)
    assert "row 26-30 is not in your tables" in panel.result_box.text.toPlainText()
    dialog = window.missing_row_dialog
    assert dialog is not None and (dialog.roll, dialog.missing) == (27, (26, 30))
