"""Help > About: the one version string, the toolkit and Python, the player's folders, the licence."""

from __future__ import annotations

import platform

import PySide6
import pytest
from PySide6.QtCore import Qt, qVersion
from PySide6.QtGui import QGuiApplication

from d100gui import __license__, __version__
from d100gui.storage.packs import load_library
from d100gui.storage.paths import user_config_dir, user_data_dir, user_log_dir
from d100gui.ui.common.about import AboutDialog
from d100gui.ui.common.settings import Preferences
from d100gui.ui.main_window import MainWindow

pytestmark = pytest.mark.gui


@pytest.fixture
def window(qtbot):
    win = MainWindow(load_library(user_data_dir()), Preferences(), seed=3)
    qtbot.addWidget(win)
    return win


def _menu_action(window, menu_text, action_text):
    [menu] = [a.menu() for a in window.menuBar().actions() if a.text() == menu_text]
    [action] = [a for a in menu.actions() if a.text() == action_text]
    return action


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_help_about_shows_version_toolkit_python_folders_and_licence(window, qtbot, _fresh_home):
    _menu_action(window, "&Help", "&About d100gui").trigger()
    dialog = window.about_dialog
    assert isinstance(dialog, AboutDialog) and dialog.isVisible()
    shown = {label: widget.text() for label, widget in dialog.values.items()}
    assert shown["Version"] == __version__
    assert PySide6.__version__ in shown["Qt"] and qVersion() in shown["Qt"]
    assert platform.python_version() in shown["Python"]
    for label, folder in (
        ("Campaigns and tables", user_data_dir()),
        ("Log files", user_log_dir()),
        ("Settings", user_config_dir()),
    ):
        assert str(folder) in shown[label] and str(_fresh_home) in str(folder), "the test's home, never the player's"
        assert "href=" in shown[label], "a link that opens the folder"
    assert shown["Licence"].startswith(__license__)
    assert f"d100gui {__version__}" in dialog.heading.text()

    qtbot.mouseClick(dialog.copy_button, Qt.MouseButton.LeftButton)
    copied = QGuiApplication.clipboard().text()
    assert f"d100gui: {__version__}" in copied and str(user_log_dir()) in copied
    qtbot.mouseClick(dialog.close_button, Qt.MouseButton.LeftButton)
    assert not dialog.isVisible()
