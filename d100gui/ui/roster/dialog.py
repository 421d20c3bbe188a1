"""The roster: the living heroes of this installation (open one, or start a new hero) and the hall of the fallen.

Lines come from :func:`d100gui.storage.roster.read_roster` (every campaign in the campaigns
folder, the one in play read from memory). A living hero opens for play; a fallen one opens in
the read-only viewer (their final sheet, map and adventure log). The dialog only asks: the window
does the opening, through the signals.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, Signal, SignalInstance
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from d100gui.engine.hero.fallen import how, when
from d100gui.storage.roster import HeroLine, Roster, read_roster

LIVING_COLUMNS = ("Hero", "REP", "Gold", "Quests done", "Quests begun", "Fights (won)", "Last played", "Campaign files")
FALLEN_COLUMNS = ("Hero", "REP", "Quests done", "Fell on", "Cause", "Gold", "Quests begun", "Fights (won)")
#: the columns from the statistics' kept state (HeroLine.headline): blank for a campaign that keeps none
HEADLINE_COLUMNS = ("Quests begun", "Fights (won)")
HEADLINE_TIP = "As the Statistics view (View > Statistics) last counted this campaign; blank if it never did"


def _number(value: int | None, unit: str = "") -> str:
    return "" if value is None else f"{value}{unit}"


def headline_values(line: HeroLine) -> tuple[str, str]:
    """Quests begun and fights (won), from the statistics' kept state; blank without one."""
    figures = line.headline
    if figures is None:
        return ("", "")
    return (str(figures.quests), f"{figures.fights} ({figures.fights_won} won)")


def living_values(line: HeroLine) -> tuple[str, ...]:
    """A living hero's cells: name, REP, gold, quests done, last played, how many campaign files hold them
    (a campaign's file is named after its id, which no player reads: the paths are in the tooltip)."""
    files = len(line.campaigns)
    return (
        line.name,
        _number(line.rep),
        _number(line.gold, " gp"),
        _number(line.quests_done),
        *headline_values(line),
        when(line.last_played),
        "1 file" if files == 1 else f"{files} files (copies)",
    )


def fallen_values(line: HeroLine) -> tuple[str, ...]:
    """A fallen hero's cells: name, REP, quests done, the date and cause of the log's death event, gold, then
    the headline figures (quests begun, fights) from the statistics' kept state."""
    death = line.death
    return (
        line.name,
        _number(line.rep),
        _number(line.quests_done),
        when(death.at) if death is not None and death.at else "(not in the log)",
        (how(death) if death is not None and how(death) else "(the log names none)"),
        _number(line.gold, " gp"),
        *headline_values(line),
    )


def _table(columns: tuple[str, ...], rows: list[tuple[str, ...]], lines: list[HeroLine], stretch: int = -1) -> QTableWidget:
    table = QTableWidget(len(rows), len(columns))
    table.setHorizontalHeaderLabels(columns)
    table.setSelectionBehavior(QTableWidget.SelectionBehavior.SelectRows)
    table.setSelectionMode(QTableWidget.SelectionMode.SingleSelection)
    table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
    table.verticalHeader().setVisible(False)
    header = table.horizontalHeader()
    header.setMinimumSectionSize(70)
    header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    header.setSectionResizeMode(stretch % len(columns), QHeaderView.ResizeMode.Stretch)
    for c, name in enumerate(columns):
        item = table.horizontalHeaderItem(c)
        if name in HEADLINE_COLUMNS and item is not None:
            item.setToolTip(HEADLINE_TIP)
    for r, (values, line) in enumerate(zip(rows, lines, strict=True)):
        for c, value in enumerate(values):
            item = QTableWidgetItem(value)
            item.setData(Qt.ItemDataRole.UserRole, str(line.path))
            item.setToolTip("\n".join(str(path) for path in line.campaigns))
            table.setItem(r, c, item)
    if rows:
        table.selectRow(0)
    return table


class RosterDialog(QDialog):
    """Heroes (Open, New hero) and the Hall of the fallen (View, read-only), in two tabs."""

    open_requested = Signal(str)  # a living hero's campaign, to play
    view_requested = Signal(str)  # a fallen hero's campaign, to view read-only
    new_hero_requested = Signal()

    def __init__(self, directory: Path, parent: QWidget | None = None, current: HeroLine | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Heroes")
        self.resize(820, 420)
        self.roster: Roster = read_roster(directory, current)
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel(f"Every hero whose campaign is saved in {directory}"))
        self.tabs = QTabWidget()
        layout.addWidget(self.tabs)
        self.living = _table(LIVING_COLUMNS, [living_values(h) for h in self.roster.living], self.roster.living)
        self.fallen = _table(
            FALLEN_COLUMNS, [fallen_values(h) for h in self.roster.fallen], self.roster.fallen, FALLEN_COLUMNS.index("Cause")
        )
        self.open_button = QPushButton("Open")
        self.new_button = QPushButton("New hero…")
        self.view_button = QPushButton("View (read-only)…")
        self.tabs.addTab(
            self._page(self.living, "No living hero yet: start one with New hero.", self.open_button, self.new_button), "Heroes"
        )
        self.tabs.addTab(self._page(self.fallen, "No hero has fallen yet.", self.view_button), "Hall of the fallen")
        if self.roster.broken:
            names = ", ".join(f"{b.path.name} ({b.problem})" for b in self.roster.broken)
            layout.addWidget(QLabel(f"Not readable: {names}"))
        self.open_button.setEnabled(bool(self.roster.living))
        self.view_button.setEnabled(bool(self.roster.fallen))
        self.open_button.clicked.connect(lambda _=False: self._choose(self.living, self.open_requested))
        self.view_button.clicked.connect(lambda _=False: self._choose(self.fallen, self.view_requested))
        self.new_button.clicked.connect(lambda _=False: self._new())
        self.living.doubleClicked.connect(lambda _index: self._choose(self.living, self.open_requested))
        self.fallen.doubleClicked.connect(lambda _index: self._choose(self.fallen, self.view_requested))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)

    def _page(self, table: QTableWidget, empty: str, *buttons: QPushButton) -> QWidget:
        page = QWidget()
        box = QVBoxLayout(page)
        box.addWidget(table)
        if table.rowCount() == 0:
            note = QLabel(empty)
            note.setObjectName("rosterEmpty")
            box.addWidget(note)
        row = QDialogButtonBox()
        for button in buttons:
            row.addButton(button, QDialogButtonBox.ButtonRole.ActionRole)
        box.addWidget(row)
        return page

    def show_hall(self) -> None:
        """Open on the hall of the fallen."""
        self.tabs.setCurrentIndex(1)

    def _choose(self, table: QTableWidget, signal: SignalInstance) -> None:
        item = table.item(table.currentRow(), 0)
        if item is None:
            return
        self.accept()
        signal.emit(item.data(Qt.ItemDataRole.UserRole))

    def _new(self) -> None:
        self.accept()
        self.new_hero_requested.emit()
