"""One :class:`Statistics` accumulator kept up to date with the campaign, action by action.

The first time (or after an undo, a redo or another campaign), the log entries older than the
ones in memory are read from the store page by page, one page per turn of the event loop, so the
window stays responsive; then the in-memory entries are folded. Afterwards each action folds only
the entries it added (``ChangeSet`` "do" touching the log): never the whole log again.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from PySide6.QtCore import QObject, QTimer, Signal

from d100gui.engine.game import LogEntry
from d100gui.engine.stats import Statistics
from d100gui.ui.common.bridge import ChangeSet, EngineBridge

OlderLog = Callable[[int, int], Sequence[LogEntry]]
#: log entries read from the store per turn of the event loop
PAGE = 1000


class StatsFeed(QObject):
    """Feeds the campaign's log into one :class:`Statistics`; ``updated`` carries the figures."""

    updated = Signal(object)  # the figures (Statistics.figures())
    progress = Signal(int, int)  # older entries read, of how many

    def __init__(self, bridge: EngineBridge, older: OlderLog | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.bridge = bridge
        self.older = older
        self.stats = Statistics()
        self.ready = False
        self._offset = 0
        self._generation = 0
        bridge.changed.connect(self._changed)
        self.restart()

    def restart(self) -> None:
        """Fold again from the first entry: older pages first, one per event-loop turn."""
        self._generation += 1
        self.stats = Statistics()
        self.ready = False
        self._offset = 0
        self._next_page(self._generation)

    def _next_page(self, generation: int) -> None:
        if generation != self._generation:
            return  # restarted meanwhile
        start = self.bridge.game.campaign.log_start
        if self.older is not None and self._offset < start:
            page = list(self.older(self._offset, min(PAGE, start - self._offset)))
            if page:
                self.stats.fold_all(page)
                self._offset += len(page)
                self.progress.emit(self._offset, start)
                QTimer.singleShot(0, lambda: self._next_page(generation))
                return
        self.ready = True
        self._fold_new()

    def _fold_new(self) -> None:
        campaign = self.bridge.game.campaign
        start = campaign.log_start
        for entry in campaign.log[max(0, self.stats.next_index - start) :]:
            self.stats.fold(entry)
        self.updated.emit(self.stats.figures())

    def _changed(self, change: ChangeSet) -> None:
        if change.action in ("do", "redo"):  # entries were added at the end
            if (change.action == "redo" or change.touches("log")) and self.ready:
                self._fold_new()
        else:  # undo, another campaign: entries left
            self.restart()

    def figures(self) -> dict[str, Any]:
        return self.stats.figures()
