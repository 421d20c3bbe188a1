"""Campaigns in the window: autosave, reopen, undo/redo, refusals with backups, the list, replay."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog

from d100gui.engine.dice.dice import ScriptedSource
from d100gui.storage import packs
from d100gui.storage.campaigns import SUFFIX, campaigns_dir, save_campaign
from d100gui.storage.paths import user_data_dir
from d100gui.storage.store import STORE_SUFFIX, CampaignStore
from d100gui.ui.common.settings import Preferences
from d100gui.ui.main_window import MainWindow

pytestmark = pytest.mark.gui


def new_window(qtbot) -> MainWindow:
    win = MainWindow(packs.load_library(user_data_dir()), Preferences(), seed=11)
    qtbot.addWidget(win)
    return win


def stored(path):
    """The campaign as its store holds it (the window that played it closed first: a store is locked while open)."""
    with CampaignStore.open(path) as store:
        return store.load()


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_first_action_autosaves_and_reopen_restores(qtbot):
    win = new_window(qtbot)
    assert win.campaign_path is None
    win.game.override = ScriptedSource([3, 3])
    qtbot.mouseClick(win.dice_panel.d100_button, Qt.MouseButton.LeftButton)
    path = win.campaign_path
    assert path is not None and path.parent == campaigns_dir() and path.name.endswith(STORE_SUFFIX)
    assert win.campaigns.store.load().dice_history[0].roll.natural == 33
    assert Preferences().recent() == [path]
    win.close()  # quitting closes the store: one file at rest
    assert not path.with_name(path.name + "-wal").exists()
    assert stored(path).dice_history[0].roll.natural == 33
    other = new_window(qtbot)
    other.menus.recent.aboutToShow.emit()  # File > Open Recent
    [recent] = other.menus.recent.actions()
    assert recent.text().startswith("New campaign, ") and recent.toolTip() == str(path)  # no hero yet: when it was played
    recent.trigger()
    assert other.campaign_path == path
    assert other.dice_panel.history.count() == 1
    assert "33" in other.dice_panel.result_title.text()
    assert "Opened New campaign, " in other.statusBar().currentMessage()  # named as the player knows it, not by its id


def test_undo_redo_actions_and_shortcuts(qtbot):
    win = new_window(qtbot)
    assert win.undo_action.shortcut().toString() == "Ctrl+Z"
    assert win.redo_action.shortcut().toString() == "Ctrl+Shift+Z"
    qtbot.mouseClick(win.dice_panel.d100_button, Qt.MouseButton.LeftButton)
    first = win.game.campaign.dice_history[0].roll.natural
    win.undo_action.trigger()
    assert win.dice_panel.history.count() == 0
    assert win.campaigns.store.load().dice_history == []
    win.redo_action.trigger()
    assert win.dice_panel.history.count() == 1
    assert win.game.campaign.dice_history[0].roll.natural == first
    assert not win.redo_action.isEnabled()


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_corrupt_campaign_is_refused_untouched_and_backup_offered(qtbot):
    win = new_window(qtbot)
    qtbot.mouseClick(win.dice_panel.d6_button, Qt.MouseButton.LeftButton)
    path = campaigns_dir() / f"older{SUFFIX}"  # an older JSON campaign, saved twice: it has a backup
    save_campaign(win.game.campaign, path)
    qtbot.mouseClick(win.dice_panel.d6_button, Qt.MouseButton.LeftButton)
    save_campaign(win.game.campaign, path)
    path.write_text('{"schema_version": 1, "meta": ', encoding="utf-8")
    damaged = path.read_bytes()
    other = new_window(qtbot)
    assert not other.open_campaign(path)
    assert "cut short" in other.last_message_box.text()
    assert "has not been changed" in other.last_message_box.text()
    assert path.read_bytes() == damaged
    [button] = list(other.campaigns.restore_buttons)
    button.click()
    assert other.campaign_path.name.endswith("-restored" + STORE_SUFFIX)
    assert len(other.game.campaign.dice_history) == 1
    assert path.read_bytes() == damaged


def test_newer_version_is_refused(qtbot, tmp_path):
    path = tmp_path / "future.d100.json"
    path.write_text(json.dumps({"schema_version": 999}), encoding="utf-8")
    win = new_window(qtbot)
    assert not win.open_campaign(path)
    assert "newer d100gui" in win.last_message_box.text()


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_campaign_list_shows_saved_campaigns(qtbot):
    win = new_window(qtbot)
    qtbot.mouseClick(win.dice_panel.d6_button, Qt.MouseButton.LeftButton)
    win.campaigns_action.trigger()
    dialog = win.campaigns.list_dialog
    assert dialog.table.rowCount() == 1
    assert dialog.table.item(0, 0).toolTip() == str(win.campaign_path)  # the file (named by its id) in the tooltip
    assert "unreadable" not in dialog.table.item(0, 0).text()  # the campaign in play, though its store is locked
    win.close()
    other = new_window(qtbot)
    other.campaigns_action.trigger()
    other.campaigns.list_dialog._open()
    assert other.campaign_path == win.campaign_path


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_save_as_open_and_new_from_the_file_menu(qtbot, tmp_path, monkeypatch):
    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(lambda *a, **k: (str(tmp_path / "hero"), "")))
    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(lambda *a, **k: (str(tmp_path / f"hero{STORE_SUFFIX}"), "")))
    win = new_window(qtbot)
    qtbot.mouseClick(win.dice_panel.d6_button, Qt.MouseButton.LeftButton)
    win.save_as_action.trigger()
    assert win.campaign_path == tmp_path / f"hero{STORE_SUFFIX}"
    assert win.windowTitle() == "hero — d100gui"  # no hero, no dungeon yet: the name it was saved as
    assert win.campaigns.store.load().dice_history
    win.new_action.trigger()
    assert win.campaign_path is None
    assert win.dice_panel.history.count() == 0
    win.open_action.trigger()
    assert win.campaign_path == tmp_path / f"hero{STORE_SUFFIX}"
    assert win.dice_panel.history.count() == 1


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_a_migrated_campaign_says_what_changed_once(qtbot, tmp_path):
    win = new_window(qtbot)
    qtbot.mouseClick(win.dice_panel.d6_button, Qt.MouseButton.LeftButton)
    win.game.campaign.meta.notes = ["1 log entry was converted from an older file."]
    save_campaign(win.game.campaign, tmp_path / f"old{SUFFIX}")  # an older JSON file, as a migration leaves it
    other = new_window(qtbot)
    assert other.open_campaign(tmp_path / f"old{SUFFIX}")
    assert other.campaign_path == tmp_path / f"old{STORE_SUFFIX}"  # converted, the original kept
    assert (tmp_path / f"old{SUFFIX}").exists()
    assert other.statusBar().currentMessage() == "1 log entry was converted from an older file."


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_replay_command_prints_final_state(qtbot):
    win = new_window(qtbot)
    win.dice_panel.select_table("d100.E")
    qtbot.mouseClick(win.dice_panel.table_button, Qt.MouseButton.LeftButton)
    win.dice_panel.expression.setText("3d6")
    qtbot.mouseClick(win.dice_panel.expression_button, Qt.MouseButton.LeftButton)
    win.close()  # the replay reads the store the window played
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
