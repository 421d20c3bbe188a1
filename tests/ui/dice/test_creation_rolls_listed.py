"""Issue 19 (confusing): the creation wizard's rolls reach the dice History, as the tour says every roll
does. The wizard and the dice panel share one bridge, as in the window; the wizard's real Roll button."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox

from d100gui.engine.dice.dice import ScriptedSource
from d100gui.ui.dice.panel import DicePanel
from tests.ui.hero.test_ui_creation import bridge, make_wizard, page, through_skills  # noqa: F401  (the fixture)

pytestmark = pytest.mark.gui


def test_the_wizards_weapon_roll_is_listed_in_the_history(qtbot, bridge):  # noqa: F811
    dice = DicePanel(bridge)
    qtbot.addWidget(dice)
    dice.show()
    bridge.game.override = ScriptedSource([0, 5])  # Table W 5: a printed row
    wizard = make_wizard(qtbot, bridge)
    through_skills(qtbot, wizard)
    before = dice.history.count()
    qtbot.mouseClick(page(wizard).roll_button, Qt.MouseButton.LeftButton)
    total = bridge.dice_history_length
    assert total > before
    assert dice.history.count() == total
    last = dice.history.item(total - 1)
    assert last is not None and "Table W" in last.text()


def test_a_missing_row_and_its_reroll_are_both_listed_without_a_second_dialog(qtbot, bridge):  # noqa: F811
    dice = DicePanel(bridge)
    qtbot.addWidget(dice)
    dice.show()
    asked: list[int] = []
    bridge.decision_requested.connect(lambda index, _entry: asked.append(index))
    bridge.game.override = ScriptedSource([5, 0])  # Table W 50: not in the excerpt
    wizard = make_wizard(qtbot, bridge)
    through_skills(qtbot, wizard)
    weapon = page(wizard)
    qtbot.mouseClick(weapon.roll_button, Qt.MouseButton.LeftButton)
    assert dice.history.count() == 1 and "50" in dice.history.item(0).text()
    bridge.game.override.push(0, 5)  # the re-roll among the printed rows: Table W 5
    qtbot.mouseClick(weapon.sample_row_button, Qt.MouseButton.LeftButton)
    assert dice.history.count() == 2 and "Baton" in dice.history.item(1).text()
    assert asked == []  # the wizard asks for the row itself: the dice panel opens no second dialog


def test_discarding_the_wizard_takes_its_rolls_out_of_the_history(qtbot, bridge):  # noqa: F811
    dice = DicePanel(bridge)
    qtbot.addWidget(dice)
    bridge.game.override = ScriptedSource([0, 5])
    wizard = make_wizard(qtbot, bridge)
    through_skills(qtbot, wizard)
    qtbot.mouseClick(page(wizard).roll_button, Qt.MouseButton.LeftButton)
    assert dice.history.count() == 1
    qtbot.keyClick(wizard, Qt.Key.Key_Escape)
    qtbot.mouseClick(wizard.discard_box.button(QMessageBox.StandardButton.Discard), Qt.MouseButton.LeftButton)
    assert bridge.game.campaign.character is None
    assert bridge.dice_history_length == 0 and dice.history.count() == 0
