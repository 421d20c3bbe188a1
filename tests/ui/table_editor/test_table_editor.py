"""Tables > Table editor: completeness, printed rows beside the player's, checked cells, saving to the pack."""

from __future__ import annotations

import json

import pytest
from PySide6.QtCore import Qt

from d100gui.engine.dice.dice import ScriptedSource
from d100gui.engine.dice_commands import RollTable
from d100gui.storage import packs
from d100gui.storage.paths import user_data_dir
from d100gui.ui.table_editor.editor import TableEditor

pytestmark = pytest.mark.gui

CLICK = Qt.MouseButton.LeftButton


def open_editor(window) -> TableEditor:
    window.table_editor_action.trigger()  # Tables > Table editor...
    editor = window.table_setup.editor
    assert isinstance(editor, TableEditor) and editor.isVisible()
    return editor


def list_texts(editor: TableEditor) -> list[str]:
    return [editor.tables.item(i).text() for i in range(editor.tables.count())]


def test_every_table_says_how_complete_it_is(window):
    editor = open_editor(window)
    assert "Table E – Encounter: 25 of 100 rows" in list_texts(editor)
    assert editor.select("d100.E")
    assert editor.missing.text() == "Missing: 26-100"
    assert editor.printed.rowCount() == 3 and editor.printed.item(0, 1).text() == "Giant Rats (C)"
    assert not editor.printed.editTriggers() & editor.printed.EditTrigger.AllEditTriggers
    assert editor.grid.rowCount() == 0
    assert not editor.save_button.isEnabled()


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_bad_cells_are_refused_with_the_reason_beside_them_and_good_rows_are_saved(window, qtbot, type_cell):
    editor = open_editor(window)
    editor.select("d100.A")
    qtbot.mouseClick(editor.add_button, CLICK)
    grid = editor.grid
    assert window.library.get("d100.A").missing_ranges() == [(17, 100)]
    typed = {
        "From": "17",
        "To": "17",
        "Slot": "Tail",
        "Item": "Odd Boots",
        "Defence": "lots",
        "Value": "free",
        "Rep. Cost": "5 gp",
    }
    headers = [grid.horizontalHeaderItem(c).text() for c in range(grid.columnCount())]
    for header, text in typed.items():
        type_cell(grid, 0, headers.index(header), text)
    check = grid.item(0, grid.check_column).text()
    assert "'Tail' is not a slot" in check and "needs a number" in check
    slot_cell = grid.item(0, grid.column_of("slot"))
    assert "'Tail' is not a slot" in slot_cell.toolTip()
    grid.setCurrentCell(0, grid.column_of("def"))
    assert "Defence: needs a number" in editor.detail.text()
    assert not editor.save_button.isEnabled()
    for key, text in (("slot", "Feet"), ("def", "1 DEF"), ("value", "40 gp")):
        type_cell(grid, 0, grid.column_of(key), text)
    assert grid.item(0, grid.check_column).text() == "OK"
    assert slot_cell.toolTip() == ""
    assert editor.save_button.isEnabled()
    qtbot.mouseClick(editor.save_button, CLICK)
    assert "Saved 1 row(s)" in editor.status.text()
    assert window.library.get("d100.A").find(17).fields["item"] == "Odd Boots"
    stored = json.loads((user_data_dir() / packs.USER_PACK_FILE).read_text(encoding="utf-8"))
    [table] = [t for t in stored["tables"] if t["id"] == "d100.A"]
    assert [r["fields"]["item"] for r in table["rows"]] == ["Odd Boots"]
    assert "Table A – Armour: 17 of 100 rows" in editor.heading.text()
    assert editor.grid.rowCount() == 1 and editor.grid.locked == {0}  # the saved row, still there to edit


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_many_rows_in_one_sitting_one_per_missing_range_and_used_from_then_on(window, qtbot, type_cell):
    editor = open_editor(window)
    editor.select("d100.P")
    qtbot.mouseClick(editor.gaps_button, CLICK)
    grid = editor.grid
    assert window.library.get("d100.P").missing_ranges() == [(16, 100)]
    assert grid.rowCount() == 1 and (grid.item(0, 0).text(), grid.item(0, 1).text()) == ("16", "100")
    type_cell(grid, 0, 1, "18")  # To: a three-result row
    type_cell(grid, 0, grid.column_of("part"), "HORN")
    type_cell(grid, 0, grid.column_of("value"), "14gp")
    qtbot.mouseClick(editor.add_button, CLICK)
    for col, text in ((0, "19"), (1, "21"), (grid.column_of("part"), "FANG"), (grid.column_of("value"), "15gp")):
        type_cell(grid, 1, col, text)
    qtbot.mouseClick(editor.add_button, CLICK)  # a line too many: removed again
    qtbot.mouseClick(editor.remove_button, CLICK)
    assert grid.rowCount() == 2 and editor.save_button.isEnabled()
    qtbot.mouseClick(editor.save_button, CLICK)
    assert "Table P – Parts: 21 of 100 rows" in list_texts(editor)
    window.game.override = ScriptedSource([2, 0])  # d100 = 20: a row typed in the editor is used from then on
    assert window.bridge.send(RollTable(table_id="d100.P"))
    assert window.game.campaign.dice_history[-1].table.row.fields["part"] == "FANG"


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_overlapping_rows_and_effect_readings(window, qtbot, type_cell):
    editor = open_editor(window)
    editor.select("d100.G")
    grid = editor.grid
    lo = 7  # Table G's excerpt stops at 6
    assert window.library.get("d100.G").missing_ranges() == [(lo, 100)]
    qtbot.mouseClick(editor.add_button, CLICK)
    for col, text in ((0, str(lo - 1)), (1, str(lo)), (grid.column_of("name"), "NET TRAP")):
        type_cell(grid, 0, col, text)
    type_cell(grid, 0, grid.column_of("effect"), "NET TRAP - Test: Dex -5 [S: Avoid Trap] [F:-2 hp] (Traps)")
    assert "overlaps the printed row" in grid.item(0, grid.check_column).text()
    type_cell(grid, 0, 0, str(lo))
    summary = grid.item(0, grid.check_column).text()
    assert summary.startswith("OK.") and "DEX -5" in summary and "failure: Lose 2 HP" in summary
    grid.setCurrentCell(0, grid.column_of("effect"))
    assert editor.detail.text().startswith("Reads as: Test NET TRAP: DEX -5")


def test_a_saved_row_stays_and_unsaved_lines_are_kept_when_switching_tables(window, qtbot, type_cell):
    editor = open_editor(window)
    editor.select("d100.P")
    qtbot.mouseClick(editor.add_button, CLICK)
    type_cell(editor.grid, 0, editor.grid.column_of("part"), "HORN")
    editor.select("d100.A")
    assert editor.grid.rowCount() == 0
    editor.select("d100.P")
    assert editor.grid.item(0, editor.grid.column_of("part")).text() == "HORN"
    assert not editor.grid.remove_row(5)
