"""The map's cached background meets what a full repaint draws after every scroll, at any zoom (no grid line
left one pixel off beside the strip a scroll exposes)."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QApplication

from d100gui.demo import build_demo_campaign
from d100gui.engine.adventure.turn import MoveOn
from d100gui.storage import packs
from d100gui.storage.paths import user_data_dir
from d100gui.ui.common.settings import Preferences
from d100gui.ui.main_window import MainWindow

pytestmark = pytest.mark.gui


def cached_and_fresh(view):
    QApplication.processEvents()
    cached = view.viewport().grab().toImage()
    view.resetCachedContent()
    view.viewport().repaint()
    return cached, view.viewport().grab().toImage()


@pytest.fixture(scope="module")
def demo_campaign(bundled_library):
    return build_demo_campaign(bundled_library)  # module-wide: the bundled tables, not a player's folder


@pytest.fixture
def view(qtbot, demo_campaign):
    """The demo's window as it opens (its zoom makes a square a fraction of a pixel wide)."""
    win = MainWindow(packs.load_library(user_data_dir()), Preferences(), campaign=demo_campaign.model_copy(deep=True))
    qtbot.addWidget(win)
    win.resize(1400, 875)
    win.show()
    qtbot.waitExposed(win)
    return win.map_area.view


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
@pytest.mark.parametrize(("dx", "dy"), [(126, 0), (-37, 21), (0, -120), (300, 200)])
def test_a_scroll_leaves_the_background_as_a_full_repaint_draws_it(view, dx, dy):
    cached_and_fresh(view)
    before = view.horizontalScrollBar().value(), view.verticalScrollBar().value()
    view.pan_by(dx, dy)
    assert (view.horizontalScrollBar().value(), view.verticalScrollBar().value()) != before  # it did scroll
    cached, fresh = cached_and_fresh(view)
    assert cached == fresh


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_following_the_hero_leaves_no_stale_grid_line(view):
    window = view.window()
    for side in ("N", "E"):  # the demo's next two turns: each move scrolls the map after the hero
        assert window.bridge.send(MoveOn(side=side))
        cached, fresh = cached_and_fresh(view)
        assert cached == fresh, side
    view.keep_in_view(view.map_scene.area_rect(view.dungeon.entrance), 30)
    cached, fresh = cached_and_fresh(view)
    assert cached == fresh
