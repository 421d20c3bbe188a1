"""The dice of the fight, drawn: small for a past step, large for the roll the fight waits on.

Also what a roll's dice are called on a Fate button and what the roll came to, read from the
roll's own data (its dice, terms and totals), never from a sentence.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QMouseEvent, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

from d100gui.engine.dice.dice import RollRecord
from d100gui.ui.common.dice_faces import PIPS, DiceFacesView, die_shape


def die_names(record: RollRecord) -> list[str]:
    """What each die of a roll is called on a Fate button: tens, units, d6, location."""
    sixes = sum(1 for d in record.dice if d.sides == 6)
    names: list[str] = []
    n6 = 0
    for d in record.dice:
        if d.role in ("tens", "units"):
            names.append(d.role)
        elif d.sides == 6:
            n6 += 1
            names.append("d6" if sixes == 1 else f"d6 #{n6}")
        elif d.sides == 10 and sixes:
            names.append("location")
        else:
            names.append(f"d{d.sides}")
    return names


def location_of(record: RollRecord) -> int:
    """The hit location a damage-and-location roll shows (0 if it has no location die).

    The engine's natural total is the damage dice plus what the location die reads, so the
    location is what remains once the d6s are taken off (no face is read here)."""
    if "location" not in die_names(record):
        return 0
    return record.natural - sum(d.face for d in record.dice if d.sides == 6)


def roll_value(record: RollRecord, where: str = "") -> str:
    """What a roll came to: its total, or for damage and location the damage dice and the location
    (``where`` names it: the big dice say "damage 2 · location 3 Torso", a step "2 · loc 3")."""
    location = location_of(record)
    if location:
        damage = "+".join(str(d.face) for d in record.dice if d.sides == 6)
        return f"damage {damage} · location {location} {where}".rstrip() if where else f"{damage} · loc {location}"
    return f"{record.natural}" + (f" → {record.final}" if record.final != record.natural else "")


class CompactDice(DiceFacesView):
    """Dice of a past step, drawn small; read-only (Fate is offered on the waiting roll only)."""

    SIZE = 30

    def __init__(self, roll: RollRecord, parent: QWidget | None = None, selectable: bool = False) -> None:
        super().__init__(parent)
        self._selectable = selectable
        self.roll = roll
        self.setMinimumHeight(self.SIZE + 6)
        self.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)
        self.set_faces(roll.dice, roll.rerolled)
        self.setFixedSize(self.sizeHint())
        self.setToolTip(roll.describe())

    def sizeHint(self) -> QSize:
        return QSize(6 + (self.SIZE + 6) * max(1, len(self.faces())), self.SIZE + 6)

    def _rect(self, index: int) -> QRectF:
        return QRectF(3 + index * (self.SIZE + 6), 3, self.SIZE, self.SIZE)

    def mousePressEvent(self, event: QMouseEvent) -> None:
        if self._selectable:
            super().mousePressEvent(event)
        else:
            event.ignore()

    def paintEvent(self, event: QPaintEvent) -> None:
        """The dice as :class:`DiceFacesView` draws them, with pips and numbers scaled to the size."""
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        selected = set(self.selected())
        for i, face in enumerate(self.faces()):
            rect = self._rect(i)
            fill = QColor("#f4ecd8") if face.role != "tens" else QColor("#d9e6f2")
            if face.sides == 6:
                fill = QColor("#f6f1e7")
            if i in selected:
                fill = QColor("#ffd479")
            rerolled = i in self._rerolled
            painter.setPen(QPen(QColor("#e0a000") if rerolled else QColor("#3a3a3a"), 2.5 if rerolled else 1.5))
            painter.setBrush(fill)
            painter.drawPath(die_shape(face, rect))
            painter.setPen(QColor("#1b1b1b"))
            if face.sides == 6 and 1 <= face.face <= 6:
                painter.setBrush(QColor("#1b1b1b"))
                inner = rect.adjusted(rect.width() * 0.13, rect.width() * 0.13, -rect.width() * 0.13, -rect.width() * 0.13)
                radius = rect.width() * 0.075
                for px, py in PIPS[face.face]:
                    painter.drawEllipse(
                        QPointF(inner.left() + px * inner.width(), inner.top() + py * inner.height()), radius, radius
                    )
            else:
                font = QFont(self.font())
                font.setBold(True)
                font.setPixelSize(max(8, int(rect.height() * (0.34 if len(face.shown) < 3 else 0.28))))
                painter.setFont(font)
                text_rect = rect.adjusted(0, rect.height() * 0.08, 0, 0) if face.sides == 10 else rect
                painter.drawText(text_rect, Qt.AlignmentFlag.AlignCenter, face.shown)
        painter.end()


class BigDice(CompactDice):
    """The roll the fight waits on, drawn large; click dice to choose them for Fate."""

    SIZE = 46
