"""Table editor > Paste table…: a whole table pasted from the player's rulebook, previewed before it is saved.

The reading is the engine's (:func:`d100gui.engine.dice.paste.read_paste`): each row with its
cells, every cell checked against its column, and a verdict. This dialog only shows it: a bad
cell turns red with its reason beside the row, a row the table already has is shown greyed
("already in your tables"), and a row overlapping a printed (or the player's own) row waits
for the player to tick *Replace*; it is never replaced silently. *Save* hands the chosen rows
to the editor in one step (``save_requested``).
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QApplication,
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from d100gui.engine.dice.paste import PastedRow, PasteReading, Verdict, read_paste
from d100gui.engine.dice.tables import Row, Table
from d100gui.engine.rules.model import Rules
from d100gui.ui.table_editor.grid import PROBLEM, PROBLEM_TEXT

USE, LOW, HIGH, FIRST_CELL = 0, 1, 2, 3  # the preview's columns before the table's own
VERDICT_WORDS = {
    Verdict.NEW: "Add",
    Verdict.BAD: "Fix first",
    Verdict.PRINTED: "Have it",
    Verdict.CLASH: "Replace?",
}


class PasteDialog(QDialog):
    """The pasted text above, the rows read from it below, every cell checked; Save adds the chosen rows."""

    save_requested = Signal(list)  # list[Row]: the rows to add to the player's pack

    def __init__(self, table: Table, text: str, rules: Rules | None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("pasteDialog")
        self.setWindowTitle(f"Paste a table: {table.title}")
        self.table, self.rules = table, rules
        self.reading = PasteReading(table_id=table.id)
        self._build()
        self.source.setPlainText(text)  # reads it
        self.resize(1100, 640)

    def _build(self) -> None:
        intro = QLabel(
            f"Paste the rows of <b>{self.table.title}</b> as your PDF viewer copies them (headings, page footers and "
            "wrapped lines are fine). Every cell is checked against its column before anything is saved."
        )
        intro.setWordWrap(True)
        self.source = QPlainTextEdit()
        self.source.setObjectName("pasteSource")
        self.source.setPlaceholderText("Paste the table here (Ctrl+V)")
        self.source.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.source.textChanged.connect(self._read)
        self.from_clipboard = QPushButton("Paste from clipboard")
        self.from_clipboard.setAutoDefault(False)
        self.from_clipboard.clicked.connect(lambda: self.source.setPlainText(QApplication.clipboard().text()))
        self.summary = QLabel()
        self.summary.setObjectName("pasteSummary")
        self.summary.setWordWrap(True)
        self.preview = QTableWidget()
        self.preview.setObjectName("pastePreview")
        self.preview.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.preview.setWordWrap(True)
        self.preview.itemChanged.connect(self._ticked)
        self.skipped = QLabel()
        self.skipped.setObjectName("pasteSkipped")
        self.skipped.setWordWrap(True)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel)
        self.save_button = self.buttons.button(QDialogButtonBox.StandardButton.Save)
        self.save_button.clicked.connect(self._save)
        self.buttons.rejected.connect(self.reject)
        top = QWidget()
        top_layout = QVBoxLayout(top)
        top_layout.setContentsMargins(0, 0, 0, 0)
        top_layout.addWidget(self.source)
        top_layout.addWidget(self.from_clipboard, 0, Qt.AlignmentFlag.AlignLeft)
        bottom = QWidget()
        bottom_layout = QVBoxLayout(bottom)
        bottom_layout.setContentsMargins(0, 0, 0, 0)
        bottom_layout.addWidget(self.summary)
        bottom_layout.addWidget(self.preview, 1)
        bottom_layout.addWidget(self.skipped)
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(top)
        split.addWidget(bottom)
        split.setSizes([180, 420])
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(split, 1)
        layout.addWidget(self.buttons)

    # ------------------------------------------------------------------ reading
    def _read(self) -> None:
        self.reading = read_paste(self.table, self.source.toPlainText(), self.rules)
        self._fill()

    def _fill(self) -> None:
        columns = self.table.columns
        self.preview.blockSignals(True)
        self.preview.clear()
        self.preview.setColumnCount(FIRST_CELL + len(columns) + 1)
        self.preview.setHorizontalHeaderLabels(["Use", "From", "To", *[c.label for c in columns], "Check"])
        self.preview.setRowCount(len(self.reading.rows))
        for index, pasted in enumerate(self.reading.rows):
            self._fill_row(index, pasted)
        header = self.preview.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(True)
        self.preview.resizeColumnsToContents()
        for col in range(FIRST_CELL, self.preview.columnCount() - 1):
            self.preview.setColumnWidth(col, min(self.preview.columnWidth(col), 220))
        self.preview.setColumnWidth(self.verdict_column, 320)
        self.preview.resizeRowsToContents()
        self.preview.blockSignals(False)
        self._say()

    @property
    def verdict_column(self) -> int:
        return self.preview.columnCount() - 1

    def _fill_row(self, index: int, pasted: PastedRow) -> None:
        low, high = pasted.row.range or (0, 0)
        use = QTableWidgetItem(VERDICT_WORDS[pasted.verdict])
        use.setFlags(Qt.ItemFlag.ItemIsEnabled)
        if pasted.verdict in (Verdict.NEW, Verdict.CLASH):
            use.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsUserCheckable)
            use.setCheckState(Qt.CheckState.Checked if pasted.verdict is Verdict.NEW else Qt.CheckState.Unchecked)
            use.setToolTip("Save this row" if pasted.verdict is Verdict.NEW else "Tick to replace the row your table has")
        self.preview.setItem(index, USE, use)
        range_reason = pasted.check.range_problem
        for col, value in ((LOW, low), (HIGH, high)):
            self._cell(index, col, str(value), range_reason, pasted.verdict)
        for offset, column in enumerate(self.table.columns):
            cell = pasted.check.cell(column.key)
            self._cell(
                index, FIRST_CELL + offset, pasted.row.fields.get(column.key, ""), cell.problem if cell else "", pasted.verdict
            )
        verdict = QTableWidgetItem(pasted.explain(self.table))
        verdict.setFlags(Qt.ItemFlag.ItemIsEnabled)
        verdict.setToolTip(
            f"Line {pasted.lines[0]}"
            + (f"-{pasted.lines[1]}" if pasted.lines[1] != pasted.lines[0] else "")
            + f": {pasted.source}"
        )
        if pasted.verdict is Verdict.BAD:
            verdict.setBackground(QBrush(PROBLEM))
            verdict.setForeground(QBrush(PROBLEM_TEXT))
        self.preview.setItem(index, self.verdict_column, verdict)

    def _cell(self, index: int, col: int, text: str, problem: str, verdict: Verdict) -> None:
        item = QTableWidgetItem(text)
        item.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable)
        if problem:
            item.setBackground(QBrush(PROBLEM))
            item.setForeground(QBrush(PROBLEM_TEXT))  # readable in both themes
            item.setToolTip(problem)
        elif verdict is Verdict.PRINTED:
            item.setForeground(QBrush(QColor("#888888")))  # nothing to add: shown, greyed
        self.preview.setItem(index, col, item)

    def _ticked(self, item: QTableWidgetItem) -> None:
        if item.column() == USE:
            self._say()

    def _say(self) -> None:
        reading = self.reading
        counts = {v: len(reading.of(v)) for v in Verdict}
        parts = [f"{len(reading.rows)} row(s) read"]
        for verdict, words in (
            (Verdict.NEW, "to add"),
            (Verdict.BAD, "with a problem (not saved)"),
            (Verdict.PRINTED, "already in your tables"),
            (Verdict.CLASH, "overlapping a row you have (tick Replace to use yours)"),
        ):
            if counts[verdict]:
                parts.append(f"{counts[verdict]} {words}")
        self.summary.setText(": ".join(parts[:1]) + (": " + ", ".join(parts[1:]) if parts[1:] else "") + ".")
        notes = [f"line {s.line} ({s.reason})" for s in reading.skipped if s.line]
        notes += [s.reason for s in reading.skipped if not s.line]
        left = f"Columns left out (this table does not keep them): {', '.join(reading.left_out)}. " if reading.left_out else ""
        self.skipped.setText(left + ("Not read as rows: " + "; ".join(notes) + "." if notes else ""))
        self.skipped.setVisible(bool(left or notes))
        chosen = len(self.chosen_rows())
        self.save_button.setText(f"Save {chosen} row(s)")
        self.save_button.setEnabled(chosen > 0)
        self.save_button.setToolTip(
            "" if chosen else "No row to save: every row is already in your tables, has a problem, or waits for Replace."
        )

    # ------------------------------------------------------------------ saving
    def replace_indexes(self) -> list[int]:
        """The overlapping rows the player ticked to replace."""
        return [i for i in range(self.preview.rowCount()) if self._ticked_at(i) and self.reading.rows[i].verdict is Verdict.CLASH]

    def _ticked_at(self, index: int) -> bool:
        item = self.preview.item(index, USE)
        return (
            item is not None
            and bool(item.flags() & Qt.ItemFlag.ItemIsUserCheckable)
            and item.checkState() == Qt.CheckState.Checked
        )

    def chosen_rows(self) -> list[Row]:
        """The rows Save adds: the new ones still ticked and the overlapping ones ticked to replace."""
        unticked_new = {i for i, r in enumerate(self.reading.rows) if r.verdict is Verdict.NEW and not self._ticked_at(i)}
        keep = [r for i, r in enumerate(self.reading.rows) if i not in unticked_new]
        return PasteReading(table_id=self.table.id, rows=keep).to_save(
            [keep.index(self.reading.rows[i]) for i in self.replace_indexes()]
        )

    def _save(self) -> None:
        rows = self.chosen_rows()
        if rows:
            self.save_requested.emit(rows)
            self.accept()
