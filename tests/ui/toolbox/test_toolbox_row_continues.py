"""Issue 22, deliver 3, through the window: a tool stopped at a missing row goes on once the player types the row in
the row dialog, or re-rolls among the printed rows there. The tool's panel and the Results list show one result
(the continued one in place of the stopped one), and Edit > Undo takes the continuation back in one step."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialogButtonBox

from d100gui.engine.dice.dice import ScriptedSource
from d100gui.storage import packs
from d100gui.storage.paths import user_data_dir
from d100gui.ui.common.settings import Preferences
from d100gui.ui.main_window import MainWindow
from d100gui.ui.toolbox.tool_panel import ToolPanel
from tests.ui.toolbox.test_toolbox_wiring import menu_action

pytestmark = pytest.mark.gui

WANDS_27 = [9, 3, 2, 7]  # class of magic item 93 (Wands/Staves), then 27: the text prints no 26-30


def _stopped(qtbot) -> tuple[MainWindow, ToolPanel]:
    """The magic item tool rolled from its Roll button onto Wands and Staves 27: the row dialog is open."""
    window = MainWindow(packs.load_library(user_data_dir()), Preferences(), seed=5)
    qtbot.addWidget(window)
    window.show()
    menu_action(window, "Tools", "Toolbox").trigger()
    panel = window.toolbox.choose("classic_magic")
    assert isinstance(panel, ToolPanel)
    panel.inputs["maps"].setChecked(False)
    window.game.override = ScriptedSource(WANDS_27)
    qtbot.mouseClick(panel.roll_button, Qt.MouseButton.LeftButton)
    window.game.override = None
    assert "row 26-30 is not in your tables" in panel.result_box.text.toPlainText()
    assert window.toolbox.results.count() == 1
    return window, panel


def _results(window: MainWindow) -> list[str]:
    results = window.toolbox.results
    return [results.item(i).text() for i in range(results.count())]


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_typing_the_row_in_the_dialog_runs_the_tool_on_and_undo_takes_it_back(qtbot):
    window, panel = _stopped(qtbot)
    stopped = panel.result_box.text.toPlainText()
    dialog = window.missing_row_dialog
    assert dialog is not None and (dialog.roll, dialog.missing) == (27, (26, 30))
    dialog.fields["item"].setText("Wand of Testing")
    qtbot.mouseClick(dialog.buttons.button(QDialogButtonBox.StandardButton.Ok), Qt.MouseButton.LeftButton)
    shown = panel.result_box.text.toPlainText()
    assert "Wands and Staves: Wand of Testing" in shown and "not in your tables" not in shown.splitlines()[0]
    [line] = _results(window)  # one result: the continued one in the stopped one's place
    assert "Wand of Testing" in line and line.startswith("2. Magic item")
    same = panel.result_box.same_button
    assert not same.isEnabled() and "Undo takes it back" in same.toolTip()  # greyed, saying why
    window.undo_action.trigger()
    assert len(window.game.campaign.log) == 1 and window.game.campaign.toolbox.runs  # one step: the run waits again
    [line] = _results(window)
    assert "not in your tables" in line and panel.result_box.text.toPlainText() == stopped
    window.redo_action.trigger()
    assert panel.result_box.text.toPlainText() == shown and len(_results(window)) == 1


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_re_rolling_among_printed_rows_in_the_dialog_runs_the_tool_on_with_a_printed_wand(qtbot):
    window, panel = _stopped(qtbot)
    dialog = window.missing_row_dialog
    assert dialog is not None and dialog.sample_once.isVisible()
    window.game.override = ScriptedSource([1, 0])  # the re-roll: 10, Metal Detection (printed)
    qtbot.mouseClick(dialog.sample_once, Qt.MouseButton.LeftButton)
    window.game.override = None
    shown = panel.result_box.text.toPlainText()
    assert "Metal Detection" in shown and "sample play" in shown
    [line] = _results(window)
    assert "Metal Detection" in line
    sampled = window.game.campaign.dice_history[-1]
    assert sampled.table is not None and sampled.table.sample and sampled.parent == 0  # in the dice history too
