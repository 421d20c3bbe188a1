"""The Town menu of the main window opens the wizard; a quest's end opens it by itself."""

from __future__ import annotations

import pytest
from conftest import hero
from PySide6.QtCore import Qt

from d100gui.engine.adventure.commands import BeginQuest, CompleteQuest, FailQuest
from d100gui.engine.campaign import Campaign
from d100gui.storage import packs
from d100gui.storage.paths import user_data_dir
from d100gui.ui.common.settings import Preferences
from d100gui.ui.main_window import MainWindow

pytestmark = pytest.mark.gui


@pytest.fixture
def window(qtbot):
    win = MainWindow(packs.load_library(user_data_dir()), Preferences(), campaign=Campaign(character=hero(gp=300)))
    qtbot.addWidget(win)
    return win


def town_menu_action(window: MainWindow):
    [menu] = [a.menu() for a in window.menuBar().actions() if a.text().replace("&", "") == "Town"]
    [action] = [a for a in menu.actions() if "next quest" in a.text()]
    return action


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_the_town_menu_opens_the_wizard_and_it_begins_the_phase(qtbot, window):
    action = town_menu_action(window)
    assert action is window.town_action and action.shortcut().toString() == "Ctrl+Shift+B"
    action.trigger()
    wizard = window.town_actions.wizard
    assert wizard is not None and wizard.isVisible() and wizard.stack.currentWidget() is wizard.begin
    qtbot.mouseClick(wizard.begin.begin_button, Qt.MouseButton.LeftButton)
    assert window.game.campaign.town.active and wizard.current_panel() is wizard.panels["refresh"]
    window.undo_action.trigger()  # Edit > Undo is the same game undo
    assert not window.game.campaign.town.active and wizard.stack.currentWidget() is wizard.begin


def test_the_wizard_opens_when_a_quest_ends(window):
    assert window.bridge.send(BeginQuest())
    assert window.town_actions.wizard is None
    assert not window.bridge.send(CompleteQuest())  # the objective (loot 3 parts) is not met yet
    assert window.town_actions.wizard is None
    assert window.bridge.send(FailQuest())  # failing ends the quest too (Training 1 costs half the gold)
    wizard = window.town_actions.wizard
    assert wizard is not None and wizard.isVisible()
    window.undo_action.trigger()
    window.redo_action.trigger()  # a redone quest end does not open it twice (it is already open)
    assert window.town_actions.wizard is wizard
