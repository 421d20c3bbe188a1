"""How to handle rows the tables lack: asked in plain words at first run and on a new campaign, changeable any time."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialogButtonBox

from d100gui.engine.dice.roller import MissingRowPolicy
from d100gui.storage import packs
from d100gui.storage.paths import user_data_dir
from d100gui.ui.common.preferences import POLICY_ASK_TEXT, POLICY_REROLL_TEXT
from d100gui.ui.common.settings import Preferences
from d100gui.ui.main_window import MainWindow
from d100gui.ui.table_editor.editor import TableEditor
from d100gui.ui.table_editor.setup import PolicyChoiceDialog

pytestmark = pytest.mark.gui

CLICK = Qt.MouseButton.LeftButton


def pick(qtbot, dialog: PolicyChoiceDialog, choice: str) -> None:
    qtbot.mouseClick(dialog.buttons_by_choice[choice], CLICK)
    qtbot.mouseClick(dialog.buttons.button(QDialogButtonBox.StandardButton.Ok), CLICK)


def test_first_run_asks_once_in_plain_words_and_sample_play_is_saved(window, qtbot):
    window.table_files.show_startup_problems()  # what the app does once the window is up
    dialog = window.table_setup.choice_dialog
    assert isinstance(dialog, PolicyChoiceDialog) and dialog.isVisible()
    texts = [b.text() for b in dialog.buttons_by_choice.values()]
    assert texts == [POLICY_ASK_TEXT, "Complete my tables now (opens the table editor)", POLICY_REROLL_TEXT]
    assert dialog.buttons_by_choice["ask"].isChecked()
    pick(qtbot, dialog, "sample")
    assert window.game.policy is MissingRowPolicy.REROLL
    assert Preferences().missing_row_policy is MissingRowPolicy.REROLL
    again = MainWindow(packs.load_library(user_data_dir()), Preferences(), seed=2)
    qtbot.addWidget(again)
    again.table_files.show_startup_problems()
    assert again.table_setup.choice_dialog is None  # asked once
    assert again.game.policy is MissingRowPolicy.REROLL


def test_a_new_campaign_asks_and_complete_my_tables_opens_the_editor(window, qtbot):
    window.new_action.trigger()  # File > New campaign
    dialog = window.table_setup.choice_dialog
    assert isinstance(dialog, PolicyChoiceDialog)
    pick(qtbot, dialog, "complete")
    assert isinstance(window.table_setup.editor, TableEditor) and window.table_setup.editor.isVisible()
    assert window.game.policy is MissingRowPolicy.ASK


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_changeable_any_time_from_the_tables_menu_and_preferences_use_the_same_words(window, qtbot):
    window.table_policy_action.trigger()  # Tables > Missing rows...
    pick(qtbot, window.table_setup.choice_dialog, "sample")
    window.prefs_action.trigger()  # Edit > Preferences
    prefs = window.preferences_dialog
    assert [prefs.policy.itemText(i) for i in range(prefs.policy.count())] == [POLICY_ASK_TEXT, POLICY_REROLL_TEXT]
    assert prefs.policy.currentData() == MissingRowPolicy.REROLL.value
    window.table_policy_action.trigger()
    dialog = window.table_setup.choice_dialog
    assert dialog.buttons_by_choice["sample"].isChecked()
    pick(qtbot, dialog, "ask")
    assert window.game.policy is MissingRowPolicy.ASK and Preferences().missing_row_policy is MissingRowPolicy.ASK
