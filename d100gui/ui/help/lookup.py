"""Finding the window's widgets by ``objectName``: the tour's targets and the panel F1 was pressed over.

A target may be a widget or a menu of the menu bar (``helpMenu``): a closed menu is not on
screen, so it is shown by its title in the menu bar.
"""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtCore import QPoint, QRect
from PySide6.QtWidgets import QDockWidget, QMainWindow, QMenu, QWidget

from d100gui.storage.resources import HelpTopic


def find_named(window: QWidget, name: str) -> QWidget | None:
    """The window's child called ``name`` (the window itself if it has that name)."""
    if window.objectName() == name:
        return window
    return window.findChild(QWidget, name)


def on_screen(window: QWidget, name: str) -> QWidget | None:
    """The widget that shows ``name`` on screen: the widget itself, or the menu bar for a menu; None if hidden."""
    found = find_named(window, name)
    if isinstance(found, QMenu) and isinstance(window, QMainWindow):
        found = window.menuBar()
    return found if found is not None and shown(found) else None


def shown(widget: QWidget) -> bool:
    """``widget`` is visible and not in a dock whose tab is behind another (a hidden tab's dock has no visible region)."""
    if not widget.isVisible() or widget.width() <= 0 or widget.height() <= 0:
        return False
    up: QWidget | None = widget
    while up is not None:
        if isinstance(up, QDockWidget) and up.visibleRegion().isEmpty():
            return False
        up = up.parentWidget()
    return True


def target_rect(window: QWidget, name: str) -> QRect | None:
    """Where ``name`` is, in the window's coordinates (a menu: its title in the menu bar); None if not shown."""
    widget = on_screen(window, name)
    if widget is None:
        return None
    found = find_named(window, name)
    if isinstance(found, QMenu) and isinstance(window, QMainWindow):
        bar = window.menuBar()
        local = bar.actionGeometry(found.menuAction())
        if local.isValid() and not local.isEmpty():
            return QRect(bar.mapTo(window, local.topLeft()), local.size())
    return QRect(widget.mapTo(window, QPoint(0, 0)), widget.size())


def names_up_from(widget: QWidget | None) -> Iterable[str]:
    """The object names from ``widget`` up through its parents (innermost first)."""
    while widget is not None:
        if widget.objectName():
            yield widget.objectName()
        widget = widget.parentWidget()


def topic_for(widget: QWidget | None, topics: Iterable[HelpTopic]) -> HelpTopic | None:
    """The topic of the innermost panel around ``widget`` that a topic explains (F1's context)."""
    by_panel = {panel: topic for topic in topics for panel in topic.panels}
    for name in names_up_from(widget):
        if name in by_panel:
            return by_panel[name]
    return None
