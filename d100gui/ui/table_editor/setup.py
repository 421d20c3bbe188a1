"""How the player handles rows their tables lack, chosen in plain words, and the Tables menu's jobs.

The bundled tables ship only the rows the rule text prints, so a new player is asked once (at
first run and on each new campaign; Tables > Missing rows… any time) whether to type rows
as they come up, complete the tables now in the editor, or play a sample game that re-rolls
among the printed rows. The choice is the game's :class:`MissingRowPolicy`, kept in the
preferences (the same setting Edit > Preferences shows, in the same words).

The question says what each answer costs: how many rows each table lacks (read from the table
library: the results of its die that no row covers), that sample play re-rolls among the printed
rows until the tables are completed, and buttons for the three ways to complete them (paste a
table, type rows, import a pack).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import (
    QButtonGroup,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QRadioButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from d100gui.engine.dice.roller import MissingRowPolicy
from d100gui.engine.dice.row_check import completeness, printed_rows
from d100gui.engine.dice.tables import Table, TableLibrary
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
PASTE, TYPE, IMPORT = "paste", "type", "import"  # the ways to complete the tables, each a button
JOBS = (
    (PASTE, "Paste a table…", "Open the table editor and paste a table copied from your rulebook's PDF."),
    (TYPE, "Type rows…", "Open the table editor and type the rows your tables lack."),
    (IMPORT, "Import a table pack…", "Add the rows of a table pack (JSON) someone made from their rulebook."),
)


def lacking(library: TableLibrary) -> list[tuple[Table, int, int]]:
    """(table, results its rows cover, results of its die) for each rolled table with a gap: what sample play re-rolls."""
    found = []
    for table in library:
        if table.rollable and table.missing_ranges():
            covered, total = completeness(table)
            found.append((table, covered, total))
    return found


class PolicyChoiceDialog(QDialog):
    """Three plain choices for the rows the bundled excerpts leave out."""

    job_requested = Signal(str)  # PASTE, TYPE or IMPORT: the dialog closed with the choice made, then this job

    def __init__(self, current: MissingRowPolicy, parent: QWidget | None = None, library: TableLibrary | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Rows your tables lack")
        self.setMinimumWidth(660)  # the tables' names and counts in full
        self.job = ""
        layout = QVBoxLayout(self)
        gaps = lacking(library) if library is not None else []
        intro = QLabel(
            "The tables that come with the app hold only the rows the rule text prints; your rulebook has the rest."
            + (f" {len(gaps)} tables lack rows:" if gaps else "")
        )
        intro.setWordWrap(True)
        layout.addWidget(intro)
        self.lacking = self._lacking_table(gaps)
        self.lacking.setVisible(bool(gaps))
        layout.addWidget(self.lacking)
        self.cost = QLabel(
            "In sample play a roll that lands on a missing row is re-rolled among the printed rows (and labelled so) "
            "until you complete the tables: paste them from your rulebook, type them, or import a table pack."
        )
        self.cost.setObjectName("policyCost")
        self.cost.setWordWrap(True)
        layout.addWidget(self.cost)
        question = QLabel(f"<b>{POLICY_QUESTION}:</b>")
        question.setWordWrap(True)
        layout.addWidget(question)
        self.group = QButtonGroup(self)
        self.buttons_by_choice: dict[str, QRadioButton] = {}
        for index, (choice, text, _policy) in enumerate(CHOICES):
            button = QRadioButton(text)
            button.setObjectName(f"choice_{choice}")
            self.group.addButton(button, index)
            self.buttons_by_choice[choice] = button
            layout.addWidget(button, 0, Qt.AlignmentFlag.AlignLeft)  # as wide as its words: a click beside them is no choice
        self.buttons_by_choice[SAMPLE if current is MissingRowPolicy.REROLL else ASK].setChecked(True)
        complete = QLabel("Complete your tables now:")
        layout.addWidget(complete)
        jobs = QHBoxLayout()
        self.job_buttons: dict[str, QPushButton] = {}
        for job, text, tip in JOBS:
            job_button = QPushButton(text)
            job_button.setObjectName(f"job_{job}")
            job_button.setToolTip(tip + " Closes this question with the choice above.")
            job_button.setAutoDefault(False)
            job_button.clicked.connect(lambda _checked=False, j=job: self._do(j))
            self.job_buttons[job] = job_button
            jobs.addWidget(job_button)
        jobs.addStretch(1)
        layout.addLayout(jobs)
        note = QLabel("You can change this any time: Tables > Missing rows… or Edit > Preferences.")
        note.setWordWrap(True)
        layout.addWidget(note)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout.addWidget(self.buttons)

    @staticmethod
    def _lacking_table(gaps: list[tuple[Table, int, int]]) -> QTableWidget:
        """Each table with its printed rows and how many results of its die have none."""
        view = QTableWidget(len(gaps), 3)
        view.setObjectName("lackingTables")
        view.setHorizontalHeaderLabels(["Table", "Printed rows", "Results without a row"])
        view.verticalHeader().setVisible(False)
        view.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        view.setSelectionMode(QTableWidget.SelectionMode.NoSelection)  # read, not chosen from
        view.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        for index, (table, covered, total) in enumerate(gaps):
            cells = (table.title, f"{len(printed_rows(table))} ({covered} of {total} results)", f"{total - covered} of {total}")
            for col, text in enumerate(cells):
                item = QTableWidgetItem(text)
                if col:
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                view.setItem(index, col, item)
        view.setWordWrap(False)
        header = view.horizontalHeader()
        for col in (0, 1):
            header.setSectionResizeMode(col, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        view.resizeRowsToContents()
        view.setMaximumHeight(200)
        return view

    def _do(self, job: str) -> None:
        """A way to complete the tables: close with the choice made, then the job (the editor, a file dialog)."""
        self.job = job
        self.accept()
        self.job_requested.emit(job)

    def choice(self) -> str:
        return CHOICES[max(0, self.group.checkedId())][0]

    def policy(self) -> MissingRowPolicy:
        return CHOICES[max(0, self.group.checkedId())][2]


class TableSetup(QObject):
    """Tables > Table editor… and Missing rows…, and the first-run choice."""

    message = Signal(str)
    import_requested = Signal()  # Import a table pack…, from the first-run question (the window's table files do it)

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
        dialog = PolicyChoiceDialog(self.bridge.game.policy, self.window, self.bridge.game.library)
        dialog.accepted.connect(lambda: self.apply(dialog.choice(), dialog.policy()))
        dialog.job_requested.connect(self.do_job)
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

    def do_job(self, job: str) -> None:
        """Paste a table (the editor, its paste preview), type rows (the editor), or import a pack."""
        if job == IMPORT:
            self.import_requested.emit()
            return
        editor = self.open_editor()
        if job == PASTE:
            editor.open_paste()

    def set_policy(self, policy: MissingRowPolicy) -> None:
        """The game's policy and the saved preference (also for "from now on" in the missing-row dialog)."""
        self.bridge.game.policy = policy
        self.prefs.missing_row_policy = policy
        self.prefs.qsettings.setValue(CHOSEN_KEY, "true")
        self.prefs.sync()
