"""The turn strip keeps its buttons across actions (a new button's first show costs ~1 ms; issue 18's
performance): a button taken over by another action says and does that action, and no stale one is left."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QPushButton
from test_turn_strip import YELLOW_CROSSROADS, next_clock_faces, on_quest_in_the_dungeon, window  # noqa: F401

pytestmark = pytest.mark.gui


def shown_buttons(strip):
    return [b for b in strip.findChildren(QPushButton) if b.objectName().startswith("turn_") and not b.isHidden()]


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_a_button_taken_over_by_another_action_says_and_does_that_action(qtbot, window):  # noqa: F811
    player = on_quest_in_the_dungeon(qtbot, window)
    strip = window.turn_strip
    before = {key: id(b) for key, b in strip.buttons.items()}
    window.game.override.push(*next_clock_faces(window), *YELLOW_CROSSROADS)
    player.click_map(player.exit_point("N"))
    assert set(strip.buttons) != set(before)  # the step moved on: other actions
    for key, button in strip.buttons.items():
        assert button.objectName() == f"turn_{key}" and button.flow_key == key
    assert sorted(map(id, shown_buttons(strip))) == sorted(map(id, strip.buttons.values()))  # none left over
    window.game.override.push(2, 8, *next_clock_faces(window), 5)  # Table F 28: +1 time, then a belt check
    qtbot.mouseClick(strip.buttons["search"], Qt.MouseButton.LeftButton)
    dungeon = window.game.campaign.dungeons.current_dungeon
    assert dungeon.hero_area().searched  # the button, whichever it was before, sent the search
