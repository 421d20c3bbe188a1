"""The dice history list: a model over the campaign's dice history that reads it a page at a time.

A campaign opened from its store keeps only its newest rolls in memory, so the model never
iterates ``campaign.dice_history``: it asks the bridge for the count
(``bridge.dice_history_length``) and for the page of rows on screen
(``bridge.dice_history_page``), and keeps a few pages of text. A roll appends one row (or
changes one); only undo, redo or another campaign reset the list. Rows are of one fixed height
and not wrapped (the full line is the tooltip), so the view never measures every row: a roll
costs the same at 100 or 100,000 entries.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any, Protocol

from PySide6.QtCore import QAbstractListModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView, QWidget

from d100gui.engine.dice.history import HistoryEntry

Index = QModelIndex | QPersistentModelIndex
PAGE = 200  # rows read from the history at a time
PAGES_KEPT = 20  # pages of text kept (the rows around what is on screen)


class HistorySource(Protocol):
    """What the model reads the history through (the bridge)."""

    @property
    def dice_history_length(self) -> int: ...

    def dice_history_page(self, offset: int, limit: int) -> list[HistoryEntry]: ...


def history_line(index: int, entry: HistoryEntry) -> str:
    """One row of the history: the roll's number (from 1) and what it was."""
    return f"{index + 1}. {entry.describe()}"


class HistoryModel(QAbstractListModel):
    """One row per roll; text read from ``source`` a page at a time and kept for a few pages."""

    def __init__(self, source: HistorySource, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.source = source
        self._count = 0
        self._pages: OrderedDict[int, list[str]] = OrderedDict()
        self.pages_read = 0  # how many pages were read from the source (tests and benchmarks look)

    # ------------------------------------------------------------------ Qt
    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 - Qt's signature
        return 0 if parent.isValid() else self._count

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role not in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole) or not index.isValid():
            return None
        return self.text(index.row())

    # ------------------------------------------------------------------ content
    def text(self, row: int) -> str | None:
        """Row ``row``'s line (None outside the list)."""
        if not 0 <= row < self._count:
            return None
        page = self._page(row // PAGE)
        offset = row % PAGE
        return page[offset] if offset < len(page) else None

    def _page(self, number: int) -> list[str]:
        page = self._pages.get(number)
        if page is None:
            start = number * PAGE
            entries = self.source.dice_history_page(start, PAGE)
            page = [history_line(start + i, e) for i, e in enumerate(entries)]
            self.pages_read += 1
            self._pages[number] = page
            while len(self._pages) > PAGES_KEPT:
                self._pages.popitem(last=False)
        else:
            self._pages.move_to_end(number)
        return page

    def reload(self) -> None:
        """Re-read the count and forget every page (another campaign, undo or redo)."""
        self.beginResetModel()
        self._count = self.source.dice_history_length
        self._pages.clear()
        self.endResetModel()

    def roll_shown(self, index: int) -> None:
        """Roll ``index`` was made or changed: append the rows up to it, or refresh its row."""
        for number in range(min(index, self._count) // PAGE, index // PAGE + 1):
            self._pages.pop(number, None)  # the pages the new or changed rows fall in are read again
        if index < self._count:
            changed = self.index(index)
            self.dataChanged.emit(changed, changed)
            return
        self.beginInsertRows(QModelIndex(), self._count, index)
        self._count = index + 1
        self.endInsertRows()


class _Row:
    """A row of :class:`HistoryView` as ``item(i)`` returns it: its ``text()``."""

    def __init__(self, text: str) -> None:
        self._text = text

    def text(self) -> str:
        return self._text


class HistoryView(QTableView):
    """The history list, newest at the bottom: one column of rows of one fixed height.

    A table view, not a list view: its rows are header sections of a fixed size, kept in C++,
    so appending a row or scrolling to the bottom never asks the model about every row (a
    ``QListView`` lays out all rows and calls ``rowCount`` for each: O(n) Python calls a roll).
    """

    def __init__(self, source: HistorySource, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.history_model = HistoryModel(source, self)
        self.setModel(self.history_model)
        rows, columns = self.verticalHeader(), self.horizontalHeader()
        rows.hide()
        columns.hide()
        rows.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        rows.setDefaultSectionSize(self.fontMetrics().height() + 6)
        columns.setStretchLastSection(True)
        self.setShowGrid(False)
        self.setWordWrap(False)
        self.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setAccessibleName("Dice history")

    def resizeEvent(self, event: QResizeEvent) -> None:
        """Keep the newest roll in sight when the dock is resized while the list shows the bottom."""
        bar = self.verticalScrollBar()
        at_end = bar.value() >= bar.maximum()
        super().resizeEvent(event)
        if at_end:
            self.scrollToBottom()

    def count(self) -> int:
        """How many rolls the list shows (QListWidget's name, which the panel's users know)."""
        return self.history_model.rowCount()

    def item(self, row: int) -> _Row | None:
        """Row ``row`` (its ``text()``), or None outside the list."""
        text = self.history_model.text(row)
        return None if text is None else _Row(text)

    def reload(self) -> None:
        self.history_model.reload()
        self.scrollToBottom()

    def roll_shown(self, index: int) -> None:
        """Show roll ``index`` (new: appended and scrolled to; changed: its row redrawn)."""
        appended = index >= self.history_model.rowCount()
        self.history_model.roll_shown(index)
        if appended:
            self.scrollToBottom()
