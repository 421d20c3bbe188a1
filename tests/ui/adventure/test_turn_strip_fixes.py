"""A narrative the engine could not carry out shows under the strip with its one-click hand correction."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialogButtonBox, QLabel
from test_turn_strip import next_clock_faces, on_quest_in_the_dungeon, window  # noqa: F401  (the fixture)

from d100gui.engine.skill_test_commands import RollTest

pytestmark = pytest.mark.gui
GREEN_CROSSROADS = [1, 0]  # Table M 10
SPIKED_PIT = [0, 5]  # Table G 5: SPIKED PIT TRAP, its SPIKES note: "even spikes hit -2 HP"


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_a_failed_trap_rolls_its_note_and_leaves_nothing_to_correct(qtbot, window):  # noqa: F811
    player = on_quest_in_the_dungeon(qtbot, window)
    strip = window.turn_strip
    window.game.override.push(*next_clock_faces(window), *GREEN_CROSSROADS, *SPIKED_PIT)
    player.click_map(player.exit_point("N"))
    assert strip.fix_buttons == []  # the note is shown with the feature, not offered as a correction
    [roll] = [b for key, b in strip.buttons.items() if key.startswith("roll_")]
    window.game.override.push(9, 9)  # 99: the SPIKED PIT TRAP test fails
    qtbot.mouseClick(roll, Qt.MouseButton.LeftButton)
    [accept] = [b for key, b in strip.buttons.items() if key.startswith("accept_")]
    window.game.override.push(4, 6, *next_clock_faces(window))  # the belt check's d10, SPIKES 6 (even: hit), the +1's clock
    hp = window.game.campaign.character.hp
    qtbot.mouseClick(accept, Qt.MouseButton.LeftButton)
    ch = window.game.campaign.character
    assert ch.hp == hp - 4  # the test's own -2 hp and the spikes' -2: "roll SPIKES" rolled by the engine
    assert strip.fix_buttons == []  # nothing left to roll at the table
    assert any(e.kind == "follow_up_rolled" for e in window.game.campaign.log[-1].events)


def test_a_narrative_with_nothing_to_apply_opens_the_sheet(qtbot, window):  # noqa: F811
    on_quest_in_the_dungeon(qtbot, window)
    strip = window.turn_strip
    window.sheet_dock.hide()
    window.game.override.push(9, 9)
    window.bridge.send(RollTest(text="OLD BELL – Test: Dex [S: avoid] [F: the bell tolls and you lose a turn]", auto_accept=True))
    [fix] = strip.fix_buttons
    assert fix.text() == "Correct the time track by hand..."
    sheet = window.sheet
    window.sheet_dock.show()
    sheet.scroll_area.verticalScrollBar().setValue(0)
    qtbot.waitUntil(lambda: sheet.scroll_area.verticalScrollBar().value() == 0)
    assert sheet.time.visibleRegion().isEmpty()  # the time track is further down the sheet
    window.sheet_dock.hide()
    with qtbot.waitSignal(strip.correction_requested) as asked:
        qtbot.mouseClick(fix, Qt.MouseButton.LeftButton)
    assert asked.args == ["time"] and window.sheet_dock.isVisible()
    qtbot.waitUntil(lambda: not sheet.time.visibleRegion().isEmpty())  # the sheet opened at its time track


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_a_table_g_row_typed_in_the_dialog_is_applied_at_once(qtbot, window):  # noqa: F811
    player = on_quest_in_the_dungeon(qtbot, window)
    window.game.override.push(*next_clock_faces(window), *GREEN_CROSSROADS, 5, 0)  # Table G 50: a row the excerpt lacks
    player.click_map(player.exit_point("N"))
    dialog = window.row_requests.dialog  # the missing-row dialog opened for the Table G roll
    assert dialog is not None and dialog.isVisible() and dialog.roll == 50
    assert window.game.campaign.adventure.rows_waiting
    dialog.fields["name"].setText("GOLDEN IDOL")
    dialog.fields["effect"].setText("A small idol glints in the dust, +5 gp")
    gp = window.game.campaign.character.gp
    qtbot.mouseClick(dialog.buttons.button(QDialogButtonBox.StandardButton.Ok), Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: window.game.campaign.character.gp == gp + 5)
    assert window.game.campaign.adventure.rows_waiting == []
    assert [e.command["kind"] for e in window.game.campaign.log[-2:]] == ["provide_row", "apply_typed_row"]


def test_the_entrance_clicked_on_a_quest_is_resolved_by_its_colour(qtbot, window):  # noqa: F811
    on_quest_in_the_dungeon(qtbot, window)
    entered = window.game.campaign.log[-1]
    assert entered.command["kind"] == "turn_enter"
    assert [e.data.get("outcome") for e in entered.events if e.kind == "area_resolved"] == ["proceed"]  # a yellow entrance
    assert window.turn_strip.current_step() == "equipment"


def test_a_door_of_the_players_choice_is_one_button_per_closed_door(qtbot, window):  # noqa: F811
    from test_turn_strip import Player

    from d100gui.engine.dungeon import map as dg

    qtbot.mouseClick(window.turn_strip.buttons["begin_quest"], Qt.MouseButton.LeftButton)
    dungeon = window.game.campaign.dungeons.current_dungeon
    window.game.override.push(2, 7, 3, 4)  # Table M 27: a room with one door; Table D 34: JAMMED
    player = Player(qtbot, window)
    player.click_map(player.view.map_scene.area_rect(dungeon.entrance).center())
    dungeon = window.game.campaign.dungeons.current_dungeon
    [where] = dg.doorways_of(dungeon, dungeon.hero)
    window.game.override.push(0, 1)  # a success: Table B's DOOR RELEASED text
    released = "DOOR RELEASED – Test: Dex [S: On your map change any door that is still closed to Open] [F: -1 hp]"
    window.bridge.send(RollTest(text=released, auto_accept=True))
    strip = window.turn_strip
    assert [b.text() for b in strip.fix_buttons] == [
        f"Open the JD door ({where.pos} {where.side})",
        "Correct a door on the map by hand...",
    ]
    said = [w for w in strip.findChildren(QLabel) if w.isVisible() and "To do at the table" in w.text()]
    assert len(said) == 1  # one line for the narrative, its two choices beside it
    qtbot.mouseClick(strip.fix_buttons[0], Qt.MouseButton.LeftButton)
    door = dg.door_at(window.game.campaign.dungeons.current_dungeon, where)
    assert door is not None and door.is_open and door.type == "JD" and window.game.campaign.log[-1].manual
    assert strip.fix_buttons == []
