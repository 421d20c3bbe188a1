"""The Ritual tool reads the d20 fight tracker's damage (issue 22): hits landed with the tracker's real buttons
reach the caster's Ritual check, and the tool shows the tracker's damage this Round."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from test_toolbox_dock import add_fighter, click, click_tool, type_into

from d100gui.engine.toolbox import scars as sc

pytestmark = pytest.mark.gui


def test_damage_in_the_tracker_reaches_the_ritual_through_the_dock(qtbot, make_dock):
    table, dock = make_dock()
    fight = click_tool(qtbot, dock, "Fight tracker")
    add_fighter(qtbot, fight, "Vera", sc.Side.ADVENTURER, 4, 9, 0)
    add_fighter(qtbot, fight, "Orc", sc.Side.ENEMY, 5, 10, 2)
    click(qtbot, fight.start_button)
    fight.attacker.setCurrentText("Orc")
    fight.target.setCurrentText("Vera")
    type_into(qtbot, fight.attribute, "10")
    table.dice.push(9, 3)  # the Orc hits Vera: 3 damage before her go
    click(qtbot, fight.attack_button)
    assert "Vera (adventurer): health 6/9" in fight.fighters.item(0).text()
    assert fight.fighters.item(0).text().endswith("; took 3 damage this Round")

    ritual = click_tool(qtbot, dock, "Ritual")
    assert "damage taken this Round: Vera 3, Orc 0" in ritual.status.text() and ritual.status.isVisible()
    ritual.inputs["name"].setFocus()
    qtbot.keyClicks(ritual.inputs["name"], "Vera")
    type_into(qtbot, ritual.inputs["cunning"], "12")
    table.dice.push(3)  # at most Cunning 12 but not over the tracker's 3: a Mishap
    click(qtbot, ritual.roll_button)
    text = ritual.result_box.text.toPlainText()
    assert "over the 3 damage taken this Round, as the fight tracker counts it" in text and "roll a Mishap" in text
    table.dice.push(4)  # over 3: performed
    click(qtbot, ritual.roll_button)
    assert "the Ritual is performed" in ritual.result_box.text.toPlainText()

    fight = click_tool(qtbot, dock, "Fight tracker")
    click(qtbot, fight.round_button)  # a new Round: the damage is spent
    ritual = click_tool(qtbot, dock, "Ritual")
    assert "damage taken this Round: Vera 0, Orc 0" in ritual.status.text() and "Round 2" in ritual.status.text()


def test_without_a_tracked_fight_the_typed_damage_counts(qtbot, make_dock):
    table, dock = make_dock()
    ritual = click_tool(qtbot, dock, "Ritual")
    assert "No fight is tracked" in ritual.status.text()
    type_into(qtbot, ritual.inputs["cunning"], "12")
    type_into(qtbot, ritual.inputs["damage"], "6")
    table.dice.push(7)
    qtbot.mouseClick(ritual.roll_button, Qt.MouseButton.LeftButton)
    text = ritual.result_box.text.toPlainText()
    assert "over the 6 damage taken" in text and "the Ritual is performed" in text and "fight tracker" not in text
