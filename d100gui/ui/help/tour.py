"""The tour of the panels: a dimmed overlay over the window with a hole around one real widget and a callout.

The steps are data (``resources/help/tour.json``); each names its widget by ``objectName``.
A step whose widget sits in a tabbed dock brings that dock to the front first; the docks in
front before the tour are brought back when it ends.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QRect, QRectF, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QKeySequence, QPainter, QPainterPath, QPaintEvent, QPen, QShortcut
from PySide6.QtWidgets import QDockWidget, QFrame, QHBoxLayout, QLabel, QMainWindow, QPushButton, QVBoxLayout, QWidget

from d100gui.storage.resources import TourStep
from d100gui.ui.help.lookup import find_named, shown, target_rect

MARGIN = 6  # the hole is this much larger than its widget
GAP = 12  # between the hole and the callout
CALLOUT_WIDTH = 360


class Callout(QFrame):
    """The step's title, text and counter, with Back, Next and Skip."""

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.setObjectName("tourCallout")
        self.setAccessibleName("Tour of the panels")
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setAutoFillBackground(True)
        self.setStyleSheet(
            "#tourCallout { background: palette(base); border: 2px solid palette(highlight); border-radius: 6px; }"
            "#tourCallout QLabel { background: transparent; }"
        )
        self.setFixedWidth(CALLOUT_WIDTH)
        self.title = QLabel()
        self.title.setObjectName("tourTitle")
        self.title.setWordWrap(True)
        font = self.title.font()
        font.setBold(True)
        font.setPointSizeF(font.pointSizeF() * 1.15)
        self.title.setFont(font)
        self.text = QLabel()
        self.text.setObjectName("tourText")
        self.text.setWordWrap(True)
        self.counter = QLabel()
        self.counter.setObjectName("tourCounter")
        self.skip_button = QPushButton("Skip tour")
        self.skip_button.setToolTip("Close the tour (Esc); Help > Tour of the panels shows it again")
        self.back_button = QPushButton("Back")
        self.back_button.setToolTip("The previous step (Left arrow)")
        self.next_button = QPushButton("Next")
        self.next_button.setToolTip("The next step (Right arrow or Enter)")
        buttons = QHBoxLayout()
        buttons.addWidget(self.counter)
        buttons.addStretch(1)
        for button in (self.skip_button, self.back_button, self.next_button):
            buttons.addWidget(button)
        self.box = layout = QVBoxLayout(self)
        layout.setContentsMargins(14, 12, 14, 12)
        layout.addWidget(self.title)
        layout.addWidget(self.text)
        layout.addSpacing(6)
        layout.addLayout(buttons)

    def show_step(self, step: TourStep, index: int, count: int) -> None:
        self.title.setText(step.title)
        self.text.setText(step.text)
        self.counter.setText(f"{index + 1} of {count}")
        self.back_button.setEnabled(index > 0)
        self.back_button.setToolTip("The previous step (Left arrow)" if index > 0 else "This is the first step")
        last = index == count - 1
        self.next_button.setText("Finish" if last else "Next")
        self.next_button.setToolTip("End the tour" if last else "The next step (Right arrow or Enter)")

    def full_size(self) -> QSize:
        """Tall enough for the whole wrapped text at the callout's fixed width (``sizeHint`` does not wrap)."""
        layout = self.box
        layout.activate()
        height = layout.totalHeightForWidth(CALLOUT_WIDTH) if layout.hasHeightForWidth() else self.sizeHint().height()
        return QSize(CALLOUT_WIDTH, max(height, self.sizeHint().height()))


class TourOverlay(QWidget):
    """Covers the window: dims everything but the step's widget, and holds the callout."""

    def __init__(self, window: QWidget) -> None:
        super().__init__(window)
        self.setObjectName("tourOverlay")
        self.window_ = window
        self.hole: QRect | None = None
        self.callout = Callout(self)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        window.installEventFilter(self)
        # a dock raised while the tour is up (a fight brought the Combat tab forward) would cover the overlay and
        # leave the callout half painted under it: each of the window's own widgets is watched and the overlay
        # raised again above it
        self.watched = [w for w in window.children() if isinstance(w, QWidget) and w is not self]
        for widget in self.watched:
            widget.installEventFilter(self)
        self.setGeometry(window.rect())

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.window_ and event.type() == QEvent.Type.Resize:
            self.setGeometry(self.window_.rect())
            self.place()
        elif event.type() == QEvent.Type.ZOrderChange and watched is not self and self.isVisible():
            QTimer.singleShot(0, self._raise_again)  # after the raise is done (a tabbed dock is still switching)
        return False

    def _raise_again(self) -> None:
        if self.isVisible():
            self.raise_()

    def unwatch(self) -> None:
        self.window_.removeEventFilter(self)
        for widget in self.watched:
            widget.removeEventFilter(self)
        self.watched = []

    def point_at(self, rect: QRect | None) -> None:
        """Cut the hole around ``rect`` (window coordinates; None: no hole) and put the callout beside it."""
        self.hole = rect.adjusted(-MARGIN, -MARGIN, MARGIN, MARGIN).intersected(self.rect()) if rect is not None else None
        self.place()
        self.update()

    def place(self) -> None:
        """The callout below the hole if it fits, else above, beside, or centred; always inside the window."""
        area = self.rect()
        size = self.callout.full_size()
        self.callout.resize(size)
        hole = self.hole
        if hole is None:
            x, y = area.center().x() - size.width() // 2, area.center().y() - size.height() // 2
        elif hole.bottom() + GAP + size.height() <= area.bottom():
            x, y = hole.center().x() - size.width() // 2, hole.bottom() + GAP
        elif hole.top() - GAP - size.height() >= area.top():
            x, y = hole.center().x() - size.width() // 2, hole.top() - GAP - size.height()
        elif hole.right() + GAP + size.width() <= area.right():
            x, y = hole.right() + GAP, hole.center().y() - size.height() // 2
        elif hole.left() - GAP - size.width() >= area.left():
            x, y = hole.left() - GAP - size.width(), hole.center().y() - size.height() // 2
        else:
            x, y = hole.center().x() - size.width() // 2, hole.center().y() - size.height() // 2
        x = max(area.left() + GAP, min(x, area.right() - size.width() - GAP))
        y = max(area.top() + GAP, min(y, area.bottom() - size.height() - GAP))
        self.callout.move(x, y)

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        shade = QPainterPath()
        shade.addRect(QRectF(self.rect()))
        if self.hole is not None:
            cut = QPainterPath()
            cut.addRoundedRect(QRectF(self.hole), 6, 6)
            shade = shade.subtracted(cut)
        painter.fillPath(shade, QColor(0, 0, 0, 130))
        if self.hole is not None:
            painter.setPen(QPen(self.palette().highlight().color(), 3))
            painter.drawRoundedRect(QRectF(self.hole), 6, 6)
        painter.end()


class Tour(QObject):
    """Walks the steps over ``window``: Next, Back, Skip (Esc) and the arrow keys."""

    finished = Signal()

    def __init__(self, window: QMainWindow, steps: tuple[TourStep, ...]) -> None:
        super().__init__(window)
        self.window = window
        self.steps = steps
        self.index = 0
        self._front = [dock for dock in window.findChildren(QDockWidget) if shown(dock)]  # each tab group's front tab
        self._opened: list[QDockWidget] = []
        self.overlay = TourOverlay(window)
        callout = self.overlay.callout
        callout.next_button.clicked.connect(lambda _=False: self.next())
        callout.back_button.clicked.connect(lambda _=False: self.back())
        callout.skip_button.clicked.connect(lambda _=False: self.close())
        keys = [(Qt.Key.Key_Escape, self.close), (Qt.Key.Key_Right, self.next), (Qt.Key.Key_Left, self.back)]
        keys += [(Qt.Key.Key_Return, self.next), (Qt.Key.Key_Enter, self.next)]
        for key, slot in keys:  # live only while the focus is in the tour (it takes the focus)
            QShortcut(QKeySequence(key), self.overlay, slot, Qt.ShortcutContext.WidgetWithChildrenShortcut)

    @property
    def step(self) -> TourStep:
        return self.steps[self.index]

    @property
    def active(self) -> bool:
        return self.overlay.isVisible()

    def start(self) -> None:
        self.overlay.show()
        self.overlay.raise_()
        self.show_step(0)

    def show_step(self, index: int) -> None:
        self.index = max(0, min(index, len(self.steps) - 1))
        step = self.step
        self._bring_forward(step.target)
        self.overlay.raise_()  # a dock brought forward was raised above it
        self.overlay.callout.show_step(step, self.index, len(self.steps))
        self.overlay.point_at(target_rect(self.window, step.target))
        self.overlay.callout.next_button.setFocus()

    def _bring_forward(self, name: str) -> None:
        """A widget in a closed or tabbed-away dock: show the dock and put its tab in front."""
        widget = find_named(self.window, name)
        while widget is not None and not isinstance(widget, QDockWidget):
            widget = widget.parentWidget()
        if isinstance(widget, QDockWidget):
            if not widget.isVisible():  # closed by the player: open for the step, closed again after the tour
                self._opened.append(widget)
            widget.show()
            widget.raise_()

    def next(self) -> None:
        if self.index >= len(self.steps) - 1:
            self.close()
        else:
            self.show_step(self.index + 1)

    def back(self) -> None:
        self.show_step(self.index - 1)

    def close(self) -> None:
        """End the tour (finished, or skipped): the docks are as they were (closed ones closed, the front tabs in front)."""
        if not self.overlay.isVisible():
            return
        self.overlay.hide()
        for dock in self._opened:
            dock.hide()
        for dock in self._front:
            dock.raise_()
        self.overlay.unwatch()
        self.overlay.deleteLater()
        self.finished.emit()
