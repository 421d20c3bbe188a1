"""The strip's Waiting row, reached as a player reaches it: every thing the game waits for has a control.

Issues 18 and 26: play got stuck for good when a decision waited that no control of the window
answered - the experience choice after a fight the turn started was won on a natural roll of 10
or less, after a test accepted from the strip with one, after an escape with one; a wandering
monster a Table F search brought at step 5 had its Fight button hidden; the entrance's exit
left the dungeon in the middle of a fight. Each case is played here with real clicks (the map's
exits, the strip's and the combat panel's buttons) on scripted dice; a d100 is two d10 faces.
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QDialogButtonBox, QMessageBox

from tests.ui.adventure.test_turn_strip import Player, next_clock_faces, on_quest_in_the_dungeon, window  # noqa: F401

pytestmark = pytest.mark.gui
RED_CROSSROADS, GREEN_CROSSROADS, YELLOW_CROSSROADS = [2, 9], [1, 0], [2, 2]
GIANT_RATS = [4, 5]  # Table E 45 - 40 (Dungeon Training 1) = 5: Giant Rats


def strip_button(win, prefix: str, suffix: str = ""):
    """The first strip button whose key starts with ``prefix`` (and ends with ``suffix``), shown whole and enabled."""
    QApplication.processEvents()
    QApplication.processEvents()  # the status line above the strip and the strip each lay out once
    found = [b for key, b in win.turn_strip.buttons.items() if key.startswith(prefix) and key.endswith(suffix)]
    assert found, f"no strip button {prefix}*{suffix}: {list(win.turn_strip.buttons)}"
    button = found[0]
    assert button.isVisible() and button.isEnabled(), (button.text(), button.toolTip())
    every_button_shown_whole(win)
    return button


def every_button_shown_whole(win) -> None:
    """The strip grows to show each of its buttons whole (it wraps them onto more lines)."""
    strip = win.turn_strip
    for button in strip.buttons.values():
        corner = button.mapTo(strip, button.rect().bottomRight())
        assert strip.rect().contains(corner), (button.text(), corner, strip.rect())


def into_a_red_area(qtbot, win) -> Player:
    player = on_quest_in_the_dungeon(qtbot, win)
    win.game.override.push(*next_clock_faces(win), *RED_CROSSROADS, *GIANT_RATS, 5)  # reaction 5
    player.click_map(player.exit_point("N"))
    assert win.game.campaign.combat is not None
    return player


def the_turn_goes_on(qtbot, win, player: Player) -> None:
    """Nothing waits any more: the turn ends from the strip and the next one moves on through the map."""
    assert not win.game.campaign.pending
    qtbot.mouseClick(strip_button(win, "end_turn"), Qt.MouseButton.LeftButton)
    assert win.game.campaign.adventure.turn.number == 2
    win.game.override.push(*next_clock_faces(win), *YELLOW_CROSSROADS)
    player.click_map(player.exit_point("N"))
    assert win.turn_strip.current_step() == "search"


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_issue_18_the_experience_of_a_fight_the_turn_started_and_won_on_a_natural_5_is_in_the_strip(qtbot, window):  # noqa: F811
    player = into_a_red_area(qtbot, window)
    panel = window.combat_panel
    # the attack rolls 05 (a hit), d6 5 at location 1 kills the pack; the rats roll 90; the loot 50 lacks its row
    window.game.override.push(0, 5, 5, 1, 9, 0, 5, 0)
    qtbot.mouseClick(panel.action_box.buttons["attack_main"], Qt.MouseButton.LeftButton)
    go_without = next(b for b in panel.row_buttons if b.text() == "Go without the loot")
    qtbot.mouseClick(go_without, Qt.MouseButton.LeftButton)
    assert window.game.campaign.combat is None
    str_pip = strip_button(window, "exp_")
    assert "STR" in str_pip.text()
    before = window.game.campaign.character.characteristics["STR"].pips
    qtbot.mouseClick(str_pip, Qt.MouseButton.LeftButton)
    assert window.game.campaign.character.characteristics["STR"].pips == before + 1
    the_turn_goes_on(qtbot, window, player)


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_issue_18_the_experience_of_a_test_accepted_from_the_strip_on_a_natural_4_is_in_the_strip(qtbot, window):  # noqa: F811
    player = on_quest_in_the_dungeon(qtbot, window)
    window.game.override.push(*next_clock_faces(window), *GREEN_CROSSROADS, 0, 3)  # Table G 3: PENDULUM TRAP
    player.click_map(player.exit_point("N"))
    window.game.override.push(0, 4)  # 04: a success, and a natural 10 or less
    qtbot.mouseClick(strip_button(window, "roll_"), Qt.MouseButton.LeftButton)
    if any(key.startswith("accept_") for key in window.turn_strip.buttons):  # the Fate window
        qtbot.mouseClick(strip_button(window, "accept_"), Qt.MouseButton.LeftButton)
    decline = strip_button(window, "exp_", "_decline")
    qtbot.mouseClick(decline, Qt.MouseButton.LeftButton)
    assert not window.game.campaign.pending
    assert window.turn_strip.current_step() == "search"
    the_turn_goes_on(qtbot, window, player)


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_issue_26_the_experience_of_an_escape_on_a_natural_5_is_in_the_strip(qtbot, window):  # noqa: F811
    player = into_a_red_area(qtbot, window)
    window.game.override.push(0, 5)  # ESCAPE COMBAT 05
    qtbot.mouseClick(window.combat_panel.action_box.buttons["escape"], Qt.MouseButton.LeftButton)
    assert window.game.campaign.combat is None
    xp = [k for k in window.turn_strip.buttons if k.startswith("exp_")]
    assert xp and "ESCAPE" in window.turn_strip.hint.text()
    qtbot.mouseClick(strip_button(window, "exp_"), Qt.MouseButton.LeftButton)
    the_turn_goes_on(qtbot, window, player)


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_issue_26_a_wandering_monster_a_search_brings_is_fought_from_the_strip_at_step_5(qtbot, window):  # noqa: F811
    player = on_quest_in_the_dungeon(qtbot, window)
    campaign = window.game.campaign
    wandering = next(t.clock for t in window.bridge.rules.sheet.time_track.triggers if t.kind == "wandering")
    campaign.character.time_track.shaded = wandering - 2  # the move shades the clock before; the search's +2 reaches it
    window.game.override.push(*next_clock_faces(window), *YELLOW_CROSSROADS)
    player.click_map(player.exit_point("N"))
    window.game.override.push(0, 3, 1, *GIANT_RATS)  # Table F 3: +2 time; the wandering check 1: Table E 5
    qtbot.mouseClick(strip_button(window, "search"), Qt.MouseButton.LeftButton)
    assert window.turn_strip.current_step() == "search" and campaign.adventure.fight_offered is not None
    assert not window.turn_strip.buttons["end_turn"].isEnabled()
    window.game.override.push(5)  # reaction
    qtbot.mouseClick(strip_button(window, "fight"), Qt.MouseButton.LeftButton)
    assert campaign.combat is not None and campaign.adventure.fight_offered is None
    assert window.combat_panel.action_box.buttons["attack_main"].isEnabled()


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_issue_26_the_entrance_exit_clicked_in_a_fight_is_refused_and_the_fight_goes_on(qtbot, window):  # noqa: F811
    strip = window.turn_strip
    qtbot.mouseClick(strip.buttons["begin_quest"], Qt.MouseButton.LeftButton)
    player = Player(qtbot, window)
    dungeon = window.game.campaign.dungeons.current_dungeon
    window.game.override.push(*RED_CROSSROADS, *GIANT_RATS, 5)  # a red entrance: the fight is on at once
    rect = player.view.map_scene.area_rect(dungeon.entrance)
    player.view.centerOn(rect.center())
    player.click_map(rect.center())
    campaign = window.game.campaign
    assert campaign.combat is not None
    player.click_map(player.exit_point("S"))  # the entrance's way out
    assert campaign.dungeons.current_dungeon.hero == dungeon.entrance and campaign.combat is not None
    assert window.combat_panel.action_box.buttons["attack_main"].isEnabled()
    leave = window.bridge.flow().action("leave_dungeon")
    assert leave is not None and not leave.enabled and "fight" in leave.why


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_after_a_failed_quest_the_strip_leads_through_the_between_quests_phase_to_the_next(qtbot, window):  # noqa: F811
    on_quest_in_the_dungeon(qtbot, window)
    strip = window.turn_strip
    qtbot.mouseClick(strip_button(window, "fail_quest"), Qt.MouseButton.LeftButton)
    box = window.confirmations.box  # failing a quest pays its fail costs: it asks first (issue 19)
    qtbot.mouseClick(box.button(QMessageBox.StandardButton.Yes), Qt.MouseButton.LeftButton)
    campaign = window.game.campaign
    assert campaign.adventure.quest is None
    begin = strip.buttons["begin_quest"]
    assert not begin.isEnabled() and "between-quests" in begin.toolTip()  # the rulebook's order, said
    qtbot.mouseClick(strip_button(window, "begin_town"), Qt.MouseButton.LeftButton)
    assert campaign.town.active
    for _ in range(10):
        if not campaign.town.active:
            break
        keys = [k for k, b in strip.buttons.items() if b.isEnabled() and k in ("town_next", "roll_investments", "finish_town")]
        assert keys, f"nothing moves the phase on: {list(strip.buttons)}"
        qtbot.mouseClick(strip_button(window, keys[0]), Qt.MouseButton.LeftButton)
    assert not campaign.town.active
    qtbot.mouseClick(strip_button(window, "begin_quest"), Qt.MouseButton.LeftButton)
    assert campaign.adventure.quest is not None or campaign.adventure.choice is not None


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_a_roll_waiting_for_its_row_is_typed_from_the_strip_after_the_first_dialog_was_closed(qtbot, window):  # noqa: F811
    player = on_quest_in_the_dungeon(qtbot, window)
    window.game.override.push(*next_clock_faces(window), *GREEN_CROSSROADS, 5, 0)  # Table G 50: a row the excerpt lacks
    player.click_map(player.exit_point("N"))
    first = window.row_requests.dialog
    assert first is not None and first.isVisible()
    first.reject()  # the player closes it: the roll still waits, and the strip still answers it
    qtbot.mouseClick(strip_button(window, "row_"), Qt.MouseButton.LeftButton)
    dialog = window.turn_strip.row_dialog
    assert dialog is not None and dialog.isVisible() and dialog.roll == 50
    dialog.fields["name"].setText("GOLDEN IDOL")
    dialog.fields["effect"].setText("A small idol glints in the dust, +5 gp")
    gp = window.game.campaign.character.gp
    qtbot.mouseClick(dialog.buttons.button(QDialogButtonBox.StandardButton.Ok), Qt.MouseButton.LeftButton)
    assert window.game.campaign.character.gp == gp + 5
    assert not window.game.campaign.adventure.rows_waiting
    assert not any(key.startswith("row_") for key in window.turn_strip.buttons)


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_a_red_areas_monster_whose_row_is_missing_is_typed_then_fought_from_the_strip(qtbot, window):  # noqa: F811
    player = on_quest_in_the_dungeon(qtbot, window)
    window.game.override.push(*next_clock_faces(window), *RED_CROSSROADS, 8, 0)  # Table E 80 - 40 = 40: not printed
    player.click_map(player.exit_point("N"))
    campaign = window.game.campaign
    assert campaign.adventure.fight_offered is not None
    window.row_requests.dialog.reject()  # the dice panel's dialog closed: the strip still answers the monster
    assert not window.turn_strip.buttons["fight"].isEnabled()  # its row first
    qtbot.mouseClick(strip_button(window, "offer_row"), Qt.MouseButton.LeftButton)
    dialog = window.turn_strip.row_dialog
    assert dialog is not None and dialog.roll == 40
    orc = {"monster": "Orc (H)", "av": "40", "def": "1", "dmg": "+0", "hp": "8", "loot": "[K:Table P]", "special": "Pack"}
    for key, value in orc.items():
        dialog.fields[key].setText(value)
    qtbot.mouseClick(dialog.buttons.button(QDialogButtonBox.StandardButton.Ok), Qt.MouseButton.LeftButton)
    window.game.override.push(5)  # the reaction
    qtbot.mouseClick(strip_button(window, "fight"), Qt.MouseButton.LeftButton)
    assert campaign.combat is not None and campaign.combat.monster.name.startswith("Orc")
    assert campaign.adventure.fight_offered is None
