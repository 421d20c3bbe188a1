"""The adventure log dock: every step with its dice and results, filtered, searched, exported, linked to the map.

Lines come from :class:`~d100gui.engine.adventure.logbook.LogBook`, which reads the events'
kinds and payloads (never their sentences). :class:`LogModel` is a ``QAbstractListModel``
over the lines that pass the filter, so the view draws only what is on screen, at 100 or
100,000 entries. A click on a line asks to show its area (``area_requested``); the window
centres the map there (:func:`centre_on_area`).
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable
from html import escape
from pathlib import Path
from typing import Any

from PySide6.QtCore import QEvent, QModelIndex, QPersistentModelIndex, QSize, QStringListModel, Qt, Signal
from PySide6.QtGui import QFont, QShowEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDockWidget,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QSizePolicy,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from d100gui.engine.adventure.logbook import CATEGORIES, Category, LogBook, LogLine, matches, to_html, to_markdown
from d100gui.engine.dungeon.map import parse_key
from d100gui.storage.atomic import write_text_atomic
from d100gui.ui.common.bridge import ChangeSet, EngineBridge

Index = QModelIndex | QPersistentModelIndex
LINE_ROLE = Qt.ItemDataRole.UserRole + 1
CORRECTION_ROLE = Qt.ItemDataRole.UserRole + 2  # True for a line of a hand correction
AskPath = Callable[[str, str], str]
#: the mark before each line of a hand correction (a map command run by hand during a quest)
CORRECTION_MARK = "\u270e "
CORRECTION_TIP = "Hand correction: changed by hand during the quest, not a step of the turn."


def whole_text(line: LogLine, corrected: bool) -> str:
    """A line whole, as its tooltip and the dock's line under the list give it: with where it happened."""
    where = f"Area {line.area}: click to show it on the map" if line.area else "Not in a dungeon"
    return "\n".join([*([CORRECTION_TIP] if corrected else []), shown_text(line), where])


def shown_text(line: LogLine) -> str:
    """A line as the list shows it: its action's number, its kind of news, its sentence and its dice."""
    dice = f"   [{line.dice}]" if line.dice else ""
    head = "" if line.category == "other" else f"{CATEGORIES[line.category]}: "
    if line.kind == "narrative":
        head = "By hand: "  # the engine did not carry it out: the player does, at the table
    return f"{line.entry + 1}. {head}{line.text}{dice}"


class LogModel(QStringListModel):
    """The log lines that pass the filter (categories and text), one row each.

    A string list of empty rows underneath, only for its count (answered in C++: a view that asks it often pays
    no Python call for it). The rows' text and data are answered here.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.table_of: Callable[[int], str] | None = None  # a roll's table, from the dice history (doors by Table D)
        self.row_height = 0  # every row's height (the view's font); 0: measured by the delegate
        self.book = LogBook()
        self.first = 0  # the log index of the book's first entry
        self.categories: frozenset[Category] = frozenset()
        self.text = ""
        self._shown: list[int] = []  # indexes into book.lines
        self.corrections: set[int] = set()  # the log entries that are hand corrections (their event says so)
        self.correction_font: QFont | None = None  # how their lines are drawn (the view's font, in italics)

    # ------------------------------------------------------------------ Qt
    def flags(self, index: Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemNeverHasChildren

    def _show_rows(self, rows: list[int]) -> None:
        """Show these lines in place of the ones shown (the model reset)."""
        self._shown = rows
        self.setStringList([""] * len(rows))

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._shown):
            return None
        line = self.book.lines[self._shown[index.row()]]
        corrected = line.entry in self.corrections
        if role == Qt.ItemDataRole.DisplayRole:
            return (CORRECTION_MARK if corrected else "") + shown_text(line)
        if role == Qt.ItemDataRole.ToolTipRole:
            # the whole line, which the list may end in "...", as rich text: a tooltip wraps it
            return "".join(f"<p>{escape(part)}</p>" for part in whole_text(line, corrected).split("\n"))
        if role == LINE_ROLE:
            return line
        if role == CORRECTION_ROLE:
            return corrected
        if role == Qt.ItemDataRole.FontRole and corrected:
            return self.correction_font
        if role == Qt.ItemDataRole.SizeHintRole and self.row_height:
            # as narrow as can be: a row then spans the list's width and a long line ends in "..." (its tooltip,
            # the line shown whole below the list and the exports have it whole) instead of a sideways scroll
            return QSize(1, self.row_height)
        return None

    # ------------------------------------------------------------------ content
    def line(self, row: int) -> LogLine:
        return self.book.lines[self._shown[row]]

    def shown(self) -> list[LogLine]:
        """The lines that pass the filter, in order."""
        return [self.book.lines[i] for i in self._shown]

    def reset(self) -> None:
        """Forget every line (another campaign is on screen)."""
        self.book = LogBook(self.table_of)
        self.first = 0
        self.corrections = set()
        self._show_rows([])

    def _note_corrections(self, lines: list[LogLine]) -> None:
        """The entries among ``lines`` that are hand corrections: the engine marks each with its event."""
        self.corrections.update(line.entry for line in lines if line.kind == "hand_correction")

    def sync(self, log: list[Any], start: int) -> None:
        """Follow the campaign's log (``log`` begins at entry ``start``): read the new entries only.

        The book holds the entries from ``self.first`` (a log index) on: a campaign opened from its
        store has only its newest entries in memory, so the book's first entry is not the log's.
        """
        total = start + len(log)
        end = self.first + self.book.entries  # the log index after the last entry read
        if not self.book.entries or end < start or end > total:
            self.book = LogBook(self.table_of)
            self.first = start
            self.corrections = set()
            self._note_corrections(self.book.extend(log))
            self._show_rows(self._filtered(0))
            return
        first = len(self.book.lines)
        added = self.book.extend(log[end - start :])
        self._note_corrections(added)
        if added:
            rows = self._filtered(first)
            if rows:
                at = len(self._shown)
                self._shown += rows
                self.insertRows(at, len(rows))

    def undo_to(self, entries: int) -> None:
        """Entries from ``entries`` (a log index) on were taken off the log."""
        if entries >= self.first + self.book.entries:
            return
        self.corrections = {entry for entry in self.corrections if entry < entries}
        if entries < self.first:
            self.book = LogBook(self.table_of)  # read again from the log by the next sync
            self.first = entries
            self._show_rows(self._filtered(0))
            return
        self.book.truncate(entries - self.first)
        # the lines shown are in order: those of the entries taken back are the last rows, taken off
        # (resetting the model would make the list lay out every row again at each undo)
        cut = bisect_left(self._shown, len(self.book.lines))
        if cut < len(self._shown):
            del self._shown[cut:]
            self.removeRows(cut, self.rowCount() - cut)

    def set_filter(self, categories: frozenset[Category], text: str) -> None:
        self.categories, self.text = categories, text
        self._show_rows(self._filtered(0))

    def _filtered(self, first: int) -> list[int]:
        lines, cats, text = self.book.lines, self.categories, self.text
        return [i for i in range(first, len(lines)) if matches(lines[i], cats, text)]


CHOOSE_A_LINE = "Click a line to read it whole here."


class LogList(QTableView):
    """The log's lines, newest at the bottom: one column of rows of one fixed height.

    A table view, not a list view (as the dice history's :class:`~d100gui.ui.dice.history_view.HistoryView`): its
    rows are header sections of a fixed size, kept in C++, so a line added and the scroll to it cost the same at any
    length. A ``QListView`` laid out every row again at each action, uniform sizes or not: ~1.4 ms at 1,000 lines,
    ~28 ms at 20,000 (issue 18's performance).
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        rows, columns = self.verticalHeader(), self.horizontalHeader()
        rows.hide()
        columns.hide()
        rows.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        columns.setStretchLastSection(True)  # a row spans the list's width; a long line ends in "..."
        self.setShowGrid(False)
        self.setWordWrap(False)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setTabKeyNavigation(False)  # Tab leaves the list, as it did a list view's


class AdventureLog(QWidget):
    """The dock's widget: filter buttons, a search box, export buttons, and the list of lines."""

    area_requested = Signal(str)  # "col,row": show this area on the map
    message = Signal(str)

    def __init__(self, bridge: EngineBridge, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.bridge = bridge
        self.refreshes = 0  # how many times it followed the log (tests count: once per action)
        self._to_bottom = False  # lines were added while the list was hidden: it scrolls to them when shown
        self.ask_path: AskPath = self._ask_path
        self._campaign = ""
        self.model = LogModel(self)
        self.model.table_of = self.model.book.table_of = self._table_of
        self.list = LogList()
        self.list.setAccessibleName("Adventure log entries")
        self.list.setModel(self.model)
        self.model.row_height = self.list.fontMetrics().height() + 4
        self.list.verticalHeader().setDefaultSectionSize(self.model.row_height)
        italic = QFont(self.list.font())
        italic.setItalic(True)
        self.model.correction_font = italic
        self.list.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.list.setWordWrap(False)
        # The line chosen, whole and wrapped: a list row is one line high and ends in "..." when too long
        self.whole_line = QLabel(CHOOSE_A_LINE)
        self.whole_line.setObjectName("logLineWhole")
        self.whole_line.setAccessibleName("The chosen log line, whole")
        self.whole_line.setWordWrap(True)
        self.whole_line.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.whole_line.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)  # wraps, never widens
        self.search = QLineEdit()
        self.search.setAccessibleName("Search the log")
        self.search.setPlaceholderText("Search the log")
        self.search.setClearButtonEnabled(True)
        self.filters: dict[Category, QPushButton] = {}
        filters = QHBoxLayout()
        for category, name in CATEGORIES.items():
            if category == "other":
                continue
            button = QPushButton(name)
            button.setCheckable(True)
            button.setObjectName(f"logFilter_{category}")
            button.setToolTip(f"Show only {name.lower()} (with the other pressed filters); none pressed shows everything")
            button.toggled.connect(self._refilter)
            self.filters[category] = button
            filters.addWidget(button)
        filters.addStretch(1)
        self.export_md = QPushButton("Export Markdown...")
        self.export_html = QPushButton("Export HTML...")
        self.export_md.clicked.connect(lambda _checked=False: self.export("md"))
        self.export_html.clicked.connect(lambda _checked=False: self.export("html"))
        exports = QHBoxLayout()
        exports.addWidget(self.search, 1)
        exports.addWidget(self.export_md)
        exports.addWidget(self.export_html)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(filters)
        layout.addLayout(exports)
        layout.addWidget(self.list, 1)
        layout.addWidget(self.whole_line)
        self.search.textChanged.connect(self._refilter)
        self.list.clicked.connect(self._clicked)
        self.list.selectionModel().currentChanged.connect(self._show_whole)
        self.model.modelReset.connect(lambda: self._show_whole(QModelIndex()))
        self.model.rowsRemoved.connect(lambda *_: self._show_whole(self.list.currentIndex()))
        bridge.changed.connect(self._changed)  # once per action, undo and redo alike
        self.refresh()

    def _table_of(self, index: int) -> str:
        history = self.bridge.game.campaign.dice_history
        entry = history[index] if 0 <= index < len(history) else None
        return entry.table.table_id if entry is not None and entry.table is not None else ""

    def _changed(self, change: ChangeSet) -> None:
        if change.reset or change.touches("log"):
            self.refresh()

    def refresh(self) -> None:
        """Follow the campaign's log (after a command, an undo, or another campaign opened)."""
        self.refreshes += 1
        campaign = self.bridge.game.campaign
        if campaign.meta.id != self._campaign:
            self._campaign = campaign.meta.id
            self.model.reset()
        rows = self.model.rowCount()
        self.model.undo_to(campaign.log_length)
        self.model.sync(campaign.log, campaign.log_start)
        if self.model.rowCount() != rows:
            self._to_bottom = True
            if self.list.isVisible() and not self.list.visibleRegion().isEmpty():
                self._scroll_to_bottom()  # else behind another dock's tab: scrolled when brought to the front
            else:  # its rows laid out now (a few fixed sections), not by a timer after the window's paint
                self.list.executeDelayedItemsLayout()

    def _scroll_to_bottom(self) -> None:
        """The newest line in sight (for a list nobody sees, done when it is brought to the front)."""
        self._to_bottom = False
        self.list.scrollToBottom()

    def _in_front(self, shown: bool = True) -> None:
        """Shown again (its dock's tab chosen, the dock shown): the lines added meanwhile scrolled into sight, before
        it paints. A dock behind another's tab is not hidden, only moved out of the window: it says so by its signal."""
        if shown and self._to_bottom:
            self._scroll_to_bottom()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self._in_front()

    def changeEvent(self, event: QEvent) -> None:
        """Put in a dock: told when its tab comes to the front (see :meth:`_in_front`)."""
        super().changeEvent(event)
        dock = self.parent()
        if event.type() == QEvent.Type.ParentChange and isinstance(dock, QDockWidget):
            dock.visibilityChanged.connect(self._in_front)

    def _show_whole(self, index: QModelIndex, _previous: object = None) -> None:
        """Under the list: the line chosen, whole (wrapped), with where it happened."""
        if not index.isValid() or not 0 <= index.row() < self.model.rowCount():
            self.whole_line.setText(CHOOSE_A_LINE)
            return
        line = self.model.line(index.row())
        self.whole_line.setText(whole_text(line, line.entry in self.model.corrections))

    def _refilter(self, *_args: object) -> None:
        chosen = frozenset(c for c, b in self.filters.items() if b.isChecked())
        self.model.set_filter(chosen, self.search.text())

    def _clicked(self, index: QModelIndex) -> None:
        line = self.model.line(index.row())
        if not line.area:
            self.message.emit("That happened outside the dungeon.")
            return
        current = self.bridge.game.campaign.dungeons.current
        if line.dungeon not in (-1, current):
            self.message.emit(f"That happened in dungeon {line.dungeon + 1}: choose it in Map > Dungeons to see it.")
            return
        self.area_requested.emit(line.area)

    # ------------------------------------------------------------------ export
    def _ask_path(self, caption: str, filters: str) -> str:
        path, _ = QFileDialog.getSaveFileName(self, caption, "", filters)
        return path

    def export(self, kind: str, path: str | Path | None = None) -> Path | None:
        """Write the lines shown to Markdown (``md``) or HTML (``html``); asks where when no ``path``."""
        if path is None:
            filters = "Markdown (*.md)" if kind == "md" else "HTML (*.html)"
            path = self.ask_path("Export the adventure log", filters) or None
            if path is None:
                return None
        target = Path(path)
        lines = self.model.shown()
        text = to_markdown(lines) if kind == "md" else to_html(lines)
        write_text_atomic(target, text)
        self.message.emit(f"Adventure log exported to {target.name} ({len(lines)} lines).")
        return target


def centre_on_area(view: Any, key: str) -> None:
    """Centre a map view on area ``key`` (the view gives its scene as ``map_scene`` with ``area_rect``)."""
    rect = view.map_scene.area_rect(parse_key(key))
    view.centerOn(rect.center())
