"""Issue 19, deliver 5: "Re-roll among printed rows" is offered in the missing-row dialog a door's Table D roll
opens (it was the one row dialog of the window without it), and it settles the door."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from d100gui.engine.dice.dice import ScriptedSource
from d100gui.engine.dungeon.commands import MoveHero
from d100gui.engine.dungeon_entry import EnterDungeon, NewDungeon
from d100gui.ui.common.dialogs import MissingRowDialog

pytestmark = pytest.mark.gui


def test_a_doors_missing_row_dialog_re_rolls_among_printed_rows_and_settles_the_door(qtbot, window):
    # entrance tile 3, north tile 12, east tile 6 turned 90: its north door rolls 90 (Table D prints 1-41)
    window.game.override = ScriptedSource([0, 3, 1, 2, 0, 5, 0, 6, 3, 2, 9, 0, 0, 1])
    for command in (NewDungeon(quest="Dungeon Training 1"), EnterDungeon(), MoveHero(side="N"), MoveHero(side="E")):
        assert window.bridge.send(command)
    dialog = window.missing_row_dialog
    assert isinstance(dialog, MissingRowDialog) and dialog.isVisible() and dialog.roll == 90
    assert dialog.sample_once.isVisible()
    window.game.override = ScriptedSource([3, 2])  # the re-roll: 32, TRAP LOCKED
    qtbot.mouseClick(dialog.sample_once, Qt.MouseButton.LeftButton)
    assert not dialog.isVisible()
    door = window.game.campaign.dungeons.current_dungeon.areas["8,9"].exits["N"].door
    assert door.label == "TLD (32)" and not door.pending
    assert window.game.campaign.dice_history[-1].table.sample
