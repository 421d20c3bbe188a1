"""Dialogs that ask the player for something: physical dice faces, a missing table row,
preferences. Each validates what is typed and says clearly what is wrong."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMessageBox,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from d100gui.engine.dice.dice import DiceError, FaceRequest, check_face
from d100gui.engine.dice.roller import MissingRowPolicy
from d100gui.engine.dice.tables import Row, Table, check_table
from d100gui.engine.dungeon.map import DEFAULT_HEIGHT, DEFAULT_WIDTH


class _Validating(QDialog):
    """A dialog whose OK runs ``_validate``; an error stays on screen and nothing closes."""

    def __init__(self, title: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self.layout_ = QVBoxLayout(self)
        self.error_label = QLabel()
        self.error_label.setObjectName("errorLabel")
        self.error_label.setStyleSheet("color: #c0392b;")
        self.error_label.setWordWrap(True)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self._try_accept)
        self.buttons.rejected.connect(self.reject)

    def _finish_layout(self) -> None:
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


class MissingRowDialog(_Validating):
    """Shows the table, the roll and the missing range; the player types the row from their book."""

    def __init__(self, table: Table, roll: int, missing: tuple[int, int], parent: QWidget | None = None) -> None:
        super().__init__(f"Missing row: {table.title}", parent)
        self.table = table
        self.roll = roll
        self.missing = missing
        intro = QLabel(
            f"You rolled <b>{roll}</b> on <b>{table.title}</b>. Your tables have no row for "
            f"<b>{missing[0]}-{missing[1]}</b>.<br>Type the row from your rulebook; it is saved to your own table pack "
            "and used from now on."
        )
        intro.setWordWrap(True)
        self.layout_.addWidget(intro)
        known = QTableWidget(min(len(table.rows), 6), len(table.columns) + 1)
        known.setHorizontalHeaderLabels(["Roll", *[c.label for c in table.columns]])
        near = sorted(table.rows, key=lambda r: abs(r.low - roll))[:6]
        for r_i, row in enumerate(sorted(near, key=lambda r: r.low)):
            known.setItem(r_i, 0, QTableWidgetItem(row.range_label()))
            for c_i, col in enumerate(table.columns):
                known.setItem(r_i, c_i + 1, QTableWidgetItem(row.fields.get(col.key, "")))
        known.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        known.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        known.setMaximumHeight(180)
        self.layout_.addWidget(QLabel("Nearby rows you already have:"))
        self.layout_.addWidget(known)
        form = QFormLayout()
        self.low = QSpinBox()
        self.high = QSpinBox()
        for spin in (self.low, self.high):
            spin.setRange(missing[0], missing[1])
            spin.setValue(roll)
        form.addRow("From", self.low)
        form.addRow("To", self.high)
        self.fields: dict[str, QLineEdit] = {}
        for col in table.columns:
            edit = QLineEdit()
            form.addRow(col.label, edit)
            self.fields[col.key] = edit
        self.layout_.addLayout(form)
        self._finish_layout()

    def row(self) -> Row:
        fields = {k: e.text().strip() for k, e in self.fields.items() if e.text().strip()}
        return Row(range=(self.low.value(), self.high.value()), fields=fields)

    def _validate(self) -> str:
        lo, hi = self.low.value(), self.high.value()
        if lo > hi:
            return "'From' must not be greater than 'To'."
        if not lo <= self.roll <= hi:
            return f"The row must include the roll of {self.roll}."
        row = self.row()
        missing = [self.table.column(k).label for k in self.fields if k not in row.fields]  # type: ignore[union-attr]
        if missing:
            return f"Fill in: {', '.join(missing)}."
        problems = check_table(self.table.model_copy(update={"rows": [*self.table.rows, row]}), "your row")
        return "; ".join(str(p) for p in problems)


class PreferencesDialog(QDialog):
    """The few choices players genuinely differ on."""

    def __init__(
        self,
        policy: MissingRowPolicy,
        theme: str,
        parent: QWidget | None = None,
        sheet_size: tuple[int, int] = (DEFAULT_WIDTH, DEFAULT_HEIGHT),
        unbounded: bool = False,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Preferences")
        form = QFormLayout(self)
        self.policy = QComboBox()
        self.policy.addItem("Ask me (type the row from my rulebook)", MissingRowPolicy.ASK.value)
        self.policy.addItem("Re-roll among known rows (sample play)", MissingRowPolicy.REROLL.value)
        self.policy.setCurrentIndex(0 if policy is MissingRowPolicy.ASK else 1)
        form.addRow("When a roll lands on a row my tables lack", self.policy)
        self.theme = QComboBox()
        for label, value in (("Follow the system", "system"), ("Light", "light"), ("Dark", "dark")):
            self.theme.addItem(label, value)
        self.theme.setCurrentIndex(max(0, self.theme.findData(theme)))
        form.addRow("Theme", self.theme)
        self.sheet_width = QSpinBox()
        self.sheet_width.setRange(3, 200)
        self.sheet_width.setValue(sheet_size[0])
        self.sheet_height = QSpinBox()
        self.sheet_height.setRange(2, 200)
        self.sheet_height.setValue(sheet_size[1])
        form.addRow("New mapping sheets: areas across", self.sheet_width)
        form.addRow("New mapping sheets: areas down", self.sheet_height)
        self.unbounded = QCheckBox("Exits beyond the sheet edge lead on (no dead end at the edge)")
        self.unbounded.setChecked(unbounded)
        form.addRow("", self.unbounded)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)

    def chosen_policy(self) -> MissingRowPolicy:
        return MissingRowPolicy(self.policy.currentData())

    def chosen_theme(self) -> str:
        return str(self.theme.currentData())

    def chosen_sheet(self) -> tuple[tuple[int, int], bool]:
        return (self.sheet_width.value(), self.sheet_height.value()), self.unbounded.isChecked()


def warning_box(parent: QWidget, title: str, text: str) -> QMessageBox:
    """Open (not exec) a warning whose text the player can select and copy, e.g. a file's problems."""
    box = QMessageBox(QMessageBox.Icon.Warning, title, text, QMessageBox.StandardButton.Ok, parent)
    box.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    box.open()
    return box
