"""The one bridge from the engine to Qt: it runs commands and tells the views what changed, once.

Widgets never call each other. They send commands here and listen to the signals. Each do, undo
and redo (and each campaign shown) is told ONCE, as a :class:`ChangeSet` on :attr:`EngineBridge.changed`:
the parts of the campaign it touched, as the engine's journal knows them (``engine/journal.py``'s
``Change``, told to ``Game.change_listeners``), like Anki's ``OpChanges``. A widget refreshes only
for the parts it shows; do and undo take the same path. The flow query (what waits, what may be
done now) is computed at most once per change: :meth:`EngineBridge.flow`.

Only :class:`~d100gui.engine.protocol.CommandRefused` is a refusal (the reason goes to ``error``);
anything else a command raises is a bug and goes on to the crash dialog
(:class:`~d100gui.ui.common.crash.CrashGuard`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import QCoreApplication, QEvent, QObject, Signal

from d100gui.engine.campaign import CAMPAIGN_PARTS
from d100gui.engine.dice.history import HistoryEntry
from d100gui.engine.flow import Flow, flow
from d100gui.engine.game import Command, Game
from d100gui.engine.journal import Change, DamagedStep
from d100gui.engine.protocol import CommandRefused, Event
from d100gui.engine.rules.model import Rules

#: every part a change set can name: the campaign's parts (its top-level fields) and its log
ALL_PARTS = frozenset({*CAMPAIGN_PARTS.names, "log"})
#: the parts the map shows
MAP_PARTS = frozenset({"dungeons", "escaped_monsters", "tileset"})
#: how many levels of widgets a view's new size is passed up through at most, before the window paints (a status
#: line's label -> the line -> the centre -> the main window is 4; a dock's panel -> its scroll area -> the dock -> 4)
LAYOUT_LEVELS = 8


def lay_out_now() -> None:
    """Do now the layouts the views' refresh asked for, level by level up to the window, so the window paints
    the action once, laid out.

    A label given a longer text, a button shown or hidden, asks its parent's layout to run again (a posted
    LayoutRequest); that layout, sizing its widget anew, asks the next one up, one level per pass of the event
    loop. Left to the loop, the window painted after the first level, then again after each level that moved
    something (4 paints per search, the map's row moved on the last). Qt itself does this for one widget
    before showing it (``QWidget::show`` sends its posted LayoutRequest at once).
    """
    QCoreApplication.sendPostedEvents(None, QEvent.Type.PolishRequest)  # a widget made now takes its style first
    for _ in range(LAYOUT_LEVELS):  # an empty pass costs a look at the posted events: microseconds
        QCoreApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
    # a page of a stack shown (the combat panel's fight page and idle page) asks its widgets' repaint for later: in
    # this paint, not in one more after it
    QCoreApplication.sendPostedEvents(None, QEvent.Type.UpdateLater)


@dataclass(frozen=True)
class ChangeSet:
    """What one action changed: ``action`` is "do", "undo", "redo" or "reset" (another campaign, or the
    same one reloaded: every part), ``parts`` the campaign's parts it touched ("character",
    "dungeons", "combat", "adventure", "town", "pending", "dice_history", "log", ...), ``events``
    what the action said (empty for undo and redo but their own note)."""

    action: str
    parts: frozenset[str]
    events: tuple[Event, ...] = ()

    def touches(self, *parts: str) -> bool:
        """True if the action changed any of ``parts``."""
        return not self.parts.isdisjoint(parts)

    @property
    def reset(self) -> bool:
        """Another campaign is shown (or the whole one re-read): every view starts again."""
        return self.action == "reset"

    @classmethod
    def everything(cls) -> ChangeSet:
        return cls("reset", ALL_PARTS)


class EngineBridge(QObject):
    """Qt face of the game."""

    #: once per do, undo, redo and campaign shown: the :class:`ChangeSet` (the one signal views refresh on)
    changed = Signal(object)
    roll_made = Signal(int, object)  # dice-history index, HistoryEntry
    decision_requested = Signal(int, object)  # a table roll waiting for the player's row
    row_provided = Signal(int, object)
    log_appended = Signal(str)
    tables_changed = Signal()
    user_row_added = Signal(str)  # a table the player typed a row into: save it to their pack
    error = Signal(str)  # a message for the player: a refused command (CommandRefused only)
    history_damaged = Signal(str)  # an undo or redo step could not be applied whole ("undo"/"redo"): nothing changed
    # Derived from the change set, each at most once per action, for the views not moved to ``changed`` yet:
    character_changed = Signal()  # the change set touched the hero
    map_changed = Signal()  # the change set touched the map
    decision_event = Signal(object)  # an Event that asks the player something (e.g. a door row)
    campaign_changed = Signal()  # undone, redone or another campaign shown
    command_done = Signal()  # after every successful command, undo or redo (autosave hook)

    def __init__(self, game: Game, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._game: Game | None = None
        self._parts: set[str] = set()  # what the journal told of the action running now
        self._flow: Flow | None = None
        self.flow_computed = 0  # how many times the flow was worked out (tests count it)
        self.last_change = ChangeSet.everything()
        self.game = game
        self.tables_changed.connect(self._forget_flow)  # the flow names table rows

    # ------------------------------------------------------------------ the game shown
    @property
    def game(self) -> Game:
        assert self._game is not None
        return self._game

    @game.setter
    def game(self, game: Game) -> None:
        """Show ``game`` (the views hear of it with :meth:`set_game`); the journal's changes come here."""
        if self._game is game:
            return
        if self._game is not None and self._heard in self._game.change_listeners:
            self._game.change_listeners.remove(self._heard)
        self._game = game
        game.change_listeners.append(self._heard)
        self._flow = None

    def _heard(self, change: Change) -> None:
        self._parts.update(change.parts)
        self._parts.update(change.sequences)

    @property
    def rules(self) -> Rules:
        """The rules the game applies: widgets read numbers and rule answers from here."""
        return self.game.rules

    def flow(self) -> Flow:
        """Where the game is, what waits and what may be done now (:func:`d100gui.engine.flow.flow`),
        worked out at most once per change."""
        if self._flow is None:
            self.flow_computed += 1
            game = self.game
            self._flow = flow(game.campaign, game.rules, game.library)
        return self._flow

    def _forget_flow(self) -> None:
        self._flow = None

    @property
    def dice_history_length(self) -> int:
        """How many rolls the campaign's dice history holds (most may still be in the campaign's store)."""
        return len(self.game.campaign.dice_history)

    def dice_history_page(self, offset: int, limit: int) -> list[HistoryEntry]:
        """Rolls ``offset .. offset + limit - 1`` of the dice history (fewer at the end): what a view pages with.

        A campaign opened from its store keeps only its newest rolls in memory; this reads the others
        from the store (one query a page). Iterating ``campaign.dice_history`` instead meets placeholders.
        """
        return self.game.campaign.dice_history_page(offset, limit)

    def set_game(self, game: Game) -> None:
        """Show another campaign's game (opened, new or restored): every view re-reads."""
        self.game = game
        self._tell(ChangeSet.everything())
        lay_out_now()

    def refresh_all(self) -> None:
        """Every view re-reads the campaign (it was changed outside the commands, e.g. by a test or a tool)."""
        self._tell(ChangeSet.everything())
        lay_out_now()

    # ------------------------------------------------------------------ actions
    def send(self, command: Command) -> bool:
        """Run a command; tell its change set, or an ``error`` with the reason. True if it ran.

        Only :class:`CommandRefused` is a refusal: any other exception is a bug and propagates
        (to the crash dialog in the app), the campaign put back by the engine as it was.
        """
        self._parts = set()
        try:
            events = self.game.execute(command)
        except CommandRefused as exc:
            self.error.emit(str(exc))
            return False
        self._finish("do", events)
        return True

    def undo(self) -> bool:
        """Take back the last command; True if there was one."""
        return self._step("undo", self.game.undo)

    def redo(self) -> bool:
        """Replay the command last undone; True if there was one."""
        return self._step("redo", self.game.redo)

    def _step(self, action: str, run: Callable[[], list[Event]]) -> bool:
        self._parts = set()
        try:
            events = run()
        except CommandRefused as exc:
            self.error.emit(str(exc))
            if isinstance(exc, DamagedStep):
                self.history_damaged.emit(exc.stack)
            return False
        self._finish(action, events)
        return True

    def _finish(self, action: str, events: list[Event]) -> None:
        """One action done: its change set told once, then what its events ask of the views, then ``command_done``."""
        parts = frozenset({*self._parts, "log"})
        self._parts = set()
        self._tell(ChangeSet(action, parts, tuple(events)))
        self._dispatch(events)
        self.command_done.emit()  # last: the autosave's own message (a failed save) is the one left showing
        lay_out_now()  # the window laid out whole before it paints the action: one paint, not one per level

    def _tell(self, change: ChangeSet) -> None:
        """Tell ``change`` once (and the older per-part signals, each at most once)."""
        self.last_change = change
        self._flow = None
        self._before_views(change)
        self.changed.emit(change)
        if change.action != "do":
            self.campaign_changed.emit()
        if change.touches("character"):
            self.character_changed.emit()
        if change.touches(*MAP_PARTS):
            self.map_changed.emit()

    def _before_views(self, change: ChangeSet) -> None:
        """Hook for a bridge that must react before any view re-reads (the read-only lock)."""

    def _dispatch(self, events: list[Event]) -> None:
        """What the events ask of the views: rolls to show, rows to ask for, lines for the status bar."""
        history = self.game.campaign.dice_history
        for event in events:
            if event.kind == "row_provided" and event.data.get("table_id"):
                self.user_row_added.emit(str(event.data["table_id"]))
                self.tables_changed.emit()
            if event.topic == "dice" and "index" in event.data:
                index = int(event.data.get("index", -1))
                entry = history[index] if 0 <= index < len(history) else None
                if event.kind == "roll_made":
                    self.roll_made.emit(index, entry)
                elif event.kind == "row_missing":
                    self.roll_made.emit(index, entry)
                    self.decision_requested.emit(index, entry)
                elif event.kind == "row_provided" and entry is not None:
                    self.row_provided.emit(index, entry)
            elif event.topic == "decision":
                self.decision_event.emit(event)
            if event.message:
                self.log_appended.emit(event.message)
