"""Helpers for the table editor's tests: the window built on the player's real library, typing into cells."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLineEdit, QTableWidget

from d100gui.storage import packs
from d100gui.storage.paths import user_data_dir
from d100gui.ui.common.settings import Preferences
from d100gui.ui.main_window import MainWindow


@pytest.fixture
def window(qtbot):
    win = MainWindow(packs.load_library(user_data_dir()), Preferences(), seed=5)
    qtbot.addWidget(win)
    return win


@pytest.fixture
def type_cell(qtbot):
    """``type_cell(grid, row, col, text)``: type into a grid cell as the player does."""
    return lambda grid, row, col, text: _type_cell(qtbot, grid, row, col, text)


def _type_cell(qtbot, grid: QTableWidget, row: int, col: int, text: str) -> None:
    """Open the cell's editor as a double click does, type ``text`` key by key, press Return."""
    grid.setCurrentCell(row, col)
    grid.editItem(grid.item(row, col))
    [editor] = [w for w in grid.viewport().findChildren(QLineEdit) if w.isVisible()]
    editor.selectAll()
    qtbot.keyClicks(editor, text)
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: grid.item(row, col).text() == text)  # the delegate commits on the next event loop turn
