"""A click on an exit of the hero's area: the engine decides which command it sends (the turn's, or the bare move).

The map view asks for a move with its ``move_requested(side)`` signal; :class:`MoveRouter`
sends :func:`~d100gui.engine.adventure.turn.command_for_move` for it, so while a quest is
under way the click plays the whole turn (time +1, the move, the area).
"""

from __future__ import annotations

from typing import cast

from PySide6.QtCore import QObject, SignalInstance

from d100gui.engine.adventure.turn import Side, command_for_move
from d100gui.ui.common.bridge import EngineBridge


class MoveRouter(QObject):
    """Sends the command the engine picks for a move request."""

    def __init__(self, bridge: EngineBridge, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.bridge = bridge

    def move(self, side: str) -> bool:
        """The player clicked the exit on ``side`` of the hero's area; True if the command ran."""
        return self.bridge.send(command_for_move(self.bridge.game.campaign, cast(Side, side)))


def route_moves(move_requested: SignalInstance, router: MoveRouter) -> None:
    """Let ``router`` answer every move request of a map view (in place of the bare map move).

    The map area connects its view's ``move_requested`` to a plain ``move_hero``; this takes
    the signal over. (Once ``MapArea`` re-emits the request instead, connect that to
    ``router.move`` and drop this.)
    """
    move_requested.disconnect()
    move_requested.connect(router.move)
