"""A treasure map's gems and jewelry are valued like any others (issue 22: "34 Gems; 4 Jewelry" never valued)."""

from __future__ import annotations

import pytest
from classic_script import pct

from d100gui.engine.dice.dice import Dice, RandomSource
from d100gui.engine.dice.roller import MissingRowPolicy, TableRoller
from d100gui.engine.toolbox.classic.magic import MAPS_TABLE, magic_find, treasure_map
from d100gui.engine.toolbox.classic.treasure import value_find, value_map


def test_a_map_to_gems_and_jewelry_values_them(scripted):
    # map row 7: 10-60 Gems (10d6 = 10), 2-20 Jewelry (2d10 = 2); each gem 26-75 (100 GP) with no step-up (d6 4);
    # each piece of jewelry 21-80: 1d6 x 1000 (3, then 5)
    s = scripted(7, *[1] * 10, 1, 1, *[*pct(50), 4] * 10, *pct(30), 3, *pct(30), 5)
    found = treasure_map(s.roller, s.roller.read(MAPS_TABLE, 1))
    valued = value_map(s.roller, found)
    assert s.source.remaining == 0
    assert valued.values == {"Gems": 1000, "Jewelry": 8000}
    text = valued.describe()
    assert "10 Gems worth 1,000 GP" in text and "2 Jewelry worth 8,000 GP" in text
    assert "Jewelry: 2 piece(s) of jewelry worth 8,000 GP (3,000, 5,000)" in text


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_seeded_maps_always_value_their_gems_and_jewelry(bundled_library):
    roller = TableRoller(bundled_library, Dice(RandomSource(2209)), MissingRowPolicy.ASK)
    maps = [m.map for m in (value_find(roller, magic_find(roller)) for _ in range(400)) if m.map is not None]
    with_gems = [m for m in maps if {"Gems", "Jewelry"} & set(m.totals())]
    assert len(with_gems) > 20  # a quarter of finds are maps; about half of those lead to gems or jewelry
    assert all(set(m.values) == {"Gems", "Jewelry"} & set(m.totals()) for m in with_gems)
