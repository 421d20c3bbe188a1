"""The campaign list: every saved campaign with its hero, dungeon, REP, gold, quests done and last play.

A campaign's file is named after its id (a hex string no player reads): the list and File > Open Recent
name a campaign by its hero and its dungeon (:func:`campaign_label`); the file is in the tooltip.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QHeaderView, QLabel, QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget

from d100gui.storage.campaigns import SUFFIX, CampaignSummary, summarize
from d100gui.storage.store import STORE_SUFFIX, list_all_campaigns, summarize_store

COLUMNS = ("Hero", "Dungeon", "REP", "Gold", "Quests done", "Last played")


def campaign_label(summary: CampaignSummary) -> str:
    """A campaign as a player names it: "Aria — The Old Mine"; without a hero or a dungeon yet, when it was
    last played; a file that cannot be read, by its file name and why."""
    if summary.problem:
        return f"{summary.path.name} (unreadable)"
    if summary.dungeon or not summary.hero.startswith("("):
        return summary.title
    when = summary.last_played.replace("T", " ")[:16]
    return f"New campaign, {when}" if when else "New campaign"


def summary_of(path: Path) -> CampaignSummary:
    """The list's line for one campaign file: a store, or a campaign JSON (read-only, never validated whole)."""
    if path.name.endswith(SUFFIX) or not path.name.endswith(STORE_SUFFIX):
        return summarize(path)
    return summarize_store(path)


class CampaignListDialog(QDialog):
    """Every campaign in the folder, stores and older JSON files alike; ``current`` is the one in play
    (its store is locked by the window, so it is read from memory instead)."""

    chosen = Signal(str)

    def __init__(self, directory: Path, parent: QWidget | None = None, current: CampaignSummary | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Campaigns")
        self.resize(760, 360)
        layout = QVBoxLayout(self)
        found = list_all_campaigns(directory)
        if current is not None:
            found = [current] + [s for s in found if s.path.resolve() != current.path.resolve()]
        self.summaries: list[CampaignSummary] = sorted(found, key=lambda s: s.last_played, reverse=True)
        layout.addWidget(QLabel(f"Saved campaigns in {directory}"))
        self.table = QTableWidget(len(self.summaries), len(COLUMNS))
        self.table.setHorizontalHeaderLabels(COLUMNS)
        self.table.setSelectionBehavior(QTableWidget.SelectionBehavior.SelectRows)
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        for row, s in enumerate(self.summaries):
            values = (
                s.hero if not s.problem else f"{s.hero} (unreadable: {s.problem})",
                s.dungeon,
                "" if s.rep is None else str(s.rep),
                "" if s.gold is None else f"{s.gold} gp",
                "" if s.quests_done is None else str(s.quests_done),
                s.last_played.replace("T", " ")[:16],
            )
            for col, value in enumerate(values):
                item = QTableWidgetItem(value)
                item.setData(Qt.ItemDataRole.UserRole, str(s.path))
                item.setToolTip(str(s.path))  # the file: its name is the campaign's id
                self.table.setItem(row, col, item)
        if self.summaries:
            self.table.selectRow(0)
        self.table.doubleClicked.connect(lambda _index: self._open())
        layout.addWidget(self.table)
        if not self.summaries:
            layout.addWidget(QLabel("No saved campaigns yet: play an action and the campaign saves itself."))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Open | QDialogButtonBox.StandardButton.Close)
        buttons.accepted.connect(self._open)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)

    def _open(self) -> None:
        item = self.table.item(self.table.currentRow(), 0)
        if item is None:
            return
        self.chosen.emit(item.data(Qt.ItemDataRole.UserRole))
        self.accept()
