"""The menu bar made from data (ui/menus.py MENU_BAR): every item reaches a real handler of the window."""

from __future__ import annotations

from functools import reduce

import pytest
from PySide6.QtGui import QAction

from d100gui.engine.campaign import Campaign
from d100gui.engine.fight_start import StartCombat
from d100gui.engine.hero.model import new_character
from d100gui.storage import packs
from d100gui.storage.paths import user_data_dir
from d100gui.storage.resources import bundled_rules
from d100gui.ui.common.settings import Preferences
from d100gui.ui.help.shortcuts import menu_paths
from d100gui.ui.main_window import MainWindow
from d100gui.ui.menus import MENU_BAR, ActionEntry

pytestmark = pytest.mark.gui

ENTRIES = [item for _title, _name, items in MENU_BAR for item in items if isinstance(item, ActionEntry)]


@pytest.fixture
def window(qtbot):
    win = MainWindow(packs.load_library(user_data_dir()), Preferences(), seed=3)
    qtbot.addWidget(win)
    return win


def test_every_entry_names_a_handler_the_window_has_and_is_one_action_in_the_menu_bar(window):
    paths = menu_paths(window)
    assert len({e.name for e in ENTRIES}) == len(ENTRIES)  # one attribute and objectName each
    for entry in ENTRIES:
        act = getattr(window, entry.name)
        assert isinstance(act, QAction) and act.objectName() == entry.name
        assert act.text() == entry.text and act in paths  # shown in a menu
        if entry.handler is not None:
            assert callable(reduce(getattr, entry.handler.split("."), window)), entry.handler


def test_start_a_fight_is_greyed_with_the_gates_reason_while_a_fight_is_on(qtbot):
    hero = new_character(bundled_rules())
    hero.creation, hero.name = None, "Aria"
    win = MainWindow(packs.load_library(user_data_dir()), Preferences(), campaign=Campaign(character=hero))
    qtbot.addWidget(win)
    assert win.start_fight_action.isEnabled()
    assert win.bridge.send(StartCombat(source="snake"))
    assert not win.start_fight_action.isEnabled()
    assert win.start_fight_action.statusTip() == win.bridge.flow().why_not("start_combat") != ""
