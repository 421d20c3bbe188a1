"""Drawn dice: a small widget that paints each die of a roll the way it looks on the table."""

from __future__ import annotations

import math

from PySide6.QtCore import QPointF, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QColor, QFont, QMouseEvent, QPainter, QPainterPath, QPaintEvent, QPalette, QPen, QPolygonF
from PySide6.QtWidgets import QSizePolicy, QWidget

from d100gui.engine.dice.dice import DieFace

PIPS = {
    1: [(0.5, 0.5)],
    2: [(0.25, 0.25), (0.75, 0.75)],
    3: [(0.25, 0.25), (0.5, 0.5), (0.75, 0.75)],
    4: [(0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)],
    5: [(0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)],
    6: [(0.25, 0.22), (0.75, 0.22), (0.25, 0.5), (0.75, 0.5), (0.25, 0.78), (0.75, 0.78)],
}


def _polygon(rect: QRectF, corners: int, rotation: float = -90.0) -> QPolygonF:
    cx, cy = rect.center().x(), rect.center().y()
    r = min(rect.width(), rect.height()) / 2
    return QPolygonF(
        [
            QPointF(
                cx + r * math.cos(math.radians(rotation + i * 360 / corners)),
                cy + r * math.sin(math.radians(rotation + i * 360 / corners)),
            )
            for i in range(corners)
        ]
    )


def die_shape(face: DieFace, rect: QRectF) -> QPainterPath:
    """The outline of a die: square d6, kite d10, triangle d4, and so on."""
    path = QPainterPath()
    if face.sides == 6:
        path.addRoundedRect(rect, rect.width() * 0.15, rect.width() * 0.15)
    elif face.sides == 10:
        w, h = rect.width(), rect.height()
        path.addPolygon(
            QPolygonF(
                [
                    QPointF(rect.left() + w / 2, rect.top()),
                    QPointF(rect.right(), rect.top() + h * 0.55),
                    QPointF(rect.left() + w / 2, rect.bottom()),
                    QPointF(rect.left(), rect.top() + h * 0.55),
                ]
            )
        )
        path.closeSubpath()
    else:
        corners = {4: 3, 8: 4, 12: 5, 20: 6}.get(face.sides, 8)
        path.addPolygon(_polygon(rect, corners))
        path.closeSubpath()
    return path


class DiceFacesView(QWidget):
    """Paints the dice of one roll; a click on a die toggles it for a Fate re-roll."""

    selection_changed = Signal(list)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._faces: list[DieFace] = []
        self._selected: set[int] = set()
        self._rerolled: set[int] = set()
        self.setMinimumHeight(58)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.setAccessibleName("Dice faces")

    def sizeHint(self) -> QSize:
        return QSize(max(60, 56 * len(self._faces)), 58)

    def set_faces(self, faces: list[DieFace], rerolled: list[int] | None = None) -> None:
        self._faces = list(faces)
        self._selected.clear()
        self._rerolled = set(rerolled or [])
        self.setToolTip(" ".join(f"{f.label}: {f.shown}" for f in faces))
        self.updateGeometry()
        self.update()
        self.selection_changed.emit([])

    def faces(self) -> list[DieFace]:
        return list(self._faces)

    def selected(self) -> list[int]:
        return sorted(self._selected)

    def _rect(self, index: int) -> QRectF:
        return QRectF(6 + index * 56, 4, 48, 48)

    def mousePressEvent(self, event: QMouseEvent) -> None:
        for i in range(len(self._faces)):
            if self._rect(i).contains(event.position()):
                self._selected ^= {i}
                self.update()
                self.selection_changed.emit(self.selected())
                return
        super().mousePressEvent(event)

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        pal = self.palette()
        ink = pal.color(QPalette.ColorRole.Text)
        for i, face in enumerate(self._faces):
            rect = self._rect(i)
            fill = QColor("#f4ecd8") if face.role != "tens" else QColor("#d9e6f2")
            if face.sides == 6:
                fill = QColor("#f6f1e7")
            if i in self._selected:
                fill = QColor("#ffd479")
            painter.setPen(QPen(QColor("#e0a000") if i in self._rerolled else QColor("#3a3a3a"), 2))
            painter.setBrush(fill)
            painter.drawPath(die_shape(face, rect))
            painter.setPen(QColor("#1b1b1b"))
            if face.sides == 6 and 1 <= face.face <= 6:
                painter.setBrush(QColor("#1b1b1b"))
                inner = rect.adjusted(6, 6, -6, -6)
                for px, py in PIPS[face.face]:
                    painter.drawEllipse(QPointF(inner.left() + px * inner.width(), inner.top() + py * inner.height()), 3.6, 3.6)
            else:
                font = QFont(self.font())
                font.setBold(True)
                font.setPointSizeF(12 if len(face.shown) < 3 else 10)
                painter.setFont(font)
                text_rect = rect.adjusted(0, 4, 0, 0) if face.sides == 10 else rect
                painter.drawText(text_rect, Qt.AlignmentFlag.AlignCenter, face.shown)
            painter.setPen(ink)
            small = QFont(self.font())
            small.setPointSizeF(7)
            painter.setFont(small)
        painter.end()
