"""Small widgets of the combat panel: pack HP pips, badges, a wrapping row, a framed box, a wrapped label."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPaintEvent, QPalette, QPen
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QLayout, QSizePolicy, QVBoxLayout, QWidget

from d100gui.ui.common.contrast import dim_colour

#: a widget's style sheet with ``{dim}`` where the dim text colour goes (see :func:`restyle`)
DIM_STYLE = "dimStyle"


class WrapLabel(QLabel):
    """A word-wrapped label whose height for a width is measured once per text.

    Qt's layouts ask a wrapped label its height for the width many times per layout pass, and again
    whenever the panel's layout changes (the choices below change at each action); QLabel lays its
    text out again for each question. The heights are kept until the text, font or style changes.
    """

    def __init__(self, text: str = "", parent: QWidget | None = None) -> None:
        super().__init__(text, parent)
        self._heights: dict[int, int] = {}
        self.setWordWrap(True)

    def setText(self, text: str) -> None:
        if text != self.text():
            self._heights.clear()
            super().setText(text)

    def changeEvent(self, event: QEvent) -> None:
        if event.type() in (QEvent.Type.FontChange, QEvent.Type.StyleChange):
            self._heights.clear()
        super().changeEvent(event)

    def heightForWidth(self, width: int) -> int:
        height = self._heights.get(width)
        if height is None:
            height = self._heights[width] = super().heightForWidth(width)
        return height


def follow_theme(widget: QWidget, event: QEvent) -> bool:
    """For a ``changeEvent``: on a new palette (a theme switch), :func:`restyle` the widget's
    texts once. True if it did (the caller may draw again)."""
    themed = event.type() in (QEvent.Type.PaletteChange, QEvent.Type.ApplicationPaletteChange)
    if not themed or widget.property("restyling"):
        return False
    widget.setProperty("restyling", True)
    try:
        restyle(widget)
    finally:
        widget.setProperty("restyling", False)
    return True


def set_dim_style(widget: QWidget, template: str) -> None:
    """Style ``widget`` with ``template``, ``{dim}`` standing for :func:`dim_colour` (kept for :func:`restyle`)."""
    widget.setProperty(DIM_STYLE, template)
    widget.setStyleSheet(template.replace("{dim}", dim_colour(widget.palette()).name()))


def restyle(root: QWidget) -> None:
    """After a theme switch: style sheets resolve ``palette(...)`` when set, so set each again
    (a dim one with the new dim colour) and every text follows the new palette at once."""
    for widget in [root, *root.findChildren(QWidget)]:
        template = widget.property(DIM_STYLE)
        if isinstance(template, str) and template:
            widget.setStyleSheet(template.replace("{dim}", dim_colour(root.palette()).name()))
        elif widget.styleSheet():
            widget.setStyleSheet(widget.styleSheet())


class PackHpView(QWidget):
    """HP of each individual as pips (a bar above 24 HP); a dead one is struck through."""

    PIP = 13
    GAP = 18

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._current: list[int] = []
        self._maximum: list[int] = []
        self.setMinimumHeight(self.PIP + 16)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.setAccessibleName("Monster HP")

    def set_members(self, current: list[int], maximum: list[int]) -> None:
        self._current, self._maximum = list(current), list(maximum)
        tips = [
            f"#{i + 1}: {max(0, c)} of {m} HP" + (" (dead)" if c <= 0 else "")
            for i, (c, m) in enumerate(zip(current, maximum, strict=False))
        ]
        self.setToolTip("\n".join(tips))
        self.update()

    def members(self) -> list[tuple[int, int, bool]]:
        """(current, maximum, dead) of each individual, in printed order."""
        return [(max(0, c), m, c <= 0) for c, m in zip(self._current, self._maximum, strict=False)]

    def sizeHint(self) -> QSize:
        return QSize(sum(self._width(m) for m in self._maximum) + self.GAP * len(self._maximum), self.PIP + 16)

    def _width(self, maximum: int) -> int:
        return maximum * (self.PIP + 3) if maximum <= 24 else 180

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        pal = self.palette()
        ink = pal.color(QPalette.ColorRole.WindowText)
        dim = pal.color(QPalette.ColorRole.PlaceholderText)
        blood = QColor("#c0392b")
        x = 2.0
        y = 4.0
        small = QFont(self.font())
        small.setPointSizeF(max(6.5, small.pointSizeF() * 0.75))
        for i, (current, maximum) in enumerate(zip(self._current, self._maximum, strict=False)):
            width = self._width(maximum)
            if x + width > self.width() and x > 2:
                break
            dead = current <= 0
            painter.setPen(QPen(dim if dead else ink, 1.2))
            if maximum <= 24:
                for k in range(maximum):
                    rect = QRectF(x + k * (self.PIP + 3), y, self.PIP, self.PIP)
                    painter.setBrush(blood if k < current else Qt.BrushStyle.NoBrush)
                    painter.drawEllipse(rect)
            else:
                rect = QRectF(x, y, width, self.PIP)
                painter.setBrush(Qt.BrushStyle.NoBrush)
                painter.drawRect(rect)
                painter.fillRect(QRectF(x, y, width * max(0, current) / maximum, self.PIP), blood)
                painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, f"{max(0, current)}/{maximum}")
            if dead:
                painter.setPen(QPen(ink, 2))
                painter.drawLine(int(x - 2), int(y + self.PIP / 2), int(x + width + 1), int(y + self.PIP / 2))
            if len(self._maximum) > 1:
                painter.setPen(dim)
                painter.setFont(small)
                painter.drawText(QRectF(x, y + self.PIP + 1, width, 11), Qt.AlignmentFlag.AlignLeft, f"#{i + 1}")
            x += width + self.GAP
        painter.end()


#: a badge as data: its text, its tooltip and whether it is drawn strong (see :func:`badge`)
BadgeSpec = tuple[str, str, bool]


def badge_style(strong: bool) -> str:
    border = "palette(highlight)" if strong else "palette(mid)"
    return (
        f"QLabel#badge {{ border: 1px solid {border}; border-radius: 9px; padding: 1px 7px;"
        " background: palette(alternate-base); color: palette(window-text); }"
    )


def badge(text: str, tip: str = "", strong: bool = False) -> QLabel:
    label = QLabel(text)
    label.setObjectName("badge")
    label.setToolTip(tip)
    label.setStyleSheet(badge_style(strong))
    return label


def dim_label(text: str = "") -> QLabel:
    """A secondary text, readable in every theme (:func:`dim_colour`)."""
    label = QLabel(text)
    label.setWordWrap(True)
    set_dim_style(label, "color: {dim};")
    return label


def clear_layout(layout: QLayout) -> None:
    while layout.count():
        item = layout.takeAt(0)
        if item is None:
            break
        widget = item.widget()
        if widget is not None:
            widget.hide()  # deleteLater waits for the event loop; hide it now
            widget.deleteLater()
        elif (inner := item.layout()) is not None:
            clear_layout(inner)


class FlowRow(QWidget):
    """Badges laid out left to right, wrapping onto new lines."""

    def __init__(self, parent: QWidget | None = None, per_line: int = 5) -> None:
        super().__init__(parent)
        self.per_line = per_line
        self.grid = QVBoxLayout(self)
        self.grid.setContentsMargins(0, 0, 0, 0)
        self.grid.setSpacing(3)
        self.widgets: list[QWidget] = []
        self._specs: list[BadgeSpec] | None = None  # what set_badges last showed

    def set_badges(self, specs: list[BadgeSpec]) -> None:
        """Show one badge per ``(text, tip, strong)``. The badges shown are kept and only told what
        changed (an action rarely changes a monster's abilities or the hero's conditions): a badge made
        and thrown away at every action costs its polish, its first layout and its deletion."""
        if specs == self._specs:
            return
        old = self._specs or []
        if len(specs) != len(old):
            self.set_widgets([badge(*spec) for spec in specs])
        else:
            for label, (text, tip, strong), before in zip(self.widgets, specs, old, strict=True):
                assert isinstance(label, QLabel)
                if text != before[0]:
                    label.setText(text)
                if tip != before[1]:
                    label.setToolTip(tip)
                if strong != before[2]:
                    label.setStyleSheet(badge_style(strong))
        self._specs = list(specs)

    def set_widgets(self, widgets: list[QWidget]) -> None:
        self._specs = None
        clear_layout(self.grid)
        self.widgets = list(widgets)
        row: QHBoxLayout | None = None
        for i, w in enumerate(widgets):
            if i % self.per_line == 0:
                row = QHBoxLayout()
                row.setSpacing(4)
                self.grid.addLayout(row)
            assert row is not None
            row.addWidget(w)
        if row is not None:
            row.addStretch(1)
        self.setVisible(bool(widgets))


class Box(QFrame):
    """A bordered box of the panel; its parts go in ``column``."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setObjectName("combatFrame")
        self.set_border("1px solid palette(mid)")
        self.column = QVBoxLayout(self)
        self.column.setContentsMargins(8, 6, 8, 6)
        self.column.setSpacing(3)

    def set_border(self, border: str) -> None:
        self.setStyleSheet(f"QFrame#combatFrame {{ border: {border}; border-radius: 6px; background: palette(base); }}")


def html(text: str) -> str:
    """``text`` escaped for a rich-text label."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
