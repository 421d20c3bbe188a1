"""Dungeon levels read against the classic tables' level bands ("4-5", "13 or more", ``level_10_12``)."""

from __future__ import annotations

import re

from d100gui.engine.dice.tables import Table
from d100gui.engine.toolbox.inputs import in_range

__all__ = ["band_of", "check_level", "matrix_column", "treasure_row_key"]

_BAND = re.compile(r"^(\d+)(?:\s*(?:-|_)\s*(\d+)|\s*(or more|_plus))?$")


def band_of(text: str) -> tuple[int, int | None]:
    """``"4-5"`` is (4, 5), ``"13 or more"`` / ``"13_plus"`` is (13, None), ``"1"`` is (1, 1)."""
    match = _BAND.match(text.strip())
    if match is None:
        raise ValueError(f"{text!r} names no level band")
    low = int(match.group(1))
    if match.group(3):
        return low, None
    return low, int(match.group(2)) if match.group(2) else low


def check_level(level: int) -> int:
    """A level beneath the surface: 1 or deeper."""
    return in_range("Dungeon level", level, 1)


def _fits(band: tuple[int, int | None], level: int) -> bool:
    low, high = band
    return low <= level and (high is None or level <= high)


def matrix_column(table: Table, level: int) -> str:
    """The column of the monster matrix for ``level`` (``level_4_5`` for 4 or 5)."""
    check_level(level)
    for column in table.columns:
        if column.key.startswith("level_") and _fits(band_of(column.key.removeprefix("level_")), level):
            return column.key
    raise ValueError(f"{table.title} has no column for level {level}")


def treasure_row_key(table: Table, level: int) -> str:
    """The row of the kind-of-treasure table for ``level`` (``"2-3"`` for 2 or 3)."""
    check_level(level)
    for row in table.rows:
        if _fits(band_of(row.key), level):
            return row.key
    raise ValueError(f"{table.title} has no row for level {level}")
