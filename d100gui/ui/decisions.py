"""Rows the player's tables lack: the dialog that asks for one, from the event's payload.

A roll can land on a row the excerpt does not print (a dice-panel roll, a door's Table D,
a fight's loot or curse). The engine says so with an event; this opens the "type the row"
dialog without blocking, and the typed row goes back to the engine as a command.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QWidget

from d100gui.engine.combat.events import CombatCurseMissing, CombatLootMissing
from d100gui.engine.dice.commands import AddTableRow, ProvideRow
from d100gui.engine.dice.history import HistoryEntry
from d100gui.engine.dice.tables import Row, Table
from d100gui.engine.dungeon.commands import DOOR_TABLE, ResolveDoorRow
from d100gui.engine.dungeon.events import DoorRowMissing
from d100gui.engine.game import Command
from d100gui.engine.protocol import EVENT_KINDS, Event
from d100gui.ui.common.bridge import EngineBridge
from d100gui.ui.common.dialogs import MissingRowDialog


class RowRequests(QObject):
    """Opens the missing-row dialog for a history roll or a decision event; OK sends the row."""

    def __init__(self, bridge: EngineBridge, window: QWidget) -> None:
        super().__init__(window)
        self.bridge = bridge
        self.window = window
        self.dialog: MissingRowDialog | None = None  # the last one opened (tests and the window reach it)

    def ask_history_row(self, index: int, entry: HistoryEntry) -> MissingRowDialog | None:
        """A dice-history roll found no row: ask for it, and store it with ``ProvideRow``."""
        if entry.table is None or entry.table.missing is None:
            return None
        table = self.bridge.game.library.get(entry.table.table_id)
        return self._open(table, entry.roll.final, entry.table.missing, lambda row: ProvideRow(entry=index, row=row))

    def answer(self, event: Event) -> MissingRowDialog | None:
        """A decision event that needs a row (a door roll, or loot or a curse in a fight); others are ignored."""
        if event.kind not in EVENT_KINDS:
            return None
        payload = event.payload()
        library = self.bridge.game.library
        if isinstance(payload, DoorRowMissing):
            pos, side = payload.pos, payload.side
            return self._open(
                library.get(DOOR_TABLE), payload.roll, None, lambda row: ResolveDoorRow(pos=pos, side=side, row=row)
            )
        if isinstance(payload, CombatLootMissing | CombatCurseMissing):
            table_id = payload.table_roll.table_id
            if table_id not in library:
                return None
            roll = payload.table_roll.roll.final
            return self._open(library.get(table_id), roll, None, lambda row: AddTableRow(table_id=table_id, row=row))
        return None

    def _open(self, table: Table, roll: int, gap: tuple[int, int] | None, command: Callable[[Row], Command]) -> MissingRowDialog:
        dialog = MissingRowDialog(table, roll, gap or table.gap_containing(roll) or (roll, roll), self.window)
        dialog.accepted.connect(lambda: self.bridge.send(command(dialog.row())))
        dialog.open()
        self.dialog = dialog
        return dialog
