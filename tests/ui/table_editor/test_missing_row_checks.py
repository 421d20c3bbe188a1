"""The missing-row dialog checks every typed cell (issue 10, bug 7) and offers to re-roll among printed rows."""

from __future__ import annotations

import json

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialogButtonBox

from d100gui.engine.dice.dice import ScriptedSource
from d100gui.engine.dice.roller import MissingRowPolicy
from d100gui.engine.dungeon.commands import MoveHero
from d100gui.engine.dungeon_entry import EnterDungeon, NewDungeon
from d100gui.storage import packs
from d100gui.storage.paths import user_data_dir
from d100gui.ui.common.dialogs import MissingRowDialog
from d100gui.ui.common.settings import Preferences

pytestmark = pytest.mark.gui

CLICK = Qt.MouseButton.LeftButton


def roll_table(window, qtbot, table_id: str, *faces: int) -> MissingRowDialog:
    """Roll a table from the dice panel with scripted dice; the roll lands on a missing row."""
    window.game.override = ScriptedSource(faces)
    window.dice_panel.select_table(table_id)
    qtbot.mouseClick(window.dice_panel.table_button, CLICK)
    dialog = window.missing_row_dialog
    assert isinstance(dialog, MissingRowDialog)
    return dialog


def type_into(qtbot, dialog: MissingRowDialog, cells: dict[str, str]) -> None:
    for key, text in cells.items():
        dialog.fields[key].clear()
        qtbot.keyClicks(dialog.fields[key], text)


def press_ok(qtbot, dialog: MissingRowDialog) -> None:
    qtbot.mouseClick(dialog.buttons.button(QDialogButtonBox.StandardButton.Ok), CLICK)


def test_7_bad_cells_are_refused_with_the_reason_beside_each_and_nothing_is_saved(window, qtbot):
    dialog = roll_table(window, qtbot, "d100.A", 4, 0)  # Table A: 40, not printed
    assert (dialog.roll, dialog.missing) == (40, (17, 100))
    type_into(qtbot, dialog, {"slot": "Tail", "item": "Odd Boots", "def": "lots", "value": "free", "repair": "5 gp"})
    assert "'Tail' is not a slot" in dialog.reasons["slot"].text() and "Feet" in dialog.reasons["slot"].text()
    assert "needs a number" in dialog.reasons["def"].text() and "0 DEF" in dialog.reasons["def"].text()
    assert "needs a number" in dialog.reasons["value"].text()
    assert dialog.reasons["item"].text() == ""
    press_ok(qtbot, dialog)
    assert dialog.isVisible() and dialog.result() == 0
    assert "Slot" in dialog.error_label.text()
    assert window.library.get("d100.A").find(40) is None
    assert not (user_data_dir() / packs.USER_PACK_FILE).exists()
    type_into(qtbot, dialog, {"slot": "Feet", "def": "1 DEF", "value": "40 gp"})
    assert dialog.error_label.text() == "" and dialog.reasons["slot"].text() == ""
    press_ok(qtbot, dialog)
    assert window.library.get("d100.A").find(40).fields["slot"] == "Feet"
    stored = json.loads((user_data_dir() / packs.USER_PACK_FILE).read_text(encoding="utf-8"))
    assert [t["rows"][0]["fields"]["def"] for t in stored["tables"] if t["id"] == "d100.A"] == ["1 DEF"]


def test_7_the_fill_in_message_goes_once_the_fields_are_filled(window, qtbot):
    dialog = roll_table(window, qtbot, "d100.P", 5, 0)  # Table P: 50
    press_ok(qtbot, dialog)
    assert dialog.error_label.text().startswith("Fill in: Part, Value")
    assert "fill this in" in dialog.reasons["part"].text()
    type_into(qtbot, dialog, {"part": "HORN"})
    assert dialog.error_label.text() == "Fill in: Value."
    type_into(qtbot, dialog, {"value": "14gp"})
    assert dialog.error_label.text() == ""
    press_ok(qtbot, dialog)
    assert window.game.campaign.dice_history[-1].table.row.fields["part"] == "HORN"


def test_effect_text_is_shown_as_the_engine_will_read_it(window, qtbot):
    dialog = roll_table(window, qtbot, "d100.G", 5, 0)  # Table G: 50
    type_into(qtbot, dialog, {"name": "NET TRAP", "effect": "NET TRAP - Test: Dex -5 [S: Avoid Trap] [F:-2 hp] (Traps)"})
    reading = dialog.readings["effect"].text()
    assert reading.startswith("Reads as: Test NET TRAP: DEX -5") and "failure: Lose 2 HP" in reading
    type_into(qtbot, dialog, {"effect": "The floor hums."})
    assert "not a rule the app applies" in dialog.readings["effect"].text()


def test_typing_a_cell_that_reads_as_a_rule_moves_no_field_below_it(window, qtbot):
    """The "Reads as:" line keeps its room while empty, and room the dialog gains goes below the fields: a click
    aimed at the next field lands there (it landed in the field above while the line appeared)."""
    dialog = roll_table(window, qtbot, "d100.F", 7, 0)  # Table F: 70, not printed; Time and Effect are read
    assert {"time", "effect"} <= set(dialog.readings)

    def effect_top() -> int:
        dialog.layout().activate()
        return dialog.fields["effect"].mapTo(dialog, dialog.fields["effect"].rect().topLeft()).y()

    before = effect_top()
    type_into(qtbot, dialog, {"time": "+1"})
    assert dialog.readings["time"].text().startswith("Reads as: +1 time")
    assert effect_top() == before
    type_into(qtbot, dialog, {"time": ""})
    assert dialog.readings["time"].text() == "" and effect_top() == before


def test_reroll_among_printed_rows_this_time(window, qtbot):
    dialog = roll_table(window, qtbot, "d100.W", 9, 0, 0, 3)  # Table W: 90 missing; the re-roll 3 is the Catapult
    assert dialog.sample_once.isVisibleTo(dialog) and dialog.sample_always.isVisibleTo(dialog)
    qtbot.mouseClick(dialog.sample_once, CLICK)
    assert not dialog.isVisible()
    entry = window.game.campaign.dice_history[-1]
    assert entry.table.sample and entry.table.row.fields["weapon"] == "Catapult" and entry.parent == 0
    assert "Sample play" in window.dice_panel.result_text.text()
    assert window.game.policy is MissingRowPolicy.ASK and Preferences().missing_row_policy is MissingRowPolicy.ASK
    assert window.library.get("d100.W").find(90) is None  # nothing invented, nothing saved


def test_reroll_among_printed_rows_from_now_on_changes_the_preference(window, qtbot):
    dialog = roll_table(window, qtbot, "d100.W", 9, 0, 0, 3)
    qtbot.mouseClick(dialog.sample_always, CLICK)
    assert window.game.campaign.dice_history[-1].table.sample
    assert window.game.policy is MissingRowPolicy.REROLL
    assert Preferences().missing_row_policy is MissingRowPolicy.REROLL
    window.game.override = ScriptedSource([9, 5, 0, 5])  # the next missing roll is re-rolled without asking
    qtbot.mouseClick(window.dice_panel.table_button, CLICK)
    assert window.missing_row_dialog is dialog  # no new dialog
    assert window.game.campaign.dice_history[-1].table.row.fields["weapon"] == "Baton"


def test_a_door_row_is_checked_too_and_offers_the_reroll(window):
    window.game.override = ScriptedSource([0, 3, 1, 2, 9, 0])  # entrance tile 3; tile 12 north, its door rolls 90
    assert window.bridge.send(NewDungeon()) and window.bridge.send(EnterDungeon()) and window.bridge.send(MoveHero(side="N"))
    dialog = window.missing_row_dialog
    # issue 19: every missing-row dialog offers the re-roll (ResolveDoorRow(sample=True) settles the door)
    assert dialog.table.id == "d100.D" and dialog.sample_once.isVisibleTo(dialog)
    dialog.fields["door"].setText("IRON GATE (IG)")
    assert "fill this in" not in dialog.reasons["door"].text()
