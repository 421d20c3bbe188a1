"""The combat panel shows every fight, whatever started it (issue 18, Deliver 2).

The panel used to rebuild fights only from ``start_combat`` log entries, so a fight the turn
started (logged as ``turn_move``, ``turn_search``, ...) was not in the panel and its experience
choice stranded the player. Now the panel finds a fight by its ``combat_started`` event. Each
entry point is played through the player's own control (a map exit clicked into a red area, the
strip's Fight for a search's monster, the dice panel's "Fight this monster", Combat > Start a
fight), and the panel shows the same thing: the fight's page, its record from the entry that
began it, the monster, the attack; and, won on a natural roll of 10 or less, the experience choice.
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QPushButton

from tests.ui.adventure.test_strip_waiting import GIANT_RATS, YELLOW_CROSSROADS, into_a_red_area, strip_button
from tests.ui.adventure.test_turn_strip import next_clock_faces, on_quest_in_the_dungeon, window  # noqa: F401

pytestmark = pytest.mark.gui


def started_at(win) -> int:
    """The log index of the newest entry with a ``combat_started`` event."""
    campaign = win.game.campaign
    log = campaign.log
    at = next(i for i in range(len(log) - 1, -1, -1) if any(e.kind == "combat_started" for e in log[i].events))
    return campaign.log_start + at


def assert_the_panel_shows_the_fight(win) -> None:
    panel = win.combat_panel
    campaign = win.game.campaign
    assert campaign.combat is not None
    assert panel.pages.currentWidget() is panel.fight_page
    record = panel.record
    assert record is not None and record.start == started_at(win) and record.end == campaign.log_length
    assert any(e.kind == "combat_started" for e in record.events)
    assert panel.monster_name.text().startswith(campaign.combat.monster.name)
    if campaign.combat.waiting == "action":
        assert panel.action_box.buttons["attack_main"].isEnabled()
    else:  # a roll waits for its Fate window: Continue (and Fate) answer it
        assert panel.continue_button.isVisible() and panel.continue_button.isEnabled()


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_a_move_into_a_red_area_through_a_map_exit_shows_the_fight_and_its_experience(qtbot, window):  # noqa: F811
    into_a_red_area(qtbot, window)
    assert window.game.campaign.log[-1].command["kind"] != "start_combat"  # the turn began it
    assert_the_panel_shows_the_fight(window)
    panel = window.combat_panel
    # the attack rolls 05 (a natural 10 or less: experience), d6 5 at location 1 kills the pack;
    # the rats roll 90; the loot's 50 lacks its row
    window.game.override.push(0, 5, 5, 1, 9, 0, 5, 0)
    qtbot.mouseClick(panel.action_box.buttons["attack_main"], Qt.MouseButton.LeftButton)
    go_without = next(b for b in panel.row_buttons if b.text() == "Go without the loot")  # the loot's controls
    qtbot.mouseClick(go_without, Qt.MouseButton.LeftButton)
    assert window.game.campaign.combat is None
    [xp] = [d for d in window.game.campaign.pending if d.decision == "experience"]
    assert xp.id in panel.record.decisions  # the fight the turn began asked for it
    assert panel.pages.currentWidget() is panel.fight_page and panel.end_banner.isVisible()
    buttons = panel.decision_buttons[xp.id]  # the same experience choice a Combat-menu fight shows
    assert buttons and all(isinstance(b, QPushButton) and b.isEnabled() for b in buttons)
    qtbot.mouseClick(buttons[0], Qt.MouseButton.LeftButton)
    assert not [d for d in window.game.campaign.pending if d.decision == "experience"]


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_a_searchs_monster_fought_from_the_strip_is_in_the_panel(qtbot, window):  # noqa: F811
    player = on_quest_in_the_dungeon(qtbot, window)
    campaign = window.game.campaign
    wandering = next(t.clock for t in window.bridge.rules.sheet.time_track.triggers if t.kind == "wandering")
    campaign.character.time_track.shaded = wandering - 2  # the move shades the clock before; the search's +2 reaches it
    window.game.override.push(*next_clock_faces(window), *YELLOW_CROSSROADS)
    player.click_map(player.exit_point("N"))
    window.game.override.push(0, 3, 1, *GIANT_RATS)  # Table F 3: +2 time; the wandering check 1: Table E 5
    qtbot.mouseClick(strip_button(window, "search"), Qt.MouseButton.LeftButton)
    assert campaign.adventure.fight_offered is not None and campaign.combat is None
    assert window.combat_panel.record is None  # nothing to show yet: no fight began
    window.game.override.push(5)  # reaction
    qtbot.mouseClick(strip_button(window, "fight"), Qt.MouseButton.LeftButton)  # the turn strip's Fight
    assert_the_panel_shows_the_fight(window)


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_the_dice_panels_fight_this_monster_is_in_the_panel(qtbot, window):  # noqa: F811
    dice = window.dice_panel
    assert dice.select_table("d100.E")
    window.game.override.push(0, 5)  # Table E 05: Giant Rats
    qtbot.mouseClick(dice.table_button, Qt.MouseButton.LeftButton)
    [fight] = [b for b in dice.followup_buttons() if b.text() == "Fight this monster"]
    window.game.override.push(5)  # reaction
    qtbot.mouseClick(fight, Qt.MouseButton.LeftButton)
    assert_the_panel_shows_the_fight(window)


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_the_combat_menus_start_a_fight_is_in_the_panel(qtbot, window):  # noqa: F811
    action = window.start_fight_action
    combat_menu = next(m for m in window.menuBar().actions() if m.text() == "&Combat").menu()
    assert action in combat_menu.actions() and action.isEnabled()
    action.trigger()  # Combat > Start a fight...
    dialog = window.combat_panel.start_dialog
    assert dialog is not None and dialog.isVisible()
    qtbot.addWidget(dialog)
    window.game.override.push(0, 5, 5)  # Table E 05: Giant Rats; reaction 5
    qtbot.mouseClick(dialog.fight_button, Qt.MouseButton.LeftButton)
    assert_the_panel_shows_the_fight(window)
    assert not action.isEnabled() and action.statusTip()  # one fight at a time: greyed with the engine's reason
