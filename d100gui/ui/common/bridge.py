"""The one bridge from the engine to Qt: it runs commands and re-emits events as signals.

Widgets never call each other. They send commands here and listen to the signals.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, Signal

from d100gui.engine.dice.dice import DiceError
from d100gui.engine.dice.history import HistoryEntry
from d100gui.engine.dice.tables import PackInvalid, TableError
from d100gui.engine.game import Command, Game
from d100gui.engine.protocol import CommandRefused, Event
from d100gui.engine.rules.model import Rules


class EngineBridge(QObject):
    """Qt face of the game."""

    roll_made = Signal(int, object)  # dice-history index, HistoryEntry
    decision_requested = Signal(int, object)  # a table roll waiting for the player's row
    row_provided = Signal(int, object)
    log_appended = Signal(str)
    tables_changed = Signal()
    user_row_added = Signal(str)  # a table the player typed a row into: save it to their pack
    error = Signal(str)  # a message for the player: bad input, refused command
    character_changed = Signal()
    map_changed = Signal()
    decision_event = Signal(object)  # an Event that asks the player something (e.g. a door row)
    campaign_changed = Signal()  # replaced, undone or redone: every view re-reads
    command_done = Signal()  # after every successful command, undo or redo (autosave hook)

    def __init__(self, game: Game, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.game = game

    @property
    def rules(self) -> Rules:
        """The rules the game applies: widgets read numbers and rule answers from here."""
        return self.game.rules

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
        self.campaign_changed.emit()
        self.character_changed.emit()
        self.map_changed.emit()

    def send(self, command: Command) -> bool:
        """Run a command; emit its events, or an ``error`` with the reason. True if it ran."""
        dungeons = self.game.campaign.dungeons
        try:
            events = self.game.execute(command)
        except (CommandRefused, DiceError, TableError, PackInvalid, ValueError) as exc:
            self.error.emit(str(exc))
            return False
        self._dispatch(events, map_changed=self.game.campaign.dungeons is not dungeons)
        self.command_done.emit()
        return True

    def undo(self) -> bool:
        """Take back the last command; True if there was one."""
        return self._step(self.game.undo)

    def redo(self) -> bool:
        """Replay the command last undone; True if there was one."""
        return self._step(self.game.redo)

    def _step(self, action: Callable[[], list[Event]]) -> bool:
        try:
            events = action()
        except CommandRefused as exc:
            self.error.emit(str(exc))
            return False
        self._dispatch(events)
        self.campaign_changed.emit()
        self.character_changed.emit()
        self.map_changed.emit()
        self.command_done.emit()
        return True

    def _dispatch(self, events: list[Event], map_changed: bool = False) -> None:
        """Re-emit ``events`` as signals. ``map_changed``: the command replaced the dungeons, so the
        map is redrawn once even when no map event said so (an escape marks the monster's area)."""
        history = self.game.campaign.dice_history
        map_told = False
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
            elif event.topic == "character":
                self.character_changed.emit()
            elif event.topic == "decision":
                self.decision_event.emit(event)
            elif event.topic == "map" and not map_told:
                map_told = True
                self.map_changed.emit()
            if event.message:
                self.log_appended.emit(event.message)
        if map_changed and not map_told:
            self.map_changed.emit()
