"""Help > About: the version, what it runs on, where the player's files are, and the licence.

The facts are a list (:func:`about_facts`) so the About box and a bug report say the same thing;
the folders are links that open them, since "where is my campaign?" is the question behind most
visits to an About box.
"""

from __future__ import annotations

import html
import platform
from collections.abc import Callable
from pathlib import Path

import PySide6
from PySide6.QtCore import Qt, QUrl, qVersion
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QFormLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from d100gui import __license__, __version__
from d100gui.storage.paths import user_config_dir, user_data_dir, user_log_dir

FOLDERS = ("Campaigns and tables", "Log files", "Settings")


def toolkit_versions() -> str:
    """The Qt binding and the Qt it runs on (they can differ when Qt comes from the system)."""
    return f"PySide6 {PySide6.__version__}, Qt {qVersion()}"


def about_facts() -> list[tuple[str, str]]:
    """(label, value) rows: the version, the toolkit, Python, the platform, the player's folders, the licence."""
    return [
        ("Version", __version__),
        ("Qt", toolkit_versions()),
        ("Python", f"{platform.python_version()} ({platform.python_implementation()})"),
        ("Platform", platform.platform()),
        (FOLDERS[0], _folder(user_data_dir)),
        (FOLDERS[1], _folder(user_log_dir)),
        (FOLDERS[2], _folder(user_config_dir)),
        ("Licence", f"{__license__} (the rulebook's tables are excerpts; D100 Dungeon belongs to its authors)"),
    ]


class AboutDialog(QDialog):
    """The About box; :attr:`values` holds each fact's label widget (tests read them)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("About d100gui")
        self.setObjectName("aboutDialog")
        layout = QVBoxLayout(self)
        self.heading = QLabel(f"<h2>d100gui {html.escape(__version__)}</h2>")
        intro = QLabel("A desktop companion for the solo dungeon crawl D100 Dungeon, with a toolbox for classic rule systems.")
        intro.setWordWrap(True)
        layout.addWidget(self.heading)
        layout.addWidget(intro)
        form = QFormLayout()
        self.facts = about_facts()
        self.values: dict[str, QLabel] = {}
        for label, value in self.facts:
            shown = QLabel(_folder_link(value) if label in FOLDERS else html.escape(value))
            shown.setTextFormat(Qt.TextFormat.RichText)  # the escaped text and the folder links alike
            shown.setTextInteractionFlags(shown.textInteractionFlags() | Qt.TextInteractionFlag.TextSelectableByMouse)
            shown.setOpenExternalLinks(True)
            shown.setWordWrap(True)
            shown.setToolTip(f"Open this folder: {value}" if label in FOLDERS else "")
            form.addRow(f"{label}:", shown)
            self.values[label] = shown
        layout.addLayout(form)
        layout.addStretch(1)  # extra height below the facts, never between them
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.copy_button = QPushButton("&Copy these details")
        self.copy_button.setToolTip("Copy the version, platform and folders, for a bug report")
        self.copy_button.clicked.connect(self.copy_details)
        buttons.addButton(self.copy_button, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.rejected.connect(self.reject)
        self.close_button = buttons.button(QDialogButtonBox.StandardButton.Close)
        layout.addWidget(buttons)
        width = max(560, self.sizeHint().width())
        self.resize(width, max(self.heightForWidth(width), self.minimumSizeHint().height()))  # wrapped labels: no gaps

    def details_text(self) -> str:
        return "\n".join(f"{label}: {value}" for label, value in [("d100gui", __version__), *self.facts[1:]])

    def copy_details(self) -> None:
        QGuiApplication.clipboard().setText(self.details_text())
        self.copy_button.setText("Copied")


def _folder(where: Callable[[], Path]) -> str:
    """A player's folder, or why it cannot be made (the About box is where they would look)."""
    try:
        return str(where())
    except OSError as exc:
        return f"(cannot be made: {exc})"


def _folder_link(path: str) -> str:
    if path.startswith("(cannot be made"):
        return html.escape(path)
    return f'<a href="{html.escape(QUrl.fromLocalFile(path).toString())}">{html.escape(path)}</a>'
