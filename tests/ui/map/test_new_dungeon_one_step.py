"""Issue 18, Deliver 4: Map > New dungeon is one command and one undo step (the sheet and the step in)."""

from __future__ import annotations

from d100gui.engine.dice.dice import ScriptedSource
from d100gui.storage import packs
from d100gui.storage.paths import user_data_dir
from d100gui.ui.common.settings import Preferences
from d100gui.ui.main_window import MainWindow


def test_new_dungeon_is_one_command_and_one_undo_step(qtbot):
    window = MainWindow(packs.load_library(user_data_dir()), Preferences(), seed=5)
    qtbot.addWidget(window)
    campaign = window.game.campaign
    before = (campaign.log_length, len(campaign.dungeons.dungeons))
    window.game.override = ScriptedSource([0, 3])  # the entrance: tile 3
    window.new_dungeon_action.trigger()  # Map > New dungeon
    campaign = window.game.campaign
    assert campaign.log_length == before[0] + 1 and campaign.log[-1].command["enter"] is True
    dungeon = campaign.dungeons.current_dungeon
    assert dungeon is not None and dungeon.hero is not None  # the hero stepped in, in the same command
    window.undo_action.trigger()
    campaign = window.game.campaign
    assert (campaign.log_length, len(campaign.dungeons.dungeons)) == before  # one undo takes both back
