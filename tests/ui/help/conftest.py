"""A shown main window, as the app builds it (the tour and F1 need it on screen)."""

from __future__ import annotations

import pytest

from d100gui.storage import packs
from d100gui.storage.paths import user_data_dir
from d100gui.ui.common.settings import Preferences
from d100gui.ui.main_window import MainWindow


@pytest.fixture
def make_window(qtbot):
    """Build and show a main window on the test's preferences (call it again for a second start)."""

    def make() -> MainWindow:
        win = MainWindow(packs.load_library(user_data_dir()), Preferences(), seed=3)
        qtbot.addWidget(win)
        win.resize(1400, 900)
        win.show()
        qtbot.waitExposed(win)
        win.activateWindow()
        return win

    return make
