"""The one bridge from the engine to Qt: it runs commands and re-emits events as signals.

Widgets never call each other. They send commands here and listen to the signals.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal

from d100gui.engine.dice import DiceError
from d100gui.engine.session import DiceSession, RollMade, RowMissing, RowProvided, SessionError
from d100gui.engine.tables import PackInvalid, TableError


class EngineBridge(QObject):
    """Qt face of the engine session."""

    roll_made = Signal(int, object)  # history index, HistoryEntry
    decision_requested = Signal(int, object)  # history index, HistoryEntry waiting for a row
    row_provided = Signal(int, object)
    log_appended = Signal(str)
    tables_changed = Signal()
    error = Signal(str)  # a message for the player: bad input, refused command
    character_changed = Signal(object)
    map_changed = Signal(object)

    def __init__(self, session: DiceSession, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.session = session

    def send(self, command) -> bool:
        """Run a command; emit its events, or an ``error`` with the reason. True if it ran."""
        try:
            events = self.session.execute(command)
        except (DiceError, SessionError, TableError, PackInvalid, ValueError) as exc:
            self.error.emit(str(exc))
            return False
        for event in events:
            if isinstance(event, RollMade):
                self.roll_made.emit(event.index, event.entry)
                self.log_appended.emit(event.entry.describe())
            elif isinstance(event, RowMissing):
                self.roll_made.emit(event.index, event.entry)
                self.log_appended.emit(event.entry.describe())
                self.decision_requested.emit(event.index, event.entry)
            elif isinstance(event, RowProvided):
                self.row_provided.emit(event.index, event.entry)
                self.log_appended.emit(f"Row added to your tables: {event.entry.describe()}")
                self.tables_changed.emit()
        return True
