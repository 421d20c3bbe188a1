"""The Help menu's jobs: the tour (once on the first start, then from the menu), the help panel and F1, the shortcut sheet."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QCursor, QKeyEvent
from PySide6.QtWidgets import QApplication, QDialog, QMainWindow, QWidget

from d100gui.storage.resources import help_topics, help_tour
from d100gui.ui.common.settings import Preferences

if TYPE_CHECKING:  # the tour, the panel and the sheet are imported when first opened, not at start-up
    from d100gui.ui.help.panel import HelpWindow
    from d100gui.ui.help.shortcuts import ShortcutSheet
    from d100gui.ui.help.tour import Tour


class HelpActions(QObject):
    """Help > Tour, Help > Help (F1) and Help > Keyboard shortcuts, over ``window``."""

    def __init__(self, window: QMainWindow, prefs: Preferences) -> None:
        super().__init__(window)
        self.window = window
        self.prefs = prefs
        self.tour: Tour | None = None
        self.help_window: HelpWindow | None = None
        self.shortcut_sheet: ShortcutSheet | None = None
        self._modal_windows: set[QWidget] = set()
        app = QApplication.instance()
        if isinstance(app, QApplication):
            app.focusChanged.connect(self._watch_modal)

    def _watch_modal(self, _old: QWidget | None, new: QWidget | None) -> None:
        """A modal dialog (the creation wizard) blocks the window's F1 action: its unused F1 comes here instead."""
        top = new.window() if new is not None else None
        if top is not None and top.isModal() and top not in self._modal_windows:
            self._modal_windows.add(top)
            top.installEventFilter(self)
            top.destroyed.connect(lambda _obj=None, t=top: self._modal_windows.discard(t))

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.KeyPress and isinstance(event, QKeyEvent) and event.key() == Qt.Key.Key_F1:
            self.context_help()
            return True
        return False

    # ------------------------------------------------------------------ the tour
    def open_tour(self) -> Tour:
        """Help > Tour of the panels (any time); the tour under way, if one is, starts again."""
        if self.tour is not None and self.tour.active:
            self.tour.close()
        from d100gui.ui.help.tour import Tour

        self.tour = Tour(self.window, help_tour())
        self.tour.start()
        self.prefs.tour_shown = True
        self.prefs.sync()
        return self.tour

    def first_run(self, waiting: QDialog | None = None) -> None:
        """Once, on the first start: the tour, after ``waiting`` (a first-run question still open) is answered."""
        if self.prefs.tour_shown:
            return
        if waiting is not None and waiting.isVisible():
            waiting.finished.connect(lambda _result: self.first_run())
            return
        self.open_tour()

    # ------------------------------------------------------------------ the help panel
    def open_help(self, topic_id: str = "") -> HelpWindow:
        """Help > Help: the panel, on ``topic_id`` when given."""
        if self.help_window is None:
            from d100gui.ui.help.panel import HelpWindow

            self.help_window = HelpWindow(help_topics(), self.window)
        if topic_id:
            self.help_window.show_topic(topic_id)
        self.help_window.show()
        self.help_window.activateWindow()  # in front again if it was behind the window
        return self.help_window

    def context_help(self) -> HelpWindow:
        """F1: the topic of the panel with the keyboard focus (else the one under the mouse), else the panel as it was."""
        from d100gui.ui.help.lookup import topic_for

        app = QApplication.instance()
        focus = app.focusWidget() if isinstance(app, QApplication) else None
        topics = help_topics()
        topic = topic_for(focus, topics)
        if topic is None and isinstance(app, QApplication):
            topic = topic_for(app.widgetAt(QCursor.pos()), topics)
        return self.open_help(topic.id if topic is not None else "")

    # ------------------------------------------------------------------ the shortcut sheet
    def open_shortcuts(self) -> ShortcutSheet:
        """Help > Keyboard shortcuts: made afresh from the window's actions each time."""
        if self.shortcut_sheet is not None:
            self.shortcut_sheet.close()
            self.shortcut_sheet.deleteLater()
        from d100gui.ui.help.shortcuts import ShortcutSheet

        self.shortcut_sheet = ShortcutSheet(self.window)
        self.shortcut_sheet.show()
        return self.shortcut_sheet
