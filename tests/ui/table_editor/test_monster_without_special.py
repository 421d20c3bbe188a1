"""Issue 19 (confusing): a Table E monster with no special ability can be typed. The printed Giant Ants
row shows an empty Special, yet the missing-row dialog refused an empty one ("the printed rows all have
it"). Through the dice panel's table roll and the missing-row dialog's OK, as the player meets it."""

from __future__ import annotations

import pytest

from d100gui.ui.common.dialogs import MissingRowDialog
from tests.ui.table_editor.test_missing_row_checks import press_ok, roll_table, type_into

pytestmark = pytest.mark.gui

MONSTER = {"monster": "Cave Newt (C)", "av": "25", "def": "1", "dmg": "-1", "hp": "4", "loot": "[K:Table P]"}


def test_a_monster_row_with_no_special_ability_is_accepted(window, qtbot):
    dialog = roll_table(window, qtbot, "d100.E", 5, 0)  # Table E: 50, not printed
    assert isinstance(dialog, MissingRowDialog) and dialog.missing == (26, 100)
    type_into(qtbot, dialog, MONSTER)
    assert dialog.reasons["special"].text() == ""  # no "fill this in (the printed rows all have it)"
    press_ok(qtbot, dialog)
    assert not dialog.isVisible(), dialog.error_label.text()
    row = window.library.get("d100.E").find(50)
    assert row is not None and row.fields["monster"] == "Cave Newt (C)" and not row.fields.get("special", "")
