"""The far-out overview image is redrawn where the map changed only when it is shown (issue 18's performance):
zoomed in, each action redrew the changed areas into an image nobody saw (~0.7 ms of a quest's search)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPointF
from test_ui_map import HUB, World, explored, make_tileset, view, world  # noqa: F401

from d100gui.ui.map.scene import OverviewItem
from d100gui.ui.map.style import OVERVIEW_BELOW_PX
from d100gui.ui.map.view import MapView

pytestmark = pytest.mark.gui


def far_out(v: MapView) -> None:
    v.set_zoom(0.9 * OVERVIEW_BELOW_PX / v.map_scene.style.square)


def test_an_area_mapped_while_zoomed_in_shows_in_the_overview_once_zoomed_out(view, world, explored, monkeypatch):  # noqa: F811
    scene = view.map_scene
    far_out(view)
    view.grab()  # the overview image is made
    view.set_zoom(1.0)
    drawn: list[object] = []
    original = OverviewItem._draw
    monkeypatch.setattr(OverviewItem, "_draw", lambda self, image, rect: (drawn.append(rect), original(self, image, rect)))
    west = world.move(explored, "W", HUB)  # (6,9): a red hub, mapped while zoomed in
    view.set_dungeon(west)
    assert (6, 9) in {a.pos for a in west.areas.values()}
    view.grab()
    assert drawn == []  # not drawn into the hidden image
    far_out(view)
    image = view.grab().toImage()
    assert drawn  # drawn once the overview is shown
    at = view.mapFromScene(scene.area_rect((6, 9)).center() + QPointF(0, 20))  # beside the hero, on the floor
    assert image.pixelColor(at) == scene.style.palette.tints["R"]
