"""Read-only play: a bridge that refuses every command, undo and redo of a fallen hero's campaign.

The dead stay as they fell. :class:`GuardedBridge` asks the engine
(:func:`d100gui.engine.hero.fallen.read_only_reason`) before each command, so whatever widget
sends one (the sheet, the map, the combat panel, a menu) is refused the same way, with the reason
on the bridge's ``error`` signal, and nothing changes. A viewer gives a fixed ``reason`` instead
(its campaign is a display copy). :func:`freeze` greys a widget's input controls with the reason
as their tooltip, so an editing action is disabled with its reason shown, not only refused;
:class:`ReadOnlyLock` does the same for the main window's own widgets (the map's "New dungeon",
the dice panel's rolls, the toolbox's tools) and gives each control back as it was once a living
hero's campaign is shown.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from PySide6.QtCore import QChildEvent, QEvent, QObject, Qt, Signal
from PySide6.QtWidgets import QAbstractButton, QAbstractSpinBox, QComboBox, QLineEdit, QWidget
from shiboken6 import isValid

from d100gui.engine.game import Command, Game
from d100gui.engine.hero.fallen import read_only_reason
from d100gui.ui.common.bridge import ChangeSet, EngineBridge

#: the parts of the campaign the read-only reason reads (the hero, the fallen, the campaign's meta)
REASON_PARTS = ("character", "hall_of_fallen", "meta")
#: the input controls :func:`freeze` greys (scroll bars, tabs and labels stay usable)
CONTROLS = (QAbstractButton, QAbstractSpinBox, QComboBox, QLineEdit)


class GuardedBridge(EngineBridge):
    """The engine bridge of the window: commands, undo and redo are refused while the campaign is read-only.

    Creating a character there (the sheet's or the combat panel's "create a character") asks for a
    campaign of the new hero's own first (``new_hero_needed``; the window switches to a new campaign),
    and runs there: the next hero never plays on in the fallen one's campaign.
    """

    new_hero_needed = Signal()
    #: the read-only reason changed ("" once a living hero's campaign is shown). Emitted before any widget
    #: hears of the change (the bridge connects first), so a lock gives controls back before they re-read.
    read_only_changed = Signal(str)

    def __init__(self, game: Game, parent: QObject | None = None, reason: str = "") -> None:
        self.fixed_reason = reason
        self._reason: str | None = None  # the engine's reason, worked out once per change set
        self.reasons_computed = 0  # how many times it was worked out (tests count it)
        super().__init__(game, parent)
        self._last_reason = self.read_only

    def _before_views(self, change: ChangeSet) -> None:
        """Before any view re-reads: the reason worked out again (once) if the hero's parts changed, the lock told."""
        if change.reset or change.touches(*REASON_PARTS):
            self._reason = None
        why = self.read_only
        if why != self._last_reason:
            self._last_reason = why
            self.read_only_changed.emit(why)

    @property
    def read_only(self) -> str:
        """Why nothing may change ("" while the hero lives): a fixed reason, else the engine's."""
        if self.fixed_reason:
            return self.fixed_reason
        if self._reason is None:
            self.reasons_computed += 1
            self._reason = read_only_reason(self.game.campaign)
        return self._reason

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


def freeze(widget: QWidget, reason: str, keep: Iterable[QWidget] = ()) -> int:
    """Grey every input control inside ``widget`` but ``keep`` (they only read), each saying ``reason`` in its
    tooltip; returns how many."""
    count = 0
    kept = set(keep)
    for control in widget.findChildren(QWidget):
        if isinstance(control, CONTROLS) and not _is_scroll_part(control) and control not in kept:
            control.setEnabled(False)
            control.setToolTip(reason)
            count += 1
    return count


class ReadOnlyLock(QObject):
    """Greys the input controls of some widgets with the read-only reason as their tooltip, and keeps them greyed.

    The widgets go on managing their own controls while locked (a table chosen enables "Roll table",
    a shown roll adds its follow-up buttons): the lock watches each control, notes what the widget
    wanted (enabled, its own tooltip) and keeps it greyed with the reason; :meth:`set_reason` with ""
    gives every control back as its widget last wanted it. ``keep`` names the controls that only read
    (a search box, Copy) and stay usable.
    """

    def __init__(self, parent: QObject | None = None, keep: Callable[[QWidget], bool] | None = None) -> None:
        super().__init__(parent)
        self.reason = ""
        self.roots: list[QWidget] = []
        self._keep = keep or (lambda _w: False)
        self._held: dict[QWidget, tuple[bool, str]] = {}  # control -> (enabled as its widget wants it, its own tooltip)
        self._watched: set[QWidget] = set()

    def watch(self, roots: Iterable[QWidget]) -> None:
        """The widgets whose controls the lock greys (their children added later are locked too)."""
        self.roots.extend(roots)
        if self.reason:
            self._lock_all()

    @property
    def locked(self) -> list[QWidget]:
        """The controls greyed now."""
        return list(self._held)

    def set_reason(self, reason: str) -> None:
        """Lock with ``reason``, or unlock with "" (idempotent)."""
        if reason == self.reason:
            return
        self.reason = reason
        if reason:
            self._lock_all()
            return
        held, self._held = self._held, {}
        for control, (enabled, tip) in held.items():
            if isValid(control):  # a control its widget deleted while locked (a roll's follow-ups) is gone
                control.setEnabled(enabled)
                control.setToolTip(tip)
        watched, self._watched = self._watched, set()
        for widget in watched:  # a living hero's campaign: the widgets' events no longer pass through the lock
            if isValid(widget):
                widget.removeEventFilter(self)

    def _lock_all(self) -> None:
        for root in self.roots:
            self._lock_tree(root)

    def _lock_tree(self, root: QWidget) -> None:
        for widget in (root, *root.findChildren(QWidget)):
            if widget not in self._watched:
                widget.installEventFilter(self)
                self._watched.add(widget)
            if isinstance(widget, CONTROLS) and not _is_scroll_part(widget) and not self._keep(widget):
                self._lock(widget)

    def _lock(self, control: QWidget) -> None:
        if control not in self._held:
            self._held[control] = (not control.testAttribute(Qt.WidgetAttribute.WA_ForceDisabled), control.toolTip())
        control.setEnabled(False)
        if control.toolTip() != self.reason:
            control.setToolTip(self.reason)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """While locked: a control its widget enables stays greyed, a tooltip it sets is kept for later, a new child is locked."""
        if not self.reason or not isinstance(watched, QWidget):
            return False
        kind = event.type()
        if kind in (QEvent.Type.ChildAdded, QEvent.Type.ChildPolished) and isinstance(event, QChildEvent):
            child = event.child()
            if isinstance(child, QWidget):
                self._lock_tree(child)
        elif watched in self._held:
            enabled, tip = self._held[watched]
            if kind == QEvent.Type.EnabledChange and watched.isEnabled():
                self._held[watched] = (True, tip)
                watched.setEnabled(False)
            elif kind == QEvent.Type.ToolTipChange and watched.toolTip() != self.reason:
                self._held[watched] = (enabled, watched.toolTip())
                watched.setToolTip(self.reason)
        return False


def _is_scroll_part(control: QWidget) -> bool:
    """The arrows of a scroll area or a tab bar are buttons too: they keep working (reading is allowed)."""
    parent = control.parentWidget()
    return parent is not None and type(parent).__name__ in {"QTabBar", "QScrollBar"}
