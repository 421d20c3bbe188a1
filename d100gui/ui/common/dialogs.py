"""Dialogs that ask the player for something: physical dice faces, a missing table row.
Each validates what is typed and says clearly what is wrong. (The preferences dialog lives in
:mod:`~d100gui.ui.common.preferences` and is re-exported here.)"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from d100gui.engine.dice.dice import DiceError, FaceRequest, check_face
from d100gui.engine.dice.row_check import RowCheck, check_row
from d100gui.engine.dice.tables import Row, Table, check_table
from d100gui.engine.rules.model import Rules
from d100gui.ui.common.contrast import error_style

__all__ = ["MissingRowDialog", "PhysicalDiceDialog", "warning_box"]


class _Validating(QDialog):
    """A dialog whose OK runs ``_validate``; an error stays on screen and nothing closes."""

    def __init__(self, title: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self.layout_ = QVBoxLayout(self)
        self.error_label = QLabel()
        self.error_label.setObjectName("errorLabel")
        self.error_label.setStyleSheet(error_style())  # the red, readable in this theme
        self.error_label.setWordWrap(True)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self._try_accept)
        self.buttons.rejected.connect(self.reject)

    def _finish_layout(self) -> None:
        self.layout_.addStretch(1)  # room the dialog gains goes below the fields: a field the player aims at stays put
        self.layout_.addWidget(self.error_label)
        self.layout_.addWidget(self.buttons)

    def _validate(self) -> str:
        return ""

    def _try_accept(self) -> None:
        problem = self._validate()
        self.error_label.setText(problem)
        if not problem:
            self.accept()


class PhysicalDiceDialog(_Validating):
    """Asks for the faces of the dice the player rolled by hand."""

    def __init__(self, requests: list[FaceRequest], parent: QWidget | None = None) -> None:
        super().__init__("Enter your dice", parent)
        self.requests = requests
        purpose = requests[0].purpose if requests else ""
        head = QLabel(f"<b>{purpose}</b><br>Roll {requests[0].expression if requests else ''} and type each face.")
        head.setWordWrap(True)
        self.layout_.addWidget(head)
        form = QFormLayout()
        self.edits: list[QLineEdit] = []
        for req in requests:
            edit = QLineEdit()
            edit.setPlaceholderText(f"{req.lowest}-{req.highest}")
            edit.setMaxLength(4)
            name = {"tens": "d10 tens die (0-9, 0 = 00)", "units": "d10 units die (0-9)"}.get(req.role, f"d{req.sides}")
            if req.role == "die" and req.sides == 10:
                name = "d10 (0-9, 0 reads 10)"
            form.addRow(name, edit)
            self.edits.append(edit)
        self.layout_.addLayout(form)
        self._finish_layout()

    def _validate(self) -> str:
        for req, edit in zip(self.requests, self.edits, strict=True):
            text = edit.text().strip()
            try:
                check_face(req, int(text))
            except ValueError:
                return (
                    f"{text or 'An empty box'} is not a face of this die: type a whole number from {req.lowest} to {req.highest}."
                )
            except DiceError as exc:
                return str(exc)
        return ""

    def faces(self) -> list[int]:
        return [int(e.text().strip()) for e in self.edits]


#: how many printed rows the missing-row dialog shows, the nearest to the roll
NEARBY_ROWS = 4


class MissingRowDialog(_Validating):
    """Shows the table, the roll and the missing range; the player types the row from their book.

    Every cell is checked against its column as it is typed (:func:`check_row`): the reason
    shows beside the cell, effect text shows as the engine reads it, and OK refuses until the
    row is valid. With ``can_sample`` the player may instead re-roll among the printed rows,
    this time or from now on (``sample_requested(from_now_on)``; the dialog then closes).
    """

    sample_requested = Signal(bool)

    def __init__(
        self,
        table: Table,
        roll: int,
        missing: tuple[int, int],
        parent: QWidget | None = None,
        *,
        rules: Rules | None = None,
        can_sample: bool = False,
    ) -> None:
        super().__init__(f"Missing row: {table.title}", parent)
        self.table, self.roll, self.missing, self.rules = table, roll, missing, rules
        intro = QLabel(
            f"You rolled <b>{roll}</b> on <b>{table.title}</b>. Your tables have no row for "
            f"<b>{missing[0]}-{missing[1]}</b>.<br>Type the row from your rulebook; it is saved to your own table pack "
            "and used from now on."
        )
        intro.setWordWrap(True)
        self.layout_.addWidget(intro)
        self.layout_.addWidget(QLabel(f"The printed rows nearest {roll}:"))
        self.layout_.addWidget(self._nearby_rows())
        self._build_form()
        self.sample_once = QPushButton("Re-roll among printed rows this time")
        self.sample_always = QPushButton("Re-roll among printed rows from now on")
        self.sample_once.setToolTip("Sample play: this roll is re-rolled until it lands on a printed row; nothing is saved.")
        self.sample_always.setToolTip("Sample play from now on (Edit > Preferences changes it back).")
        for button, always in ((self.sample_once, False), (self.sample_always, True)):
            button.clicked.connect(lambda _checked=False, a=always: self._sample(a))
            self.buttons.addButton(button, QDialogButtonBox.ButtonRole.ActionRole)
            button.setVisible(can_sample)  # after addButton, which shows it
        self._finish_layout()
        self._refresh()

    def _nearby_rows(self) -> QTableWidget:
        table, roll = self.table, self.roll
        # the rows nearest the roll by their whole range (a roll of 49 on Table P, printed 1-15, shows 4-15 with
        # 13-15 first in view; sorting by a row's low end alone listed 1-15 from the top)
        near = sorted(table.rows, key=lambda r: max(r.low - roll, roll - r.high, 0))[:NEARBY_ROWS]
        known = QTableWidget(len(near), len(table.columns) + 1)
        known.setHorizontalHeaderLabels(["Roll", *[c.label for c in table.columns]])
        for r_i, row in enumerate(sorted(near, key=lambda r: r.low)):
            known.setItem(r_i, 0, QTableWidgetItem(row.range_label()))
            for c_i, col in enumerate(table.columns):
                known.setItem(r_i, c_i + 1, QTableWidgetItem(row.fields.get(col.key, "")))
        known.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        header = known.horizontalHeader()  # each column as wide as its header and cells ("Weapo", "ep. Co" were cut)
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(True)
        # as tall as its few rows, so every one is in view without scrolling (squeezed by the form below, 3 of 4
        # showed at 1280x720 and the nearest row was the hidden one)
        known.resizeRowsToContents()
        rows = sum(known.rowHeight(r) for r in range(known.rowCount()))
        frame = 2 * known.frameWidth() + known.horizontalScrollBar().sizeHint().height()
        known.setFixedHeight(header.sizeHint().height() + rows + frame)
        return known

    def _build_form(self) -> None:
        form = QFormLayout()
        self.low, self.high = QSpinBox(), QSpinBox()
        for spin in (self.low, self.high):
            spin.setRange(self.missing[0], self.missing[1])
            spin.setValue(self.roll)
            spin.valueChanged.connect(self._refresh)
        form.addRow("From", self.low)
        form.addRow("To", self.high)
        self.range_reason = _reason_label()
        form.addRow("", self.range_reason)
        self.fields: dict[str, QLineEdit] = {}
        self.reasons: dict[str, QLabel] = {}
        self.readings: dict[str, QLabel] = {}
        for col in self.table.columns:
            edit = QLineEdit()
            edit.setObjectName(f"cell_{col.key}")
            edit.textChanged.connect(self._refresh)
            self.fields[col.key] = edit
            self.reasons[col.key] = _reason_label()
            cell = QVBoxLayout()
            cell.addWidget(edit)
            cell.addWidget(self.reasons[col.key])
            if col.effect:
                reading = QLabel()
                reading.setWordWrap(True)
                reading.setMinimumHeight(reading.fontMetrics().lineSpacing())  # its line kept while empty
                self.readings[col.key] = reading
                cell.addWidget(reading)
            form.addRow(col.label + ("" if col.optional else " *"), cell)
        self.layout_.addLayout(form)

    def row(self) -> Row:
        fields = {k: e.text().strip() for k, e in self.fields.items() if e.text().strip()}
        return Row(range=(self.low.value(), self.high.value()), fields=fields)

    def check(self) -> RowCheck:
        """The row as typed, checked against the table's columns and the gap it fills."""
        return check_row(self.table, self.row(), self.rules, covers=self.roll, within=self.missing)

    def _refresh(self) -> None:
        """Show each cell's reason as it is typed; a message shown on OK follows the fixes."""
        check = self.check()
        _say(self.range_reason, check.range_problem)
        for cell in check.cells:
            _say(self.reasons[cell.key], cell.problem if cell.text or self.error_label.text() else "")
            if cell.key in self.readings:
                self.readings[cell.key].setText(f"Reads as: {cell.reading}" if cell.reading else "")
        if self.error_label.text():
            self.error_label.setText(self._validate())

    def _validate(self) -> str:
        check = self.check()
        if check.range_problem:
            return check.range_problem
        empty = [c.label for c in check.cells if c.problem and not c.text]
        if empty:
            return f"Fill in: {', '.join(empty)}."
        problems = check.problems()
        if problems:
            return "Check: " + "; ".join(problems)
        table_problems = check_table(self.table.model_copy(update={"rows": [*self.table.rows, self.row()]}), "your row")
        return "; ".join(str(p) for p in table_problems)

    def _try_accept(self) -> None:
        super()._try_accept()
        self._refresh()

    def _sample(self, from_now_on: bool) -> None:
        self.sample_requested.emit(from_now_on)
        self.reject()


def _say(label: QLabel, text: str) -> None:
    """Set a note under a field; an empty one takes no room."""
    label.setText(text)
    label.setVisible(bool(text))


def _reason_label() -> QLabel:
    label = QLabel()
    label.setObjectName("cellReason")
    label.setStyleSheet(error_style())  # the red, readable in this theme
    label.setWordWrap(True)
    label.setVisible(False)
    return label


def warning_box(parent: QWidget, title: str, text: str) -> QMessageBox:
    """Open (not exec) a warning whose text the player can select and copy, e.g. a file's problems."""
    box = QMessageBox(QMessageBox.Icon.Warning, title, text, QMessageBox.StandardButton.Ok, parent)
    box.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    box.open()
    return box
