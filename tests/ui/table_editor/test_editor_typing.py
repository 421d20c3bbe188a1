"""Issue 19 (confusing), Tables > Table editor: a new row takes typing at once (it ignored typing until
double-clicked), Return in the grid never saves (it saved and dropped the empty row), and "Saved N
row(s)" goes once the rows are edited again."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLineEdit

from tests.ui.table_editor.test_table_editor import open_editor

pytestmark = pytest.mark.gui

CLICK = Qt.MouseButton.LeftButton
ROW_17 = {
    "From": "17",
    "To": "17",
    "Slot": "Feet",
    "Item": "Odd Boots",
    "Defence": "1 DEF",
    "Value": "40 gp",
    "Rep. Cost": "5 gp",
}


def open_cell_editor(grid) -> QLineEdit:
    [editor] = [w for w in grid.viewport().findChildren(QLineEdit) if w.isVisible()]
    return editor


def fill_row(qtbot, grid, row: int, type_cell) -> None:
    headers = [grid.horizontalHeaderItem(c).text() for c in range(grid.columnCount())]
    for header, text in ROW_17.items():
        type_cell(grid, row, headers.index(header), text)


def test_a_new_row_takes_typing_at_once(qtbot, window):
    editor = open_editor(window)
    editor.select("d100.A")
    qtbot.mouseClick(editor.add_button, CLICK)
    grid = editor.grid
    assert editor.focusWidget() is grid and (grid.currentRow(), grid.currentColumn()) == (0, 0)
    qtbot.keyClicks(editor.focusWidget(), "1")  # any key opens the cell, as the player types
    cell = open_cell_editor(grid)
    qtbot.keyClicks(cell, "7")
    qtbot.keyClick(cell, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: grid.item(0, 0).text() == "17")


def test_return_in_the_grid_does_not_save_nor_drop_the_new_row(qtbot, window, type_cell):
    editor = open_editor(window)
    editor.select("d100.A")
    qtbot.mouseClick(editor.add_button, CLICK)
    grid = editor.grid
    fill_row(qtbot, grid, 0, type_cell)
    qtbot.mouseClick(editor.add_button, CLICK)  # a second, empty row
    grid.setFocus()
    qtbot.keyClick(grid, Qt.Key.Key_Return)
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    assert grid.rowCount() == 2 and "Saved" not in editor.status.text()
    assert window.library.get("d100.A").missing_ranges() == [(17, 100)]  # nothing saved yet
    assert not any(b.isDefault() or b.autoDefault() for b in (editor.save_button, editor.add_button, editor.close_button))


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_saved_goes_once_the_rows_are_edited_again(qtbot, window, type_cell):
    editor = open_editor(window)
    editor.select("d100.A")
    qtbot.mouseClick(editor.add_button, CLICK)
    fill_row(qtbot, editor.grid, 0, type_cell)
    qtbot.mouseClick(editor.save_button, CLICK)
    assert "Saved 1 row(s)" in editor.status.text()
    type_cell(editor.grid, 0, editor.grid.column_of("item"), "Odder Boots")
    assert "Saved" not in editor.status.text()
