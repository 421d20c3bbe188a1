"""Read-only play: a bridge that refuses every command, undo and redo of a fallen hero's campaign.

The dead stay as they fell. :class:`GuardedBridge` asks the engine
(:func:`d100gui.engine.town.fallen.read_only_reason`) before each command, so whatever widget
sends one (the sheet, the map, the combat panel, a menu) is refused the same way, with the reason
on the bridge's ``error`` signal, and nothing changes. A viewer gives a fixed ``reason`` instead
(its campaign is a display copy). :func:`freeze` greys a widget's input controls with the reason
as their tooltip, so an editing action is disabled with its reason shown, not only refused.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QAbstractButton, QAbstractSpinBox, QComboBox, QLineEdit, QWidget

from d100gui.engine.game import Command, Game
from d100gui.engine.town.fallen import read_only_reason
from d100gui.ui.common.bridge import EngineBridge

#: the input controls :func:`freeze` greys (scroll bars, tabs and labels stay usable)
CONTROLS = (QAbstractButton, QAbstractSpinBox, QComboBox, QLineEdit)


class GuardedBridge(EngineBridge):
    """The engine bridge of the window: commands, undo and redo are refused while the campaign is read-only.

    Creating a character there (the sheet's or the combat panel's "create a character") asks for a
    campaign of the new hero's own first (``new_hero_needed``; the window switches to a new campaign),
    and runs there: the next hero never plays on in the fallen one's campaign.
    """

    new_hero_needed = Signal()

    def __init__(self, game: Game, parent: QObject | None = None, reason: str = "") -> None:
        super().__init__(game, parent)
        self.fixed_reason = reason

    @property
    def read_only(self) -> str:
        """Why nothing may change ("" while the hero lives): a fixed reason, else the engine's."""
        return self.fixed_reason or read_only_reason(self.game.campaign)

    def _refused(self) -> bool:
        why = self.read_only
        if why:
            self.error.emit(f"{why} Nothing was changed.")
        return bool(why)

    def send(self, command: Command) -> bool:
        if command.kind == "create_character" and not self.fixed_reason and self.read_only:
            self.new_hero_needed.emit()  # the window opens a new campaign (synchronously) for the new hero
        return False if self._refused() else super().send(command)

    def undo(self) -> bool:
        return False if self._refused() else super().undo()

    def redo(self) -> bool:
        return False if self._refused() else super().redo()


def freeze(widget: QWidget, reason: str) -> int:
    """Grey every input control inside ``widget``, each saying ``reason`` in its tooltip; returns how many."""
    count = 0
    for control in widget.findChildren(QWidget):
        if isinstance(control, CONTROLS) and not _is_scroll_part(control):
            control.setEnabled(False)
            control.setToolTip(reason)
            count += 1
    return count


def _is_scroll_part(control: QWidget) -> bool:
    """The arrows of a scroll area or a tab bar are buttons too: they keep working (reading is allowed)."""
    parent = control.parentWidget()
    return parent is not None and type(parent).__name__ in {"QTabBar", "QScrollBar"}
