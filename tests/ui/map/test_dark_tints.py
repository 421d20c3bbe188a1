"""Issue 19 (cosmetic): yellow areas were almost invisible in the dark theme. Each area colour's tint
stands out from the dark paper at least as far as the faintest light tint stands out from the light
paper (straight RGB distance), for the map style the dark theme gives; the words on the tints keep
4.5:1 (tests/ui/common/test_contrast.py)."""

from __future__ import annotations

import math

from PySide6.QtGui import QColor

from d100gui.ui.map.style import MapStyle


def distance(a: QColor, b: QColor) -> float:
    return math.dist((a.red(), a.green(), a.blue()), (b.red(), b.green(), b.blue()))


def test_every_area_tint_stands_out_from_the_dark_paper():
    light, dark = MapStyle().palette, MapStyle(dark=True).palette
    faintest_light = min(distance(t, light.paper) for t in light.tints.values())
    for key, tint in dark.tints.items():
        assert distance(tint, dark.paper) >= faintest_light, f"{key} tint {tint.name()} is too close to the paper"
