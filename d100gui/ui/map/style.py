"""How the map looks: its inks and papers (:class:`MapPalette`) and :class:`MapStyle`.

One style is shared by the screen, print and export, so they always agree. The levels of
detail say how much is worth drawing when a square covers only a few pixels on screen.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache

from PySide6.QtGui import QColor

# Levels of detail, by how many screen pixels a square covers.
DETAIL_BLOCKS = 0  # floor and rock blocks only
DETAIL_PLAIN = 1  # walls and doors, rock shaded flat, no text
DETAIL_FULL = 2  # everything: hatching, labels, marks
_PLAIN_FROM_PX = 5.0
_FULL_FROM_PX = 18.0  # door labels (0.36 square) are about 6.5 pixels tall here
#: Below this many screen pixels per square (where words become unreadable) the view
#: shows the map as one image instead of drawing it live.
OVERVIEW_BELOW_PX = _FULL_FROM_PX
#: The overview image's resolution, in pixels per square (less for very big maps).
OVERVIEW_PX_PER_SQUARE = 18.0


@dataclass(frozen=True)
class MapPalette:
    """The inks and papers of one look (colour or black-and-white, light or dark)."""

    desk: QColor
    paper: QColor
    grid: QColor
    block: QColor
    ink: QColor
    hatch: QColor
    rock_fill: QColor
    door_closed: QColor
    label: QColor
    note: QColor
    hero: QColor
    hero_mark: QColor
    codes: dict[str, QColor]
    tints: dict[str, QColor]


def _colours(values: dict[str, str]) -> dict[str, QColor]:
    return {k: QColor(v) for k, v in values.items()}


# The inks of each look, by MapPalette field; codes and tints are by Table M colour.
_LIGHT_INKS = {
    "desk": "#cfc9bb",
    "paper": "#fdfbf5",
    "grid": "#c3d4e4",
    "block": "#93adc6",
    "ink": "#222222",
    "hatch": "#7d7668",
    "rock_fill": "#d9d4c7",
    "door_closed": "#7a4a22",
    "label": "#2a2118",
    "note": "#1f4e8c",
    "hero": "#c0392b",
    "hero_mark": "#ffffff",
}
# colour codes and words read at 4.5:1 or more on the paper and on every tint (tests/ui/common/test_contrast.py)
_LIGHT_CODES = {"Y": "#8a6100", "R": "#a8322a", "G": "#276b2b", "B": "#1f5fa8"}
_LIGHT_TINTS = {"Y": "#fff5d2", "R": "#fde4e0", "G": "#e4f3dd", "B": "#e1ebfa"}
_DARK_INKS = {
    "desk": "#1b1b1b",
    "paper": "#2c2b28",
    "grid": "#3b4047",
    "block": "#505864",
    "ink": "#ece8df",
    "hatch": "#8a8578",
    "rock_fill": "#46443f",
    "door_closed": "#c9a06a",
    "label": "#ece8df",
    "note": "#8ab4f8",
    "hero": "#f08070",
    "hero_mark": "#2c2b28",
}
_DARK_CODES = {"Y": "#e0b84a", "R": "#ef7a6d", "G": "#7cc47f", "B": "#7aa7e8"}
# dark tints stand out from the dark paper at least as far as the light tints from theirs (yellow was
# almost invisible: tests/ui/map/test_dark_tints.py), and still carry every word at 4.5:1
_DARK_TINTS = {"Y": "#4a3d17", "R": "#4d1f19", "G": "#1d4814", "B": "#26344d"}
# Dark without colour: the coloured inks turn to the one light ink.
_DARK_MONO = {"door_closed": "#ece8df", "note": "#ece8df", "hero": "#ece8df"}
# Black and white: every ink is a grey (R = G = B), so a print has no colour at all.
_GREY_INKS = {
    "desk": "#cccccc",
    "paper": "#ffffff",
    "grid": "#c4c4c4",
    "block": "#9a9a9a",
    "ink": "#000000",
    "hatch": "#666666",
    "rock_fill": "#d2d2d2",
    "door_closed": "#000000",
    "label": "#000000",
    "note": "#000000",
    "hero": "#000000",
    "hero_mark": "#ffffff",
}


def _make_palette(inks: dict[str, str], codes: dict[str, str], tints: dict[str, str]) -> MapPalette:
    c = _colours(inks)
    return MapPalette(
        desk=c["desk"],
        paper=c["paper"],
        grid=c["grid"],
        block=c["block"],
        ink=c["ink"],
        hatch=c["hatch"],
        rock_fill=c["rock_fill"],
        door_closed=c["door_closed"],
        label=c["label"],
        note=c["note"],
        hero=c["hero"],
        hero_mark=c["hero_mark"],
        codes=_colours(codes),
        tints=_colours(tints),
    )


@lru_cache(maxsize=8)
def _palette(colour: bool, dark: bool, screen: bool = True) -> MapPalette:
    if not screen:
        # On paper the sheet itself is the paper: no cream tint printed over the page.
        pal = _palette(colour, False, True)
        return replace(pal, desk=QColor("#ffffff"), paper=QColor("#ffffff"), hero_mark=QColor("#ffffff"))
    if dark and colour:
        return _make_palette(_DARK_INKS, _DARK_CODES, _DARK_TINTS)
    if dark:
        codes, tints = dict.fromkeys(_DARK_CODES, "#ece8df"), dict.fromkeys(_DARK_TINTS, "#2c2b28")
        return _make_palette({**_DARK_INKS, **_DARK_MONO}, codes, tints)
    if colour:
        return _make_palette(_LIGHT_INKS, _LIGHT_CODES, _LIGHT_TINTS)
    return _make_palette(_GREY_INKS, dict.fromkeys("YRGB", "#000000"), dict.fromkeys("YRGB", "#ffffff"))


@dataclass(frozen=True)
class MapStyle:
    """How the map looks, shared by the screen and every export.

    ``square`` is the size of one grid square in scene units; ``square_mm`` its size on paper
    at true scale. ``colour`` False gives clean black-and-white (greys only); ``dark`` is for
    the screen in a dark theme and is never used for paper.
    """

    colour: bool = True
    dark: bool = False
    square: float = 25.0
    square_mm: float = 5.0
    screen: bool = True  # False for print and export: white paper, never dark

    @property
    def area(self) -> float:
        """The side of one 3x3 area in scene units."""
        return 3 * self.square

    @property
    def palette(self) -> MapPalette:
        return _palette(self.colour, self.dark and self.screen, self.screen)

    @property
    def mm_per_unit(self) -> float:
        return self.square_mm / self.square

    def detail(self, pixels_per_square: float) -> int:
        """The level of detail to draw: by pixel size on screen, always everything on paper."""
        return detail_for(pixels_per_square) if self.screen else DETAIL_FULL

    def for_paper(self, colour: bool | None = None) -> MapStyle:
        """The same style for print or export: white paper, optionally black-and-white."""
        return replace(self, colour=self.colour if colour is None else colour, dark=False, screen=False)


def detail_for(pixels_per_square: float) -> int:
    """The level of detail worth drawing when a square covers this many device pixels."""
    if pixels_per_square < _PLAIN_FROM_PX:
        return DETAIL_BLOCKS
    if pixels_per_square < _FULL_FROM_PX:
        return DETAIL_PLAIN
    return DETAIL_FULL
