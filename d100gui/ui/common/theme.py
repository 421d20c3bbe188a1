"""Dark and light themes. "system" follows the desktop's colour scheme.

Every text colour reads at :data:`~d100gui.ui.common.contrast.READABLE` (4.5:1, WCAG AA) on the
background it is drawn on; a disabled control's text reads at :data:`DISABLED_READABLE` (3:1:
WCAG asks nothing of inactive controls, but a player should still make out what is greyed and
why). ``tests/ui/common/test_contrast.py`` measures every pair.
"""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QFont, QGuiApplication, QPainter, QPalette, QPen
from PySide6.QtWidgets import QApplication, QProxyStyle, QStyle, QStyleOption, QWidget

THEMES = ("system", "light", "dark")
#: the contrast a disabled control's text keeps against its background (documented lower bar)
DISABLED_READABLE = 3.0


def effective_theme(choice: str) -> str:
    if choice in ("light", "dark"):
        return choice
    hints = QGuiApplication.styleHints()
    return "dark" if hints.colorScheme() == Qt.ColorScheme.Dark else "light"


def _palette(dark: bool) -> QPalette:
    pal = QPalette()
    if dark:
        colours = {
            QPalette.ColorRole.Window: "#2b2b2b",
            QPalette.ColorRole.WindowText: "#e8e6e3",
            QPalette.ColorRole.Base: "#1f1f1f",
            QPalette.ColorRole.AlternateBase: "#2a2a2a",
            QPalette.ColorRole.Text: "#e8e6e3",
            QPalette.ColorRole.Button: "#3a3a3a",
            QPalette.ColorRole.ButtonText: "#e8e6e3",
            QPalette.ColorRole.Highlight: "#41689c",
            QPalette.ColorRole.HighlightedText: "#ffffff",
            QPalette.ColorRole.ToolTipBase: "#3a3a3a",
            QPalette.ColorRole.ToolTipText: "#e8e6e3",
            QPalette.ColorRole.PlaceholderText: "#9a9a9a",
            QPalette.ColorRole.Link: "#8ab4f8",
            QPalette.ColorRole.LinkVisited: "#c9a6f5",
        }
    else:
        colours = {
            QPalette.ColorRole.Window: "#f3f0e8",
            QPalette.ColorRole.WindowText: "#1e1e1e",
            QPalette.ColorRole.Base: "#fffdf8",
            QPalette.ColorRole.AlternateBase: "#f5f1e6",
            QPalette.ColorRole.Text: "#1e1e1e",
            QPalette.ColorRole.Button: "#e7e2d6",
            QPalette.ColorRole.ButtonText: "#1e1e1e",
            QPalette.ColorRole.Highlight: "#3d6fa8",
            QPalette.ColorRole.HighlightedText: "#ffffff",
            QPalette.ColorRole.ToolTipBase: "#fffbe6",
            QPalette.ColorRole.ToolTipText: "#1e1e1e",
            QPalette.ColorRole.PlaceholderText: "#6b675d",
            QPalette.ColorRole.Link: "#1f5fa8",
            QPalette.ColorRole.LinkVisited: "#6a3d9a",
        }
    for role, value in colours.items():
        pal.setColor(role, QColor(value))
    disabled = QColor("#8f8f8f" if dark else "#706c62")  # greyed, yet >= DISABLED_READABLE on window, base and button
    for role in (QPalette.ColorRole.WindowText, QPalette.ColorRole.Text, QPalette.ColorRole.ButtonText):
        pal.setColor(QPalette.ColorGroup.Disabled, role, disabled)
    return pal


class ReadableStyle(QProxyStyle):
    """Fusion, with every check box and radio button outlined in a colour that shows on its window.

    Fusion draws their outline a shade darker than the window: on a dark window that is the
    colour of the box itself, so an unticked box disappears. The outline drawn here is the
    palette's placeholder colour, which reads at 4.5:1 on the window and the base.
    """

    INDICATORS = (QStyle.PrimitiveElement.PE_IndicatorCheckBox, QStyle.PrimitiveElement.PE_IndicatorRadioButton)

    def __init__(self) -> None:
        super().__init__("Fusion")

    def drawPrimitive(
        self, element: QStyle.PrimitiveElement, option: QStyleOption, painter: QPainter, widget: QWidget | None = None
    ) -> None:
        super().drawPrimitive(element, option, painter, widget)
        if element not in self.INDICATORS:
            return
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(QPen(option.palette.color(QPalette.ColorRole.PlaceholderText), 1.0))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        box = QRectF(option.rect).adjusted(0.5, 0.5, -0.5, -0.5)
        if element == QStyle.PrimitiveElement.PE_IndicatorRadioButton:
            painter.drawEllipse(box)
        else:
            painter.drawRoundedRect(box, 1.5, 1.5)
        painter.restore()


def scaled_font(widget: QWidget, factor: float, bold: bool = False) -> None:
    """Give ``widget`` a font ``factor`` times the application's, so it grows with the player's system
    font (a size in pixels in a style sheet would not)."""
    font = QFont(QApplication.font())
    font.setPointSizeF(font.pointSizeF() * factor)
    font.setBold(bold)
    widget.setFont(font)


def palette_for(name: str) -> QPalette:
    """The palette of theme ``name`` ("light" or "dark"), without applying it."""
    return _palette(name == "dark")


def apply_theme(app: QApplication, choice: str) -> str:
    """Apply a theme; returns the one in effect ("light" or "dark")."""
    name = effective_theme(choice)
    if not isinstance(app.style(), ReadableStyle):
        app.setStyle(ReadableStyle())
    app.setPalette(_palette(name == "dark"))
    return name
