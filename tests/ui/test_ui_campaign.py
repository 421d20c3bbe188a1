"""Campaigns in the window: autosave, reopen, undo/redo, refusals with backups, the list, replay."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from d100gui.engine.dice.dice import ScriptedSource
from d100gui.storage import packs
from d100gui.storage.campaigns import SUFFIX, campaigns_dir, load_campaign
from d100gui.storage.paths import user_data_dir
from d100gui.ui.common.settings import Preferences
from d100gui.ui.main_window import MainWindow

pytestmark = pytest.mark.gui


def new_window(qtbot) -> MainWindow:
    win = MainWindow(packs.load_library(user_data_dir()), Preferences(), seed=11)
    qtbot.addWidget(win)
    return win


def test_first_action_autosaves_and_reopen_restores(qtbot):
    win = new_window(qtbot)
    assert win.campaign_path is None
    win.game.override = ScriptedSource([3, 3])
    win.dice_panel.roll_expression("d100")
    path = win.campaign_path
    assert path is not None and path.parent == campaigns_dir() and path.name.endswith(SUFFIX)
    assert load_campaign(path).dice_history[0].roll.natural == 33
    assert Preferences().recent() == [path]
    other = new_window(qtbot)
    assert other.open_campaign(path)
    assert other.dice_panel.history.count() == 1
    assert "33" in other.dice_panel.result_title.text()


def test_undo_redo_actions_and_shortcuts(qtbot):
    win = new_window(qtbot)
    assert win.undo_action.shortcut().toString() == "Ctrl+Z"
    assert win.redo_action.shortcut().toString() == "Ctrl+Shift+Z"
    win.dice_panel.roll_expression("d100")
    first = win.game.campaign.dice_history[0].roll.natural
    win.undo_action.trigger()
    assert win.dice_panel.history.count() == 0
    assert load_campaign(win.campaign_path).dice_history == []
    win.redo_action.trigger()
    assert win.dice_panel.history.count() == 1
    assert win.game.campaign.dice_history[0].roll.natural == first
    assert not win.redo_action.isEnabled()


def test_corrupt_campaign_is_refused_untouched_and_backup_offered(qtbot):
    win = new_window(qtbot)
    win.dice_panel.roll_expression("d6")
    win.dice_panel.roll_expression("d6")
    path = win.campaign_path
    path.write_text('{"schema_version": 1, "meta": ', encoding="utf-8")
    damaged = path.read_bytes()
    other = new_window(qtbot)
    assert not other.open_campaign(path)
    assert "cut short" in other.last_message_box.text()
    assert "has not been changed" in other.last_message_box.text()
    assert path.read_bytes() == damaged
    [button] = list(other.restore_buttons)
    other._open_backup(other.restore_buttons[button], path)
    assert other.campaign_path.name.endswith("-restored" + SUFFIX)
    assert len(other.game.campaign.dice_history) == 1
    assert path.read_bytes() == damaged


def test_newer_version_is_refused(qtbot, tmp_path):
    path = tmp_path / "future.d100.json"
    path.write_text(json.dumps({"schema_version": 999}), encoding="utf-8")
    win = new_window(qtbot)
    assert not win.open_campaign(path)
    assert "newer d100gui" in win.last_message_box.text()


def test_campaign_list_shows_saved_campaigns(qtbot):
    win = new_window(qtbot)
    win.dice_panel.roll_expression("d6")
    dialog = win.show_campaign_list()
    assert dialog.table.rowCount() == 1
    assert dialog.table.item(0, 5).text() == win.campaign_path.name
    other = new_window(qtbot)
    other.show_campaign_list()._open()
    assert other.campaign_path == win.campaign_path


def test_save_as_and_new(qtbot, tmp_path):
    win = new_window(qtbot)
    win.dice_panel.roll_expression("d6")
    assert win.save_as(str(tmp_path / "hero"))
    assert win.campaign_path == tmp_path / f"hero{SUFFIX}"
    assert load_campaign(win.campaign_path).dice_history
    win.new_campaign()
    assert win.campaign_path is None
    assert win.dice_panel.history.count() == 0


def test_replay_command_prints_final_state(qtbot):
    win = new_window(qtbot)
    win.dice_panel.select_table("d100.E")
    win.dice_panel.roll_selected_table()
    win.dice_panel.roll_expression("3d6")
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    result = subprocess.run(
        [sys.executable, "-m", "d100gui", "replay", "--check", str(win.campaign_path)],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    state = json.loads(result.stdout)
    assert state["dice_history"][1]["roll"]["natural"] == win.game.campaign.dice_history[1].roll.natural
    assert "matches" in result.stderr
