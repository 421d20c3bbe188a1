"""Tables > Table editor: complete the excerpted tables from the player's rulebook in one sitting.

Every rolled table is listed with how complete it is; the selected table shows its printed
rows (read-only) beside the player's own rows (a grid, every cell checked as it is typed)
and the ranges still missing. Saving lays the rows over the library and writes the player's
table pack through the one existing path (``save_rows``, i.e. :meth:`TableFiles.save_user_rows`),
so a row typed here is used from then on.

A whole table can be pasted too (*Paste table…*, or Ctrl+V in the grid with several lines on the
clipboard): :class:`~d100gui.ui.table_editor.paste.PasteDialog` previews it, every cell checked,
and the rows it saves go the same way in one step.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeyEvent, QKeySequence
from PySide6.QtWidgets import (
    QApplication,
    QDialog,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from d100gui.engine.dice.paste import guess_table
from d100gui.engine.dice.row_check import completeness, printed_rows
from d100gui.engine.dice.tables import Pack, PackInvalid, Row, Table, TableLibrary, check_table, merge_rows
from d100gui.ui.common.bridge import EngineBridge
from d100gui.ui.table_editor.grid import FIXED, RowGrid
from d100gui.ui.table_editor.paste import PasteDialog

SaveRows = Callable[[str], None]


def completeness_label(table: Table) -> str:
    """``"Table E – Encounter: 25 of 100 rows"``."""
    covered, total = completeness(table)
    return f"{table.title}: {covered} of {total} rows"


def missing_label(table: Table) -> str:
    gaps = table.missing_ranges()
    if not gaps:
        return "Complete: every result of the die has a row."
    return "Missing: " + ", ".join(f"{a}" if a == b else f"{a}-{b}" for a, b in gaps)


class TableEditor(QDialog):
    """The tables, how complete each is, and a grid to type the missing rows."""

    def __init__(self, bridge: EngineBridge, save_rows: SaveRows, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("tableEditor")
        self.setWindowTitle("Table editor")
        self.bridge = bridge
        self.save_rows = save_rows
        self.drafts: dict[str, list[list[str]]] = {}  # lines typed but not saved, per table
        self.current: str | None = None
        self.paste_dialog: PasteDialog | None = None  # the last one opened
        self._build()
        self.fill_list()
        bridge.tables_changed.connect(self.fill_list)  # a row typed in the missing-row dialog counts too
        if self.tables.count():
            self.tables.setCurrentRow(0)

    @property
    def library(self) -> TableLibrary:
        return self.bridge.game.library

    def _build(self) -> None:
        self.tables = QListWidget()
        self.tables.setMinimumWidth(260)
        self.tables.currentItemChanged.connect(
            lambda item, _old: self.show_table(item.data(Qt.ItemDataRole.UserRole)) if item else None
        )
        self.heading = QLabel()
        self.heading.setWordWrap(True)
        self.missing = QLabel()
        self.missing.setWordWrap(True)
        self.printed = QTableWidget()
        self.printed.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.grid = RowGrid(self.bridge.rules)
        self.grid.checked.connect(self._checked)
        self.grid.paste_requested.connect(self.open_paste)
        self.grid.currentCellChanged.connect(lambda row, col, _r, _c: self._explain(row, col))
        self.detail = QLabel()
        self.detail.setObjectName("cellDetail")
        self.detail.setWordWrap(True)
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.add_button = QPushButton("Add a row")
        self.add_button.clicked.connect(self.add_row)
        self.gaps_button = QPushButton("Add a row for each missing range")
        self.gaps_button.clicked.connect(self.add_gap_rows)
        self.remove_button = QPushButton("Remove row")
        self.remove_button.clicked.connect(lambda: self.grid.remove_row(self.grid.currentRow()))
        self.paste_button = QPushButton("Paste table…")
        self.paste_button.setToolTip(
            "Paste the rows of this table as copied from your rulebook's PDF: they are checked before they are saved "
            "(Ctrl+V in the grid with several lines copied does the same)."
        )
        self.paste_button.clicked.connect(lambda: self.open_paste())
        self.save_button = QPushButton("Save my rows")
        self.save_button.clicked.connect(self.save)
        self.close_button = QPushButton("Close")
        self.close_button.clicked.connect(self.accept)
        for button in (
            self.add_button,
            self.gaps_button,
            self.remove_button,
            self.paste_button,
            self.save_button,
            self.close_button,
        ):
            button.setAutoDefault(False)  # Return in the grid ends a cell's typing: it never saves nor adds a row
        self._lay_out()

    def _lay_out(self) -> None:
        printed_box, mine_box = QWidget(), QWidget()
        left = QVBoxLayout(printed_box)
        left.setContentsMargins(0, 0, 0, 0)
        left.addWidget(QLabel("<b>Printed rows</b> (from the rule text, read-only)"))
        left.addWidget(self.printed)
        right = QVBoxLayout(mine_box)
        right.setContentsMargins(0, 0, 0, 0)
        right.addWidget(QLabel("<b>Your rows</b> (type them from your rulebook)"))
        right.addWidget(self.grid)
        right.addWidget(self.detail)
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(printed_box)
        split.addWidget(mine_box)
        split.setStretchFactor(1, 2)
        buttons = QHBoxLayout()
        for button in (self.add_button, self.gaps_button, self.remove_button, self.paste_button):
            buttons.addWidget(button)
        buttons.addStretch(1)
        buttons.addWidget(self.save_button)
        buttons.addWidget(self.close_button)
        split.setSizes([300, 820])
        body = QVBoxLayout()
        for widget in (self.heading, self.missing, split, self.status):
            body.addWidget(widget, 1 if widget is split else 0)
        body.addLayout(buttons)
        outer = QHBoxLayout(self)
        outer.addWidget(self.tables)
        outer.addLayout(body, 1)
        self.resize(1200, 640)

    # ------------------------------------------------------------------ tables
    def fill_list(self) -> None:
        """Every rolled table with how complete it is."""
        keep = self.current
        self.tables.blockSignals(True)
        self.tables.clear()
        rolled = [t for t in self.library if t.rollable]
        for table in sorted(rolled, key=lambda t: not t.missing_ranges()):  # the tables to complete first
            item = QListWidgetItem(completeness_label(table))
            item.setData(Qt.ItemDataRole.UserRole, table.id)
            item.setToolTip(missing_label(table))
            self.tables.addItem(item)
            if table.id == keep:
                self.tables.setCurrentItem(item)
        self.tables.blockSignals(False)

    def select(self, table_id: str) -> bool:
        """Show ``table_id`` (as a click on it in the list does)."""
        for index in range(self.tables.count()):
            if self.tables.item(index).data(Qt.ItemDataRole.UserRole) == table_id:
                self.tables.setCurrentRow(index)
                return True
        return False

    def show_table(self, table_id: str) -> None:
        if self.current is not None and self.current != table_id:
            self.drafts[self.current] = self.grid.texts()
        self.current = table_id
        table = self.library.get(table_id)
        self.heading.setText(f"<b>{completeness_label(table)}</b>")
        self.missing.setText(missing_label(table))
        self._fill_printed(table)
        own = [r for r in table.rows if r.user]
        saved = [self._cells(table, r) for r in own]
        self.grid.load(table, self.drafts.get(table_id, saved), len(own))
        self.status.setText("")

    @staticmethod
    def _cells(table: Table, row: Row) -> list[str]:
        low, high = row.range or (0, 0)
        return [str(low), str(high), *[row.fields.get(c.key, "") for c in table.columns]]

    def _fill_printed(self, table: Table) -> None:
        rows = printed_rows(table)
        self.printed.clear()
        self.printed.setColumnCount(len(table.columns) + 1)
        self.printed.setRowCount(len(rows))
        self.printed.setHorizontalHeaderLabels(["Roll", *[c.label for c in table.columns]])
        for r_i, row in enumerate(rows):
            self.printed.setItem(r_i, 0, QTableWidgetItem(row.range_label()))
            for c_i, col in enumerate(table.columns):
                self.printed.setItem(r_i, c_i + 1, QTableWidgetItem(row.fields.get(col.key, "")))

    def add_gap_rows(self) -> int:
        """One line per missing range, its From and To filled in; returns how many were added."""
        if self.current is None:
            return 0
        gaps = self.library.get(self.current).missing_ranges()
        for low, high in gaps:
            self.grid.add_row([str(low), str(high)])
        return len(gaps)

    def add_row(self) -> int:
        """Add a blank line, its first cell current and the grid focused: typing fills it at once (any key opens
        the cell; the focus stayed on the button, so typing went nowhere until a double click); returns its index."""
        index = self.grid.add_row()
        self.grid.setCurrentCell(index, 0)
        self.grid.setFocus()
        return index

    # ------------------------------------------------------------------ checks
    def _checked(self) -> None:
        self.status.setText("")  # the rows changed: "Saved N row(s)" or "Not saved" no longer says how they stand
        bad = self.grid.problem_count()
        self.save_button.setEnabled(bad == 0 and bool(self.grid.rows()))
        self.save_button.setToolTip(f"{bad} row(s) need fixing first: see the Check column." if bad else "")
        self._explain(self.grid.currentRow(), self.grid.currentColumn())

    def _explain(self, row: int, col: int) -> None:
        """Beside the grid: the reason for the current cell, or how the engine reads it."""
        check = self.grid.check_at(row)
        if check is None or self.grid.table is None or col < 0:
            self.detail.setText("")
            return
        if col < FIXED:
            self.detail.setText(check.range_problem)
            return
        if col >= self.grid.check_column:
            self.detail.setText("; ".join(check.problems()))
            return
        cell = check.cells[col - FIXED]
        reading = f"Reads as: {cell.reading}" if cell.reading else ""
        self.detail.setText(f"{cell.label}: {cell.problem}" if cell.problem else reading)

    # ------------------------------------------------------------------ saving
    def save(self) -> bool:
        """Lay the rows over the table and write them to the player's pack; refuse while one is wrong."""
        if self.current is None:
            return False
        bad = self.grid.problem_count()
        if bad:
            self.status.setText(f"Not saved: {bad} row(s) need fixing (see the Check column).")
            return False
        table = self.library.get(self.current)
        rows = self.grid.rows()
        problems = check_table(merge_rows(table, rows))
        if problems:
            self.status.setText("Not saved: " + "; ".join(str(p) for p in problems))
            return False
        try:
            self.library.overlay(
                Pack(id="editor", title="typed in the table editor", tables=[table.model_copy(update={"rows": rows})])
            )
        except PackInvalid as exc:
            self.status.setText(f"Not saved: {exc}")
            return False
        self.save_rows(self.current)
        self.drafts.pop(self.current, None)
        self.bridge.tables_changed.emit()
        self.fill_list()
        self.show_table(self.current)
        self.status.setText(f"Saved {len(rows)} row(s) of {table.title} to your table pack: they are used from now on.")
        return True

    # ------------------------------------------------------------------ pasting
    def open_paste(self, text: str | None = None) -> PasteDialog | None:
        """The paste preview for the table shown, filled with ``text`` (the clipboard's when None)."""
        if text is None:
            text = QApplication.clipboard().text()
        named = guess_table(text, list(self.library))  # the text's title line names its table: show that one
        if named is not None and named.id != self.current:
            self.select(named.id)
        if self.current is None:
            return None
        dialog = PasteDialog(self.library.get(self.current), text, self.bridge.rules, self)
        dialog.save_requested.connect(self.save_pasted)
        dialog.open()
        self.paste_dialog = dialog
        return dialog

    def keyPressEvent(self, event: QKeyEvent) -> None:
        """Ctrl+V anywhere in the editor that does not paste itself (the printed rows, the list) pastes a table."""
        if event.matches(QKeySequence.StandardKey.Paste) and _several_lines(QApplication.clipboard().text()):
            self.open_paste()
            event.accept()
            return
        super().keyPressEvent(event)

    def save_pasted(self, rows: list[Row]) -> bool:
        """Lay the pasted rows over the table and write the player's pack, in one step; the grid keeps its unsaved lines."""
        if self.current is None or not rows:
            return False
        table = self.library.get(self.current)
        problems = check_table(merge_rows(table, rows))
        if problems:
            self.status.setText("Not saved: " + "; ".join(str(p) for p in problems))
            return False
        unsaved = [t for i, t in enumerate(self.grid.texts()) if i not in self.grid.locked and any(t)]
        self.library.overlay(
            Pack(id="paste", title="pasted in the table editor", tables=[table.model_copy(update={"rows": rows})])
        )
        self.save_rows(self.current)
        merged = self.library.get(self.current)
        self.drafts[self.current] = [self._cells(merged, r) for r in merged.rows if r.user] + unsaved
        self.bridge.tables_changed.emit()
        self.fill_list()
        self.show_table(self.current)
        self.drafts.pop(self.current, None)
        self.status.setText(f"Saved {len(rows)} pasted row(s) of {table.title} to your table pack: they are used from now on.")
        return True


def _several_lines(text: str) -> bool:
    """A clipboard holding a table, not a cell: two lines or more with text."""
    return sum(1 for line in text.splitlines() if line.strip()) >= 2
