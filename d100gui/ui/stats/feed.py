"""One :class:`Statistics` accumulator kept up to date with the campaign, action by action.

The first time (or after an undo, a redo or another campaign), the feed starts from the state the
store keeps beside the log (``CampaignStore.kept_statistics``: the figures of its first entries) if
it has one that fits, else from nothing; the log entries older than the ones in memory and not
counted yet are counted from the store page by page, one page per turn of the event loop, so the
window stays responsive (in SQL, only their dice and the events the statistics read:
``CampaignStore.fold_statistics``; as entries, ``older``, if a row cannot be read so); then the
in-memory entries are folded. Every :data:`KEEP_EVERY` entries (and after the first read) the feed hands its state back to the store to keep. Afterwards each action folds only
the entries it added (``ChangeSet`` "do" touching the log): never the whole log again.

An undo takes entries back, which a :class:`Statistics` cannot unfold: the feed starts again from the
newest of the states it marked in memory (the older entries counted, and the last few it kept) that counts no
entry the undo took back, and folds on from there; the store's kept state goes with the undo once it
counts an entry taken back, so without the marks an undo or two after a keep would count the whole log
again. Another campaign (a "reset") forgets the marks.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from PySide6.QtCore import QObject, QTimer, Signal

from d100gui.engine.game import LogEntry
from d100gui.engine.stats import Statistics
from d100gui.ui.common.bridge import ChangeSet, EngineBridge

OlderLog = Callable[[int, int], Sequence[LogEntry]]
#: log entries read from the store per turn of the event loop
PAGE = 1000
#: the feed hands its state to the store to keep once it counts this many entries more than the kept one
KEEP_EVERY = 100
#: log entries counted in SQL per turn of the event loop (``CampaignStore.fold_statistics``: dice and events only)
ROWS_PAGE = 2000
#: the states the feed keeps in memory to start again from after an undo: the oldest (the older entries
#: counted) and the newest (one every KEEP_EVERY entries)
MARKS = 4


class Keeper(Protocol):
    """What keeps the statistics' state beside the log (the campaign's store)."""

    def kept_statistics(self) -> tuple[int, dict[str, Any]] | None: ...

    def keep_statistics(self, log_length: int, state: dict[str, Any]) -> None: ...


class StatsFeed(QObject):
    """Feeds the campaign's log into one :class:`Statistics`; ``updated`` carries the figures."""

    updated = Signal(object)  # the figures (Statistics.figures())
    progress = Signal(int, int)  # older entries read, of how many

    def __init__(
        self,
        bridge: EngineBridge,
        older: OlderLog | None = None,
        parent: QObject | None = None,
        keeper: Callable[[], Keeper | None] | None = None,
    ) -> None:
        super().__init__(parent)
        self.bridge = bridge
        self.older = older
        self.keeper = keeper  # the current campaign's store, if it has one
        self.stats = Statistics()
        self.ready = False
        self._offset = 0
        self._kept = -1  # entries the store's kept state counts (-1: none kept)
        self._generation = 0
        self._rows = True  # count older entries in SQL while the store can (a damaged row: read the entries)
        self._marks: list[tuple[int, str]] = []  # (entries counted, Statistics.state() as JSON), oldest first
        bridge.changed.connect(self._changed)
        self.restart()

    def restart(self, undo: bool = False) -> None:
        """Fold again: from the newest mark an ``undo`` left whole, else from the store's kept state or the
        first entry; older pages first, one per event-loop turn."""
        self._generation += 1
        self.stats = Statistics()
        self.ready = False
        self._kept = -1
        length = self.bridge.game.campaign.log_length
        self._marks = [m for m in self._marks if m[0] <= length] if undo else []
        self._from_kept()
        if self._marks and self._marks[-1][0] > self.stats.next_index:
            self.stats = Statistics.from_state(json.loads(self._marks[-1][1]))
        self._offset = self.stats.next_index
        self._next_page(self._generation)

    def _from_kept(self) -> None:
        """Start from the store's kept state if it counts entries the log still holds (else from nothing)."""
        keeper = self.keeper() if self.keeper is not None else None
        if keeper is None:
            return
        try:
            kept = keeper.kept_statistics()
            if kept is None or not 0 < kept[0] <= self.bridge.game.campaign.log_length:
                return
            stats = Statistics.from_state(kept[1])
            stats.figures()  # a state of the wrong shape fails here, not in the window
        except (ValueError, KeyError, TypeError, AttributeError, IndexError, RecursionError, ZeroDivisionError):
            return  # damaged or of another version: fold the log
        if stats.next_index == kept[0]:
            self.stats, self._kept = stats, kept[0]

    def _keep(self) -> None:
        counted = self.stats.next_index
        if counted <= 0 or (self._kept >= 0 and counted - self._kept < KEEP_EVERY):
            return
        state = self._mark()
        keeper = self.keeper() if self.keeper is not None else None
        if keeper is not None:
            keeper.keep_statistics(counted, state)
        self._kept = counted

    def _mark(self) -> dict[str, Any]:
        """Mark the state counted so far in memory (an undo starts again from it); the state."""
        state = self.stats.state()
        counted = self.stats.next_index
        if not self._marks or self._marks[-1][0] < counted:
            self._marks.append((counted, json.dumps(state)))
            if len(self._marks) > MARKS:  # the oldest stays (the older entries counted), and the newest
                del self._marks[1]
        return state

    def _next_page(self, generation: int) -> None:
        if generation != self._generation:
            return  # restarted meanwhile
        start = self.bridge.game.campaign.log_start
        keeper = self.keeper() if self.keeper is not None else None
        fold_rows = getattr(keeper, "fold_statistics", None) if self._rows else None
        if fold_rows is not None and self._offset < start and self._offset == self.stats.next_index:
            end = min(start, self._offset + ROWS_PAGE)
            folded = fold_rows(self.stats, end)
            if folded is not None and folded.next_index == end:
                self.stats, self._offset = folded, end
                self.progress.emit(self._offset, start)
                QTimer.singleShot(0, lambda: self._next_page(generation))
                return
            self._rows = False  # read the entries themselves from here (log_page names a damaged one)
        if self.older is not None and self._offset < start:
            page = list(self.older(self._offset, min(PAGE, start - self._offset)))
            if page:
                self.stats.fold_all(page)
                self._offset += len(page)
                self.progress.emit(self._offset, start)
                QTimer.singleShot(0, lambda: self._next_page(generation))
                return
        if 0 < self._offset == self.stats.next_index and (not self._marks or self._marks[-1][0] < self._offset):
            self._mark()  # the older entries, counted: an undo within the entries in memory starts from here
        self.ready = True
        self._fold_new()

    def _fold_new(self) -> None:
        campaign = self.bridge.game.campaign
        start = campaign.log_start
        for entry in campaign.log[max(0, self.stats.next_index - start) :]:
            self.stats.fold(entry)
        self._keep()
        self.updated.emit(self.stats.figures())

    def _changed(self, change: ChangeSet) -> None:
        if change.action in ("do", "redo"):  # entries were added at the end
            if (change.action == "redo" or change.touches("log")) and self.ready:
                self._fold_new()
        else:  # undo (entries left), or another campaign
            self.restart(undo=change.action == "undo")

    def figures(self) -> dict[str, Any]:
        return self.stats.figures()

    def counted(self) -> tuple[int, int]:
        """The older entries counted so far, of how many (what ``progress`` last said, or would)."""
        return self._offset, self.bridge.game.campaign.log_start
