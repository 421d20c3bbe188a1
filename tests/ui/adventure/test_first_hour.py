"""A new player's first hour (issue 19), through the window's real controls: the entrance searched from the
strip, a search's missing row settled by the re-roll among printed rows, the turn played from the keyboard."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from test_turn_strip import YELLOW_CROSSROADS, next_clock_faces, on_quest_in_the_dungeon, window  # noqa: F401

pytestmark = pytest.mark.gui


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
