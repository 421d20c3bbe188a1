"""How the player handles rows their tables lack, chosen in plain words, and the Tables menu's jobs.

The bundled tables ship only the rows the rule text prints, so a new player is asked once (at
first run and on each new campaign; Tables > Missing rows… any time) whether to type rows
as they come up, complete the tables now in the editor, or play a sample game that re-rolls
among the printed rows. The choice is the game's :class:`MissingRowPolicy`, kept in the
preferences (the same setting Edit > Preferences shows, in the same words).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QButtonGroup, QDialog, QDialogButtonBox, QLabel, QRadioButton, QVBoxLayout, QWidget

from d100gui.engine.dice.roller import MissingRowPolicy
from d100gui.ui.common.bridge import EngineBridge
from d100gui.ui.common.preferences import POLICY_ASK_TEXT, POLICY_QUESTION, POLICY_REROLL_TEXT
from d100gui.ui.common.settings import Preferences

if TYPE_CHECKING:  # the editor is imported when it first opens, not at start-up
    from d100gui.ui.table_editor.editor import TableEditor

CHOSEN_KEY = "tables/missing_row_policy_chosen"
ASK, COMPLETE, SAMPLE = "ask", "complete", "sample"
CHOICES = (
    (ASK, POLICY_ASK_TEXT, MissingRowPolicy.ASK),
    (COMPLETE, "Complete my tables now (opens the table editor)", MissingRowPolicy.ASK),
    (SAMPLE, POLICY_REROLL_TEXT, MissingRowPolicy.REROLL),
)


class PolicyChoiceDialog(QDialog):
    """Three plain choices for the rows the bundled excerpts leave out."""

    def __init__(self, current: MissingRowPolicy, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Rows your tables lack")
        layout = QVBoxLayout(self)
        intro = QLabel(
            "The tables that come with the app hold only the rows the rule text prints; your rulebook has the rest. "
            f"<br><b>{POLICY_QUESTION}:</b>"
        )
        intro.setWordWrap(True)
        layout.addWidget(intro)
        self.group = QButtonGroup(self)
        self.buttons_by_choice: dict[str, QRadioButton] = {}
        for index, (choice, text, _policy) in enumerate(CHOICES):
            button = QRadioButton(text)
            button.setObjectName(f"choice_{choice}")
            self.group.addButton(button, index)
            self.buttons_by_choice[choice] = button
            layout.addWidget(button)
        self.buttons_by_choice[SAMPLE if current is MissingRowPolicy.REROLL else ASK].setChecked(True)
        note = QLabel("You can change this any time: Tables > Missing rows… or Edit > Preferences.")
        note.setWordWrap(True)
        layout.addWidget(note)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout.addWidget(self.buttons)

    def choice(self) -> str:
        return CHOICES[max(0, self.group.checkedId())][0]

    def policy(self) -> MissingRowPolicy:
        return CHOICES[max(0, self.group.checkedId())][2]


class TableSetup(QObject):
    """Tables > Table editor… and Missing rows…, and the first-run choice."""

    message = Signal(str)

    def __init__(self, bridge: EngineBridge, prefs: Preferences, window: QWidget, save_rows: Callable[[str], None]) -> None:
        super().__init__(window)
        self.bridge = bridge
        self.prefs = prefs
        self.window = window
        self.save_rows = save_rows
        self.editor: TableEditor | None = None
        self.choice_dialog: PolicyChoiceDialog | None = None

    def open_editor(self) -> TableEditor:
        """The table editor (one at a time; opening it again brings it back with its drafts)."""
        if self.editor is None:
            from d100gui.ui.table_editor.editor import TableEditor

            self.editor = TableEditor(self.bridge, self.save_rows, self.window)
        self.editor.fill_list()
        if self.editor.isVisible():
            self.editor.raise_()
        self.editor.show()
        return self.editor

    def choose(self) -> PolicyChoiceDialog:
        """Ask how to handle missing rows (a new campaign, first run, or the menu)."""
        dialog = PolicyChoiceDialog(self.bridge.game.policy, self.window)
        dialog.accepted.connect(lambda: self.apply(dialog.choice(), dialog.policy()))
        dialog.open()
        self.choice_dialog = dialog
        return dialog

    def first_run(self) -> PolicyChoiceDialog | None:
        """Ask once, the first time the app starts with these preferences."""
        if str(self.prefs.qsettings.value(CHOSEN_KEY, "false")).lower() == "true":
            return None
        return self.choose()

    def apply(self, choice: str, policy: MissingRowPolicy) -> None:
        self.set_policy(policy)
        if choice == COMPLETE:
            self.open_editor()
        self.message.emit(
            "Sample play: rolls that land on a missing row are re-rolled among the printed rows, and labelled so."
            if policy is MissingRowPolicy.REROLL
            else "Rows your tables lack will be asked for as they come up."
        )

    def set_policy(self, policy: MissingRowPolicy) -> None:
        """The game's policy and the saved preference (also for "from now on" in the missing-row dialog)."""
        self.bridge.game.policy = policy
        self.prefs.missing_row_policy = policy
        self.prefs.qsettings.setValue(CHOSEN_KEY, "true")
        self.prefs.sync()
