"""The grid where the player types many rows of one table in one sitting, each cell checked as typed.

The checking is the engine's (:func:`d100gui.engine.dice.row_check.check_row`); this widget
only shows it: a cell with a problem turns red with the reason in its tooltip, and the last
column of the row says every reason, or, once the row is right, how the engine reads its
effect text.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QBrush, QColor, QKeyEvent, QKeySequence
from PySide6.QtWidgets import QAbstractItemView, QApplication, QHeaderView, QTableWidget, QTableWidgetItem, QWidget

from d100gui.engine.dice.row_check import RowCheck, check_row
from d100gui.engine.dice.tables import Row, Table
from d100gui.engine.rules.model import Rules

PROBLEM = QColor("#f6d5d1")
PROBLEM_TEXT = QColor("#5a1a12")
FIXED = 2  # From, To come before the table's columns


class RowGrid(QTableWidget):
    """From, To, one column per printed column, then the check of the row."""

    checked = Signal()  # the checks were redone (after every edit)
    paste_requested = Signal(str)  # Ctrl+V with several lines on the clipboard: a whole table to preview

    def __init__(self, rules: Rules | None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.rules = rules
        self.table: Table | None = None
        self.locked: set[int] = set()  # grid rows already in the player's pack: not removed here
        self._checks: list[RowCheck | None] = []
        self._updating = False
        self.setEditTriggers(
            QAbstractItemView.EditTrigger.DoubleClicked
            | QAbstractItemView.EditTrigger.EditKeyPressed
            | QAbstractItemView.EditTrigger.AnyKeyPressed
        )
        self.itemChanged.connect(self._changed)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        """Ctrl+V with a table on the clipboard (several lines) asks for the paste preview; one line is left alone."""
        if event.matches(QKeySequence.StandardKey.Paste):
            text = QApplication.clipboard().text()
            if sum(1 for line in text.splitlines() if line.strip()) >= 2:
                self.paste_requested.emit(text)
                event.accept()
                return
        super().keyPressEvent(event)

    @property
    def check_column(self) -> int:
        return self.columnCount() - 1

    def column_of(self, key: str) -> int:
        """The grid column holding the table column ``key``."""
        assert self.table is not None
        return FIXED + [c.key for c in self.table.columns].index(key)

    def load(self, table: Table, texts: list[list[str]], saved: int = 0) -> None:
        """Show ``table``'s rows as ``texts`` (one list of cells per row; the first ``saved`` are in the pack)."""
        self._updating = True
        self.table = table
        self.clear()
        self.setColumnCount(FIXED + len(table.columns) + 1)
        self.setHorizontalHeaderLabels(["From", "To", *[c.label for c in table.columns], "Check"])
        header = self.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(True)
        for col in range(FIXED):
            self.setColumnWidth(col, 44)
        for col in range(FIXED, self.columnCount() - 1):
            self.setColumnWidth(col, 84)
        self.setColumnWidth(self.columnCount() - 1, 260)
        self.setWordWrap(True)
        self.setRowCount(0)
        self.locked = set(range(saved))
        self._updating = False
        for cells in texts:
            self.add_row(cells)
        self.recheck()

    def add_row(self, cells: list[str] | None = None) -> int:
        """A new line at the end (blank, or with ``cells`` filled in); returns its index."""
        self._updating = True
        index = self.rowCount()
        self.insertRow(index)
        values = list(cells or [])
        for col in range(self.columnCount()):
            item = QTableWidgetItem(values[col] if col < len(values) else "")
            if col == self.check_column:
                item.setFlags(item.flags() & ~Qt.ItemFlag.ItemIsEditable)
            self.setItem(index, col, item)
        self._updating = False
        self.recheck()
        return index

    def remove_row(self, index: int) -> bool:
        """Take out a line not yet saved (a saved row stays: type over it to change it)."""
        if index in self.locked or not 0 <= index < self.rowCount():
            return False
        self.removeRow(index)
        self.recheck()
        return True

    def texts(self) -> list[list[str]]:
        """Every line as typed (the check column left out)."""
        return [[self._text(r, c) for c in range(self.check_column)] for r in range(self.rowCount())]

    def _text(self, row: int, col: int) -> str:
        item = self.item(row, col)
        return item.text().strip() if item is not None else ""

    def _is_blank(self, index: int) -> bool:
        return not any(self._text(index, c) for c in range(self.check_column))

    def row_at(self, index: int) -> Row:
        """The line as a table row (``user``: the player's own)."""
        assert self.table is not None
        fields = {c.key: self._text(index, FIXED + i) for i, c in enumerate(self.table.columns) if self._text(index, FIXED + i)}
        low, high = _number(self._text(index, 0)), _number(self._text(index, 1))
        span = (low, high) if low is not None and high is not None else None
        return Row(range=span, fields=fields, user=True)

    def rows(self) -> list[Row]:
        """Every line that is not blank, as a row."""
        return [self.row_at(i) for i in range(self.rowCount()) if not self._is_blank(i)]

    def checks(self) -> list[RowCheck]:
        """The checks of the lines that are not blank."""
        return [c for c in self._checks if c is not None]

    def check_at(self, index: int) -> RowCheck | None:
        return self._checks[index] if 0 <= index < len(self._checks) else None

    def problem_count(self) -> int:
        return sum(not c.ok for c in self.checks())

    def _changed(self, _item: QTableWidgetItem) -> None:
        if not self._updating:
            self.recheck()

    def recheck(self) -> None:
        """Check every line against the table and the other lines, and show the result."""
        if self.table is None:
            return
        lines = [None if self._is_blank(i) else self.row_at(i) for i in range(self.rowCount())]
        typed = [r for r in lines if r is not None]
        self._checks = [
            None if row is None else check_row(self.table, row, self.rules, others=[o for o in typed if o is not row])
            for row in lines
        ]
        self._updating = True
        for index, check in enumerate(self._checks):
            self._show(index, check)
        self._updating = False
        self.checked.emit()

    def _show(self, index: int, check: RowCheck | None) -> None:
        assert self.table is not None
        reasons = {c.key: c.problem for c in check.cells} if check else {}
        range_reason = check.range_problem if check else ""
        for col in range(self.check_column):
            item = self.item(index, col)
            if item is None:
                continue
            reason = range_reason if col < FIXED else reasons.get(self.table.columns[col - FIXED].key, "")
            item.setBackground(QBrush(PROBLEM) if reason else QBrush())
            item.setForeground(QBrush(PROBLEM_TEXT) if reason else QBrush())  # readable in both themes
            item.setToolTip(reason)
        summary = self.item(index, self.check_column)
        if summary is not None:
            summary.setText(_summary(check))
            summary.setToolTip(summary.text())


def _summary(check: RowCheck | None) -> str:
    if check is None:
        return ""
    if not check.ok:
        return "; ".join(check.problems())
    readings = [f"{c.label} reads as: {c.reading}" for c in check.cells if c.reading]
    return "OK. " + "; ".join(readings) if readings else "OK"


def _number(text: str) -> int | None:
    try:
        return int(text)
    except ValueError:
        return None
