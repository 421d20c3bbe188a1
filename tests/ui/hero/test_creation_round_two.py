"""The creation wizard's missing-row lines (issue 19, round two): said once while the row waits, and none left beside
the weapon a typed row placed."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialogButtonBox, QWizard
from test_creation_first_hour import on_a_missing_weapon_row
from test_ui_creation import bridge  # noqa: F401  (the fixture)

pytestmark = pytest.mark.gui


def test_a_missing_row_is_said_once_while_it_waits(qtbot, bridge):  # noqa: F811
    _wizard, weapon = on_a_missing_weapon_row(qtbot, bridge)  # Table W 50: the excerpt prints 1-8
    shown = " ".join(t for t in (weapon.result.text(), weapon.history.text(), weapon.missing_text.text()) if t)
    assert shown.count("not in your tables") == 1, shown  # the box that offers to type it or re-roll
    assert "50" in weapon.result.text()


def test_a_typed_weapon_row_leaves_no_missing_row_line(qtbot, bridge):  # noqa: F811
    wizard, weapon = on_a_missing_weapon_row(qtbot, bridge)  # Table W 50: the excerpt prints 1-8
    qtbot.mouseClick(weapon.type_row_button, Qt.MouseButton.LeftButton)
    dialog = weapon.row_dialog
    typed = {"type": "(H)", "weapon": "Mace", "adjustment": "+1 DMG", "value": "40", "repair": "8"}
    for key, value in typed.items():
        dialog.fields[key].setText(value)
    qtbot.mouseClick(dialog.buttons.button(QDialogButtonBox.StandardButton.Ok), Qt.MouseButton.LeftButton)
    assert bridge.game.campaign.character.equipment["main_weapon"].name == "Mace"
    shown = weapon.history.text() + weapon.result.text() + weapon.missing_text.text() * weapon.missing.isVisibleTo(wizard)
    assert "is not in your tables" not in shown and "are not in your tables" not in shown, shown
    assert "Mace" in weapon.result.text() + weapon.history.text()
    assert not weapon.missing.isVisibleTo(wizard) and wizard.button(QWizard.WizardButton.NextButton).isEnabled()
