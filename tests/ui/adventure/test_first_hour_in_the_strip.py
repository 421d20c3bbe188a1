"""A new player's first hour (issue 19), through the window's real controls: the entrance searched from the
strip, a search's missing row settled by the re-roll among printed rows, the turn played from the keyboard."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QMessageBox, QTableWidget
from test_turn_strip import YELLOW_CROSSROADS, Player, next_clock_faces, on_quest_in_the_dungeon, window  # noqa: F401

from d100gui.engine.dice.waiting import curse_waiting

pytestmark = pytest.mark.gui


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_the_entrance_is_searched_from_the_strip_before_moving_on(qtbot, window):  # noqa: F811
    on_quest_in_the_dungeon(qtbot, window)
    strip = window.turn_strip
    search = strip.buttons["search"]
    assert search.isEnabled(), search.toolTip()
    window.game.override.push(1, 2, *([9] * 4))  # Table F 12: two Poison pips (+2 time, no wandering monster)
    qtbot.mouseClick(search, Qt.MouseButton.LeftButton)
    campaign = window.game.campaign
    dungeon = campaign.dungeons.current_dungeon
    assert dungeon.hero == dungeon.entrance and dungeon.hero_area().searched
    assert campaign.character.poison == 2 and campaign.adventure.turn.number == 1
    assert "search" not in strip.buttons  # once per quest: step 1's buttons again


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_end_turn_no_longer_says_skip_search_once_the_area_is_searched(qtbot, window):  # noqa: F811
    player = on_quest_in_the_dungeon(qtbot, window)
    strip = window.turn_strip
    window.game.override.push(*next_clock_faces(window), *YELLOW_CROSSROADS)
    player.click_map(player.exit_point("N"))
    assert strip.buttons["end_turn"].text() == "End turn (skip search)"
    window.game.override.push(2, 8, *next_clock_faces(window), 5)  # Table F 28: +1 time, then a belt check
    qtbot.mouseClick(strip.buttons["search"], Qt.MouseButton.LeftButton)
    end = strip.buttons["end_turn"]
    assert end.isEnabled() and end.text() == "End turn" and "skip" not in end.toolTip()


def searched_into_a_missing_row(qtbot, window):  # noqa: F811
    """Move N into a yellow area and search it: Table F 50, a row the excerpt lacks (it prints 1-30)."""
    player = on_quest_in_the_dungeon(qtbot, window)
    window.game.override.push(*next_clock_faces(window), *YELLOW_CROSSROADS)
    player.click_map(player.exit_point("N"))
    window.game.override.push(5, 0)
    qtbot.mouseClick(window.turn_strip.buttons["search"], Qt.MouseButton.LeftButton)
    assert window.game.campaign.adventure.rows_waiting
    return player


def test_reroll_among_printed_rows_in_the_searchs_row_dialog_settles_the_search(qtbot, window):  # noqa: F811
    searched_into_a_missing_row(qtbot, window)
    dialog = window.row_requests.dialog  # the dice panel's missing-row dialog for the Table F roll
    assert dialog is not None and dialog.isVisible() and dialog.roll == 50 and dialog.sample_once.isVisible()
    window.game.override.push(1, 8, *next_clock_faces(window))  # the re-roll: Table F 18, two Disease pips, +1 time
    qtbot.mouseClick(dialog.sample_once, Qt.MouseButton.LeftButton)
    campaign = window.game.campaign
    assert campaign.adventure.rows_waiting == []  # the search is settled
    assert campaign.character.disease == 2  # its find applied
    assert campaign.log[-1].command["kind"] == "apply_typed_row"  # one click, one command, one undo step
    assert campaign.dice_history[-1].table.sample and campaign.dice_history[-1].parent is not None
    assert not any(key.startswith(("row_", "sample_row_")) for key in window.turn_strip.buttons)


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_the_strips_row_dialog_for_a_waiting_roll_offers_the_reroll_too(qtbot, window):  # noqa: F811
    searched_into_a_missing_row(qtbot, window)
    window.row_requests.dialog.reject()
    strip = window.turn_strip
    assert strip.buttons[next(k for k in strip.buttons if k.startswith("sample_row_"))].isEnabled()
    qtbot.mouseClick(strip.buttons[next(k for k in strip.buttons if k.startswith("row_"))], Qt.MouseButton.LeftButton)
    dialog = strip.row_dialog
    assert dialog is not None and dialog.sample_once.isVisible() and not dialog.sample_always.isVisible()
    window.game.override.push(1, 8, *next_clock_faces(window))
    qtbot.mouseClick(dialog.sample_once, Qt.MouseButton.LeftButton)
    assert window.game.campaign.adventure.rows_waiting == [] and window.game.campaign.character.disease == 2


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_a_spell_cast_from_the_sheet_waits_for_fate_in_the_strip_before_its_curse(qtbot, window):  # noqa: F811
    from d100gui.engine.magic.book import spell_from_table

    ch = window.game.campaign.character
    ch.characteristics["INT"].primary = 55
    ch.fate, ch.hp = 3, 12
    ch.spell_book[0] = spell_from_table(window.game.library, "Heal")
    window.sheet.refresh()
    window.game.override.push(9, 3)  # CAST SPELL 93 > 55: a failure
    qtbot.mouseClick(window.sheet.spells.cast_buttons[0], Qt.MouseButton.LeftButton)
    strip = window.turn_strip
    assert (
        curse_waiting(window.game.campaign.adventure.rows_waiting) is None and ch.characteristics["INT"].primary == 55
    )  # no curse yet
    [test] = window.game.campaign.pending
    fate = strip.buttons[f"fate_{test.id}"]  # every die (each alone is offered beside it)
    assert fate.isEnabled()
    window.game.override.push(2, 0)  # Fate: 93 re-rolled to 20, a success
    qtbot.mouseClick(fate, Qt.MouseButton.LeftButton)
    [accept] = [b for key, b in strip.buttons.items() if key.startswith("accept_")]
    qtbot.mouseClick(accept, Qt.MouseButton.LeftButton)
    assert ch.hp == 20 and ch.fate == 2 and not window.game.campaign.pending  # Heal took effect, nothing cursed


YELLOW_DEAD_END = [2, 4]  # Table M 24: a yellow area with no exit but the way in


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_at_a_dead_end_the_strip_offers_the_secret_passage(qtbot, window):  # noqa: F811
    strip = window.turn_strip
    qtbot.mouseClick(strip.buttons["begin_quest"], Qt.MouseButton.LeftButton)
    player = Player(qtbot, window)
    dungeon = window.game.campaign.dungeons.current_dungeon
    window.game.override.push(*YELLOW_DEAD_END)
    player.click_map(player.view.map_scene.area_rect(dungeon.entrance).center())
    passage = strip.buttons["secret_N"]
    assert passage.isEnabled() and "secret passage" in passage.toolTip()
    qtbot.mouseClick(passage, Qt.MouseButton.LeftButton)
    window.game.override.push(*next_clock_faces(window), *YELLOW_CROSSROADS)
    player.click_map(player.exit_point("N"))
    dungeon = window.game.campaign.dungeons.current_dungeon
    assert dungeon.hero != dungeon.entrance and "secret_N" not in strip.buttons


def press(qtbot, win, key, modifier=Qt.KeyboardModifier.NoModifier) -> None:
    """A real key press on the window (its shortcuts answer, as they do for a player)."""
    qtbot.keyClick(win, key, modifier)


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_a_quest_turn_played_from_the_keyboard_alone(qtbot, window):  # noqa: F811
    from d100gui.ui.help.shortcuts import ShortcutSheet, clashes

    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    campaign, strip, override = window.game.campaign, window.turn_strip, window.game.override
    campaign.character.fate = 3
    assert "(B)" in strip.buttons["begin_quest"].toolTip()
    press(qtbot, window, Qt.Key.Key_B)  # Begin a quest
    assert campaign.adventure.quest is not None and "enter_dungeon" in strip.buttons
    override.push(*YELLOW_CROSSROADS)
    press(qtbot, window, Qt.Key.Key_Up, Qt.KeyboardModifier.AltModifier)  # step in at the entrance
    dungeon = campaign.dungeons.current_dungeon
    assert dungeon.hero == dungeon.entrance
    assert "(S)" in strip.buttons["search"].toolTip()
    override.push(2, 7, *next_clock_faces(window), 5)  # Table F 27: +1 time, a belt check
    press(qtbot, window, Qt.Key.Key_S)  # the entrance searched
    assert campaign.dungeons.current_dungeon.hero_area().searched
    override.push(*next_clock_faces(window), 1, 0, 0, 5)  # Table M 10 green crossroads, Table G 5 SPIKED PIT TRAP
    press(qtbot, window, Qt.Key.Key_Up, Qt.KeyboardModifier.AltModifier)  # through the north exit
    assert campaign.adventure.turn.number == 1 and strip.current_step() == "area"
    override.push(9, 9)
    press(qtbot, window, Qt.Key.Key_Y)  # roll the trap's test: 99, a failure
    [test] = campaign.pending
    assert not test.success and "(R)" in next(b for k, b in strip.buttons.items() if k.startswith("fate_")).toolTip()
    override.push(2, 5)
    press(qtbot, window, Qt.Key.Key_R)  # Fate: re-rolled to 25, a success
    press(qtbot, window, Qt.Key.Key_Y)  # accept it
    assert campaign.pending == [] and campaign.character.fate == 2 and strip.current_step() == "search"
    override.push(2, 2, *next_clock_faces(window), 5)  # Table F 22 + 5 (green) = 27: a belt check
    press(qtbot, window, Qt.Key.Key_S)
    press(qtbot, window, Qt.Key.Key_T)  # end the turn
    assert campaign.adventure.turn.number == 2 and strip.current_step() == "equipment"
    press(qtbot, window, Qt.Key.Key_X)  # fail the quest: it asks first
    box = window.confirmations.box
    assert box is not None and box.isVisible() and campaign.adventure.quest is not None
    qtbot.keyClick(box.button(QMessageBox.StandardButton.Yes), Qt.Key.Key_Space)  # Tab to Yes, Space
    assert campaign.adventure.quest is None
    listed = dict(ShortcutSheet(window).listed())
    assert listed["Turn: search the area (Table F)"] == "S" and listed["Quest: fail the quest (asks first)"] == "X"
    assert clashes(window) == {}


def test_alt_arrow_at_a_dead_end_makes_the_secret_passage_then_walks_it(qtbot, window):  # noqa: F811
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    press(qtbot, window, Qt.Key.Key_B)
    window.game.override.push(*YELLOW_DEAD_END)
    press(qtbot, window, Qt.Key.Key_Up, Qt.KeyboardModifier.AltModifier)
    campaign = window.game.campaign
    press(qtbot, window, Qt.Key.Key_Up, Qt.KeyboardModifier.AltModifier)  # no exit north: the secret passage
    dungeon = campaign.dungeons.current_dungeon
    assert dungeon.hero == dungeon.entrance and dungeon.hero_area().exits["N"].kind == "secret"
    window.game.override.push(*next_clock_faces(window), *YELLOW_CROSSROADS)
    press(qtbot, window, Qt.Key.Key_Up, Qt.KeyboardModifier.AltModifier)  # through it
    assert campaign.dungeons.current_dungeon.hero != dungeon.entrance


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_the_status_line_above_the_map_keeps_the_quest_clocks_and_hero_in_view(qtbot, window):  # noqa: F811
    line = window.turn_strip.status_line
    assert line.isVisible() and "No quest" in line.text() and "HP 20/20" in line.text()
    player = on_quest_in_the_dungeon(qtbot, window)
    assert "Dungeon Training 1: Parts 0 of 3" in line.text() and "Turn 1" in line.text()
    assert "loot 3 Parts" in line.quest.toolTip()
    shaded = window.game.campaign.character.time_track.shaded
    window.game.override.push(*next_clock_faces(window), *YELLOW_CROSSROADS)
    player.click_map(player.exit_point("N"))
    assert f"clocks {shaded + 1}/" in line.text() and "(next: " in line.text()
    window.game.override.push(5, 0)  # a search on a missing Table F row: it waits, and the line says so
    qtbot.mouseClick(window.turn_strip.buttons["search"], Qt.MouseButton.LeftButton)
    window.row_requests.dialog.reject()
    assert "Waiting: a table row" in line.text() and "row waits" in line.waits.toolTip()  # a few words; the prompt's the strip's


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_hero_skill_test_shows_the_test_rolled_from_the_strip_not_str_defaults(qtbot, window):  # noqa: F811
    player = on_quest_in_the_dungeon(qtbot, window)
    window.game.override.push(*next_clock_faces(window), 1, 0, 0, 3)  # green crossroads, Table G 3: PENDULUM TRAP
    player.click_map(player.exit_point("N"))
    window.game.override.push(8, 5)
    qtbot.mouseClick(
        window.turn_strip.buttons[next(k for k in window.turn_strip.buttons if k.startswith("roll_"))], Qt.MouseButton.LeftButton
    )
    [test] = window.game.campaign.pending
    window.test_action.trigger()  # Hero > Skill test: Fate for the roll that waits
    dialog = window.hero_actions.test_dialog
    stat = test.spec.characteristic
    assert stat != "STR" and dialog.characteristic.currentData() == stat
    assert dialog.formula_label.text().endswith(f"= {test.target}") and f"against {test.target}" in dialog.result_label.text()


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_m_fights_the_monster_that_waits_once_its_row_is_typed(qtbot, window):  # noqa: F811
    from PySide6.QtWidgets import QDialogButtonBox

    player = on_quest_in_the_dungeon(qtbot, window)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    window.game.override.push(*next_clock_faces(window), 2, 9, 8, 0)  # a red crossroads, Table E 80 - 40 = 40: unprinted
    player.click_map(player.exit_point("N"))
    dialog = window.row_requests.dialog
    orc = {"monster": "Orc (H)", "av": "40", "def": "1", "dmg": "+0", "hp": "8", "loot": "[K:Table P]", "special": "Pack"}
    for key, value in orc.items():
        dialog.fields[key].setText(value)
    qtbot.mouseClick(dialog.buttons.button(QDialogButtonBox.StandardButton.Ok), Qt.MouseButton.LeftButton)
    fight = window.turn_strip.buttons["fight"]
    assert fight.isEnabled() and fight.toolTip().endswith("(M)")
    window.game.override.push(5)  # the reaction
    press(qtbot, window, Qt.Key.Key_M)
    campaign = window.game.campaign
    assert campaign.combat is not None and campaign.combat.monster.name.startswith("Orc")


def test_the_row_dialogs_column_headers_are_not_cut(qtbot, window):  # noqa: F811
    from d100gui.ui.common.dialogs import MissingRowDialog

    dialog = MissingRowDialog(window.game.library.get("d100.W"), 50, (9, 100), window)  # Table W 50, as in creation
    qtbot.addWidget(dialog)
    dialog.show()
    known = dialog.findChild(QTableWidget)
    header = known.horizontalHeader()
    for n in range(known.columnCount()):
        text = known.horizontalHeaderItem(n).text()
        assert header.sectionSize(n) >= header.fontMetrics().horizontalAdvance(text), text


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_the_status_line_shows_each_part_whole_at_1280x720(qtbot, window):  # noqa: F811
    """Its parts wrap onto another line in the map's narrow column rather than being cut ("Parts 4 of :")."""
    line = window.turn_strip.status_line
    window.resize(1280, 720)
    window.show()
    qtbot.waitExposed(window)
    on_quest_in_the_dungeon(qtbot, window)
    for _ in range(3):
        QApplication.processEvents()
    shown = [label for label in (line.quest, line.clocks, line.hero) if label.isVisible()]
    assert len(shown) == 3
    for label in shown:
        assert label.width() >= label.sizeHint().width(), label.text()
        assert line.rect().contains(label.geometry()), label.text()
