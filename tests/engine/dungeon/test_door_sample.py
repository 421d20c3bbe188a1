"""Issue 19, deliver 5: a door roll on a row Table D lacks can be settled by re-rolling among the printed rows
(sample play, this door only), as every other missing row can; the re-roll is in the dice history."""

from __future__ import annotations

import pytest

from d100gui.engine.dice.dice import ScriptedSource
from d100gui.engine.dungeon.commands import ResolveDoorRow
from d100gui.engine.protocol import CommandRefused
from tests.engine.dungeon.test_map_commands import explored


def test_re_rolling_among_printed_rows_settles_the_door(bundled_library):
    game = explored(bundled_library)  # the north door of area 8,9 rolled 90: Table D prints 1-41
    with pytest.raises(CommandRefused, match="Type the Table D row"):
        game.execute(ResolveDoorRow(pos="8,9", side="N"))
    before = len(game.campaign.dice_history)
    game.override = ScriptedSource([9, 5, 3, 2])  # 95: no row again, then 32: TRAP LOCKED (TLD)
    game.execute(ResolveDoorRow(pos="8,9", side="N", sample=True))
    door = game.campaign.dungeons.current_dungeon.areas["8,9"].exits["N"].door
    assert door.label == "TLD (32)" and not door.pending
    entry = game.campaign.dice_history[before]
    assert entry.table is not None and entry.table.sample and entry.roll.final == 32
    assert game.library.get("d100.D").find(90) is None  # nothing saved: sample play
    with pytest.raises(CommandRefused, match="not waiting"):
        game.execute(ResolveDoorRow(pos="8,9", side="N", sample=True))
