"""Dark and light themes. "system" follows the desktop's colour scheme."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication

THEMES = ("system", "light", "dark")


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
            QPalette.ColorRole.Highlight: "#5a7fb0",
            QPalette.ColorRole.HighlightedText: "#ffffff",
            QPalette.ColorRole.ToolTipBase: "#3a3a3a",
            QPalette.ColorRole.ToolTipText: "#e8e6e3",
            QPalette.ColorRole.PlaceholderText: "#8a8a8a",
            QPalette.ColorRole.Link: "#8ab4f8",
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
            QPalette.ColorRole.PlaceholderText: "#8a8578",
            QPalette.ColorRole.Link: "#1f5fa8",
        }
    for role, value in colours.items():
        pal.setColor(role, QColor(value))
    pal.setColor(QPalette.ColorGroup.Disabled, QPalette.ColorRole.ButtonText, QColor("#7a7a7a"))
    pal.setColor(QPalette.ColorGroup.Disabled, QPalette.ColorRole.Text, QColor("#7a7a7a"))
    return pal


def apply_theme(app: QApplication, choice: str) -> str:
    """Apply a theme; returns the one in effect ("light" or "dark")."""
    name = effective_theme(choice)
    app.setStyle("Fusion")
    app.setPalette(_palette(name == "dark"))
    return name
