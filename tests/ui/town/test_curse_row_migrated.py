"""A curse left waiting for its Table C row in a campaign saved in format 2 (``town.curse_waiting``) opens in
the window with the curse still waiting (format 3 keeps it in ``adventure.rows_waiting``), and the player
answers it from the control the window shows: the turn strip's "Type Table C row 50" button, then the dialog."""

from __future__ import annotations

import json

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialogButtonBox
from test_curse_row_window import cast_and_fail, window  # noqa: F401

from d100gui.engine.dice.waiting import curse_waiting
from d100gui.storage import packs
from d100gui.storage.campaigns import load_campaign
from d100gui.storage.paths import user_data_dir
from d100gui.ui.common.dialogs import MissingRowDialog
from d100gui.ui.common.settings import Preferences
from d100gui.ui.main_window import MainWindow

pytestmark = pytest.mark.gui


def _format_2(data: dict) -> dict:
    """The campaign as format 2 saved it: the curse's roll in ``town.curse_waiting``."""
    [curse] = [w for w in data["adventure"]["rows_waiting"] if w["then"] == "curse"]
    data["adventure"]["rows_waiting"] = [w for w in data["adventure"]["rows_waiting"] if w is not curse]
    data["town"]["curse_waiting"] = curse["table_roll"]
    data["schema_version"] = 2
    return data


@pytest.mark.slow  # two windows: left out of `make check` (the fast lane); `make test` runs it
def test_a_format_2_campaign_with_a_curse_waiting_is_answered_from_the_turn_strip(qtbot, window, tmp_path):  # noqa: F811
    cast_and_fail(qtbot, window)
    [dialog] = [d for d in window.findChildren(MissingRowDialog) if d.isVisible()]
    dialog.reject()  # left waiting, then the campaign saved (by the version before format 3) and closed
    shown = window.turn_strip.buttons["curse_row"]
    label, tip = shown.text(), shown.toolTip()
    path = tmp_path / "cursed.d100.json"
    path.write_text(json.dumps(_format_2(window.game.campaign.model_dump(mode="json"))), encoding="utf-8")
    window.close()

    reopened = MainWindow(packs.load_library(user_data_dir()), Preferences(), campaign=load_campaign(path))
    qtbot.addWidget(reopened)
    reopened.show()
    assert curse_waiting(reopened.game.campaign.adventure.rows_waiting) is not None
    assert reopened.curse_row_action.isEnabled()  # Hero > Type the curse's row, as before
    button = reopened.turn_strip.buttons["curse_row"]
    assert button.isVisible() and button.isEnabled() and (button.text(), button.toolTip()) == (label, tip)
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    [asked] = [d for d in reopened.findChildren(MissingRowDialog) if d.isVisible()]
    assert asked.roll == 50 and "Curses" in asked.windowTitle()
    asked.fields["name"].setText("HEXED")
    asked.fields["effect"].setText("-4 INT to your primary characteristic.")
    asked.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
    ch = reopened.game.campaign.character
    assert ch.characteristics["INT"].primary == 51  # the curse applied in full
    assert curse_waiting(reopened.game.campaign.adventure.rows_waiting) is None
    assert not reopened.curse_row_action.isEnabled()
    gone = reopened.turn_strip.buttons.get("curse_row")
    assert gone is None or not gone.isVisible()
