"""The dice panel's "Fight this monster" during a quest is the fight the turn counts (issue 18).

A red area whose Table E roll lands on a row the player's tables lack leaves the monster waiting for
the turn; once the row is typed, "Fight this monster" on that roll used to start a second fight the
turn never counted (the monster stayed offered, to be fought again at full HP). It now sends what
the engine's flow says: the turn's own fight. Reached with real clicks on scripted dice.
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialogButtonBox

from tests.ui.adventure.test_turn_strip import next_clock_faces, on_quest_in_the_dungeon, window  # noqa: F401

pytestmark = pytest.mark.gui


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_fight_this_monster_fights_the_monster_the_turn_waits_on(qtbot, window):  # noqa: F811
    player = on_quest_in_the_dungeon(qtbot, window)
    campaign = window.game.campaign
    window.game.override.push(*next_clock_faces(window), 2, 9, 8, 0)  # a red area; Table E 80 - 40 = 40: not printed
    player.click_map(player.exit_point("N"))
    assert campaign.combat is None and campaign.adventure.fight_offered is not None
    dialog = window.row_requests.dialog  # the missing-row dialog opened for the Table E roll
    assert dialog is not None and dialog.isVisible()
    for key, value in {
        "monster": "Orc (H)",
        "av": "40",
        "def": "1",
        "dmg": "+0",
        "hp": "8",
        "loot": "[K:Table P]",
        "special": "Pack",
    }.items():
        dialog.fields[key].setText(value)
    qtbot.mouseClick(dialog.buttons.button(QDialogButtonBox.StandardButton.Ok), Qt.MouseButton.LeftButton)
    assert campaign.log[-1].command["kind"] == "provide_row" and campaign.adventure.fight_offered is not None
    [fight] = [b for b in window.dice_panel.followup_buttons() if b.text() == "Fight this monster"]
    assert fight.isEnabled(), fight.toolTip()
    window.game.override.push(5)  # the reaction
    qtbot.mouseClick(fight, Qt.MouseButton.LeftButton)
    assert campaign.combat is not None and campaign.combat.monster.name.startswith("Orc")
    assert campaign.adventure.fight_offered is None  # one fight, the turn's: no second one waits
    assert campaign.log[-1].command["kind"] == "turn_fight"
    assert not fight.isEnabled() and fight.toolTip()  # the button follows the flow: no second fight while one is on
