"""A tool's latest result, or the engine's reason for refusing it, with Copy and "Same dice"."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QApplication, QHBoxLayout, QLabel, QPlainTextEdit, QPushButton, QVBoxLayout, QWidget

from d100gui.ui.common.contrast import error_style
from d100gui.ui.toolbox.runner import ToolResult

RESULT_LINES = 6  # the result box's height, in lines
SAME_DICE_TIP = (
    "Take back this result and run the tool again with the inputs as they are now, from the random state "
    "before it: the same dice, so correcting an input never buys new rolls. Only while it is your latest action."
)

CONTINUED_TIP = (
    "This result went on from a row you typed or re-rolled among the printed rows: its dice are its first "
    "run's and the row's. Edit > Undo takes it back to where it stopped."
)


class ResultBox(QWidget):
    """Shows one result (selectable, copyable) or one refusal; asks for a re-run on the same dice."""

    same_dice_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.result: ToolResult | None = None
        self.text = QPlainTextEdit("No result yet.")  # a long result (a hoard) scrolls, never clips
        self.text.setObjectName("toolResult")
        self.text.setAccessibleName("Tool result")
        self.text.setReadOnly(True)
        self.text.setMinimumHeight(self.text.fontMetrics().lineSpacing() * RESULT_LINES)
        self.error = QLabel("")
        self.error.setObjectName("toolError")
        self.error.setWordWrap(True)
        self.error.setStyleSheet(error_style(self.error.palette()))  # the red, readable in either theme
        self.error.hide()
        self.copy_button = QPushButton("Copy")
        self.copy_button.setToolTip("Put this result on the clipboard")
        self.copy_button.clicked.connect(self.copy)
        self.same_button = QPushButton("Same dice")
        self.same_button.setToolTip(SAME_DICE_TIP)
        self.same_button.clicked.connect(self.same_dice_requested)
        buttons = QHBoxLayout()
        buttons.addWidget(self.copy_button)
        buttons.addWidget(self.same_button)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.text)
        layout.addWidget(self.error)
        layout.addLayout(buttons)
        self.set_latest(False)

    def show_result(self, outcome: ToolResult | str) -> None:
        """A new result, or (a string) the engine's refusal, shown under the last result."""
        if isinstance(outcome, str):
            self.error.setText(outcome)
            self.error.show()
            return
        self.error.hide()
        self.result = outcome
        self.text.setPlainText(outcome.text)
        self.copy_button.setEnabled(True)

    def replace(self, old: ToolResult | None, new: ToolResult) -> None:
        """The runner put ``new`` in the place of ``old`` (a run continued once its missing row was answered, or
        undone, or redone): shown here instead when ``old`` is the result shown."""
        if old is not None and self.result is not None and self.result.key == old.key:
            self.show_result(new)

    def set_latest(self, latest: bool) -> None:
        """Enable "Same dice" only while the shown result is the campaign's latest action (never for a result that
        went on from a typed or sampled row: the tooltip says why)."""
        self.same_button.setEnabled(latest)
        went_on = self.result is not None and self.result.continues is not None
        self.same_button.setToolTip(CONTINUED_TIP if went_on else SAME_DICE_TIP)
        self.copy_button.setEnabled(self.result is not None)

    def shown(self) -> str:
        """The result on screen (what Copy copies)."""
        return self.result.text if self.result is not None else ""

    def copy(self) -> None:
        if self.result is not None:
            QApplication.clipboard().setText(self.result.text)
