"""Step 1 says what the refresh cleared (the counts from before), not only the zeros it left."""

from __future__ import annotations

from conftest import hero, new_game
from PySide6.QtCore import Qt


def test_the_refresh_step_names_what_was_cleared(qtbot, make_wizard):
    wizard = make_wizard(new_game(hero()))  # keys 3, levers 1, time track 6 shaded
    qtbot.mouseClick(wizard.begin.begin_button, Qt.MouseButton.LeftButton)
    text = wizard.panels["refresh"].tracks.text()
    assert "Now keys 0, levers 0, time track 0 shaded" in text
    assert "Cleared when the phase began: 3 keys, 1 lever, 6 clocks, 0 time-track bonuses, 0 objectives." in text
