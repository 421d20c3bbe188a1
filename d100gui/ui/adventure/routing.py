"""Clicks on the map during a quest: the engine decides which command each sends.

The map view asks with its signals (``move_requested(side)``, ``enter_requested()``,
``door_open_requested(pos, side)``); :func:`wire_map` lets this module answer them:

* an exit: :func:`~d100gui.engine.adventure.turn.command_for_move` (the whole turn while a quest is on), or at a
  dead end the secret passage the flow offers through that wall (so Alt+arrow reaches it);
* the entrance: :func:`~d100gui.engine.dungeon_entry.command_for_enter` (the entrance area resolved by colour);
* a closed door: a menu of its Table D methods, the same actions as the turn strip's
  (:func:`~d100gui.engine.adventure.turn_view.door_actions`), each greyed with its reason;
  outside a quest the map area's own door box answers;
* a typed row an effect's roll waited for: applied as soon as the dice panel stores it.

The view's secret-passage offer reads the hero's means from the campaign
(:meth:`~d100gui.ui.map.view.MapView.set_passage_means`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, cast

from PySide6.QtCore import QObject, QTimer, SignalInstance
from PySide6.QtGui import QAction, QCursor
from PySide6.QtWidgets import QMenu, QWidget

from d100gui.engine.adventure.row_commands import ApplyTypedRow
from d100gui.engine.adventure.turn import Side, command_for_move, turn_of
from d100gui.engine.adventure.turn_view import door_actions
from d100gui.engine.campaign import Campaign
from d100gui.engine.dice.tables import TableLibrary
from d100gui.engine.dungeon.commands import OpenDoor
from d100gui.engine.dungeon.map import DIRECTION_NAMES, DoorAt, door_at
from d100gui.engine.dungeon_entry import command_for_enter
from d100gui.engine.rules.model import Rules
from d100gui.ui.common.bridge import EngineBridge


class MoveRouter(QObject):
    """Sends the command the engine picks for a move, an entry or a door click."""

    def __init__(self, bridge: EngineBridge, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.bridge = bridge
        self.door_menu: QMenu | None = None  # the last door menu shown (tests reach it)

    def move(self, side: str) -> bool:
        """The player clicked the exit on ``side`` of the hero's area (or pressed Alt+arrow); True if the command ran.

        At a dead end, where the flow offers a secret passage through that wall, it is made (the next move walks it);
        north from outside the dungeon during a quest steps in at the entrance."""
        made = self.bridge.flow()
        step_in = made.action("enter_dungeon") if side == "N" else None  # Alt+Up outside: in at the entrance
        passage = step_in or made.action(f"secret_{side}")
        if passage is not None and passage.enabled:
            return self.bridge.send(passage.command)
        return self.bridge.send(command_for_move(self.bridge.game.campaign, cast(Side, side)))

    def enter(self) -> bool:
        """The player clicked the entrance: during a quest the entrance area is resolved by its colour."""
        return self.bridge.send(command_for_enter(self.bridge.game.campaign))

    def means(self) -> tuple[Campaign, Rules, TableLibrary]:
        """What the secret-passage rule reads: the campaign, the rules and the tables."""
        return self.bridge.game.campaign, self.bridge.rules, self.bridge.game.library

    def door_menu_for(self, pos: str, side: str, parent: QWidget | None = None) -> QMenu | None:
        """The menu of a closed door's Table D methods (None outside a quest: the map's own box answers)."""
        campaign = self.bridge.game.campaign
        dungeon = campaign.dungeons.current_dungeon
        if turn_of(campaign) is None or dungeon is None:
            return None
        where = DoorAt(pos=pos, side=cast(Side, side))
        door = door_at(dungeon, where)
        actions = door_actions(campaign, self.bridge.rules, self.bridge.game.library, only=where)
        menu = QMenu(parent)
        menu.setObjectName("doorMenu")
        menu.setToolTipsVisible(True)
        title = menu.addAction(f"{door.label if door else 'The'} door, {DIRECTION_NAMES[where.side]} side (Table D)")
        title.setEnabled(False)
        for action in actions:
            item = QAction(action.label.split(" (")[0], menu)
            item.setObjectName(f"door_{action.key}")
            item.setEnabled(action.enabled)
            item.setToolTip(action.why)
            item.triggered.connect(lambda _checked=False, command=action.command: self.bridge.send(command))
            menu.addAction(item)
        if not actions:
            none = menu.addAction("No Table D procedure here: open it by hand once done at the table")
            none.setEnabled(False)
        menu.addSeparator()
        by_hand = menu.addAction("Mark it open (by hand)")
        by_hand.setToolTip("A hand correction: the door was opened at the table.")
        by_hand.triggered.connect(lambda _checked=False: self.bridge.send(OpenDoor(pos=pos, side=cast(Side, side))))
        self.door_menu = menu
        return menu

    def follow_typed_row(self, index: int, _entry: object) -> bool:
        """A row was typed in the dice panel: if an effect's roll waited for it, apply it (True if so), once the
        command that stored the row has told every view (the application is a command of its own)."""
        state = self.bridge.game.campaign.adventure
        if not any(w.entry == index for w in state.rows_waiting):
            return False
        QTimer.singleShot(0, lambda: self._apply_typed(index))
        return True

    def _apply_typed(self, index: int) -> None:
        if any(w.entry == index for w in self.bridge.game.campaign.adventure.rows_waiting):
            self.bridge.send(ApplyTypedRow(entry=index))


def route_moves(move_requested: SignalInstance, router: MoveRouter) -> None:
    """Let ``router`` answer every move request of a map view (in place of the bare map move)."""
    move_requested.disconnect()
    move_requested.connect(router.move)


class MapSignals(Protocol):
    """What :func:`wire_map` needs of the map view (the ui feature folders do not import each other)."""

    move_requested: SignalInstance
    enter_requested: SignalInstance
    door_open_requested: SignalInstance

    def set_passage_means(self, means: Callable[[], tuple[Campaign, Rules, TableLibrary]] | None) -> None: ...


def wire_map(
    view: MapSignals, bridge: EngineBridge, router: MoveRouter, door_fallback: Callable[[str, str], object] | None = None
) -> None:
    """Take over the map view's move, entry and door requests for the turn (see the module); ``door_fallback``
    answers a door click outside a quest (the map area's own door box)."""
    route_moves(view.move_requested, router)
    view.enter_requested.disconnect()
    view.enter_requested.connect(router.enter)
    view.door_open_requested.disconnect()

    def door(pos: str, side: str) -> None:
        menu = router.door_menu_for(pos, side, view if isinstance(view, QWidget) else None)
        if menu is None:
            if door_fallback is not None:
                door_fallback(pos, side)
            return
        menu.popup(QCursor.pos())

    view.door_open_requested.connect(door)
    view.set_passage_means(router.means)
    bridge.row_provided.connect(router.follow_typed_row)
