"""Rows the player's tables lack: the dialog that asks for one, from the event's payload.

A roll can land on a row the excerpt does not print (a dice-panel roll, a door's Table D).
The engine says so with an event (a fight's loot or curse row waits in the fight instead, answered
from the combat panel: ``combat.row_wait``); this opens the "type the row"
dialog without blocking, and the typed row goes back to the engine as a command. Where the
engine has a command for it (:class:`SampleRow`), the dialog also offers to re-roll among
the printed rows this time, or from now on (which changes the player's preference).
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QWidget

from d100gui.engine.dice.history import HistoryEntry
from d100gui.engine.dice.roller import MissingRowPolicy
from d100gui.engine.dice.tables import Row, Table
from d100gui.engine.dungeon.commands import DOOR_TABLE, ResolveDoorRow
from d100gui.engine.dungeon.events import DoorRowMissing
from d100gui.engine.flow import row_for_roll, sample_for_roll
from d100gui.engine.game import Command
from d100gui.engine.protocol import EVENT_KINDS, Event
from d100gui.ui.common.bridge import EngineBridge
from d100gui.ui.common.dialogs import MissingRowDialog

SampleCommand = Callable[[], Command]


class RowRequests(QObject):
    """Opens the missing-row dialog for a history roll or a decision event; OK sends the row."""

    policy_chosen = Signal(object)  # MissingRowPolicy: "from now on" was picked; the window saves it

    def __init__(self, bridge: EngineBridge, window: QWidget) -> None:
        super().__init__(window)
        self.bridge = bridge
        self.window = window
        self.dialog: MissingRowDialog | None = None  # the last one opened (tests and the window reach it)

    def ask_history_row(self, index: int, entry: HistoryEntry) -> MissingRowDialog | None:
        """A dice-history roll found no row: ask for it, and store it with ``ProvideRow`` (a toolbox tool's run
        waiting on the roll goes on in the same command: ``flow.row_for_roll``)."""
        if entry.table is None or entry.table.missing is None:
            return None
        table = self.bridge.game.library.get(entry.table.table_id)
        return self._open(
            table,
            entry.roll.final,
            entry.table.missing,
            lambda row: row_for_roll(self.bridge.game.campaign, index, row),  # a tool's run waiting on it goes on
            lambda: sample_for_roll(self.bridge.game.campaign, index),  # settles what waited on the roll (a search, a tool)
        )

    def answer(self, event: Event) -> MissingRowDialog | None:
        """A decision event that needs a row (a door roll); others are ignored."""
        if event.kind not in EVENT_KINDS:
            return None
        payload = event.payload()
        library = self.bridge.game.library
        if isinstance(payload, DoorRowMissing):
            pos, side = payload.pos, payload.side
            return self._open(
                library.get(DOOR_TABLE),
                payload.roll,
                None,
                lambda row: ResolveDoorRow(pos=pos, side=side, row=row),
                lambda: ResolveDoorRow(pos=pos, side=side, sample=True),  # settles the door with a printed row
            )
        return None

    def _open(
        self,
        table: Table,
        roll: int,
        gap: tuple[int, int] | None,
        command: Callable[[Row], Command],
        sample: SampleCommand | None = None,
    ) -> MissingRowDialog:
        gap = gap or table.gap_containing(roll) or (roll, roll)
        dialog = MissingRowDialog(table, roll, gap, self.window, rules=self.bridge.rules, can_sample=sample is not None)
        dialog.accepted.connect(lambda: self.bridge.send(command(dialog.row())))
        if sample is not None:
            dialog.sample_requested.connect(lambda from_now_on: self._sample(sample, from_now_on))
        dialog.open()
        self.dialog = dialog
        return dialog

    def _sample(self, sample: SampleCommand, from_now_on: bool) -> None:
        """Re-roll among the printed rows now; "from now on" also makes it the player's preference."""
        if from_now_on:
            self.bridge.game.policy = MissingRowPolicy.REROLL
            self.policy_chosen.emit(MissingRowPolicy.REROLL)
        self.bridge.send(sample())
