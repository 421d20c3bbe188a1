"""Quit is clean (issue 27, finding 8).

SIGTERM during play used to show "Could not save the campaign: NAME.d100 cannot be opened: a file of
that name exists already" every time: the quit closed the store inside the running command, and the
autosave then tried to create the file again. The command's change is now saved once, in order, to
the same file, and nothing is made again.
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from d100gui.storage import packs
from d100gui.storage.paths import user_data_dir
from d100gui.storage.store import CampaignStore
from d100gui.ui.common.settings import Preferences
from d100gui.ui.main_window import MainWindow

pytestmark = pytest.mark.gui


def _window(qtbot) -> MainWindow:
    win = MainWindow(packs.load_library(user_data_dir()), Preferences(), seed=5)
    qtbot.addWidget(win)
    return win


def _roll(qtbot, win: MainWindow) -> None:
    qtbot.mouseClick(win.dice_panel.d6_button, Qt.MouseButton.LeftButton)


def test_quit_inside_a_running_command_saves_it_once_and_says_nothing_wrong(qtbot):
    win = _window(qtbot)
    _roll(qtbot, win)
    _roll(qtbot, win)
    path = win.campaign_path
    errors: list[str] = []
    win.campaigns.error.connect(errors.append)
    # the quit arrives while the command runs (a signal handler runs between any two bytecodes):
    # the window closes, and its store with it, before the command's change reaches the store
    win.game.change_listeners.insert(0, lambda change: win.campaigns.close())
    _roll(qtbot, win)
    assert errors == []
    assert win.campaigns.save_box is None
    assert sorted(p.name for p in path.parent.iterdir() if p.name.startswith(path.name)) == [path.name]  # one file
    with CampaignStore.open(path) as store:
        assert store.log_length == 3  # the last action is there, once
        loaded = store.load()
        assert loaded.log[-1].index == 2 and len(loaded.dice_history) == 3
        assert loaded.model_dump_json(exclude={"log"}) == win.game.campaign.model_dump_json(exclude={"log"})


def test_closing_twice_and_ending_a_command_after_it_never_makes_the_file_again(qtbot):
    win = _window(qtbot)
    _roll(qtbot, win)
    path = win.campaign_path
    errors: list[str] = []
    win.campaigns.error.connect(errors.append)
    win.campaigns.close()  # the window's close
    win.campaigns.close()  # and the app's aboutToQuit
    win.campaigns.autosave()  # the end of a command after it
    assert errors == [] and win.campaigns.store is None
    with CampaignStore.open(path) as store:
        assert store.log_length == 1
