"""Readable colours in any theme: the WCAG contrast ratio and the tints the widgets derive from a palette.

One place for the arithmetic the sheet and the combat panel both need when a theme switches:
secondary text, coloured notes and lit badges are moved toward the palette's own colours until
they read at :data:`READABLE` against their background.
"""

from __future__ import annotations

from PySide6.QtGui import QColor, QGuiApplication, QPalette

#: the contrast ratio text needs against its background (WCAG AA for normal text)
READABLE = 4.5


def luminance(colour: QColor) -> float:
    """The relative luminance of a colour (WCAG)."""

    def channel(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    return 0.2126 * channel(colour.redF()) + 0.7152 * channel(colour.greenF()) + 0.0722 * channel(colour.blueF())


def contrast(a: QColor, b: QColor) -> float:
    """The contrast ratio of two colours, 1 (the same) to 21 (black on white)."""
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def mix(a: QColor, b: QColor, t: float) -> QColor:
    """``a`` moved a fraction ``t`` of the way toward ``b``."""
    return QColor.fromRgbF(
        a.redF() + (b.redF() - a.redF()) * t, a.greenF() + (b.greenF() - a.greenF()) * t, a.blueF() + (b.blueF() - a.blueF()) * t
    )


def backing(colour: QColor, ink: QColor) -> QColor:
    """A background ``colour`` darkened (under light ink) or lightened (under dark ink) until ``ink`` reads on it."""
    away = QColor("#000000") if luminance(ink) > 0.5 else QColor("#ffffff")
    for step in range(11):
        mixed = mix(colour, away, step / 10)
        if contrast(mixed, ink) >= READABLE:
            return mixed
    return away


def readable(colour: QColor, palette: QPalette) -> QColor:
    """``colour`` moved toward the palette's text colour until it reads on both the window and the
    text boxes (a dim note, a red message), so a tint keeps its meaning in a light and a dark theme."""
    ink = palette.color(QPalette.ColorRole.WindowText)
    grounds = (palette.color(QPalette.ColorRole.Window), palette.color(QPalette.ColorRole.Base))
    for step in range(11):
        mixed = mix(colour, ink, step / 10)
        if all(contrast(mixed, g) >= READABLE for g in grounds):
            return mixed
    return ink


def dim_colour(palette: QPalette | None = None) -> QColor:
    """Text that reads as secondary yet stays readable: the palette's text colour blended toward
    its window colour as far as the contrast with both the window and the base allows."""
    pal = palette or QGuiApplication.palette()
    ink, window, base = (
        pal.color(r) for r in (QPalette.ColorRole.WindowText, QPalette.ColorRole.Window, QPalette.ColorRole.Base)
    )
    for step in range(6, -1, -1):  # 60 % of the way to the window colour, then less
        mixed = mix(ink, window, step / 10)
        if min(contrast(mixed, window), contrast(mixed, base)) >= READABLE:
            return mixed
    return ink


#: the red of an error message, before :func:`readable` fits it to the theme
ERROR_RED = "#c0392b"


def error_style(palette: QPalette | None = None) -> str:
    """A style sheet for an error message: the error red, readable on this palette (the application's by default)."""
    pal = palette or QGuiApplication.palette()
    return f"color: {readable(QColor(ERROR_RED), pal).name()};"
