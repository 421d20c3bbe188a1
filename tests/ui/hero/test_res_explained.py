"""Issue 19 (confusing): the sheet's "RES in the Lives box" check box says what RES does (the
Resurrection spell's mark: the next death is survived without spending a Life, and RES is used up)."""

from __future__ import annotations

import pytest

from d100gui.engine.campaign import Campaign
from d100gui.engine.commands import ALL_COMMANDS
from d100gui.engine.game import Game
from d100gui.storage.resources import bundled_rules, standard_tilesets
from d100gui.ui.common.bridge import EngineBridge
from d100gui.ui.hero.sheet import CharacterSheet

pytestmark = pytest.mark.gui


def test_the_res_box_explains_what_res_does(qtbot, bundled_library):
    game = Game(Campaign(), bundled_library, ALL_COMMANDS, rules=bundled_rules(), tilesets=standard_tilesets())
    sheet = CharacterSheet(EngineBridge(game))
    qtbot.addWidget(sheet)
    tip = sheet.header.res_check.toolTip()
    assert "Resurrection" in tip and "dies" in tip
    assert "without spending a Life" in tip  # what it saves
    assert "removed" in tip  # and that it is used up
