"""A track of pips you can see fill and click, like the tracks printed on the paper sheet.

:class:`PipTrack` draws ``count`` pips (circles, boxes or clock faces) shaded up to a value.
It never changes itself: a click asks for a new value with ``value_requested``; the owner
sends a command and calls :meth:`PipTrack.set_value` with what the model says. Clicking pip
``k`` asks for ``k``; clicking the last shaded pip asks for ``k - 1`` (rubbing it out), the
way a pencil and eraser work on paper. The keyboard does the same with the arrow keys.

:func:`paint_trigger_icon` draws the small oil / food / wandering-monster symbols printed on
the time track; the printed sheet uses it too.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import cast

from PySide6.QtCore import QEvent, QPointF, QRectF, QSize, Qt, Signal
from PySide6.QtGui import (
    QColor,
    QFont,
    QHelpEvent,
    QKeyEvent,
    QMouseEvent,
    QPainter,
    QPainterPath,
    QPaintEvent,
    QPalette,
    QPen,
    QPolygonF,
)
from PySide6.QtWidgets import QSizePolicy, QToolTip, QWidget

SHAPES = ("circle", "box", "clock")
ICON_COLOURS = {"oil": "#d08a12", "food": "#6f8f2f", "wandering": "#c0392b", "milestone": "#c89b1b"}


def paint_trigger_icon(painter: QPainter, kind: str, rect: QRectF, number: int | None = None) -> None:
    """A time-track trigger symbol in ``rect``: an oil flame, a food loaf, a wandering-monster eye."""
    painter.save()
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    colour = QColor(ICON_COLOURS.get(kind, "#888888"))
    w, h = rect.width(), rect.height()
    cx, cy = rect.center().x(), rect.center().y()
    painter.setPen(QPen(colour.darker(140), max(0.6, w * 0.06)))
    painter.setBrush(colour)
    if kind == "oil":  # a flame: a drop with its point up
        path = QPainterPath(QPointF(cx, rect.top()))
        path.cubicTo(QPointF(cx + w * 0.45, cy), QPointF(cx + w * 0.42, rect.bottom()), QPointF(cx, rect.bottom()))
        path.cubicTo(QPointF(cx - w * 0.42, rect.bottom()), QPointF(cx - w * 0.45, cy), QPointF(cx, rect.top()))
        painter.drawPath(path)
    elif kind == "food":  # a loaf: a dome on a flat base with two score lines
        base = rect.adjusted(0, h * 0.25, 0, -h * 0.1)
        path = QPainterPath()
        path.moveTo(base.bottomLeft())
        path.lineTo(base.left(), base.center().y())
        path.arcTo(base.adjusted(0, 0, 0, base.height() * 0.5), 180, -180)
        path.lineTo(base.bottomRight())
        path.closeSubpath()
        painter.drawPath(path)
        painter.setPen(QPen(colour.lighter(150), max(0.5, w * 0.06)))
        for fx in (0.38, 0.62):
            x = base.left() + base.width() * fx
            painter.drawLine(QPointF(x - w * 0.06, base.top() + h * 0.12), QPointF(x + w * 0.06, base.top() + h * 0.32))
    elif kind == "milestone":  # a five-pointed star
        points = []
        for i in range(10):
            r = (w / 2) if i % 2 == 0 else (w / 5)
            angle = math.radians(-90 + i * 36)
            points.append(QPointF(cx + r * math.cos(angle), cy + r * math.sin(angle)))
        painter.drawPolygon(QPolygonF(points))
    else:  # wandering monster: a red eye, with the d10 number beside it when given
        eye = QRectF(rect.left(), cy - h * 0.28, w, h * 0.56)
        painter.setBrush(QColor("#ffffff"))
        path = QPainterPath(QPointF(eye.left(), eye.center().y()))
        path.quadTo(QPointF(eye.center().x(), eye.top() - h * 0.2), QPointF(eye.right(), eye.center().y()))
        path.quadTo(QPointF(eye.center().x(), eye.bottom() + h * 0.2), QPointF(eye.left(), eye.center().y()))
        painter.drawPath(path)
        painter.setBrush(colour)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.drawEllipse(QPointF(cx, cy), h * 0.2, h * 0.2)
        if number is not None:
            font = QFont(painter.font())
            font.setBold(True)
            font.setPixelSize(max(6, int(h * 0.75)))
            painter.setFont(font)
            painter.setPen(colour.darker(120))
            painter.drawText(
                QRectF(rect.right() - w * 0.05, rect.top() - h * 0.2, w, h * 1.2),
                Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                str(number),
            )
    painter.restore()


def parse_icon(spec: str) -> tuple[str, int | None]:
    """``"wandering:2"`` -> ("wandering", 2); ``"oil"`` -> ("oil", None)."""
    kind, _, number = spec.partition(":")
    return kind, (int(number) if number.isdigit() else None)


class PipTrack(QWidget):
    """``count`` pips shaded up to ``value``; clicks ask for a new value, never set it."""

    value_requested = Signal(int)

    def __init__(
        self,
        count: int = 10,
        value: int = 0,
        *,
        shape: str = "circle",
        per_row: int = 0,
        pip_size: int = 11,
        gap: int = 3,
        end_label: str = "",
        name: str = "",
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        if shape not in SHAPES:
            raise ValueError(f"shape is one of {', '.join(SHAPES)}")
        self._count = max(0, count)
        self._value = max(0, min(value, self._count))
        self._shape = shape
        self._per_row = per_row
        self._pip = pip_size
        self._gap = gap
        self._end_label = end_label
        self._icons: dict[int, list[tuple[str, int | None]]] = {}
        self._marks: dict[int, str] = {}
        self._tips: dict[int, str] = {}
        self._read_only = False
        self._hover: int | None = None
        self._name = name
        self.setMouseTracking(True)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)
        self._update_accessible()

    # ------------------------------------------------------------------ state
    def value(self) -> int:
        return self._value

    def count(self) -> int:
        return self._count

    def set_value(self, value: int) -> None:
        """Show ``value`` shaded pips (what the model says). Emits nothing."""
        value = max(0, min(value, self._count))
        if value != self._value:
            self._value = value
            self._update_accessible()
            self.update()

    def set_count(self, count: int) -> None:
        count = max(0, count)
        if count != self._count:
            self._count = count
            self._value = min(self._value, count)
            self.updateGeometry()
            self._update_accessible()
            self.update()

    def set_icons(self, icons: Mapping[int, Sequence[str]]) -> None:
        """Symbols under pips (1-based): ``{3: ["oil"], 2: ["wandering:2"]}``."""
        self._icons = {k: [parse_icon(s) for s in v] for k, v in icons.items() if v}
        self.updateGeometry()
        self.update()

    def icons(self) -> dict[int, list[str]]:
        return {k: [f"{kind}:{n}" if n is not None else kind for kind, n in v] for k, v in self._icons.items()}

    def set_marks(self, marks: Mapping[int, str]) -> None:
        """Milestones drawn as a star on the pip (1-based), with their text in the tooltip."""
        self._marks = dict(marks)
        self.update()

    def set_tips(self, tips: Mapping[int, str]) -> None:
        """A tooltip per pip (1-based)."""
        self._tips = dict(tips)

    def set_read_only(self, read_only: bool) -> None:
        self._read_only = read_only
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus if read_only else Qt.FocusPolicy.StrongFocus)
        self.setCursor(Qt.CursorShape.ArrowCursor if read_only else Qt.CursorShape.PointingHandCursor)
        self.update()

    def _update_accessible(self) -> None:
        self.setAccessibleName(self._name or "Track")
        self.setAccessibleDescription(f"{self._value} of {self._count} shaded")
        if not self._read_only:
            self.setCursor(Qt.CursorShape.PointingHandCursor)

    # ------------------------------------------------------------------ geometry
    def _columns(self) -> int:
        return max(1, min(self._per_row or self._count, self._count or 1))

    def _icon_height(self) -> int:
        return int(self._pip * 0.9) + 2 if self._icons else 0

    def _row_height(self) -> int:
        return self._pip + self._gap + self._icon_height()

    def _label_width(self) -> int:
        return self.fontMetrics().horizontalAdvance(self._end_label) + 6 if self._end_label else 0

    def _group_gap(self, col: int) -> float:
        """Extra room before column ``col``: printed tracks group their pips in fives."""
        cols = self._columns()
        if cols > 5 and cols % 5 == 0:
            return (col // 5) * max(2.0, self._gap)
        return 0.0

    def sizeHint(self) -> QSize:
        cols = self._columns()
        rows = max(1, math.ceil(self._count / cols)) if self._count else 1
        step = self._pip + self._gap
        width = cols * step + self._gap + self._group_gap(cols - 1) + self._label_width() + 2
        return QSize(math.ceil(width), rows * self._row_height() + self._gap)

    def minimumSizeHint(self) -> QSize:
        return self.sizeHint()

    def pip_rect(self, k: int) -> QRectF:
        """The rectangle of pip ``k`` (1-based), in widget coordinates."""
        cols = self._columns()
        row, col = divmod(k - 1, cols)
        step = self._pip + self._gap
        x = self._gap / 2 + 1 + col * step + self._group_gap(col)
        return QRectF(x, self._gap / 2 + 1 + row * self._row_height(), self._pip, self._pip)

    def pip_at(self, pos: QPointF) -> int | None:
        for k in range(1, self._count + 1):
            if self.pip_rect(k).adjusted(-self._gap / 2, -self._gap / 2, self._gap / 2, self._gap / 2).contains(pos):
                return k
        return None

    def requested_for(self, k: int) -> int:
        """The value a click on pip ``k`` asks for."""
        return k - 1 if k == self._value else k

    # ------------------------------------------------------------------ input
    def mousePressEvent(self, event: QMouseEvent) -> None:
        if self._read_only or event.button() != Qt.MouseButton.LeftButton:
            super().mousePressEvent(event)
            return
        k = self.pip_at(event.position())
        if k is None:
            super().mousePressEvent(event)
            return
        self.value_requested.emit(self.requested_for(k))

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        k = None if self._read_only else self.pip_at(event.position())
        if k != self._hover:
            self._hover = k
            self.update()
        super().mouseMoveEvent(event)

    def leaveEvent(self, event: QEvent) -> None:
        self._hover = None
        self.update()
        super().leaveEvent(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if self._read_only:
            super().keyPressEvent(event)
            return
        key = event.key()
        if key in (Qt.Key.Key_Right, Qt.Key.Key_Up, Qt.Key.Key_Plus) and self._value < self._count:
            self.value_requested.emit(self._value + 1)
        elif key in (Qt.Key.Key_Left, Qt.Key.Key_Down, Qt.Key.Key_Minus) and self._value > 0:
            self.value_requested.emit(self._value - 1)
        elif key == Qt.Key.Key_Home and self._value > 0:
            self.value_requested.emit(0)
        else:
            super().keyPressEvent(event)

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ToolTip:
            help_event = cast(QHelpEvent, event)  # a ToolTip event is a QHelpEvent
            k = self.pip_at(QPointF(help_event.pos()))
            text = "\n".join(self._tip_lines(k)) or self.toolTip()
            if text:
                QToolTip.showText(help_event.globalPos(), text, self)
            else:
                QToolTip.hideText()
            return True
        return super().event(event)

    def _tip_lines(self, k: int | None) -> list[str]:
        """The tooltip of pip ``k``: its own tip, its milestone, what its symbols ask for."""
        if k is None:
            return []
        lines = [self._tips.get(k, f"{k} of {self._count}")]
        if k in self._marks:
            lines.append(self._marks[k])
        for kind, number in self._icons.get(k, []):
            lines.append(
                {"oil": "Oil: use 1 oil", "food": "Food: eat 1 food"}.get(
                    kind, f"Wandering monster: d10 ≤ {number} rolls on Table E"
                )
            )
        return lines

    # ------------------------------------------------------------------ painting
    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        pal = self.palette()
        ink = pal.color(QPalette.ColorRole.WindowText)
        outline = QColor(ink)
        outline.setAlphaF(0.7 if self.isEnabled() else 0.35)
        shade = QColor(ink)
        shade.setAlphaF(0.85 if self.isEnabled() else 0.4)
        hover = pal.color(QPalette.ColorRole.Highlight)
        for k in range(1, self._count + 1):
            rect = self.pip_rect(k)
            filled = k <= self._value
            pen = QPen(hover if k == self._hover else outline, 1.6 if k == self._hover else 1.1)
            painter.setPen(pen)
            painter.setBrush(shade if filled else Qt.BrushStyle.NoBrush)
            if self._shape == "box":
                painter.drawRect(rect.adjusted(0.5, 0.5, -0.5, -0.5))
            else:
                painter.drawEllipse(rect.adjusted(0.5, 0.5, -0.5, -0.5))
                if self._shape == "clock":
                    hands = QColor(pal.color(QPalette.ColorRole.Window) if filled else outline)
                    painter.setPen(QPen(hands, 1.0))
                    c = rect.center()
                    painter.drawLine(c, QPointF(c.x(), rect.top() + rect.height() * 0.22))
                    painter.drawLine(c, QPointF(rect.right() - rect.width() * 0.28, c.y()))
            if k in self._marks:
                star = QRectF(
                    rect.right() - rect.width() * 0.45, rect.top() - rect.height() * 0.2, rect.width() * 0.6, rect.height() * 0.6
                )
                paint_trigger_icon(painter, "milestone", star)
            icons = self._icons.get(k, [])
            if icons:
                size = self._icon_height() - 2
                # an icon is 0.8 of its height wide; a wandering-monster number needs room beside it
                widths = [size * (1.5 if number is not None else 0.8) for _, number in icons]
                x = rect.center().x() - (sum(widths) + (len(widths) - 1) * 2) / 2
                for (kind, number), width in zip(icons, widths, strict=True):
                    paint_trigger_icon(painter, kind, QRectF(x, rect.bottom() + 2, size * 0.8, size), number)
                    x += width + 2
        if self._end_label:
            painter.setPen(ink)
            last = self.pip_rect(max(1, min(self._count, self._columns())))
            painter.drawText(
                QRectF(last.right() + 4, last.top() - 3, self._label_width(), last.height() + 6),
                Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                self._end_label,
            )
        if self.hasFocus():
            focus = QColor(hover)
            focus.setAlphaF(0.6)
            painter.setPen(QPen(focus, 1, Qt.PenStyle.DotLine))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawRect(QRectF(self.rect()).adjusted(0.5, 0.5, -0.5, -0.5))
        painter.end()
