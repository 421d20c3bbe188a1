"""The roster: the living heroes of this installation (open one, or start a new hero) and the hall of the fallen.

Lines come from :func:`d100gui.storage.roster.read_roster` (every campaign in the campaigns
folder, the one in play read from memory). A campaign whose store keeps no statistics yet is counted
once off the GUI thread (:class:`HeadlineCounter`, :func:`~d100gui.storage.roster.count_statistics`,
which keeps the state in the store): its headline figures fill in when it is done. A living hero opens for play; a fallen one opens in
the read-only viewer (their final sheet, map and adventure log). The dialog only asks: the window
does the opening, through the signals.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QObject, Qt, Signal, SignalInstance
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
from d100gui.storage.roster import Headline, HeroLine, Roster, count_statistics, headline_from, read_roster
from d100gui.storage.store import is_store

LIVING_COLUMNS = ("Hero", "REP", "Gold", "Quests done", "Quests begun", "Fights (won)", "Last played", "Campaign files")
FALLEN_COLUMNS = ("Hero", "REP", "Quests done", "Fell on", "Cause", "Gold", "Quests begun", "Fights (won)")
#: the columns from the statistics' kept state (HeroLine.headline): blank for a campaign that keeps none
HEADLINE_COLUMNS = ("Quests begun", "Fights (won)")
HEADLINE_TIP = "From the campaign's statistics (View > Statistics), as last counted; 'counting...' while they are counted once"
COUNTING = "counting..."


def _number(value: int | None, unit: str = "") -> str:
    return "" if value is None else f"{value}{unit}"


def headline_values(line: HeroLine) -> tuple[str, str]:
    """Quests begun and fights (won), from the statistics' kept state; blank without one."""
    return headline_cells(line.headline)


def headline_cells(figures: Headline | None) -> tuple[str, str]:
    """The headline columns' cells for ``figures`` (blank for none)."""
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
        cause_of(line, line.headline),
        _number(line.gold, " gp"),
        *headline_values(line),
    )


def cause_of(line: HeroLine, figures: Headline | None) -> str:
    """The cause of death: the statistics' (the query the headline figures come from: the death event's cause and
    the fight it ended, in the same words as the log's death event); the log's own while they are being counted."""
    if figures is not None and figures.cause:
        return figures.cause
    death = line.death
    return how(death) if death is not None and how(death) else "(the log names none)"


class HeadlineCounter(QObject):
    """Counts the statistics of campaigns that keep none yet, one after another in a worker thread.

    ``counted(path, headline)`` comes back on the GUI thread for each. The worker holds its own
    connection to each store (``count_statistics``); :meth:`stop` makes it stop after the campaign in hand.
    """

    counted = Signal(str, object)  # the campaign's path, its Headline (None: it could not be counted)

    def __init__(self, paths: list[Path], count: Callable[[Path], Headline | None] = count_statistics) -> None:
        super().__init__()
        self.paths = list(paths)
        self.count = count
        self._stop = threading.Event()
        self.worker = threading.Thread(target=self._run, name="roster-statistics", daemon=True)

    def start(self) -> None:
        if self.paths:
            self.worker.start()

    def stop(self, wait: bool = False) -> None:
        """Stop after the campaign in hand; ``wait``: until its store is closed again (before opening one)."""
        self._stop.set()
        if wait and self.worker.is_alive():
            self.worker.join()

    def _run(self) -> None:
        for path in self.paths:
            if self._stop.is_set():
                return
            figures = self.count(path)
            if self._stop.is_set():
                return
            self.counted.emit(str(path), figures)


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
        self._current_path: Path | None = None
        self.counter = self._count_missing(current)

    def _count_missing(self, current: HeroLine | None) -> HeadlineCounter:
        """Count, off the GUI thread, the stores that keep no statistics yet (not the one in play: its store
        is the window's); their headline cells say so meanwhile."""
        skip = current.path if current is not None else None
        paths: list[Path] = []
        for table, lines in ((self.living, self.roster.living), (self.fallen, self.roster.fallen)):
            for row, line in enumerate(lines):
                if line.headline is None and line.path != skip and is_store(line.path):
                    paths.append(line.path)
                    self._set_headline(table, row, line, None, counting=True)
        counter = HeadlineCounter(paths)
        counter.counted.connect(self._counted)
        self.finished.connect(lambda _result: counter.stop())
        counter.start()
        return counter

    def show_counting(self, path: Path) -> None:
        """The campaign at ``path`` is being counted elsewhere (the one in play, by the window's feed):
        :meth:`show_current_figures` fills its cells."""
        self._current_path = path
        for table, lines in ((self.living, self.roster.living), (self.fallen, self.roster.fallen)):
            for row, line in enumerate(lines):
                if line.path == path:
                    self._set_headline(table, row, line, None, counting=True)

    def show_current_figures(self, figures: dict[str, object]) -> None:
        """The figures (``Statistics.figures()``) of the campaign :meth:`show_counting` named."""
        if self._current_path is not None:
            self.show_headline(self._current_path, headline_from(figures))

    def show_headline(self, path: Path, figures: Headline | None) -> None:
        """The headline figures of the campaign at ``path``, counted elsewhere."""
        self._counted(str(path), figures)

    def _counted(self, path: str, figures: Headline | None) -> None:
        for table, lines in ((self.living, self.roster.living), (self.fallen, self.roster.fallen)):
            for row, line in enumerate(lines):
                if str(line.path) == path:
                    self._set_headline(table, row, line, figures)

    def _set_headline(
        self, table: QTableWidget, row: int, line: HeroLine, figures: Headline | None, counting: bool = False
    ) -> None:
        columns = LIVING_COLUMNS if table is self.living else FALLEN_COLUMNS
        cells = (COUNTING, COUNTING) if counting else headline_cells(figures)
        for name, text in zip(HEADLINE_COLUMNS, cells, strict=True):
            item = table.item(row, columns.index(name))
            if item is not None:
                item.setText(text)
        if table is self.fallen and not counting:
            item = table.item(row, FALLEN_COLUMNS.index("Cause"))
            if item is not None:
                item.setText(cause_of(line, figures))

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
        self.counter.stop(wait=True)  # the worker may hold the store the player opens: let it close it first
        self.accept()
        signal.emit(item.data(Qt.ItemDataRole.UserRole))

    def _new(self) -> None:
        self.accept()
        self.new_hero_requested.emit()
