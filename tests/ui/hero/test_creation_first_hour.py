"""The creation wizard in a new player's first hour (issue 19): a missing row re-rolled among the printed rows
(the wizard's button and the row dialog's), and Esc asking before it discards the choices."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QMessageBox, QWizard
from test_ui_creation import bridge, make_wizard, page, through_skills  # noqa: F401  (the fixture)

from d100gui.engine.dice.dice import ScriptedSource

pytestmark = pytest.mark.gui


def on_a_missing_weapon_row(qtbot, bridge):  # noqa: F811
    bridge.game.override = ScriptedSource([5, 0])  # Table W 50: the excerpt prints rows 1-8
    wizard = make_wizard(qtbot, bridge)
    through_skills(qtbot, wizard)
    weapon = page(wizard)
    qtbot.mouseClick(weapon.roll_button, Qt.MouseButton.LeftButton)
    assert weapon.missing.isVisibleTo(wizard) and "re-roll among the printed rows" in weapon.missing_text.text()
    return wizard, weapon


def test_the_wizards_reroll_button_places_a_printed_row_and_the_step_goes_on(qtbot, bridge):  # noqa: F811
    wizard, weapon = on_a_missing_weapon_row(qtbot, bridge)
    bridge.game.override.push(0, 5)  # the re-roll: Table W 5, a Baton
    qtbot.mouseClick(weapon.sample_row_button, Qt.MouseButton.LeftButton)
    assert bridge.game.campaign.character.equipment["main_weapon"].name == "Baton"
    assert not weapon.missing.isVisibleTo(wizard) and wizard.button(QWizard.WizardButton.NextButton).isEnabled()
    assert "Sample play" in weapon.result.text()


def test_the_row_dialog_of_the_wizard_offers_the_reroll_too(qtbot, bridge):  # noqa: F811
    wizard, weapon = on_a_missing_weapon_row(qtbot, bridge)
    qtbot.mouseClick(weapon.type_row_button, Qt.MouseButton.LeftButton)
    dialog = weapon.row_dialog
    assert dialog is not None and dialog.isVisible() and dialog.sample_once.isVisible()
    bridge.game.override.push(0, 5)
    qtbot.mouseClick(dialog.sample_once, Qt.MouseButton.LeftButton)
    assert not dialog.isVisible() and bridge.game.campaign.character.equipment["main_weapon"].name == "Baton"
    assert wizard.button(QWizard.WizardButton.NextButton).isEnabled()


def test_esc_asks_before_discarding_the_choices(qtbot, bridge):  # noqa: F811
    bridge.game.override = ScriptedSource([0, 5])
    wizard = make_wizard(qtbot, bridge)
    through_skills(qtbot, wizard)
    qtbot.keyClick(wizard, Qt.Key.Key_Escape)
    box = wizard.discard_box
    assert box is not None and box.isVisible() and wizard.isVisible()  # nothing is lost yet
    qtbot.mouseClick(box.button(QMessageBox.StandardButton.Cancel), Qt.MouseButton.LeftButton)  # Keep creating
    assert wizard.isVisible() and bridge.game.campaign.character is not None
    qtbot.keyClick(wizard, Qt.Key.Key_Escape)
    qtbot.mouseClick(wizard.discard_box.button(QMessageBox.StandardButton.Discard), Qt.MouseButton.LeftButton)
    assert not wizard.isVisible() and bridge.game.campaign.character is None


def test_the_missing_row_lines_are_shown_once_and_say_so_once_settled(qtbot, bridge):  # noqa: F811
    _wizard, weapon = on_a_missing_weapon_row(qtbot, bridge)
    assert "not in your tables" not in weapon.history.text()  # the waiting roll is shown once, as the result
    bridge.game.override.push(0, 5)
    qtbot.mouseClick(weapon.sample_row_button, Qt.MouseButton.LeftButton)
    shown = weapon.history.text() + weapon.result.text()
    assert "is not in your tables" not in shown and "Type row" not in shown
    assert "50 - not printed in your tables; re-rolled among the printed rows" in weapon.history.text()
    assert "Baton" in weapon.result.text()


def test_the_wizards_step_words_keep_their_capitals(qtbot, bridge):  # noqa: F811
    wizard = make_wizard(qtbot, bridge)
    text = " ".join(label.text() for label in wizard.findChildren(QLabel)) + " ".join(
        wizard.page(n).subTitle() for n in wizard.pageIds()
    )
    assert "STR, DEX and INT" in text and "Table W" in text and "REP 1" in text
    assert "str, dex and int" not in text and "table w" not in text and "rep 1" not in text
