"""The turn strip and the status line keep their height while play goes on (issue 18's performance): a test that
waits (its dice, Accept and Fate) coming and going, or a fight's hint a line longer or shorter, resized and repainted
the map below on every action, and the strip re-laid out its buttons each time. The room kept is given back when
the quest ends or begins, or once it has gone unused for a while."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QApplication
from test_turn_strip import next_clock_faces, on_quest_in_the_dungeon, window  # noqa: F401

from d100gui.ui.adventure.turn_strip import StripButton
from d100gui.ui.common.flow import SteadyHeight

pytestmark = pytest.mark.gui
GREEN_CROSSROADS = [1, 0]


class Resizes(QObject):
    """Counts the resize events of the widgets it watches."""

    def __init__(self, *watched) -> None:
        super().__init__()
        self.count = 0
        for widget in watched:
            widget.installEventFilter(self)

    def eventFilter(self, _obj, event) -> bool:
        self.count += event.type() == QEvent.Type.Resize
        return False


def laid_out() -> None:
    for _ in range(3):
        QApplication.processEvents()


def test_a_test_waiting_then_undone_and_redone_leaves_the_map_its_size_and_the_strip_its_buttons(qtbot, window):  # noqa: F811
    player = on_quest_in_the_dungeon(qtbot, window)
    strip = window.turn_strip
    window.game.override.push(*next_clock_faces(window), *GREEN_CROSSROADS, 0, 3)  # Table G 3: PENDULUM TRAP (its test waits)
    player.click_map(player.exit_point("N"))
    window.game.override.push(*[1, 5] * 8)  # the trap's roll, 15, whenever it is rolled again
    player.click_button(next(b for k, b in strip.buttons.items() if k.startswith("roll_")))
    laid_out()
    rolled = set(strip.buttons)
    window.undo_action.trigger()  # the roll waits again: other buttons, another height
    laid_out()
    assert set(strip.buttons) != rolled and any(k.startswith("roll_") for k in strip.buttons)
    window.redo_action.trigger()
    laid_out()
    map_resizes = Resizes(window.map_area, strip, strip.status_line)
    buttons = set(strip.findChildren(StripButton))
    for _ in range(3):  # undo and redo, as a player going back and forth: each state has been shown once
        window.undo_action.trigger()
        laid_out()
        assert any(k.startswith("roll_") for k in strip.buttons)
        window.redo_action.trigger()
        laid_out()
        assert set(strip.buttons) == rolled
    assert map_resizes.count == 0  # neither the strip, its status line nor the map below was resized
    assert set(strip.findChildren(StripButton)) == buttons  # no button made or deleted: the same ones, relabelled
    for button in strip.buttons.values():  # and each is shown whole within the strip
        assert button.isVisible()
        assert strip.rect().contains(button.mapTo(strip, button.rect().bottomRight()))


def test_the_room_kept_is_given_back_when_the_quest_changes_or_after_it_went_unused():
    steady = SteadyHeight(patience=3, most=64)
    steady.changed("quest 1")
    assert steady.height(500, 70) == 70
    assert steady.height(500, 130) == 130  # grows at once
    steady.changed("quest 1")
    assert steady.height(500, 84) == 130  # keeps the room while the content needs less
    assert steady.changed("quest 1") is False
    steady.height(500, 84)
    assert steady.changed("quest 1") is False
    steady.height(500, 84)
    assert steady.changed("quest 1") is True  # unused for 3 changes in a row: given back
    assert steady.height(500, 84) == 84
    steady.height(500, 130)
    assert steady.changed("no quest") is True  # the quest ended: given back at once
    assert steady.height(500, 70) == 70
    assert steady.height(600, 60) == 60  # another width has its own
    steady.height(500, 130)
    assert steady.height(500, 60) == 60  # needing more than `most` less: given back at once (no wide empty band)
