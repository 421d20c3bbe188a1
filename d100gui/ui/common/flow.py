"""A layout that wraps its widgets onto the next line when the row is full (Qt has none built in).

Used where a row of labels or buttons must never be cut short in a narrow window (1280x720 with
both docks open): the row grows a line taller instead of clipping text or widening the window.
"""

from __future__ import annotations

from PySide6.QtCore import QPoint, QRect, QSize, Qt
from PySide6.QtWidgets import QLayout, QLayoutItem, QVBoxLayout, QWidget


class FlowLayout(QLayout):
    """Items left to right, wrapping to a new line; height follows the width it is given."""

    def __init__(self, parent: QWidget | None = None, spacing: int = 6, steady: SteadyHeight | None = None) -> None:
        super().__init__(parent)
        self.steady = steady  # its height kept steady while the content needs less (see SteadyHeight)
        self._items: list[QLayoutItem] = []
        self._gap = spacing
        self._heights: dict[int, int] = {}  # heightForWidth by width, until the layout is invalidated
        self.setContentsMargins(0, 0, 0, 0)

    # -- QLayout's item protocol
    def addItem(self, item: QLayoutItem) -> None:
        self._items.append(item)
        self._heights.clear()

    def count(self) -> int:
        return len(self._items)

    def itemAt(self, index: int) -> QLayoutItem | None:
        return self._items[index] if 0 <= index < len(self._items) else None

    def takeAt(self, index: int) -> QLayoutItem | None:
        self._heights.clear()
        return self._items.pop(index) if 0 <= index < len(self._items) else None

    def invalidate(self) -> None:
        """An item was added, taken, shown, hidden or changed its size hint: the heights are worked out again."""
        self._heights.clear()
        super().invalidate()

    # -- sizes
    def expandingDirections(self) -> Qt.Orientation:
        return Qt.Orientation(0)

    def hasHeightForWidth(self) -> bool:
        return True

    def heightForWidth(self, width: int) -> int:
        # Qt asks this many times per layout pass (each parent asks again): measure once per width, as
        # Qt's own box layouts do, until an item changes (invalidate)
        height = self._heights.get(width)
        if height is None:
            height = self._heights[width] = self._arrange(QRect(0, 0, width, 0), move=False)
        return height if self.steady is None else self.steady.height(width, height)

    def sizeHint(self) -> QSize:
        return self.minimumSize()

    def minimumSize(self) -> QSize:
        size = QSize()
        for item in self._items:
            size = size.expandedTo(item.minimumSize())
        margins = self.contentsMargins()
        return size + QSize(margins.left() + margins.right(), margins.top() + margins.bottom())

    def setGeometry(self, rect: QRect) -> None:
        super().setGeometry(rect)
        self._arrange(rect, move=True)

    def _arrange(self, rect: QRect, move: bool) -> int:
        """Place the visible items in lines within ``rect``; the height used."""
        margins = self.contentsMargins()
        area = rect.adjusted(margins.left(), margins.top(), -margins.right(), -margins.bottom())
        x, y, line = area.x(), area.y(), 0
        for item in self._items:
            widget = item.widget()
            if widget is not None and widget.isHidden():
                continue
            hint = item.sizeHint()
            if x + hint.width() > area.right() + 1 and line > 0:
                x, y, line = area.x(), y + line + self._gap, 0
            if move:
                item.setGeometry(QRect(QPoint(x, y), hint))
            x += hint.width() + self._gap
            line = max(line, hint.height())
        return y + line - rect.y() + margins.bottom()


#: a steady height's patience that lasts the quest: the room is given back when the quest begins or ends (the key
#: changes) or when it is more than ``most`` too much, never for having gone unused a while (given back after 10
#: actions, the strip and the status line needed it again soon after and resized the map below, 1 turn in 4)
FOR_THE_QUEST = 1_000_000


class SteadyHeight:
    """A wrapped row's height kept steady while play goes on, so what is laid out below it (the map) is not
    resized and repainted on every action (issue 18's performance; the map jumping by a line each fight round
    was also hard on the eye).

    The height asked for a width grows at once to what the content needs, and keeps that height while the
    content needs at most ``most`` pixels less (a line of text, a row of buttons or a test's dice); the extra room
    (at the bottom) is given back once it has gone unused for ``patience`` changes in a row, at once when it needs
    more than ``most`` less (no wide empty band on a small screen), and at once when
    :meth:`changed` is told another ``key`` (a quest begun or ended)."""

    def __init__(self, patience: int = 10, most: int = 64) -> None:
        self.patience = patience
        self.most = most
        self._floor: dict[int, int] = {}  # the height kept, by width
        self._needed: dict[int, int] = {}  # the content's own height the last time it was asked, by width
        self._key: object = None
        self._unused = 0  # changes in a row that needed less than the height kept
        self._width = -1  # the width last asked about (the one laid out)

    def height(self, width: int, needed: int) -> int:
        """The height to give for ``width``: at least ``needed`` (the content's), at most what was kept."""
        self._needed[width], self._width = needed, width
        kept = self._floor.get(width, 0)
        if needed >= kept or kept - needed > self.most:
            self._floor[width] = needed
            return needed
        return kept

    def changed(self, key: object) -> bool:
        """One change shown (an action, an undo): True if the kept room is given back (lay the widget out again)."""
        if key != self._key:
            self._key = key
            return self._give_back()
        needed, kept = self._needed.get(self._width), self._floor.get(self._width)
        self._unused = self._unused + 1 if needed is not None and kept is not None and needed < kept else 0
        return self._unused >= self.patience and self._give_back()

    def _give_back(self) -> bool:
        had = bool(self._floor)
        self._floor.clear()
        self._needed.clear()
        self._unused = 0
        return had


class SteadyColumn(QVBoxLayout):
    """A widget's column whose height is kept steady by ``steady`` (see :class:`SteadyHeight`); the room kept
    is at its bottom (add a stretch last)."""

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.steady = SteadyHeight()

    def heightForWidth(self, width: int) -> int:
        return self.steady.height(width, super().heightForWidth(width))
