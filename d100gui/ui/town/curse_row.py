"""A curse outside a fight that fell on a row the player's tables lack: the "type the row" dialog for it.

The engine says so with a ``magic_curse_row_missing`` decision event
(:class:`~d100gui.engine.magic.events.CurseRowMissing`); the typed row goes back as
``provide_curse_row`` and the curse applies in full; closed unanswered, the dialog comes back with
Hero > Type the curse's row (:func:`ask_waiting_curse`). A curse cannot be skipped: the dialog offers
to re-roll among the printed rows this time instead (sample play), never to go without it.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import QWidget

from d100gui.engine.dice.roller import MissingRowPolicy, TableRoll
from d100gui.engine.dice.waiting import curse_waiting as waiting_curse
from d100gui.engine.magic.commands import ProvideCurseRow
from d100gui.engine.magic.events import CurseRowMissing
from d100gui.engine.protocol import EVENT_KINDS, Event
from d100gui.engine.quest.model import AdventureState
from d100gui.ui.common.bridge import EngineBridge
from d100gui.ui.common.dialogs import MissingRowDialog


def ask_curse_row(
    bridge: EngineBridge, event: Event, parent: QWidget, from_now_on: Callable[[MissingRowPolicy], object] | None = None
) -> MissingRowDialog | None:
    """Open the dialog for a curse waiting for its row (None for any other event).

    ``from_now_on(policy)`` saves re-rolling among the printed rows as the player's preference (the
    window's way), when they choose so in the dialog; the game follows it at once."""
    if event.kind not in EVENT_KINDS or event.kind != CurseRowMissing.event_kind:
        return None
    payload = event.payload()
    if not isinstance(payload, CurseRowMissing):
        return None
    return _open(bridge, payload.table_roll, parent, from_now_on)


def ask_waiting_curse(
    bridge: EngineBridge, parent: QWidget, from_now_on: Callable[[MissingRowPolicy], object] | None = None
) -> MissingRowDialog | None:
    """Hero > Type the curse's row: the dialog again for the curse still waiting (closed, or the campaign reopened)."""
    rolled = _waiting(bridge)
    if rolled is None:
        bridge.error.emit("No curse is waiting for its row.")
        return None
    return _open(bridge, rolled, parent, from_now_on)


def curse_waiting(bridge: EngineBridge) -> bool:
    """Whether a curse waits for its row (the window greys Hero > Type the curse's row otherwise)."""
    return _waiting(bridge) is not None


def _waiting(bridge: EngineBridge) -> TableRoll | None:
    """The Table C roll a curse waits on (in the campaign's rolls waiting for a row), or None."""
    state = getattr(bridge.game.campaign, "adventure", None)
    return waiting_curse(state.rows_waiting) if isinstance(state, AdventureState) else None


def _open(
    bridge: EngineBridge, rolled: TableRoll, parent: QWidget, from_now_on: Callable[[MissingRowPolicy], object] | None
) -> MissingRowDialog | None:
    if rolled.table_id not in bridge.game.library:
        return None
    table = bridge.game.library.get(rolled.table_id)
    final = rolled.roll.final
    gap = rolled.missing or table.gap_containing(final) or (final, final)
    dialog = MissingRowDialog(table, final, gap, parent, rules=bridge.rules, can_sample=True)
    dialog.accepted.connect(lambda: bridge.send(ProvideCurseRow(row=dialog.row())))

    def sample(always: bool) -> None:
        if always:
            bridge.game.policy = MissingRowPolicy.REROLL
            if from_now_on is not None:
                from_now_on(MissingRowPolicy.REROLL)
        bridge.send(ProvideCurseRow(sample=True))

    dialog.sample_requested.connect(sample)
    dialog.open()
    return dialog
