"""Gems with their step-up, jewelry, and the hoard by dungeon level, with scripted dice."""

from __future__ import annotations

import pytest
from classic_script import pct

from d100gui.engine.dice.dice import Dice, RandomSource
from d100gui.engine.dice.roller import MissingRowPolicy, TableRoller
from d100gui.engine.toolbox.classic.treasure import _groups, gem_categories, hoard, roll_gems, roll_jewelry
from d100gui.engine.toolbox.inputs import ToolInputError


def test_gem_categories_come_from_the_two_gem_tables(scripted):
    assert gem_categories(scripted().roller) == [10, 50, 100, 500, 1000, 5000, 10_000, 50_000, 100_000, 500_000]


def test_a_one_steps_a_gem_up_and_is_rolled_again_anything_else_stops(scripted):
    s = scripted(*pct(50), 1, 1, 3)  # 100 GP, up to 500, up to 1000, then a 3: no change
    gems = roll_gems(s.roller, 1)
    assert s.source.remaining == 0
    [gem] = gems.gems
    assert (gem.value, gem.stepped, len(gem.steps)) == (1000, 2, 3)
    assert gem.steps[-1].row.implied and gem.steps[-1].text == "no change: the gem stays in its category"
    assert "base 100 GP, stepped up 2 -> 1,000 GP" in gems.describe()


def test_a_gem_at_the_top_category_is_rolled_no_further(scripted):
    s = scripted(*pct(95), 1, 1, 1, 1, 1)  # 1000 GP stepped up five times: 500,000, the last category
    [gem] = roll_gems(s.roller, 1).gems
    assert gem.value == 500_000 and gem.stepped == 5 and s.source.remaining == 0


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_no_gem_ever_asks_for_a_missing_step_up_row_and_about_one_in_six_steps_up(bundled_library):
    roller = TableRoller(bundled_library, Dice(RandomSource(8)), MissingRowPolicy.ASK)
    gems = roll_gems(roller, 10).gems + roll_gems(roller, 10).gems
    for _ in range(100):
        gems += roll_gems(roller, 10).gems
    assert all(s.row is not None for g in gems for s in g.steps)
    first_steps = [g.steps[0] for g in gems if g.steps]
    ups = sum(not s.row.implied for s in first_steps)
    assert 0.12 < ups / len(first_steps) < 0.22


def test_many_gems_are_rolled_in_groups():
    assert _groups(7) == [1] * 7
    assert _groups(23) == [5, 5, 5, 5, 1, 1, 1]
    assert _groups(57) == [10] * 5 + [5, 1, 1]
    assert sum(_groups(999)) == 999


def test_jewelry_takes_its_value_from_the_dice_of_its_row(scripted):
    s = scripted(*pct(10), 3, 4, 5, *pct(90), 7)  # 3d6 x 100 = 1,200; 1d10 x 1000 = 7,000
    jewelry = roll_jewelry(s.roller, 2)
    assert jewelry.total == 8200 and s.source.remaining == 0
    assert "2 piece(s) of jewelry worth 8,200 GP (1,200, 7,000)" == jewelry.describe()


def test_hoard_level_one_multiplies_by_d6_and_totals_in_gold(scripted):
    s = scripted(
        4,  # silver 100 x d6 = 400 SP
        *pct(50),
        3,  # gold on 50%: 10 x d6 = 30 GP
        *pct(5),
        2,  # gems on 5%: d6 = 2 gems
        *pct(6),  # no jewelry
        *pct(100),  # no magic
        *pct(1),
        2,  # a 10 GP gem, no step-up
        *pct(11),
        1,
        6,  # a 50 GP gem stepped up to 100
    )
    result = hoard(s.roller, 1)
    assert s.source.remaining == 0
    assert result.row == "1"
    assert (result.silver.amount, result.gold.amount) == (400, 30)
    assert result.silver.multiplier.expression == "d6"
    assert result.gems.count == 2 and result.gems.total == 110
    assert result.jewelry is None and result.magic is None
    assert result.total_gp == 40 + 30 + 110
    assert "worth 180 GP besides any magic" in result.describe()


def test_hoard_level_eight_multiplies_gems_and_jewelry_by_d12(scripted):
    s = scripted(
        2,  # silver 5000 x d6 = 10,000 SP
        *pct(51),  # no gold
        *pct(41),  # no gems (40%)
        *pct(40),
        1,  # jewelry: d12 = 1 piece
        *pct(21),  # no magic (20%)
        *pct(50),
        4,  # 1d6 x 1000 = 4,000 GP
    )
    result = hoard(s.roller, 8)
    assert s.source.remaining == 0
    assert result.row == "8-9" and result.jewelry_part.multiplier.expression == "d12"
    assert not result.gold.present and result.gold.amount == 0
    assert result.total_gp == 1000 + 4000


def test_hoard_levels_map_to_their_rows_and_level_0_is_refused(bundled_library):
    roller = TableRoller(bundled_library, Dice(RandomSource(2)), MissingRowPolicy.REROLL)
    rows = {level: hoard(roller, level).row for level in (1, 2, 3, 5, 7, 9, 12, 13, 40)}
    assert rows == {1: "1", 2: "2-3", 3: "2-3", 5: "4-5", 7: "6-7", 9: "8-9", 12: "10-12", 13: "13 or more", 40: "13 or more"}
    with pytest.raises(ToolInputError, match="Dungeon level must be 1 or more; 0 is out of range"):
        hoard(roller, 0)
    with pytest.raises(ToolInputError, match="Number of gems must be 1 to"):
        roll_gems(roller, 0)


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_many_hoards_always_roll_through(bundled_library):
    roller = TableRoller(bundled_library, Dice(RandomSource(21)), MissingRowPolicy.REROLL)
    for level in range(1, 16):
        for _ in range(20):
            result = hoard(roller, level)
            assert result.total_gp >= result.silver.amount // 10
            assert result.describe()


def test_the_hoard_values_silver_at_the_shipped_exchange_rate(scripted):
    from d100gui.engine.toolbox.classic.treasure import silver_per_gold

    assert silver_per_gold(scripted().roller) == 10  # 1 gp = 10 sp = 50 cp, as the text prints
